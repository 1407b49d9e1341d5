#!/bin/sh
# Start-up with very many user metrics: a -m file of N metrics over the
# POWER8 catalog's core events, loaded, checked, compiled, given CSV
# columns and exported once (hvtop -b -n 1), against the same start-up
# without a metric file, measured in the same run.
#   startup.metrics.N.cpu     user + system CPU time of the process;
#                             target under 1 s for N = 200000
#   startup.metrics.N.wall    wall time
#   startup.metrics.N.rss     peak resident memory
#   startup.metrics.N.ratio   N's CPU time over the start-up's without
#                             metrics (N = 0)
#   startup.metrics.linear    the CPU time for 200000 over the time for
#                             20000: 10 when start-up is linear
# HVTOP_BUILD is the build directory (scripts/bench sets it);
# HVTOP_BENCH_METRICS lists the sizes (default "20000 200000", and "200"
# in a smoke run, HVTOP_BENCH_SMOKE set).  Each
# figure comes from one process: scripts/bench takes the median over its
# runs.
b=${HVTOP_BUILD:-build}
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
command -v python3 >/dev/null 2>&1 || {
	echo "bench-metrics-startup: python3 measures the processes" >&2
	exit 1
}

# measure FILE CMD...: run CMD and write "cpu wall rss_kib" to FILE.
measure() {
	python3 "$top/tests/bench/rusage.py" "$@"
}

sizes=${HVTOP_BENCH_METRICS:-20000 200000}
[ -z "${HVTOP_BENCH_SMOKE:-}" ] || sizes=${HVTOP_BENCH_METRICS:-200}
for n in 0 $sizes; do
	args=""
	if [ "$n" -gt 0 ]; then
		awk -v n="$n" 'BEGIN {
			print "CPU,hv_24x7"
			for (i = 0; i < n; i++)
				printf "EVENT,M%d,DERIVED_POSTFIX,N0|N1|/|," \
				    "HPM_NON_IDLE_INST,HPM_NON_IDLE_PCYC\n", i
		}' >"$tmp/m$n.csv"
		args="-m $tmp/m$n.csv"
	fi
	# shellcheck disable=SC2086
	measure "$tmp/r$n" "$b/hvtop" -b -n 1 \
	    --sim clock=virtual,interface=1 \
	    --catalog "$top/tests/data/catalog/p8-catalog-v3.bin" \
	    -g HPM_0THRD_NON_IDLE_CCYC:0-1 $args --format csv \
	    -o /dev/null || exit 1
	read -r cpu wall rss <"$tmp/r$n"
	eval "cpu$n=$cpu"
	echo "startup.metrics.$n.cpu $cpu s"
	echo "startup.metrics.$n.wall $wall s"
	echo "startup.metrics.$n.rss $(awk -v k="$rss" \
	    'BEGIN { printf "%.1f", k / 1024 }') MiB"
done
for n in $sizes; do
	eval "c=\$cpu$n"
	echo "startup.metrics.$n.ratio $(awk -v a="$cpu0" -v b="$c" \
	    'BEGIN { printf "%.1f", b / (a > 0 ? a : 0.001) }') x"
done
case " $sizes " in
*" 20000 "*" 200000 "*)
	echo "startup.metrics.linear $(awk -v a="$cpu20000" \
	    -v b="$cpu200000" 'BEGIN { printf "%.2f", b / a }') x" ;;
esac
