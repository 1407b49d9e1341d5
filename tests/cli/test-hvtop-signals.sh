#!/bin/sh
# SIGTERM, SIGINT and SIGHUP end a batch run at once even while hvtop
# waits on a file that never answers: -o or -w a FIFO nobody opens,
# standard output into a reader that never reads, a sysfs catalog that
# is a FIFO without a writer, a sysfs file whose writer never writes.
# Each run ends with the signal's exit status (128 + N) and a recording
# it made is closed, readable to its last record.  Every wait polls with
# a deadline; the runs that hang are killed, and fail the check.
. "$(dirname "$0")/tap.sh"
plan 18

sysfs=$DATA/sysfs/hvtop-p8/sys

# signal_run NAME SIG NUM: send SIG (number NUM) to $pid once its
# handlers are in; checks that it ends within 10 s with 128 + NUM.
signal_run() {
	if ! until_ok 30 caught "$pid" "$3"; then
		fail "$1: hvtop started"
	else
		pass "$1: hvtop started"
	fi
	kill -"$2" "$pid" 2>/dev/null
	check "$1: SIG$2 ends hvtop within 10 s" until_ok 10 gone "$pid"
	reap "$pid" 5
	rc=$?
	check "$1: exit status $((128 + $3)) (got $rc)" test "$rc" = $((128 + $3))
}

# closed FILE: hvcat reads the recording as closed whole.
closed() {
	"$HVCAT" info "$1" 2>&1 | grep -Eq '^closed +yes'
}

# -o a FIFO nobody opens: hvtop waits for a reader.
mkfifo "$tmpdir/out.txt"
"$HVTOP" -b -d 0.1 -o "$tmpdir/out.txt" -w "$tmpdir/o.hvr" \
    2>"$tmpdir/o.err" &
pid=$!
# The recording has its name once its preamble is written, before -o
# is opened.
until_ok 30 test -s "$tmpdir/o.hvr"
signal_run "-o FIFO" TERM 15
check "-o FIFO: the recording is closed" closed "$tmpdir/o.hvr"

# -w a FIFO nobody opens.
mkfifo "$tmpdir/rec.fifo"
"$HVTOP" -b -d 0.1 -w "$tmpdir/rec.fifo" >/dev/null 2>"$tmpdir/w.err" &
pid=$!
signal_run "-w FIFO" INT 2

# Standard output into a reader that never reads: once the pipe is full
# (16 pages, some 10 intervals) every write waits.  hvtop is there when
# what it wrote, less the recording, is past half of 64 KiB and it writes
# no more.
mkfifo "$tmpdir/stdout.fifo"
sleep 600 <"$tmpdir/stdout.fifo" &
reader=$!
pids="$pids $reader"
"$HVTOP" -b -d 0.01 -w "$tmpdir/p.hvr" >"$tmpdir/stdout.fifo" \
    2>"$tmpdir/p.err" &
pid=$!
wchar() { awk '/^wchar:/ { print $2 }' "/proc/$pid/io" 2>/dev/null; }
full() {
	_w=$(wchar)
	_r=$(wc -c <"$tmpdir/p.hvr" 2>/dev/null || echo 0)
	[ -n "$_w" ] && [ $((_w - _r)) -ge 32768 ] || return 1
	sleep 0.5
	[ "$(wchar)" = "$_w" ]
}
check "stdout into a pipe nobody reads: it fills" until_ok 30 full
signal_run "stdout into a pipe nobody reads" HUP 1
check "stdout into a pipe nobody reads: the recording is closed" \
    closed "$tmpdir/p.hvr"
kill "$reader" 2>/dev/null

# A sysfs catalog that blocks: a FIFO without a writer in its place.
cp -R "$sysfs" "$tmpdir/sys"
iface=$tmpdir/sys/bus/event_source/devices/hv_24x7/interface
rm -f "$iface/catalog"
mkfifo "$iface/catalog"
"$HVTOP" -b --source perf --sysfs-root "$tmpdir/sys" -d 0.1 \
    >/dev/null 2>"$tmpdir/c.err" &
pid=$!
signal_run "a sysfs catalog that blocks" TERM 15

# A sysfs file whose writer holds it open and never writes.
rm -f "$iface/catalog"
cp "$sysfs/bus/event_source/devices/hv_24x7/interface/catalog" \
    "$iface/catalog"
rm -f "$iface/catalog_version"
mkfifo "$iface/catalog_version"
# Opened for reading and writing, it has its writer before hvtop opens it.
sleep 600 <>"$iface/catalog_version" &
writer=$!
pids="$pids $writer"
"$HVTOP" -b --source perf --sysfs-root "$tmpdir/sys" -d 0.1 \
    >/dev/null 2>"$tmpdir/v.err" &
pid=$!
signal_run "a sysfs file whose writer never writes" TERM 15
kill "$writer" 2>/dev/null
exit $tap_failed
