#!/usr/bin/env python3
# rusage.py [-q] OUT CMD...: run CMD, its standard output (and with -q
# its standard error too) sent to /dev/null, and write "cpu wall rss_kib"
# to OUT: user + system CPU time and wall time in seconds, peak resident
# memory in KiB, from wait4(2), so that no /usr/bin/time is needed.
# Exits 1, writing nothing, when CMD does not exit 0.  For the bench-*.sh
# scripts; it measures one process and judges nothing.
import os
import sys
import time

args = sys.argv[1:]
quiet = args[:1] == ["-q"]
if quiet:
    args = args[1:]
if len(args) < 2:
    sys.exit("usage: rusage.py [-q] OUT CMD...")
out, argv = args[0], args[1:]
t = time.monotonic()
pid = os.fork()
if pid == 0:
    fd = os.open(os.devnull, os.O_WRONLY)
    os.dup2(fd, 1)
    if quiet:
        os.dup2(fd, 2)
    os.execvp(argv[0], argv)
_, status, ru = os.wait4(pid, 0)
wall = time.monotonic() - t
if not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0:
    sys.exit(1)
with open(out, "w") as f:
    f.write("%.4f %.4f %d\n" % (ru.ru_utime + ru.ru_stime, wall,
                                ru.ru_maxrss))
