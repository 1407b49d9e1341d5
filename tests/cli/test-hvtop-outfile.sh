#!/bin/sh
# Every output file goes through one writer, and what a name is decides
# what is written: for each of hvtop report -o, hvcat build -o, hvtop -b
# -o and hvtop -w,
#   - a character device is written where it is (nodes made here with
#     the numbers of /dev/full and /dev/null, as root; the system's /dev
#     is never touched): the full one says "No space left on device" and
#     exits 1, the null one takes it all, and both stay the nodes they
#     were;
#   - a FIFO is written to its reader and stays a FIFO;
#   - a socket is refused, said so, and stays a socket;
#   - a chain of symbolic links is followed, link by link, and the file
#     at its end replaced beside itself by a new file (a hard link to
#     the old one keeps the old text); a link to nothing creates the
#     file it names; the links stay links;
#   - a new file gets 0666 less the umask; a replaced file keeps its mode.
# hvcat build -o - writes standard output; -o /dev/stdout writes the
# descriptor as the shell opened it (>>log appends).
. "$(dirname "$0")/tap.sh"
plan 93
SIM="--sim clock=virtual,seed=1"
root=0
[ "$(id -u)" = 0 ] && root=1

# w WRITER PATH: the writer writes PATH, for at most 60 s (a FIFO
# nobody reads would wait).
w() {
	case $1 in
	report) timeout 60 "$HVTOP" report "$tmpdir/rec.hvr" -o "$2" ;;
	hvcat) timeout 60 "$HVCAT" build "$tmpdir/cat.json" -o "$2" ;;
	batch) timeout 60 "$HVTOP" $SIM -b -n 3 -o "$2" ;;
	record) timeout 60 "$HVTOP" $SIM -b -n 3 --force -w "$2" >/dev/null ;;
	esac
}

"$HVTOP" $SIM -b -n 5 -w "$tmpdir/rec.hvr" >/dev/null 2>&1
"$HVCAT" dump --json "$DATA/catalog/p8-catalog-v3.bin" >"$tmpdir/cat.json"

# kind PATH: what PATH is, the link itself for a link.
kind() { stat -c %F "$1" 2>/dev/null; }
inode() { stat -L -c %i "$1"; }
mode() { stat -L -c %a "$1"; }

# run WRITER PATH: w, its status in $rc, its stderr in $tmpdir/err.
run() {
	w "$1" "$2" 2>"$tmpdir/err"
	rc=$?
}

# nodes WRITER: the writer on device nodes of its own (root only).
nodes() {
	d=$tmpdir/$1
	if [ "$root" != 1 ]; then
		for n in 1 2 3 4 5; do
			skip "$1: device nodes" "not root: mknod needs root"
		done
		return
	fi
	mknod "$d/full" c 1 7 && mknod "$d/null" c 1 3
	run "$1" "$d/full"
	check "$1 to a full device: exit 1 (got $rc)" test "$rc" = 1
	check "$1 to a full device: says the disk is full" \
	    grep -q "full.*No space left on device" "$tmpdir/err"
	check "$1 to a full device: it stays that device" \
	    test "$(stat -c '%F %t,%T' "$d/full")" = "character special file 1,7"
	run "$1" "$d/null"
	check "$1 to a null device: exit 0 (got $rc)" test "$rc" = 0
	check "$1 to a null device: it stays that device" \
	    test "$(stat -c '%F %t,%T' "$d/null")" = "character special file 1,3"
}

# fifo WRITER: written to the FIFO's reader, the FIFO kept.
fifo() {
	d=$tmpdir/$1
	mkfifo "$d/p"
	cat "$d/p" >"$d/read" &
	reader=$!
	run "$1" "$d/p"
	check "$1 to a FIFO: exit 0 (got $rc)" test "$rc" = 0
	check "$1 to a FIFO: it stays a FIFO" test "$(kind "$d/p")" = fifo
	# A FIFO replaced has left its reader waiting: end it.
	[ "$(kind "$d/p")" = fifo ] || kill "$reader" 2>/dev/null
	reap "$reader" >/dev/null
	check "$1 to a FIFO: the reader has it all" cmp -s "$d/read" "$d/ref"
}

