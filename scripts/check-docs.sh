#!/usr/bin/env bash
# Checks the documentation, failing on any link that leads nowhere:
#  1. builds every DocC catalog (Sources/*/*.docc, whatever modules have one) with the toolchain's
#     `docc`, warnings as errors, against its module's symbol graph: a symbol link (``Foo``,
#     ``Foo/bar(_:)``) or an article link (<doc:Bar>) that does not resolve fails the build, in the
#     articles and in the module's public doc comments alike;
#  2. checks that every source path an article names in code voice (`MemprofCore/Engine/Simulator.swift`,
#     `MemprofSampler/`, `scripts/bench.sh`) exists, under Sources/ or from the repository's root;
#  3. checks that every relative link of README.md ([text](path), path#anchor) names a file that
#     exists.
# With --all-modules it also reads the public doc comments of the modules that have no catalog
# and fails on their symbol links that do not resolve (many name another module's symbols, which
# DocC cannot link across modules: write those in code voice).
# Needs a build: the symbol graphs come from `swift package dump-symbol-graph`.
# Output: .build/docs/<Module>.doccarchive. Exit status 0 when everything resolves, 1 otherwise.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

if ! swift package dump-symbol-graph --minimum-access-level public >.build/check-docs-symbolgraph.log 2>&1; then
    tail -30 .build/check-docs-symbolgraph.log
    echo "check-docs: swift package dump-symbol-graph failed"
    exit 1
fi
graphs="$(dirname "$(swift build --show-bin-path)")/symbolgraph"
mkdir -p .build/docs
status=0
catalogs=(Sources/*/*.docc)
for catalog in "${catalogs[@]}"; do
    module="$(basename "$(dirname "$catalog")")"
    work="$(mktemp -d)"
    cp "$graphs/$module".symbols.json "$graphs/$module"@*.symbols.json "$work/" 2>/dev/null || true
    if ! docc convert "$catalog" --additional-symbol-graph-dir "$work" --warnings-as-errors \
        --fallback-display-name "$module" --fallback-bundle-identifier "memprof.$module" \
        --output-path ".build/docs/$module.doccarchive" >"$work/log" 2>&1; then
        cat "$work/log"; echo "check-docs: $catalog has broken links or markup"; status=1
    fi
    # Source paths in code voice: `Module/File.swift`, `Module/`, `scripts/name.sh`.
    for path in $(grep -ohE '`[A-Za-z-]+/([A-Za-z0-9+_.-]+/)*([A-Za-z0-9+_.-]+\.(swift|sh|py|c|h|md|yaml|ips))?`' "$catalog"/*.md \
        | tr -d '`' | sort -u); do
        [ -e "Sources/$path" ] || [ -e "$path" ] \
            || { echo "$catalog: names $path, which exists neither under Sources/ nor at the root"; status=1; }
    done
    rm -rf "$work"
done

# --all-modules: the doc comments of every module without a catalog, through an empty catalog.
if [ "${1:-}" = --all-modules ]; then
    for graph in "$graphs"/*.symbols.json; do
        module="$(basename "$graph" .symbols.json)"
        case "$module" in *@*|memprofPackage*) continue ;; esac
        [ -d "Sources/$module/$module.docc" ] && continue
        work="$(mktemp -d)"
        mkdir "$work/$module.docc"
        cp "$graphs/$module".symbols.json "$graphs/$module"@*.symbols.json "$work/" 2>/dev/null || true
        docc convert "$work/$module.docc" --additional-symbol-graph-dir "$work" \
            --fallback-display-name "$module" --fallback-bundle-identifier "memprof.$module" \
            --output-path "$work/out" >"$work/log" 2>&1 || true
        if grep -E "doesn't exist at" "$work/log" | sed "s|^|$module: |" | grep .; then status=1; fi
        rm -rf "$work"
    done
fi

# README.md's relative links: [text](path) or [text](path#anchor), not http(s) or mailto.
for target in $(grep -oE '\]\([^)# ]+(#[^) ]*)?\)' README.md | sed -E 's/^\]\(//; s/\)$//; s/#.*//' \
    | grep -vE '^(https?|mailto):' | grep -v '^$' | sort -u); do
    [ -e "$target" ] || { echo "README.md: links to $target, which does not exist"; status=1; }
done

[ "$status" -eq 0 ] && echo "check-docs: ${#catalogs[@]} DocC catalog(s) build without warnings; every link and path they and README.md name resolves"
exit "$status"
