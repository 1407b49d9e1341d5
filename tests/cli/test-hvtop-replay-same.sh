#!/bin/sh
# A replay prints what the recorded run printed, also where formulas use
# the frame's constants (PB_Freq, the link clocks) or --const values: the
# recording holds every value the numbers depend on.  Compared byte for
# byte with the live output, not against fixed numbers.
. "$(dirname "$0")/tap.sh"
SIM="--sim clock=virtual,seed=1,catalog=power8"
plan 7

# same NAME ARGS...: record a run with ARGS, replay it, compare the CSVs.
same() {
	what=$1
	shift
	rm -f "$tmpdir/r.hvr"
	"$HVTOP" -b -n 5 $SIM "$@" -w "$tmpdir/r.hvr" -o "$tmpdir/live.csv"
	check "$what: the live run records" test $? = 0
	"$HVTOP" -b -r "$tmpdir/r.hvr" -o "$tmpdir/replay.csv"
	check "$what: the replay prints what the live run printed" \
	    cmp "$tmpdir/live.csv" "$tmpdir/replay.csv"
}
same "--const PB_Freq" -g PowerBus_BW@chip --const PB_Freq=1.9e9
same "the PHB and X-link clocks" -g PHB-0@chip -g X-link_data@chip
same "a --const the frame does not know" -g PHB-0@chip --const PHB_Freq=2e9

# --const at replay time still wins over the recorded value.
rm -f "$tmpdir/r.hvr"
"$HVTOP" -b -n 5 $SIM -g PowerBus_BW@chip --const PB_Freq=1.9e9 \
    -w "$tmpdir/r.hvr" -o /dev/null
"$HVTOP" -b -r "$tmpdir/r.hvr" --const PB_Freq=1.9e9 -o "$tmpdir/a.csv"
"$HVTOP" -b -r "$tmpdir/r.hvr" --const PB_Freq=3.8e9 -o "$tmpdir/b.csv"
check_not "--const at replay time overrides the recorded value" \
    cmp -s "$tmpdir/a.csv" "$tmpdir/b.csv"
