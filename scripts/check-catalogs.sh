#!/bin/sh
# The catalogs hvtop ships.  Each image the build made from its JSON
# source must parse with no error and no warning, hvcat info must find it
# by its shipped name, its counts must be the ones the source has, and
# writing it back through its JSON form must not change a byte.  When
# Python 3 is there, the committed JSON sources must be what
# scripts/gen-catalogs.py writes today.  Every formula must compute, with
# every event and constant at 1, so none names what the catalog lacks.
# Output is TAP.
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
. "$top_srcdir/tests/cli/tap.sh"

# The sources list one entry per line: NAME=1 for each event line, the
# name of each formula line.
event_line='s/^    {"index": [0-9]*, "name": "\([^"]*\)", "domain".*/\1=1/p'
formula_line='/"formula": /s/^    {"index": [0-9]*, "name": "\([^"]*\)".*/\1/p'

# check_catalog NAME VERSION EVENTS GROUPS FORMULAS: seven TAP lines.  (Not
# $name: tap.sh's check() uses that.)
check_catalog() {
	c=$1 version=$2 events=$3 groups=$4 formulas=$5
	img=$top_builddir/catalogs/$c.bin
	"$HVCAT" check "$img" >"$tmpdir/out" 2>"$tmpdir/err"; rc=$?
	check "$c: hvcat check exits 0" test "$rc" = 0
	want="valid: catalog version $version, 4 schemas, $events events"
	if grep -q ": $want " "$tmpdir/out" &&
	    grep -q ", $groups groups, $formulas formulas\$" "$tmpdir/out" &&
	    [ ! -s "$tmpdir/err" ]; then
		pass "$c: valid, $events events, $groups groups, $formulas formulas, no warning"
	else
		fail "$c: valid, $events events, $groups groups, $formulas formulas, no warning"
		sed 's/^/# /' "$tmpdir/out" "$tmpdir/err" | head -n 20
	fi
	"$HVCAT" info "$c" >"$tmpdir/info" 2>"$tmpdir/err"; rc=$?
	check "$c: hvcat info finds the shipped name" test "$rc" = 0
	check "$c: hvcat info lists its events" grep -Eq \
	    "^events +0x[0-9a-f]+ +[0-9]+ +$events +$events +0\$" "$tmpdir/info"
	check "$c: hvcat info lists its formulas" grep -Eq \
	    "^formulas +0x[0-9a-f]+ +[0-9]+ +$formulas +$formulas +0\$" \
	    "$tmpdir/info"
	src=$top_srcdir/catalogs/$c.json
	values=$(sed -n "$event_line" "$src")
	bad=""
	for f in $(sed -n "$formula_line" "$src"); do
		# IBM's TOTAL_XLINK0_UTILISATION% needs an escape.
		e=$(printf '%s' "$f" | sed 's/[^A-Za-z0-9_.]/\\&/g')
		# shellcheck disable=SC2086
		"$HVCAT" eval --catalog "$img" "$e" $values \
		    PB_Freq=1 XBUS_Freq=1 ABUS_Freq=1 PHB_Freq=1 \
		    delta-seconds=1 >/dev/null 2>&1 || bad="$bad $f"
	done
	if [ -z "$bad" ] && [ "$(echo "$values" | grep -c .)" = "$events" ]
	then
		pass "$c: every formula computes"
	else
		fail "$c: every formula computes"
		diag "not:$bad"
	fi
	if "$HVCAT" dump --json "$img" >"$tmpdir/$c.json" 2>"$tmpdir/err" &&
	    "$HVCAT" build "$tmpdir/$c.json" -o "$tmpdir/$c.bin" &&
	    cmp -s "$img" "$tmpdir/$c.bin"; then
		pass "$c: dump --json then build gives the same bytes"
	else
		fail "$c: dump --json then build gives the same bytes"
	fi
}

plan 22
check_catalog power8 7 1330 139 36
check_catalog power9 1 263 130 5
check_catalog power10 1 380 140 71

if command -v python3 >/dev/null 2>&1; then
	if out=$(python3 "$top_srcdir/scripts/gen-catalogs.py" --check 2>&1)
	then
		pass "the JSON sources are what scripts/gen-catalogs.py writes"
	else
		fail "the JSON sources are what scripts/gen-catalogs.py writes"
		diag "$out"
	fi
else
	skip "the JSON sources are what scripts/gen-catalogs.py writes" \
	    "python3 is not installed"
fi
