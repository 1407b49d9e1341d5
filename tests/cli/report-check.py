#!/usr/bin/env python3
"""Check a page of hvtop report with readers that did not write it.

  report-check.py page PAGE.html CSV    the page is well-formed HTML; its
      charts are the CSV's columns; its data and its summary table hold
      the numbers of the replay's CSV (read with pandas where installed;
      the summary's through its cells' data-v, the digits it shows on
      hover)
  report-check.py dom DOM.html PAGE.html    the DOM a browser made of the
      page: one chart element per chart of the data, each drawn (canvas
      elements inside), no script error, every chart counted as drawn

Prints what is wrong and exits 1; exits 0 when all holds.
"""
import csv
import html.parser
import json
import math
import sys

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link",
        "meta", "source", "track", "wbr"}


class Page(html.parser.HTMLParser):
    """Tags balanced, the data script's text, the summary table's rows,
    the chart elements and the canvases inside each."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []
        self.problems = []
        self.data = None
        self.in_data = False
        self.rows = []
        self.row = None
        self.cell = None
        self.table = None
        self.charts = {}
        self.chart = None
        self.errors = None
        self.in_errors = False
        self.body = {}

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "body":
            self.body = a
        if tag not in VOID:
            self.stack.append((tag, a))
        if tag == "script" and a.get("id") == "hvtop-data":
            self.in_data = True
            self.data = ""
        if tag == "table":
            self.table = a.get("class")
        if tag == "tr" and self.table == "summary":
            self.row = []
        if tag in ("td", "th") and self.row is not None:
            self.cell = ""
            # A number's digits, a unit as recorded: not as shown.
            self.exact = a.get("data-v", a.get("data-unit"))
        if tag == "div" and "chart" in (a.get("class") or "").split():
            self.chart = a.get("id")
            self.charts[self.chart] = 0
        if tag == "canvas":
            for t, ta in reversed(self.stack):
                cls = (ta.get("class") or "").split()
                if t == "div" and "chart" in cls:
                    self.charts[ta.get("id")] += 1
                    break
        if tag == "pre" and a.get("id") == "errors":
            self.in_errors = True
            self.errors = ""

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1][0] != tag:
            self.problems.append("line %d: </%s> closes <%s>" % (
                self.getpos()[0], tag,
                self.stack[-1][0] if self.stack else "nothing"))
            return
        self.stack.pop()
        if tag == "script":
            self.in_data = False
        if tag in ("td", "th") and self.row is not None:
            self.row.append(self.cell if self.exact is None else self.exact)
            self.cell = None
        if tag == "tr" and self.row is not None:
            self.rows.append(self.row)
            self.row = None
        if tag == "table":
            self.table = None
        if tag == "pre":
            self.in_errors = False

    def handle_data(self, d):
        if self.in_data:
            self.data += d
        if self.cell is not None:
            self.cell += d
        if self.in_errors:
            self.errors += d


def parse(path):
    p = Page()
    with open(path, encoding="utf-8") as f:
        p.feed(f.read())
    p.close()
    if p.stack:
        p.problems.append("unclosed at the end: %s" %
                          ", ".join(t for t, _ in p.stack))
    return p


def close(a, b):
    if a is None or b is None or (isinstance(a, float) and math.isnan(a)):
        return (a is None or math.isnan(a)) and (
            b is None or (isinstance(b, float) and math.isnan(b)))
    return abs(a - b) <= 1e-9 * max(abs(a), abs(b), 1e-300)


# The CSV's columns after the values that are words, not numbers: the
# reason and error of a row, and the frame when it is known.
TEXT_COLUMNS = ("reason", "error", "frame")


def load_csv(path):
    """{(domain, index, column): {time: value or None}}, and the column
    names, read as people read hvtop's CSV."""
    try:
        import pandas
        d = pandas.read_csv(path, keep_default_na=True, dtype={"index": str})
        cols = [c for c in d.columns[5:] if c not in TEXT_COLUMNS]
        out = {}
        for _, r in d.iterrows():
            for c in cols:
                v = r[c]
                key = (r["domain"], str(r["index"]), c)
                out.setdefault(key, {})[r["time"]] = (
                    None if pandas.isna(v) else float(v))
        return out, cols
    except ImportError:
        pass
    out = {}
    with open(path, newline="") as f:
        rd = csv.DictReader(f)
        cols = [c for c in rd.fieldnames[5:] if c not in TEXT_COLUMNS]
        for r in rd:
            for c in cols:
                key = (r["domain"], r["index"], c)
                out.setdefault(key, {})[r["time"]] = (
                    float(r[c]) if r[c] != "" else None)
    return out, cols


