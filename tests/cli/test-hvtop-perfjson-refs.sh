#!/bin/sh
# perf metric files whose metrics name metrics, in the configuration's
# metrics.d as a user keeps them: a file that doubles at every level and
# a long chain load at once in little memory, each metric past a bound
# skipped with its file, line and column; a signal ends a load that
# waits (a FIFO that is never written).
. "$(dirname "$0")/tap.sh"
plan 9
SIM="--sim clock=virtual"
MD=$HOME/.config/hvtop/metrics.d
mkdir -p "$MD"

# 1 GB of address space and 60 s: far more than the load needs.  An
# AddressSanitizer build reserves terabytes at start: no limit there.
vlimit="ulimit -v 1048576"
ldd "$HVTOP" 2>/dev/null | grep -q libasan && vlimit=:

# gen FILE N EXPR: P0 an hv_24x7 event, Pi = EXPR with P(i-1) for %s.
gen() {
	awk -v n="$2" -v e="$3" 'BEGIN {
		print "["
		print " {\"MetricName\": \"P0\", \"MetricExpr\": " \
		    "\"hv_24x7@PM_PB_CYC\\\\,chip\\\\=?@\"},"
		for (i = 1; i < n; i++) {
			x = e
			gsub(/%s/, "P" (i - 1), x)
			printf " {\"MetricName\": \"P%d\", \"MetricExpr\": " \
			    "\"%s\"}%s\n", i, x, i < n - 1 ? "," : ""
		}
		print "]"
	}' >"$1"
}

run() {
	(eval "$vlimit" 2>/dev/null; timeout 60 "$HVTOP" -b -n 1 $SIM \
	    -g PowerBus --format csv -o "$tmpdir/out.csv") \
	    2>"$tmpdir/err"
}

gen "$MD/double.json" 40 '%s + %s'
run; rc=$?
check "40 metrics that double load (exit $rc)" test "$rc" = 0
# P8 is P0 doubled 8 times, in the same row.
p8() {
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	    { if ($c["P8 [/s]"] != 256 * $c["P0 [/s]"] || $c["P0 [/s]"] == 0)
		exit 1; n++ } END { exit n == 0 }' "$tmpdir/out.csv"
}
check "the first 9 are computed: P8 is 256 P0" p8
check "P9 is too deep, said with file, line and column" grep -q \
    "double.json: line 11, column 2: metric P9: MetricExpr column 1: metrics name metrics more than 8 deep at P8 (skipped)" \
    "$tmpdir/err"
rm -f "$MD/double.json"

# Ten metrics each naming the one before ten times: the text would grow
# tenfold at each level.
gen "$MD/wide.json" 10 '%s+%s+%s+%s+%s+%s+%s+%s+%s+%s'
run; rc=$?
check "metrics that grow tenfold load (exit $rc)" test "$rc" = 0
check "one past the size bound is skipped with where and why" grep -q \
    "wide.json: line [0-9]*, column 2: metric P[0-9]: MetricExpr column [0-9]*: with the metrics it names put in, it is longer than 65536 bytes (at P[0-9])" \
    "$tmpdir/err"
rm -f "$MD/wide.json"

gen "$MD/chain.json" 32000 '%s + 1'
run; rc=$?
check "a chain of 32000 metrics loads (exit $rc)" test "$rc" = 0
check "its metric 10 deep is skipped" \
    grep -q "chain.json: line 11, column 2: metric P9: .* more than 8 deep" \
    "$tmpdir/err"
rm -f "$MD/chain.json"

# A metric file that blocks: SIGTERM must end hvtop while it loads.
mkfifo "$MD/wait.json"
exec 3<>"$MD/wait.json"
"$HVTOP" -b -n 1 $SIM -o /dev/null 2>"$tmpdir/err" 3>&- &
pid=$!
# Wait (at most 20 s) until hvtop, not the shell before it, has the FIFO
# open.
opened() {
	tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q -- '-b -n 1' &&
	    ls -l "/proc/$pid/fd" 2>/dev/null | grep -q 'wait.json'
}
until_ok 20 opened
kill -TERM "$pid" 2>/dev/null
if ! until_ok 10 gone "$pid"; then
	fail "SIGTERM ends a load that waits"
	kill -KILL "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	fail "it dies of the signal"
else
	pass "SIGTERM ends a load that waits"
	wait "$pid"; rc=$?
	check "it dies of the signal (status $rc)" test "$rc" = 143
fi
exec 3>&-
