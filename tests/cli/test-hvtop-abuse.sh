#!/bin/sh
# hvtop under abuse: replaying what is not a recording (devices, a FIFO, a
# directory, a large sparse file) is refused at once with bounded memory;
# SIGTERM and SIGINT stop a batch run without waiting for the interval and
# close the recording; a reader closing the pipe closes it too; -w never
# writes over the recording being replayed, nor over a file without
# --force.
. "$(dirname "$0")/tap.sh"
SIM="--sim clock=virtual,seed=7"
plan 54

# run_mem OUT ERR CMD...: run CMD with a deadline of 60 s (a hang is
# killed) and its address space capped (unless built with ASan, which
# reserves a lot of it); write "STATUS MAXRSS_KB" to OUT.
have_py=0
command -v python3 >/dev/null 2>&1 && have_py=1
run_mem() {
	out=$1 err=$2
	shift 2
	python3 - "$out" "$err" "$@" <<'PY'
import resource, subprocess, sys
out, err, cmd = sys.argv[1], sys.argv[2], sys.argv[3:]
with open(cmd[0], "rb") as f:
    asan = b"__asan_init" in f.read()
def cap():
    if not asan:
        lim = 1 << 30
        resource.setrlimit(resource.RLIMIT_AS, (lim, lim))
with open(err, "wb") as e:
    try:
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=e,
                           stdin=subprocess.DEVNULL, preexec_fn=cap,
                           timeout=60)
        st = p.returncode
    except subprocess.TimeoutExpired:
        st = "hang"
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
with open(out, "w") as o:
    o.write("%s %d\n" % (st, rss))
PY
}

