#!/usr/bin/env bash
# Checks the Swift sources against .swift-format with swift-format (shipped with the toolchain as
# `swift format`). What is checked: every rule .swift-format enables (naming, documentation
# comments with ///, `let` in patterns, no force-unwrapped implicit optionals...), and four layout
# facts: no line longer than .swift-format's `lineLength` (in characters), no tabs, no trailing
# spaces, a newline at the end of every file. What is not: where lines break and continuation
# indentation. The code wraps long calls by aligning with the opening parenthesis, which
# swift-format's pretty printer does not do, so its layout pass is turned off
# (--debug-disable-pretty-print) instead of rewrapping every file; with it goes swift-format's own
# check of the line length, which this script makes instead.
#
# Fix what it reports by hand, or for the rules: swift format --debug-disable-pretty-print -i FILE
# Exit status 0 when clean, 1 with findings.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

status=0
if ! swift format lint --strict --debug-disable-pretty-print --parallel --recursive Sources Tests Package.swift; then
    status=1
fi

mapfile -t files < <(git ls-files '*.swift')
length="$(python3 -c 'import json; print(json.load(open(".swift-format"))["lineLength"])')"
if ! python3 - "$length" "${files[@]}" <<'PY'
import sys
limit, long = int(sys.argv[1]), 0
for name in sys.argv[2:]:
    for number, line in enumerate(open(name, encoding="utf-8"), 1):
        width = len(line.rstrip("\n"))
        if width > limit:
            print(f"{name}:{number}: {width} characters")
            long += 1
if long:
    print(f"check-format: {long} lines longer than {limit} characters (.swift-format's lineLength) above")
    sys.exit(1)
PY
then status=1; fi
if grep -n -P '\t' "${files[@]}"; then echo "check-format: tabs in the lines above (indent with 4 spaces)"; status=1; fi
if grep -n -E ' +$' "${files[@]}"; then echo "check-format: trailing spaces in the lines above"; status=1; fi
for f in "${files[@]}"; do
    if [ -s "$f" ] && [ -n "$(tail -c1 "$f")" ]; then echo "$f: no newline at the end of the file"; status=1; fi
done

[ "$status" -eq 0 ] && echo "check-format: ${#files[@]} Swift files follow .swift-format"
exit "$status"
