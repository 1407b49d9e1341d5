#!/usr/bin/env python3
"""Check partitions' counts from the virtual LPAR: perf stat -I on
hv_24x7/EVENT,domain=D,lpar=N,core=M/ (D = 3..6) and hvtop's @lpar pick
against the hypervisor's truth log of the same boot, and against each
other.

  part-check.py TRUTH CONSOLE EVENTS OUT SECTION...

The first four as for truth-check.py.  A SECTION is
  part:HVTOP:PERF       hvtop's CSV and perf stat -x, -I, run at once
  all:HVTOP             hvtop's @lpar without a list: the partitions there
  absent:PERF           perf on a partition the frame does not have
  denied:HVTOP:PERF:OTHER  without the permission: hvtop's @lpar, perf
                        on this partition, perf on another
  conserve:HVTOP:PERF   the frame in two views: partitions' vcpus
                        (domains 3-6) and the physical cores (domain 2)
                        read at once by perf stat -I and by hvtop
Options: --lpars=1,2,3 the partitions PERF and HVTOP read, --all=1,2,3
the ones the frame lets this partition see.

The frame must be steady (steady=1): each counter then runs at one rate,
so tools whose intervals do not line up still count the same per second.
Every perf count must be a delta between two of the hypervisor's reads,
and its rate the truth's over those reads within 1 % (the first interval
apart: it starts when the events open).  hvtop's rows, a partition's
vcpus summed, must be within 1 % of the truth's rate and of perf's, per
placement and interval.  Prints "ok ..." / "not ok ..." / "SKIP NAME:
REASON" lines and the largest relative error per domain.

In conserve, the partitions read count together no more of each event
than the physical cores: in the truth (each counter's steady rate over
the section's reads, summed per view), in perf's counts per interval and
in hvtop's rows per interval, to within 1 % (the views are read by
separate calls, some milliseconds apart).
"""
import csv
import importlib.util
import os
import re
import sys

here = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location(
    'truth_check', os.path.join(here, 'truth-check.py'))
tc = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tc)

# The placements, domain 3 + p, as hvtop names them.
PLACES = ('home_core', 'home_chip', 'home_node', 'remote_node')
LIMIT = 0.01
# An interval whose length the tool and the hypervisor see this far
# apart was held up by the host (a stalled virtual processor between
# the tool's taking its time and its reads): its rates say so much about
# the host and nothing about the counts, which are checked exactly.
HELD = 0.005
# What hvtop says when it cannot read partitions at all.
NO_LPAR = "unknown domain '@lpar'"
HMC = 'allow performance information collection'


def steady_rate(u, calls, tbhz):
    """The truth's rate of a counter over its first to last read."""
    if len(u) < 2:
        return None
    dt = (calls[u[-1][1]]['tb'] - calls[u[0][1]]['tb']) / tbhz
    return (u[-1][0] - u[0][0]) / dt if dt > 0 else None


def rel(a, b):
    """a's relative difference from b (0 when both are 0)."""
    if b == 0:
        return 0.0 if a == 0 else float('inf')
    return abs(a - b) / abs(b)


def place_of(text):
    """A placement's number from its name or domain, else None."""
    t = text.strip().lower().replace('-', '_').replace(' ', '_')
    if t in PLACES:
        return PLACES.index(t)
    m = re.match(r'(?:d|domain=?)?([3-6])$', t)
    return int(m.group(1)) - 3 if m else None


# The derived columns of a partition's row, and how the truth gives them
# from its rates per placement of cycles c, instructions i and non-idle
# cycles n (None when hvtop does not read them: its IPC is then over
# cycles).
DERIVED = {
    'off_home_chip': lambda c, i, n: (c[2] + c[3]) / sum(c),
    'remote_node': lambda c, i, n: c[3] / sum(c),
    'ipc': lambda c, i, n: sum(i) / sum(n if n is not None else c),
}
NONIDLE = 'CPM_NON_IDLE_PCYC'


