#!/bin/sh
# hvcat check and build agree on what a valid catalog is: check compiles
# every formula against the catalog and refuses duplicate group and
# formula names, each problem with its offset; build builds what check
# accepts (a formula's group index that is no group is a warning in
# both) and refuses what it refuses.  hvcat and hvtop name the same hcall
# interface for a catalog.  check and info recognise a recording; they
# refuse what is not a regular file or too large before reading it.
# build gives a new file the mode the umask says; a file it replaces
# keeps its own.
. "$(dirname "$0")/tap.sh"
plan 34

if ! command -v python3 >/dev/null 2>&1; then
	i=0
	while [ "$i" -lt 31 ]; do
		skip "hvcat check" "python3 is not installed"
		i=$((i + 1))
	done
	exit 0
fi

# patch IN OUT OLD NEW...: replace NUL-terminated strings, same length.
patch() {
	python3 - "$@" <<'PY'
import sys
d = open(sys.argv[1], 'rb').read()
args = sys.argv[3:]
for i in range(0, len(args), 2):
    old = args[i].encode().decode('unicode_escape').encode('latin-1') + b'\0'
    new = args[i + 1].encode().decode('unicode_escape').encode('latin-1') + b'\0'
    assert len(old) == len(new), (old, new)
    assert old in d, old
    d = d.replace(old, new, 1)
open(sys.argv[2], 'wb').write(d)
PY
}

# 1. A formula's group index that is no group: a warning in both.
cat >"$tmpdir/g95.json" <<'JSON'
{ "version": 5, "build_time": "20260102030405",
  "schemas": [{"fields": [{"name": "TIMEBASE_UPDATE"},
    {"name": "COUNTER1"}, {"name": "COUNTER2"}]}],
  "events": [{"name": "CPM_CYC", "domain": 2}, {"name": "CPM_INST", "domain": 2}],
  "groups": [{"name": "CPM_CYC", "domain": 2, "schema": 0,
    "events": ["CPM_CYC", "CPM_INST"]}],
  "formulas": [{"name": "CPI", "formula": "CPM_CYC / CPM_INST",
    "group": 95, "flags": 4}] }
JSON
"$HVCAT" build "$tmpdir/g95.json" -o "$tmpdir/g95.bin" 2>"$tmpdir/e"; rc=$?
check "build keeps a formula group index that is no group" test "$rc" = 0
check "and warns about it as check does" \
    grep -q 'formula 0 (CPI): group 95 is not below the group count 1' \
    "$tmpdir/e"
"$HVCAT" check "$tmpdir/g95.bin" >"$tmpdir/out" 2>"$tmpdir/e"; rc=$?
check "check calls that catalog valid, with the warning" \
    grep -q 'valid: .*; 1 warning$' "$tmpdir/out"
"$HVCAT" dump --json "$tmpdir/g95.bin" >"$tmpdir/g95d.json" 2>/dev/null
"$HVCAT" build "$tmpdir/g95d.json" -o "$tmpdir/g95d.bin" 2>/dev/null; rc=$?
check "build accepts the dump of a catalog check calls valid" test "$rc" = 0
check "and gives its bytes back" cmp -s "$tmpdir/g95.bin" "$tmpdir/g95d.bin"

# 2. The slot warning escapes the event name like every other message.
patch "$tmpdir/g95.bin" "$tmpdir/slot.bin" 'CPM_INST' '\x1b]0;PWN\x07'
python3 - "$tmpdir/slot.bin" <<'PY'
import sys
p = sys.argv[1]
d = bytearray(open(p, 'rb').read())
at = d.index(b'\x1b]0;PWN\x07\0') - 0x16	# the event entry
d[at + 4] = 1				# domain: chip, not the group's core
open(p, 'wb').write(d)
PY
"$HVCAT" check "$tmpdir/slot.bin" >"$tmpdir/out" 2>&1
check "the slot warning names the event escaped" grep -qF \
    'slot 1 names event 1 (\\x1b]0;PWN\\x07) of domain 1' "$tmpdir/out"
check_not "and holds no escape character" grep -q "$(printf '\033')" \
    "$tmpdir/out"

