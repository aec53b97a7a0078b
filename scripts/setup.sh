#!/usr/bin/env bash
# Installs the Debian packages memprof needs when they are missing; does nothing when all are there.
#   scripts/setup.sh           what building and running need: libunwind-dev, zlib1g-dev, pkg-config,
#                              libdw-dev (file:line from DWARF for programs run as work)
#   scripts/setup.sh --tests   and what the tests need: python3-jsonschema, chromium, golang-go
set -euo pipefail
# memprof is built and run on Linux (MemprofPlatform says what a port would change). Elsewhere, one
# sentence and the command that runs it in a Linux container from the checkout.
if [ "$(uname -s)" != Linux ]; then
  echo "memprof runs on Linux, not on $(uname -s); from this checkout, run it in a Linux container:" >&2
  echo "  docker run --rm -it -v \"\$PWD\":/memprof -w /memprof swift:6.1 ./scripts/memprof run" >&2
  exit 1
fi
# scripts/setup.sh --fleet: Dask distributed (PyPI) in .build/fleet-venv, for scripts/fleet_dask.py
# and its check (sweeps past one machine run their shards as Dask tasks).
if [ "${1:-}" = "--fleet" ]; then
  venv="${FLEET_VENV:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/.build/fleet-venv}"
  [ -x "$venv/bin/dask" ] && exit 0
  echo "memprof setup: installing Dask distributed into $venv" >&2
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q "distributed==2026.8.0"
  exit 0
fi
packages=(libunwind-dev zlib1g-dev libssl-dev pkg-config libdw-dev)
if [ "${1:-}" = "--tests" ]; then
  packages+=(python3-jsonschema chromium golang-go)
fi
need=()
for package in "${packages[@]}"; do
  dpkg -s "$package" >/dev/null 2>&1 || need+=("$package")
done
[ ${#need[@]} -gt 0 ] || exit 0
echo "memprof setup: installing ${need[*]}" >&2
sudo_cmd=""
[ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
log="$(mktemp)"
if ! { $sudo_cmd apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${need[@]}"; } >"$log" 2>&1; then
  cat "$log" >&2
  echo "memprof setup: could not install ${need[*]}" >&2
  exit 1
fi
rm -f "$log"
