#!/usr/bin/env python3
"""Prints the data symbols of a binary that hold the given addresses, first touched first.

    data-symbols.py BINARY LOAD_BASE ADDRESSES...

ADDRESSES are files of hexadecimal addresses, one per line, as scripts/lackey-addresses prints
them from a valgrind lackey run of BINARY loaded at LOAD_BASE (valgrind loads a
position-independent executable at 0x108000). Each symbol is printed once. Left out: names the
binary defines more than once (ld.lld would move every section holding one) and the GOT entries
the compiler names `got.…`, which the loader writes at start wherever they are.
"""
import sys

from binary_symbols import BinarySymbols


def main():
    if len(sys.argv) < 4:
        sys.exit('usage: data-symbols.py BINARY LOAD_BASE ADDRESSES...')
    binary, base = sys.argv[1], int(sys.argv[2], 16)
    data = BinarySymbols(binary, 'bBdDrR')
    printed, found = set(), 0
    for path in sys.argv[3:]:
        with open(path) as addresses:
            for line in addresses:
                name = data.at(int(line, 16) - base)
                if name is None:
                    continue
                found += 1
                if name not in printed and data.count[name] == 1 and not name.startswith('got.'):
                    printed.add(name)
                    print(name)
    if found == 0:
        sys.exit(f'data-symbols.py: no address falls in a data symbol of {binary}: is {sys.argv[2]} its load address?')


if __name__ == '__main__':
    main()
