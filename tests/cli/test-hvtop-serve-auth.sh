#!/bin/sh
# hvtop --serve --web-config FILE: Basic auth that holds, judged by curl.
# A reload (SIGHUP) of a file emptied, left with comments only, or
# replaced by a FIFO is refused and the users stay (an endpoint that
# asked for a password never stops asking); a web configuration that is
# not a regular file is refused at start.  What the machine lacks is a
# visible SKIP.
. "$(dirname "$0")/tap.sh"
plan 10

skip_rest() {
	while [ "$tap_n" -lt 10 ]; do
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
	_end=$(($(date +%s) + 60))
	while [ "$(grep -c 'SIGHUP' "$tmpdir/a.err")" -lt "$1" ] &&
	    [ "$(date +%s)" -le "$_end" ]; do
		sleep 0.1
	done
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
