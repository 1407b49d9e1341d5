#!/usr/bin/env python3
"""Generate the JSON sources of the catalogs hvtop ships.

    scripts/gen-catalogs.py [--check]

writes catalogs/power8.json, catalogs/power9.json and catalogs/power10.json
from the data in catalogs/upstream/ (IBM's CSV dump of a POWER8 catalog,
perf's hv_24x7 nest metrics) and the real POWER8 catalog in
tests/data/catalog/ (for its group record schemas).  The build does not run
this script: it runs `hvcat build` on the JSON files, which are committed.
With --check nothing is written; the exit status says whether the committed
files are what the script would write.

power8 is IBM's catalog as dumped.  power9 and power10 are layouts made by
hvtop: real event names (perf's nest metrics, POWER8's core events with
the CPM_ prefix later kernels and tests show), in groups and schemas
defined here, with perf's metrics as formulas.  catalogs/README.md says
which is which and why.
"""

import argparse
import csv
import json
import os
import re
import struct
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAGE = 4096
FREE = 0xFFFF
GROUPED = 0x4           # formula flag: every operand is in the formula's group

FIELD_NAMES = {48: 'TIMEBASE_UPDATE', 49: 'TIMEBASE_FENCE',
               50: 'UPDATE_COUNT', 51: 'MEASUREMENT_PERIOD',
               52: 'ACCUMULATED_MEASUREMENT_PERIOD',
               53: 'LAST_UPDATE_PERIOD', 54: 'STATUS_FLAGS'}
for _n in range(1, 32):
    FIELD_NAMES[_n] = 'COUNTER%d' % _n

# Operands a formula may use besides events and formulas.
BUILTINS = {'delta-timebase', 'delta-cycles', 'delta-instructions',
            'delta-seconds'}
P8_CONSTANTS = {'PB_Freq', 'XBUS_Freq', 'ABUS_Freq', 'PHB_Freq'}

TOKEN = re.compile(r'\s*(delta-(?:timebase|cycles|instructions|seconds)'
                   r'|(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?'
                   r'|[A-Za-z_][A-Za-z0-9_.]*|\S)')


def fail(msg):
    sys.exit('gen-catalogs: ' + msg)


def names_in(text):
    """The names a formula's infix text uses, in order."""
    out = []
    for tok in TOKEN.findall(text):
        if tok in BUILTINS or re.match(r'[A-Za-z_]', tok):
            out.append(tok)
    return out


# ---- POWER8: IBM's dump ----------------------------------------------

def read_schemas(path):
    """The group record schemas of a real catalog, decoded from page 0 on."""
    with open(path, 'rb') as f:
        b = f.read()
    page, _pages, count = struct.unpack('>HHH', b[0x40:0x46])
    off = page * PAGE
    schemas = []
    for i in range(count):
        length, _res, desc, ver = struct.unpack('>HHHH', b[off:off + 8])
        nfields = struct.unpack('>H', b[off + 14:off + 16])[0]
        fields = []
        for k in range(nfields):
            e, o, n, fl = struct.unpack('>HHHH',
                                        b[off + 16 + 8 * k:off + 24 + 8 * k])
            field = {'enum': e}
            if e in FIELD_NAMES:
                field['name'] = FIELD_NAMES[e]
            field.update({'offset': o, 'length': n, 'flags': fl})
            fields.append(field)
        schemas.append({'index': i, 'descriptor': desc, 'version': ver,
                        'fields': fields})
        off += length
    return schemas


def read_csv(path):
    with open(path, newline='') as f:
        return list(csv.DictReader(f))