def iso(ms):
    import datetime
    t = datetime.datetime.fromtimestamp(ms / 1000, datetime.timezone.utc)
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (ms % 1000)


def stats(vals):
    v = sorted(x for x in vals if x is not None)
    if not v:
        return None
    rank = math.ceil(0.95 * len(v))
    return (v[0], sum(v) / len(v), v[max(rank, 1) - 1], v[-1])


def check_page(page, csvpath):
    p = parse(page)
    bad = list(p.problems)
    if p.data is None:
        return bad + ["no data script"]
    d = json.loads(p.data)
    rows, cols = load_csv(csvpath)
    names = {c["name"] + (" [%s]" % c["unit"] if c["unit"] else "")
             for c in d["charts"]}
    if names != set(cols):
        bad.append("charts %s, CSV columns %s" % (
            sorted(names - set(cols)), sorted(set(cols) - names)))
    if len(p.charts) != len(d["charts"]):
        bad.append("%d chart elements for %d charts" % (
            len(p.charts), len(d["charts"])))
    times = [iso(t) for t in d["t"]]
    nvals = 0
    for c in d["charts"]:
        col = c["name"] + (" [%s]" % c["unit"] if c["unit"] else "")
        for label, vals in zip(c["lines"], c["values"]):
            dom, idx = label.split(" ")
            want = rows.get((dom, idx, col))
            if want is None:
                bad.append("%s %s: no such CSV rows" % (col, label))
                continue
            for t, v in zip(times, vals):
                nvals += 1
                if not close(v, want.get(t)):
                    bad.append("%s %s at %s: page %r, CSV %r" % (
                        col, label, t, v, want.get(t)))
                    break
    # The summary: every row, from the CSV's numbers.
    head = p.rows[0] if p.rows else []
    nrows = 0
    for r in p.rows[1:]:
        rec = dict(zip(head, r))
        dom = rec["row"].split(" ")
        col = rec["name"] + (" [%s]" % rec["unit"] if rec["unit"] else "")
        if dom[0] == "total":
            continue
        want = rows.get((dom[0], dom[1], col))
        if want is None:
            bad.append("summary %s %s: no such CSV rows" % (col, rec["row"]))
            continue
        s = stats(want.values())
        got = [None if rec[k] == "-" else float(rec[k])
               for k in ("min", "mean", "p95", "max")]
        nrows += 1
        if s is None:
            if got != [None] * 4:
                bad.append("summary %s %s: %r for no values" % (
                    col, rec["row"], got))
            continue
        for k, a, b in zip(("min", "mean", "p95", "max"), got, s):
            # data-v holds 12 significant digits, as the CSV does.
            if a is None or abs(a - b) > 1e-9 * max(abs(b), 1e-300):
                bad.append("summary %s %s %s: page %r, CSV %r" % (
                    col, rec["row"], k, a, b))
        missing = sum(1 for v in want.values() if v is None)
        if int(rec["missing"]) != missing:
            bad.append("summary %s %s missing: page %s, CSV %d" % (
                col, rec["row"], rec["missing"], missing))
    if not bad:
        print("page: %d charts, %d values and %d summary rows as in the "
              "CSV" % (len(d["charts"]), nvals, nrows))
    return bad


def check_dom(dom, page):
    p = parse(page)
    d = json.loads(p.data)
    b = parse(dom)
    bad = []
    if len(b.charts) != len(d["charts"]):
        bad.append("%d chart elements for %d charts" % (
            len(b.charts), len(d["charts"])))
    undrawn = [k for k, n in b.charts.items() if n == 0]
    if undrawn:
        bad.append("charts without a canvas: %s" % ", ".join(undrawn[:5]))
    if b.errors is None:
        bad.append("no #errors element")
    elif b.errors.strip():
        bad.append("script errors: %s" % b.errors.strip())
    if b.body.get("data-charts-drawn") != str(len(d["charts"])):
        bad.append("charts drawn: %s of %d" % (
            b.body.get("data-charts-drawn"), len(d["charts"])))
    if not bad:
        print("dom: %d charts drawn, %d canvases, no script errors" % (
            len(b.charts), sum(b.charts.values())))
    return bad


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("page", "dom"):
        sys.exit(__doc__)
    f = check_page if sys.argv[1] == "page" else check_dom
    bad = f(sys.argv[2], sys.argv[3])
    for line in bad[:20]:
        print(line)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
