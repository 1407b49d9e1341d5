#!/bin/sh
# hvcat eval as a user runs it: values on stdout, reasons and columns on
# stderr, exit 0 / 1 / 2; and with --catalog, the catalog's formulas.
. "$(dirname "$0")/tap.sh"
plan 35

ev() {
	"$HVCAT" eval "$@" >"$tmpdir/out" 2>"$tmpdir/err"
	echo $? >"$tmpdir/rc"
}
out_is() {
	test "$(cat "$tmpdir/out")" = "$1" && test "$(cat "$tmpdir/rc")" = 0
}
err_has() { grep -qF -- "$1" "$tmpdir/err"; }
rc_is() { test "$(cat "$tmpdir/rc")" = "$1"; }

# IBM's infix, and the same formula in the proposal's RPN.
ev '((PM_PB_INT_DATA_XFER * 512) / PM_PB_CYC) * PB_Freq' \
    PM_PB_INT_DATA_XFER=1000 PM_PB_CYC=2000 PB_Freq=2.4e9
check "infix formula prints its value alone" out_is 614400000000
ev 'PM_PB_INT_DATA_XFER 512 * PM_PB_CYC / PB_Freq *' \
    PM_PB_INT_DATA_XFER=1000 PM_PB_CYC=2000 PB_Freq=2.4e9
check "the RPN form gives the same value" out_is 614400000000

# The proposal's operators, x = most recent.
ev 'A B -' A=7 B=2;		check "A B - is A-B" out_is 5
ev 'A B /' A=7 B=2;		check "A B / is A/B" out_is 3.5
ev 'A B x^y' A=3 B=2;		check "A B x^y is B^A" out_is 8
ev 'A B mod' A=-7 B=2;		check "mod is fmod (sign of y)" out_is -1
ev 'A B rem' A=-7 B=2;		check "rem is floor(y / x)" out_is -4
ev 'A B C rot swp 10 * + swp 100 * +' A=1 B=2 C=3
check "rot turns the whole stack" out_is 312
ev 'N0|N1|-|N2|/|' N0=10 N1=4 N2=3
check "PAPI's |-separated RPN" out_is 2
ev '0.1 + 0.2'
check "full precision" out_is 0.30000000000000004
ev 'A + 1' A=0x10;		check "hex values" out_is 17
ev -- '-A ^ 2' A=3
check "-- before an expression with '-'" out_is -9
ev '-A + 1' A=3
check "an expression may start with '-'" out_is -2
ev --rpn '2 3 x^y';		check "--rpn" out_is 9
ev 'delta-seconds * 2' delta-seconds=1.5
check "delta-seconds is a name" out_is 3

# No value: exit 1 with the reason.
ev 'A / B' A=1 B=0
check "division by zero exits 1" rc_is 1
check "... and says why" err_has "no value: division by zero"
ev 'A / B' A=1
check "a missing value exits 1" rc_is 1
check "... naming it" err_has "no value: B has no value (give B=VALUE)"
ev 'sqrt(A)' A=-4
check "sqrt of a negative number has no value" err_has \
    "no value: square root of a negative number"

# Formula errors: exit 1 with the column.
ev 'A B + *' A=1 B=2
check "stack underflow exits 1" rc_is 1
check "... at its column" err_has \
    "stack underflow at '*' (col 7): needs 2 operands, has 1"
ev '(A + B))' A=1 B=2
check "unbalanced ')' with its column" err_has "unbalanced ')' (col 8)"
# The result is x, the top of the stack; values under it are left over
# (the catalog proposal leaves the result on the stack), and -v says so.
ev --rpn 'A B C rot' A=12 B=3 C=7
check "values left on the stack: the result is x" out_is 3
ev -v --rpn 'A B C rot' A=12 B=3 C=7
check "-v warns about the values left under the result" err_has \
    "warning: 2 values left under the result"

# Usage errors: exit 2.
ev;				check "no expression exits 2" rc_is 2
ev --bogus 'A';			check "an unknown option exits 2" rc_is 2
ev --rpn --infix 'A';		check "--rpn with --infix exits 2" rc_is 2
ev 'A' A=abc;			check "a value that is no number exits 2" rc_is 2

# -v: RPN, infix and the trace on stderr, stdout unchanged.
ev -v '(A + B) / C' A=1 B=2 C=4
check "-v keeps stdout the value" out_is 0.75
check "-v shows the RPN" grep -q '^rpn: *A B + C /$' "$tmpdir/err"
check "-v shows the infix" grep -q '^infix: *(A + B) / C$' "$tmpdir/err"
check "-v shows each step with the stack" grep -Eq '^ +3 +\+ +3$' "$tmpdir/err"

# --catalog: formula names stand for their formulas.
json=$top_srcdir/catalogs/power8.json
if [ -f "$json" ] &&
    "$HVCAT" build "$json" -o "$tmpdir/p8.bin" >/dev/null 2>&1; then
	ev --catalog "$tmpdir/p8.bin" 'TOTAL_INT_PB_BW / 2' \
	    PM_PB_INT_DATA_XFER=1000 PM_PB_CYC=2000 PB_Freq=2.4e9
	check "--catalog: a catalog formula by name" out_is 307200000000
	ev --catalog "$tmpdir/p8.bin" 'TOTAL_INT_PB_BW' \
	    PM_PB_INT_DATA_XFER=1000 PM_PB_CYC=2000
	check "--catalog: an unset constant is named" err_has \
	    "unknown constant PB_Freq (col 45): give its value as PB_Freq=VALUE"
else
	skip "--catalog: a catalog formula by name" "no power8 catalog source"
	skip "--catalog: an unset constant is named" "no power8 catalog source"
fi
exit $tap_failed
