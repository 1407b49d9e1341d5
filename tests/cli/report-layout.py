#!/usr/bin/env python3
"""Check how a page of hvtop report reads, with readers that did not write it.

  report-layout.py page PAGE.html CSV    metrics lead: every metric chart
      comes before every event chart, in the summary as well; the summary
      shows numbers as the text screen does (at most four digits, in the
      row's unit with a decimal prefix: "1.77" in G/s, never
      "1772721964.5"), each the CSV's value to the digits shown, with the
      CSV's digits in data-v
  report-layout.py dom DOM.html    the DOM chromium made of the page with
      layout.js added: the charts fill the width of the window (no wide
      empty band on the right), each drawn as wide as its box, and a
      legend of a chart of many lines names a few and stays short, also
      while the mouse is on a line, which it names first

Prints what is wrong and exits 1; exits 0 when all holds.
"""
import csv
import html.parser
import json
import math
import re
import sys

PREFIX = "kMGTPE"
TOP = 6         # names in a legend of many lines, at most


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.kinds = []         # data-kind of each chart, in page order
        self.heads = []         # h2 texts
        self.h2 = None
        self.rows = []
        self.row = None
        self.cell = None
        self.summary = False
        self.body = {}

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "body":
            self.body = a
        if tag == "div" and "chart" in (a.get("class") or "").split():
            self.kinds.append((a.get("data-kind"), a.get("data-name")))
        if tag == "h2":
            self.h2 = ""
        if tag == "table" and a.get("class") == "summary":
            self.summary = True
        if self.summary and tag == "tr":
            self.row = []
        if self.row is not None and tag in ("td", "th"):
            self.cell = [a, ""]

    def handle_endtag(self, tag):
        if tag == "h2" and self.h2 is not None:
            self.heads.append(self.h2.strip())
            self.h2 = None
        if self.row is not None and tag in ("td", "th") and self.cell:
            self.row.append(self.cell)
            self.cell = None
        if self.row is not None and tag == "tr":
            self.rows.append(self.row)
            self.row = None
        if tag == "table":
            self.summary = False

    def handle_data(self, d):
        if self.h2 is not None:
            self.h2 += d
        if self.cell is not None:
            self.cell[1] += d


def parse(path):
    p = Page()
    with open(path, encoding="utf-8") as f:
        p.feed(f.read())
    return p


def prefix_of(unit):
    """(thousands, base): "GB/s" -> (3, "B/s"), "/s" -> (0, "/s")."""
    if len(unit) > 1 and unit[0] in PREFIX:
        return PREFIX.index(unit[0]) + 1, unit[1:]
    return 0, unit


def csv_values(path):
    """{(name [unit], row label): [values]} from hvtop's CSV."""
    out = {}
    with open(path, newline="") as f:
        rd = csv.DictReader(f)
        cols = [c for c in rd.fieldnames[5:]
                if c not in ("reason", "error", "frame")]
        for r in rd:
            label = "total" if r["index"] == "total" else \
                r["domain"] + " " + r["index"]
            for c in cols:
                if r[c] != "":
                    out.setdefault((c, label), []).append(float(r[c]))
    return out


