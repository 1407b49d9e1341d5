#!/bin/sh
# hvcat build: the real POWER8 catalog survives dump --json and build byte
# for byte; a hand-written source builds into a valid catalog with its
# lengths and offsets computed; bad sources exit 1 naming the JSON path
# and leave no output behind; usage errors exit 2.
. "$(dirname "$0")/tap.sh"
plan 25
P8=$DATA/catalog/p8-catalog-v3.bin

# The acceptance test.
"$HVCAT" dump --json "$P8" >"$tmpdir/p8.json"; rc=$?
check "dump --json of POWER8 v3 exits 0" test "$rc" = 0
"$HVCAT" build "$tmpdir/p8.json" -o "$tmpdir/p8.bin" 2>"$tmpdir/e"; rc=$?
check "build of dump --json of POWER8 v3 exits 0" test "$rc" = 0
check "build of dump --json of POWER8 v3 gives its bytes back" \
    cmp -s "$P8" "$tmpdir/p8.bin"
check "build says nothing on stderr" test ! -s "$tmpdir/e"

# A source with every length, offset and count left to the tool.
cat >"$tmpdir/small.json" <<'JSON'
{
  "comment": "two core events in one group, one chip placeholder",
  "version": 5, "build_time": "20260102030405",
  "schemas": [{"fields": [{"name": "TIMEBASE_UPDATE"},
    {"name": "COUNTER1"}, {"name": "COUNTER2"}]}],
  "events": [
    {"name": "CPM_CYC", "domain": 2, "description": "Cycles"},
    {"name": "CPM_INST", "domain": 2},
    {"name": "PM_IDLE", "domain": 1, "record_offset": 0,
     "record_length": 0, "counter_offset": 0}],
  "groups": [{"name": "CPM_CYC", "domain": 2, "schema": 0,
    "events": ["CPM_CYC", "CPM_INST"]}],
  "formulas": [{"name": "CPI", "formula": "CPM_CYC / CPM_INST",
    "group": "CPM_CYC", "flags": 4}]
}
JSON
"$HVCAT" build "$tmpdir/small.json" -o "$tmpdir/small.bin"; rc=$?
check "build of a hand-written source exits 0" test "$rc" = 0
check "the catalog built is 5 pages" \
    test "$(wc -c <"$tmpdir/small.bin")" -eq 20480
"$HVCAT" check "$tmpdir/small.bin" >"$tmpdir/out" 2>&1; rc=$?
check "the catalog built is valid" test "$rc" = 0
check "the catalog built has no warning" \
    grep -q ', 1 groups, 1 formulas$' "$tmpdir/out"
"$HVCAT" sysfs "$tmpdir/small.bin" >"$tmpdir/sysfs"
check "events sit where their group's schema puts them" grep -qx \
    "$(printf 'CPM_INST\tdomain=?,offset=0x10,core=?,lpar=0x0')" \
    "$tmpdir/sysfs"
"$HVCAT" dump --json "$tmpdir/small.bin" >"$tmpdir/small2.json"
"$HVCAT" build "$tmpdir/small2.json" -o "$tmpdir/small2.bin"
check "dump --json of the built catalog builds the same bytes" \
    cmp -s "$tmpdir/small.bin" "$tmpdir/small2.bin"

# Bad sources: exit 1, the cause names the JSON path, nothing written.
bad() {	# bad NAME WANT JSON
	printf '%s\n' "$3" >"$tmpdir/bad.json"
	rm -f "$tmpdir/bad.bin"
	"$HVCAT" build "$tmpdir/bad.json" -o "$tmpdir/bad.bin" \
	    2>"$tmpdir/e"; rc=$?
	if [ "$rc" = 1 ] && grep -qF -- "$2" "$tmpdir/e" &&
	    [ ! -e "$tmpdir/bad.bin" ]; then
		pass "$1"
	else
		fail "$1"
		diag "exit $rc: $(cat "$tmpdir/e")"
	fi
}
bad "a JSON syntax error gives its line and column" \
    "bad.json: line 2, column" '{"events": [
  {"name": "A",, "domain": 1}]}'
