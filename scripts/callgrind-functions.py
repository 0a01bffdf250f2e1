#!/usr/bin/env python3
"""Prints the functions of one binary that ran in callgrind profiles, most instructions first.

    callgrind-functions.py [--map LINK_MAP] BINARY_PATH PROFILE...

The profiles must come from `valgrind --tool=callgrind --demangle=no`, so that the names are
the symbols the linker sees. A name already printed for an earlier profile is not repeated:
the first profile's functions come first.

Some names the binary defines more than once: local symbols of the compiler's (reabstraction
thunks, `objectdestroyTm`, outlined copies) or of the runtime's C++ in many object files.
ld.lld moves every section that holds one, and some of those sections are a whole library's
code that was not split per function (the Swift runtime's regex parser: 475 KB), which would
land among the functions that run and be mapped with them. With the link map of the binary
(ld.lld's -Map), such a name is kept when every section holding it is small (a function's own
section) and they add up to little, or is moved for other names anyway; without it, every such
name is left out.

An async function's pieces (its partial functions, `TY0_`, `TQ1_`…, or a coroutine's
`.resume.N`) come with any one of them that ran: which ones run depends on whether it suspends.
"""
import collections
import re
import sys

from binary_symbols import BinarySymbols

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


def code_symbols(binary):
    """How many times `binary` defines each code symbol."""
    return BinarySymbols(binary, 'tTwW').count


# The pieces of one async function or coroutine: the entry, then a partial function for each
# point where it may suspend (TY, TQ) or a resume function (.resume.N).
PIECE = re.compile(r'^(.*?)(?:T[YQ](\d+)_|\.resume\.(\d+))$')


def pieces_by_entry(counts):
    """For each async function or coroutine of the binary, its pieces in order."""
    pieces = collections.defaultdict(list)
    for name in counts:
        match = PIECE.match(name)
        if match:
            pieces[match.group(1)].append((int(match.group(2) or match.group(3)), name))
    return {entry: [name for _, name in sorted(listed)] for entry, listed in pieces.items()}


# A section this large holds more than one function; the copies of a name that would move into
# the ordered code only for it add up to at most this.
LARGEST_SECTION = 16384
LARGEST_TOTAL = 32768

MAP_LINE = re.compile(r'\s*[0-9a-f]+\s+[0-9a-f]+\s+([0-9a-f]+)\s+\d+\s(\s*)(.*)$')


def sections_by_name(link_map):
    """Each code symbol of ld.lld's map, with the input sections (name, size) that define it."""
    sections = collections.defaultdict(list)
    section = None
    with open(link_map, errors='replace') as lines:
        for line in lines:
            match = MAP_LINE.match(line)
            if not match:
                continue
            size, indent, text = match.groups()
            # Columns: output sections, then input sections (8 more spaces), then symbols (16).
            if len(indent) == 8:
                section = (text, int(size, 16)) if '(.text' in text else None
            elif len(indent) == 16 and section is not None:
                sections[text].append(section)
    return sections


def main():
    arguments = sys.argv[1:]
    link_map = None
    if arguments[:1] == ['--map']:
        link_map, arguments = arguments[1], arguments[2:]
    if len(arguments) < 2:
        sys.exit('usage: callgrind-functions.py [--map LINK_MAP] BINARY_PATH PROFILE...')
    binary = arguments[0]
    counts = code_symbols(binary)
    ambiguous = {name for name, count in counts.items() if count > 1}
    ran, listed = [], set()
    for path in arguments[1:]:
        for name, _ in functions(binary, path).most_common():
            if name not in listed:
                listed.add(name)
                ran.append(name)
    if link_map:
        sections = sections_by_name(link_map)
        # The sections the names defined once bring into the ordered code anyway, such as the
        # runtime's unsplit libraries: moving them again for a name defined twice costs nothing.
        moved = {section for name in ran if name not in ambiguous for section, _ in sections.get(name, [])}
        for name in ambiguous & listed:
            extra = [size for section, size in sections.get(name, []) if section not in moved]
            if sections.get(name) and (not extra or (max(extra) <= LARGEST_SECTION and sum(extra) <= LARGEST_TOTAL)):
                ambiguous.discard(name)
    # Which pieces of an async function run depends on whether it suspends at each point, which
    # is a matter of timing, and callgrind's slowness changes the timing: one piece that ran
    # brings all of its function.
    pieces = pieces_by_entry(counts)
    printed = set()
    for name in ran:
        match = PIECE.match(name)
        entry = match.group(1) if match else name
        group = [name] + ([entry] if entry in counts else []) + pieces.get(entry, [])
        for member in group:
            if member not in printed and member not in ambiguous:
                printed.add(member)
                print(member)


if __name__ == '__main__':
    main()
