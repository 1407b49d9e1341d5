#!/bin/sh
# Whole-program figures of batch mode on the simulated frame:
#   batch.n1000.virtual   wall time of hvtop -b -n 1000 --sim clock=virtual
#                         with the default (overview) selection; target 1 s
#   batch.per_interval    the same, per interval
# HVTOP_BUILD is the build directory (scripts/bench sets it); a smoke run
# (HVTOP_BENCH_SMOKE set) takes 10 intervals.
b=${HVTOP_BUILD:-build}
n=1000
[ -z "${HVTOP_BENCH_SMOKE:-}" ] || n=10
start=$(date +%s%N)
"$b/hvtop" -b -n "$n" --sim clock=virtual -o /dev/null --format csv || exit 1
end=$(date +%s%N)
ns=$((end - start))
echo "batch.n$n.virtual $(awk -v n="$ns" 'BEGIN { printf "%.4f", n / 1e9 }') s"
echo "batch.per_interval $(awk -v n="$ns" -v k="$n" \
    'BEGIN { printf "%.2f", n / 1e3 / k }') us"
