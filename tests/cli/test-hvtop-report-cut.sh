#!/bin/sh
# hvtop report on a recording that was not read to its end (a file cut
# short, a file damaged before its end): the page says at its top, before
# anything else, that the recording is incomplete, where the page ends
# (its last interval and that interval's time, as the replay's CSV has
# them) and where the file does, in the reader's words with the byte
# offset that hvtop -b -r prints.  A whole recording's page says nothing
# of the kind.
. "$(dirname "$0")/tap.sh"
SIM="--sim clock=virtual,seed=1"
DYG=${HVTOP_DYGRAPHS_DIR:-/usr/share/javascript/dygraphs}
plan 8

if [ ! -r "$DYG/dygraph.min.js" ]; then
	for i in 1 2 3 4 5 6 7 8; do
		skip "report of a cut recording ($i)" \
		    "libjs-dygraphs is not installed (scripts/setup.sh installs it)"
	done
	exit 0
fi
if ! command -v python3 >/dev/null 2>&1; then
	for i in 1 2 3 4 5 6 7 8; do
		skip "report of a cut recording ($i)" "no python3"
	done
	exit 0
fi

"$HVTOP" -b -n 300 $SIM -w "$tmpdir/r.hvr" -o /dev/null 2>/dev/null
size=$(wc -c <"$tmpdir/r.hvr")

# banner PAGE CSV ERR: the page's banner against the replay's CSV and the
# offset in the replay's messages; prints what is wrong.
banner() {
	python3 - "$1" "$2" "$3" <<'EOF'
import csv, html.parser, re, sys

class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.order = []       # what comes first in the body
        self.depth = None     # inside the banner
        self.text = ""
        self.intervals = None
        self.th = None
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id") == "incomplete":
            self.order.append("incomplete")
            self.depth = 0
        elif tag == "table" or "chart" in (a.get("class") or "").split():
            self.order.append(a.get("class") or tag)
        if self.depth is not None:
            self.depth += 1
    def handle_endtag(self, tag):
        if self.depth is not None:
            self.depth -= 1
            if self.depth == 0:
                self.depth = -1
    def handle_data(self, d):
        if self.depth is not None and self.depth > 0:
            self.text += d
        if self.th == "intervals":
            self.intervals = d.strip()
            self.th = None
        if d == "intervals":
            self.th = d

page, csvpath, errpath = sys.argv[1:4]
p = P()
p.feed(open(page, encoding="utf-8").read())
bad = []
if not p.order or p.order[0] != "incomplete":
    bad.append("the banner is not the first thing: %s" % p.order[:3])
text = " ".join(p.text.split())
if "Incomplete recording" not in text:
    bad.append("no 'Incomplete recording' in %r" % text[:200])
offsets = re.findall(r"offset (\d+)", open(errpath).read())
if not offsets:
    bad.append("the replay named no offset")
for o in offsets:
    if "offset %s" % o not in text:
        bad.append("offset %s is not on the page" % o)
rows = list(csv.DictReader(open(csvpath)))
last = rows[-1]["time"]
n = len({r["time"] for r in rows})
if "last interval is number %d, at %s" % (n, last) not in text:
    bad.append("no 'last interval is number %d, at %s' in %r" % (
        n, last, text[:300]))
if p.intervals != str(n):
    bad.append("intervals %s, CSV %d" % (p.intervals, n))
print("\n".join(bad))
sys.exit(1 if bad else 0)
EOF
}

# Cut three quarters in, inside a sample record: as a copy taken while
# the recording was written, or a run killed.
head -c $((size * 3 / 4)) "$tmpdir/r.hvr" >"$tmpdir/cut.hvr"
"$HVTOP" -b -r "$tmpdir/cut.hvr" --format csv -o "$tmpdir/cut.csv" \
    2>"$tmpdir/cut.err"
"$HVTOP" report "$tmpdir/cut.hvr" -o "$tmpdir/cut.html" 2>/dev/null
st=$?
check "a cut recording: the page is written, exit as the replay's" \
    sh -c "test $st = 0 && test -s '$tmpdir/cut.html'"
out=$(banner "$tmpdir/cut.html" "$tmpdir/cut.csv" "$tmpdir/cut.err")
st=$?
[ -z "$out" ] || diag "$out"
check "cut: the page says at its top where it and the file end" test $st = 0
check "cut: the page's title says it is incomplete" \
    grep -q '<title>.*cut.hvr (incomplete)</title>' "$tmpdir/cut.html"
check "cut: the reader's summary is on the page" \
    grep -q '<li>[^<]*cut.hvr: [0-9]* samples;.*not closed by its writer' \
    "$tmpdir/cut.html"

# Damage before the end: bytes overwritten 90 % into the file, well past
# the catalog at its start.
cp "$tmpdir/r.hvr" "$tmpdir/bad.hvr"
printf 'XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX' | dd of="$tmpdir/bad.hvr" bs=1 \
    seek=$((size * 9 / 10)) conv=notrunc 2>/dev/null
"$HVTOP" -b -r "$tmpdir/bad.hvr" --format csv -o "$tmpdir/bad.csv" \
    2>"$tmpdir/bad.err"
"$HVTOP" report "$tmpdir/bad.hvr" -o "$tmpdir/bad.html" 2>/dev/null
st=$?
check "a damaged recording: exit 1, the page is written" \
    sh -c "test $st = 1 && test -s '$tmpdir/bad.html'"
out=$(banner "$tmpdir/bad.html" "$tmpdir/bad.csv" "$tmpdir/bad.err")
st=$?
[ -z "$out" ] || diag "$out"
check "damaged: the page says at its top where it and the file end" \
    test $st = 0
check "damaged: the page says parts could not be read" \
    grep -q 'Parts of the file could not be read' "$tmpdir/bad.html"

# A whole recording: no banner.
"$HVTOP" report "$tmpdir/r.hvr" -o "$tmpdir/r.html" 2>/dev/null
check_not "a whole recording: no banner" \
    grep -q -e 'id="incomplete"' -e '(incomplete)' "$tmpdir/r.html"
