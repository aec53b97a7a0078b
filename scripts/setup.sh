#!/usr/bin/env bash
# Installs the system packages memprof needs (libunwind-dev, zlib1g-dev, pkg-config) when they are missing.
# Safe to run again: it does nothing when everything is there.
set -euo pipefail
need=()
dpkg -s libunwind-dev >/dev/null 2>&1 || need+=(libunwind-dev)
dpkg -s zlib1g-dev >/dev/null 2>&1 || need+=(zlib1g-dev)
command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
if [ ${#need[@]} -gt 0 ]; then
  echo "memprof setup: installing ${need[*]}" >&2
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${need[@]}" >&2
fi
