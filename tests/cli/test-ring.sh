#!/bin/sh
# A ring recording (-w DIR --ring-size SIZE): the directory stays within
# its budget over hours of virtual-clock samples with rotations by size
# and by time; a writer killed at points drawn from fixed seeds leaves
# every segment whole up to its last record and the directory within the
# budget plus one segment; a full disk stops the recording alone.
. "$(dirname "$0")/tap.sh"
SIM="--sim clock=virtual,seed=1"
plan 24

# bytes DIR: the sizes of every file in DIR, summed.
bytes() { find "$1" -type f -exec cat {} + | wc -c; }
# gaps INFO: the gap lines of an hvcat info listing.
gaps() { grep -c '^  gap:' "$1"; }

# Size: 1M in segments of 128K, about 8 minutes of samples each.
r=$tmpdir/size
"$HVTOP" -b $SIM -d 1 -n 4000 -w "$r" --ring-size 1M -o /dev/null
check "a ring of 1M records 4000 samples" test $? = 0
n=$(ls "$r" | wc -l)
diag "$n segments, $(bytes "$r") bytes"
check "the oldest segments went: $n left" test "$n" -ge 6 -a "$n" -le 9
check "the directory holds at most 1M" test "$(bytes "$r")" -le 1048576
"$HVCAT" info "$r" >"$tmpdir/size.info"
check "hvcat info DIR reads every segment whole" test $? = 0
check "no gap between the segments of one run" \
    test "$(gaps "$tmpdir/size.info")" = 0
check "every segment is closed" \
    test "$(grep -c ' closed$' "$tmpdir/size.info")" = "$n"
# A link under a segment's name is not a segment: its target is never
# read as one.
ln -s /dev/zero "$r/hvtop-20991231T235959Z-999999.hvrec"
"$HVCAT" info "$r" >"$tmpdir/link.info" 2>&1
check "a link named like a segment is left out of hvcat info" \
    test "$(grep -c '^ring .*: '"$n"' segments$' "$tmpdir/link.info")" = 1
rm -f "$r/hvtop-20991231T235959Z-999999.hvrec"

# Time: four hours at 10 s in 4M take a segment an hour.
r=$tmpdir/time
"$HVTOP" -b $SIM -d 10 -n 1440 -w "$r" --ring-size 4M -o /dev/null
n=$(ls "$r" | wc -l)
check "four hours at 10 s make a segment an hour: $n" test "$n" = 4
first=$(ls "$r" | head -1)
check "a segment is named for its start" \
    test "$first" = hvtop-20260101T000000Z-000000.hvrec

# kill -9 at points drawn from fixed seeds, rotations included.
for seed in 3 5 8; do
	r=$tmpdir/kill$seed
	"$HVTOP" -b $SIM -d 1 -n 1000000 -w "$r" --ring-size 1M \
	    -o /dev/null &
	pid=$!
	sleep "$(awk -v s=$seed 'BEGIN { srand(s); printf "%.2f", 0.3 + rand() * 1.5 }')"
	kill -9 $pid
	wait $pid 2>/dev/null
	# Within the budget plus one segment, a half-made one included.
	b=$(bytes "$r")
	"$HVCAT" info "$r" >"$tmpdir/kill.info"
	st=$?
	ok=1
	[ "$b" -le $((1048576 + 131072)) ] || ok=0
	[ $st = 0 ] || ok=0
	[ "$(gaps "$tmpdir/kill.info")" = 0 ] || ok=0
	# Only the last segment may be cut short.
	grep -v ' closed$' "$tmpdir/kill.info" | grep -q '^  hvtop-' &&
	    [ "$(grep -v ' closed$' "$tmpdir/kill.info" | grep -c '^  hvtop-')" != 1 ] &&
	    ok=0
	last=$(ls "$r" | grep '\.hvrec$' | tail -1)
	"$HVTOP" -b -r "$r/$last" -o "$tmpdir/kill.csv" 2>/dev/null || ok=0
	[ "$ok" = 1 ] || diag "$(cat "$tmpdir/kill.info")"
	check "kill -9 (seed $seed): $b bytes, every segment whole" \
	    test "$ok" = 1
done
# The next run clears what the killed one left half made.
r=$tmpdir/kill8
"$HVTOP" -b --sim seed=1 -d 0.01 -n 5 -w "$r" --ring-size 1M -o /dev/null
check "a restart removes a half-made segment" \
    test -z "$(ls "$r" | grep -v '\.hvrec$')"
