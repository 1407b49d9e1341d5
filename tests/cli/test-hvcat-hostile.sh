#!/bin/sh
# A hostile catalog: event, group and formula names and descriptions that
# hold terminal escape sequences (ESC ] 0 ; ... BEL, CSI), C1 controls
# raw and as UTF-8, DEL and invalid UTF-8.  Someone else's catalog or
# recording is untrusted input, so no output path of hvtop or hvcat may
# pass one of those bytes on: batch text, CSV and JSON, --list, a
# recording and its replay, hvcat's listings and messages.  They show the
# bytes as \xNN instead.
. "$(dirname "$0")/tap.sh"
plan 29

if ! command -v python3 >/dev/null 2>&1; then
	i=0
	while [ "$i" -lt 29 ]; do
		skip "hostile catalog" "python3 is not installed"
		i=$((i + 1))
	done
	exit 0
fi
P8=$top_builddir/catalogs/power8.bin
H=$tmpdir/hostile.bin

# Same-length replacements keep every entry where it was.
python3 - "$P8" "$H" <<'PY'
import sys
d = open(sys.argv[1], 'rb').read()
for old, new in [
    (b'PM_PB_CYC\0', b'\x1b]0;PWND\x07\0'),
    (b'PM_PB_INT_DATA_XFER\0', b'\x9b2J\xc2\x9b1m\x7fEVIL\x1b[0mXXX\0'),
    (b'TOTAL_INT_PB_BW\0', b'\x1b]52;c;QUJD\x07XXX\0'),
    (b'Total internal PB Bandwidth\0', b'Total\x1b[31m \xff\xfe\x80 PB\x1b]8;;x\x07XXX\0'),
    (b'Total PowerBus Cycles\0', b'\x1bP+q\x1b\\ \xc2\x85\xe2\x80\xa8ok\r\n\t\babc\0')]:
    assert len(old) == len(new), old
    assert old in d, old
    d = d.replace(old, new)
open(sys.argv[2], 'wb').write(d)
PY

# clean NAME FILE...: no C0 control but \n and \t, no DEL, no C1 (a lone
# byte 0x80-0x9f or U+0080-U+009F) in the files.
clean() {
	name=$1
	shift
	if out=$(python3 - "$@" <<'PY'
import sys
bad = []
for f in sys.argv[1:]:
    d = open(f, 'rb').read()
    t = d.decode('utf-8', 'surrogateescape')
    for i, c in enumerate(t):
        o = ord(c)
        if (o < 0x20 and c not in '\n\t') or o == 0x7f or \
            0x80 <= o <= 0x9f or 0xdc80 <= o <= 0xdc9f:
            bad.append('%s: U+%04X at char %d: %r' %
                (f.rsplit('/', 1)[-1], o, i, t[max(0, i - 20):i + 20]))
print('\n'.join(bad[:5]))
sys.exit(1 if bad else 0)
PY
	); then
		pass "$name"
	else
		fail "$name"
		diag "$out"
	fi
}

SIM="--sim clock=virtual,seed=1 --catalog $H"
# shellcheck disable=SC2086
"$HVTOP" -b -n 2 $SIM >"$tmpdir/text" 2>"$tmpdir/text.err"
clean "batch text carries no control character" \
    "$tmpdir/text" "$tmpdir/text.err"
check "batch text shows the escaped name" \
    grep -qF '\x1b]0;PWND\x07' "$tmpdir/text"
# shellcheck disable=SC2086
"$HVTOP" -b -n 2 $SIM --format csv >"$tmpdir/csv" 2>"$tmpdir/csv.err"
clean "batch CSV carries no control character" \
    "$tmpdir/csv" "$tmpdir/csv.err"
check "the CSV header shows the escaped names" \
    grep -qF '\x9b2J\xc2\x9b1m\x7fEVIL\x1b[0mXXX' "$tmpdir/csv"
# shellcheck disable=SC2086
"$HVTOP" -b -n 2 $SIM --format json >"$tmpdir/json" 2>"$tmpdir/json.err"
clean "batch JSON carries no control character" \
    "$tmpdir/json" "$tmpdir/json.err"
check "batch JSON holds no escaped control character either" \
    python3 -c '
import json, sys
def walk(v):
    if isinstance(v, dict):
        for k, x in v.items():
            walk(k); walk(x)
    elif isinstance(v, list):
        for x in v: walk(x)
    elif isinstance(v, str):
        assert not any(ord(c) < 0x20 or 0x7f <= ord(c) <= 0x9f
            for c in v), repr(v)
for line in open(sys.argv[1]):
    if line.strip():
        walk(json.loads(line))
' "$tmpdir/json"

for what in events groups formulas; do
	# shellcheck disable=SC2086
	"$HVTOP" $SIM --list "$what" >"$tmpdir/list-$what" \
	    2>"$tmpdir/list-$what.err"
	clean "--list $what carries no control character" \
	    "$tmpdir/list-$what" "$tmpdir/list-$what.err"
