#!/usr/bin/env python3
"""Check hvtop's (and perf stat's) per-interval counts from the virtual
LPAR against the hypervisor's truth log of the same boot.

  truth-check.py TRUTH CONSOLE EVENTS OUT SECTION...

TRUTH is the log QEMU wrote (truth=FILE), CONSOLE the partition's console
with the hypervisor's per-call trace lines (they say which calls each
section made), EVENTS hvcat sysfs's lines (event to domain and offset),
OUT the guest's output in sections "@@ NAME".  A SECTION is NAME (hvtop
CSV), perf:NAME (perf stat -x, -I) or side:HVTOP:PERF (both, compared).

Every value hvtop printed must be a count the hypervisor returned: the
difference (modulo 2^64) between two reads of the same counter, the
later one no earlier than the reads that made the interval before;
consecutive intervals share their read.  An empty value must come with
a reason.  Prints "ok ..." / "not ok ..." lines and a summary per
section; exits 1 when one failed.
"""
import re
import sys

M64 = 1 << 64
# The partition the virtual LPAR is (the simulated frame's lpar=).
SELF_LPAR = 1


def read_truth(path):
    """Per call: rc, tb, version, {(domain, index, offset): value}
    (thread groups summed, as the kernel sums a result's elements) and
    {(domain, index, offset): its record's last update timebase} (0 not
    updated yet).  In the VCPU domains (3-6) the index is (partition,
    vcpu): one call may return several partitions' vcpus."""
    calls = {}
    vals = {}
    upd = {}
    head = {}
    with open(path) as f:
        for line in f:
            w = line.split()
            if not w:
                continue
            if w[0] == '#':
                for i in range(4, len(w) - 1, 2):
                    head[w[i]] = int(w[i + 1])
            elif w[0] == 'V':
                c = int(w[1])
                dom, ix = int(w[3]), int(w[5])
                key = (dom, (int(w[4]), ix) if dom >= 3 else ix,
                       int(w[7], 0))
                d = vals.setdefault(c, {})
                d[key] = (d.get(key, 0) + int(w[8])) % M64
                upd.setdefault(c, {})[key] = int(w[9]) if int(w[10]) else 0
            elif w[0] == 'C':
                c = int(w[1])
                calls[c] = {'tb': int(w[2]), 'rc': int(w[3]),
                            'drc': int(w[4], 0), 'version': int(w[5]),
                            'vals': vals.pop(c, {}),
                            'upd': upd.pop(c, {})}
    return head, calls


def read_console(path):
    """Section name -> the data calls made while it ran."""
    sec = {}
    cur = None
    rx = re.compile(r'hv24x7: H_GET_24X7_DATA (\d+) rc=(-?\d+)')
    with open(path, errors='replace') as f:
        for line in f:
            line = line.replace('\r', '').rstrip('\n')
            if line.startswith('@@ '):
                cur = line[3:].split()[0] if len(line) > 3 else None
                continue
            m = rx.search(line)
            if m and cur is not None:
                sec.setdefault(cur, []).append(int(m.group(1)))
    return sec


def read_sections(path):
    sec = {}
    cur = None
    with open(path, errors='replace') as f:
        for line in f:
            line = line.rstrip('\n')
            if line.startswith('@@ '):
                name = line[3:]
                if name.startswith('rc='):
                    if cur is not None:
                        sec[cur]['rc'] = int(name[3:])
                    cur = None
                else:
                    cur = name.split()[0]
                    sec[cur] = {'lines': [], 'rc': None}
                continue
            if cur is not None:
                sec[cur]['lines'].append(line)
    return sec


def read_events(path):
    """name -> (domain or None, offset)."""
    ev = {}
    with open(path) as f:
        for line in f:
            name, _, spec = line.rstrip('\n').partition('\t')
            kv = dict(p.split('=', 1) for p in spec.split(',') if '=' in p)
            dom = kv.get('domain', '?')
            ev[name] = (None if dom == '?' else int(dom, 0),
                        int(kv['offset'], 0))
    return ev


