#!/bin/sh
# hvtop --serve --web-config FILE: Basic auth that holds, judged by curl.
# A reload (SIGHUP) of a file emptied, left with comments only, or
# replaced by a FIFO is refused and the users stay (an endpoint that
# asked for a password never stops asking); a web configuration that is
# not a regular file is refused at start; a password with a NUL byte is
# not the part before it; two Authorization fields get a 400, as two
# Content-Lengths do.  A hash of cost 31 (days) runs beside the server,
# which goes on answering and ends at once on SIGTERM; an address that
# sends wrong passwords gets 429 after a few, and is forgiven in time.
# What the machine lacks is a visible SKIP.
. "$(dirname "$0")/tap.sh"
plan 23

skip_rest() {
	while [ "$tap_n" -lt 23 ]; do
		skip "$1" "$2"
	done
	exit 0
}

mkfifo "$tmpdir/fifo.yml"
"$HVTOP" -b -n 1 --sim clock=virtual --serve 127.0.0.1:0 \
    --web-config "$tmpdir/fifo.yml" >/dev/null 2>"$tmpdir/fifo.err"
check "a FIFO as --web-config is refused at start (exit 1)" test $? -eq 1
check "... saying it is not a regular file" \
    grep -q "fifo.yml: not a regular file (a FIFO)" "$tmpdir/fifo.err"

have curl || skip_rest "Basic auth" "curl is not installed"
have perl || skip_rest "Basic auth" "perl is not installed"

# bcrypt PASSWORD: a $2b$ hash of cost 4 through the system's crypt(3).
bcrypt() {
	perl -e '
	    my @c = ("a".."z", "A".."Z", "0".."9", ".", "/");
	    my $s = join "", map { $c[int rand 64] } 1..21;
	    print crypt($ARGV[0], "\$2b\$04\$" . $s . "u")' "$1"
}
h=$(bcrypt 'pw')
printf 'basic_auth_users:\n  prometheus: %s\n' "$h" >"$tmpdir/web.yml"
cp "$tmpdir/web.yml" "$tmpdir/web.good"
serve_start a -b --sim clock=real -d 0.2 --serve 127.0.0.1:0 \
    --web-config "$tmpdir/web.yml"
check "hvtop serves with Basic auth" test -n "$url"
[ -n "$url" ] || { diag "$(cat "$tmpdir/a.err")"; skip_rest "auth" "no url"; }

# code CURL-ARGS...: the status curl gets.
code() { curl -s -m 20 -o /dev/null -w '%{http_code}' "$@" "$url"; }
# hup N: SIGHUP, then wait (60 s at most) for the Nth SIGHUP line.
hup() {
	kill -HUP "$pid"
	until_ok 60 at_least_lines "$1" "$tmpdir/a.err" SIGHUP
}

: >"$tmpdir/web.yml"
hup 1
check "SIGHUP with the file emptied is refused, the users kept" \
    grep -q 'SIGHUP: .*no basic_auth_users.*cannot turn Basic auth off' \
    "$tmpdir/a.err"
check "... and no credentials still get 401" test "$(code)" = 401
printf '# nobody\n\n---\n' >"$tmpdir/web.yml"
hup 2
check "SIGHUP with comments only is refused too" \
    test "$(grep -c 'cannot turn Basic auth off' "$tmpdir/a.err")" -eq 2
check "... and no credentials still get 401" test "$(code)" = 401
rm "$tmpdir/web.yml"
mkfifo "$tmpdir/web.yml"
hup 3
check "SIGHUP with the file a FIFO is refused: not a regular file" \
    grep -q 'SIGHUP: .*web.yml: not a regular file (a FIFO)' "$tmpdir/a.err"
check "... and no credentials still get 401" test "$(code)" = 401
check "the password still works" test "$(code -u prometheus:pw)" = 200
rm "$tmpdir/web.yml"
cp "$tmpdir/web.good" "$tmpdir/web.yml"

# A NUL byte in the password: "pw\0junk" is not "pw".
nul=$(printf 'prometheus:pw\000junk' | base64 | tr -d '\n')
check "a password with a NUL byte after the right one gets 401" \
    test "$(code -H "Authorization: Basic $nul")" = 401
