#!/usr/bin/env bash
# Checks `memprof export --format pprof` with a real reader: `go tool pprof` (Debian's golang-go,
# installed when missing) must read the file, show samples, and list the app and handler labels.
# Usage: scripts/check-pprof.sh REPORT     (uses $MEMPROF_BIN, else .build/debug/memprof)
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 REPORT" >&2; exit 2; }
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="${MEMPROF_BIN:-$root/.build/debug/memprof}"
"$(dirname "${BASH_SOURCE[0]}")/setup.sh" --tests   # chromium, golang-go and the rest, when missing
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
"$bin" export "$1" --format pprof -o "$tmp/profile.pb.gz"
[ "$(head -c 2 "$tmp/profile.pb.gz" | od -An -tx1 | tr -d ' ')" = "1f8b" ] || { echo "check-pprof: not gzip" >&2; exit 1; }
top="$(go tool pprof -top "$tmp/profile.pb.gz" 2>&1)" || { echo "$top" >&2; exit 1; }
echo "$top" | grep -q "Total samples" || { echo "check-pprof: no samples in: $top" >&2; exit 1; }
tags="$(go tool pprof -tags "$tmp/profile.pb.gz" 2>&1)"
for label in "app:" "handler:" "kernel:"; do
  echo "$tags" | grep -q "$label" || { echo "check-pprof: label ${label%:} missing in: $tags" >&2; exit 1; }
done
echo "check-pprof: go tool pprof reads $1 ($(echo "$top" | grep -m1 "Total samples" | sed 's/^ *//'))"
