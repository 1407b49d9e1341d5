#!/bin/sh
# hvtop --serve: the metrics endpoint as Prometheus and its users meet it.
# A headless run on the simulated frame prints nothing and serves both
# formats; promtool accepts the text format and Prometheus' own
# OpenMetrics parser the other; counters never go backwards across
# scrapes, also across a catalog version change, which starts new series;
# paths, methods and bodies get the right status; a load run, slow
# clients and a thousand scrapes neither stop the sampler nor grow it;
# and a real Prometheus server, started here on loopback, scrapes hvtop
# and answers a rate() query for every chip.  What the machine lacks
# (curl, promtool, prometheus, wrk, bash) is a visible SKIP.
. "$(dirname "$0")/tap.sh"
plan 36

# start NAME ARGS...: hvtop ARGS --serve on a free loopback port, in the
# background; sets pid and url (empty when it did not start).
start() {
	seen=0
	serve_start "$@" --serve 127.0.0.1:0
}

stop() {
	kill "$1" 2>/dev/null
	wait "$1" 2>/dev/null
}

# csv_seq FILE: the highest seq in a CSV hvtop is still writing, 0 before
# the first data row (the column is found by its name, so the header is
# never taken for data; a row cut short can only show a smaller number).
csv_seq() {
	awk -F, '
	NR == 1 { for (i = 1; i <= NF; i++) if ($i == "seq") c = i; next }
	c && $c ~ /^[0-9]+$/ && $c + 0 > n { n = $c + 0 }
	END { print n + 0 }' "$1" 2>/dev/null | tail -n 1
}

# seq_reached FILE N: the CSV has interval N.
seq_reached() { [ "$(csv_seq "$1")" -ge "$2" ]; }
# wait_seq FILE N: wait (at most 60 s) until the CSV has interval N.
wait_seq() {
	until_ok 60 seq_reached "$1" "$2" && return 0
	diag "$1 has reached interval $(csv_seq "$1"), not $2"
	return 1
}

# scrape_new URL FILE [ACCEPT]: a scrape into FILE showing a sample that
# the last scrape_new did not (at most 30 s of waiting); start() resets.
seen=0
scrape_new() { until_ok 30 scraped_new "$@"; }
scraped_new() {
	curl -s -m 5 -H "Accept: ${3:-text/plain}" -o "$2.tmp" "$1" &&
	    now=$(om_value hvtop_samples_total "$2.tmp") &&
	    [ -n "$now" ] && [ "$now" -gt "$seen" ] &&
	    mv "$2.tmp" "$2" && seen=$now
}

