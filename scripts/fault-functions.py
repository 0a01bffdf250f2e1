#!/usr/bin/env python3
"""Prints the functions of a binary whose first instruction fetch on a page faulted.

    fault-functions.py BINARY PERF_SCRIPT_OUTPUT

The input is `perf script -F ip,addr --show-mmap-events` of `perf record -e page-faults -d`
over the binary: a fault whose data address is the instruction's own address is an instruction
fetch. The kernel maps 64 KB or more around each fault, so a function listed here ran where
nothing else that ran was near it: those the callgrind runs did not see, such as code whose
running depends on timing, which callgrind's slowness changes.
"""
import bisect
import collections
import re
import subprocess
import sys

MMAP = re.compile(r'PERF_RECORD_MMAP2 .*\[(0x[0-9a-f]+)\((0x[0-9a-f]+)\) @ (0x[0-9a-f]+|0) .*\]: r--p (\S+)$')


def main():
    if len(sys.argv) != 3:
        sys.exit('usage: fault-functions.py BINARY PERF_SCRIPT_OUTPUT')
    binary, path = sys.argv[1], sys.argv[2]
    listing = subprocess.run(['nm', '-S', '--defined-only', binary], capture_output=True, text=True, check=True).stdout
    functions = sorted((int(f[0], 16), int(f[1], 16), f[3]) for f in (line.split() for line in listing.splitlines())
                       if len(f) == 4 and f[2] in 'tTwW')
    # A name defined more than once moves every section that holds it (callgrind-functions.py).
    defined = collections.Counter(name for _, _, name in functions)
    starts = [start for start, _, _ in functions]
    base = None
    printed = set()
    with open(path, errors='replace') as lines:
        for line in lines:
            match = MMAP.search(line)
            if match:
                if base is None and int(match.group(3), 16) == 0 and match.group(4).endswith('/' + binary.rsplit('/', 1)[-1]):
                    base = int(match.group(1), 16)
                continue
            fields = line.split()
            if base is None or len(fields) != 2:
                continue
            try:
                address, ip = int(fields[0], 16), int(fields[1], 16)
            except ValueError:
                continue
            if address != ip:
                continue
            address -= base
            i = bisect.bisect_right(starts, address) - 1
            if (i >= 0 and address < functions[i][0] + functions[i][1] and functions[i][2] not in printed
                    and defined[functions[i][2]] == 1):
                printed.add(functions[i][2])
                print(functions[i][2])


if __name__ == '__main__':
    main()
