#!/usr/bin/env bash
# Builds the DocC catalogs (Sources/*/*.docc) with the toolchain's `docc`, warnings as errors, so
# every ``Symbol`` link resolves, and checks that every source path the articles name
# (`MemprofCore/Engine/Simulator.swift`, `MemprofSampler/`...) exists under Sources/: the map from the
# model's sections to the code stays true when files move. Needs a build (symbol graphs come from
# `swift package dump-symbol-graph`). Output: .build/docs/<Module>.doccarchive.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

swift package dump-symbol-graph --minimum-access-level public >/dev/null 2>&1
graphs="$(dirname "$(swift build --show-bin-path)")/symbolgraph"
mkdir -p .build/docs
status=0
for catalog in Sources/*/*.docc; do
    module="$(basename "$(dirname "$catalog")")"
    work="$(mktemp -d)"
    cp "$graphs/$module".symbols.json "$graphs/$module"@*.symbols.json "$work/" 2>/dev/null || true
    if ! docc convert "$catalog" --additional-symbol-graph-dir "$work" --warnings-as-errors \
        --fallback-display-name "$module" --fallback-bundle-identifier "memprof.$module" \
        --output-path ".build/docs/$module.doccarchive" >"$work/log" 2>&1; then
        cat "$work/log"; echo "check-docs: $catalog has broken links or markup"; status=1
    fi
    # Source paths in backquotes: `Module/File.swift` or `Module/`.
    for path in $(grep -ohE '`[A-Za-z-]+/([A-Za-z0-9+_-]+\.swift)?`' "$catalog"/*.md | tr -d '`' | grep -v '^Sources/$' | sort -u); do
        [ -e "Sources/$path" ] || { echo "$catalog: names Sources/$path, which does not exist"; status=1; }
    done
    rm -rf "$work"
done
[ "$status" -eq 0 ] && echo "check-docs: $(ls -d Sources/*/*.docc | wc -l) DocC catalog(s) build without warnings; every path they name exists"
exit "$status"
