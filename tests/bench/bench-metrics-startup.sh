#!/bin/sh
# Start-up with very many user metrics: a -m file of N metrics over the
# POWER8 catalog's core events, loaded, compiled, given CSV columns and
# exported once.
#   startup.metrics.N     wall time of hvtop -b -n 1 with N metrics;
#                         target under 1 s for 200000
#   startup.metrics.ratio the time for 200000 over the time for 20000:
#                         10 when start-up is linear
# HVTOP_BUILD is the build directory (scripts/bench sets it).
b=${HVTOP_BUILD:-build}
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for n in 20000 200000; do
	awk -v n="$n" 'BEGIN {
		print "CPU,hv_24x7"
		for (i = 0; i < n; i++)
			printf "EVENT,M%d,DERIVED_POSTFIX,N0|N1|/|," \
			    "HPM_NON_IDLE_INST,HPM_NON_IDLE_PCYC\n", i
	}' >"$tmp/m$n.csv"
	start=$(date +%s%N)
	"$b/hvtop" -b -n 1 --sim clock=virtual,interface=1 \
	    --catalog "$top/tests/data/catalog/p8-catalog-v3.bin" \
	    -g HPM_0THRD_NON_IDLE_CCYC:0-1 -m "$tmp/m$n.csv" \
	    --format csv -o /dev/null || exit 1
	end=$(date +%s%N)
	eval "t$n=$((end - start))"
	echo "startup.metrics.$n $(awk -v ns=$((end - start)) \
	    'BEGIN { printf "%.4f", ns / 1e9 }') s"
done
echo "startup.metrics.ratio $(awk -v a="$t20000" -v b="$t200000" \
    'BEGIN { printf "%.2f", b / a }') x"
