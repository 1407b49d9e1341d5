#!/bin/sh
# hvcat eval on texts at the formula parser's limits: a flat sum of any
# length within the terms is no nesting and works; a 130 KB number is
# echoed cut, with its column, and so is a long NAME=VALUE argument.
. "$(dirname "$0")/tap.sh"
plan 7

sum=$(awk 'BEGIN { s = "1"; for (i = 1; i < 300; i++) s = s " + 1"; print s }')
out=$("$HVCAT" eval "$sum" 2>"$tmpdir/e"); rc=$?
check "a flat sum of 300 terms is 300 (exit $rc)" test "$out" = 300
prod=$(awk 'BEGIN { s = "X"; for (i = 1; i < 300; i++) s = s " * 1 / 1"; print s }')
out=$("$HVCAT" eval "$prod" X=2 2>"$tmpdir/e")
check "a flat product of 899 terms works" test "$out" = 2

big=$(awk 'BEGIN { for (i = 0; i < 130000; i++) printf "9" }')
"$HVCAT" eval "1 + $big" >/dev/null 2>"$tmpdir/e"; rc=$?
check "a 130 KB number is refused (exit $rc)" test "$rc" != 0
check "the echo is cut and says the column" grep -qx \
    "hvcat eval: bad number '9999999999999999999999999999999999999999...' (col 5)" \
    "$tmpdir/e"
check "the message is short" test "$(wc -c <"$tmpdir/e")" -lt 300

"$HVCAT" eval "X + 1" "X=${big}x" >/dev/null 2>"$tmpdir/e"
check "a long VALUE is echoed cut" grep -qx \
    "hvcat eval: X: '9999999999999999999999999999999999999999...' is not a number" \
    "$tmpdir/e"
"$HVCAT" eval "X + 1" "$big" >/dev/null 2>"$tmpdir/e"
check "a long argument without '=' is echoed cut" \
    test "$(wc -c <"$tmpdir/e")" -lt 300
exit $tap_failed
