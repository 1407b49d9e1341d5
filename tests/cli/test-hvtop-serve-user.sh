#!/bin/sh
# hvtop --serve --user NAME: started as root, hvtop opens the source and
# the socket, then becomes NAME for good.  The running process has NAME's
# uid, gid and groups in every slot of /proc/PID/status and no capability
# in any set, keeps serving counters that move, and a catalog version
# change after the change of user reopens the source as before.  Without
# root, or with a user that does not exist, hvtop says so and stops.  The
# part that needs root is a visible SKIP without it.
. "$(dirname "$0")/tap.sh"
plan 20

"$HVTOP" -b -n 1 --sim clock=virtual --user nobody >/dev/null \
    2>"$tmpdir/nos.err"
check "--user without --serve is a usage error (exit 2)" test $? -eq 2
check "... which says --user needs --serve" \
    grep -q -- '--user: only a --serve run' "$tmpdir/nos.err"

"$HVTOP" -b -n 1 --sim clock=virtual --serve 127.0.0.1:0 \
    --user hvtop-no-such-user >/dev/null 2>"$tmpdir/nouser.err"
st=$?
if [ "$(id -u)" -eq 0 ]; then
	check "an unknown user: exit 1" test $st -eq 1
	check "... naming it" grep -q \
	    -- '--user hvtop-no-such-user: no such user' "$tmpdir/nouser.err"
else
	check "not root: exit 1" test $st -eq 1
	check "... saying only root can change user" \
	    grep -q 'only root can become another user' "$tmpdir/nouser.err"
fi

if [ "$(id -u)" -ne 0 ]; then
	while [ "$tap_n" -lt 20 ]; do
		skip "--user as root" "the test does not run as root"
	done
	exit 0
fi
if ! have curl; then
	while [ "$tap_n" -lt 20 ]; do
		skip "--user" "curl is not installed (apt-get install curl)"
	done
	exit 0
fi

# Without root, --user is refused before anything is opened.
if have setpriv; then
	setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups \
	    "$HVTOP" -b -n 1 --sim clock=virtual --serve 127.0.0.1:0 \
	    --user nobody >/dev/null 2>"$tmpdir/nonroot.err"
	check "not root: exit 1" test $? -eq 1
	check "... saying only root can change user" \
	    grep -q 'only root can become another user' "$tmpdir/nonroot.err"
else
	skip "not root" "setpriv is not installed (util-linux)"
	skip "not root" "setpriv is not installed (util-linux)"
fi
"$HVTOP" -b -n 1 --sim clock=virtual --serve 127.0.0.1:0 --user root \
    >/dev/null 2>"$tmpdir/root.err"
check "--user root is refused (exit 1)" test $? -eq 1

# It serves first, then changes user: wait for both.
serve_start u -b --sim clock=real,faults=version-change@15 -d 0.2 \
    --serve 127.0.0.1:0 --user nobody
# as_nobody: hvtop says it runs as nobody, or it has ended.
as_nobody() {
	grep -q '^hvtop: running as nobody' "$tmpdir/u.err" ||
	    ! kill -0 "$pid" 2>/dev/null
}
if [ -n "$url" ]; then
	until_ok 60 as_nobody
	grep -q '^hvtop: running as nobody' "$tmpdir/u.err" || url=""
fi
check "hvtop --serve --user nobody starts and says so" test -n "$url"
[ -n "$url" ] || diag "$(cat "$tmpdir/u.err")"

scrape_after 1 "$tmpdir/s1"
n1=$(om_value hvtop_samples_total "$tmpdir/s1")
scrape_after "${n1:-0}" "$tmpdir/s2"
n2=$(om_value hvtop_samples_total "$tmpdir/s2")
check "after the change of user it serves counters" \
    grep -q '^hvtop_events_total{' "$tmpdir/s2"
check "... that move from one scrape to the next" \
    test "${n2:-0}" -gt "${n1:-0}"

st="/proc/$pid/status"
uid=$(id -u nobody)
gid=$(id -g nobody)
groups=$(id -G nobody | tr ' ' '\n' | sort -n | tr '\n' ' ')
check "every uid is nobody's ($uid)" awk -v u="$uid" '
    $1 == "Uid:" { exit !($2 == u && $3 == u && $4 == u && $5 == u) }' "$st"
check "every gid is nobody's ($gid)" awk -v g="$gid" '
    $1 == "Gid:" { exit !($2 == g && $3 == g && $4 == g && $5 == g) }' "$st"
have_groups=$(awk '$1 == "Groups:" { for (i = 2; i <= NF; i++) print $i }' \
    "$st" | sort -n | tr '\n' ' ')
check "the groups are nobody's ($groups)" test "$have_groups" = "$groups"
check "CapEff, CapPrm, CapInh and CapAmb are all zero" awk '
    $1 ~ /^Cap(Eff|Prm|Inh|Amb):$/ { n++; if ($2 !~ /^0+$/) bad = 1 }
    END { exit bad || n != 4 }' "$st"
check "no new privileges either (NoNewPrivs: 1)" \
    grep -q '^NoNewPrivs:[[:space:]]*1$' "$st"
# The HTTP server's thread too: ids, capabilities and no_new_privs are
# a thread's own, and a thread started before the change keeps its own.
tasks=0
bad=""
for ts in /proc/"$pid"/task/*/status; do
	tasks=$((tasks + 1))
	awk -v u="$uid" '
	    $1 == "Uid:" { ok += ($2 == u && $3 == u && $4 == u && $5 == u) }
	    $1 ~ /^Cap(Eff|Prm|Inh|Amb):$/ { ok += ($2 ~ /^0+$/) }
	    $1 == "NoNewPrivs:" { ok += ($2 == 1) }
	    END { exit ok != 6 }' "$ts" || bad="$bad ${ts%/status}"
done
check "each of its $tasks threads is nobody's, without a capability, with NoNewPrivs" \
    test "$tasks" -ge 2 -a -z "$bad"
[ -z "$bad" ] || diag "threads that are not:$bad"
[ -n "$pid" ] && grep -E '^(Uid|Gid|Groups|Cap|NoNew)' "$st" |
    while read -r l; do diag "$l"; done

# The catalog changes at interval 15: the source is reopened as nobody.
until_ok 60 grep -q 'catalog version changed' "$tmpdir/u.err"
check "a catalog version change after the change of user is followed" \
    grep -q 'catalog version changed from 1 to 2' "$tmpdir/u.err"
n3=$(om_value hvtop_samples_total "$tmpdir/s2")
scrape_after "${n3:-0}" "$tmpdir/s3"
scrape_after "$(om_value hvtop_samples_total "$tmpdir/s3")" "$tmpdir/s4"
check "... and it serves counters after it" \
    grep -q '^hvtop_events_total{' "$tmpdir/s4"
check "hvtop is still running" kill -0 "$pid"
kill "$pid"
wait "$pid"
check "SIGTERM ends it, which dies of it (143)" test $? -eq 143
