#!/bin/sh
# hvtop through the perf source on this machine's own PMUs: the msr PMU's
# TSC counted cpu-wide, and --source auto falling back to the simulator
# when there is no hv_24x7 PMU.  Skips, saying why, where the kernel does
# not let this user count.
. "$(dirname "$0")/tap.sh"
plan 10

"$HVTOP" -b --sim clock=virtual --sysfs-root "$tmpdir" -n 1 >"$tmpdir/auto" 2>&1
check "--source auto picks the simulator without hv_24x7, and says so" \
    grep -q 'SIMULATED.*no hv_24x7 PMU here' "$tmpdir/auto"

"$HVTOP" -b --source perf --sysfs-root "$tmpdir" -n 1 >/dev/null \
    2>"$tmpdir/nopmu"; rc=$?
check "--source perf without the PMU fails with a reason" \
    test "$rc" = 1 -a -s "$tmpdir/nopmu"

if [ ! -d /sys/bus/event_source/devices/msr ]; then
	for i in 1 2 3 4 5 6 7 8; do skip "msr TSC rate $i" "this machine has no msr PMU"; done
	exit 0
fi
"$HVTOP" -b --source perf --pmu msr -e tsc -n 3 -d 0.2 --format csv \
    >"$tmpdir/tsc.csv" 2>"$tmpdir/tsc.err"; rc=$?
if [ "$rc" != 0 ] && grep -qiE 'paranoid|permission|CAP_PERFMON' \
    "$tmpdir/tsc.err"; then
	for i in 1 2 3 4 5 6 7 8; do
		skip "msr TSC rate $i" "perf events not allowed: $(head -n 1 "$tmpdir/tsc.err")"
	done
	exit 0
fi
check "perf msr/tsc: exits 0" test "$rc" = 0
check "perf msr/tsc: three intervals, one row per CPU" \
    test "$(grep -c ',cpu,0,' "$tmpdir/tsc.csv")" = 3
# A TSC ticks at some hundreds of MHz to a few GHz.
check "perf msr/tsc: plausible rates" awk -F, '
    $5 == "0" { n++; if ($6 < 1e8 || $6 > 1e10) bad = 1 }
    END { exit bad || n != 3 }' "$tmpdir/tsc.csv"
"$HVTOP" -b --source perf --pmu msr -e tsc@chip -n 1 >/dev/null \
    2>"$tmpdir/chip.err"; rc=$?
check "perf msr/tsc@chip: a usage error, the PMU counts per cpu" \
    sh -c "test $rc = 2 && grep -q 'counts this per cpu' '$tmpdir/chip.err'"
# Source options: the CPUs by -O, and a key nobody knows refused by name.
"$HVTOP" -b --source perf --pmu msr -e tsc -O cpus=0 -n 1 -d 0.1 \
    --format csv >"$tmpdir/o.csv" 2>&1
check "perf msr/tsc -O cpus=0: one row for cpu 0" \
    test "$(grep -c ',cpu,0,' "$tmpdir/o.csv")" = 1
"$HVTOP" -b --source perf --pmu msr -e tsc -O frob=x -n 1 \
    >/dev/null 2>"$tmpdir/frob.err"
check "perf -O frob=x: refused, naming the option" \
    grep -q "option 'frob=x'" "$tmpdir/frob.err"
# A recording holds the 24x7 catalog, which another PMU does not have.
"$HVTOP" -b --source perf --pmu msr -e tsc -n 1 -w "$tmpdir/msr.hvr" \
    >/dev/null 2>"$tmpdir/w.err"; rc=$?
check "perf msr -w: refused before sampling, saying why" \
    sh -c "test $rc = 1 && grep -q 'msr.hvr: cannot record: PMU msr has no 24x7 catalog' '$tmpdir/w.err'"
# --list shows another PMU's events with their own terms, not hv_24x7's.
"$HVTOP" --source perf --pmu msr --list events tsc >"$tmpdir/list" 2>&1
check "perf msr --list events: tsc as a CPU event, in msr's terms" \
    sh -c "grep -q '^  tsc .*\\[CPU\\]' '$tmpdir/list' &&
    grep -q '^       msr/event=' '$tmpdir/list' &&
    ! grep -q hv_24x7 '$tmpdir/list'"