mkfifo "$tmpdir/fifo"
mkdir "$tmpdir/dir"
truncate -s 2G "$tmpdir/sparse" 2>/dev/null
# A sparse file that starts like a recording and holds nothing else
# (smaller: it is mapped, and the address space is capped).
printf '\211HVR\r\n\032\n' >"$tmpdir/magic"
truncate -s 512M "$tmpdir/magic" 2>/dev/null
for f in /dev/zero /dev/urandom "$tmpdir/fifo" "$tmpdir/dir" \
    "$tmpdir/sparse" "$tmpdir/magic"; do
	n=${f##*/}
	for prog in hvtop hvcat; do
		if [ $have_py = 0 ] || [ ! -e "$f" ]; then
			skip "$prog on $n" "python3 or truncate is missing"
			skip "$prog on $n: memory" "python3 is missing"
			continue
		fi
		if [ $prog = hvtop ]; then
			run_mem "$tmpdir/st" "$tmpdir/err" "$HVTOP" -b -r "$f" \
			    -o /dev/null
		else
			run_mem "$tmpdir/st" "$tmpdir/err" "$HVCAT" info "$f"
		fi
		read -r st rss <"$tmpdir/st"
		diag "$prog $n: status $st, max RSS $rss KiB: $(head -1 "$tmpdir/err")"
		check "$prog on $n: refused with exit 1 and the name" \
		    eval 'test "$st" = 1 && grep -q "$n" "$tmpdir/err"'
		check "$prog on $n: memory stays bounded" test "$rss" -lt 200000
	done
done

# wait_exit PID SECS: wait for PID to end, at most SECS; its status in $st.
wait_exit() {
	if ! until_ok "$2" gone "$1"; then
		kill -KILL "$1" 2>/dev/null
		wait "$1" 2>/dev/null
		st=hang
		return 1
	fi
	wait "$1"
	st=$?
}
# wait_started FILE: wait until the recording has its header, its
# selection: hvtop took its signals long before (main's first steps),
# and now reads its first sample and waits out its interval.  (A sample
# shows in the file only at the end of an interval, which this test must
# not wait for: a recording of -d 86400 would show none.)
started() { "$HVCAT" info "$1" 2>/dev/null | grep -q '^selection '; }
wait_started() { until_ok 30 started "$1"; }

# A signal ends a batch run at once, whatever the interval, and the
# recording is closed with its END record; hvtop then dies of the signal.
for d in 30 86400; do
	for sig in TERM INT; do
		r="$tmpdir/sig-$d-$sig.hvr"
		"$HVTOP" -b -d $d --sim clock=real,seed=7 -w "$r" \
		    -o "$tmpdir/sig.csv" 2>/dev/null &
		pid=$!
		check "SIG$sig with -d $d: the recording is started" \
		    wait_started "$r"
		kill -$sig $pid
		wait_exit $pid 5
		want=143
		[ $sig = INT ] && want=130
		check "SIG$sig with -d $d: hvtop ends within 5 s (status $want)" \
		    test "$st" = $want
		check "SIG$sig with -d $d: the recording is closed" \
		    eval '"$HVCAT" info "$r" | grep -q "^closed  *yes"'
	done
done

# A reader that goes away ends the run and the recording is closed; hvtop
# still dies of the SIGPIPE, as a program writing to a closed pipe does.
{ "$HVTOP" -b $SIM -w "$tmpdir/p.hvr" 2>/dev/null; echo $? >"$tmpdir/pst"; } |
    head -3 >/dev/null
check "a closed pipe ends the run with SIGPIPE's status" \
    test "$(cat "$tmpdir/pst")" = 141
check "a closed pipe leaves the recording closed" \
    eval '"$HVCAT" info "$tmpdir/p.hvr" | grep -q "^closed  *yes"'

# -w over the recording being replayed, under its name or a symlink.
"$HVTOP" -b -n 20 $SIM -w "$tmpdir/r.hvr" -o /dev/null
cp "$tmpdir/r.hvr" "$tmpdir/s.hvr"
ln -s s.hvr "$tmpdir/link.hvr"
"$HVTOP" -b -r "$tmpdir/s.hvr" -w "$tmpdir/s.hvr" -n 5 >/dev/null \
    2>"$tmpdir/err"
check "-r F -w F is a usage error" test $? = 2
check "... saying why" grep -q 'recording being replayed' "$tmpdir/err"
check "... and F is untouched" cmp -s "$tmpdir/r.hvr" "$tmpdir/s.hvr"
"$HVTOP" -b -r "$tmpdir/s.hvr" -w "$tmpdir/link.hvr" --force -n 5 \
    >/dev/null 2>&1
check "-w through a symlink to it is refused even with --force" test $? = 2
check "... and F is untouched" cmp -s "$tmpdir/r.hvr" "$tmpdir/s.hvr"
"$HVTOP" -b -r "$tmpdir/link.hvr" -w "$tmpdir/s.hvr" --force -n 5 \
    >/dev/null 2>&1
check "-r through a symlink, -w the file: refused" test $? = 2
cp "$tmpdir/r.hvr" "$tmpdir/keep.hvr"
"$HVTOP" -b -n 2 $SIM -w "$tmpdir/keep.hvr" -o /dev/null 2>"$tmpdir/err"
check "-w an existing file without --force is a usage error" test $? = 2
check "... naming --force" grep -q -- '--force' "$tmpdir/err"
check "... and the file is untouched" cmp -s "$tmpdir/r.hvr" \
    "$tmpdir/keep.hvr"
"$HVTOP" -b -n 2 $SIM -w "$tmpdir/keep.hvr" --force -o /dev/null
check "--force writes over it" test $? = 0
check "... a whole new recording" \
    eval '"$HVCAT" info "$tmpdir/keep.hvr" | grep -q "^samples  *3,"'
"$HVTOP" -b -r "$tmpdir/s.hvr" -w "$tmpdir/new.hvr" -n 5 >/dev/null
check "a replay recorded under a new name works" test $? = 0
"$HVTOP" -b -n 2 $SIM -w /dev/null -o /dev/null
check "-w /dev/null needs no --force" test $? = 0
"$HVTOP" --help | grep -q -- '--force'
check "--help names --force" test $? = 0

# --force replaces the file, it does not truncate it: a reader that has
# the old recording open (a replay maps it) still reads all of it.
"$HVTOP" -b -n 40 $SIM -w "$tmpdir/old.hvr" -o /dev/null
cp "$tmpdir/old.hvr" "$tmpdir/old.copy"
exec 3<"$tmpdir/old.hvr"
"$HVTOP" -b -n 2 $SIM -w "$tmpdir/old.hvr" --force -o /dev/null
cat <&3 >"$tmpdir/old.seen"
exec 3<&-
check "--force: a reader of the old recording still reads it whole" \
    cmp -s "$tmpdir/old.seen" "$tmpdir/old.copy"
check "... and the name holds the new one" \
    test "$(wc -c <"$tmpdir/old.hvr")" -lt "$(wc -c <"$tmpdir/old.copy")"
exit $tap_failed