ok=$(printf 'prometheus:pw' | base64 | tr -d '\n')
bad=$(printf 'prometheus:nope' | base64 | tr -d '\n')
check "two Authorization fields get 400" test "$(code \
    -H "Authorization: Basic $ok" -H "Authorization: Basic $bad")" = 400
check "... whichever comes first" test "$(code \
    -H "Authorization: Basic $bad" -H "Authorization: Basic $ok")" = 400
check "one Authorization field with the password: 200" \
    test "$(code -H "Authorization: Basic $ok")" = 200

kill "$pid"
reap "$pid"
check "SIGTERM ends it (dies of it: 143)" test $? -eq 143

# Users of cost 31: crypt(3) would take days for one of their passwords.
slow='$2b$31$abcdefghijklmnopqrstuuqflPDzB6gcMhKa1rZqKiun2YGL5sa2u'
printf 'basic_auth_users:\n  prometheus: %s\n  slow: %s\n  slow2: %s\n' \
    "$h" "$slow" "$slow" >"$tmpdir/slow.yml"
serve_start b -b --sim clock=real -d 0.2 --serve 127.0.0.1:0 \
    --web-config "$tmpdir/slow.yml"
check "the right password: 200" test "$(code -u prometheus:pw)" = 200
curl -s -m 60 -o /dev/null -u slow:x "$url" &
c1=$!
curl -s -m 60 -o /dev/null -u nobody:x "$url" &
c2=$!
# Both hashes are running (or the second queued) when the answers below
# come; 20 s is curl's limit for each, far above an answer's time.
check "with two hashes of cost 31 running, the scraper still gets 200" \
    test "$(code -u prometheus:pw)" = 200
check "... and no credentials still a 401" test "$(code)" = 401
kill -TERM "$pid"
reap "$pid" 30
check "SIGTERM ends it at once, the hashes unfinished (dies of it: 143)" \
    test $? -eq 143
kill "$c1" "$c2" 2>/dev/null
wait "$c1" "$c2" 2>/dev/null

# Wrong passwords from one address: 401s, then 429s without a hash.
serve_start c -b --sim clock=real -d 0.2 --serve 127.0.0.1:0 \
    --web-config "$tmpdir/web.yml"
n=0
st=401
gap=0
while [ "$n" -lt 60 ] && [ "$st" = 401 ]; do
	t0=$(date +%s%N)
	[ "$n" = 0 ] || [ $((t0 - tp)) -lt 1000000000 ] || gap=1
	tp=$t0
	st=$(code -u prometheus:wrong)
	[ "$n" != 0 ] || { fs=$t0; fe=$(date +%s%N); }
	n=$((n + 1))
done
check "wrong passwords get 401, then 429 (after $n)" test "$st" = 429
# One failure is forgiven a second, on ticks a whole number of seconds
# after the first failure (which the server saw between fs and fe): the
# right password is refused while the failures stand.  It proves that
# only when no tick can have come between the 429 (sent at t0) and its
# answer (t1), and when no pause of a second among the wrong ones can
# have forgiven them all and moved the ticks.
st=$(code -u prometheus:pw)
t1=$(date +%s%N)
k=$(((t0 - fe) / 1000000000))
if [ "$gap" = 1 ] || [ $((t0 - fe)) -lt 0 ] ||
    [ "$t1" -ge $((fs + (k + 1) * 1000000000)) ]; then
	skip "... and then the right one is refused too, 429" \
	    "a failure may have been forgiven in the" \
	    "$(((t1 - t0) / 1000000)) ms after the 429"
else
	check "... and then the right one is refused too, 429 (got $st)" \
	    test "$st" = 429
fi
# let_in: the right password gets 200.
let_in() { [ "$(code -u prometheus:pw)" = 200 ]; }
until_ok 30 let_in
check "... until its failures are forgiven: 200" \
    test "$(code -u prometheus:pw)" = 200
kill "$pid"
reap "$pid"
check "SIGTERM ends it (dies of it: 143)" test $? -eq 143