def power8(ima, schemas):
    """IBM's catalog v7 as its CSV dump has it (1330/139/36).

    The dump numbers the chip groups' event slots, the chip events'
    primary group and the formulas' group from the first chip event and
    the first chip group (the proposal v0.16 sub-sections); a catalog
    image numbers them from the start of its section, so they are moved
    by that many here.
    """
    rows = read_csv(os.path.join(ima, 'events.csv'))
    grows = read_csv(os.path.join(ima, 'groups.csv'))
    frows = read_csv(os.path.join(ima, 'formulae.csv'))
    first_chip_event = next(i for i, r in enumerate(rows)
                            if r['domain'] == '1')
    first_chip_group = next(i for i, r in enumerate(grows)
                            if r['domain'] == '1')
    if any(r['domain'] != '1' for r in rows[first_chip_event:]) or \
       any(r['domain'] != '1' for r in grows[first_chip_group:]):
        fail('power8: chip events and groups are not last in the dump')

    events = []
    for i, r in enumerate(rows):
        dom = int(r['domain'])
        pgi = int(r['primary group index'])
        if dom == 1:
            pgi += first_chip_group
        fi = int(r['formula index'])
        ro, co = int(r['record byte offset']), int(r['counter offset'])
        events.append({
            'index': i, 'name': r['name'], 'domain': dom,
            'record_offset': ro, 'record_length': int(r['record length']),
            'counter_offset': co, 'offset': ro + co,
            'flags': int(r['flag']), 'primary_group': pgi,
            'group_count': int(r['group count']),
            'formula_index': None if fi < 0 else fi,
            'description': r['description'],
            'long_description': r['detailed description']})

    groups = []
    for i, r in enumerate(grows):
        dom = int(r['domain'])
        slots = [int(x) for x in r['event indexes'].strip('()').split(',')]
        count = int(r['event count'])
        if len(slots) != 16 or any(s != 0 for s in slots[count:]):
            fail('power8: group %d: slots after the count are not 0' % i)
        used = []
        for s in slots[:count]:
            if s == FREE:
                used.append(None)
                continue
            if dom == 1:
                s += first_chip_event
            if events[s]['domain'] != dom:
                fail('power8: group %d names event %d of another domain'
                     % (i, s))
            used.append(s)
        groups.append({
            'index': i, 'name': r['name'], 'description': r['description'],
            'flags': int(r['flag']), 'domain': dom,
            'record_offset': int(r['event group offset']),
            'record_length': int(r['event group length']),
            'schema': int(r['schema index']), 'event_count': count,
            'events': used})

    formulas = []
    for i, r in enumerate(frows):
        grouped = r['Grouped'] == 'y'
        flags = int(r['flag'])
        if grouped != bool(flags & GROUPED):
            fail('power8: formula %d: Grouped and flag disagree' % i)
        formulas.append({
            'index': i, 'name': r['Formula Name'],
            'description': r['Formula Description'],
            'formula': r['Formula'], 'unit': r['Unit'], 'flags': flags,
            'group': int(r['Group']) + first_chip_group})

    doc = {
        'comment': 'POWER8 24x7 catalog version 7 (2015-04-27), from IBM\'s '
                   'CSV dump in open-power/ima-catalog (Apache-2.0) and the '
                   'schemas of a real POWER8 catalog.  Generated by '
                   'scripts/gen-catalogs.py: change the script, not this '
                   'file.',
        'magic': 0x32347837, 'length_pages': 0x40, 'version': 7,
        'build_time': '20150427114319',
        # Page 0 of catalog v7 (picture doc/page0_raw.png in the same repo).
        'sections': {
            'schemas': {'page': 0x01, 'pages': 0x01, 'count': 4},
            'events': {'page': 0x02, 'pages': 0x28, 'count': 1330},
            'groups': {'page': 0x2a, 'pages': 0x03, 'count': 139},
            'formulas': {'page': 0x2d, 'pages': 0x02, 'count': 36}},
        'events': events, 'groups': groups, 'schemas': schemas,
        'formulas': formulas}
    check(doc, P8_CONSTANTS, locations=True)
    return doc


# ---- POWER9 and POWER10: hvtop's layouts ----------------------------

CHIP_RECORD = {1: 128, 2: 192, 3: 192}      # bytes per record, by schema


