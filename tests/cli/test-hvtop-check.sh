#!/bin/sh
# hvtop --check: a tree without the hv_24x7 PMU says so with the fix and
# exits 1; a tree with it (tests/data/sysfs/hvtop-p8) shows the PMU, the
# catalog's version and the frame, and, run as a user without
# CAP_PERFMON, perf_event_paranoid 2 as a failure with its fix; the
# simulated frame is described and exits 0; a stray word is a usage
# error (2).  The frame's identity comes from lparcfg and the device
# tree under proc_root; a simulated partition without the HMC's
# permission (collect=0) sees no frame and exits 1.
. "$(dirname "$0")/tap.sh"
plan 17

tree=$DATA/sysfs/hvtop-p8
mkdir -p "$tmpdir/empty/bus/event_source/devices"
"$HVTOP" --check --source perf --sysfs-root "$tmpdir/empty" \
    >"$tmpdir/none" 2>&1
check "no PMU: exit 1" test $? -eq 1
check "no PMU: said, with the path" grep -q \
    "^FAIL  no hv_24x7 PMU: $tmpdir/empty/bus/event_source/devices/hv_24x7" \
    "$tmpdir/none"
check "no PMU: the fix named" grep -q '^      fix: .*hv_24x7 driver' \
    "$tmpdir/none"
diag "$(cat "$tmpdir/none")"

"$HVTOP" --check --sysfs-root "$tmpdir/empty" >"$tmpdir/auto" 2>&1
check "auto without the PMU: the same, exit 1" \
    sh -c "test $? -eq 1 && grep -q '^FAIL  no hv_24x7 PMU' '$tmpdir/auto'"

"$HVTOP" --check --source perf --sysfs-root "$tree/sys" \
    -O "proc_root=$tree/proc" >"$tmpdir/pmu" 2>&1
check "PMU: found, catalog version 5" sh -c "
    grep -q '^ok    hv_24x7 PMU: $tree/sys/bus/event_source/devices/hv_24x7' \
    '$tmpdir/pmu' && grep -q '^ok    catalog version 5,' '$tmpdir/pmu'"
diag "$(cat "$tmpdir/pmu")"

if [ "$(id -u)" -ne 0 ] && ! grep -q '^ok    kernel.perf_event_paranoid' \
    "$tmpdir/pmu"; then
	cp "$tmpdir/pmu" "$tmpdir/user"
	st=1
elif [ "$(id -u)" -eq 0 ] && have setpriv; then
	chmod a+rx "$tmpdir"
	setpriv --reuid nobody --regid nogroup --clear-groups \
	    --inh-caps=-all "$HVTOP" --check --source perf \
	    --sysfs-root "$tree/sys" -O "proc_root=$tree/proc" \
	    >"$tmpdir/user" 2>&1
	st=$?
else
	st=""
fi
if [ -n "$st" ]; then
	check "paranoid 2 without CAP_PERFMON: exit 1" test "$st" -eq 1
	check "paranoid 2 without CAP_PERFMON: said, with the fix" sh -c "
	    grep -q '^FAIL  kernel.perf_event_paranoid is 2; no CAP_PERFMON' \
	    '$tmpdir/user' && grep -q 'fix: .*CAP_PERFMON' '$tmpdir/user'"
else
	skip "paranoid 2 without CAP_PERFMON" "root without setpriv"
	skip "paranoid 2 without CAP_PERFMON" "root without setpriv"
fi

"$HVTOP" --check --source sim >"$tmpdir/sim" 2>&1
check "sim: exit 0" test $? -eq 0
check "sim: the simulated frame and its partitions" sh -c "
    grep -q '^info  source sim: SIMULATED frame' '$tmpdir/sim' &&
    grep -q '^ok    frame: 4 chips, 24 cores' '$tmpdir/sim' &&
    grep -q '^ok    [0-9]* partitions visible' '$tmpdir/sim' &&
    ! grep -q '^FAIL' '$tmpdir/sim'"