"$HVCAT" info "$r" >"$tmpdir/restart.info"
check "a restart's gap is listed" test "$(gaps "$tmpdir/restart.info")" = 1

# A ring where no directory can be: sampling goes on, the run says at
# its end that nothing was recorded and exits 1, the device untouched.
"$HVTOP" -b $SIM -n 3 -w /dev/full --ring-size 1M -o "$tmpdir/nodir.txt" \
    2>"$tmpdir/nodir.err"
check "-w /dev/full --ring-size: exit 1, nothing recorded" sh -c \
    "test $? = 1 && grep -q 'nothing was recorded in /dev/full' '$tmpdir/nodir.err'"
check "... sampling went on, and /dev/full is still a device" sh -c \
    "test \$(grep -c '^hvtop ' '$tmpdir/nodir.txt') = 3 && test -c /dev/full"

# A full disk: the oldest go, then the recording stops; sampling goes on.
# full SIZE N: record N samples into a tmpfs of SIZE, a ring of 4M.
full() {
	"$HVTOP" -b $SIM -d 1 -n "$2" -w "$tmpdir/small/r" --ring-size 4M \
	    -o "$tmpdir/full.txt" 2>"$tmpdir/full.err"
	st=$?
	rows=$(grep -c '^hvtop 2026' "$tmpdir/full.txt")
	n=$(ls "$tmpdir/small/r" | wc -l)
	"$HVCAT" info "$tmpdir/small/r" >"$tmpdir/full.info"
	info=$?
	umount "$tmpdir/small"
}
mkdir "$tmpdir/small"
if [ "$(id -u)" != 0 ] || ! have mount; then
	for t in 1 2 3 4; do
		skip "a full disk (tmpfs)" "not root: cannot mount a tmpfs"
	done
elif mount -t tmpfs -o size=800k tmpfs "$tmpdir/small" 2>/dev/null; then
	# Segments of 512K on 800K: each new one takes the last's place.
	full 800k 5000
	check "a full disk takes the oldest segments ($n left)" \
	    test $st = 0 -a $info = 0 -a "$n" -le 2
	check "... and the ring records to the end" \
	    grep -q '2026-01-01T01:23:20Z  closed$' "$tmpdir/full.info"
	# A segment alone fills 256K: nothing is left to remove.
	mount -t tmpfs -o size=256k tmpfs "$tmpdir/small"
	full 256k 3000
	diag "$(cat "$tmpdir/full.err")"
	check "a full disk stops the recording once" \
	    test "$(grep -c 'the recording stops' "$tmpdir/full.err")" = 1
	check "sampling goes on on a full disk: $rows intervals" \
	    test "$rows" = 3000
else
	for t in 1 2 3 4; do
		skip "a full disk (tmpfs)" "mount -t tmpfs failed"
	done
fi

# The service records its ring into its state directory, the only one
# it may write: the defaults file's RECORD, run as the unit runs it.
unit=$top_srcdir/debian/hvtop.hvtop-exporter.service
strict() {
	grep -qx StateDirectory=hvtop "$unit" &&
	    grep -qx ProtectSystem=strict "$unit" &&
	    ! grep -q "^ReadWritePaths" "$unit" &&
	    grep '^ExecStart=' "$unit" | grep -qF ' $RECORD $ARGS'
}
check "the unit writes only its state directory" strict
RECORD=$(. "$top_srcdir/debian/hvtop.hvtop-exporter.default"; echo "$RECORD" |
    sed "s|/var/lib/hvtop|$tmpdir/state|")
mkdir "$tmpdir/state"
"$HVTOP" -b $SIM -n 3 $RECORD -o /dev/null
check "the defaults file's RECORD keeps a ring: $RECORD" \
    sh -c "'$HVCAT' info '$tmpdir/state/ring' | grep -q '^total .* 4 samples'"

# The options are checked.
"$HVTOP" -b $SIM -n 1 --ring-size 1M -o /dev/null 2>/dev/null
check "--ring-size without -w is refused" test $? = 2
"$HVTOP" -b $SIM -n 1 -w "$tmpdir/x" --ring-size 1Q -o /dev/null 2>/dev/null
check "--ring-size 1Q is refused" test $? = 2
tap_end
