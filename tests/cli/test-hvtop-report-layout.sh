#!/bin/sh
# How a page of hvtop report reads (report-layout.py, Python's HTML
# parser and csv module, nothing of hvtop's): the metrics lead and the
# raw counts follow, in the charts and in the summary; the summary's
# numbers are in the text screen's form ("1.77" in G/s) and are the CSV's;
# in Debian's chromium, headless, at 1280 and 1920 pixels, the charts fill
# the window's width and a legend of 24 cores stays a few names long, also
# with the mouse on a line, which it names first.  The page asks for
# nothing from the network.
. "$(dirname "$0")/tap.sh"
SIM="--sim clock=virtual,seed=1,faults=busy:0.05"
DYG=${HVTOP_DYGRAPHS_DIR:-/usr/share/javascript/dygraphs}
plan 7

names="metrics first, the summary in the screens' form
the page opens with Memory_BW_Chip
the page loads nothing from the network
chromium at 1280 pixels: the charts fill the width
chromium at 1280 pixels: short legends, the pointed line first
chromium at 1920 pixels: the charts fill the width
chromium at 1920 pixels: short legends, the pointed line first"
skipall() {
	printf '%s\n' "$names" | while IFS= read -r t; do skip "$t" "$1"; done
	exit 0
}
[ -r "$DYG/dygraph.min.js" ] ||
    skipall "libjs-dygraphs is not installed (scripts/setup.sh installs it)"
command -v python3 >/dev/null 2>&1 || skipall "no python3"

# The default picks: Memory_BW and PowerBus by chip, a group of 24 cores.
"$HVTOP" -b -n 60 $SIM -w "$tmpdir/r.hvr" -o /dev/null 2>/dev/null
"$HVTOP" -b -r "$tmpdir/r.hvr" --format csv -o "$tmpdir/r.csv" 2>/dev/null
"$HVTOP" report "$tmpdir/r.hvr" -o "$tmpdir/r.html" 2>/dev/null

out=$(python3 "$top_srcdir/tests/cli/report-layout.py" page \
    "$tmpdir/r.html" "$tmpdir/r.csv" 2>&1)
st=$?
diag "$out"
check "metrics first, the summary in the screens' form" test $st = 0
# Of Memory_BW's metrics, the one that reads all its counters (read and
# write bandwidth) leads.
first=$(grep -o 'class="chart"[^>]*data-name="[^"]*"' "$tmpdir/r.html" |
    head -n 1)
diag "first chart: $first"
check "the page opens with Memory_BW_Chip" \
    sh -c "echo '$first' | grep -q 'data-kind=\"metric\" data-name=\"Memory_BW_Chip\"'"

check_not "the page loads nothing from the network" \
    grep -Eiq '(src|href)=["'"'"']?(https?:)?//|url\((["'"'"'])?(https?:)?//|@import' \
    "$tmpdir/r.html"

chrome=""
for c in chromium chromium-browser; do
	command -v "$c" >/dev/null 2>&1 && { chrome=$c; break; }
done
if [ -z "$chrome" ]; then
	for w in 1280 1920; do
		skip "chromium at $w pixels: the charts fill the width" \
		    "chromium is not installed (apt-get install chromium)"
		skip "chromium at $w pixels: short legends, the pointed line first" \
		    "chromium is not installed (apt-get install chromium)"
	done
	exit 0
fi

# The page with report-layout.js after its own scripts.
sed -e '/^<\/body>$/d' -e '/^<\/html>$/d' "$tmpdir/r.html" \
    >"$tmpdir/layout.html"
{
	echo '<script>'
	cat "$top_srcdir/tests/cli/report-layout.js"
	printf '</script>\n</body>\n</html>\n'
} >>"$tmpdir/layout.html"

for w in 1280 1920; do
	# A deadline, not a measure: a busy machine may take a while.
	timeout 600 "$chrome" --headless --disable-gpu --no-sandbox \
	    --user-data-dir="$tmpdir/chromium" --window-size=$w,1000 \
	    --dump-dom "file://$tmpdir/layout.html" >"$tmpdir/dom-$w.html" \
	    2>"$tmpdir/chromium.log" ||
	    diag "$(tail -n 5 "$tmpdir/chromium.log")"
	out=$(python3 "$top_srcdir/tests/cli/report-layout.py" dom \
	    "$tmpdir/dom-$w.html" 2>&1)
	diag "$out"
	check "chromium at $w pixels: the charts fill the width" \
	    sh -c "printf '%s\n' \"\$1\" | grep -q '^dom: ' ||
	    ! printf '%s\n' \"\$1\" | grep -q -e 'empty on the right' \
	    -e 'drawn .* wide' -e '^no layout'" sh "$out"
	check "chromium at $w pixels: short legends, the pointed line first" \
	    sh -c "printf '%s\n' \"\$1\" | grep -q '^dom: '" sh "$out"
done
