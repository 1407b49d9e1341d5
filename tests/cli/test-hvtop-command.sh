#!/bin/sh
# hvtop -b -- COMMAND as a user meets it: the command runs, hvtop prints
# the counts and rates over its life (text, CSV, JSON; the intervals too
# with -d) and exits with the command's status, as a shell would; SIGINT
# sent to hvtop goes to the command, and the totals are still printed.
. "$(dirname "$0")/tap.sh"
plan 34
export LC_ALL=C
SIM="--sim seed=1"
PICK="-g PowerBus@chip:0-1"

run() { "$HVTOP" "$@" >"$tmpdir/o" 2>"$tmpdir/e"; rc=$?; }
has() { grep -qF -- "$1" "$tmpdir/o" || { diag "stdout:"; diag "$(cat "$tmpdir/o")"; diag "stderr:"; diag "$(cat "$tmpdir/e")"; return 1; }; }

# ---- text --------------------------------------------------------------
run -b $SIM $PICK -- sleep 0.3
check "text: exit 0 as the command" test "$rc" = 0
check "text: the totals name the command" has "Counter totals for 'sleep 0.3':"
check "text: a count for each event of the total row" \
    sh -c "grep -Eq '^ +[0-9]+      PM_PB_CYC \(chip total\)$' '$tmpdir/o' &&
    grep -Eq '^ +[0-9]+      PM_MBA0_CLK_CYC \(chip total\)$' '$tmpdir/o'"
check "text: the rates table" has "PowerBUS_Frequency"
check "text: the time elapsed" grep -Eq '^ +[0-9]+\.[0-9]{9} seconds time elapsed$' "$tmpdir/o"
check "text: no interval printed without -d" \
    test "$(grep -c '^hvtop 20' "$tmpdir/o")" = 1
check "text: nothing on stderr" test ! -s "$tmpdir/e"

# ---- exit statuses ---------------------------------------------------
run -b $SIM $PICK -- sh -c 'sleep 0.1; exit 3'
check "exit 3 of the command is hvtop's" test "$rc" = 3
check "... and says so under the totals" has "the command exited 3"
run -b $SIM $PICK -- sh -c 'kill -TERM $$'
check "a command killed by SIGTERM: 128 + 15" test "$rc" = 143
check "... and the totals say so" has "killed by signal 15"
run -b $SIM $PICK -- "$tmpdir/no-such-command"
check "a command that is not there: 127, as a shell" test "$rc" = 127
check "... saying why" grep -qF "hvtop: $tmpdir/no-such-command: No such file or directory" "$tmpdir/e"
check "... and no totals" test ! -s "$tmpdir/o"
printf 'not a program\n' >"$tmpdir/plain"
chmod 644 "$tmpdir/plain"
run -b $SIM $PICK -- "$tmpdir/plain"
check "a file that cannot be run: 126, as a shell" test "$rc" = 126
check "... saying why" grep -qF "$tmpdir/plain: Permission denied" "$tmpdir/e"

# ---- CSV and JSON ----------------------------------------------------
run -b $SIM $PICK -d 0.1 -o "$tmpdir/run.csv" -- sh -c 'sleep 0.5; echo out'
check "CSV: exit 0" test "$rc" = 0
check "CSV: the command's own output is left on stdout" \
    test "$(cat "$tmpdir/o")" = out
if py=$(pandas_python); then
	"$py" - "$tmpdir/run.csv" >"$tmpdir/py" 2>&1 <<'PY'
