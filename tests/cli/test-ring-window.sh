#!/bin/sh
# Windows of a ring (-r DIR --from T --to T, hvtop report DIR): a replay
# runs across segments, across a catalog change within a run and across
# restarts of the recorder, whose gaps are shown as gaps (an interval
# with no values and an error naming the gap), never as a rate averaged
# over them; the report page lists the gaps in the same words.
. "$(dirname "$0")/tap.sh"
plan 16
r=$tmpdir/ring

# A virtual hour's tenth with a catalog change at sample 300, then two
# short runs on the real clock, the second after a pause: two restarts.
"$HVTOP" -b --sim clock=virtual,seed=1,faults=version-change@300 -d 1 \
    -n 600 -w "$r" --ring-size 2M -o /dev/null
"$HVTOP" -b --sim seed=1 -d 0.05 -n 10 -w "$r" --ring-size 2M -o /dev/null
sleep 1.5
"$HVTOP" -b --sim seed=1 -d 0.05 -n 10 -w "$r" --ring-size 2M -o /dev/null
"$HVCAT" info "$r" >"$tmpdir/info"
check "hvcat info DIR lists the three runs' segments" \
    test "$(grep -c '^  hvtop-' "$tmpdir/info")" = 3
check "... and the two restarts' gaps" \
    test "$(grep -c '^  gap: ' "$tmpdir/info")" = 2

"$HVTOP" -b -r "$r" --format csv -o "$tmpdir/all.csv" 2>"$tmpdir/all.err"
check "the whole ring replays" test $? = 0
diag "$(cat "$tmpdir/all.err")"
check "the catalog changes replay as changes" \
    test "$(grep -c 'catalog version changed' "$tmpdir/all.err")" = 2
check "a restart's gap is said" grep -q ',gap: nothing was recorded from ' \
    "$tmpdir/all.csv"
# No interval spans a gap: none is longer than the 1 s asked for.
long=$(awk -F, 'NR > 1 && $3 + 0 > 1.001 { n++ } END { print n + 0 }' \
    "$tmpdir/all.csv")
check "no rate is averaged over a gap ($long intervals longer than 1 s)" \
    test "$long" = 0
gapped=$(awk -F, 'NR > 1 && $3 == "0" && $4 == "chip" && $5 == "0" &&
    $6 == "" { n++ } END { print n + 0 }' "$tmpdir/all.csv")
check "the intervals at a gap show no values ($gapped)" test "$gapped" -ge 2

# ten samples, nine intervals
"$HVTOP" -b -r "$r" --from 2026-01-01T00:05:00Z --to 2026-01-01T00:05:09 \
    --format csv -o "$tmpdir/w.csv"
n=$(awk -F, 'NR > 1 { print $1 }' "$tmpdir/w.csv" | sort -u | wc -l)
first=$(awk -F, 'NR == 2 { print $1 }' "$tmpdir/w.csv")
check "--from --to replays the window: $n intervals from $first" \
    test "$n" = 9 -a "$first" = 2026-01-01T00:05:01.000Z
"$HVTOP" -b -r "$r" --from -1h --format csv -o "$tmpdir/rel.csv" 2>/dev/null
n=$(awk -F, 'NR > 1 { print $1 }' "$tmpdir/rel.csv" | sort -u | wc -l)
check "--from -1h counts back from the last sample: $n intervals" \
    test "$n" -ge 15 -a "$n" -le 25
# A chart's line breaks where an interval has no value.
"$HVTOP" report "$r" --from 2026-01-01T00:04:00Z -o "$tmpdir/page.html" \
    2>"$tmpdir/report.err"
st=$?
"$HVTOP" report "$r" --from 2026-01-01T00:04:00Z --to 2026-01-01T00:10:01Z \
    -o "$tmpdir/before.html" 2>/dev/null
check "hvtop report DIR --from renders a window across the restarts" \
    sh -c "test $st = 0 && test -s '$tmpdir/page.html' &&
    ! cmp -s '$tmpdir/page.html' '$tmpdir/before.html'"

# The page names each gap as the text replay does, with its length.
"$HVTOP" -b -r "$r" --from 2026-01-01T00:04:00Z --format csv \
    -o "$tmpdir/page.csv" 2>/dev/null
grep -o 'gap: nothing was recorded from [^;,]*' "$tmpdir/page.csv" |
    sort -u >"$tmpdir/gaps.csv"
sed -n 's|^<li data-interval="[0-9]*">\(gap: [^(]*\) (.*|\1|p' \
    "$tmpdir/page.html" | sort -u >"$tmpdir/gaps.page"
diag "$(cat "$tmpdir/gaps.page")"
check "the page lists the window's two gaps" \
    test "$(grep -c '^<li data-interval="[0-9]*">gap: ' \
    "$tmpdir/page.html")" = 2
check "... in the words of the text replay" \
    sh -c "test -s '$tmpdir/gaps.csv' &&
    cmp -s '$tmpdir/gaps.csv' '$tmpdir/gaps.page'"
check "... the restart after a pause of 1.5 s with its length" \
    grep -q '^<li data-interval="[0-9]*">gap: .* ([12]\.[0-9] s), at interval' \
    "$tmpdir/page.html"
# Headless chromium: the page draws, and its DOM shows the gaps.
chrome=""
for c in chromium chromium-browser; do
	command -v "$c" >/dev/null 2>&1 && { chrome=$c; break; }
done
if [ -z "$chrome" ] || ! command -v python3 >/dev/null 2>&1; then
	skip "chromium shows the gaps, every chart drawn" \
	    "chromium or python3 is not installed"
else
	# A deadline, not a measure: a busy machine may take a while.
	timeout 600 "$chrome" --headless --disable-gpu --no-sandbox \
	    --user-data-dir="$tmpdir/chromium" --dump-dom \
	    "file://$tmpdir/page.html" >"$tmpdir/dom.html" \
	    2>"$tmpdir/chromium.log"
	out=$(python3 "$top_srcdir/tests/cli/report-check.py" dom \
	    "$tmpdir/dom.html" "$tmpdir/page.html" 2>&1)
	st=$?
	diag "$out"
	n=$(sed -n '/<div id="gaps"/,/<\/div>/p' "$tmpdir/dom.html" |
	    grep -c '<li data-interval="[0-9]*">gap: nothing was recorded')
	check "chromium shows the gaps ($n), every chart drawn" \
	    test "$st" = 0 -a "$n" = 2
fi
"$HVTOP" -b -r "$r" --from yesterday -o /dev/null 2>"$tmpdir/bad.err"
check "--from yesterday is refused, saying why" grep -q 'not a time' \
    "$tmpdir/bad.err"
seg=$(ls "$r" | head -1)
"$HVTOP" -b -r "$r/$seg" --from -1h -o /dev/null 2>"$tmpdir/file.err"
check "--from on one recording is refused, saying why" \
    grep -q "take a ring's directory" "$tmpdir/file.err"
