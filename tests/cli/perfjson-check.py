#!/usr/bin/env python3
"""Check hvtop's values of perf's metrics against perf's own definitions.

perfjson-check.py METRICS.json HVTOP.jsonl [NAME...]

For every chip row of every interval after the first, each metric of the
perf file that hvtop shows is computed again the way perf stat -I does:
its MetricExpr on the counts of the interval (rate x interval, from the
event columns of the same row), times the ScaleUnit's number.  perf shows
that over its interval; hvtop shows sums of counts per second, so for
those the count is the interval's.  Values must agree within 1e-9
(relative).  Prints what it checked; exits 1 on the first difference.
"""
import json
import re
import sys


def perf_value(expr, counts):
    """MetricExpr with every hv_24x7@EVENT\\,chip\\=?@ replaced by its count."""
    def event(m):
        name = m.group(1)
        if name not in counts:
            raise KeyError(name)
        return repr(float(counts[name]))
    py = re.sub(r'hv_24x7@([A-Za-z0-9_]+)(?:\\,[a-z]+\\=[?0-9]+)*@', event,
                expr)
    if not re.fullmatch(r'[0-9eE.+\-*/() ]*', py):
        raise ValueError('cannot evaluate ' + py)
    return eval(py)  # numbers and operators only, checked above


def scale_of(su):
    m = re.match(r'^([0-9.eE+-]+)?(.*)$', su or '')
    return float(m.group(1)) if m.group(1) else 1.0, m.group(2)


def main():
    metrics = json.load(open(sys.argv[1]))
    want = set(sys.argv[3:])
    checked = 0
    seen = set()
    for line in open(sys.argv[2]):
        snap = json.loads(line)
        if snap['seq'] < 2:
            continue
        units = snap['units']
        groups = snap.get('groups', {})
        for row in snap['rows']:
            if row['domain'] != 'chip' or row['total']:
                continue
            dt = row['interval_s']
            vals = row['values']
            counts = {k: v * dt for k, v in vals.items()
                      if units.get(k) == '/s'}
            for m in metrics:
                name = m['MetricName']
                if name not in vals or (want and name not in want):
                    continue
                scale, unit = scale_of(m.get('ScaleUnit'))
                try:
                    perf = perf_value(m['MetricExpr'], counts) * scale
                except ZeroDivisionError:
                    continue
                got = vals[name]
                per_second = units[name].endswith('/s') or \
                    unit.endswith('Hz')
                if per_second and unit != '' and not unit.endswith('Hz'):
                    if units[name] != unit + '/s':
                        sys.exit('%s: unit %s, perf %s' %
                                 (name, units[name], unit))
                if per_second:
                    perf /= dt
                if abs(got - perf) > 1e-9 * abs(perf) + 1e-12:
                    sys.exit('%s chip %d seq %d: hvtop %.17g, perf %.17g' %
                             (name, row['index'], snap['seq'], got, perf))
                if m.get('MetricGroup') and \
                        groups.get(name) != m['MetricGroup']:
                    sys.exit('%s: group %r, perf %r' %
                             (name, groups.get(name), m['MetricGroup']))
                checked += 1
                seen.add(name)
    print('checked %d values of %d metrics' % (checked, len(seen)))
    if want - seen:
        sys.exit('not shown: ' + ' '.join(sorted(want - seen)))
    if checked == 0:
        sys.exit('nothing checked')


main()
