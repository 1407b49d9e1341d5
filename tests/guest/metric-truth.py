#!/usr/bin/env python3
"""perf's own hv_24x7 metrics, from hvtop -m and perf stat -M in the
virtual LPAR, against the hypervisor's truth log of the same boot.

  metric-truth.py JSON TRUTH EVENTS PERF HVTOP_CSV METRIC...

JSON is perf's nest_metrics.json, TRUTH the log QEMU wrote (truth=FILE),
EVENTS hvcat sysfs's lines (event to domain and offset), PERF perf stat
-M -I's output, HVTOP_CSV hvtop -b --format csv's.  The frame must run a
steady workload (--sim steady=1): every counter then grows at one rate,
which the truth gives exactly as the difference of two reads over the
difference of their records' update times.  Each metric (a sum of
events times its ScaleUnit) is computed per chip from those rates, from
hvtop's CSV and from perf's intervals, and printed as a table.

hvtop reads records with their timebases, so it must match the truth
within 1 %.  perf divides by its own clock, taken apart from its reads:
within 1 % on an idle host (the figure is printed), within 5 % to pass,
since a busy host delays the emulated guest's reads by a percent or two.
Prints "ok ..." / "not ok ..." lines; exits 1 when one failed.
"""
import csv
import importlib.util
import json
import os
import re
import sys

M64 = 1 << 64
CHIP = 1

# The truth log's and hvcat sysfs's readers are truth-check.py's.
_spec = importlib.util.spec_from_file_location(
    'truth_check', os.path.join(os.path.dirname(__file__), 'truth-check.py'))
truth_check = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(truth_check)


def true_rate(head, calls, key):
    """Counts per second between the first and the last update seen."""
    r = sorted((c['upd'][key], c['vals'][key]) for c in calls.values()
               if c['upd'].get(key))
    if len(r) < 2 or r[0][0] == r[-1][0]:
        return None
    return ((r[-1][1] - r[0][1]) % M64 * head['tb_hz'] /
            (r[-1][0] - r[0][0]))


def read_perf(path):
    """Interval end times, and (time, chip, event) -> count."""
    counts = {}
    times = []
    rx = re.compile(r'\s*([0-9.]+)\s+([0-9]+)\s+'
                    r'hv_24x7/([A-Z0-9_]+),chip=([0-9]+)/')
    with open(path) as f:
        for line in f:
            m = rx.match(line)
            if not m:
                continue
            tm = float(m.group(1))
            if not times or times[-1] != tm:
                times.append(tm)
            counts[(tm, int(m.group(4)), m.group(3))] = int(m.group(2))
    return times, counts


def main():
    if len(sys.argv) < 7:
        sys.exit(__doc__)
    metrics = {m['MetricName']: m for m in json.load(open(sys.argv[1]))}
    head, calls = truth_check.read_truth(sys.argv[2])
    if 'tb_hz' not in head:
        sys.exit('%s: no tb_hz in the header' % sys.argv[2])
    offsets = {k: off for k, (_, off) in
               truth_check.read_events(sys.argv[3]).items()}
    times, counts = read_perf(sys.argv[4])
    rows = list(csv.DictReader(open(sys.argv[5])))
    names = sys.argv[6:]
    if len(times) < 5:
        print('not ok perf printed %d intervals' % len(times))
        return 1
    chips = [r for r in rows if r['domain'] == 'chip' and
             r['index'] != 'total']
    last = max(r['seq'] for r in chips)
    chips = [r for r in chips if r['seq'] == last]
    bad = 0
    print('# %-20s %4s %14s %14s %14s %8s %8s %8s' %
          ('metric', 'chip', 'truth', 'hvtop', 'perf', 'hv-tr %',
           'perf-tr %', 'hv-perf %'))
    worst = {'hvtop': 0.0, 'perf': 0.0, 'pair': 0.0}
    for name in names:
        m = metrics[name]
        scale = float(re.match(r'[0-9.eE+-]+', m['ScaleUnit']).group(0))
        evs = re.findall(r'hv_24x7@([A-Z0-9_]+)', m['MetricExpr'])
        col = [k for k in chips[0] if k.startswith(name + ' [')]
        if not col:
            print('not ok %s: hvtop printed no column for it' % name)
            bad = 1
            continue
        for r in chips:
            chip = int(r['index'])
            rates = [true_rate(head, calls, (CHIP, chip, offsets[e]))
                     for e in evs]
            if None in rates:
                print('not ok %s chip %d: the truth log lacks an event'
                      % (name, chip))
                bad = 1
                continue
            truth = sum(rates) * scale
            hv = float(r[col[0]])
            # perf's first interval starts before its counters do.
            total = sum(counts.get((tm, chip, e), 0) for tm in times[1:]
                        for e in evs)
            perf = total * scale / (times[-1] - times[0])
            d_hv = abs(hv - truth) / truth
            d_perf = abs(perf - truth) / truth
            d_pair = abs(hv - perf) / perf
            worst['hvtop'] = max(worst['hvtop'], d_hv)
            worst['perf'] = max(worst['perf'], d_perf)
            worst['pair'] = max(worst['pair'], d_pair)
            print('# %-20s %4d %14.6g %14.6g %14.6g %8.3f %8.3f %8.3f' %
                  (name, chip, truth, hv, perf, 100 * d_hv, 100 * d_perf,
                   100 * d_pair))
    ok = worst['hvtop'] <= 0.01
    print('%s hvtop -m matches the truth within 1 %% (worst %.3f %%)' %
          ('ok' if ok else 'not ok', 100 * worst['hvtop']))
    bad |= not ok
    ok = worst['perf'] <= 0.05 and worst['pair'] <= 0.05
    print('%s perf stat -M matches the truth and hvtop within 5 %% '
          '(worst %.3f %% and %.3f %%; 1 %% is the aim on an idle host)' %
          ('ok' if ok else 'not ok', 100 * worst['perf'],
           100 * worst['pair']))
    bad |= not ok
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