# monotonic A B: no counter sample of B is below the same series in A.
monotonic() {
	awk '
	/^#/ { next }
	FNR == NR { if ($1 ~ /_total[{ ]/ || $1 ~ /_total$/) v[$1] = $2; next }
	($1 in v) && $2 + 0 < v[$1] + 0 {
		print "went backwards: " $1 " " v[$1] " -> " $2; bad = 1
	}
	END { exit bad }' "$1" "$2"
}

# chips FILE: how many chips have counters in a scrape.
chips() {
	grep '^hvtop_events_total{' "$1" |
	    sed -n 's/.*domain="phys_chip",chip="\([0-9]*\)".*/\1/p' |
	    sort -u | wc -l
}

NOPROM="promtool is not installed (apt-get install prometheus)"
NOSERVER="prometheus is not installed (apt-get install prometheus)"

# rss PID: resident memory in KiB.
rss() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"; }

# An AddressSanitizer build keeps freed memory in quarantine: its RSS
# says nothing about hvtop's.
asan=""
if ldd "$HVTOP" 2>/dev/null | grep -q libasan; then
	asan="an AddressSanitizer build: freed memory stays in quarantine"
fi

# check_rss NAME KIB-BEFORE KIB-AFTER LIMIT
check_rss() {
	if [ -n "$asan" ]; then
		skip "$1" "$asan"
	else
		check "$1" test $(($3 - $2)) -lt "$4"
	fi
}

if ! have curl; then
	while [ "$tap_n" -lt 36 ]; do
		skip "serve" "curl is not installed (apt-get install curl)"
	done
	exit 0
fi

# ---- a headless run -------------------------------------------------
start a -b --sim clock=real -d 0.2
apid=$pid
check "-b --serve starts and says where" test -n "$url"
scrape_new "$url" "$tmpdir/p1"
check "GET /metrics answers" grep -q '^hvtop_events_total{' "$tmpdir/p1"
check "-b --serve without -o prints nothing" test ! -s "$tmpdir/a.out"
curl -s -D "$tmpdir/h1" -o /dev/null "$url"
check "plain GET: the text format" grep -qi \
    '^Content-Type: text/plain; version=0.0.4; charset=utf-8' "$tmpdir/h1"
check "every chip has counters" test "$(chips "$tmpdir/p1")" -ge 2

if have promtool; then
	promtool check metrics <"$tmpdir/p1" >"$tmpdir/lint" 2>&1
	check "promtool check metrics accepts the scrape" test $? = 0
	sed 's/^/# /' "$tmpdir/lint"
else
	skip "promtool check metrics" "$NOPROM"
fi

scrape_new "$url" "$tmpdir/o1" "application/openmetrics-text; version=1.0.0"
curl -s -D "$tmpdir/h2" -o /dev/null -H \
    "Accept: application/openmetrics-text;version=1.0.0,*/*;q=0.1" "$url"
OMTYPE="application/openmetrics-text; version=1.0.0; charset=utf-8"
check "OpenMetrics when asked: its content type" grep -qi \
    "^Content-Type: $OMTYPE" "$tmpdir/h2"
check "OpenMetrics ends with the EOF line" test "$(tail -n 1 "$tmpdir/o1")" = "# EOF"
check "OpenMetrics: counters, units and the info metric" sh -c "
    grep -q '^# TYPE hvtop_events counter' '$tmpdir/o1' &&
    grep -q '^# UNIT hvtop_refresh_duration_seconds seconds' '$tmpdir/o1' &&
    grep -q '^hvtop_source_info{frame=\"[^\"]*\",source=\"sim\",' '$tmpdir/o1'"
if have promtool; then
	# Prometheus' OpenMetrics parser, as its backfill uses it (it wants
	# a timestamp on every sample).
	awk '/^#/ { print; next } { print $0 " 1767225600" }' "$tmpdir/o1" \
	    >"$tmpdir/o1.ts"
	promtool tsdb create-blocks-from openmetrics "$tmpdir/o1.ts" \
	    "$tmpdir/blocks" >"$tmpdir/om.log" 2>&1
	if grep -q 'NUM SAMPLES' "$tmpdir/om.log"; then
		pass "Prometheus' OpenMetrics parser reads every sample"
	else
		fail "Prometheus' OpenMetrics parser reads every sample"
		sed 's/^/# /' "$tmpdir/om.log" | head -n 5
	fi
else
	skip "OpenMetrics parse" "$NOPROM"
fi

# Counters across five scrapes, each with a new sample.
ok=yes
prev="$tmpdir/p1"
for n in 2 3 4 5 6; do
	scrape_new "$url" "$tmpdir/p$n" || ok=no
	monotonic "$prev" "$tmpdir/p$n" || ok=no
	prev="$tmpdir/p$n"
done
check "counters never go backwards across scrapes" test $ok = yes
check "metrics in base units (the first sample has none yet)" \
    grep -q '^hvtop_metric_[a-z0-9_]*_bytes_per_second{frame=\"[^\"]*\",metric=' "$tmpdir/p6"

# Paths, methods and bodies.
base=${url%/metrics}
code() { curl -s -o /dev/null -w '%{http_code}' "$@"; }
check "HEAD /metrics: 200" test "$(code -I "$url")" = 200
check "/ links to /metrics" sh -c "curl -s '$base/' |
    grep -q 'href=\"metrics\"'"
check "another path: 404" test "$(code "$base/metric")" = 404
check "POST: 405" test "$(code -X POST -d a=b "$url")" = 405
check "a request body: 413" test "$(code -X GET -d a=b "$url")" = 413

# A thousand scrapes in a row (one client, kept alive) after a warm-up:
# resident memory grows by less than 1 MiB.
urls() {
	awk -v u="$url" -v n="$1" 'BEGIN {
		for (i = 0; i < n; i++)
			print "url = \"" u "\"\noutput = \"/dev/null\""
	}'
}
urls 100 >"$tmpdir/k100"
urls 1000 >"$tmpdir/k1000"
curl -s -K "$tmpdir/k100"
r0=$(rss "$pid")
curl -s -w '%{http_code}\n' -K "$tmpdir/k1000" >"$tmpdir/codes"
r1=$(rss "$pid")
check "1000 scrapes in a row: all answered" \
    test "$(grep -c '^200$' "$tmpdir/codes")" = 1000
