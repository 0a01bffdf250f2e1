"""The symbol table of a binary, read with nm, for the scripts that make scripts/geotrack.order.

    symbols = BinarySymbols(path, kinds='tTwW')   # nm's type letters to keep
    symbols.at(address)       # the name of the symbol whose bytes hold address, or None
    symbols.count[name]       # how many times the binary defines name
"""
import bisect
import collections
import subprocess


class BinarySymbols:
    """The symbols of one kind (code, data…) a binary defines, with their sizes."""

    def __init__(self, binary, kinds):
        listing = subprocess.run(['nm', '-S', '--defined-only', binary],
                                 capture_output=True, text=True, check=True).stdout
        self.symbols = sorted((int(fields[0], 16), int(fields[1], 16), fields[3])
                              for fields in (line.split() for line in listing.splitlines())
                              if len(fields) == 4 and fields[2] in kinds)
        self.starts = [start for start, _, _ in self.symbols]
        self.count = collections.Counter(name for _, _, name in self.symbols)

    def at(self, address):
        """The symbol whose bytes hold `address` (a symbol of size 0 holds its first byte)."""
        i = bisect.bisect_right(self.starts, address) - 1
        if i < 0:
            return None
        start, size, name = self.symbols[i]
        return name if address < start + max(size, 1) else None
