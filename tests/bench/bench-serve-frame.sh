#!/bin/sh
# The endpoint on a frame of 1,000 partitions of 65 virtual processors
# (--sim lpars=1000,vcpus=65 -g CPM_32MHZ_CYC@lpar), scraped with curl
# over loopback:
#   serve.frame.series      the samples of one scrape (budget: 20,000;
#                           partitions summed over their vcpus, measured
#                           9,020 on the development machine)
#   serve.frame.bytes.plain, serve.frame.bytes.gzip   one scrape's size
#                           (measured 994 KB and 94 KB; 149 MB and 14.8 MB
#                           with --serve-vcpus, HVTOP_BENCH_VCPUS=1)
#   serve.frame.scrape.plain, serve.frame.scrape.gzip   its time
#   serve.frame.scrape.keepalive   the second of two scrapes on one
#                           connection (curl reuses it)
#   serve.frame.rss_slow16  hvtop's resident memory growth while 16
#                           clients ask, one every half second, and
#                           never read (tests/cli/serve-conn.py slow)
#   serve.frame.rss_slow16_ratio   that growth / one plain scrape
# HVTOP_BUILD is the build directory (scripts/bench sets it); a smoke
# run (HVTOP_BENCH_SMOKE set) uses 20 partitions.  Without curl or
# python3 it exits 77 (a skip).
top=$(cd "$(dirname "$0")/../.." && pwd)
b=${HVTOP_BUILD:-build}
lpars=1000
[ -z "${HVTOP_BENCH_SMOKE:-}" ] || lpars=20
for t in curl python3; do
	command -v "$t" >/dev/null 2>&1 || { echo "no $t" >&2; exit 77; }
done
tmp=$(mktemp -d)
"$b/hvtop" -b --sim "lpars=$lpars,vcpus=65,clock=real" -d 1 \
    -g CPM_32MHZ_CYC@lpar ${HVTOP_BENCH_VCPUS:+--serve-vcpus} \
    --serve 127.0.0.1:0 >/dev/null 2>"$tmp/err" &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$tmp"' EXIT
url=""
i=0
while [ -z "$url" ] && [ $i -lt 600 ]; do
	url=$(sed -n 's/^hvtop: serving metrics at \([^ ]*\).*/\1/p' "$tmp/err")
	sleep 0.1
	i=$((i + 1))
done
[ -n "$url" ] || { echo "hvtop did not start" >&2; exit 1; }
port=$(echo "$url" | sed 's/.*:\([0-9]*\)\/metrics$/\1/')
# Until a sample has every partition's counters.
i=0
until curl -s -m 120 -o "$tmp/p" "$url" &&
    grep -q "lpar=\"$((lpars - 1))\"" "$tmp/p"; do
	i=$((i + 1))
	[ $i -lt 120 ] || { echo "no partitions in the page" >&2; exit 1; }
	sleep 0.5
done
sleep 1
curl -s -m 120 -o "$tmp/p" "$url"
echo "serve.frame.series $(grep -vc '^#' "$tmp/p") series"
curl -s -m 120 -o /dev/null -w 'serve.frame.bytes.plain %{size_download} bytes
serve.frame.scrape.plain %{time_total} s
' "$url"
curl -s -m 120 -H 'Accept-Encoding: gzip' -o /dev/null \
    -w 'serve.frame.bytes.gzip %{size_download} bytes
serve.frame.scrape.gzip %{time_total} s
' "$url"
curl -s -m 240 -o /dev/null -o /dev/null -w '%{time_total} %{num_connects}\n' \
    "$url" "$url" | awk 'NR == 2 && $2 == 0 {
	print "serve.frame.scrape.keepalive " $1 " s" }'
size=$(wc -c <"$tmp/p")
python3 "$top/tests/cli/serve-conn.py" slow "$port" "$pid" 16 0.5 \
    >"$tmp/slow" || exit 1
awk -v s="$size" '/^base/ { b = $2 } /^peak/ { p = $2 } END {
	printf "serve.frame.rss_slow16 %d KiB\n", p - b
	printf "serve.frame.rss_slow16_ratio %.3f x\n", (p - b) * 1024 / s
}' "$tmp/slow"
