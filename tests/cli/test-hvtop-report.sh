#!/bin/sh
# hvtop report: a page from a recording holds the replay's own numbers
# (checked against -r FILE --format csv by report-check.py: Python's HTML
# parser and pandas, nothing of hvtop's), and a browser draws it: Debian's
# chromium, headless, loads the page and report-check.py reads the DOM it
# made (one drawn chart per event and metric, no script error).
. "$(dirname "$0")/tap.sh"
SIM="--sim clock=virtual,seed=1,faults=busy:0.2"
DYG=${HVTOP_DYGRAPHS_DIR:-/usr/share/javascript/dygraphs}
plan 14

py=""
for p in /usr/bin/python3 python3; do
	command -v "$p" >/dev/null 2>&1 && { py=$p; break; }
done
nolib=""
[ -r "$DYG/dygraph.min.js" ] ||
    nolib="libjs-dygraphs is not installed (scripts/setup.sh installs it)"

# A run with gaps: the simulated hypervisor is busy one read in five.
"$HVTOP" -b -n 30 $SIM -w "$tmpdir/r.hvr" -o /dev/null 2>/dev/null
"$HVTOP" -b -r "$tmpdir/r.hvr" --format csv -o "$tmpdir/replay.csv" \
    2>/dev/null

# Not what a report takes: usage errors (2), nothing written.
"$HVTOP" report "$tmpdir/r.hvr" 2>"$tmpdir/err"
check "without -o: a usage error that asks for it" \
    sh -c "test $? = 2 && grep -q -- '-o PAGE.html' '$tmpdir/err'"
"$HVTOP" report "$tmpdir/r.hvr" -w "$tmpdir/x.hvr" -o "$tmpdir/x.html" \
    2>/dev/null
check "-w in a report: a usage error, no page" \
    sh -c "test $? = 2 && test ! -e '$tmpdir/x.html'"
"$HVTOP" report "$tmpdir/r.hvr" "$tmpdir/r.hvr" -o "$tmpdir/x.html" \
    2>/dev/null
check "two recordings: a usage error" test $? = 2

# A file that is not a recording: an error, no page.
printf 'not a recording\n' >"$tmpdir/bad.hvr"
"$HVTOP" report "$tmpdir/bad.hvr" -o "$tmpdir/x.html" 2>/dev/null
check "not a recording: exit 1, no page" \
    sh -c "test $? = 1 && test ! -e '$tmpdir/x.html'"

# Without the library: an error that names the package to install.
HVTOP_DYGRAPHS_DIR=$tmpdir/nowhere "$HVTOP" report "$tmpdir/r.hvr" \
    -o "$tmpdir/x.html" 2>"$tmpdir/err"
check "no dygraphs: exit 1, no page, the package named" \
    sh -c "test $? = 1 && test ! -e '$tmpdir/x.html' &&
    grep -q 'install the Debian package libjs-dygraphs' '$tmpdir/err'"

if [ -n "$nolib" ]; then
	for t in "the page is written" "the page is well-formed and holds the CSV's numbers" \
	    "-o - writes the same page to stdout" "-n 5: five intervals" \
	    "the page names its recording, frame and catalog" \
	    "-r and --source have no place in a report" \
	    "chromium loads the page" "every chart is drawn, no script error" \
	    "a page across a catalog reload"; do
		skip "$t" "$nolib"
	done
	exit 0
fi

"$HVTOP" report "$tmpdir/r.hvr" -o "$tmpdir/r.html"
check "the page is written" sh -c "test $? = 0 && test -s '$tmpdir/r.html'"

if [ -n "$py" ]; then
	out=$("$py" "$top_srcdir/tests/cli/report-check.py" page \
	    "$tmpdir/r.html" "$tmpdir/replay.csv" 2>&1)
	st=$?
	diag "$out"
	check "the page is well-formed and holds the CSV's numbers" test $st = 0
else
	skip "the page is well-formed and holds the CSV's numbers" \
	    "no python3"
fi

"$HVTOP" report "$tmpdir/r.hvr" -o - >"$tmpdir/stdout.html"
check "-o - writes the same page to stdout" \
    cmp -s "$tmpdir/r.html" "$tmpdir/stdout.html"

"$HVTOP" report -n 5 "$tmpdir/r.hvr" -o "$tmpdir/n5.html"
check "-n 5: five intervals" \
    grep -q '<tr><th>intervals</th><td>5</td></tr>' "$tmpdir/n5.html"

check "the page names its recording, frame and catalog" sh -c "
    grep -q '<td>$tmpdir/r.hvr</td>' '$tmpdir/r.html' &&
    grep -q '<th>frame</th><td>2 sockets, 4 chips, 24 cores' '$tmpdir/r.html' &&
    grep -q '<th>catalog</th><td>catalog v1' '$tmpdir/r.html'"

"$HVTOP" report -r "$tmpdir/r.hvr" "$tmpdir/r.hvr" -o "$tmpdir/x.html" \
    2>/dev/null
check "-r and --source have no place in a report" test $? = 2

# A browser: Debian's chromium, headless, with a profile of its own.  It
# loads the page, runs its scripts and prints the DOM they made.
chrome=""
for c in chromium chromium-browser; do
	command -v "$c" >/dev/null 2>&1 && { chrome=$c; break; }
done
if [ -z "$chrome" ] || [ -z "$py" ]; then
	why="chromium is not installed (apt-get install chromium)"
	[ -z "$py" ] && why="no python3"
	skip "chromium loads the page" "$why"
	skip "every chart is drawn, no script error" "$why"
else
	# A deadline, not a measure: a busy machine may take a while.
	timeout 600 "$chrome" --headless --disable-gpu --no-sandbox \
	    --user-data-dir="$tmpdir/chromium" --dump-dom \
	    "file://$tmpdir/r.html" >"$tmpdir/dom.html" 2>"$tmpdir/chromium.log"
	st=$?
	[ $st = 0 ] || diag "$(tail -n 5 "$tmpdir/chromium.log")"
	check "chromium loads the page" \
	    sh -c "test $st = 0 && test -s '$tmpdir/dom.html'"
	out=$("$py" "$top_srcdir/tests/cli/report-check.py" dom \
	    "$tmpdir/dom.html" "$tmpdir/r.html" 2>&1)
	st=$?
	diag "$out"
	check "every chart is drawn, no script error" test $st = 0
fi

# A catalog reload in the middle: a new engine, the charts go on, and
# the page still holds the replay's numbers.
"$HVTOP" -b -n 20 --sim clock=virtual,seed=7,faults=version-change@10 \
    -w "$tmpdir/v.hvr" -o /dev/null 2>/dev/null
"$HVTOP" report "$tmpdir/v.hvr" -o "$tmpdir/v.html"
st=$?
"$HVTOP" -b -r "$tmpdir/v.hvr" --format csv -o "$tmpdir/v.csv" 2>/dev/null
if [ -n "$py" ]; then
	check "a page across a catalog reload" sh -c "test $st = 0 &&
	    '$py' '$top_srcdir/tests/cli/report-check.py' page \
	    '$tmpdir/v.html' '$tmpdir/v.csv' >/dev/null"
else
	skip "a page across a catalog reload" "no python3"
fi
