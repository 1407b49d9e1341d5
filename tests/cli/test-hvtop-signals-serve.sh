#!/bin/sh
# SIGTERM ends hvtop -b --serve at once while it waits on its web
# configuration or on a password: a SIGHUP that reads the file again
# when it has become a FIFO whose writer never writes (refused as no
# regular file, or read in a way a signal ends), and a bcrypt hash of
# cost 31 (hours of work) that a wrong password makes a thread compute.  Each run ends within 10 s with SIGTERM's status and
# the recording closed.  Every wait polls with a deadline; a run that
# hangs is killed, and fails.
. "$(dirname "$0")/tap.sh"
plan 9

have curl || { for i in 1 2 3 4 5 6 7 8 9; do
	skip "signals and --serve $i" "curl is not installed"; done; exit 0; }

# term NAME: SIGTERM to $pid ends it within 10 s, with status 143 and
# its recording $tmpdir/NAME.hvr closed.
term() {
	kill -TERM "$pid"
	check "$1: SIGTERM ends hvtop within 10 s" until_ok 10 gone "$pid"
	reap "$pid" 5
	rc=$?
	check "$1: exit status 143 (got $rc)" test "$rc" = 143
	check "$1: the recording is closed" \
	    sh -c '"$1" info "$2" 2>&1 | grep -Eq "^closed +yes"' sh \
	    "$HVCAT" "$tmpdir/$1.hvr"
}

# A 22-character salt and a 31-character hash of bcrypt's alphabet: any
# password is hashed against it at the cost it names.
salt=abcdefghijklmnopqrstuv
sum=ABCDEFGHIJKLMNOPQRSTUVWXYZ01234

# The web configuration turns into a FIFO whose writer never writes;
# SIGHUP reads it.
printf 'basic_auth_users:\n  prometheus: $2b$04$%s%s\n' "$salt" "$sum" \
    >"$tmpdir/web.yml"
serve_start fifo -b -d 0.2 --sim clock=real --serve 127.0.0.1:0 \
    --web-config "$tmpdir/web.yml" -w "$tmpdir/fifo.hvr"
check "web configuration: hvtop serves" test -n "$url"
rm -f "$tmpdir/web.yml"
mkfifo "$tmpdir/web.yml"
# Opened for reading and writing, it has its writer before hvtop opens it.
sleep 600 <>"$tmpdir/web.yml" &
pids="$pids $!"
kill -HUP "$pid"
# It is refused as no regular file, or read, and then the read waits.
reading() {
	ls -l "/proc/$pid/fd" 2>/dev/null | grep -q "web.yml" ||
	    grep -q "SIGHUP: .*not a regular file" "$tmpdir/fifo.err"
}
check "web configuration: SIGHUP refuses or reads the FIFO" \
    until_ok 30 reading
term fifo

# A password hashed at cost 31 on the server's thread.
printf 'basic_auth_users:\n  prometheus: $2b$31$%s%s\n' "$salt" "$sum" \
    >"$tmpdir/web31.yml"
serve_start hash -b -d 0.2 --sim clock=real --serve 127.0.0.1:0 \
    --web-config "$tmpdir/web31.yml" -w "$tmpdir/hash.hvr"
curl -s -m 600 -o /dev/null -u 'prometheus:wrong' "$url" &
pids="$pids $!"
# A thread of the server's (not the first) has hashed for a second of CPU.
hashing() {
	for _t in /proc/"$pid"/task/*; do
		[ "${_t##*/}" = "$pid" ] && continue
		_u=$(awk '{ print $14 }' "$_t/stat" 2>/dev/null)
		[ -n "$_u" ] && [ "$_u" -ge 100 ] && return 0
	done
	return 1
}
check "bcrypt of cost 31: a thread hashes" until_ok 60 hashing
term hash
exit $tap_failed
