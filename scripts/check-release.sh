#!/usr/bin/env bash
# Checks memprof's Linux release the way an app team uses it: the README's CI recipe for an app's
# repository ("A CI recipe for an app's repository"), its steps read from README.md and run as a
# GitHub Actions runner runs them, in a throwaway app repository with a workload, a sweep and
# budgets of its own, memprof installed from the release tarball outside this checkout; then the
# release alone in a root folder that holds only glibc (chroot), as on a plain glibc Linux.
#   scripts/check-release.sh [TARBALL]
# Without TARBALL: the newest .build/dist/memprof-*-linux-*.tar.gz, built by scripts/release.sh
# when there is none or when MEMPROF_REBUILD_RELEASE=1 (a release build takes long: test.sh
# reuses the one made before).
# Steps that `uses:` an action are the runner's own: checkout is this script's clone of the app
# repository, upload-artifact is left out. No container image is built or pulled.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tarball="${1:-}"
if [ -z "$tarball" ]; then
  newest="$(ls -t "$root"/.build/dist/memprof-*-linux-*.tar.gz 2>/dev/null | head -1 || true)"
  if [ -z "$newest" ] || [ "${MEMPROF_REBUILD_RELEASE:-0}" = 1 ]; then
    tarball="$("$root/scripts/release.sh")"
  else
    tarball="$newest"
    echo "check-release: the release built $(date -u -r "$tarball" '+%Y-%m-%d %H:%M UTC'): $tarball" \
      "(MEMPROF_REBUILD_RELEASE=1 rebuilds it)" >&2
  fi
