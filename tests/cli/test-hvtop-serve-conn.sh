#!/bin/sh
# hvtop --serve's connections as a scraper uses them: curl reuses one
# connection for two scrapes (HTTP/1.1 keep-alive, as Prometheus does);
# two requests sent in one write are answered in order; a Content-Length
# that is not a number gets one 400, not two status lines; every header
# size up to and past the limit gets exactly one answer; a scrape that
# asks for gzip gets it (curl --compressed reads it, and python's gzip
# unpacks it to the plain scrape's bytes), one that refuses it does not.
# Sixteen clients that ask for the metrics of a 200-partition frame and
# never read, one every half second so that they meet different
# samples, leave hvtop's resident memory under 1.5 times one scrape's
# size above what it was.
. "$(dirname "$0")/tap.sh"
plan 17

CONN="$top_srcdir/tests/cli/serve-conn.py"

if ! have curl || ! have python3; then
	for i in $(seq 17); do
		skip "serve connections" "curl and python3 are needed" \
		    "(apt-get install curl python3)"
	done
	exit 0
fi

# A long interval: scrapes a moment apart see the same sample.
serve_start a -b --sim clock=real -d 30 --serve 127.0.0.1:0
check "--serve starts" test -n "$url"
port=$(echo "$url" | sed 's/.*:\([0-9]*\)\/metrics$/\1/')

# ---- keep-alive --------------------------------------------------------
curl -sv -m 30 -o "$tmpdir/k1" -o "$tmpdir/k2" "$url" "$url" \
    2>"$tmpdir/keep.err"
check "two scrapes, both answered" sh -c \
    "grep -q '^hvtop_events_total{' '$tmpdir/k1' &&
    grep -q '^hvtop_events_total{' '$tmpdir/k2'"
check "curl re-uses the connection for the second" \
    grep -q 'Re-using existing connection' "$tmpdir/keep.err"
check_not "no answer says Connection: close" \
    grep -qi '^< Connection: close' "$tmpdir/keep.err"

# ---- pipelining ----------------------------------------------------------
python3 "$CONN" pipeline "$port" >"$tmpdir/pipe.out"
diag "$(cat "$tmpdir/pipe.out")"
check "two requests in one write: two answers, in order" test \
    "$(cat "$tmpdir/pipe.out")" = "$(printf '%s\n' \
    'HTTP/1.1 200 OK text/plain whole' 'HTTP/1.1 200 OK text/html whole')"

# ---- one answer per request ----------------------------------------------
for v in -1 0x10; do
	python3 "$CONN" statuses "$port" "GET /metrics HTTP/1.1\\r\\nHost: h\\r\\nContent-Length: $v\\r\\n\\r\\n" >"$tmpdir/cl.out"
	check "Content-Length: $v gets one 400" test \
	    "$(cat "$tmpdir/cl.out")" = "HTTP/1.1 400 Bad Request"
done
python3 "$CONN" statuses "$port" 'GET /metrics HTTP/1.1\r\nHost: h\r\nX-Pad: '"$(awk 'BEGIN { while (n++ < 16280) printf "a" }')"'\r\nConnection: close\r\n\r\n' >"$tmpdir/h16.out"
check "a header block of 16,342 bytes (under 16 KiB) is answered" test \
    "$(cat "$tmpdir/h16.out")" = "HTTP/1.1 200 OK"
# From under the limit to past the library's own memory for a request.
python3 "$CONN" headers "$port" 15800 26000 50 >"$tmpdir/sizes.out"
diag "$(grep '^bad' "$tmpdir/sizes.out" | head -5)"
check "every header size gets exactly one status line" sh -c \
    "grep -qx done '$tmpdir/sizes.out' && ! grep -q '^bad' '$tmpdir/sizes.out'"

# ---- gzip ----------------------------------------------------------------
curl -s -m 30 --compressed -D "$tmpdir/gz.h" -o "$tmpdir/gz.txt" "$url"
check "curl --compressed: Content-Encoding: gzip" \
    grep -qi '^Content-Encoding: gzip' "$tmpdir/gz.h"
check "curl --compressed reads the metrics" \
    grep -q '^hvtop_events_total{' "$tmpdir/gz.txt"
check "Vary names Accept-Encoding" \
    grep -qi '^Vary: .*Accept-Encoding' "$tmpdir/gz.h"
check "python's gzip unpacks it to the plain scrape's bytes" test \
    "$(python3 "$CONN" gzip "$port")" = same
curl -s -m 30 -H 'Accept-Encoding: gzip;q=0, identity' -D "$tmpdir/id.h" \
    -o /dev/null "$url"
check_not "gzip;q=0 is not gzip" \
    grep -qi '^Content-Encoding:' "$tmpdir/id.h"
kill "$pid" 2>/dev/null
reap "$pid" >/dev/null

# ---- memory with slow readers ------------------------------------------
serve_start b -b --sim lpars=200,vcpus=65,clock=real -d 1 --serve-vcpus \
    -g CPM_32MHZ_CYC@lpar --serve 127.0.0.1:0
check "--serve starts on a 200-partition frame" test -n "$url"
port=$(echo "$url" | sed 's/.*:\([0-9]*\)\/metrics$/\1/')
# Until a sample has the partitions' counters (at most 60 s): then the
# frame and its text are as big as they get.
placed() {
	curl -s -m 60 -o "$tmpdir/big.txt" "$url" &&
	    grep -q 'placement="remote_node"' "$tmpdir/big.txt"
}
until_ok 60 placed
size=$(wc -c <"$tmpdir/big.txt" 2>/dev/null || echo 0)
diag "one scrape: $size bytes"
check "the scrape is whole" sh -c \
    "test $size -gt 1000000 && tail -n 1 '$tmpdir/big.txt' | grep -Eq '^(hvtop|process)_'"
if ldd "$HVTOP" 2>/dev/null | grep -q libasan; then
	skip "16 slow readers: under 1.5 x one scrape" "an AddressSanitizer" \
	    "build: freed memory stays in quarantine"
else
	python3 "$CONN" slow "$port" "$pid" 16 0.5 >"$tmpdir/slow.out"
	base=$(sed -n 's/^base //p' "$tmpdir/slow.out")
	peak=$(sed -n 's/^peak //p' "$tmpdir/slow.out")
	diag "resident: ${base:-?} KiB before, ${peak:-?} KiB at most with" \
	    "16 slow readers (one scrape: $((size / 1024)) KiB)"
	check "16 slow readers: under 1.5 x one scrape" awk -v b="${base:-0}" \
	    -v p="${peak:-1e12}" -v s="$size" \
	    'BEGIN { exit !(b > 0 && (p - b) * 1024 < 1.5 * s) }'
fi
kill "$pid" 2>/dev/null
reap "$pid" >/dev/null
exit $tap_failed
