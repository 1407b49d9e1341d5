#!/bin/sh
# Signals and a command's run (hvtop -b -- CMD): a SIGTERM that comes
# while hvtop starts is not lost (the command is not run, and hvtop ends
# with the signal's status at once); SIGTERM passed on to a command that
# is stopped is followed by SIGCONT, so that the command ends; and after
# SIGSTOP and SIGCONT of hvtop the next interval is a tick after it
# wakes, never a burst of back-to-back empty intervals.  Every wait
# polls with a deadline; a run that hangs is killed, and fails.
. "$(dirname "$0")/tap.sh"
plan 10

# stopped PID: the process is stopped (state T).
stopped() { test "$(cut -d' ' -f3 "/proc/$1/stat" 2>/dev/null)" = T; }

# SIGTERM while hvtop starts: it waits for a reader of -w FIFO, and the
# reader comes only after the signal.
mkfifo "$tmpdir/rec.fifo"
"$HVTOP" -b -d 0.2 -w "$tmpdir/rec.fifo" -- \
    sh -c ": >'$tmpdir/ran'; sleep 60" >/dev/null 2>"$tmpdir/start.err" &
pid=$!
check "while it starts: hvtop is up" until_ok 30 caught "$pid" 15
kill -TERM "$pid"
cat "$tmpdir/rec.fifo" >/dev/null &
pids="$pids $!"
check "while it starts: SIGTERM ends hvtop within 10 s" until_ok 10 gone "$pid"
reap "$pid" 5
rc=$?
check "while it starts: exit status 143 (got $rc)" test "$rc" = 143
check "while it starts: the command never ran" test ! -e "$tmpdir/ran"

# SIGTERM to hvtop while its command is stopped.
"$HVTOP" -b -d 0.2 -- sh -c "echo \$\$ >'$tmpdir/cmd'; kill -STOP \$\$; \
sleep 60" >/dev/null 2>"$tmpdir/stop.err" &
pid=$!
cmdstopped() { [ -s "$tmpdir/cmd" ] && stopped "$(cat "$tmpdir/cmd")"; }
check "a stopped command: it is stopped" until_ok 30 cmdstopped
kill -TERM "$pid"
check "a stopped command: SIGTERM ends it and hvtop within 10 s" \
    until_ok 10 gone "$pid"
reap "$pid" 5
rc=$?
check "a stopped command: exit status 143 (got $rc)" test "$rc" = 143
kill -KILL "$(cat "$tmpdir/cmd")" 2>/dev/null

# SIGSTOP and SIGCONT of hvtop while the command runs, intervals printed.
csv=$tmpdir/stall.csv
"$HVTOP" -b -d 0.2 --format csv -- sleep 8 >"$csv" 2>"$tmpdir/stall.err" &
pid=$!
rows() { [ "$(grep -c '^[0-9]' "$csv" 2>/dev/null)" -gt "$1" ]; }
check "a stall: intervals before it" until_ok 30 rows 8
kill -STOP "$pid"
# The stall itself, not a wait for anything.
sleep 3
kill -CONT "$pid"
check "a stall: the run ends" until_ok 60 gone "$pid"
reap "$pid" 5
# Intervals of -d 0.2 s, one of the stall, and none under half a tick:
# a burst is back-to-back samples milliseconds apart.  The last interval
# ends when the command does, at any point of a tick: it may be short.
out=$(python3 - "$csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
iv = {}
for r in rows:
    if r["seq"].isdigit():
        iv.setdefault(int(r["seq"]), []).append(float(r["interval_s"]))
last = max(iv, default=0)
short = [s for s in sorted(iv) if 1 < s < last and min(iv[s]) < 0.1]
if short:
    print("intervals under 0.1 s: %s" % short)
if not [s for s in iv if max(iv[s]) >= 2.5]:
    print("no interval of the 3 s stall")
PY
)
check "a stall: no burst of short intervals after it" test -z "$out"
[ -z "$out" ] || diag "$out"
exit $tap_failed
