#!/usr/bin/env python3
"""Runs a command and, once it has exited, writes the CPU seconds the kernel accounted to it
(user + system, of every thread it ever had, to the microsecond). The
command's process id goes to OUT.pid as soon as it runs, so that a benchmark can read its
/proc or signal it; OUT itself appears, whole, only after the command has exited.

/proc/PID/stat counts CPU in clock ticks of 10 ms, too coarse for a client that spends about a
tenth of a second in 30 s; wait4's rusage is exact and includes threads that have already ended.
(Its peak RSS is not reported: ru_maxrss also counts this script's own memory before the exec.)

Usage: benchmarks/rusage.py OUT COMMAND [ARGUMENTS...]
"""
import os
import sys


def main():
    out, command = sys.argv[1], sys.argv[2:]
    pid = os.fork()
    if pid == 0:
        try:
            os.execvp(command[0], command)
        finally:
            os._exit(127)
    with open(out + ".pid", "w") as handle:
        handle.write(f"{pid}\n")
    _, status, usage = os.wait4(pid, 0)
    with open(out + ".tmp", "w") as handle:
        handle.write(f"{usage.ru_utime + usage.ru_stime:.6f}\n")
    os.rename(out + ".tmp", out)
    sys.exit(os.waitstatus_to_exitcode(status) & 0xFF)


if __name__ == "__main__":
    main()
