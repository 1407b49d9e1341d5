#!/bin/sh
# hvcat info, check, dump and sysfs on the real POWER8 catalog, the empty
# catalog and truncated copies; usage errors and shipped-catalog names.
. "$(dirname "$0")/tap.sh"
plan 31
P8=$DATA/catalog/p8-catalog-v3.bin
EMPTY=$DATA/catalog/empty_catalog.bin
TSV=$DATA/sysfs/sysfs-hv_24x7-events.tsv

# The acceptance test: the 2014 listing equals the kernel's, order aside.
"$HVCAT" sysfs --style 2014 "$P8" >"$tmpdir/2014" 2>"$tmpdir/e"; rc=$?
check "sysfs --style 2014 exits 0" test "$rc" = 0
check "sysfs --style 2014 says nothing on stderr" test ! -s "$tmpdir/e"
sort "$tmpdir/2014" >"$tmpdir/ours"
sort "$TSV" >"$tmpdir/kernel"
check "sysfs --style 2014 has the kernel's 2258 lines" \
    test "$(wc -l <"$tmpdir/ours")" -eq 2258
if cmp -s "$tmpdir/ours" "$tmpdir/kernel"; then
	pass "sysfs --style 2014 equals the kernel's events/ listing"
else
	fail "sysfs --style 2014 equals the kernel's events/ listing"
	diff "$tmpdir/ours" "$tmpdir/kernel" | head -n 10 | sed 's/^/# /'
fi

"$HVCAT" sysfs "$P8" >"$tmpdir/cur"; rc=$?
check "sysfs (current) exits 0" test "$rc" = 0
check "sysfs (current) lists the 253 core events" \
    test "$(wc -l <"$tmpdir/cur")" -eq 253
check "sysfs (current) prints the kernel's string" grep -qx \
    "$(printf 'HPM_TLBIE\tdomain=?,offset=0x358,core=?,lpar=0x0')" \
    "$tmpdir/cur"
check "sysfs (current) skips chip events with no group record" \
    test "$(grep -c '^PM_' "$tmpdir/cur")" -eq 0
"$HVCAT" sysfs --style 1999 "$P8" >/dev/null 2>&1; rc=$?
check "sysfs with an unknown style exits 2" test "$rc" = 2

"$HVCAT" info "$P8" >"$tmpdir/info"; rc=$?
check "info exits 0" test "$rc" = 0
check "info shows the version" grep -q '^version *3$' "$tmpdir/info"
check "info shows the build time" \
    grep -q '^built *2014-01-20 16:00:33' "$tmpdir/info"
check "info shows the events section" \
    grep -Eq '^events +0x2 +38 +1246 +1246 +0$' "$tmpdir/info"
check "info counts events by domain" \
    grep -Eq '^ +1 Physical Chip +993 +0 +993$' "$tmpdir/info"
check "info counts diagnostics" grep -q '^diagnostics *0 ' "$tmpdir/info"

"$HVCAT" check "$P8" >"$tmpdir/out" 2>"$tmpdir/err"; rc=$?
check "check of the POWER8 catalog exits 0" test "$rc" = 0
check "check of the POWER8 catalog says valid" grep -q ': valid: ' "$tmpdir/out"

"$HVCAT" check "$EMPTY" >"$tmpdir/out" 2>"$tmpdir/err"; rc=$?
check "check of the empty catalog exits 0" test "$rc" = 0
check "check of the empty catalog says valid and empty" \
    grep -q ': valid and empty' "$tmpdir/out"
check "check of the empty catalog is silent on stderr" test ! -s "$tmpdir/err"

# Truncated copies: exit 1, every problem with its offset, no crash.
bad=""
for n in 1 95 96 4095 4100 8200 22064 100000 163840 174592 262143; do
	head -c "$n" "$P8" >"$tmpdir/cut.bin"
	"$HVCAT" check "$tmpdir/cut.bin" >/dev/null 2>"$tmpdir/err"
	rc=$?
	if [ "$rc" != 1 ] ||
	    ! grep -q "^hvcat: $tmpdir/cut.bin: offset 0x[0-9a-f]*: " \
	    "$tmpdir/err"; then
		bad="$bad $n(rc=$rc)"
	fi
done
check "check of truncated copies exits 1 with an offset${bad:+:$bad}" \
    test -z "$bad"
head -c 100000 "$P8" >"$tmpdir/cut.bin"
"$HVCAT" check "$tmpdir/cut.bin" >/dev/null 2>"$tmpdir/err"
check "check says how many events were lost" \
    grep -q 'event 714: length 96 runs past .* 532 of 1246 events lost' \
    "$tmpdir/err"
check "check ends with the verdict" \
    grep -q 'invalid: 4 errors, 0 warnings; missing: 532 events, 128 groups' \
    "$tmpdir/err"

"$HVCAT" check >/dev/null 2>&1; rc=$?
check "check without a file exits 2" test "$rc" = 2
"$HVCAT" check "$tmpdir/no-such-file" >/dev/null 2>"$tmpdir/err"; rc=$?
check "check of a missing file exits 1" test "$rc" = 1
"$HVCAT" check -i 3 "$P8" >/dev/null 2>&1; rc=$?
check "check with interface 3 exits 2" test "$rc" = 2

"$HVCAT" dump "$P8" >"$tmpdir/dump"; rc=$?
check "dump exits 0" test "$rc" = 0
check "dump shows event 0 with its offset" grep -q \
    '^event 0 at 0x2000, length 144: HPM_0THRD_NON_IDLE_CCYC$' "$tmpdir/dump"
check "dump shows group slots" grep -q \
    '^  slot 2 *event 241 HPM_NON_IDLE_INST$' "$tmpdir/dump"
"$HVCAT" dump --json "$P8" >"$tmpdir/json" 2>"$tmpdir/err"; rc=$?
if [ "$rc" = 0 ]; then
	check "dump --json prints JSON" grep -q '"HPM_TLBIE"' "$tmpdir/json"
else
	skip "dump --json prints JSON" "$(cat "$tmpdir/err")"
fi

# A shipped catalog name is looked up in $HVTOP_CATALOG_DIR first.
mkdir "$tmpdir/cats"
cp "$P8" "$tmpdir/cats/power8.bin"
(cd "$tmpdir" && HVTOP_CATALOG_DIR="$tmpdir/cats" "$HVCAT" check power8 \
    >"$tmpdir/out" 2>&1); rc=$?
check "a shipped name resolves through HVTOP_CATALOG_DIR" \
    grep -q '^power8: valid: ' "$tmpdir/out"
exit $tap_failed