def history(calls, callnos, key):
    """The unwrapped values of key over the good calls in callnos."""
    u = []
    last = None
    for c in sorted(callnos):
        call = calls.get(c)
        if call is None or call['rc'] != 0 or key not in call['vals']:
            continue
        v = call['vals'][key]
        if last is None:
            u.append((0, c, v))
        else:
            u.append((u[-1][0] + (v - last) % M64, c, v))
        last = v
    return u


def tol(x):
    """How far a count read back from CSV may be from the true one: the
    rate has 12 significant digits, the seconds 9 decimals (1 ns in at
    least 0.1 s): 1e-8 of the count, and half a count."""
    return 1e-8 * abs(x) + 0.5


def match_series(u, deltas):
    """Match each interval's count (None: no value) to a pair of reads.
    Returns [(interval, count, status, (a, b) or None)]; status is
    'ok', 'empty' or 'bad'."""
    out = []
    j = None		# the read the previous interval ended on
    lo = 0		# no read before this one may be used
    for i, cand in enumerate(deltas):
        d = cand
        if cand is None:
            out.append((i, d, 'empty', None))
            if j is not None:
                lo = j
            j = None
            continue
        found = None
        for d in (cand if isinstance(cand, tuple) else (cand,)):
            found = match_one(u, d, j, lo)
            if found is not None:
                break
        if found is None:
            out.append((i, d, 'bad', None))
            continue
        out.append((i, d, 'ok', found))
        j = found[1]
        lo = j
    return out


def match_one(u, d, j, lo):
    """A pair of reads d apart: from read j when given, else any from
    read lo on (two pointers: u only grows)."""
    if j is not None:
        for b in range(j, len(u)):
            if abs(u[b][0] - u[j][0] - d) <= tol(d):
                return (j, b)
            if u[b][0] - u[j][0] > d + tol(d):
                break
    b = lo
    for a in range(lo, len(u)):
        b = max(b, a)
        while b < len(u) and u[b][0] - u[a][0] < d - tol(d):
            b += 1
        if b < len(u) and abs(u[b][0] - u[a][0] - d) <= tol(d):
            return (a, b)
    return None


def hvtop_rows(lines):
    """(columns, rows) of hvtop's CSV output."""
    rows = []
    cols = None
    for line in lines:
        if line.startswith('time,'):
            cols = line.split(',')
            continue
        if cols is None or not re.match(r'\d{4}-', line):
            continue
        f = line.split(',')
        if len(f) < len(cols):
            continue
        rows.append(dict(zip(cols, f)))
    return cols, rows


def hvtop_series(lines, events):
    """{(domain, index, offset, name): [(seq, count or None, reason)]},
    and the rows' seconds per seq."""
    cols, rows = hvtop_rows(lines)
    series = {}
    secs = {}
    if cols is None:
        return series, secs
    evcols = []
    for c in cols:
        m = re.match(r'(\S+) \[/s\]$', c)
        if m and m.group(1) in events:
            evcols.append((c, m.group(1)))
    pending = {}
    for r in rows:
        if r['index'] == 'total' or r['domain'] not in ('chip', 'core'):
            continue
        dom = 1 if r['domain'] == 'chip' else 2
        seq = int(r['seq'])
        for c, name in evcols:
            edom, off = events[name]
            if edom is not None and edom != dom:
                continue
            if edom is None and dom != 2:
                continue
            key = (dom, int(r['index']), off, name)
            sec = float(r['interval_s'])
            if r[c] == '':
                if r.get('reason', '') == '' and r.get('error', '') == '':
                    # Another domain's column: no value is expected.
                    continue
                why = r.get('reason', '') or r.get('error', '')
                series.setdefault(key, []).append((seq, None, why))
                # A record not updated keeps its baseline: the next
                # rate covers these seconds too.
                if f'{name}: not updated yet' in why:
                    pending[key] = pending.get(key, 0.0) + sec
                else:
                    pending[key] = 0.0
                continue
            rate = float(r[c])
            x = (rate * sec, rate * (sec + pending.get(key, 0.0)))
            pending[key] = 0.0
            series.setdefault(key, []).append((seq, x, ''))
            secs[seq] = sec
    return series, secs


