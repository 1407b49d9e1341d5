#!/bin/sh
# Whole-program figures of batch mode on the simulated frame:
#   batch.n1000.virtual   wall time of hvtop -b -n 1000 --sim clock=virtual
#                         with the default (overview) selection; target 1 s
#   batch.per_interval    the same, per interval
# HVTOP_BUILD is the build directory (scripts/bench sets it).
b=${HVTOP_BUILD:-build}
start=$(date +%s%N)
"$b/hvtop" -b -n 1000 --sim clock=virtual -o /dev/null --format csv || exit 1
end=$(date +%s%N)
ns=$((end - start))
echo "batch.n1000.virtual $(awk -v n="$ns" 'BEGIN { printf "%.4f", n / 1e9 }') s"
echo "batch.per_interval $(awk -v n="$ns" 'BEGIN { printf "%.2f", n / 1e3 / 1000 }') us"
