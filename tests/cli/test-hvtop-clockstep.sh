#!/bin/sh
# A clock that steps back while hvtop samples (libfaketime moving the
# monotonic and the wall clock an hour back) neither stops the sampling
# nor keeps hvtop from answering a signal: after the step the intervals
# go on, and SIGTERM ends the run within a second with the recording
# closed whole.  Without libfaketime the same run checks the plain path.
. "$(dirname "$0")/tap.sh"
plan 8
trap 'rc=$?; kill -KILL $pid 2>/dev/null; tap_end $rc' EXIT
pid=""

# The libfaketime the faketime package installs, if any.
ftlib=""
for f in /usr/lib/*/faketime/libfaketime.so.1 \
    /usr/lib/faketime/libfaketime.so.1; do
	[ -f "$f" ] && ftlib=$f && break
done

# lines FILE: how many lines FILE has.
lines() { wc -l <"$1" 2>/dev/null || echo 0; }

# wait_lines FILE N SECONDS: until FILE has more than N lines.
wait_lines() {
	until_ok "$3" at_least_lines $(($2 + 1)) "$1" && return 0
	diag "$1 still has $(lines "$1") lines"
	return 1
}

# exits_within PID SECONDS: the process is gone before the deadline.
exits_within() {
	until_ok "$2" gone "$1" && return 0
	diag "pid $1 still runs $2 s after SIGTERM"
	return 1
}

# run_step NAME: sample every 0.2 s recording, step the clock back an
# hour after a few intervals, then SIGTERM.
run_step() {
	echo "+0" >"$tmpdir/faketime"
	out=$tmpdir/$1.txt
	if [ -n "$ftlib" ]; then
		# An ASan runtime need not come first for this run.
		LD_PRELOAD=$ftlib FAKETIME_TIMESTAMP_FILE=$tmpdir/faketime \
		    FAKETIME_NO_CACHE=1 \
		    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
		    "$HVTOP" -b -d 0.2 --format csv -w "$tmpdir/$1.hvr" \
		    >"$out" 2>"$tmpdir/$1.err" &
	else
		"$HVTOP" -b -d 0.2 --format csv -w "$tmpdir/$1.hvr" \
		    >"$out" 2>"$tmpdir/$1.err" &
	fi
	pid=$!
	wait_lines "$out" 5 20 || return 1
	echo "-3600" >"$tmpdir/faketime"
	# Intervals go on after the step.
	n=$(lines "$out")
	wait_lines "$out" $((n + 24)) 20 || return 1
	return 0
}

if [ -n "$ftlib" ]; then
	what="the clock stepped an hour back"
else
	what="a steady clock (libfaketime is not installed)"
fi
check "$what: intervals go on after the step" run_step step
kill -TERM "$pid"
check "$what: SIGTERM ends hvtop within 1 s" exits_within "$pid" 1
kill -KILL "$pid" 2>/dev/null
wait "$pid"
rc=$?
pid=""
check "$what: SIGTERM's exit status after SIGTERM (got $rc)" \
    test "$rc" -eq 143
info=$("$HVCAT" info "$tmpdir/step.hvr" 2>&1)
check "$what: the recording is closed" \
    sh -c 'printf "%s\n" "$1" | grep -Eq "^closed +yes"' sh "$info"
check "$what: the recording holds samples" \
    sh -c 'printf "%s\n" "$1" | grep -Eq "^samples +[1-9]"' sh "$info"
check "$what: nothing on standard error" test ! -s "$tmpdir/step.err"

# A long interval: SIGINT in the middle of its sleep ends it.
"$HVTOP" -b -d 30 -w "$tmpdir/long.hvr" >/dev/null 2>"$tmpdir/long.err" &
pid=$!
until_ok 20 test -s "$tmpdir/long.hvr"
kill -INT "$pid"
check "a 30 s interval: SIGINT ends hvtop within 1 s" exits_within "$pid" 1
kill -KILL "$pid" 2>/dev/null
wait "$pid"
pid=""
check "a 30 s interval: the recording is closed" \
    sh -c '"$1" info "$2" 2>&1 | grep -Eq "^closed +yes"' sh "$HVCAT" \
    "$tmpdir/long.hvr"
exit $tap_failed