def perf_series(lines, events):
    """{(domain, index, offset, name): [(interval, count or None)]} and
    the interval end times."""
    series = {}
    times = {}
    n = {}
    for line in lines:
        if not line.strip() or line.startswith('#'):
            continue
        f = line.split(',')
        try:
            t = float(f[0])
        except ValueError:
            continue
        rest = ','.join(f[3:])
        m = re.match(r'hv_24x7/([^,/]+)((?:,[^,/]+=[^,/]+)*)/', rest)
        if not m:
            continue
        name = m.group(1)
        kv = dict(p.split('=', 1) for p in m.group(2).split(',') if p)
        dom = int(kv.get('domain', '2'), 0)
        if 'chip' in kv:
            dom, ix = 1, int(kv['chip'], 0)
        elif dom >= 3:
            # A vcpu of a partition (core= carries the vcpu); the truth
            # names this partition by its id.
            lpar = int(kv.get('lpar', '0xffff'), 0)
            ix = (SELF_LPAR if lpar == 0xffff else lpar,
                  int(kv.get('core', kv.get('vcpu', '0')), 0))
        else:
            ix = int(kv['core'], 0)
        key = (dom, ix, events[name][1], name)
        i = n.get(key, 0)
        n[key] = i + 1
        try:
            cnt = int(f[1])
        except ValueError:
            cnt = None
        series.setdefault(key, []).append((i, cnt))
        times[i] = t
    return series, times


class Checker:
    def __init__(self):
        self.failed = 0
        self.nwrap = 0

    def ok(self, cond, msg):
        print(('ok ' if cond else 'not ok ') + msg)
        if not cond:
            self.failed += 1
        return cond


def check_hvtop(ck, name, sec, calls, callnos, events, label):
    """Match every value of an hvtop CSV section; returns the matches."""
    series, _ = hvtop_series(sec['lines'], events)
    if not ck.ok(sec['rc'] == 0 and series,
                 f'{label}: hvtop ran and printed counters '
                 f'(status {sec["rc"]}, {len(series)} counters)'):
        print('\n'.join('# ' + line for line in sec['lines'][-10:]))
        return {}
    nval = nempty = nbad = nnoreason = nwrap = nfirst = 0
    bad = []
    result = {}
    for key, vals in sorted(series.items()):
        u = history(calls, callnos, key[:3])
        deltas = []
        for seq, x, reason in vals:
            if x is None:
                deltas.append(None)
                if not reason:
                    nnoreason += 1
                continue
            deltas.append(x)
        res = match_series(u, deltas)
        result[key] = (vals, res, u)
        for (i, d, st, pair), (seq, _, _) in zip(res, vals):
            if st == 'empty':
                nempty += 1
            elif st == 'ok':
                nval += 1
                if seq == 1:
                    nfirst += 1
                if u[pair[1]][2] < u[pair[0]][2]:
                    nwrap += 1
            else:
                nbad += 1
                if len(bad) < 5:
                    bad.append(f'{key[3]} {("chip", "core")[key[0] - 1]} '
                               f'{key[1]} interval {seq}: {d:.0f}')
    ck.nwrap += nwrap
    ck.ok(nbad == 0, f'{label}: {nval} values are hypervisor deltas '
          f'({nfirst} in the first interval, {nwrap} across a wrap at '
          f'2^64), {nbad} are not')
    for b in bad:
        print('#   not a delta: ' + b)
    ck.ok(nnoreason == 0, f'{label}: {nempty} values without a number, '
          f'each with its reason')
    return result


