#!/bin/sh
# hvtop report on an hour at 1 s of 100 counters (the simulated frame on
# a virtual clock; Memory_BW and PowerBus on 2 chips, 3 events on 24
# cores, 1 event on 8 more):
#   report.render.1h100      wall time of hvtop report, recording to page;
#                            target 2 s
#   report.page.1h100        the page's size
#   report.load.1h100        headless chromium: from the start of the
#                            navigation to every chart drawn, as the page
#                            measures it (performance.now()); target 2 s
#   report.chromium.1h100    headless chromium's whole run (start-up,
#                            load, the DOM printed), for scale
#   report.chromium.empty    the same for an empty page: the browser's
#                            own share of the figure above
# The chromium figures are left out when chromium is not installed, and
# in a smoke run (HVTOP_BENCH_SMOKE set), which records 60 samples.
# HVTOP_BUILD is the build directory (scripts/bench sets it).
b=${HVTOP_BUILD:-build}
n=3600
[ -z "${HVTOP_BENCH_SMOKE:-}" ] || n=60
t=$(mktemp -d "${TMPDIR:-/tmp}/hvtop-bench.XXXXXX")
trap 'rm -rf "$t"' EXIT
ms() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", (b - a) / 1e6 }'; }

"$b/hvtop" -b -n "$n" --sim clock=virtual,seed=1 -g Memory_BW -g PowerBus \
    -g CPM_0THRD_NON_IDLE_CCYC -e CPM_CCYC@core:0-7 -w "$t/h.hvr" \
    -o /dev/null || exit 1
start=$(date +%s%N)
"$b/hvtop" report "$t/h.hvr" -o "$t/h.html" || exit 1
end=$(date +%s%N)
echo "report.render.1h100 $(awk -v n=$((end - start)) 'BEGIN { printf "%.4f", n / 1e9 }') s"
echo "report.page.1h100 $(wc -c <"$t/h.html" | awk '{ printf "%.2f", $1 / 1e6 }') MB"

[ -z "${HVTOP_BENCH_SMOKE:-}" ] || exit 0
command -v chromium >/dev/null 2>&1 || exit 0
chrome() {
	chromium --headless --disable-gpu --no-sandbox \
	    --user-data-dir="$t/profile" --dump-dom "file://$1" 2>/dev/null
}
start=$(date +%s%N)
chrome "$t/h.html" >"$t/dom.html" || exit 1
end=$(date +%s%N)
drawn=$(sed -n 's/.*data-drawn-ms="\([0-9]*\)".*/\1/p' "$t/dom.html" | head -n 1)
[ -n "$drawn" ] || exit 1
echo "report.load.1h100 $drawn ms"
echo "report.chromium.1h100 $(ms "$start" "$end") ms"
printf '<!DOCTYPE html><title>empty</title>\n' >"$t/empty.html"
start=$(date +%s%N)
chrome "$t/empty.html" >/dev/null || exit 1
end=$(date +%s%N)
echo "report.chromium.empty $(ms "$start" "$end") ms"
