#!/usr/bin/env bash
# Checks that Package.swift states exactly what each target imports: for every target with Swift
# sources, the modules its `import` lines name (`import`, `@testable import`, `internal import`,
# `public import`, `import struct X.Y`...) are the target's declared dependencies, no more and no
# fewer. The system's and the toolchain's modules (Foundation, Glibc, Dispatch, Testing...) are
# not declared, so they are not counted. The system's C library (Glibc, Darwin, Musl) is imported
# by MemprofPlatform alone, which re-exports it: any other import of it is a difference too.
# The README's table of layers must agree with the targets' dependencies (each target in one row,
# depending only on its own row and those above). memprof-serve must not link, even through another
# target, what it does not serve (Yams, the workload format, libcrypto, the sampler, libdw).
# Prints every difference and exits 1 when there is one.
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
c_library = {"Glibc", "Musl", "Darwin"}
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
            if m and m.group(1) in c_library and target["name"] != "MemprofPlatform":
                problems.append(f"{target['name']}: imports {m.group(1)} ({f}:{number}); "
                                "the system's C library comes through MemprofPlatform")
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

# The README's table of layers, "each depending only on those above it": every target that is not
# a test is in one row, and depends only on targets of its own row or the rows above.
readme = open("README.md", encoding="utf-8").read()
section = readme.split("\nLayers, each depending only on its own row and those above it", 1)[1].split("\n\n", 2)[1]
names = {t["name"] for t in package["targets"]}
layer_of = {}
for index, row in enumerate(line for line in section.splitlines() if line.startswith("|")):
    if index < 2:
        continue  # the header and its rule
    layer = row.split("|")[1].strip()
    for module in re.findall(r"`([A-Za-z][A-Za-z0-9-]*)`", row.split("|", 2)[2]):
        if module in names:
            if module in layer_of and layer_of[module][1] != layer:
                problems.append(f"README's layers: {module} is in two rows ({layer_of[module][1]}, {layer})")
            layer_of.setdefault(module, (index, layer))
for target in package["targets"]:
    if target["type"] in ("test", "plugin", "macro"):
        continue
    if target["name"] not in layer_of:
        problems.append(f"README's layers: {target['name']} is in no row")
        continue
    own = layer_of[target["name"]]
    for dep in target.get("dependencies", []):
        name = (dep.get("byName") or dep.get("target") or [None])[0]
        if name in layer_of and layer_of[name][0] > own[0]:
            problems.append(f"README's layers: {target['name']} ({own[1]}) depends on {name}, "
                            f"which is below it ({layer_of[name][1]})")

# What an executable must not link: memprof-serve serves reports (read as JSON) and pages, so
# neither the YAML reader and Yams, the workload format and libcrypto, nor the sampler and libdw.
must_not_link = {"memprof-serve": {"Yams", "MemprofYAMLReader", "MemprofWorkload", "CCrypto", "MemprofSampler",
                                   "CSampler", "CDwarf"}}
by_name = {t["name"]: t for t in package["targets"]}
def linked(name, seen):
    for dep in by_name[name].get("dependencies", []):
        if "product" in dep:
            seen.add(dep["product"][0])
            continue
        dep_name = (dep.get("byName") or dep.get("target"))[0]
        if dep_name in by_name and dep_name not in seen:
            seen.add(dep_name)
            linked(dep_name, seen)
    return seen
for executable, forbidden in must_not_link.items():
    for module in sorted(linked(executable, set()) & forbidden):
        problems.append(f"{executable} links {module}, which it does not serve")

for p in problems:
    print(f"check-manifest: {p}")
if problems:
    print(f"check-manifest: {len(problems)} differences between Package.swift and the imports")
    sys.exit(1)
print(f"check-manifest: every target's dependencies are its imports ({len(package['targets'])} targets)")
PY