# jansson quotes the byte it stopped at; an escape must not reach the
# terminal.
printf '{"events": [\n  \033[2J]}\n' >"$tmpdir/ctl.json"
"$HVCAT" build "$tmpdir/ctl.json" -o "$tmpdir/ctl.bin" 2>"$tmpdir/e"
check "a control byte in a syntax error is shown as ?" sh -c \
    "grep -q 'ctl.json: line 2, column' '$tmpdir/e' &&
    ! grep -q \"\$(printf '\\033')\" '$tmpdir/e'"
bad "a duplicate key is refused" "duplicate object key" \
    '{"version": 1, "version": 2}'
bad "a wrong type names the path" "events[1].name: expected a string" \
    '{"events": [{"name": "A", "domain": 1, "record_offset": 0,
    "record_length": 0, "counter_offset": 0}, {"name": 7, "domain": 1}]}'
bad "an unknown slot name names the path" \
    'groups[0].events[1]: no event "CPM_NOPE" in domain 2' \
    '{"schemas": [{"fields": [{"enum": 1}, {"enum": 2}]}],
    "events": [{"name": "CPM_CYC", "domain": 2}],
    "groups": [{"name": "G", "domain": 2, "schema": 0,
    "events": ["CPM_CYC", "CPM_NOPE"]}]}'
bad "a misspelt key is refused" 'events[0]: unknown key "domian"' \
    '{"events": [{"name": "A", "domian": 1}]}'
bad "sections too small are refused" \
    "sections.events.pages: 1, but the entries need 3" \
    "{\"sections\": {\"events\": {\"pages\": 1}}, \"events\": [$(
	i=0; while [ $i -lt 100 ]; do
		[ $i -gt 0 ] && printf ','
		printf '{"name": "PM_EVENT_%03d", "domain": 1, ' $i
		printf '"record_offset": 0, "record_length": 0, '
		printf '"counter_offset": 0, "description": "%s"}' \
		    "a description long enough to need a second page"
		i=$((i + 1))
	done)]}"

# A failed build leaves an existing output as it was.
printf 'old\n' >"$tmpdir/keep.bin"
"$HVCAT" build "$tmpdir/bad.json" -o "$tmpdir/keep.bin" 2>/dev/null
check "a failed build leaves the old output alone" \
    test "$(cat "$tmpdir/keep.bin")" = old

"$HVCAT" build "$tmpdir/missing.json" -o "$tmpdir/x.bin" 2>"$tmpdir/e"; rc=$?
check "a missing source exits 1" test "$rc" = 1
check "a missing source is named" grep -q 'missing.json' "$tmpdir/e"

# Usage.
"$HVCAT" build >/dev/null 2>&1; rc=$?
check "build without arguments exits 2" test "$rc" = 2
"$HVCAT" build "$tmpdir/small.json" >/dev/null 2>&1; rc=$?
check "build without -o exits 2" test "$rc" = 2
"$HVCAT" build --bogus "$tmpdir/small.json" -o x >/dev/null 2>&1; rc=$?
check "build with an unknown option exits 2" test "$rc" = 2
"$HVCAT" build -h >"$tmpdir/h" 2>&1; rc=$?
check "build -h exits 0 with its usage" \
    test "$rc" = 0 -a "$(grep -c 'usage: hvcat build' "$tmpdir/h")" = 1
# A file that cannot be written is named as the user gave it, not as
# the temporary file the atomic write goes through.
"$HVCAT" build "$tmpdir/p8.json" -o "$tmpdir/no/such/dir.bin" \
    >/dev/null 2>"$tmpdir/e"
check "an unwritable output names the file given, not a temporary" \
    grep -qx "hvcat: $tmpdir/no/such/dir.bin: No such file or directory" \
    "$tmpdir/e"