def core_part(ima, renames):
    """POWER8's core events and groups with the CPM_ prefix."""
    rows = [r for r in read_csv(os.path.join(ima, 'events.csv'))
            if r['domain'] == '2']
    grows = [r for r in read_csv(os.path.join(ima, 'groups.csv'))
             if r['domain'] == '2']

    def rename(name):
        name = renames.get(name, name)
        return 'CPM_' + name[4:] if name.startswith('HPM_') else name

    events = []
    for r in rows:
        events.append({
            'name': rename(r['name']), 'domain': 2,
            'record_offset': int(r['record byte offset']),
            'record_length': int(r['record length']),
            'counter_offset': int(r['counter offset']),
            'primary_group': int(r['primary group index']),
            'group_count': int(r['group count']),
            'description': r['description'],
            'long_description': r['detailed description']})
    groups = []
    for r in grows:
        count = int(r['event count'])
        slots = [int(x) for x in r['event indexes'].strip('()').split(',')]
        groups.append({
            'name': rename(r['name']), 'description': r['description'],
            'domain': 2, 'record_offset': int(r['event group offset']),
            'record_length': int(r['event group length']), 'schema': 0,
            'events': [None if s == FREE else s for s in slots[:count]]})
    return events, groups


def describe_event(name):
    """A short description of a nest event, read off its name."""
    scope = {'VG': 'vector group', 'LNS': 'local node', 'GROUP': 'group',
             'RNS': 'remote node', 'NNS': 'near node'}
    m = re.match(r'PM_PB_(RTY_)?(VG|LNS|GROUP|RNS|NNS)_PUMP(01|23)$', name)
    if m:
        return ('PowerBus commands broadcast with %s scope%s, P%s'
                % (scope[m.group(2)], ' and retried' if m.group(1) else '',
                   m.group(3)))
    m = re.match(r'PM_([XA])LINK(\d)_OUT_(ODD|EVEN)_(TOTAL_UTIL|DATA|'
                 r'AVLBL_CYCLES)$', name)
    if m:
        what = {'TOTAL_UTIL': 'cycles in use', 'DATA': 'data cycles',
                'AVLBL_CYCLES': 'cycles available'}[m.group(4)]
        return ('%s-link %s outbound, %s half: %s'
                % (m.group(1), m.group(2), m.group(3).lower(), what))
    m = re.match(r'PM_MCS(01|23)_128B_(RD|WR)_DISP_PORT(01|23)$', name)
    if m:
        return ('128-byte %s dispatched by MCS%s, ports %s'
                % ('reads' if m.group(2) == 'RD' else 'writes', m.group(1),
                   m.group(3)[0] + '-' + m.group(3)[1]))
    m = re.match(r'PM_MCS_(128|64)B_(RD|WR)_DATA_BLOCKS_MC(\d)_CHAN01$', name)
    if m:
        return ('%s-byte %s data blocks of memory controller %s, channels 0-1'
                % (m.group(1), 'read' if m.group(2) == 'RD' else 'write',
                   m.group(3)))
    m = re.match(r'PM_PCI(\d)_32B_INOUT$', name)
    if m:
        return ('32-byte transfers to and from PCI %s over the PowerBus'
                % m.group(1))
    fixed = {
        'PM_PB_CYC': 'PowerBus cycles',
        'PM_PAU_CYC': 'PAU cycles: the PowerBus clock',
        'PM_MBA0_CLK_CYC': 'Memory buffer MBA0 clock cycles',
        'PM_PB_INT_DATA_XFER': 'PowerBus internal data transfers',
        'PM_PHB0_0_CYC': 'PCI host bridge PHB0_0 cycles',
    }
    if name not in fixed:
        fail('no description for %s' % name)
    return fixed[name]


