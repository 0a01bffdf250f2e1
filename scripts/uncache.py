#!/usr/bin/env python3
"""Drops the kernel's cached pages of each FILE, so that the next process to map it reads it
afresh, as the first run after a reboot does.

A program's resident memory counts the pages of its binary that the kernel maps at each page
fault, and how many it maps depends on the page cache: Linux 6.16 and later cache ext4 files in
large folios when they are read or written in sequence (a `cp`, a `cat`, the linker's output)
and map a whole folio at a fault, where pages that page faults read in come in small ones. The
same binary's `--version` was 10.8 MB right after this and 14.0 MB after a `cat` of the file,
so the memory budgets and benchmarks put every binary in this state before they measure it.

Dirty pages cannot be dropped, so each file is written back first. Pages that a running
process has mapped stay; nothing measured is running at that point.

Usage: scripts/uncache.py FILE...
"""
import os
import sys


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: scripts/uncache.py FILE...")
    for path in sys.argv[1:]:
        try:
            fd = os.open(path, os.O_RDONLY)
        except OSError as error:
            sys.exit(f"uncache: cannot open {path}: {error.strerror}")
        try:
            os.fsync(fd)
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        finally:
            os.close(fd)


main()