diag "RSS before and after 1000 scrapes: $r0 KiB, $r1 KiB"
check_rss "1000 scrapes: RSS grows by less than 1 MiB" "$r0" "$r1" 1024

# A load run beyond the connection limit: the sampler goes on and the
# endpoint answers afterwards.
s0=$(om_value hvtop_samples_total "$tmpdir/p6")
if have wrk; then
	wrk -t 2 -c 64 -d 3s --timeout 2s "$url" >"$tmpdir/wrk" 2>&1
	sed -n 's/^/# /; /Requests\/sec\|requests in\|Socket errors/p' \
	    "$tmpdir/wrk"
else
	diag "wrk is not installed: 16 curl loops instead"
	(
		j=0
		while [ $j -lt 16 ]; do
			(k=0; while [ $k -lt 10 ]; do
				curl -s -m 5 -o /dev/null "$url"
				k=$((k + 1))
			done) &
			j=$((j + 1))
		done
		wait
	)
fi
scrape_new "$url" "$tmpdir/p7"
s1=$(om_value hvtop_samples_total "$tmpdir/p7")
check "under load: sampling went on, scrapes answered after" \
    test "${s1:-0}" -gt "${s0:-0}"
r2=$(rss "$pid")
diag "RSS after the load run: $r2 KiB"
check_rss "under load: RSS stays within 16 MiB of the start" "$r0" "$r2" \
    16384
check "under load: the sampler never failed" \
    test "$(om_value hvtop_sample_failures_total "$tmpdir/p7")" = 0