def describe_formula(name):
    scope = {'VEC_GROUP': 'vector group', 'VECTOR_GROUP': 'vector group',
             'LOCAL_NODE': 'local node', 'GROUP': 'group',
             'REMOTE_NODE': 'remote node', 'NEAR_NODE': 'near node'}
    m = re.match(r'(VEC_GROUP|LOCAL_NODE|GROUP|REMOTE_NODE)_PUMPS?_RETR(Y|IES)'
                 r'_RATIO_P(01|23)$', name)
    if m:
        return ('Retried %s pumps, percent of all %s pumps, P%s'
                % (scope[m.group(1)], scope[m.group(1)], m.group(3)))
    m = re.match(r'TOTAL_(\w+?)_PUMPS(_RETRIES)?_P(01|23)$', name)
    if m:
        return ('%s %s pumps per PAU cycle count, P%s'
                % ('Retried' if m.group(2) else 'All',
                   scope[m.group(1)], m.group(3)))
    m = re.match(r'([XA])LINK(\d)_OUT_(TOTAL|DATA)_UTILIZATION$', name)
    if m:
        return ('%s-link %s outbound %s, percent of the cycles available'
                % (m.group(1), m.group(2),
                   'use' if m.group(3) == 'TOTAL' else 'data'))
    m = re.match(r'TOTAL_DATA_BANDWIDTH_TRANSFERRED_OVER_PB_PCI(\d)$', name)
    if m:
        return 'Data bandwidth to and from PCI %s over the PowerBus' % m.group(1)
    m = re.match(r'TOTAL_MCS_(READ|WRITE)_BW_MC(\d)_CHAN01$', name)
    if m:
        return ('%s bandwidth of memory controller %s, channels 0-1'
                % (m.group(1).capitalize(), m.group(2)))
    fixed = {
        'TOTAL_INT_PB_BW': 'PowerBus internal data bandwidth',
        'Memory_RD_BW_Chip': 'Memory read bandwidth of the chip',
        'Memory_WR_BW_Chip': 'Memory write bandwidth of the chip',
        'Memory_BW_Chip': 'Memory bandwidth of the chip, read and write',
        'PowerBUS_Frequency': 'PowerBus frequency',
        'CS_32MHZ_Frequency': 'Rate of the 32 MHz time-calibration clock '
                              'as the core counts it',
    }
    if name not in fixed:
        fail('no description for formula %s' % name)
    return fixed[name]


def perf_metrics(path):
    """(name, infix text, unit) for each hv_24x7 metric of a perf file.

    perf reports a count times ScaleUnit per interval; the catalog's
    formulas give the same value per second, so amounts (MB) and perf's
    per-interval frequencies (GHz, MHz: counts of a prescaled clock) are
    divided by delta-seconds; percentages and ratios stay as they are.
    """
    with open(path) as f:
        metrics = json.load(f)
    out = []
    for m in metrics:
        expr = m['MetricExpr']
        if 'hv_24x7@' not in expr:
            continue                # the PowerNV nest IMC metrics
        expr = re.sub(r'hv_24x7@([A-Za-z0-9_]+)[^@]*@', r'\1', expr)
        expr = re.sub(r'\s+', ' ', expr)
        expr = re.sub(r'\( ', '(', re.sub(r' \)', ')', expr)).strip()
        sm = re.match(r'([0-9.]+(?:e-?\d+)?)(.*)$', m['ScaleUnit'])
        scale, unit = sm.group(1), sm.group(2)
        m2 = re.match(r'^\(([A-Za-z_][A-Za-z0-9_]*)\)$', expr)
        if m2:
            expr = m2.group(1)          # "(PM_PB_CYC)"
        body = expr if wrapped(expr) else '(' + expr + ')'
        if unit in ('MB', 'GHz', 'MHz'):
            text = body + ('' if scale == '1' else ' * ' + scale) + \
                ' / delta-seconds'
            unit = 'MB/s' if unit == 'MB' else unit
        elif unit == '%':
            text = expr if scale == '1' else body + ' * ' + scale
        elif unit == '':
            text = body + ' * ' + scale     # perf gives no unit
        else:
            fail('%s: unit %s' % (m['MetricName'], unit))
        name = m['MetricName']
        if name == 'CPM_CS_32MHZ_CYC':
            name = 'CS_32MHZ_Frequency'     # the event has that name
            # perf's scale of 1 MHz would make each count a million
            # cycles; the event counts each cycle of the 32 MHz clock,
            # so its rate in MHz is the count per second times 1e-6.
            if unit != 'MHz' or scale != '1':
                fail('%s: expected a scale of 1MHz' % m['MetricName'])
            text = body + ' * 1e-6 / delta-seconds'
        out.append((name, text, unit))
    return out


