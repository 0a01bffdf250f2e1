#!/usr/bin/env python3
"""Prints the functions of a binary whose first instruction fetch on a page faulted.

    fault-functions.py BINARY PERF_SCRIPT_OUTPUT

The input is `perf script -F ip,addr --show-mmap-events` of `perf record -e page-faults -d`
over the binary: a fault whose data address is the instruction's own address is an instruction
fetch. The kernel maps 64 KB or more around each fault, so a function listed here ran where
nothing else that ran was near it: those the callgrind runs did not see, such as code whose
running depends on timing, which callgrind's slowness changes.
"""
import re
import sys

from binary_symbols import BinarySymbols

MMAP = re.compile(r'PERF_RECORD_MMAP2 .*\[(0x[0-9a-f]+)\((0x[0-9a-f]+)\) @ (0x[0-9a-f]+|0) .*\]: r--p (\S+)$')


def main():
    if len(sys.argv) != 3:
        sys.exit('usage: fault-functions.py BINARY PERF_SCRIPT_OUTPUT')
    binary, path = sys.argv[1], sys.argv[2]
    code = BinarySymbols(binary, 'tTwW')
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
            name = code.at(address - base)
            # A name defined more than once moves every section that holds it (callgrind-functions.py).
            if name is not None and name not in printed and code.count[name] == 1:
                printed.add(name)
                print(name)


if __name__ == '__main__':
    main()
