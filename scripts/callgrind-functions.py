#!/usr/bin/env python3
"""Prints the functions of one binary that ran in callgrind profiles, most instructions first.

    callgrind-functions.py BINARY_PATH PROFILE...

The profiles must come from `valgrind --tool=callgrind --demangle=no`, so that the names are
the symbols the linker sees. A name already printed for an earlier profile is not repeated:
the first profile's functions come first.

Names the binary defines more than once are left out: they are local symbols of the compiler's
(`objectdestroyTm`, outlined copies, merged thunks) in many object files, and ld.lld moves every
section that holds one. Some of those sections are a whole library's code that was not split
per function (the Swift runtime's regex parser: 475 KB), which would land among the functions
that run and be mapped with them.
"""
import collections
import re
import subprocess
import sys

LINE = re.compile(r'(c?ob|c?fn|c?fi|c?fe|fl)=\((\d+)\)(?: (.*))?$')


def functions(binary, path):
    """The functions of `binary` that ran in the profile at `path`, with their instruction counts."""
    objects, names = {}, {}
    current_object = current_function = None
    cost = collections.Counter()
    with open(path, errors='replace') as profile:
        for line in profile:
            line = line.rstrip('\n')
            match = LINE.match(line)
            if match:
                kind, ident, name = match.groups()
                if kind.endswith('ob') and name:
                    objects[ident] = name
                if kind.endswith('fn') and name:
                    names[ident] = name
                if kind == 'ob':
                    current_object = objects.get(ident)
                elif kind == 'fn':
                    current_function = names.get(ident)
                continue
            if current_object != binary or not current_function:
                continue
            # A cost line: a position, then the instruction count.
            fields = line.split()
            if len(fields) >= 2 and (fields[0][:1].isdigit() or fields[0][:1] in '+-*') and fields[1].isdigit():
                cost[current_function] += int(fields[1])
    return cost


def ambiguous_names(binary):
    """The code symbols `binary` defines more than once (its symbol table, read with nm)."""
    listing = subprocess.run(['nm', '--defined-only', binary], capture_output=True, text=True, check=True).stdout
    counts = collections.Counter(
        fields[2] for fields in (line.split(None, 2) for line in listing.splitlines())
        if len(fields) == 3 and fields[1] in 'tTwW')
    return {name for name, count in counts.items() if count > 1}


def main():
    if len(sys.argv) < 3:
        sys.exit('usage: callgrind-functions.py BINARY_PATH PROFILE...')
    binary = sys.argv[1]
    seen = ambiguous_names(binary)
    for path in sys.argv[2:]:
        for name, _ in functions(binary, path).most_common():
            if name not in seen:
                seen.add(name)
                print(name)


if __name__ == '__main__':
    main()
