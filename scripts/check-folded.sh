#!/usr/bin/env bash
# Checks a folded-stacks file against the rules FlameGraph's flamegraph.pl reads it by:
#   - every line is `STACK COUNT`, matching flamegraph.pl's own /^(.*)\s+?(\d+(?:\.\d*)?)$/;
#   - STACK itself must not end in whitespace + number (flamegraph.pl would take it for a
#     second, differential count column);
#   - COUNT is a positive integer (memprof writes sample counts);
#   - frames are separated by `;`, none empty (no leading/trailing `;`, no `;;`);
#   - no stack appears twice (stackcollapse output merges them).
# Usage: scripts/check-folded.sh FILE...   Prints a summary; exits 1 on the first bad file.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 FILE..." >&2; exit 2; }
for file in "$@"; do
  perl -e '
    my ($file) = @ARGV; open(my $in, "<", $file) or die "cannot read $file: $!\n";
    my ($lines, $samples, %seen, $errors) = (0, 0);
    while (my $line = <$in>) {
      chomp $line; $lines++;
      my ($stack, $count) = ($line =~ /^(.*)\s+?(\d+(?:\.\d*)?)$/);
      if (!defined $count) { print STDERR "$file:$lines: not STACK COUNT\n"; $errors++; next }
      if ($stack =~ /^(.*)\s+?(\d+(?:\.\d*)?)$/) { print STDERR "$file:$lines: stack ends in a number (read as a differential column)\n"; $errors++ }
      if ($count !~ /^[1-9]\d*$/) { print STDERR "$file:$lines: count $count is not a positive integer\n"; $errors++ }
      if ($stack eq "" || $stack =~ /(^;|;;|;$)/) { print STDERR "$file:$lines: empty frame\n"; $errors++ }
      if ($seen{$stack}++) { print STDERR "$file:$lines: stack repeated\n"; $errors++ }
      $samples += $count;
    }
    if ($lines == 0) { print STDERR "$file: empty\n"; $errors++ }
    exit 1 if $errors;
    print "$file: ok, $lines stacks, $samples samples\n";
  ' "$file"
done
