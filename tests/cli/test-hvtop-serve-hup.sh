#!/bin/sh
# SIGHUP, the signal a service is told to reload with: it never ends a
# -b --serve run.  Without --web-config there is nothing to read again:
# each SIGHUP says so in one line on standard error, and the endpoint
# keeps answering with counters that move; SIGTERM still ends the run.
# A batch run without --serve ends on SIGHUP as on SIGTERM, its
# recording closed whole.
. "$(dirname "$0")/tap.sh"
plan 10

# count RE FILE: lines of FILE that match, 0 before FILE exists.
count() { n=$(grep -c -- "$1" "$2" 2>/dev/null); echo "${n:-0}"; }

# A batch run without --serve: SIGHUP ends it, as top's does.
"$HVTOP" -b --sim clock=real -d 0.2 -w "$tmpdir/run.hvr" \
    >"$tmpdir/b.out" 2>"$tmpdir/b.err" &
pid=$!
pids="$pids $pid"
# seen N RE FILE: N lines of FILE match RE, or hvtop ($pid) has ended.
seen() { at_least_lines "$1" "$3" "$2" || ! kill -0 "$pid" 2>/dev/null; }
# Two intervals out first: a signal sent before hvtop has started would
# reach the shell that starts it, not hvtop.
until_ok 60 seen 2 '^hvtop ' "$tmpdir/b.out"
kill -HUP "$pid"
reap "$pid"
check "SIGHUP ends a batch run without --serve (dies of it: 129)" \
    test $? -eq 129
"$HVTOP" -b -r "$tmpdir/run.hvr" >/dev/null 2>"$tmpdir/replay.err"
check "... with its recording closed whole (the replay exits 0)" \
    test $? -eq 0

if ! have curl; then
	while [ "$tap_n" -lt 10 ]; do
		skip "SIGHUP with --serve" "curl is not installed"
	done
	exit 0
fi

# hup N: send SIGHUP and wait (at most 60 s) for the Nth line about it.
hup() {
	kill -HUP "$pid"
	until_ok 60 seen "$1" SIGHUP "$tmpdir/s.err"
}

serve_start s -b --sim clock=real -d 0.2 --serve 127.0.0.1:0
check "hvtop -b --serve starts" test -n "$url"
scrape_after 0 "$tmpdir/s1"
n1=$(om_value hvtop_samples_total "$tmpdir/s1")
hup 1
hup 2
check "two SIGHUPs leave it running" kill -0 "$pid"
check "... each says, in one line, that there is nothing to read again" \
    test "$(grep -c '^hvtop: SIGHUP: nothing to read again (no --web-config); still serving$' \
    "$tmpdir/s.err")" -eq 2
check "... and nothing else" test "$(grep -c SIGHUP "$tmpdir/s.err")" -eq 2
scrape_after "${n1:-0}" "$tmpdir/s2"
n2=$(om_value hvtop_samples_total "$tmpdir/s2")
check "it still answers with the series" \
    grep -q '^hvtop_events_total{' "$tmpdir/s2"
check "... that moved since before the SIGHUPs" \
    test "${n2:-0}" -gt "${n1:-0}"
[ -n "$n2" ] || diag "$(cat "$tmpdir/s.err")"
kill "$pid"
reap "$pid"
check "SIGTERM still ends it (dies of it: 143)" test $? -eq 143
check "... having said nothing else on standard error" \
    test "$(grep -cv -e '^hvtop: serving metrics at ' -e 'SIGHUP' \
    "$tmpdir/s.err")" -eq 0
