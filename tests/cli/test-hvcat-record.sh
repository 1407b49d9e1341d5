#!/bin/sh
# hvcat info on a recording: the run, the span, the selections and
# catalogs in the order they apply, the size per counter, and the
# problems with their offsets; a file cut short still reads (exit 0), a
# damaged one exits 1, a file too short for its preamble is refused.
. "$(dirname "$0")/tap.sh"
SIM="--sim clock=virtual,seed=7"
plan 17

"$HVTOP" -b -n 30 $SIM -w "$tmpdir/t.hvr" -o /dev/null
"$HVCAT" info "$tmpdir/t.hvr" >"$tmpdir/out" 2>"$tmpdir/err"
check "info on a recording exits 0" test $? = 0
check "it is named a recording" grep -q '^recording    .*t.hvr' "$tmpdir/out"
check "the format version is named" \
    grep -q '^format       version 3$' "$tmpdir/out"
check "the writer is named" grep -q '^written by   hvtop ' "$tmpdir/out"
check "the recorded source is named" \
    grep -q '^source       SIMULATED frame' "$tmpdir/out"
check "31 samples over 30 s of recorded time" \
    grep -q '^samples      31, 2026-01-01T00:00:00.000Z to 2026-01-01T00:00:30.000Z (30.000 s)$' \
    "$tmpdir/out"
check "the selection and its picks" \
    grep -q '^selection    from sample 0: 208 counters$' "$tmpdir/out"
check "the catalog version" \
    grep -q '^catalog      from sample 0: version 1,' "$tmpdir/out"
check "a closed file says so, with no problems" \
    sh -c "grep -q '^closed       yes' '$tmpdir/out' &&
    grep -q '^problems     0$' '$tmpdir/out'"
check "nothing on stderr" test ! -s "$tmpdir/err"

# A catalog reload: the new version from the sample it applies to (the
# change comes at the 10th data call, in the fifth refresh: sample 4).
"$HVTOP" -b -n 20 --sim clock=virtual,seed=7,faults=version-change@10 \
    -w "$tmpdir/v.hvr" -o /dev/null 2>/dev/null
"$HVCAT" info "$tmpdir/v.hvr" >"$tmpdir/out"
check "a reload is listed with the sample it applies from" \
    grep -q '^catalog      from sample 4: version 2,' "$tmpdir/out"
check "and counted, with no selection change" \
    grep -q '^changes      0 selections, 1 catalog reload$' "$tmpdir/out"

# Cut short: still usable.
size=$(wc -c <"$tmpdir/t.hvr")
head -c $((size - 40)) "$tmpdir/t.hvr" >"$tmpdir/cut.hvr"
"$HVCAT" info "$tmpdir/cut.hvr" >"$tmpdir/out"
check "a file cut short exits 0" test $? = 0
check "and says the writer did not finish it" \
    grep -q '^closed       no' "$tmpdir/out"

# A damaged byte in the middle: reported with its offset, exit 1.
cp "$tmpdir/t.hvr" "$tmpdir/bad.hvr"
printf '\125\125\125\125' | dd of="$tmpdir/bad.hvr" bs=1 \
    seek=$((size - 2000)) conv=notrunc 2>/dev/null
"$HVCAT" info "$tmpdir/bad.hvr" >"$tmpdir/out"
check "a damaged file exits 1" test $? = 1
check "the damage is listed with its offset" \
    grep -Eq '^  offset [0-9]+: ' "$tmpdir/out"

head -c 100 "$tmpdir/t.hvr" >"$tmpdir/tiny.hvr"
"$HVCAT" info "$tmpdir/tiny.hvr" >/dev/null 2>"$tmpdir/err"
check "a file too short for its preamble exits 1 with the offset" \
    sh -c "test $? = 1 && grep -q 'offset [0-9]*:' '$tmpdir/err'"
exit $tap_failed