def truth_places(calls, callnos, events, name, tbhz):
    """The truth's steady rate of event name per (partition, placement),
    its vcpus summed; {} when the event is not known."""
    if name not in events:
        return {}
    off = events[name][1]
    keys = set()
    for c in callnos:
        if c in calls and calls[c]['rc'] == 0:
            keys |= {k for k in calls[c]['vals']
                     if k[0] >= 3 and k[2] == off}
    out = {}
    for key in keys:
        r = steady_rate(tc.history(calls, callnos, key), calls, tbhz)
        if r is not None:
            k = (key[1][0], key[0] - 3)
            out[k] = out.get(k, 0.0) + r
    return out


def hvtop_lpar_rows(lines, names, derived=None):
    """hvtop's CSV partition rows: ({(lpar, vcpu, place, name): [(seq,
    rate or None, reason)]}, {seq: seconds}, the partitions shown).
    derived, when given, gets {(lpar, seq): {column: value}} of the
    DERIVED columns of each partition's row.
    vcpu is None on a partition's row (its vcpus summed), place None
    for the sum of the placements.  Reads a placement either from a
    column of its own (long form) or from the event column's name
    (EVENT.home_core and the like)."""
    text = [ln for ln in lines if ln.startswith('time,') or
            re.match(r'\d{4}-', ln)]
    series = {}
    secs = {}
    shown = set()
    rd = csv.reader(text)
    cols = None
    evcols = []
    for f in rd:
        if f and f[0] == 'time':
            cols = f
            evcols = []
            for i, c in enumerate(cols):
                head = re.sub(r' \[[^]]*\]$', '', re.sub(r' \{.*\}$', '',
                                                          c))
                for n in names:
                    if head == n:
                        evcols.append((i, n, None))
                    elif head.startswith(n) and len(head) > len(n) and \
                            head[len(n)] in '.:@_ /' and \
                            place_of(head[len(n) + 1:]) is not None:
                        evcols.append((i, n, place_of(head[len(n) + 1:])))
            continue
        if cols is None or len(f) < len(cols):
            continue
        r = dict(zip(cols, f))
        if r.get('index') == 'total':
            continue
        lpar = r.get('lpar', '')
        vcpu = r.get('vcpu', '')
        dom = r.get('domain', '')
        if lpar == '' and dom == 'lpar':
            lpar = r['index']
        elif lpar == '' and dom.startswith('lpar') and \
                r['index'].isdigit():
            ix = int(r['index'])
            lpar, vcpu = str(ix >> 16), str(ix & 0xffff)
        if lpar in ('', 'total'):
            continue
        lpar = int(lpar, 0)
        vcpu = int(vcpu, 0) if vcpu not in ('', 'total') else None
        shown.add(lpar)
        rowplace = None
        if 'placement' in r and r['placement'] not in ('', 'all',
                                                       'total'):
            rowplace = place_of(r['placement'])
        seq = int(r['seq'])
        sec = float(r['interval_s'])
        secs[seq] = sec
        if derived is not None and vcpu is None and rowplace is None:
            for c in DERIVED:
                if r.get(c, '') != '':
                    derived.setdefault((lpar, seq), {})[c] = float(r[c])
        for i, n, p in evcols:
            place = p if p is not None else rowplace
            key = (lpar, vcpu, place, n)
            v = f[i]
            if v == '':
                why = r.get('reason', '') or r.get('error', '')
                series.setdefault(key, []).append((seq, None, why))
            else:
                series.setdefault(key, []).append((seq, float(v), ''))
    return series, secs, shown


def series_order(item):
    """Series in order, None (a sum) first."""
    return tuple(-1 if x is None else x for x in item[0][:3]) + (item[0][3],)


def section_text(sec):
    return '\n'.join(sec['lines'])


# Whether hvtop's perf source finds partitions: None when it does, else
# why not (set from the guest's probe section).
no_discovery = None


def hvtop_unsupported(ck, name, sec):
    """Whether hvtop cannot read partitions yet: said as a SKIP."""
    if sec['rc'] != 0 and NO_LPAR in section_text(sec):
        print(f'SKIP {name}: hvtop does not read partitions (-g '
              f'GROUP@lpar) yet')
        return True
    if no_discovery is not None:
        print(f'SKIP {name}: {no_discovery}')
        return True
    return False