diag "$(cat "$tmpdir/sim")"

# The identity the kernel publishes, under a /proc of the test's own.
cp -R "$tree/proc" "$tmpdir/proc"
mkdir -p "$tmpdir/proc/powerpc" "$tmpdir/proc/device-tree"
printf 'lparcfg 1.9\nserial_number=IBM,0221A1B2C\nsystem_type=IBM,8286-42A\npartition_id=5\nshared_processor_mode=0\n' \
    >"$tmpdir/proc/powerpc/lparcfg"
printf 'db-prod\0' >"$tmpdir/proc/device-tree/ibm,partition-name"
"$HVTOP" --check --source perf --sysfs-root "$tree/sys" \
    -O "proc_root=$tmpdir/proc" >"$tmpdir/ident" 2>&1
check "lparcfg: the frame and the partition named" grep -q \
    '^info  frame 8286-42A\*21A1B2C, partition 5 (db-prod), from lparcfg$' \
    "$tmpdir/ident"
diag "$(grep '^info  frame' "$tmpdir/ident")"

# A kernel without lparcfg: the device tree's root properties it is made
# of, kept the same way.
rm "$tmpdir/proc/powerpc/lparcfg"
printf 'IBM,9080-M9S\0' >"$tmpdir/proc/device-tree/model"
printf 'IBM,0278A1234\0' >"$tmpdir/proc/device-tree/system-id"
printf '\000\000\000\007' >"$tmpdir/proc/device-tree/ibm,partition-no"
"$HVTOP" --check --source perf --sysfs-root "$tree/sys" \
    -O "proc_root=$tmpdir/proc" >"$tmpdir/dtree" 2>&1
check "device tree: the frame and the partition named" grep -q \
    '^info  frame 9080-M9S\*78A1234, partition 7 (db-prod), from device tree$' \
    "$tmpdir/dtree"
diag "$(grep '^info  frame' "$tmpdir/dtree")"

# QEMU's model and a UUID for a system-id are no machine type-model and
# serial: the frame is unknown, the partition still named.
printf 'IBM pSeries (emulated by qemu)\0' >"$tmpdir/proc/device-tree/model"
printf '2f6b1c3e-8a4d-4e7b-9c21-5d0a7e3f9b18\0' \
    >"$tmpdir/proc/device-tree/system-id"
rm "$tmpdir/proc/device-tree/ibm,partition-no"
"$HVTOP" --check --source perf --sysfs-root "$tree/sys" \
    -O "proc_root=$tmpdir/proc" >"$tmpdir/qemu" 2>&1
check "device tree of QEMU: frame unknown, the partition named" grep -q \
    '^info  frame unknown, partition -1 (db-prod), from device tree$' \
    "$tmpdir/qemu"
diag "$(grep '^info  frame' "$tmpdir/qemu")"

rm -r "$tmpdir/proc/device-tree"
"$HVTOP" --check --source perf --sysfs-root "$tree/sys" \
    -O "proc_root=$tmpdir/proc" >"$tmpdir/noident" 2>&1
check "neither lparcfg nor the device tree: said" grep -q \
    '^info  frame unknown, partition -1, from neither lparcfg nor the device tree$' \
    "$tmpdir/noident"

"$HVTOP" --check --source sim --sim collect=0 >"$tmpdir/blind" 2>&1
check "collect=0: exit 1" test $? -eq 1
check "collect=0: no frame, no partitions" sh -c "
    grep -q '^info  capability frame: no' '$tmpdir/blind' &&
    grep -q '^info  capability partitions: no' '$tmpdir/blind' &&
    grep -q '^info  capability pmu: yes' '$tmpdir/blind'"
check "collect=0: the fix named" grep -q \
    'fix: on the HMC, .*Allow performance information collection' \
    "$tmpdir/blind"

"$HVTOP" --check --source sim stray >/dev/null 2>&1
check "a stray word: usage error" test $? -eq 2
