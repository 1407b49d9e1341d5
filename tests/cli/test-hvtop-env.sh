#!/bin/sh
# What hvtop prints does not depend on the machine's time zone or locale:
# timestamps are UTC and numbers use a decimal point whatever the user's
# settings.  And the tests themselves see none of the user's own files
# (tap.sh gives each an empty home).
. "$(dirname "$0")/tap.sh"
plan 4

run() { "$HVTOP" -b -n 3 --sim clock=virtual,seed=3 "$@"; }

for fmt in csv json text; do
	TZ=UTC LC_ALL=C run --format "$fmt" >"$tmpdir/c.$fmt" 2>&1
	# A zone far from UTC, with a half-hour offset, and a UTF-8 locale.
	TZ=XYZ-13:45 LC_ALL=C.UTF-8 LANG=C.UTF-8 run --format "$fmt" \
	    >"$tmpdir/z.$fmt" 2>&1
	check "$fmt output is the same in any time zone and locale" \
	    cmp -s "$tmpdir/c.$fmt" "$tmpdir/z.$fmt"
done
check "the test's home is empty and its own" sh -c \
    "test \"\$HOME\" = '$tmpdir/home' && test -z \"\$(ls -A \"\$HOME\")\" &&
    test -z \"\${XDG_CONFIG_HOME:-}\${HVTOP_CONFIG:-}\""
exit $tap_failed