def check_page(page, csvpath):
    p = parse(page)
    bad = []
    kinds = [k for k, _ in p.kinds]
    if not kinds or kinds[0] != "metric":
        bad.append("the first chart is not a metric: %s" % p.kinds[:1])
    if "metric" in kinds and "event" in kinds and \
            max(i for i, k in enumerate(kinds) if k == "metric") > \
            min(i for i, k in enumerate(kinds) if k == "event"):
        bad.append("an event chart comes before a metric chart")
    charts = [h for h in p.heads if h not in ("Summary",)]
    if not charts or not charts[0].startswith("Metrics"):
        bad.append("the first heading is %r, not Metrics" % (
            charts[:1] or None))
    metric_names = {n for k, n in p.kinds if k == "metric"}
    head = [c[1] for c in p.rows[0]] if p.rows else []
    seen_event = False
    ncells = 0
    for row in p.rows[1:]:
        rec = dict(zip(head, row))
        name = rec["name"][1]
        if name in metric_names and seen_event:
            bad.append("summary: metric %s after an event" % name)
            break
        seen_event |= name not in metric_names
        unit_attrs, shown_unit = rec["unit"]
        unit = unit_attrs.get("data-unit", shown_unit)
        k_shown, base_shown = prefix_of(shown_unit)
        k_unit, base_unit = prefix_of(unit)
        if shown_unit != unit and base_shown != base_unit:
            bad.append("summary %s: unit %r for %r" % (name, shown_unit,
                                                        unit))
            continue
        factor = 1000.0 ** (k_shown - k_unit) if shown_unit != unit else 1
        for col in ("min", "mean", "p95", "max"):
            attrs, text = rec[col]
            text = text.strip()
            if text == "-":
                continue
            ncells += 1
            m = re.fullmatch(r"(-?)(\d+)(?:\.(\d+))?([kMGTPE]?)", text)
            if m is None:
                if not re.fullmatch(r"-?\d\.\d\de[-+]\d+", text):
                    bad.append("summary %s %s %s: %r is not a screen's "
                               "number" % (name, rec["row"][1], col, text))
                continue
            digits = (m.group(2) + (m.group(3) or "")).lstrip("0")
            if len(digits) > 4:
                bad.append("summary %s %s %s: %r has %d digits, not the "
                           "screens' at most 4" % (name, rec["row"][1], col,
                                                    text, len(digits)))
            if "data-v" not in attrs:
                bad.append("summary %s %s %s: no data-v" % (
                    name, rec["row"][1], col))
                continue
            v = float(attrs["data-v"])
            f = factor * 1000.0 ** (PREFIX.index(m.group(4)) + 1
                                    if m.group(4) else 0)
            dec = len(m.group(3) or "")
            shown = float(m.group(1) + m.group(2) + "." +
                          (m.group(3) or "0")) * f
            if abs(shown - v) > 0.5 * 10 ** -dec * f * (1 + 1e-9) + 1e-12:
                bad.append("summary %s %s %s: %r is not %r" % (
                    name, rec["row"][1], col, text, v))
    # data-v holds the CSV's numbers (report-check.py checks the rest).
    vals = csv_values(csvpath)
    for row in p.rows[1:]:
        rec = dict(zip(head, row))
        key = (rec["name"][1] + " [%s]" % rec["unit"][0].get(
            "data-unit", rec["unit"][1]), rec["row"][1])
        want = vals.get(key)
        if want is None or "data-v" not in rec["max"][0]:
            continue
        if abs(float(rec["max"][0]["data-v"]) - max(want)) > \
                1e-9 * max(abs(max(want)), 1e-300):
            bad.append("summary %s max: %s, CSV %r" % (
                key, rec["max"][0]["data-v"], max(want)))
    if not bad:
        print("page: %d charts, metrics first; %d summary cells in the "
              "screens' form" % (len(kinds), ncells))
    return bad


def labels_in(text, labels):
    return [lb for lb in labels
            if re.search(r"(?<![\w])%s(?![\w])" % re.escape(lb), text)]


def check_dom(dom):
    b = Page()
    with open(dom, encoding="utf-8") as f:
        b.feed(f.read())
    if "data-layout" not in b.body:
        return ["no layout: the page's graphs (window.hvtopGraphs) or "
                "layout.js did not run"]
    lay = json.loads(b.body["data-layout"])
    bad = []
    vw = lay["vw"]
    for g in lay["grids"]:
        if not g["charts"]:
            continue
        left = min(c["x"] for c in g["charts"])
        right = max(c["r"] for c in g["charts"])
        # The same margin on both sides, give or take 3 % of the window.
        if (vw - right) - left > 0.03 * vw:
            bad.append("window %d: charts from %d to %d leave %d px empty "
                       "on the right" % (vw, left, right, vw - right))
        for c in g["charts"]:
            if c["cw"] < 0.95 * c["w"]:
                bad.append("window %d: a chart drawn %d px wide in a box "
                           "of %d" % (vw, c["cw"], c["w"]))
    if lay["graphs"] == 0:
        bad.append("no graphs in window.hvtopGraphs")
    many = 0
    for e in lay["legends"]:
        if e["lines"] <= TOP:
            continue
        many += 1
        for state in ("idle", "hover"):
            leg = e[state]
            if leg is None:
                bad.append("chart %d: no graph to point at a line of" %
                           e["i"])
                continue
            named = labels_in(leg["text"], e["labels"])
            if len(named) > TOP:
                bad.append("chart %d %s: the legend names %d of %d lines" % (
                    e["i"], state, len(named), e["lines"]))
            if leg["h"] > 4.5 * leg["lh"]:
                bad.append("chart %d %s: the legend is %d px high, %.1f "
                           "lines" % (e["i"], state, leg["h"],
                                      leg["h"] / leg["lh"]))
        if e["hover"] is None:
            continue
        first = labels_in(e["hover"]["first"], e["labels"])
        if first != [e["want"]]:
            bad.append("chart %d: with the mouse on %s the legend names "
                       "%s first" % (e["i"], e["want"], first))
        if e["want"] not in labels_in(e["hover"]["hl"], e["labels"]):
            bad.append("chart %d: %s is not marked in the legend" % (
                e["i"], e["want"]))
    if many == 0:
        bad.append("no chart of more than %d lines to check" % TOP)
    if not bad:
        print("dom: window %d, %d chart grids fill it; %d legends of many "
              "lines stay short" % (vw, len(lay["grids"]), many))
    return bad


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ("page", "dom"):
        sys.exit(__doc__)
    if sys.argv[1] == "page":
        bad = check_page(sys.argv[2], sys.argv[3])
    else:
        bad = check_dom(sys.argv[2])
    for line in bad[:20]:
        print(line)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