# Slow clients holding every connection: the sampler goes on (its CSV
# grows); when they go, scrapes are answered again.
if have bash; then
	start b -b --sim clock=real -d 0.2 -o "$tmpdir/b.csv"
	bpid=$pid
	burl=$url
	port=${burl#http://127.0.0.1:}
	port=${port%/metrics}
	slow=""
	j=0
	while [ $j -lt 24 ]; do
		bash -c 'exec 3<>/dev/tcp/127.0.0.1/$0 || exit 1
		    printf "GET /metrics HTTP/1.1\r\nHost: x\r\n" >&3
		    exec sleep 30' "$port" 2>/dev/null &
		slow="$slow $!"
		j=$((j + 1))
	done
	pids="$pids $slow"
	# Wait for a first interval, then for five more: the CSV grows
	# while every connection is held.
	wait_seq "$tmpdir/b.csv" 1
	seq0=$(csv_seq "$tmpdir/b.csv")
	diag "slow clients connected at interval $seq0"
	check "slow clients: the sampler is not held up" \
	    wait_seq "$tmpdir/b.csv" $((seq0 + 5))
	for p in $slow; do
		kill "$p" 2>/dev/null
	done
	scrape_new "$burl" "$tmpdir/b1"
	check "slow clients gone: scrapes answered" \
	    grep -q '^hvtop_samples_total{' "$tmpdir/b1"
	stop "$bpid"
else
	skip "slow clients" "bash is not installed"
	skip "slow clients gone" "bash is not installed"
fi
stop "$apid"

# ---- usage ------------------------------------------------------------
"$HVTOP" -b -n 1 --sim clock=virtual --serve 127.0.0.1:http \
    >/dev/null 2>"$tmpdir/u.err"
check "--serve with a bad port: exit 2" test $? = 2
check "... saying where" grep -q "column 11: the port must be a number" \
    "$tmpdir/u.err"
start c -b --sim clock=real
cport=${url#http://127.0.0.1:}
cport=${cport%/metrics}
"$HVTOP" -b -n 1 --sim clock=virtual --serve "127.0.0.1:$cport" \
    >/dev/null 2>"$tmpdir/u2.err"
check "--serve on a port in use: exit 1" test $? = 1
check "... saying so" grep -q "cannot listen: Address already in use" \
    "$tmpdir/u2.err"
stop "$pid"

# ---- a catalog version change -----------------------------------------
# The change comes some 50 refreshes (2 hcalls each) after the start.
start v -b --sim clock=real,faults=version-change@100 -d 0.1
scrape_new "$url" "$tmpdir/v1"
old=$(om_value hvtop_catalog_version "$tmpdir/v1")
ok=no
prev="$tmpdir/v1"
n=2
while [ $n -lt 100 ]; do
	scrape_new "$url" "$tmpdir/v$n" || break
	monotonic "$prev" "$tmpdir/v$n" || { ok=backwards; break; }
	prev="$tmpdir/v$n"
	if [ "$(om_value hvtop_catalog_version "$prev")" != "$old" ]; then
		ok=yes
		break
	fi
	n=$((n + 1))
done
check "version change: the catalog version moves on" test $ok = yes
new=$(om_value hvtop_catalog_version "$prev")
check "version change: counters carry the new version only" sh -c "
    grep -q '^hvtop_events_total{.*catalog_version=\"$new\"}' '$prev' &&
    ! grep -q '^hvtop_events_total{.*catalog_version=\"$old\"}' '$prev'"
scrape_new "$url" "$tmpdir/vz"
check "version change: the new series go on without going back" \
    monotonic "$prev" "$tmpdir/vz"
stop "$pid"

# ---- a real Prometheus ------------------------------------------------
if ! have prometheus; then
	while [ "$tap_n" -lt 36 ]; do
		skip "Prometheus" "$NOSERVER"
	done
	exit 0
fi
start p -b --sim clock=real -d 1
hport=${url#http://127.0.0.1:}
hport=${hport%/metrics}
scrape_new "$url" "$tmpdir/pp"
chips=$(chips "$tmpdir/pp")
cat >"$tmpdir/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: hvtop
    static_configs:
      - targets: ['127.0.0.1:$hport']
EOF
prom_start "$tmpdir/prometheus.yml"
check "Prometheus starts on loopback" test -n "$ppid"
q='sum by (chip) (rate(hvtop_events_total{domain="phys_chip"}[5s]))'
# A rate needs two different samples in the window: two scrapes within
# one of hvtop's intervals see the same counts (a rate of 0), so wait,
# with a deadline, until every chip has a rate above 0.
positive() {
	grep -o '"value":\[[0-9.]*,"[^"]*"\]' "$1" |
	    sed 's/.*,"\(.*\)"\]/\1/' |
	    awk '!($1 + 0 > 0) { bad = 1 } END { exit bad || NR == 0 }'
}
# rated: the query has a rate for every chip (their count in $n), each
# above 0.
rated() {
	curl -s -G "$api/query" --data-urlencode "query=$q" >"$tmpdir/q.json"
	n=$(grep -o '"chip":"[0-9]*"' "$tmpdir/q.json" | sort -u | wc -l)
	[ "$n" -ge "$chips" ] && positive "$tmpdir/q.json"
}
n=0
[ -n "$ppid" ] && until_ok 60 rated
diag "$(cut -c1-300 "$tmpdir/q.json")"
check "PromQL rate() has a value for each of the $chips chips" \
    test "$n" -ge "$chips"
check "... and every value is a positive rate" positive "$tmpdir/q.json"
curl -s -G "$api/metadata" --data-urlencode "metric=hvtop_source" \
    >"$tmpdir/meta.json"
check "Prometheus read OpenMetrics (hvtop_source is an info metric)" \
    grep -q '"type":"info"' "$tmpdir/meta.json"
stop "$ppid"
stop "$pid"
check "both stopped" sh -c "! kill -0 $ppid 2>/dev/null &&
    ! kill -0 $pid 2>/dev/null"
