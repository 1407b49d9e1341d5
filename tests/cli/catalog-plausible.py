"""Run every formula of a shipped catalog on the simulated frame and check
that each value is plausible for its unit.

usage: catalog-plausible.py HVTOP CATALOG_JSON NAME

Prints one line per formula that is never computed, has a unit with no
range here, or shows a value outside its unit's range; exits 1 if any.
"""
import csv
import json
import re
import subprocess
import sys

# What a value in each unit may be on a frame of a few chips: percentages
# of something, clocks of a chip, bandwidths of a chip or a frame, and
# per-second counts of anything.
RANGES = {
    '%': (0, 100),
    'GHz': (0.1, 10),
    'MHz': (1, 10000),
    'Hz': (1e6, 1e10),
    'MB/s': (0, 1e6),
    'bytes/sec': (0, 1e12),
    '': (0, 1e12),
}


def main():
    hvtop, path, name = sys.argv[1:4]
    with open(path) as f:
        cat = json.load(f)
    events = {e['name'] for e in cat['events']}
    forms = {f['name']: f for f in cat['formulas']}
    picks = set()

    def walk(fname, seen):
        for w in re.findall(r'[A-Za-z_][A-Za-z0-9_%-]*',
                            forms[fname]['formula']):
            if w in events:
                picks.add(w)
            elif w in forms and w not in seen:
                walk(w, seen | {w})

    for fname in forms:
        walk(fname, {fname})
    args = [hvtop, '-b', '-n', '4', '--sim',
            'clock=virtual,seed=3,catalog=' + name, '--format', 'csv']
    for e in sorted(picks):
        args += ['-e', e]
    run = subprocess.run(args, capture_output=True, text=True)
    if run.returncode != 0:
        print('%s: hvtop exits %d: %s' % (name, run.returncode, run.stderr))
        return 1
    rows = list(csv.reader(run.stdout.splitlines()))
    hdr = [re.sub(r' \[.*\]$', '', h) for h in rows[0]]
    bad = 0
    for fname, f in forms.items():
        unit = f.get('unit') or ''
        cols = [i for i, h in enumerate(hdr) if h == fname]
        if not cols:
            print('%s: %s is not computed' % (name, fname))
            bad = 1
            continue
        if unit not in RANGES:
            print('%s: %s: no plausible range for unit %r' %
                  (name, fname, unit))
            bad = 1
            continue
        lo, hi = RANGES[unit]
        vals = [float(r[c]) for r in rows[1:] for c in cols
                if c < len(r) and r[c] != '']
        if not vals:
            print('%s: %s never has a value' % (name, fname))
            bad = 1
            continue
        out = [v for v in vals if not lo <= v <= hi]
        if out:
            print('%s: %s [%s]: %d of %d values outside %g..%g, e.g. %r' %
                  (name, fname, unit, len(out), len(vals), lo, hi, out[0]))
            bad = 1
    return bad


if __name__ == '__main__':
    sys.exit(main())