def wrapped(expr):
    """True when expr is one name or wholly inside one pair of parens."""
    if re.match(r'^[A-Za-z_][A-Za-z0-9_]*$', expr):
        return True
    if not expr.startswith('(') or not expr.endswith(')'):
        return False
    depth = 0
    for i, c in enumerate(expr):
        depth += {'(': 1, ')': -1}.get(c, 0)
        if depth == 0 and i < len(expr) - 1:
            return False
    return True


def hvtop_layout(ima, schemas, chip_groups, metrics, extra_formulas,
                 renames, version, build_time, comment):
    """Core events and groups as POWER8's, then the chip groups given."""
    events, groups = core_part(ima, renames)
    ncore = len(events)
    offset = 0
    for gname, desc, schema, names in chip_groups:
        slots = []
        for k, name in enumerate(names):
            counter = next(f['offset'] for f in schemas[schema]['fields']
                           if f['enum'] == k + 1)
            slots.append(len(events))
            events.append({
                'name': name, 'domain': 1, 'record_offset': offset,
                'record_length': CHIP_RECORD[schema],
                'counter_offset': counter, 'primary_group': len(groups),
                'group_count': 1, 'description': describe_event(name)})
        groups.append({
            'name': gname, 'description': desc, 'domain': 1,
            'record_offset': offset, 'record_length': CHIP_RECORD[schema],
            'schema': schema, 'events': slots})
        offset += CHIP_RECORD[schema]
    for i, e in enumerate(events):
        e['offset'] = e['record_offset'] + e['counter_offset']
        e['formula_index'] = None
        e['flags'] = 0

    byname = {e['name']: i for i, e in enumerate(events)}
    formulas = []
    for name, text, unit in metrics + extra_formulas:
        formulas.append({'name': name, 'description':
                         describe_formula(name), 'formula': text,
                         'unit': unit})
    fnames = {f['name']: f for f in formulas}

    def operands(f, depth=0):
        """Events a formula reads, through the formulas it uses."""
        if depth > 16:
            fail('formula %s refers to itself' % f['name'])
        out = []
        for n in names_in(f['formula']):
            if n in byname:
                out.append(byname[n])
            elif n in fnames:
                out += operands(fnames[n], depth + 1)
        return out

    home = {}
    for gi, g in enumerate(groups):
        for s in g['events']:
            if s is not None:
                home.setdefault(s, gi)
    for fi, f in enumerate(formulas):
        evs = operands(f)
        if not evs:
            fail('formula %s reads no event' % f['name'])
        gs = {home[e] for e in evs}
        f['group'] = home[evs[0]]
        f['flags'] = GROUPED if len(gs) == 1 else 0
        # An event points at the first formula it leads.
        first = names_in(f['formula'])[0]
        if first in byname and events[byname[first]]['formula_index'] is None:
            events[byname[first]]['formula_index'] = fi

    for i, e in enumerate(events):
        e['index'] = i
    for i, g in enumerate(groups):
        g['index'] = i
        g['flags'] = 0
        g['event_count'] = len(g['events'])
    for i, f in enumerate(formulas):
        f['index'] = i
    order = ['index', 'name', 'domain', 'record_offset', 'record_length',
             'counter_offset', 'offset', 'flags', 'primary_group',
             'group_count', 'formula_index', 'description',
             'long_description']
    events = [{k: e[k] for k in order if k in e} for e in events]
    gorder = ['index', 'name', 'description', 'flags', 'domain',
              'record_offset', 'record_length', 'schema', 'event_count',
              'events']
    groups = [{k: g[k] for k in gorder} for g in groups]
    forder = ['index', 'name', 'description', 'formula', 'unit', 'flags',
              'group']
    formulas = [{k: f[k] for k in forder} for f in formulas]
    if ncore != 253:
        fail('expected 253 core events, found %d' % ncore)
    doc = {'comment': comment, 'magic': 0x32347837, 'version': version,
           'build_time': build_time, 'events': events, 'groups': groups,
           'schemas': schemas, 'formulas': formulas}
    check(doc, set(), locations=True)
    return doc