# sock WRITER: a socket is refused and kept.
sock() {
	d=$tmpdir/$1
	python3 -c 'import socket, sys
socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$d/s"
	run "$1" "$d/s"
	check "$1 to a socket: refused (exit $rc)" test "$rc" != 0
	check "$1 to a socket: says it is a socket" \
	    grep -q "s: a socket, which hvtop does not write to" "$tmpdir/err"
	check "$1 to a socket: it stays a socket" test "$(kind "$d/s")" = socket
}

# links WRITER: a chain followed, its end replaced by a new file.
links() {
	d=$tmpdir/$1
	mkdir "$d/sub"
	echo old >"$d/t"
	chmod 640 "$d/t"
	ln "$d/t" "$d/t.old"
	ln -s ../t "$d/sub/l2"
	ln -s sub/l2 "$d/l1"
	before=$(inode "$d/t")
	run "$1" "$d/l1"
	check "$1 through two links: exit 0 (got $rc)" test "$rc" = 0
	check "$1 through two links: they stay links" test \
	    "$(kind "$d/l1"),$(kind "$d/sub/l2")" = "symbolic link,symbolic link"
	check "$1 through two links: the file they name has it all" \
	    cmp -s "$d/t" "$d/ref"
	check "$1 through two links: a new file, not the old one truncated" \
	    test "$(inode "$d/t")" != "$before"
	check "$1 through two links: the old file's other name keeps it" \
	    test "$(cat "$d/t.old")" = old
	check "$1 over a file: it keeps its mode" test "$(mode "$d/t")" = 640
	ln -s made "$d/dangling"
	run "$1" "$d/dangling"
	check "$1 through a link to nothing: exit 0 (got $rc)" test "$rc" = 0
	check "$1 through a link to nothing: creates the file it names" \
	    test "$(kind "$d/dangling"),$(kind "$d/made")" = \
	    "symbolic link,regular file"
}

# umasks WRITER: a new file's mode is 0666 less the umask.
umasks() {
	d=$tmpdir/$1
	(umask 022 && w "$1" "$d/u022" 2>/dev/null)
	check "$1, a new file under umask 022: mode 644" \
	    test "$(mode "$d/u022")" = 644
	(umask 077 && w "$1" "$d/u077" 2>/dev/null)
	check "$1, a new file under umask 077: mode 600" \
	    test "$(mode "$d/u077")" = 600
}

for w in report hvcat batch record; do
	mkdir "$tmpdir/$w"
	# What the writer writes to a file, to compare with.
	run "$w" "$tmpdir/$w/ref"
	check "$w to a new file: exit 0 (got $rc)" test "$rc" = 0
	nodes "$w"
	fifo "$w"
	sock "$w"
	links "$w"
	umasks "$w"
done

# A recording read through a FIFO is a recording.
check "record to a FIFO: the reader's copy checks valid" \
    "$HVCAT" check "$tmpdir/record/read"
# Standard output for "-".
hvcat=$(cd "$(dirname "$HVCAT")" && pwd)/hvcat
(cd "$tmpdir/hvcat" && "$hvcat" build "$tmpdir/cat.json" -o - \
    >"$tmpdir/hvcat/stdout")
check "hvcat build -o -: the catalog on standard output" \
    cmp -s "$tmpdir/hvcat/stdout" "$tmpdir/hvcat/ref"
check "hvcat build -o -: no file named -" test ! -e "$tmpdir/hvcat/-"
# A descriptor named as one is written as the shell opened it.
echo before >"$tmpdir/log"
"$HVTOP" $SIM -b -n 3 -o /dev/stdout >>"$tmpdir/log"
check "-o /dev/stdout >>log: what log held is kept" \
    test "$(head -n 1 "$tmpdir/log")" = before
check "-o /dev/stdout >>log: the run follows it" \
    sh -c 'tail -n +2 "$1" | cmp -s - "$2"' sh "$tmpdir/log" \
    "$tmpdir/batch/ref"
exit $tap_failed