# 3. hvcat and hvtop name the same interface for each shipped catalog.
for c in power8 power9 power10; do
	"$HVTOP" -b -n 1 --sim clock=virtual --catalog "$c" -w "$tmpdir/$c.hvr" \
	    -o /dev/null 2>/dev/null
	hv=$("$HVCAT" info "$tmpdir/$c.hvr" 2>/dev/null |
	    sed -n 's/.*hcall interface \([0-9]\).*/\1/p')
	hc=$("$HVCAT" info "$c" 2>/dev/null | awk '$1 == "interface" {print $2}')
	if [ -n "$hv" ] && [ "$hv" = "$hc" ]; then
		pass "$c: hvcat info and hvtop both say interface $hv"
	else
		fail "$c: hvcat info and hvtop name the same interface"
		diag "hvtop recorded '$hv', hvcat info says '$hc'"
	fi
done

# 4. A recording given to check is checked as one.
R=$tmpdir/power8.hvr
"$HVCAT" check "$R" >"$tmpdir/out" 2>"$tmpdir/e"; rc=$?
check "check of a recording exits 0" test "$rc" = 0
check "check says it is a valid recording" \
    grep -q 'power8.hvr: valid recording: 2 samples, 1 catalog, closed$' \
    "$tmpdir/out"
python3 - "$R" "$tmpdir/bad.hvr" <<'PY'
import sys
d = bytearray(open(sys.argv[1], 'rb').read())
for i in range(len(d) - 300, len(d) - 200):
    d[i] ^= 0x5a
open(sys.argv[2], 'wb').write(d)
PY
"$HVCAT" check "$tmpdir/bad.hvr" >"$tmpdir/out" 2>"$tmpdir/e"; rc=$?
check "check of a damaged recording exits 1" test "$rc" = 1
check "and says it is damaged" grep -q 'bad.hvr: damaged recording' \
    "$tmpdir/e"
"$HVCAT" dump "$R" >"$tmpdir/out" 2>"$tmpdir/e"; rc=$?
check "dump of a recording says what it is and where to look" \
    grep -q 'a recording (hvtop -w), not a catalog; hvcat info and hvcat check read it' \
    "$tmpdir/e"

# 5. check compiles every formula and refuses duplicate names.
cat >"$tmpdir/f.json" <<'JSON'
{ "version": 5, "build_time": "20260102030405",
  "schemas": [{"fields": [{"name": "TIMEBASE_UPDATE"},
    {"name": "COUNTER1"}, {"name": "COUNTER2"}]}],
  "events": [{"name": "CPM_CYC", "domain": 2}, {"name": "CPM_INST", "domain": 2}],
  "groups": [{"name": "GRP_A", "domain": 2, "schema": 0,
    "events": ["CPM_CYC", "CPM_INST"]},
    {"name": "GRP_B", "domain": 2, "schema": 0, "events": ["CPM_CYC"]}],
  "formulas": [
    {"name": "SYNTAX", "formula": "CPM_CYC / CPM_INST"},
    {"name": "UNKNOWN", "formula": "CPM_CYC * CPM_INST"},
    {"name": "SELFUSE", "formula": "CPM_CYC - CPM_INST"},
    {"name": "DUP_A", "formula": "CPM_CYC"},
    {"name": "DUP_B", "formula": "CPM_INST"},
    {"name": "GOOD", "formula": "(CPM_INST * PB_Freq) / delta-seconds"}] }
JSON
"$HVCAT" build "$tmpdir/f.json" -o "$tmpdir/f.bin" 2>"$tmpdir/e"; rc=$?
check "a catalog of good formulas builds" test "$rc" = 0
"$HVCAT" check "$tmpdir/f.bin" >"$tmpdir/out" 2>"$tmpdir/e"; rc=$?
check "check calls it valid" test "$rc" = 0
patch "$tmpdir/f.bin" "$tmpdir/fbad.bin" \
    'CPM_CYC / CPM_INST' '((((              ' \
    'CPM_CYC * CPM_INST' 'CPM_CYC * CPM_NOPE' \
    'CPM_CYC - CPM_INST' 'SELFUSE + 1       ' \
    'DUP_B' 'DUP_A' 'GRP_B' 'GRP_A'
"$HVCAT" check "$tmpdir/fbad.bin" >"$tmpdir/out" 2>"$tmpdir/e"; rc=$?
check "check of bad formulas exits 1" test "$rc" = 1
check "check says invalid with 5 errors" \
    grep -q 'fbad.bin: invalid: 5 errors' "$tmpdir/e"
check "a syntax error names the formula, its offset and column" grep -q \
    'offset 0x[0-9a-f]*: error: formula 0 (SYNTAX): .*col [0-9]' "$tmpdir/e"
