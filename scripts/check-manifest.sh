#!/usr/bin/env bash
# Checks that Package.swift states exactly what each target imports: for every target with Swift
# sources, the modules its `import` lines name (`import`, `@testable import`, `internal import`,
# `public import`, `import struct X.Y`...) are the target's declared dependencies, no more and no
# fewer. The system's and the toolchain's modules (Foundation, Glibc, Dispatch, Testing...) are
# not declared, so they are not counted. Prints every difference and exits 1 when there is one.
#   scripts/check-manifest.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
manifest="$(mktemp)"
trap 'rm -f "$manifest"' EXIT
swift package dump-package >"$manifest"
python3 - "$manifest" <<'PY'
import json, os, re, sys

package = json.load(open(sys.argv[1]))
# Modules of the system and the toolchain: never declared in a manifest.
system = {"Foundation", "FoundationEssentials", "FoundationNetworking", "FoundationXML", "CoreFoundation",
          "Glibc", "Musl", "Darwin", "WinSDK", "Android", "Dispatch", "Synchronization", "Observation",
          "Swift", "_Concurrency", "_StringProcessing", "RegexBuilder", "Distributed", "Testing", "XCTest", "os"}
# Modules a product brings besides the one named like it: Yams' product holds its C parser.
product_modules = {"Yams": {"Yams", "CYaml"}}

import_line = re.compile(
    r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?import\s+"
    r"(?:(?:struct|class|enum|protocol|typealias|func|let|var|actor)\s+)?([A-Za-z_][A-Za-z0-9_]*)")

def declared(target):
    """Each declared dependency, by the module names it provides (a product may provide several)."""
    out = {}
    for dep in target.get("dependencies", []):
        if "byName" in dep:
            name = dep["byName"][0]
            out[name] = {name}
        elif "target" in dep:
            name = dep["target"][0]
            out[name] = {name}
        elif "product" in dep:
            name = dep["product"][0]
            out[name] = product_modules.get(name, {name})
    return out

def sources(target):
    default = {"test": "Tests"}.get(target["type"], "Sources")
    path = target.get("path") or os.path.join(default, target["name"])
    for folder, _, files in os.walk(path):
        for f in sorted(files):
            if f.endswith(".swift"):
                yield os.path.join(folder, f)

problems = []
for target in package["targets"]:
    if target["type"] in ("system", "binary", "plugin", "macro"):
        continue
    files = list(sources(target))
    if not files:
        continue  # a C target: its dependencies are headers it includes
    imported = {}
    for f in files:
        for number, line in enumerate(open(f, encoding="utf-8"), 1):
            m = import_line.match(line)
            if m and m.group(1) not in system and m.group(1) != target["name"]:
                imported.setdefault(m.group(1), f"{f}:{number}")
    deps = declared(target)
    provided = set().union(*deps.values()) if deps else set()
    for module, place in sorted(imported.items()):
        if module not in provided:
            problems.append(f"{target['name']}: imports {module} ({place}) but does not declare it")
    for name, modules in sorted(deps.items()):
        if not modules & imported.keys():
            problems.append(f"{target['name']}: declares {name} but no source imports it")

for p in problems:
    print(f"check-manifest: {p}")
if problems:
    print(f"check-manifest: {len(problems)} differences between Package.swift and the imports")
    sys.exit(1)
print(f"check-manifest: every target's dependencies are its imports ({len(package['targets'])} targets)")
PY
