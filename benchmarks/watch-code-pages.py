#!/usr/bin/env python3
"""Which modules' code a running geotrack has mapped: the pages of the binary's executable
segment present in the process (/proc/PID/pagemap), counted by the 64 KiB windows the kernel
maps around each page a fault touches, and each window shared out among the modules whose
functions lie in it (by `nm`: Swift's mangled module name, the standard library's $ss/$sS,
C++ and C). Run by benchmarks/watch-code-pages.sh; reading pagemap needs root.

Usage: watch-code-pages.py PID BINARY
"""
import bisect
import collections
import re
import struct
import subprocess
import sys

WINDOW = 64 * 1024


def module(name):
    if name.startswith(("$ss", "$sS")):
        return "Swift standard library"
    match = re.match(r"^\$s(\d+)(\w+)", name)
    if match:
        return match.group(2)[: int(match.group(1))]
    if name.startswith("$s"):
        return "Swift (other)"
    return "C++" if name.startswith("_Z") else "C"


def main():
    pid, binary = int(sys.argv[1]), sys.argv[2]
    segment = None
    for line in subprocess.run(["readelf", "-lW", binary], capture_output=True, text=True, check=True).stdout.splitlines():
        fields = line.split()
        if fields and fields[0] == "LOAD" and "E" in fields[6:]:
            segment = (int(fields[1], 16), int(fields[2], 16), int(fields[4], 16))
    if segment is None:
        sys.exit("no executable segment in " + binary)
    offset, address, size = segment
    symbols = []
    for line in subprocess.run(["nm", "-S", "--defined-only", binary], capture_output=True, text=True).stdout.splitlines():
        fields = line.split()
        if len(fields) == 4 and fields[2] in "tT":
            symbols.append((int(fields[0], 16) - address + offset, int(fields[1], 16), module(fields[3])))
    symbols.sort()
    starts = [s[0] for s in symbols]
    total = collections.Counter()
    for start, length, name in symbols:
        total[name] += length

    present = []
    with open(f"/proc/{pid}/pagemap", "rb") as pagemap:
        for line in open(f"/proc/{pid}/maps"):
            fields = line.split()
            if len(fields) < 6 or "x" not in fields[1] or fields[5] != binary:
                continue
            low, high = (int(x, 16) for x in fields[0].split("-"))
            file_offset = int(fields[2], 16)
            for page in range(low, high, 4096):
                pagemap.seek(page // 4096 * 8)
                if struct.unpack("<Q", pagemap.read(8))[0] >> 63:
                    present.append(page - low + file_offset)
    pages_in = collections.Counter(page // WINDOW for page in present)
    windows = sorted(pages_in)
    mapped = collections.Counter()
    for window in windows:
        low, high = window * WINDOW, (window + 1) * WINDOW
        index = max(bisect.bisect_right(starts, low) - 1, 0)
        shares = collections.Counter()
        while index < len(symbols) and symbols[index][0] < high:
            start, length, name = symbols[index]
            overlap = min(start + length, high) - max(start, low)
            if overlap > 0:
                shares[name] += overlap
            index += 1
        whole = sum(shares.values()) or 1
        for name, part in shares.items():
            mapped[name] += pages_in[window] * 4096 * part / whole
    print(f"code mapped: {len(present) * 4 / 1024:.1f} MB in {len(windows)} of {size // WINDOW + 1} windows of 64 KiB "
          f"({size / 1e6:.1f} MB of code)")
    print(f"{'module':32} {'mapped':>9} {'its code':>9}")
    for name, amount in mapped.most_common(16):
        print(f"{name:32} {amount / 1024:7.0f} KB {total[name] / 1024:7.0f} KB")
    rest = sum(mapped.values()) - sum(v for _, v in mapped.most_common(16))
    print(f"{'(the rest)':32} {rest / 1024:7.0f} KB")


main()