fi
tarball="$(cd "$(dirname "$tarball")" && pwd)/$(basename "$tarball")"
[ -s "$tarball.sha256" ] || { echo "check-release: no $tarball.sha256" >&2; exit 1; }
version="$(basename "$tarball" | sed -E 's/^memprof-([0-9.]+)-linux-.*$/\1/')"
work="$(mktemp -d)"
jail="$work/glibc-root"
# /proc is mounted in the glibc-only root while it runs: unmounted before anything is removed.
cleanup() { if mountpoint -q "$jail/proc" 2>/dev/null; then umount "$jail/proc"; fi; rm -rf "$work"; }
trap cleanup EXIT
case "$work" in "$root"/*) echo "check-release: $work is inside the checkout" >&2; exit 1 ;; esac
fail() { echo "check-release: $*" >&2; exit 1; }

# The app's repository: a news reader whose suspended footprint and peak the team tracks.
src="$work/app-src"
mkdir -p "$src/memory"
cat > "$src/memory/news-day.yaml" <<'YAML'
memprof: 1
name: news-day
seed: 3
duration: 6h
device: {preset: iphone-11, osVersion: "iOS 18.5"}
policy: xnu
apps:
  news:
    name: News
    averageSuspendedMemory: 180MB
    peakMemoryUsage: 420MB
    launch: {footprint: 300MB, time: 1.2s}
    growth: 4MB/min
    modes: [fetch, remote-notification]
    fetch: {interval: 30m, time: 4s, allocates: 10MB}
    push: {time: 2s, allocates: 4MB}
  camera:
    launch: {footprint: 700MB, time: 900ms}
    onBackground: {release: 200MB}
  game:
    launch: {footprint: 1500MB, time: 3s}
    onBackground: {release: 100MB}
  social:
    launch: {footprint: 500MB, time: 1s}
    growth: 6MB/min
    maxFootprint: 900MB
    onBackground: {release: 150MB}
generate:
  switchEvery: 4m
  weights: {news: 4, camera: 2, game: 1, social: 3}
  homeEvery: 30m
YAML
cat > "$src/memory/news-fleet.yaml" <<'YAML'
memprof: 1
sweep: news-fleet
workload: news-day.yaml
seeds: 1..12
matrix:
  device: [iphone-11, iphone-13, iphone-15]
mix:
  device: {iphone-11: 50%, iphone-13: 30%, iphone-15: 20%}
YAML
cat > "$src/memory/budget.yaml" <<'YAML'
apps:
  news: {peakFootprintBytes: {max: 600MB}}
YAML
cat > "$src/memory/rates.yaml" <<'YAML'
apps:
  news: {memoryKills: {mean: {max: 20}}}
YAML
git() { command git -c user.name=app -c user.email=app@example.com -c init.defaultBranch=main "$@"; }
git -C "$src" init -q
git -C "$src" add memory
git -C "$src" commit -q -m "memory workload"
git clone -q --bare "$src" "$work/origin.git"
checkout="$work/checkout"
git clone -q "$work/origin.git" "$checkout"
# The pull request: News keeps 60 MB more when it launches.
git -C "$checkout" checkout -q -b bigger-launch
sed -i 's/launch: {footprint: 300MB, time: 1.2s}/launch: {footprint: 360MB, time: 1.2s}/' "$checkout/memory/news-day.yaml"
git -C "$checkout" commit -q -am "News keeps more at launch"

# The runner: its variables, a PATH without memprof, and each `run:` step of the README's recipe.
export RUNNER_TEMP="$work/runner-temp" GITHUB_PATH="$work/github-path" GITHUB_STEP_SUMMARY="$work/step-summary"
export GITHUB_BASE_REF=main
mkdir -p "$RUNNER_TEMP"
: > "$GITHUB_PATH"
: > "$GITHUB_STEP_SUMMARY"
base_path="/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
if PATH="$base_path" command -v memprof >/dev/null; then fail "memprof is on the runner's PATH before the recipe installs it"; fi
steps="$work/steps"
mkdir -p "$steps"
python3 - "$root/README.md" "$steps" <<'PY'
import sys, yaml
readme, out = sys.argv[1], sys.argv[2]
text = open(readme, encoding="utf-8").read()
section = text.split("### A CI recipe for an app's repository", 1)[1]
block = section.split("```yaml\n", 1)[1].split("```", 1)[0]
workflow = yaml.safe_load(block)
with open(f"{out}/env", "w") as f:
    for key, value in workflow.get("env", {}).items():
        f.write(f"{key}\t{value}\n")
n = 0
for job in workflow["jobs"].values():
    for step in job["steps"]:
        if "run" not in step:
            continue
        n += 1
        with open(f"{out}/{n:02d}.sh", "w") as f:
            f.write(step["run"])
        with open(f"{out}/{n:02d}.name", "w") as f:
            f.write(step.get("name", f"step {n}"))
PY
pinned="$(awk -F'\t' '$1 == "MEMPROF_VERSION" {print $2}' "$steps/env")"
[ "$pinned" = "$version" ] || fail "README's recipe pins memprof $pinned, the release is $version"
export MEMPROF_VERSION="$version" MEMPROF_URL="file://$tarball"
MEMPROF_SHA256="$(cut -d' ' -f1 "$tarball.sha256")"
export MEMPROF_SHA256
declare -A status
for script in "$steps"/*.sh; do
  name="$(cat "${script%.sh}.name")"
  path="$base_path"
  while read -r entry; do [ -n "$entry" ] && path="$entry:$path"; done < "$GITHUB_PATH"
  set +e
  (cd "$checkout" && PATH="$path" bash --noprofile --norc -eo pipefail "$script") > "$work/$name.log" 2>&1
  status[$name]=$?
  set -e
  echo "check-release: step '$name' exited ${status[$name]}" >&2
done

show() { echo "--- $1" >&2; tail -20 "$work/$1.log" >&2; }
for name in "Install memprof" Base Head; do
  [ "${status[$name]:-missing}" = 0 ] || { show "$name"; fail "step '$name' failed"; }
done
grep -q "news, per cell:" "$work/Head.log" || { show Head; fail "the head sweep printed no table for --app news"; }
grep -q "weighted: all" "$work/Head.log" || { show Head; fail "the head sweep printed no weighted total of its device mix"; }
# News launching 60 MB larger is a regression of the day (exit 1); the budget holds.
[ "${status[Compare and check]:-missing}" = 1 ] || { show "Compare and check"; fail "compare and check exited ${status[Compare and check]:-missing}, not 1"; }
grep -h "^memprof compare\|^memprof check" "$work/Compare and check.log" | sed 's/^/check-release:   /' >&2 || true
grep -q "apps.news" "$checkout/day.md" || fail "day.md does not name the news app's metrics"
[ -s "$checkout/fleet.md" ] && [ -s "$checkout/budget.xml" ] && [ -s "$checkout/rates.xml" ] \
  || fail "fleet.md, budget.xml or rates.xml was not written"
grep -q 'failures="0"' "$checkout/budget.xml" || fail "the budget broke: $(head -c 400 "$checkout/budget.xml")"
# The rate budget held on the head's sweep: the news app's memory kills a day, in every cell.
grep -q 'memoryKills' "$checkout/rates.xml" || fail "rates.xml holds no memoryKills budget: $(head -c 400 "$checkout/rates.xml")"
grep -q 'failures="0"' "$checkout/rates.xml" || fail "the rate budget broke: $(head -c 400 "$checkout/rates.xml")"
[ -s "$GITHUB_STEP_SUMMARY" ] || fail "nothing was appended to \$GITHUB_STEP_SUMMARY"
for file in "$RUNNER_TEMP"/memprof/memprof "$RUNNER_TEMP"/memprof/libmemprof-preload.so; do
  [ -e "$file" ] || fail "the unpacked release has no $(basename "$file")"
done

# The release alone on a root that holds only glibc and /proc (where the loader reads the
# executable's folder for $ORIGIN, as on any Linux): nothing of Swift, nothing else of Debian.
if [ "$(id -u)" = 0 ] && command -v chroot >/dev/null; then
  multiarch="$(dirname "$(readlink -f /lib64/ld-linux-x86-64.so.2 2>/dev/null || readlink -f /lib/ld-linux-aarch64.so.1)")"
  mkdir -p "$jail$multiarch" "$jail/lib64" "$jail/tmp" "$jail/app" "$jail/proc"
  for lib in libc.so.6 libm.so.6 libpthread.so.0 libdl.so.2 librt.so.1 libutil.so.1 libresolv.so.2; do
    [ -e "$multiarch/$lib" ] && cp -L "$multiarch/$lib" "$jail$multiarch/"
  done
  [ -e /lib64/ld-linux-x86-64.so.2 ] && cp -L /lib64/ld-linux-x86-64.so.2 "$jail/lib64/"
  cp -a "$RUNNER_TEMP/memprof" "$jail/memprof"
  cp "$checkout/memory/news-day.yaml" "$jail/app/"
  mount -t proc proc "$jail/proc" || fail "cannot mount /proc in the glibc-only root"
  got="$(chroot "$jail" /memprof/memprof --version)" || fail "memprof --version failed in the glibc-only root"
  [ "$got" = "$version" ] || fail "memprof --version printed '$got' in the glibc-only root"
  chroot "$jail" /memprof/memprof run /app/news-day.yaml --out /app/out > "$work/chroot.log" 2>&1 \
    || { tail -20 "$work/chroot.log" >&2; fail "memprof run failed in the glibc-only root"; }
  umount "$jail/proc"
  [ -s "$jail/app/out/report.json" ] && [ -s "$jail/app/out/report.html" ] || fail "no report written in the glibc-only root"
  echo "check-release: memprof $version ran in a root holding only glibc ($(ls "$jail$multiarch" | tr '\n' ' '))" >&2
else
  echo "check-release: not root, so the glibc-only root (chroot) is not tried" >&2
fi
echo "check-release: the README's app recipe ran from $(basename "$tarball") outside the checkout"
