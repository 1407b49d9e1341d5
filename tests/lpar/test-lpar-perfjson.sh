#!/bin/sh
# perf's own hv_24x7 metrics in the virtual LPAR (scripts/lpar), on a
# POWER9 and a POWER10 frame: Debian's perf knows both processors' nest
# metrics (its pmu-events tables map the PVR), so perf stat -M and
# hvtop -m nest_metrics.json, run side by side for 20 seconds, must agree
# on each chip for PowerBUS_Frequency: within 1 % on an idle host, which
# is printed, and within 5 % to pass, because both programs take their
# timestamps apart from their reads and a busy host (the guest is
# emulated) moves them by a percent or two (1.1 % seen at load 5).
# perf stat -I prints a
# metric over each interval (count x scale); the per-second value is the
# sum over the intervals (but the first, which starts before perf's
# counters do) divided by the time they cover, which is what hvtop shows.
# Memory_RD_BW_Chip is printed for both but not compared: the simulated
# workload changes it up to 40-fold from one second to the next, and the
# two programs cannot sample the same window (each starts its clock when
# it is ready).  Also checks that hvtop says which metrics it skips and
# that the catalog's formulas need no --const.  Prints "ok NAME" or
# "not ok NAME", then "N passed, N failed".
top=$(cd "$(dirname "$0")/../.." && pwd)
lpar=$top/scripts/lpar
passed=0
failed=0
t=$(mktemp -d "${TMPDIR:-/tmp}/hvtop-lpar-pj.XXXXXX")
trap 'rm -rf "$t"' EXIT

ok() { passed=$((passed + 1)); echo "ok $1"; }
notok() { failed=$((failed + 1)); echo "not ok $1"; }
check() { _c=$1; shift; if "$@"; then ok "$_c"; else notok "$_c"; fi; }

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
perf stat -M PowerBUS_Frequency,Memory_RD_BW_Chip -a -I 1000 sleep 20 \
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
	"$lpar" --sim "catalog=$cpu,sockets=2,chips_per_socket=1,cores=4" -- \
	    sh -c "$(cat "$t/guest.sh")" >"$t/out" 2>"$t/err"
	if ! grep -q '^@@ end$' "$t/out"; then
		tail -n 30 "$t/out" "$t/err"
		notok "lpar-perfjson $cpu: boot and run"
		return
	fi
	sed -n '/^@@ perf-list$/,/^@@ perf$/p' "$t/out" >"$t/list"
	check "lpar-perfjson $cpu: Debian's perf knows the nest metrics" \
	    grep -q 'PowerBUS_Frequency' "$t/list"
	sed -n '/^@@ perf$/,/^@@ hvtop$/p' "$t/out" >"$t/perf"
	sed -n '/^@@ hvtop$/,/^@@ hvtop-err$/p' "$t/out" | sed '1d;$d' >"$t/hv.csv"
	sed -n '/^@@ hvtop-err$/,/^@@ const$/p' "$t/out" | sed '1d;$d' >"$t/hv.err"
	check "lpar-perfjson $cpu: hvtop skips $nskip metrics, and says why" \
	    test "$(grep -c 'skipped' "$t/hv.err")" = "$nskip"
	check "lpar-perfjson $cpu: perf stat -M and hvtop -m agree (PowerBUS_Frequency)" \
	    python3 - "$metrics" "$t/perf" "$t/hv.csv" <<'PY'
import csv, json, re, sys
metrics = {m['MetricName']: m for m in json.load(open(sys.argv[1]))}
# perf: per interval, the counts of each metric's events on each chip.
counts = {}            # (time, chip, event) -> count
times = []
for line in open(sys.argv[2]):
    m = re.match(r'\s*([0-9.]+)\s+([0-9]+)\s+hv_24x7/([A-Z0-9_]+),chip=([0-9]+)/', line)
    if not m:
        continue
    tm, n, ev, chip = float(m.group(1)), int(m.group(2)), m.group(3), int(m.group(4))
    if not times or times[-1] != tm:
        times.append(tm)
    counts[(tm, chip, ev)] = n
if len(times) < 5:
    sys.exit('perf printed %d intervals' % len(times))
rows = list(csv.DictReader(open(sys.argv[3])))
last = [r for r in rows if r['domain'] == 'chip' and r['index'] != 'total']
last = [r for r in last if r['seq'] == max(x['seq'] for x in last)]
bad = 0
for name in ('PowerBUS_Frequency', 'Memory_RD_BW_Chip'):
    m = metrics[name]
    scale = float(re.match(r'[0-9.eE+-]+', m['ScaleUnit']).group(0))
    evs = re.findall(r'hv_24x7@([A-Z0-9_]+)', m['MetricExpr'])
    col = [k for k in last[0] if k.startswith(name + ' [')][0]
    for r in last:
        chip = int(r['index'])
        # perf's metric over each interval, summed, per second.  The
        # first interval is left out: it runs from perf's start, before
        # its counters were enabled.
        total = sum(counts.get((tm, chip, e), 0) for tm in times[1:]
                    for e in evs)
        perf = total * scale / (times[-1] - times[0])
        hv = float(r[col])
        diff = abs(hv - perf) / perf
        print('# %s chip %d: perf %.6g, hvtop %.6g (%s), %.2f %%' %
              (name, chip, perf, hv, col, 100 * diff))
        if diff > 0.01 and name == 'PowerBUS_Frequency':
            print('# ... more than 1 %: the host is busy, or a tool is off')
        if diff > 0.05 and name == 'PowerBUS_Frequency':
            bad = 1
            for tm in times:
                print('#   %s: %s' % (tm, [counts.get((tm, chip, e))
                                        for e in evs]))
if bad:
    sys.stdout.write(''.join('# ' + l for l in open(sys.argv[2])
                             if 'chip=0' not in l or 'MCS' in l)[:6000])
sys.exit(bad)
PY
	check "lpar-perfjson $cpu: the catalog's formulas need no --const" \
	    test "$(sed -n '/^@@ const$/{n;p;}' "$t/out")" = 0
}

run power9 "$top/tests/data/perfjson/power9/nest_metrics.json" 6
run power10 "$top/tests/data/perfjson/power10/nest_metrics.json" 0
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
