#!/bin/sh
# Partitions in the outputs that outlive a run: a recording of an @lpar
# pick replays byte for byte (its partitions are in the file), the
# metrics endpoint has a series per partition, virtual processor and
# placement and nothing summed (promtool accepts it), and hvtop report
# draws a chart per partition metric in a browser.  What the machine
# lacks is a visible SKIP.
. "$(dirname "$0")/tap.sh"
SIM="--sim clock=virtual,seed=3"
PICK="-g CPM_32MHZ_CYC@lpar"
DYG=${HVTOP_DYGRAPHS_DIR:-/usr/share/javascript/dygraphs}
plan 12

# A recording, replayed: the same CSV, with and without the pick given.
"$HVTOP" -b -n 6 $SIM $PICK -w "$tmpdir/r.hvr" -o "$tmpdir/live.csv"
check "an @lpar run records" test $? = 0
"$HVTOP" -b -r "$tmpdir/r.hvr" -o "$tmpdir/replay.csv"
check "its replay prints what the live run printed" \
    cmp "$tmpdir/live.csv" "$tmpdir/replay.csv"
"$HVTOP" -b -r "$tmpdir/r.hvr" $PICK -o "$tmpdir/replay2.csv"
check "the same pick given again replays the same" \
    cmp "$tmpdir/live.csv" "$tmpdir/replay2.csv"
"$HVTOP" -b -r "$tmpdir/r.hvr" -g CPM_32MHZ_CYC@lpar:1 -o /dev/null \
    2>"$tmpdir/err"
check "another partition list is refused, the recorded pick named" \
    sh -c "test $? != 0 && grep -q 'CPM_32MHZ_CYC@lpar' '$tmpdir/err'"

# The metrics endpoint.
if ! have curl; then
	for t in "hvtop --serve starts with an @lpar pick" \
	    "a series per partition and placement, vcpus summed" \
	    "every partition series names its placement, no vcpu" \
	    "no computed series of a partition" \
	    "promtool accepts the scrape"; do
		skip "$t" "curl is not installed (apt-get install curl)"
	done
else
	serve_start h -b --sim clock=real -d 0.5 $PICK --serve 127.0.0.1:0
	check "hvtop --serve starts with an @lpar pick" test -n "$url"
	scrape_after 1 "$tmpdir/s"
	check "a series per partition and placement, vcpus summed" grep -q \
	    '^hvtop_events_total{frame="9080-M9S\*SIMFRAME1",event="CPM_CCYC",domain="vcpu_remote_node",lpar="3",placement="remote_node",' \
	    "$tmpdir/s"
	# Every series of a VCPU domain read for a partition (not this
	# partition's @vcpu picks, which have no placement).
	check_not "every partition series names its placement, no vcpu" \
	    sh -c "grep '^hvtop_events_total{.*domain=\"vcpu_home_core' \
	    '$tmpdir/s' | grep -v 'lpar=\"[0-9]*\",placement=\"home_core\"' |
	    grep -q ."
	check_not "no computed series of a partition" \
	    grep -q '^hvtop_metric_.*lpar=' "$tmpdir/s"
	if have promtool; then
		check "promtool accepts the scrape" sh -c \
		    "promtool check metrics <'$tmpdir/s' >'$tmpdir/lint' 2>&1"
		diag "$(head -5 "$tmpdir/lint")"
	else
		skip "promtool accepts the scrape" \
		    "promtool is not installed (apt-get install prometheus)"
	fi
fi

# The report.
if [ ! -r "$DYG/dygraph.min.js" ]; then
	for t in "the report is written" "it has the partition charts" \
	    "every chart is drawn in chromium, no script error"; do
		skip "$t" "libjs-dygraphs is not installed"
	done
	exit 0
fi
"$HVTOP" report "$tmpdir/r.hvr" -o "$tmpdir/r.html"
check "the report is written" sh -c "test $? = 0 && test -s '$tmpdir/r.html'"
check "it has the partition charts" sh -c "
    grep -q 'data-name=\"cycles of the partition\"' '$tmpdir/r.html' &&
    grep -q 'data-name=\"instructions per cycle\"' '$tmpdir/r.html' &&
    grep -q 'data-name=\"cycles off the home chip\"' '$tmpdir/r.html' &&
    grep -q 'data-name=\"cycles on a remote node\"' '$tmpdir/r.html' &&
    grep -q '<td>lpar 2</td>' '$tmpdir/r.html'"
chrome=""
for c in chromium chromium-browser; do
	command -v "$c" >/dev/null 2>&1 && { chrome=$c; break; }
done
py=""
for p in /usr/bin/python3 python3; do
	command -v "$p" >/dev/null 2>&1 && { py=$p; break; }
done
if [ -z "$chrome" ] || [ -z "$py" ]; then
	skip "every chart is drawn in chromium, no script error" \
	    "chromium or python3 is not installed"
else
	timeout 600 "$chrome" --headless --disable-gpu --no-sandbox \
	    --user-data-dir="$tmpdir/chromium" --dump-dom \
	    "file://$tmpdir/r.html" >"$tmpdir/dom.html" 2>"$tmpdir/chromium.log"
	out=$("$py" "$top_srcdir/tests/cli/report-check.py" dom \
	    "$tmpdir/dom.html" "$tmpdir/r.html" 2>&1)
	st=$?
	diag "$out"
	check "every chart is drawn in chromium, no script error" test $st = 0
fi
