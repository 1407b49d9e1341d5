#!/bin/sh
# Recordings kept from earlier versions of the format (tests/data/record,
# listed in its MANIFEST) replay into exactly the output the recorded run
# printed, byte for byte: a change to the writer or the reader must not
# change what an existing file shows.  The files are never rewritten.
. "$(dirname "$0")/tap.sh"
REC="$DATA/record"
n=$(grep -c -v '^#' "$REC/MANIFEST")
plan $((2 * n))

grep -v '^#' "$REC/MANIFEST" >"$tmpdir/list"
while IFS='	' read -r g recorded replayed; do
	# (check sets $name: the loop has its own.)  The options split.
	"$HVTOP" -b -r "$REC/$g.hvr" $replayed -o "$tmpdir/$g.out" \
	    2>"$tmpdir/$g.err"
	check "$g.hvr ($recorded) replays" test $? = 0
	gzip -dc "$REC/$g.out.gz" >"$tmpdir/$g.want"
	check "$g.hvr replays into the recorded run's output" \
	    cmp "$tmpdir/$g.want" "$tmpdir/$g.out"
done <"$tmpdir/list"