def perf_check(ck, sec, calls, callnos, events, label):
    series, times = perf_series(sec['lines'], events)
    if not ck.ok(len(series) > 0, f'{label}: perf stat printed counts '
                 f'({len(series)} events)'):
        print('\n'.join('# ' + line for line in sec['lines'][-10:]))
        return {}, times
    result = {}
    nval = nbad = 0
    for key, vals in sorted(series.items()):
        u = history(calls, callnos, key[:3])
        res = match_series(u, [c for _, c in vals])
        result[key] = (vals, res, u)
        for _, _, st, _ in res:
            nval += st == 'ok'
            nbad += st == 'bad'
    ck.ok(nbad == 0, f'{label}: {nval} perf counts are hypervisor deltas, '
          f'{nbad} are not')
    return result, times


def pair_rate(u, calls, pair, tbhz):
    """The truth's rate over a pair of reads: the count between them
    over the partition timebase between them."""
    a, b = pair
    dt = (calls[u[b][1]]['tb'] - calls[u[a][1]]['tb']) / tbhz
    return (u[b][0] - u[a][0]) / dt if dt > 0 else None


def side(ck, name, hsec, psec, calls, cons, events, head, table):
    """hvtop and perf stat run at once on the same events: each against
    the truth, then against each other."""
    hcalls = cons.get(name, [])
    hres = check_hvtop(ck, name, hsec, calls, hcalls, events,
                       f'{name}: hvtop')
    pres, ptimes = perf_check(ck, psec, calls, hcalls, events,
                              f'{name}: perf')
    _, hsecs = hvtop_series(hsec['lines'], events)
    tbhz = head.get('tb_hz', 512000000)
    # Largest rate error against the truth over the tool's own reads,
    # first interval apart (it starts at the events' opening).
    err = {'hvtop': [0.0, 0.0], 'perf': [0.0, 0.0]}
    worst = 0.0
    nsteady = 0
    notes = []
    rows = []
    for key in sorted(set(hres) & set(pres)):
        hv, hm, u = hres[key]
        pv, pm, _ = pres[key]
        hs = ps = ht = pt = 0.0
        span = {'hvtop': [None, None], 'perf': [None, None]}
        truths = []
        per = []
        for i in range(min(len(hm), len(pm))):
            seq = hv[i][0]
            h, hst, hpair = hm[i][1], hm[i][2], hm[i][3]
            p, pst, ppair = pm[i][1], pm[i][2], pm[i][3]
            hsec_i = hsecs.get(seq)
            pdt = ptimes.get(i, 0) - ptimes.get(i - 1, 0.0) \
                if i > 0 else ptimes.get(0, 0)
            hr = h / hsec_i if hst == 'ok' and hsec_i else None
            pr = p / pdt if pst == 'ok' and pdt > 0 else None
            for tool, r, pair in (('hvtop', hr, hpair), ('perf', pr, ppair)):
                if r is None:
                    continue
                sp = span[tool]
                sp[0] = pair[0] if sp[0] is None else sp[0]
                sp[1] = pair[1]
                tr = pair_rate(u, calls, pair, tbhz)
                if tr:
                    e = err[tool]
                    e[i > 0] = max(e[i > 0], abs(r - tr) / tr)
                    if i > 0:
                        truths.append(tr)
            if hr is not None:
                hs += h
                ht += hsec_i
            if pr is not None:
                ps += p
                pt += pdt
            if i > 0 and hr is not None and pr is not None:
                per.append((i + 1, hr, pr))
            elif hst != pst:
                who = 'hvtop' if hst == 'ok' else 'perf' \
                    if pst == 'ok' else 'neither'
                notes.append(f'{key[3]} interval {i + 1}: hvtop {h} '
                             f'({hst}), perf {p} ({pst}): the truth '
                             f'supports {who}')
        # A counter at a steady rate (a clock, or any on a steady=1
        # frame): intervals that do not line up to the millisecond still
        # count the same.  The truth's own rates spread by a record
        # update period over an interval (0.4 % for 1 ms in 0.3 s).
        if truths and max(truths) - min(truths) < 0.005 * max(truths):
            nsteady += 1
            for i, hr, pr in per:
                d = abs(hr - pr) / hr
                worst = max(worst, d)
                if d > 0.01:
                    notes.append(f'{key[3]} interval {i}: hvtop '
                                 f'{hr:.6g}/s, perf {pr:.6g}/s')
        # The truth over each tool's own first to last read.
        th, tp = (pair_rate(u, calls, tuple(span[t]), tbhz)
                  if None not in span[t] else None
                  for t in ('hvtop', 'perf'))
        rows.append((key[3], key[1], th, hs / ht if ht else None, tp,
                     ps / pt if pt else None))
    # Rates rest on when each tool took its time, which a loaded host
    # moves: said, with the counts above as what passes or fails.
    e = err['hvtop']
    print(f'# {name}: hvtop: rates against the truth over the same reads: '
          f'largest {e[1] * 100:.3f} %; first interval {e[0] * 100:.2f} %')
    # perf stat stamps an interval once and reads its events one hcall
    # after another.
    e = err['perf']
    print(f'# {name}: perf: rates against the truth over the same reads: '
          f'largest {e[1] * 100:.3f} %; first interval {e[0] * 100:.2f} %')
    print(f'# {name}: hvtop and perf interval by interval on the '
          f'{nsteady} steady counters: largest difference '
          f'{worst * 100:.3f} % ({"within" if worst <= 0.01 else "past"} '
          f'1 %)')
    for d in notes[:10]:
        print('#   ' + d)
    if len(notes) > 10:
        print(f'#   ... {len(notes) - 10} more')
    table.extend(rows)