def power9(ima, schemas, perf):
    mcs = ['PM_MCS%s_128B_%s_DISP_PORT%s' % (m, d, p)
           for d in ('RD', 'WR') for m in ('01', '23') for p in ('01', '23')]
    chip = [
        ('PowerBus', 'PowerBus and memory buffer clocks', 1,
         ['PM_PB_CYC', 'PM_MBA0_CLK_CYC']),
        ('Memory_BW', 'Reads and writes dispatched by the memory '
         'controllers', 1, mcs),
    ]
    extra = [('Memory_BW_Chip', 'Memory_RD_BW_Chip + Memory_WR_BW_Chip',
              'MB/s')]
    return hvtop_layout(
        ima, schemas, chip, perf_metrics(os.path.join(
            perf, 'power9-nest_metrics.json')), extra, {}, 1,
        '20260101000000',
        'POWER9 24x7 catalog laid out by hvtop (not an IBM catalog): '
        'POWER8\'s core events and groups with the CPM_ prefix, the chip '
        'events perf\'s POWER9 nest metrics name, and those metrics as '
        'formulas.  Generated by scripts/gen-catalogs.py: change the '
        'script, not this file.')


def power10(ima, schemas, perf):
    pumps = {}
    for half in ('01', '23'):
        pumps[half] = ['PM_PB_%s%s_PUMP%s' % (r, s, half)
                       for s in ('VG', 'LNS', 'GROUP', 'RNS')
                       for r in ('', 'RTY_')] + ['PM_PB_NNS_PUMP' + half]
    mcs = ['PM_MCS_128B_RD_DATA_BLOCKS_MC%d_CHAN01' % i for i in range(4)] + \
          ['PM_MCS_64B_WR_DATA_BLOCKS_MC%d_CHAN01' % i for i in range(4)]
    chip = [
        ('PowerBus', 'PowerBus clock, internal and PCI data', 1,
         ['PM_PAU_CYC', 'PM_PB_INT_DATA_XFER', 'PM_PCI0_32B_INOUT',
          'PM_PCI1_32B_INOUT', 'PM_PHB0_0_CYC']),
        ('PowerBus_Pumps_P01', 'PowerBus broadcasts and retries by scope, '
         'P01', 2, pumps['01']),
        ('PowerBus_Pumps_P23', 'PowerBus broadcasts and retries by scope, '
         'P23', 2, pumps['23']),
        ('Memory_BW', 'Read and write data blocks of the memory '
         'controllers', 1, mcs),
    ]
    for kind in ('X', 'A'):
        for a in (0, 2, 4, 6):
            names = ['PM_%sLINK%d_OUT_%s_%s' % (kind, link, half, what)
                     for link in (a, a + 1)
                     for what in ('TOTAL_UTIL', 'DATA', 'AVLBL_CYCLES')
                     for half in ('ODD', 'EVEN')]
            chip.append(('%sLINK%d%d' % (kind, a, a + 1),
                         '%s-links %d and %d outbound use' % (kind, a, a + 1),
                         2, names))
    extra = [('Memory_BW_Chip', 'Memory_RD_BW_Chip + Memory_WR_BW_Chip',
              'MB/s')]
    return hvtop_layout(
        ima, schemas, chip, perf_metrics(os.path.join(
            perf, 'power10-nest_metrics.json')), extra,
        {'HPM_TLBIE': 'HPM_TLBIE_FIN'}, 1, '20260101000000',
        'POWER10 24x7 catalog laid out by hvtop (not an IBM catalog): '
        'POWER8\'s core events and groups with the CPM_ prefix, the chip '
        'events perf\'s POWER10 nest metrics name, and those metrics as '
        'formulas.  Generated by scripts/gen-catalogs.py: change the '
        'script, not this file.')


