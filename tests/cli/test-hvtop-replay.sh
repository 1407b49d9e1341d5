#!/bin/sh
# Recording (hvtop -w FILE) and replay (--source replay:FILE, -r FILE): a
# batch replay prints exactly what the recorded run printed, in every
# format, with faults and a catalog reload; the recorded selection is
# used or a different one refused; a writer killed with SIGKILL leaves a
# file that replays up to its last whole record; a damaged byte is
# reported with its offset and reading goes on at the next heartbeat,
# without a single wrong value; a file truncated by another program while
# it is replayed ends the replay with a message, not a SIGBUS.
. "$(dirname "$0")/tap.sh"
SIM="--sim clock=virtual,seed=7"
plan 37

# THE round trip: the default simulated frame, 100 intervals.
"$HVTOP" -b -n 100 $SIM -w "$tmpdir/t.hvr" -o "$tmpdir/a.csv"
check "recording while sampling exits 0" test $? = 0
"$HVTOP" -b --source "replay:$tmpdir/t.hvr" -o "$tmpdir/b.csv" \
    2>"$tmpdir/err"
check "replay exits 0 at the end of the recording" test $? = 0
check "replayed CSV is byte-identical" cmp -s "$tmpdir/a.csv" "$tmpdir/b.csv"
check "CSV has 100 intervals" \
    test "$(awk -F, 'NR > 1 { print $2 }' "$tmpdir/b.csv" | sort -u |
    wc -l)" = 100
check "a clean recording draws no complaint" test ! -s "$tmpdir/err"

for f in txt json; do
	"$HVTOP" -b -n 100 $SIM -w "$tmpdir/t.$f.hvr" -o "$tmpdir/a.$f"
	"$HVTOP" -b -r "$tmpdir/t.$f.hvr" -o "$tmpdir/b.$f"
	check "replayed $f is byte-identical" cmp -s "$tmpdir/a.$f" \
	    "$tmpdir/b.$f"
done

# Invalid values (a busy hypervisor) and their messages round-trip.
"$HVTOP" -b -n 100 --sim clock=virtual,seed=7,faults=busy:0.1 \
    -w "$tmpdir/f.hvr" -o "$tmpdir/af.csv" 2>/dev/null
"$HVTOP" -b -r "$tmpdir/f.hvr" -o "$tmpdir/bf.csv" 2>/dev/null
check "faults: the recorded run had busy intervals" \
    grep -q 'H_BUSY' "$tmpdir/af.csv"
check "faults: replayed CSV is byte-identical" \
    cmp -s "$tmpdir/af.csv" "$tmpdir/bf.csv"

# A catalog version change in the middle: reload and new baselines.
"$HVTOP" -b -n 20 --sim clock=virtual,seed=3,faults=version-change@8 \
    -w "$tmpdir/v.hvr" -o "$tmpdir/av.csv" 2>/dev/null
"$HVTOP" -b -r "$tmpdir/v.hvr" -o "$tmpdir/bv.csv" 2>/dev/null
check "catalog reload: the recorded run reloaded" \
    grep -q 'catalog reloaded' "$tmpdir/av.csv"
check "catalog reload: replayed CSV is byte-identical" \
    cmp -s "$tmpdir/av.csv" "$tmpdir/bv.csv"

# The recorded selection is used when none is given; another is refused.
"$HVTOP" -b -n 10 $SIM -g 'PowerBus@chip:1' -e 'PM_PB_CYC:0' \
    -w "$tmpdir/g.hvr" -o "$tmpdir/ag.txt" 2>/dev/null
"$HVTOP" -b -r "$tmpdir/g.hvr" -o "$tmpdir/bg.txt"
check "the recorded -g/-e picks are used" cmp -s "$tmpdir/ag.txt" \
    "$tmpdir/bg.txt"
"$HVTOP" -b -r "$tmpdir/g.hvr" -g 'PowerBus@chip:1' -e 'PM_PB_CYC:0' \
    -o "$tmpdir/cg.txt"
check "the same picks given again are accepted" cmp -s "$tmpdir/ag.txt" \
    "$tmpdir/cg.txt"
"$HVTOP" -b -r "$tmpdir/g.hvr" -g Memory_BW >/dev/null 2>"$tmpdir/err"
check "another selection is refused (a usage error, exit 2)" test $? = 2
check "... saying what the recording holds" \
    grep -q 'recording was made with -g PowerBus@chip:1, -e PM_PB_CYC:0' \
    "$tmpdir/err"
"$HVTOP" -b -r "$tmpdir/g.hvr" -n 3 -o "$tmpdir/dg.txt"
check "-n limits a replay" test "$(grep -c '^hvtop ' "$tmpdir/dg.txt")" = 3
"$HVTOP" -r "$tmpdir/g.hvr" --list groups PowerBus >"$tmpdir/list"
check "--list reads the recorded catalog" grep -q 'PowerBus' \
    "$tmpdir/list"

# Usage errors.
"$HVTOP" -b -r "$tmpdir/g.hvr" --replay-speed 0 >/dev/null 2>&1
check "--replay-speed 0 is a usage error" test $? = 2
"$HVTOP" -b -n 1 $SIM --replay-speed 2 >/dev/null 2>&1
check "--replay-speed without a replay is a usage error" test $? = 2
"$HVTOP" -b -r "$tmpdir/g.hvr" --sim seed=1 >/dev/null 2>"$tmpdir/err"
check "--sim with a replay is a usage error (exit 2)" test $? = 2
check "--sim with a replay is refused" grep -q 'do not apply to a replay' \
    "$tmpdir/err"
