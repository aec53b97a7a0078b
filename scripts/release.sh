#!/usr/bin/env bash
# Builds memprof's Linux release: a tarball that runs on a plain Linux with glibc, without Swift.
#   scripts/release.sh [--out DIR]    (default .build/dist)
# writes DIR/memprof-VERSION-linux-ARCH.tar.gz and its .sha256, VERSION being `memprof --version`.
# The tarball holds one folder, memprof-VERSION-linux-ARCH/, with
#   memprof                  the command line, the Swift standard library and Foundation linked in
#                            statically (-static-stdlib), built without the `Serve` trait
#   libmemprof-preload.so    beside it, the library a workload's own program runs with
#   lib/                     the libraries memprof needs that glibc does not provide (zlib, libcrypto,
#                            libdw and what libdw loads, libunwind, the C++ runtime the Swift
#                            runtime uses), found through memprof's RPATH $ORIGIN/lib, with their
#                            Debian copyright files in lib/licenses
#   README.md, VERSION
# The build has a folder of its own (.build/release-static), so it neither waits for nor rebuilds
# the debug and release builds in .build; a second run only relinks what changed. The script
# refuses a binary that needs any library outside glibc and lib/, and checks that the unpacked
# folder runs (`memprof --version`, `memprof list devices`).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$root/.build/dist"
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="$2"; shift 2 ;;
    *) echo "usage: scripts/release.sh [--out DIR]" >&2; exit 2 ;;
  esac
done
mkdir -p "$out"
out="$(cd "$out" && pwd)"
"$root/scripts/setup.sh"
scratch="$root/.build/release-static"
# $ORIGIN/lib as DT_RPATH (not RUNPATH: an RPATH also serves the libraries those libraries need,
# and dlopen of libunwind by memprof and by the preload library).
flags=(-c release --static-swift-stdlib --disable-default-traits --scratch-path "$scratch"
       -Xlinker -rpath -Xlinker '$ORIGIN/lib' -Xlinker --disable-new-dtags)
echo "release: building memprof and libmemprof-preload.so (-static-stdlib) in $scratch" >&2
(cd "$root" && swift build "${flags[@]}" --product memprof >&2 && swift build "${flags[@]}" --product memprof-preload >&2)
bin="$(cd "$root" && swift build "${flags[@]}" --show-bin-path)"

version="$("$bin/memprof" --version)"
[[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || { echo "release: memprof --version printed '$version'" >&2; exit 1; }
name="memprof-$version-linux-$(uname -m)"
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
dir="$stage/$name"
mkdir -p "$dir/lib/licenses"
cp "$bin/memprof" "$bin/libmemprof-preload.so" "$dir/"
strip --strip-debug "$dir/memprof"
cp "$root/README.md" "$dir/README.md"
echo "$version" > "$dir/VERSION"

# glibc's own libraries: what every glibc Linux has. Anything else memprof, the preload library or
# libunwind needs is copied into lib/ (with what those libraries need in turn).
glibc='^(linux-vdso\.so\.1|ld-linux-x86-64\.so\.2|ld-linux-aarch64\.so\.1|libc\.so\.6|libm\.so\.6|libpthread\.so\.0|libdl\.so\.2|librt\.so\.1|libutil\.so\.1|libresolv\.so\.2)$'
bundle() {  # bundle FILE: copy FILE's non-glibc libraries into lib/
  ldd "$1" | awk '$2 == "=>" && $3 ~ /^\// {print $1, $3}' | while read -r soname path; do
    [[ "$soname" =~ $glibc ]] && continue
    [ -e "$dir/lib/$soname" ] && continue
    cp -L "$path" "$dir/lib/$soname"
    license "$path"
  done
}
license() {  # license FILE: copy the copyright file of the Debian package that installed FILE
  local real package
  real="$(readlink -f "$1")"
  # With a merged /usr, dpkg knows a library by /lib/... or by /usr/lib/...: ask for both.
  package="$( { dpkg -S "$real" || dpkg -S "${real#/usr}" || dpkg -S "/usr$real"; } 2>/dev/null | head -1 | cut -d: -f1 || true)"
  [ -n "$package" ] || { echo "release: no Debian package installed $real, so no copyright file for it" >&2; exit 1; }
  cp "/usr/share/doc/$package/copyright" "$dir/lib/licenses/$package.copyright"
}
unwind="$(ldconfig -p | awk '$1 == "libunwind.so.8" && /x86-64|AArch64/ {print $NF; exit}')"
[ -n "$unwind" ] || { echo "release: libunwind.so.8 is not installed (scripts/setup.sh installs libunwind-dev)" >&2; exit 1; }
cp -L "$unwind" "$dir/lib/libunwind.so.8"
for file in "$dir/memprof" "$dir/libmemprof-preload.so" "$unwind"; do bundle "$file"; done
for file in "$dir"/lib/*.so*; do bundle "$file"; done
license "$unwind"

# Every library the unpacked files need is glibc's or in lib/ (ldd with the system's copies hidden
# would need a chroot; the loader's search order puts the RPATH before the system's folders).
# The executable's RPATH serves the libraries it needs indirectly too, so its ldd lists them all.
for file in "$dir/memprof" "$dir/libmemprof-preload.so"; do
  while read -r soname path; do
    [[ "$soname" =~ $glibc ]] && continue
    [ "$path" = "$dir/lib/$soname" ] || { echo "release: $file needs $soname from $path, outside lib/" >&2; exit 1; }
  done < <(ldd "$file" | awk '$2 == "=>" {print $1, $3}')
done
newest="$(objdump -T "$dir/memprof" "$dir/libmemprof-preload.so" "$dir"/lib/*.so* 2>/dev/null \
  | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -1)"
echo "${newest#GLIBC_}" > "$dir/lib/glibc-version"
"$dir/memprof" --version >/dev/null
"$dir/memprof" list devices >/dev/null

rm -f "$out/$name.tar.gz" "$out/$name.tar.gz.sha256"
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 -C "$stage" -czf "$out/$name.tar.gz.partial" "$name"
mv "$out/$name.tar.gz.partial" "$out/$name.tar.gz"
(cd "$out" && sha256sum "$name.tar.gz" > "$name.tar.gz.sha256")
echo "release: $out/$name.tar.gz (needs glibc ${newest#GLIBC_} or later)" >&2
echo "$out/$name.tar.gz"