done
check "--list formulas shows the escaped name" \
    grep -qF '\x1b]52;c;QUJD\x07XXX' "$tmpdir/list-formulas"
check "--list events shows the escaped description" \
    grep -qF 'Total\x1b[31m \xff\xfe\x80 PB\x1b]8;;x\x07XXX' \
    "$tmpdir/list-events"

# shellcheck disable=SC2086
"$HVTOP" -b -n 3 $SIM -w "$tmpdir/r.hvr" -o "$tmpdir/live.txt" \
    2>"$tmpdir/rec.err"; rc=$?
check "a run with the hostile catalog records" test "$rc" = 0
clean "the recording run says nothing dangerous" "$tmpdir/live.txt" \
    "$tmpdir/rec.err"
"$HVTOP" -b -r "$tmpdir/r.hvr" >"$tmpdir/replay" 2>"$tmpdir/replay.err"
clean "its replay as text carries no control character" \
    "$tmpdir/replay" "$tmpdir/replay.err"
check "the replay shows the escaped name" \
    grep -qF '\x1b]0;PWND\x07' "$tmpdir/replay"
"$HVTOP" -b -r "$tmpdir/r.hvr" --format csv >"$tmpdir/replay.csv" \
    2>"$tmpdir/replay.csv.err"
clean "its replay as CSV carries no control character" \
    "$tmpdir/replay.csv" "$tmpdir/replay.csv.err"
"$HVCAT" info "$tmpdir/r.hvr" >"$tmpdir/rinfo" 2>&1
clean "hvcat info on the recording carries no control character" \
    "$tmpdir/rinfo"

for cmd in check info dump sysfs; do
	"$HVCAT" "$cmd" "$H" >"$tmpdir/hvcat-$cmd" 2>&1
	clean "hvcat $cmd carries no control character" "$tmpdir/hvcat-$cmd"
done

# The JSON form keeps the bytes as stored, written as JSON escapes.
"$HVCAT" dump --json "$H" >"$tmpdir/h.json" 2>"$tmpdir/e"
clean "hvcat dump --json carries no control character" "$tmpdir/h.json" \
    "$tmpdir/e"
check "hvcat dump --json keeps the bytes as JSON escapes" \
    grep -qiF '"\u001b]0;PWND\u0007"' "$tmpdir/h.json"
# ... and build refuses a name with a control character, saying where.
"$HVCAT" build "$tmpdir/h.json" -o "$tmpdir/h2.bin" 2>"$tmpdir/e"; rc=$?
if [ "$rc" = 1 ] && [ ! -e "$tmpdir/h2.bin" ] &&
    grep -q '\.name: holds the control character U+001B at byte 0' \
    "$tmpdir/e"; then
	pass "hvcat build refuses a control character in a name"
else
	fail "hvcat build refuses a control character in a name"
	diag "exit $rc: $(head -3 "$tmpdir/e")"
fi
clean "the refusal carries no control character" "$tmpdir/e"
printf '%s\n' '{"events": [{"name": "A", "domain": 1, "record_offset": 0,
 "record_length": 0, "counter_offset": 0}, {"name": "B\u009b", "domain": 1,
 "record_offset": 0, "record_length": 0, "counter_offset": 0}]}' \
    >"$tmpdir/c1.json"
"$HVCAT" build "$tmpdir/c1.json" -o "$tmpdir/c1.bin" 2>"$tmpdir/e"; rc=$?
check "hvcat build refuses a C1 control in a name, naming the path" \
    grep -q '^hvcat: .*c1.json: events\[1\]\.name: holds the control character U+009B at byte 1$' "$tmpdir/e"
# A description may hold anything: it builds, prints escaped, and
# round-trips byte for byte.
printf '%s\n' '{"events": [{"name": "A", "domain": 1, "record_offset": 0,
 "record_length": 0, "counter_offset": 0,
 "description": "x\u001b]0;T\u0007\u009b\u007fy"}]}' >"$tmpdir/d.json"
"$HVCAT" build "$tmpdir/d.json" -o "$tmpdir/d.bin" 2>"$tmpdir/e"; rc=$?
check "a control character in a description builds" test "$rc" = 0
"$HVCAT" dump --json "$tmpdir/d.bin" >"$tmpdir/d2.json" 2>/dev/null
"$HVCAT" build "$tmpdir/d2.json" -o "$tmpdir/d2.bin" 2>/dev/null
check "and its dump --json builds the same bytes" \
    cmp -s "$tmpdir/d.bin" "$tmpdir/d2.bin"
"$HVCAT" dump "$tmpdir/d.bin" >"$tmpdir/d.txt" 2>&1
check "hvcat dump shows its bytes, each escaped once" grep -qF \
    '"x\x1b]0;T\x07\xc2\x9b\x7fy"' "$tmpdir/d.txt"