# ---- checks and output -------------------------------------------------

def check(doc, constants, locations):
    """What hvtop relies on: operands resolve, slots and locations agree."""
    events, groups, formulas = doc['events'], doc['groups'], doc['formulas']
    schemas = doc['schemas']
    enames = {e['name'] for e in events}
    fnames = {f['name'] for f in formulas}
    for f in formulas:
        for n in names_in(f['formula']):
            if n not in enames and n not in fnames and n not in constants \
               and n not in BUILTINS:
                fail('formula %s: unknown operand %s' % (f['name'], n))
    # An event in several groups (a counter every record repeats) must
    # sit where one of its slots is.
    placed, held = set(), set()
    for g in groups:
        sch = schemas[g['schema']]
        for k, s in enumerate(g['events']):
            if s is None:
                continue
            e = events[s]
            if e['domain'] != g['domain']:
                fail('group %s: event %s of another domain'
                     % (g['name'], e['name']))
            counter = [f['offset'] for f in sch['fields']
                       if f['enum'] == k + 1]
            if not counter:
                fail('group %s: slot %d has no counter' % (g['name'], k))
            held.add(s)
            if e['record_offset'] == g['record_offset'] and \
               e['counter_offset'] == counter[0]:
                placed.add(s)
    if locations and held - placed:
        fail('event %s is not where any of its slots is'
             % events[min(held - placed)]['name'])
    for e in events:
        if e['record_length'] and e['counter_offset'] + 8 > \
           e['record_length']:
            fail('event %s: counter outside its record' % e['name'])
    if locations:
        names = [(e['name'], e['domain']) for e in events]
        if len(set(names)) != len(names):
            fail('duplicate (name, domain)')


def render(doc):
    """JSON with one entry per line, so diffs show entries."""
    lines = ['{']
    keys = list(doc)
    for i, k in enumerate(keys):
        sep = ',' if i < len(keys) - 1 else ''
        v = doc[k]
        if isinstance(v, list) and v and isinstance(v[0], dict):
            lines.append('  %s: [' % json.dumps(k))
            for j, item in enumerate(v):
                lines.append('    ' + json.dumps(item) +
                             (',' if j < len(v) - 1 else ''))
            lines.append('  ]' + sep)
        elif isinstance(v, dict) and k == 'sections':
            lines.append('  %s: {' % json.dumps(k))
            items = list(v.items())
            for j, (sk, sv) in enumerate(items):
                lines.append('    %s: %s%s' % (json.dumps(sk), json.dumps(sv),
                                               ',' if j < len(items) - 1
                                               else ''))
            lines.append('  }' + sep)
        else:
            lines.append('  %s: %s%s' % (json.dumps(k), json.dumps(v), sep))
    lines.append('}')
    return '\n'.join(lines) + '\n'


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--check', action='store_true',
                    help='compare with the committed files, write nothing')
    ap.add_argument('--upstream', default=os.path.join(TOP, 'catalogs',
                                                       'upstream'))
    ap.add_argument('--schemas-from', default=os.path.join(
        TOP, 'tests', 'data', 'catalog', 'p8-catalog-v3.bin'))
    ap.add_argument('-o', '--outdir', default=os.path.join(TOP, 'catalogs'))
    args = ap.parse_args()
    ima = os.path.join(args.upstream, 'ima-catalog')
    perf = os.path.join(args.upstream, 'perf')
    schemas = read_schemas(args.schemas_from)
    docs = {'power8': power8(ima, schemas),
            'power9': power9(ima, schemas, perf),
            'power10': power10(ima, schemas, perf)}
    stale = []
    for name, doc in docs.items():
        path = os.path.join(args.outdir, name + '.json')
        text = render(doc)
        if args.check:
            try:
                with open(path) as f:
                    if f.read() != text:
                        stale.append(path)
            except OSError:
                stale.append(path)
        else:
            with open(path, 'w') as f:
                f.write(text)
    if stale:
        sys.exit('gen-catalogs: out of date: ' + ' '.join(stale))


if __name__ == '__main__':
    main()