import sys
import pandas as pd
d = pd.read_csv(sys.argv[1])
last = d["seq"].max()
tot = d[d["seq"] == last]
ivs = d[d["seq"] < last]
# -d 0.1 over half a second: intervals, then the totals as the last seq.
assert len(ivs["seq"].unique()) >= 2, "intervals %s" % ivs["seq"].unique()
assert (ivs["interval_s"] < 0.35).all(), ivs["interval_s"]
assert (tot["interval_s"] >= 0.45).all(), tot["interval_s"]
assert list(tot["index"]) == ["0", "1", "total"], list(tot["index"])
# The same counters: a rate over the life is a rate like the others.
r = tot[tot["index"] == "total"]["PM_PB_CYC [/s]"].iloc[0]
assert r > 0, r
assert abs(r / ivs[ivs["index"] == "total"]["PM_PB_CYC [/s]"].mean() - 1) < 0.01
print("ok")
PY
	check "CSV: intervals with -d, then the totals over the life (pandas)" \
	    grep -qx ok "$tmpdir/py"
	grep -qx ok "$tmpdir/py" || diag "$(cat "$tmpdir/py")"
else
	skip "CSV: intervals with -d, then the totals over the life (pandas)" \
	    "no pandas"
fi
run -b $SIM $PICK --format json -- sleep 0.3
check "JSON: exit 0" test "$rc" = 0
python3 - "$tmpdir/o" >"$tmpdir/py" 2>&1 <<'PY'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
assert len(lines) == 1, len(lines)
o = json.loads(lines[0])
assert o["seq"] == 1
rows = o["rows"]
assert [r["index"] for r in rows] == [0, 1, None]
assert all(r["interval_s"] >= 0.25 for r in rows), rows
assert all(r["values"]["PM_PB_CYC"] > 0 for r in rows)
print("ok")
PY
check "JSON: one line, the totals over the life" grep -qx ok "$tmpdir/py"

# ---- a busy hypervisor at the start or the end -----------------------
run -b --sim seed=3,faults=busy:0.5 $PICK -- sleep 0.2
check "busy reads: the totals still have counts (reads tried again)" \
    grep -Eq '^ +[0-9]+      PM_PB_CYC \(chip total\)$' "$tmpdir/o"

# ---- -w records the run ------------------------------------------------
run -b $SIM $PICK -w "$tmpdir/cmd.hvr" -- sleep 0.2
check "-w: exit 0" test "$rc" = 0
"$HVTOP" -b -r "$tmpdir/cmd.hvr" --format csv >"$tmpdir/replay.csv" 2>"$tmpdir/e"
check "-w: the recording replays" test "$?" = 0

# ---- SIGINT goes to the command ------------------------------------
"$HVTOP" -b $SIM $PICK -- sleep 60 >"$tmpdir/int" 2>&1 &
hp=$!
pids="$pids $hp"
# Wait (with a deadline) until hvtop has started the command.
started() { [ -n "$(pgrep -P "$hp" sleep)" ]; }
until_ok 30 started
kill -INT "$hp"
wait "$hp"
rc=$?
check "SIGINT to hvtop: the command gets it (exit 130)" test "$rc" = 130
check "... and hvtop still prints the totals" \
    grep -q "Counter totals for 'sleep 60'" "$tmpdir/int"
check "... saying the command was interrupted" \
    grep -q "killed by signal 2" "$tmpdir/int"

# ---- what makes no sense with a command ----------------------------
run -b $SIM -n 3 -- true
check "-n with a command: a usage error (exit 2)" test "$rc" = 2
run -b --sim clock=virtual -- true
check "clock=virtual with a command: refused (exit 2)" test "$rc" = 2
check "... saying a command runs in real time" \
    grep -q "a command runs in real time" "$tmpdir/e"
printf 'kept\n' >"$tmpdir/kept"
run -b --sim clock=virtual -o "$tmpdir/kept" -- true
check "... and leaves the -o file as it was" \
    test "$rc" = 2 -a "$(cat "$tmpdir/kept")" = kept
run -b -r "$tmpdir/cmd.hvr" -- true
check "a replay with a command: a usage error (exit 2)" test "$rc" = 2
run --list events -- true
check "--list with a command: a usage error (exit 2)" test "$rc" = 2
# Without -b: batch all the same (the command may own the terminal).
run $SIM $PICK -- true
check "without -b: batch, exit 0" test "$rc" = 0