"$HVTOP" -b -r "$tmpdir/a.csv" >/dev/null 2>"$tmpdir/err"
check "a file that is not a recording is named as such" \
    grep -q 'not an hvtop recording' "$tmpdir/err"
"$HVTOP" -b -r "$tmpdir/none.hvr" >/dev/null 2>&1
check "a missing recording is a runtime failure" test $? = 1

# A writer killed with SIGKILL: wait (bounded) until it has written some
# samples, kill it, replay what is there.
"$HVTOP" -b --sim clock=real,seed=7 -d 0.05 -w "$tmpdir/k.hvr" \
    -o /dev/null 2>/dev/null &
pid=$!
"$HVTOP" -b -n 1 $SIM -w "$tmpdir/one.hvr" -o /dev/null
want=$(($(wc -c <"$tmpdir/one.hvr") + 3000))
until_ok 60 at_least_bytes "$want" "$tmpdir/k.hvr"
kill -KILL $pid 2>/dev/null
wait $pid 2>/dev/null
"$HVTOP" -b -r "$tmpdir/k.hvr" -o "$tmpdir/k.csv" 2>"$tmpdir/kerr"
check "a killed writer's file replays (exit 0)" test $? = 0
check "... with its samples" test "$(wc -l <"$tmpdir/k.csv")" -gt 28
check "... and says the writer did not close it" \
    grep -q 'no end record' "$tmpdir/kerr"
# Cut inside the last record, as a crash during a write would.
size=$(wc -c <"$tmpdir/k.hvr")
head -c $((size - 7)) "$tmpdir/k.hvr" >"$tmpdir/torn.hvr"
"$HVTOP" -b -r "$tmpdir/torn.hvr" -o "$tmpdir/torn.csv" 2>"$tmpdir/terr"
check "a torn tail replays (exit 0)" test $? = 0
check "... reporting the dropped record and its offset" grep -q \
    'offset [0-9]*: the recording ends inside a sample record.*dropped 1' \
    "$tmpdir/terr"
# An interval is as many rows as the last one has.
last=$(tail -n 1 "$tmpdir/k.csv" | cut -d, -f2)
per=$(awk -F, -v s="$last" '$2 == s' "$tmpdir/k.csv" | wc -l)
check "... one interval fewer" test "$(wc -l <"$tmpdir/torn.csv")" = \
    "$(($(wc -l <"$tmpdir/k.csv") - per))"

# One damaged byte between two heartbeats (every 512 samples).
"$HVTOP" -b -n 1100 $SIM -w "$tmpdir/c.hvr" -o "$tmpdir/ac.csv"
at=$(($(wc -c <"$tmpdir/one.hvr") + 40000))
cp "$tmpdir/c.hvr" "$tmpdir/bad.hvr"
printf '\125' | dd of="$tmpdir/bad.hvr" bs=1 seek=$at conv=notrunc \
    2>/dev/null
cmp -s "$tmpdir/c.hvr" "$tmpdir/bad.hvr" || true
"$HVTOP" -b -r "$tmpdir/bad.hvr" -o "$tmpdir/bc.csv" 2>"$tmpdir/cerr"
check "a damaged recording replays, exit 1 as hvcat info" test $? = 1
"$HVCAT" info "$tmpdir/bad.hvr" >/dev/null 2>&1
check "... and hvcat info exits 1 on it too" test $? = 1
check "the damage is reported with its offset and the resync point" \
    grep -q 'offset [0-9]*: .*skipped [0-9]* bytes to the heartbeat at' \
    "$tmpdir/cerr"
diag "$(cat "$tmpdir/cerr")"
# Every row of a whole interval in the replay is a row of the recorded
# run (seq aside): nothing wrong is made up.
cut -d, -f1,3- "$tmpdir/ac.csv" | sort >"$tmpdir/ac.rows"
awk -F, 'NR > 1 && $3 == 1' "$tmpdir/bc.csv" | cut -d, -f1,3- | sort \
    >"$tmpdir/bc.rows"
check "rows after the resync are the recorded ones" \
    test -z "$(comm -13 "$tmpdir/ac.rows" "$tmpdir/bc.rows")"
check "rows after the resync exist" test "$(awk -F, \
    '{ print $1 }' "$tmpdir/bc.rows" | sort -u | tail -n 1)" = \
    "$(awk -F, 'NR > 1 { print $1 }' "$tmpdir/ac.csv" | sort -u |
    tail -n 1)"


# Truncated in place while replayed: the pages past the new end of the
# mapping read as zeros (no SIGBUS), fail their checks, and the replay
# stops there with a message and exit 1.  Slow playback, so the cut
# comes long before the end.
"$HVTOP" -b -n 600 $SIM -w "$tmpdir/cut.hvr" -o "$tmpdir/acut.csv"
"$HVTOP" -b -r "$tmpdir/cut.hvr" --replay-speed 20 -o "$tmpdir/bcut.csv" \
    2>"$tmpdir/cerr2" &
cutpid=$!
until_ok 60 at_least_lines 100 "$tmpdir/bcut.csv"
truncate -s 4096 "$tmpdir/cut.hvr"
wait "$cutpid"
check "a recording truncated while replayed: exit 1, no crash" test $? = 1
check "... says the file was cut short while it was replayed" \
    grep -q 'cut short while it was replayed' "$tmpdir/cerr2"
diag "$(cat "$tmpdir/cerr2")"
check "... and every row printed before the cut is the recorded one" \
    sh -c 'head -n "$(wc -l <"$2")" "$1" | cmp -s - "$2"' sh \
    "$tmpdir/acut.csv" "$tmpdir/bcut.csv"

exit $tap_failed
