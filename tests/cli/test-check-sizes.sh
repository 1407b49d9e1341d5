#!/bin/sh
# scripts/check-sizes.sh: the real tree keeps within 1,000 lines a file
# and 80 lines a function, and planted sources past either limit fail
# it, named with their file, line and size; a function written the
# house's way at exactly 80 lines, a long comment and a long declaration
# do not.  Output is TAP.
. "$(dirname "$0")/tap.sh"
trap 'rm -rf "$tmpdir"' EXIT
CHECK="$top_srcdir/scripts/check-sizes.sh"
plan 8

out=$(sh "$CHECK" 2>&1)
check "the tree keeps its sizes" test $? -eq 0
printf '%s\n' "$out" | grep '^not ok' | sed 's/^/# /'

t="$tmpdir/tree"
mkdir -p "$t/src/util" "$t/ui"
# fn NAME N: a function of N lines from its name to its closing brace.
fn() {
	printf 'static int\n%s(int a)\n{\n' "$1"
	i=3
	while [ "$i" -lt $(($2 - 1)) ]; do
		printf '\ta += %d;\n' "$i"
		i=$((i + 1))
	done
	printf '\treturn (a);\n}\n\n'
}
{
	fn plant_ok 80
	fn plant_long 81
} >"$t/src/util/plant.c"
awk 'BEGIN { for (i = 0; i < 1001; i++) print "/* line */" }' \
    >"$t/ui/plant-big.c"
awk 'BEGIN { for (i = 0; i < 1000; i++) print "/* line */" }' \
    >"$t/ui/plant-full.h"
{
	printf 'static const char *plant_table[] = {\n'
	awk 'BEGIN { for (i = 0; i < 200; i++) print "\t\"x\"," }'
	printf '};\n'
} >"$t/ui/plant-table.c"

out=$(top_srcdir="$t" sh "$CHECK" 2>&1)
rc=$?
diag "$out"
check "the planted tree fails the check" test $rc -ne 0
check "a file of 1,001 lines is named with its size" sh -c \
    'printf "%s\n" "$1" | grep -q "^not ok .*ui/plant-big.c: 1001 lines"' \
    sh "$out"
check "a function of 81 lines is named with its file and line" sh -c \
    'printf "%s\n" "$1" |
    grep -q "^not ok .*src/util/plant.c:[0-9]*: plant_long() is 81 lines"' \
    sh "$out"
check "a function of exactly 80 lines passes" sh -c \
    '! printf "%s\n" "$1" | grep -q "plant_ok"' sh "$out"
check "a file of exactly 1,000 lines passes" sh -c \
    '! printf "%s\n" "$1" | grep -q "plant-full.h"' sh "$out"
check "a long initialiser is not a function" sh -c \
    '! printf "%s\n" "$1" | grep -q "plant-table"' sh "$out"
check "nothing else is named" test \
    "$(printf '%s\n' "$out" | grep -c '^not ok')" -eq 2
exit $tap_failed
