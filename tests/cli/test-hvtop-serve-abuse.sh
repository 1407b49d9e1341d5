#!/bin/sh
# hvtop --serve under misbehaving clients, as an attacker meets it: while
# clients trickle a request a byte a second and others connect and send
# nothing, and while more connections are opened than hvtop holds, every
# scrape is answered; a trickling client is cut off by the deadline for a
# whole request; the connections dropped to make room are the oldest
# idle ones.  Requests that HTTP software reads in more than one way get
# 400, a long query an answer with a status line, an Accept header's q=0
# is honoured, and *:PORT listens on IPv6 and IPv4 alike.  Scrape
# latencies are printed (p50, p99), never asserted: only that every
# scrape is answered within a generous limit.
. "$(dirname "$0")/tap.sh"
plan 19

ABUSE="$top_srcdir/tests/cli/serve-abuse.py"

# start NAME ADDR: hvtop -b --serve ADDR in the background; sets pid, url
# and port (empty when it did not start).
start() {
	port=""
	serve_start "$1" -b --sim clock=real -d 1 --serve "$2" || return 1
	port=$(echo "$url" | sed 's/.*:\([0-9]*\)\/metrics$/\1/')
}

# wait_line FILE TEXT: wait (at most 60 s) until FILE has a line TEXT.
has_line() { grep -qx "$2" "$1" 2>/dev/null; }
wait_line() { until_ok 60 has_line "$1" "$2"; }

# scrapes NAME ABUSER-PID: scrape until the abuser ends, one line per
# scrape: "CODE SECONDS" (000 when no answer came within 30 s, a limit
# for a starved scrape, not for a slow machine).
scrapes() {
	: >"$tmpdir/$1.scrapes"
	while kill -0 "$2" 2>/dev/null; do
		curl -s -o /dev/null -m 30 -w '%{http_code} %{time_total}\n' \
		    "http://127.0.0.1:$port/metrics" >>"$tmpdir/$1.scrapes"
	done
}

# report NAME: scrape count, answered, p50 and p99 latency in ms.
report() {
	n=$(wc -l <"$tmpdir/$1.scrapes")
	ok=$(grep -c '^200 ' "$tmpdir/$1.scrapes")
	pct=$(awk '{ print $2 * 1000 }' "$tmpdir/$1.scrapes" | sort -n |
	    awk '{ v[NR] = $1 } END {
		if (NR == 0) { print "- -"; exit }
		i = int(NR * 0.5 + 0.5); if (i < 1) i = 1
		j = int(NR * 0.99 + 0.99); if (j > NR) j = NR
		printf "%.0f %.0f\n", v[i], v[j] }')
	diag "$1: $ok of $n scrapes answered; latency p50 ${pct% *} ms," \
	    "p99 ${pct#* } ms"
}

# all_answered NAME: there were scrapes and every one got 200.
all_answered() {
	[ "$(wc -l <"$tmpdir/$1.scrapes")" -gt 0 ] &&
	    ! grep -qv '^200 ' "$tmpdir/$1.scrapes"
}

# raw REQUEST: send REQUEST (\r, \n escapes) and print the status line.
raw() {
	python3 -c '
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.settimeout(10)
s.sendall(sys.argv[2].encode("latin1").decode("unicode_escape")
    .encode("latin1"))
d = b""
try:
    while b"\r\n" not in d:
        c = s.recv(4096)
        if not c:
            break
        d += c
except OSError:
    pass
print(d.split(b"\r\n")[0].decode("latin1"))' "$port" "$1"
}

# ctype ACCEPT: the status and Content-Type a scrape with ACCEPT gets.
ctype() {
	curl -s -m 10 -D - -o /dev/null -H "Accept: $1" \
	    "http://127.0.0.1:$port/metrics" | tr -d '\r' |
	    awk '/^HTTP/ { s = $2 } tolower($1) == "content-type:" {
		t = $2 } END { print s, t }'
}

if ! have curl || ! have python3; then
	for i in $(seq 19); do
		skip "serve abuse" "curl and python3 are needed (apt-get" \
		    "install curl python3)"
	done
	exit 0
fi

start a 127.0.0.1:0
check "--serve starts" test -n "$port"

# Fifty clients sending a byte a second and fifty that send nothing, for
# longer than the deadline for a request (10 s).
python3 "$ABUSE" slow "$port" 50 50 14 >"$tmpdir/slow.out" 2>&1 &
apid=$!
pids="$pids $apid"
check "slow and idle clients connected" wait_line "$tmpdir/slow.out" ready
scrapes slow "$apid"
report slow
check "every scrape answered while 50 trickle and 50 idle" \
    all_answered slow