def held_note(name, tool, clock):
    """The intervals over which the tool's clock and the hypervisor's
    parted by more than HELD: the host held the guest up between the
    tool's taking its time and its reads.  Said, and returned."""
    held = {i for i, c in clock.items() if c > HELD}
    if held:
        print(f'# {name}: {tool}: intervals the host held up, left out of '
              f'the rates (the tool\'s interval against the hypervisor\'s '
              f'time between its reads): ' + ', '.join(
                  f'{i} ({clock[i] * 100:.2f} %)' for i in sorted(held)))
    return held


def rate_check(ck, cond, n, msg):
    """A check of rates, or a SKIP when the host held up every one."""
    if n == 0:
        print(f'SKIP {msg.split(":")[0]}-rates: the host held up every '
              f'interval')
        return
    ck.ok(cond, msg)


def perf_part(ck, name, psec, calls, callnos, events, tbhz):
    """perf's counts against the truth; returns {(lpar, place, event):
    {interval: rate summed over the vcpus}} for the intervals the host
    did not hold up, and the truth's steady rates per (lpar, place,
    event), also summed."""
    res, times = tc.perf_check(ck, psec, calls, callnos, events,
                               f'{name}: perf')
    # perf prints a last, shorter interval when its command ends: left
    # out, as the first is (it starts when the events open).
    lens = sorted(times[i] - times[i - 1] for i in times if i > 0)
    full = lens[len(lens) // 2] * 0.9 if lens else 0

    def span(i):
        return times.get(i, 0) - times.get(i - 1, 0.0) if i > 0 \
            else times.get(0, 0)
    clock = {}
    for key, (vals, m, u) in res.items():
        for i, cnt, st, pair in m:
            pdt = span(i)
            if st != 'ok' or i == 0 or pdt < full or pdt <= 0:
                continue
            tdt = (calls[u[pair[1]][1]]['tb'] -
                   calls[u[pair[0]][1]]['tb']) / tbhz
            if tdt > 0:
                clock[i] = max(clock.get(i, 0.0), abs(pdt / tdt - 1))
    held = held_note(name, 'perf', clock)
    worst = {}		# domain -> largest error, per counter
    first = {}
    nint = 0
    sums = {}		# (lpar, place, name) -> {interval: rate}
    truth = {}
    for key, (vals, m, u) in sorted(res.items()):
        dom, (lpar, vcpu), _, ev = key
        if dom < 3:
            continue
        p = dom - 3
        tr = steady_rate(u, calls, tbhz)
        if tr is not None:
            k = (lpar, p, ev)
            truth[k] = truth.get(k, 0.0) + tr
        for i, cnt, st, pair in m:
            pdt = span(i)
            if st != 'ok' or pdt <= 0 or pdt < full or i in held:
                continue
            r = cnt / pdt
            s = sums.setdefault((lpar, p, ev), {})
            s[i] = s.get(i, 0.0) + r
            pr = tc.pair_rate(u, calls, pair, tbhz)
            if pr is None:
                continue
            e = rel(r, pr)
            if i == 0:
                first[dom] = max(first.get(dom, 0.0), e)
            else:
                worst[dom] = max(worst.get(dom, 0.0), e)
                nint += 1
    doms = sorted(set(worst) | set(first))
    for d in doms:
        print(f'# {name}: perf, domain {d}: largest rate error against '
              f'the truth over the same reads {worst.get(d, 0) * 100:.3f} '
              f'% (first interval {first.get(d, 0) * 100:.2f} %)')
    rate_check(ck, doms == [3, 4, 5, 6] and
               all(worst.get(d, 1) <= LIMIT for d in doms), nint,
               f'{name}: perf stat -I in domains {doms}: {nint} interval '
               f'rates within 1 % of the truth '
               f'(largest {max(worst.values(), default=0) * 100:.3f} %)')
    # The partition's vcpus summed, per placement: against the truth.
    ws = {}
    for (lpar, p, ev), s in sums.items():
        t = truth.get((lpar, p, ev))
        for i, r in s.items():
            if i > 0 and t:
                ws[p + 3] = max(ws.get(p + 3, 0.0), rel(r, t))
    print(f'# {name}: perf, vcpus summed per partition and placement, '
          f'against the truth\'s steady rate: largest ' + ', '.join(
              f'domain {d} {ws[d] * 100:.3f} %' for d in sorted(ws)))
    rate_check(ck, all(e <= LIMIT for e in ws.values()), len(ws),
               f'{name}: perf, vcpus summed per partition and placement, '
               f'within 1 % of the truth')
    return sums, truth


def hvtop_part(ck, name, hsec, lpars, sums, truth, calls, callnos,
               events, names, tbhz):
    """hvtop's partition rows against the truth and perf."""
    if hvtop_unsupported(ck, f'{name}-hvtop', hsec):
        return
    derived = {}
    series, secs, shown = hvtop_lpar_rows(hsec['lines'], names, derived)
    if not ck.ok(hsec['rc'] == 0 and series,
                 f'{name}: hvtop ran and printed partition rows '
                 f'(status {hsec["rc"]}, {len(series)} series)'):
        print('\n'.join('# ' + ln for ln in hsec['lines'][-10:]))
        return
    ck.ok(shown == set(lpars), f'{name}: hvtop shows partitions '
          f'{sorted(shown)}, those asked for {sorted(lpars)}')
    clock = vcpu_deltas(ck, name, series, secs, calls, callnos, events,
                        tbhz)
    sums_check(ck, name, series)
    held = held_note(name, 'hvtop', clock)
    werr = {}		# domain (or 'all') -> largest error, truth
    wperf = {}
    nval = nempty = nnoreason = nboth = 0
    places_seen = set()
    for (lpar, vcpu, p, ev), vals in sorted(series.items(),
                                            key=series_order):
        if vcpu is not None:
            continue
        places_seen.add(p)
        if p is None:
            t = sum(truth.get((lpar, q, ev), 0.0) for q in range(4))
            s = {}
            for q in range(4):
                for i, r in sums.get((lpar, q, ev), {}).items():
                    s[i] = s.get(i, 0.0) + r
            dk = 'sum'
        else:
            t = truth.get((lpar, p, ev))
            s = sums.get((lpar, p, ev), {})
            dk = p + 3
        for n, (seq, r, why) in enumerate(vals):
            if r is None:
                nempty += 1
                nnoreason += why == ''
                continue
            if seq <= 1 or seq in held:
                continue
            nval += 1
            if t:
                werr[dk] = max(werr.get(dk, 0.0), rel(r, t))
            # perf's interval of the same number (perf's first is
            # its 0); rates are steady, so intervals need not line up.
            pr = s.get(n)
            if pr:
                nboth += 1
                wperf[dk] = max(wperf.get(dk, 0.0), rel(r, pr))
    ck.ok(nnoreason == 0, f'{name}: {nempty} hvtop values without a '
          f'number, each with its reason')
    for d in sorted(werr, key=str):
        print(f'# {name}: hvtop, domain {d}: largest error against the '
              f'truth {werr[d] * 100:.3f} %, against perf '
              f'{wperf.get(d, 0) * 100:.3f} %')
    ck.ok({0, 1, 2, 3} <= places_seen or None in places_seen,
          f'{name}: hvtop rows carry placements '
          f'{sorted(PLACES[p] for p in places_seen if p is not None)}')
    rate_check(ck, all(e <= LIMIT for e in werr.values()), nval,
               f'{name}: {nval} hvtop rates, vcpus summed, within 1 % of '
               f'the truth (largest '
               f'{max(werr.values(), default=0) * 100:.3f} %)')
    rate_check(ck, all(e <= LIMIT for e in wperf.values()), nboth,
               f'{name}: hvtop and perf stat -I within 1 % interval by '
               f'interval ({nboth} rates, largest '
               f'{max(wperf.values(), default=0) * 100:.3f} %)')
    # The shares off the home chip and on a remote node, and IPC: against
    # the same from the truth's rates (cycles and instructions events).
    cyc, ins = names[0], names[1]
    reads_nonidle = any(f'{NONIDLE} [' in ln for ln in hsec['lines']
                        if ln.startswith('time,'))
    nonidle = truth_places(calls, callnos, events, NONIDLE, tbhz) \
        if reads_nonidle else {}
    wd = {}
    nd = 0
    for (lpar, seq), vals in sorted(derived.items()):
        if seq <= 1 or seq in held:
            continue
        c = [truth.get((lpar, q, cyc), 0.0) for q in range(4)]
        i = [truth.get((lpar, q, ins), 0.0) for q in range(4)]
        n = [nonidle.get((lpar, q), 0.0) for q in range(4)] \
            if reads_nonidle else None
        if sum(c) == 0 or (n is not None and sum(n) == 0):
            continue
        for col, v in vals.items():
            nd += 1
            wd[col] = max(wd.get(col, 0.0),
                          rel(v, DERIVED[col](c, i, n)))
    if derived:
        print(f'# {name}: hvtop against the truth: largest ' + ', '.join(
            f'{c} {wd[c] * 100:.3f} %' for c in sorted(wd)))
        rate_check(ck, all(e <= LIMIT for e in wd.values()), nd,
                   f'{name}: {nd} of hvtop\'s shares off the home chip, '
                   f'on a remote node and IPC within 1 % of the truth\'s')


def sums_check(ck, name, series):
    """A partition's row is the sum of its vcpus' rows, placement by
    placement, and each row's "all" the sum of its placements."""
    rows = {}
    for (lpar, vcpu, p, ev), vals in series.items():
        for seq, r, _ in vals:
            if r is not None:
                rows[(lpar, vcpu, p, ev, seq)] = r
    n = nbad = 0
    for (lpar, vcpu, p, ev, seq), r in rows.items():
        parts = []
        if vcpu is None:
            parts.append([x for (l2, v2, p2, e2, s2), x in rows.items()
                          if l2 == lpar and v2 is not None and p2 == p
                          and e2 == ev and s2 == seq])
        if p is None:
            parts.append([rows.get((lpar, vcpu, q, ev, seq))
                          for q in range(4)])
        for xs in parts:
            if not xs or None in xs:
                continue
            n += 1
            if abs(sum(xs) - r) > 1e-9 * abs(r) + 1e-6:
                nbad += 1
    ck.ok(n > 0 and nbad == 0, f'{name}: {n} hvtop sums (a partition of '
          f'its vcpus, a row of its placements) add up, {nbad} do not')


def vcpu_deltas(ck, name, series, secs, calls, callnos, events, tbhz):
    """hvtop's rows per vcpu and placement: each count one of the
    hypervisor's deltas, as for the physical domains.  Returns, per
    interval, how far hvtop's interval and the hypervisor's time between
    the reads parted at most (a fraction)."""
    nv = nbad = 0
    clock = {}
    for (lpar, vcpu, p, ev), vals in sorted(series.items(),
                                            key=series_order):
        if vcpu is None or p is None:
            continue
        if lpar == 0xffff:
            lpar = tc.SELF_LPAR
        key = (p + 3, (lpar, vcpu), events[ev][1])
        u = tc.history(calls, callnos, key)
        deltas = [None if r is None else r * secs[seq]
                  for seq, r, _ in vals]
        for i, _, st, pair in tc.match_series(u, deltas):
            nv += st == 'ok'
            nbad += st == 'bad'
            if st != 'ok':
                continue
            seq = vals[i][0]
            tdt = (calls[u[pair[1]][1]]['tb'] -
                   calls[u[pair[0]][1]]['tb']) / tbhz
            if tdt > 0:
                clock[seq] = max(clock.get(seq, 0.0),
                                 abs(secs[seq] / tdt - 1))
    ck.ok(nv > 0 and nbad == 0, f'{name}: {nv} hvtop vcpu values are '
          f'hypervisor deltas, {nbad} are not')
    return clock


def view_sums(ck, name, tool, sums, names, ncores):
    """Per interval and event, the vcpus' sum against the cores'."""
    n = nbad = 0
    worst = 0.0
    for (i, ev), (v, c) in sorted(sums.items()):
        if ev not in names or v is None or c is None or c <= 0:
            continue
        n += 1
        worst = max(worst, v / c)
        if v > c * (1 + LIMIT):
            nbad += 1
            print(f'# {name}: {tool} interval {i} {ev}: partitions {v:.6g}'
                  f' > cores {c:.6g}')
    ck.ok(n > 0 and nbad == 0, f'{name}: {tool}: in {n} intervals and '
          f'events the partitions count at most what the {ncores} cores '
          f'do ({nbad} more; largest share {worst * 100:.1f} %)')


def conserve(ck, name, hsec, psec, calls, callnos, events, names, tbhz):
    """The frame in two views: the partitions' vcpus in domains 3-6
    against the physical cores in domain 2, in the truth, perf and
    hvtop."""
    keys = set()
    for c in callnos:
        if c in calls and calls[c]['rc'] == 0:
            keys |= set(calls[c]['vals'])
    offs = {events[n][1]: n for n in names if n in events}
    truth = {}
    cores = set()
    vcpus = set()
    for key in keys:
        dom, ix, off = key
        if off not in offs or dom < 2:
            continue
        r = steady_rate(tc.history(calls, callnos, key), calls, tbhz)
        if r is None:
            continue
        view = 1 if dom == 2 else 0
        (cores if view else vcpus).add(ix)
        t = truth.setdefault(offs[off], [0.0, 0.0])
        t[view] += r
    ncores = len(cores)
    ck.ok(ncores > 0 and len(vcpus) > 0, f'{name}: the truth has both '
          f'views ({len(vcpus)} vcpus, {ncores} cores)')
    view_sums(ck, name, 'truth', {(0, ev): tuple(t)
                                  for ev, t in truth.items()}, names,
              ncores)
    series, _ = tc.perf_series(psec['lines'], events)
    sums = {}
    for (dom, ix, off, ev), vals in series.items():
        for i, cnt in vals:
            # The first interval starts when the events open.
            if i == 0 or cnt is None:
                continue
            s = sums.setdefault((i, ev), [0.0, 0.0])
            s[1 if dom == 2 else 0] += cnt
    view_sums(ck, name, 'perf stat -I', {k: tuple(v) for k, v in
                                         sums.items()}, names, ncores)
    if hvtop_unsupported(ck, f'{name}-hvtop', hsec):
        return
    text = [ln for ln in hsec['lines'] if ln.startswith('time,') or
            re.match(r'\d{4}-', ln)]
    sums = {}
    used = {}
    for r in csv.DictReader(text):
        ev_cols = {c: re.sub(r' \[[^]]*\]$', '', c) for c in r
                   if c and c.endswith(']')}
        seq = r.get('seq')
        if r.get('domain') == 'core' and r.get('index') == 'total':
            view = 1
        elif r.get('domain') == 'lpar' and r.get('placement') == 'all' \
                and r.get('index') not in ('', 'total'):
            view = 0
            if r.get('cores'):
                used[seq] = used.get(seq, 0.0) + float(r['cores'])
        else:
            continue
        for col, ev in ev_cols.items():
            if r[col] == '':
                continue
            s = sums.setdefault((int(seq), ev), [0.0, 0.0])
            s[view] += float(r[col])
    ck.ok(hsec['rc'] == 0 and sums, f'{name}: hvtop ran and printed both '
          f'views (status {hsec["rc"]})')
    view_sums(ck, name, 'hvtop', {k: tuple(v) for k, v in sums.items()},
              names, ncores)
    ck.ok(used and all(u <= ncores * (1 + LIMIT) for u in used.values()),
          f'{name}: hvtop: the partitions use at most the frame\'s '
          f'{ncores} cores (largest {max(used.values(), default=0):.2f})')


def main(argv):
    opts = dict(a[2:].split('=', 1) for a in argv[1:]
                if a.startswith('--') and '=' in a)
    argv = [a for a in argv if not a.startswith('--')]
    if len(argv) < 6:
        print(__doc__, file=sys.stderr)
        return 2
    lpars = [int(x) for x in opts.get('lpars', '1,2,3').split(',')]
    allp = [int(x) for x in opts.get('all', '1,2,3').split(',')]
    tc.SELF_LPAR = int(opts.get('self', '1'))
    head, calls = tc.read_truth(argv[1])
    cons = tc.read_console(argv[2])
    events = tc.read_events(argv[3])
    secs = tc.read_sections(argv[4])
    tbhz = head.get('tb_hz', 512000000)
    names = opts.get('events', 'CPM_CCYC,CPM_NON_IDLE_INST').split(',')
    ck = tc.Checker()
    probe = secs.get('lpar-probe')
    if probe is not None and probe['rc'] != 0 and \
            re.search(r'(unknown|no such) option', section_text(probe)):
        global no_discovery
        no_discovery = ('hvtop\'s perf source does not find the frame\'s '
                        'partitions yet (no -O lpars=)')
    for s in argv[5:]:
        kind, *parts = s.split(':')
        missing = [p for p in parts if p not in secs]
        if missing:
            ck.ok(False, f'{", ".join(missing)}: sections present')
            continue
        if kind == 'part':
            h, p = parts
            callnos = cons.get(h, []) or cons.get('part', [])
            sums, truth = perf_part(ck, 'part', secs[p], calls, callnos,
                                    events, tbhz)
            ck.ok({lp for lp, _, _ in truth} == set(lpars),
                  f'part: perf read partitions '
                  f'{sorted({lp for lp, _, _ in truth})}')
            hvtop_part(ck, 'part', secs[h], lpars, sums, truth, calls,
                       callnos, events, names, tbhz)
        elif kind == 'all':
            sec = secs[parts[0]]
            if hvtop_unsupported(ck, 'part-all', sec):
                continue
            _, _, shown = hvtop_lpar_rows(sec['lines'], names)
            ck.ok(sec['rc'] == 0 and shown == set(allp),
                  f'part-all: hvtop @lpar shows partitions '
                  f'{sorted(shown)}: those the frame has, but 0 '
                  f'(status {sec["rc"]})')
        elif kind == 'absent':
            sec = secs[parts[0]]
            ck.ok(sec['rc'] != 0 and 'lpar=9' in section_text(sec),
                  f'part-absent: perf fails to open partition 9, which '
                  f'the frame does not have (status {sec["rc"]})')
        elif kind == 'conserve':
            h, p = parts
            conserve(ck, 'conserve', secs[h], secs[p], calls,
                     cons.get('conserve', []), events, names, tbhz)
        elif kind == 'denied':
            h, p, o = parts
            ps, pt = tc.perf_series(secs[p]['lines'], events)
            ck.ok(secs[p]['rc'] == 0 and len(ps) > 0,
                  f'denied: perf reads this partition (lpar=0xffff) '
                  f'(status {secs[p]["rc"]})')
            ck.ok(secs[o]['rc'] != 0,
                  f'denied: perf fails to open another partition '
                  f'(status {secs[o]["rc"]})')
            sec = secs[h]
            if hvtop_unsupported(ck, 'denied-hvtop', sec):
                continue
            series, secs_of, shown = hvtop_lpar_rows(sec['lines'], names)
            ck.ok(sec['rc'] == 0 and len(shown) == 1 and
                  shown <= {tc.SELF_LPAR, 0xffff},
                  f'denied: hvtop shows this partition alone '
                  f'({sorted(shown)}, status {sec["rc"]})')
            got = {p for (_, v, p, _), vals in series.items()
                   if v is None and any(r is not None for _, r, _ in vals)}
            ck.ok({0, 1, 2, 3} <= got or
                  (None in got and len(got) == 1),
                  f'denied: with values in its placements '
                  f'{sorted(PLACES[q] for q in got if q is not None)}')
            # Once: a line on its own, or the first interval's rows.
            said = [ln for ln in sec['lines'] if HMC in ln.lower()]
            alone = [ln for ln in said if not re.match(r'\d{4}-', ln)]
            later = [ln for ln in said if re.match(r'\d{4}-', ln) and
                     next(csv.reader([ln]))[1] != '1']
            ck.ok(said and len(alone) <= 1 and not later,
                  f'denied: hvtop says once why: "{HMC} ..." on the HMC '
                  f'({len(alone)} lines, {len(said) - len(alone)} rows '
                  f'of the first interval, {len(later)} later)')
            vcpu_deltas(ck, 'denied', series, secs_of, calls,
                        cons.get(h, []), events, tbhz)
            sums_check(ck, 'denied', series)
        else:
            ck.ok(False, f'{s}: a section kind part-check.py knows')
    print(f'# truth: {len(calls)} data calls')
    return 1 if ck.failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