def main(argv):
    if len(argv) < 6:
        print(__doc__, file=sys.stderr)
        return 2
    expect = [a[2:] for a in argv if a.startswith('--')]
    argv = [a for a in argv if not a.startswith('--')]
    head, calls = read_truth(argv[1])
    cons = read_console(argv[2])
    events = read_events(argv[3])
    secs = read_sections(argv[4])
    ck = Checker()
    table = []
    for s in argv[5:]:
        if s.startswith('side:'):
            _, h, p = s.split(':')
            if h not in secs or p not in secs:
                ck.ok(False, f'{h}, {p}: sections present')
                continue
            # Both ran at once: the calls are those made while hvtop ran.
            cons_side = dict(cons)
            cons_side[h] = cons.get(h, []) or cons.get('side', [])
            side(ck, h, secs[h], secs[p], calls, cons_side, events, head,
                 table)
            continue
        if s not in secs:
            ck.ok(False, f'{s}: section present')
            continue
        check_hvtop(ck, s, secs[s], calls, cons.get(s, []), events, s)
    if table:
        # Per event: the truth over hvtop's reads, hvtop's rate over its
        # intervals, and the same for perf (rates a second).
        print('# event                         chip  truth(hvtop)  hvtop  '
              '       truth(perf)   perf')
        for name, ix, th, hr, tp, pr in table:
            def f(x):
                return f'{x:<13.6g}' if x is not None else '-            '
            print(f'# {name:<29} {ix:<5} {f(th)} {f(hr)} {f(tp)} {f(pr)}')
    versions = sorted({c['version'] for c in calls.values()})
    rcs = {}
    for c in calls.values():
        rcs[c['rc']] = rcs.get(c['rc'], 0) + 1
    short = sum(1 for c in calls.values() if c['drc'] == 0x0002)
    print(f'# truth: {len(calls)} data calls, return codes '
          f'{dict(sorted(rcs.items()))}, {short} cut short, catalog '
          f'versions {versions}')
    if 'wrap' in expect:
        ck.ok(ck.nwrap > 0, f'a counter wrapped at 2^64 within the run '
              f'and hvtop showed its delta ({ck.nwrap} values)')
    if 'faults' in expect:
        ck.ok(rcs.get(1, 0) > 0 and short > 0 and len(versions) > 1,
              f'the run saw H_BUSY ({rcs.get(1, 0)} calls), short results '
              f'({short}) and a catalog version change ({versions})')
    return 1 if ck.failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