cut=$(sed -n 's/^cut //p' "$tmpdir/slow.out")
longest=$(sed -n 's/^longest //p' "$tmpdir/slow.out")
diag "trickling clients cut off: ${cut:-?}, the longest after ${longest:-?} s"
# The deadline is 10 s; 30 s leaves room for a loaded machine.
check "a client sending a byte a second is cut off" \
    awk -v c="${cut:-0}" -v l="${longest:-99}" 'BEGIN { exit !(c > 0 && l < 30) }'

# More connections than hvtop holds (256), sending nothing: each new one
# drops the oldest idle one, and scrapes still get through.  Both sides
# need a descriptor per connection.
nofile=$(ulimit -n)
if [ "$nofile" != unlimited ] && [ "$nofile" -lt 700 ]; then
	for t in "300 idle connections opened" \
	    "every scrape answered with 300 idle connections" \
	    "connections beyond the limit are dropped" \
	    "the oldest idle connections go first"; do
		skip "$t" "ulimit -n is $nofile: 300 connections need 700"
	done
else
	python3 "$ABUSE" full "$port" 300 6 >"$tmpdir/full.out" 2>&1 &
	apid=$!
	pids="$pids $apid"
	check "300 idle connections opened" \
	    wait_line "$tmpdir/full.out" ready
	scrapes full "$apid"
	report full
	check "every scrape answered with 300 idle connections" \
	    all_answered full
	closed=$(sed -n 's/^closed //p' "$tmpdir/full.out")
	diag "idle connections dropped to make room: ${closed:-?} of 300"
	check "connections beyond the limit are dropped" \
	    test "${closed:-0}" -ge 44
	check "the oldest idle connections go first" \
	    grep -qx "oldest-first yes" "$tmpdir/full.out"
fi
check "hvtop still runs" kill -0 "$pid"

# Requests read more than one way, and a long query.
check "two Content-Length fields: 400" test "$(raw 'GET /metrics HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\nContent-Length: 0\r\nConnection: close\r\n\r\n')" = "HTTP/1.1 400 Bad Request"
check "white space before a colon: 400" test "$(raw 'GET /metrics HTTP/1.1\r\nHost: h\r\nTransfer-Encoding : chunked\r\nConnection: close\r\n\r\n')" = "HTTP/1.1 400 Bad Request"
check "/metrics%00junk: 400" test "$(raw 'GET /metrics%00junk HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n')" = "HTTP/1.1 400 Bad Request"
q=$(awk 'BEGIN { for (i = 0; i < 3000; i++) printf "a%d&", i % 10 }')
check "a 3,000-argument query: 414 with a status line" test "$(raw "GET /metrics?$q HTTP/1.1\\r\\nHost: h\\r\\nConnection: close\\r\\n\\r\\n")" = "HTTP/1.1 414 URI Too Long"
check "a plain request still gets 200" test "$(raw 'GET /metrics HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n')" = "HTTP/1.1 200 OK"

# Accept with q=0: a refused type is never chosen.
check "OpenMetrics refused by q=0: text" test "$(ctype 'application/openmetrics-text;q=0, text/plain')" = "200 text/plain;"
check "both refused by q=0: 406" test "$(ctype 'application/openmetrics-text;q=0, text/plain;q=0')" = "406 text/plain;"
check "Prometheus' own Accept: OpenMetrics" test "$(ctype 'application/openmetrics-text;version=1.0.0;q=0.5,application/openmetrics-text;version=0.0.1;q=0.4,text/plain;version=0.0.4;q=0.3,*/*;q=0.2')" = "200 application/openmetrics-text;"
kill "$pid" 2>/dev/null
wait "$pid" 2>/dev/null

# *:PORT: every interface, IPv6 and IPv4 alike where the system has IPv6.
start b '*:0'
if [ -z "$port" ]; then
	fail "*:0 starts"
	skip "*:0 answers on IPv6" "it did not start"
elif ! python3 -c 'import socket; s = socket.socket(socket.AF_INET6); s.bind(("::1", 0))' 2>/dev/null; then
	check "*:0 answers on IPv4" curl -s -f -m 10 -o /dev/null \
	    "http://127.0.0.1:$port/metrics"
	skip "*:0 answers on IPv6" "this system has no IPv6 loopback"
else
	check "*:0 answers on IPv4" curl -s -f -m 10 -o /dev/null \
	    "http://127.0.0.1:$port/metrics"
	check "*:0 answers on IPv6" curl -s -f -m 10 -o /dev/null \
	    "http://[::1]:$port/metrics"
fi
exit $tap_failed
