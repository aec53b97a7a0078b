#!/usr/bin/env bash
# Runs the README's user-program example (scripts/examples/user-program.yaml, spec §8.1) and
# reads its allocation profile with a real reader: `go tool pprof -sample_index=…` must find the
# example's leak at leak_small (5 MiB a run) in use at its exit (inuse_space, Go's convention), its
# 40 MiB at hold_blocks in use at the peak (peak_space), leak_small among the allocations, and
# file:line from DWARF with -lines.
# Usage: scripts/check-user-program.sh     (uses $MEMPROF_BIN, else .build/debug/memprof)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bin="${MEMPROF_BIN:-$root/.build/debug/memprof}"
swift build -c release --disable-default-traits --product memprof-example-c >/dev/null
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
"$bin" run scripts/examples/user-program.yaml --out "$tmp/run" >/dev/null
"$bin" export "$tmp/run" --format pprof -o "$tmp/profile.pb.gz"
fail() { echo "check-user-program: $1" >&2; exit 1; }
inuse="$(go tool pprof -sample_index=inuse_space -top "$tmp/profile.pb.gz" 2>&1)" || fail "$inuse"
echo "$inuse" | grep -Eq '^ +(5|10|15|20)MB +100% .* leak_small$' || fail "not 5MB a run at leak_small in use at exit: $inuse"
echo "$inuse" | grep -q ' hold_blocks$' && fail "hold_blocks (freed) in use at exit: $inuse"
objects_held="$(go tool pprof -sample_index=inuse_objects -top "$tmp/profile.pb.gz" 2>&1)" || fail "$objects_held"
echo "$objects_held" | grep -Eq '^ +(5120|10240|15360|20480) +100% .* leak_small$' || fail "not 5120 blocks a run at leak_small in use at exit: $objects_held"
peak="$(go tool pprof -sample_index=peak_space -top "$tmp/profile.pb.gz" 2>&1)" || fail "$peak"
echo "$peak" | grep -Eq '^ +40MB +100% .* hold_blocks$' || fail "no 40MB at hold_blocks in use at the peak: $peak"
space="$(go tool pprof -sample_index=alloc_space -top "$tmp/profile.pb.gz" 2>&1)" || fail "$space"
echo "$space" | grep -Eq ' leak_small$' || fail "leak_small missing from alloc_space: $space"
objects="$(go tool pprof -sample_index=alloc_objects -top "$tmp/profile.pb.gz" 2>&1)" || fail "$objects"
echo "$objects" | grep -Eq ' leak_small$' || fail "leak_small missing from alloc_objects: $objects"
lines="$(go tool pprof -sample_index=peak_space -lines -top "$tmp/profile.pb.gz" 2>&1)" || fail "$lines"
echo "$lines" | grep -Eq 'hold_blocks .*main\.c:[0-9]+' || fail "no file:line for hold_blocks: $lines"
for f in allocated-bytes allocations peak-bytes leaked-bytes; do
  ./scripts/check-folded.sh "$tmp/run/$f.folded" >/dev/null
done
./scripts/check-speedscope.sh "$tmp/run/profile.speedscope.json" >/dev/null
echo "check-user-program: go tool pprof reads alloc_space, alloc_objects, inuse_space, inuse_objects and peak_space ($(echo "$peak" | grep -m1 'Total samples' | sed 's/^ *//'))"
