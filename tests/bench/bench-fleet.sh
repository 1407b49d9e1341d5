#!/bin/sh
# A Prometheus that scrapes three simulated frames (three hvtop
# exporters, -g CPM_32MHZ_CYC@lpar -g Memory_BW, with the shipped
# recording and alerting rules), every 200 ms until it has scraped each
# 100 times:
#   fleet.prom.rss_100scrapes   the Prometheus process's resident memory
#   fleet.prom.head_series      the series in its head block
#   fleet.scrape.seconds        a scrape's time as Prometheus measures
#                               it (scrape_duration_seconds, the mean)
#   fleet.scrape.samples        samples in one scrape of one frame
# HVTOP_BUILD is the build directory (scripts/bench sets it); a smoke
# run (HVTOP_BENCH_SMOKE set) stops at 10 scrapes.  Without prometheus,
# curl or python3 it exits 77 (a skip).
top=$(cd "$(dirname "$0")/../.." && pwd)
b=${HVTOP_BUILD:-build}
scrapes=100
[ -z "${HVTOP_BENCH_SMOKE:-}" ] || scrapes=10
for t in prometheus curl python3; do
	command -v "$t" >/dev/null 2>&1 || { echo "no $t" >&2; exit 77; }
done
tmp=$(mktemp -d)
pids=""
trap 'for p in $pids; do kill $p 2>/dev/null; done; wait 2>/dev/null
rm -rf "$tmp"' EXIT
# Frames of their own where the simulator names frames.
naming=no
"$b/hvtop" -b -n 1 --sim clock=virtual,serial=BENCH1 >/dev/null 2>&1 &&
    naming=yes
targets=""
for f in 1 2 3; do
	sim=clock=real
	[ "$naming" = yes ] && sim="$sim,serial=BENCH$f"
	"$b/hvtop" -b --sim "$sim,seed=$f" -d 0.5 -g CPM_32MHZ_CYC@lpar \
	    -g Memory_BW --serve 127.0.0.1:0 >/dev/null 2>"$tmp/$f.err" &
	pids="$pids $!"
	url=""
	i=0
	while [ -z "$url" ] && [ $i -lt 600 ]; do
		url=$(sed -n 's/^hvtop: serving metrics at \([^ ]*\).*/\1/p' \
		    "$tmp/$f.err" 2>/dev/null)
		sleep 0.1
		i=$((i + 1))
	done
	[ -n "$url" ] || { echo "hvtop did not start" >&2; exit 1; }
	hp=${url#http://}
	targets="$targets${targets:+, }'${hp%/metrics}'"
done
cat >"$tmp/prometheus.yml" <<EOC
global:
  scrape_interval: 200ms
  scrape_timeout: 200ms
  evaluation_interval: 1s
rule_files:
  - $top/monitoring/prometheus/hvtop.rules.yml
  - $top/monitoring/prometheus/hvtop.alerts.yml
scrape_configs:
  - job_name: hvtop
    static_configs:
      - targets: [$targets]
EOC
# A free loopback port: five tried at random.
ppid=""
n=0
while [ $n -lt 5 ] && [ -z "$ppid" ]; do
	port=$(awk 'BEGIN { srand(); print 20000 + int(rand() * 40000) }')
	port=$((port + n))
	prometheus --config.file="$tmp/prometheus.yml" \
	    --storage.tsdb.path="$tmp/data" \
	    --web.listen-address="127.0.0.1:$port" >"$tmp/prom.log" 2>&1 &
	ppid=$!
	pids="$pids $ppid"
	i=0
	while [ $i -lt 300 ]; do
		curl -s -o /dev/null "http://127.0.0.1:$port/-/ready" && break
		kill -0 "$ppid" 2>/dev/null || { ppid=""; break; }
		sleep 0.1
		i=$((i + 1))
	done
	n=$((n + 1))
done
[ -n "$ppid" ] || { tail -n 5 "$tmp/prom.log" >&2; exit 1; }
api="http://127.0.0.1:$port/api/v1"
# value EXPR: the first value of an instant query.
value() {
	curl -s -G "$api/query" --data-urlencode "query=$1" | python3 -c '
import json, sys
try:
    r = json.load(sys.stdin)["data"]["result"]
except (ValueError, KeyError):
    r = []
print(r[0]["value"][1] if r else "")'
}
# Until every frame has been scraped that many times.
i=0
until [ "$(value "min(count_over_time(up{job=\"hvtop\"}[1h]))" |
    cut -d. -f1)" -ge "$scrapes" ] 2>/dev/null; do
	i=$((i + 1))
	[ $i -lt 600 ] || { echo "Prometheus did not scrape" >&2; exit 1; }
	sleep 0.2
done
rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$ppid/status")
echo "fleet.prom.rss_100scrapes $rss KiB"
curl -s "http://127.0.0.1:$port/metrics" | awk '
    $1 == "prometheus_tsdb_head_series" { print "fleet.prom.head_series " $2 " series" }'
echo "fleet.scrape.seconds $(value \
    'avg(avg_over_time(scrape_duration_seconds{job="hvtop"}[1h]))') s"
echo "fleet.scrape.samples $(value \
    'avg(scrape_samples_scraped{job="hvtop"})') samples"
