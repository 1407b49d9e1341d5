#!/bin/sh
# Recordings kept from earlier versions of the format (tests/data/record
# for version 2, tests/data/record3 for version 3, each listed in its
# MANIFEST) replay into exactly the output the recorded run printed, byte
# for byte: a change to the writer or the reader must not change what an
# existing file shows.  A version 3 file's replay, recorded again, gives
# the same records after the preamble: the writer still writes the bits
# the earlier one did.  The files are never rewritten.
. "$(dirname "$0")/tap.sh"
n2=$(grep -c -v '^#' "$DATA/record/MANIFEST")
n3=$(grep -c -v '^#' "$DATA/record3/MANIFEST")
plan $((2 * n2 + 4 * n3))

# The size of the preamble, from hvcat info.
preamble() {
	"$HVCAT" info "$1" | sed -n 's/^size *\([0-9]*\) bytes before the first sample.*/\1/p'
}

for dir in record record3; do
	grep -v '^#' "$DATA/$dir/MANIFEST" >"$tmpdir/list"
	while IFS='	' read -r g recorded replayed; do
		f="$DATA/$dir/$g.hvr"
		o="$tmpdir/$dir-$g"
		# (check sets $name: the loop has its own.)  The options
		# split.
		"$HVTOP" -b -r "$f" $replayed -o "$o.out" 2>"$o.err"
		check "$dir/$g.hvr ($recorded) replays" test $? = 0
		gzip -dc "$DATA/$dir/$g.out.gz" >"$o.want"
		check "$dir/$g.hvr replays into the recorded run's output" \
		    cmp "$o.want" "$o.out"
		[ "$dir" = record3 ] || continue
		"$HVTOP" -b -r "$f" -w "$o.hvr" $replayed -o /dev/null \
		    2>"$o.err2"
		check "$dir/$g.hvr: its replay recorded again" test $? = 0
		skip=$(preamble "$f")
		check "$dir/$g.hvr: ... gives the same records after its $skip-byte preamble" \
		    sh -c 'test -n "$1" && test "$(wc -c <"$2")" = \
		    "$(wc -c <"$3")" && cmp -i "$1" "$2" "$3"' sh "$skip" \
		    "$f" "$o.hvr"
	done <"$tmpdir/list"
done
