#!/usr/bin/env python3
"""Prints the data symbols of a binary that hold the given addresses, first touched first.

    data-symbols.py BINARY LOAD_BASE ADDRESSES...

ADDRESSES are files of hexadecimal addresses, one per line, as scripts/lackey-addresses prints
them from a valgrind lackey run of BINARY loaded at LOAD_BASE (valgrind loads a
position-independent executable at 0x108000). Each symbol is printed once. Left out: names the
binary defines more than once (ld.lld would move every section holding one) and the GOT entries
the compiler names `got.…`, which the loader writes at start wherever they are.
"""
import bisect
import collections
import subprocess
import sys


def main():
    if len(sys.argv) < 4:
        sys.exit('usage: data-symbols.py BINARY LOAD_BASE ADDRESSES...')
    binary, base = sys.argv[1], int(sys.argv[2], 16)
    listing = subprocess.run(['nm', '-S', '--defined-only', binary], capture_output=True, text=True, check=True).stdout
    symbols, count = [], collections.Counter()
    for line in listing.splitlines():
        fields = line.split()
        if len(fields) == 4 and fields[2] in 'bBdDrR':
            symbols.append((int(fields[0], 16), int(fields[1], 16), fields[3]))
            count[fields[3]] += 1
    symbols.sort()
    starts = [start for start, _, _ in symbols]
    printed, found = set(), 0
    for path in sys.argv[3:]:
        with open(path) as addresses:
            for line in addresses:
                address = int(line, 16) - base
                i = bisect.bisect_right(starts, address) - 1
                if i < 0 or address >= symbols[i][0] + max(symbols[i][1], 1):
                    continue
                found += 1
                name = symbols[i][2]
                if name not in printed and count[name] == 1 and not name.startswith('got.'):
                    printed.add(name)
                    print(name)
    if found == 0:
        sys.exit(f'data-symbols.py: no address falls in a data symbol of {binary}: is {sys.argv[2]} its load address?')


if __name__ == '__main__':
    main()
