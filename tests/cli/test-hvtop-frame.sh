#!/bin/sh
# Batch output and recordings name the frame: a run of the simulated
# frame told --sim model=,serial= names its MODEL*SERIAL in the text
# header, a last CSV column (which Python's csv module and pandas load)
# and a JSON member; its recording keeps it, so that the replay's
# outputs are the same bytes and its --serve series name the same
# frame; a recording without the frame (every file of tests/data/record)
# replays without one; a damaged frame record is reported with its
# offset and passed over, every sample still replayed, and one cut
# short is the torn tail it is.
. "$(dirname "$0")/tap.sh"
plan 16

M=9009-42A
S=FLEET07
F="$M*$S"
FRE="$M\\*$S"
SIM="--sim clock=virtual,seed=3,model=$M,serial=$S -g PowerBus@chip:0-1"

"$HVTOP" -b -n 4 $SIM -w "$tmpdir/f.hvr" -o "$tmpdir/live.txt"
check "a recorded run of the frame" test $? = 0
"$HVTOP" -b -n 4 $SIM -o "$tmpdir/live.csv"
"$HVTOP" -b -n 4 $SIM -o "$tmpdir/live.json"

check "text: every header line names the frame after the source" \
    test "$(grep -c "^hvtop .*(no hv_24x7 PMU here)  frame $FRE  " \
    "$tmpdir/live.txt")" = 4
check "CSV: a last column frame" \
    grep -q '^time,seq,interval_s,domain,index,.*,reason,error,frame$' \
    "$tmpdir/live.csv"
# Python's csv module: the frame column of every row.
frames=$(python3 -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
print(len(rows), " ".join(sorted(set(r["frame"] for r in rows))))
' "$tmpdir/live.csv")
check "CSV: every row names the frame ($frames)" test "$frames" = "12 $F"
check "CSV: it loads as any hvtop CSV (csv module, pandas)" tap_csvs
if pandas_py=$(pandas_python); then
	got=$("$pandas_py" -c '
import pandas, sys
d = pandas.read_csv(sys.argv[1])
print(list(d.columns[-3:]), d.frame.unique().tolist(), d.index.size)
' "$tmpdir/live.csv")
	check "CSV: pandas reads the frame column ($got)" test "$got" = \
	    "['reason', 'error', 'frame'] ['$F'] 12"
else
	skip "CSV: pandas reads the frame column" \
	    "pandas is not installed (apt-get install python3-pandas)"
fi
jf=$(python3 -c '
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
keys = list(objs[0])
print(len(objs), " ".join(sorted(set(o["frame"] for o in objs))),
      keys[keys.index("source") + 1])
' "$tmpdir/live.json")
check "JSON: every object names the frame after the source ($jf)" \
    test "$jf" = "4 $F frame"

# The recording keeps it: the replay prints the same bytes.
"$HVTOP" -b -r "$tmpdir/f.hvr" -o "$tmpdir/rep.txt"
check "a replay's text is the recorded run's" \
    cmp "$tmpdir/live.txt" "$tmpdir/rep.txt"
"$HVTOP" -b -r "$tmpdir/f.hvr" -o "$tmpdir/rep.csv"
"$HVTOP" -b -r "$tmpdir/f.hvr" -o "$tmpdir/rep.json"
check "a replay's CSV and JSON are the recorded run's" sh -c \
    "cmp '$tmpdir/live.csv' '$tmpdir/rep.csv' &&
    cmp '$tmpdir/live.json' '$tmpdir/rep.json'"
"$HVCAT" info "$tmpdir/f.hvr" >"$tmpdir/info"
check "hvcat info names the recorded frame" grep -q \
    "^identity     $FRE \"sim\", partition 1 \"lpar1\" (from simulator)$" \
    "$tmpdir/info"

# A recording from before the frame was recorded names none.
"$HVTOP" -b -r "$DATA/record/busy.hvr" --format json -o "$tmpdir/old.json"
"$HVTOP" -b -r "$DATA/record/default.hvr" -n 2 -o "$tmpdir/old.csv"
check_not "an old recording replays without a frame" sh -c \
    "grep -q '\"frame\"' '$tmpdir/old.json' ||
    head -n 1 '$tmpdir/old.csv' | grep -q ',frame$'"

# Damage in the frame record: reported at its offset, passed over.
off=$(python3 -c '
import sys
b = open(sys.argv[1], "rb").read()
print(b.index(b"\x03\x08" + sys.argv[2].encode()) - 8)
' "$tmpdir/f.hvr" "$M")
python3 -c '
import sys
b = bytearray(open(sys.argv[1], "rb").read())
b[int(sys.argv[2]) + 12] ^= 0x20
open(sys.argv[3], "wb").write(b)
' "$tmpdir/f.hvr" "$off" "$tmpdir/bad.hvr"
"$HVTOP" -b -r "$tmpdir/bad.hvr" -o "$tmpdir/bad.csv" 2>"$tmpdir/bad.err"
check "a damaged frame record fails the replay" test $? = 1
check "... said with its offset and what was skipped" grep -q \
    "offset $off: bad checksum (frame record); skipped [0-9]* bytes to the heartbeat at offset [0-9]*: 1 records, 0 samples lost" \
    "$tmpdir/bad.err"
diag "$(head -3 "$tmpdir/bad.err")"
check "... every sample replayed, the frame not known" sh -c \
    "test \$(wc -l <'$tmpdir/bad.csv') = 13 &&
    head -n 1 '$tmpdir/bad.csv' | grep -q ',reason,error$' &&
    ! grep -q '$S' '$tmpdir/bad.csv'"
head -c $((off + 10)) "$tmpdir/f.hvr" >"$tmpdir/cut.hvr"
"$HVTOP" -b -r "$tmpdir/cut.hvr" -o "$tmpdir/cut.txt" 2>"$tmpdir/cut.err"
check "a recording cut inside its frame record is a torn tail" grep -q \
    "offset $off: the recording ends inside a frame record" "$tmpdir/cut.err"
diag "$(head -3 "$tmpdir/cut.err")"

# A replay serves the recorded frame.
if have curl; then
	"$HVTOP" -b -n 40 -d 0.5 $SIM -w "$tmpdir/s.hvr" -o /dev/null \
	    2>"$tmpdir/s.err"
	serve_start r -b -r "$tmpdir/s.hvr" --replay-speed 1 \
	    --serve 127.0.0.1:0
	scrape_after 1 "$tmpdir/scrape"
	FL="frame=\"$FRE\""
	check "a replay's series name the recorded frame" sh -c \
	    "grep -q '^hvtop_frame_info{$FL,' '$tmpdir/scrape' &&
	    ! grep '^hvtop_' '$tmpdir/scrape' | grep -v '$FL' | grep -q ."
else
	skip "a replay's series name the recorded frame" \
	    "curl is not installed (apt-get install curl)"
fi
