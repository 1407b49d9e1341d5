#!/bin/sh
# Every formula of every shipped catalog, run on the simulated frame,
# gives values plausible for its unit: a percentage within 0..100, a
# clock in MHz or GHz that a chip runs at, a bandwidth a chip can move.
# A formula whose unit disagrees with its operands (a count per second
# labelled MHz) or a simulated rate a counter cannot have fails here.
. "$(dirname "$0")/tap.sh"
plan 3
for c in power8 power9 power10; do
	if ! command -v python3 >/dev/null 2>&1; then
		skip "$c: every formula's values are plausible for its unit" \
		    "python3 is not installed"
		continue
	fi
	python3 "$top_srcdir/tests/cli/catalog-plausible.py" "$HVTOP" \
	    "$top_srcdir/catalogs/$c.json" "$c" >"$tmpdir/out" 2>&1
	rc=$?
	diag "$(cat "$tmpdir/out")"
	check "$c: every formula's values are plausible for its unit" \
	    test "$rc" = 0
done
