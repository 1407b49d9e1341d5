#!/bin/sh
# Bytes a day a ring recording takes at 1 s on the simulated frame (a
# virtual clock, seed 1), from an hour recorded into a ring of 1G (one
# segment an hour, each with its own preamble), beside PowerVP's
# published figure for a 24-core POWER8 agent at 1 s:
#   ring.day.overview        the overview, as the exporter records it
#                            with ARGS="" (208 counters)
#   ring.day.lpars           the overview's groups plus every partition
#                            (-g CPM_32MHZ_CYC@lpar, 976 counters)
#   ring.day.powervp         455626157 bytes, PowerVP's figure
#   ring.vs_powervp.overview, ring.vs_powervp.lpars   the ratios
# A smoke run (HVTOP_BENCH_SMOKE set) records 60 samples.
# HVTOP_BUILD is the build directory (scripts/bench sets it).
b=${HVTOP_BUILD:-build}
n=3600
[ -z "${HVTOP_BENCH_SMOKE:-}" ] || n=60
t=$(mktemp -d "${TMPDIR:-/tmp}/hvtop-bench.XXXXXX")
trap 'rm -rf "$t"' EXIT
powervp=455626157

# day NAME ARGS...: record n samples at 1 s, scale to 86400.
day() {
	name=$1
	shift
	"$b/hvtop" -b -d 1 -n "$n" --sim clock=virtual,seed=1 "$@" \
	    -w "$t/$name" --ring-size 1G -o /dev/null || exit 1
	bytes=$(find "$t/$name" -type f -exec cat {} + | wc -c)
	perday=$(awk -v b="$bytes" -v n="$n" 'BEGIN { printf "%.0f", b * 86400 / n }')
	echo "ring.day.$name $perday bytes"
	awk -v a="$perday" -v p="$powervp" -v n="$name" \
	    'BEGIN { printf "ring.vs_powervp.%s %.4f ratio\n", n, a / p }'
}
day overview
day lpars -g Memory_BW -g PowerBus -g CPM_32MHZ_CYC \
    -g CPM_0THRD_NON_IDLE_CCYC -g CPM_32MHZ_CYC@lpar
echo "ring.day.powervp $powervp bytes"