check "an unknown name is named" grep -q \
    'offset 0x[0-9a-f]*: error: formula 1 (UNKNOWN): unknown .*CPM_NOPE (col 11)' \
    "$tmpdir/e"
check "a formula using itself is a cycle" grep -q \
    'error: formula 2 (SELFUSE): .*cycle' "$tmpdir/e"
check "a duplicate formula name is refused" grep -q \
    'error: formula 4 (DUP_A): formula 3 has the same name' "$tmpdir/e"
check "a duplicate group name is refused" grep -q \
    'error: group 1 (GRP_A): group 0 has the same name' "$tmpdir/e"
"$HVCAT" dump --json "$tmpdir/fbad.bin" >"$tmpdir/fbad.json" 2>/dev/null
rm -f "$tmpdir/x.bin"
"$HVCAT" build "$tmpdir/fbad.json" -o "$tmpdir/x.bin" 2>"$tmpdir/e"; rc=$?
check "build refuses what check refuses, writing nothing" \
    test "$rc" = 1 -a ! -e "$tmpdir/x.bin"

# 5b. An RPN formula that leaves values under its result: valid (the
# result is x), with a warning naming the formula and its offset.
sed 's|"formula": "CPM_CYC / CPM_INST"}|"formula": "CPM_INST CPM_CYC 2 *"}|' \
    "$tmpdir/f.json" >"$tmpdir/left.json"
"$HVCAT" build "$tmpdir/left.json" -o "$tmpdir/left.bin" 2>/dev/null
"$HVCAT" check "$tmpdir/left.bin" >"$tmpdir/out" 2>"$tmpdir/e"; rc=$?
check "a formula with a value left over is valid, with a warning" \
    grep -q 'left.bin: valid: .*; 1 warning$' "$tmpdir/out"
check "the warning names the formula, its offset and what is ignored" \
    grep -q 'offset 0x[0-9a-f]*: warning: formula 0 (SYNTAX): 1 value left under the result (x, the top of the stack), ignored' \
    "$tmpdir/e"

# 6. build respects the umask.
rm -f "$tmpdir/m.bin"
(umask 022 && "$HVCAT" build "$tmpdir/g95.json" -o "$tmpdir/m.bin" 2>/dev/null)
check "build with umask 022 writes mode 644" \
    test "$(stat -c %a "$tmpdir/m.bin")" = 644
(umask 027 && "$HVCAT" build "$tmpdir/g95.json" -o "$tmpdir/m.bin" 2>/dev/null)
check "build over a file keeps its mode" \
    test "$(stat -c %a "$tmpdir/m.bin")" = 644
rm -f "$tmpdir/m.bin"
(umask 027 && "$HVCAT" build "$tmpdir/g95.json" -o "$tmpdir/m.bin" 2>/dev/null)
check "build with umask 027 writes mode 640" \
    test "$(stat -c %a "$tmpdir/m.bin")" = 640

# 7. What is not a regular file, or too large, is refused unread.
timeout 20 "$HVCAT" info /dev/zero >/dev/null 2>"$tmpdir/e"; rc=$?
check "info /dev/zero exits 1 at once" test "$rc" = 1
check "and says it is no regular file" \
    grep -q '/dev/zero: not a regular file (a device)' "$tmpdir/e"
mkfifo "$tmpdir/fifo"
timeout 20 "$HVCAT" check "$tmpdir/fifo" >/dev/null 2>"$tmpdir/e"; rc=$?
check "check of a FIFO exits 1 without blocking" \
    grep -q 'fifo: not a regular file (a FIFO)' "$tmpdir/e"
# A 2 GB hole: with 256 MB of address space, reading it would fail.  An
# AddressSanitizer build reserves terabytes of shadow memory at start, so
# there the limit is left out and only the message is checked.
truncate -s 2G "$tmpdir/big.bin"
vlimit="ulimit -v 262144"
ldd "$HVCAT" 2>/dev/null | grep -q libasan && vlimit=:
(eval "$vlimit" 2>/dev/null; "$HVCAT" info "$tmpdir/big.bin") \
    >/dev/null 2>"$tmpdir/e"; rc=$?
check "info on a 2 GB file says it is too large, unread" grep -q \
    'big.bin: 2147483648 bytes, more than a catalog may have (1073741824); nothing read' \
    "$tmpdir/e"
