#!/usr/bin/env python3
"""Checks that the manifest and the imports agree, and that the layers point one way.

Reads `swift package dump-package` (JSON on stdin) and every target's Swift files:
- each module a target imports is one it declares (the toolchain's own modules aside);
- each dependency a target declares is imported by at least one of its files;
- LocationKit knows only GPSReports and GeoTrackReactive (and swift-log, and Executors for threads that
  wait without Dispatch): no gpsd, no NMEA; WebServe knows NIO only.
Prints one line per problem and exits 1 if there is any.
"""
import json, os, re, sys

TOOLCHAIN = {"Foundation", "FoundationEssentials", "Glibc", "Darwin", "Dispatch", "Synchronization",
             "Testing", "XCTest", "_Concurrency", "Swift"}
# Modules a product brings, when its name is not the module's.
PRODUCT_MODULES = {"SystemPackage": {"SystemPackage"}}
LAYERS = {
    "LocationKit": {"GPSReports", "GeoTrackReactive", "Logging", "Executors"},
    # serve's HTTP server knows HTTP and NIO only: what it streams is the CLI's to say.
    "WebServe": {"NIOCore", "NIOPosix", "NIOHTTP1"},
}

package = json.load(sys.stdin)
problems = []
for target in package["targets"]:
    if target["type"] == "system":
        continue
    name = target["name"]
    folder = target.get("path") or os.path.join("Tests" if target["type"] == "test" else "Sources", name)
    declared = set()
    for dependency in target["dependencies"]:
        kind, value = next(iter(dependency.items()))
        declared |= PRODUCT_MODULES.get(value[0], {value[0]})
    imported = {}
    for root, _, files in os.walk(folder):
        for file in files:
            if not file.endswith(".swift"):
                continue
            path = os.path.join(root, file)
            for line in open(path, encoding="utf-8"):
                match = re.match(r"\s*(?:@testable\s+|@_exported\s+)?import\s+(?:struct\s+|class\s+|enum\s+|func\s+)?([A-Za-z_][A-Za-z0-9_]*)", line)
                if match:
                    imported.setdefault(match.group(1), path)
    for module, path in sorted(imported.items()):
        if module not in declared and module not in TOOLCHAIN and module != name:
            problems.append(f"{path}: imports {module}, which target {name} does not declare")
    for module in sorted(declared):
        if module not in imported:
            problems.append(f"Package.swift: target {name} declares {module} but no file of it imports it")
    if name in LAYERS and not declared <= LAYERS[name]:
        problems.append(f"Package.swift: {name} may depend on {sorted(LAYERS[name])} only, not {sorted(declared - LAYERS[name])}")

for problem in problems:
    print(problem)
sys.exit(1 if problems else 0)
