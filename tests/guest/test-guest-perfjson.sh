#!/bin/sh
# perf's own hv_24x7 metrics in the virtual LPAR (scripts/guest), on a
# POWER9 and a POWER10 frame: Debian's perf knows both processors' nest
# metrics (its pmu-events tables map the PVR), so perf stat -M and
# hvtop -m nest_metrics.json run side by side for 20 seconds, and
# metric-truth.py holds PowerBUS_Frequency, Memory_RD_BW_Chip and
# Memory_WR_BW_Chip on each chip against the hypervisor's truth log and
# against each other.  The frame runs a steady workload (steady=1): the
# two programs cannot sample the same window (each starts its clock when
# it is ready), so only rates that stay the same can be compared.  Also
# checks that hvtop says which metrics it skips and that the catalog's
# formulas need no --const.  Prints "ok NAME" or "not ok NAME", then
# "N passed, N failed".
top=$(cd "$(dirname "$0")/../.." && pwd)
guest=$top/scripts/guest
passed=0
failed=0
t=$(mktemp -d "${TMPDIR:-/tmp}/hvtop-guest-pj.XXXXXX")
trap 'rm -rf "$t"' EXIT

ok() { passed=$((passed + 1)); echo "ok $1"; }
notok() { failed=$((failed + 1)); echo "not ok $1"; }
check() { _c=$1; shift; if "$@"; then ok "$_c"; else notok "$_c"; fi; }

names="PowerBUS_Frequency Memory_RD_BW_Chip Memory_WR_BW_Chip"

# run CPU METRICS NSKIP: one frame of that processor.
run() {
	cpu=$1 metrics=$2 nskip=$3
	# In the guest: the file, perf's list, then perf and hvtop together.
	cat >"$t/guest.sh" <<GUEST
cat >/tmp/nest.json <<'JSON'
$(cat "$metrics")
JSON
echo "@@ perf-list"
perf list metrics 2>&1 | grep -E '^  (PowerBUS_Frequency|Memory_RD_BW_Chip)\$'
echo "@@ perf"
perf stat -M $(echo $names | tr ' ' ,) -a -I 1000 sleep 20 \
    2>/tmp/perf.txt &
hvtop -b -n 1 -d 20 -m /tmp/nest.json -g Memory_BW -g PowerBus \
    --format csv -o /tmp/hv.csv 2>/tmp/hv.err
wait
cat /tmp/perf.txt
echo "@@ hvtop"
cat /tmp/hv.csv
echo "@@ hvtop-err"
cat /tmp/hv.err
echo "@@ const"
hvtop -b -n 2 -d 0.5 -g Memory_BW 2>&1 | grep -c '?'
echo "@@ end"
GUEST
	HVTOP_GUEST_TRUTH=$t/$cpu.truth \
	    "$guest" --sim "catalog=$cpu,sockets=2,chips_per_socket=1,cores=4,steady=1" -- \
	    sh -c "$(cat "$t/guest.sh")" >"$t/out" 2>"$t/err"
	if ! grep -q '^@@ end$' "$t/out"; then
		tail -n 30 "$t/out" "$t/err"
		notok "guest-perfjson $cpu: boot and run"
		return
	fi
	sed -n '/^@@ perf-list$/,/^@@ perf$/p' "$t/out" >"$t/list"
	check "guest-perfjson $cpu: Debian's perf knows the nest metrics" \
	    grep -q 'PowerBUS_Frequency' "$t/list"
	sed -n '/^@@ perf$/,/^@@ hvtop$/p' "$t/out" >"$t/perf"
	sed -n '/^@@ hvtop$/,/^@@ hvtop-err$/p' "$t/out" | sed '1d;$d' >"$t/hv.csv"
	sed -n '/^@@ hvtop-err$/,/^@@ const$/p' "$t/out" | sed '1d;$d' >"$t/hv.err"
	check "guest-perfjson $cpu: hvtop skips $nskip metrics, and says why" \
	    test "$(grep -c 'skipped' "$t/hv.err")" = "$nskip"
	"$top/build/hvcat" sysfs -i 2 "$top/build/catalogs/$cpu.bin" \
	    >"$t/events"
	python3 "$top/tests/guest/metric-truth.py" "$metrics" "$t/$cpu.truth" \
	    "$t/events" "$t/perf" "$t/hv.csv" $names >"$t/check" 2>&1
	rc=$?
	sed "s/^\(not \)\{0,1\}ok /&guest-perfjson $cpu: /" "$t/check"
	passed=$((passed + $(grep -c '^ok ' "$t/check")))
	failed=$((failed + $(grep -c '^not ok ' "$t/check")))
	if [ "$rc" -ne 0 ] && ! grep -q '^not ok ' "$t/check"; then
		notok "guest-perfjson $cpu: metric-truth.py failed ($rc)"
	fi
	check "guest-perfjson $cpu: the catalog's formulas need no --const" \
	    test "$(sed -n '/^@@ const$/{n;p;}' "$t/out")" = 0
}

run power9 "$top/tests/data/perfjson/power9/nest_metrics.json" 6
run power10 "$top/tests/data/perfjson/power10/nest_metrics.json" 0
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
