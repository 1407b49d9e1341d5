#!/usr/bin/env python3
"""Checks of hvtop's rules and dashboards (tests/cli/test-monitoring.sh,
tests/cli/test-fleet.sh).

  monitoring-check.py coverage RULES.yml TEST.yml [RULES.yml TEST.yml]...
      every recording rule of RULES is the expr of a promql_expr_test of
      TEST, and every alert of RULES has an alert_rule_test there
  monitoring-check.py dashboards RULES.yml FILE.json...
      each is a Grafana dashboard with a datasource and a frame variable,
      every panel queries ${datasource} with at least one expr, and every
      recorded name an expr reads (level:name:operation) is a rule of
      RULES
  monitoring-check.py panels API FRAME FILE.json...
      every panel's every expr, its variables given values (FRAME for
      $frame), returns at least one series from the Prometheus at API;
      prints the ones that return none and fails
  monitoring-check.py query API EXPR
      prints each series of EXPR as "LABELS VALUE", LABELS as k=v,...
  monitoring-check.py rules API
      prints the health of every rule and fails if one is not ok
  monitoring-check.py alerts API NAME
      prints the labels of NAME's firing alerts, one a line
  monitoring-check.py reference CSV
      prints, as JSON, the frame's figures from hvtop's CSV of it (its
      last interval): each partition's, each chip's and their sums
  monitoring-check.py compare API FRAME REF.json
      the frame's recording rules equal REF's figures within 1 %, one
      series for each partition and chip; prints what differs and fails
"""
import csv
import json
import re
import sys
import urllib.parse
import urllib.request



def load_yaml(path):
    import yaml  # only the rules' checks need PyYAML
    with open(path, encoding="utf-8") as f:
        return yaml.safe_load(f)


def coverage(pairs):
    bad = []
    for rules_path, test_path in zip(pairs[0::2], pairs[1::2]):
        rules = load_yaml(rules_path)
        tests = load_yaml(test_path)
        exprs = set()
        alerts = set()
        for t in tests.get("tests", []):
            for e in t.get("promql_expr_test", []) or []:
                exprs.add(e["expr"].strip())
            for a in t.get("alert_rule_test", []) or []:
                if a.get("exp_alerts"):
                    alerts.add(a["alertname"])
        for g in rules["groups"]:
            for r in g["rules"]:
                if "record" in r and r["record"] not in exprs:
                    bad.append("%s: rule %s has no test in %s"
                               % (rules_path, r["record"], test_path))
                if "alert" in r and r["alert"] not in alerts:
                    bad.append("%s: alert %s never fires in %s"
                               % (rules_path, r["alert"], test_path))
    for b in bad:
        print(b)
    return 1 if bad else 0


def panels_of(dash):
    for p in dash.get("panels", []):
        yield p
        for q in p.get("panels", []) or []:
            yield q


def dashboards(rules_path, paths):
    bad = []
    recorded = set()
    for g in load_yaml(rules_path)["groups"]:
        recorded.update(r["record"] for r in g["rules"] if "record" in r)
    for path in paths:
        with open(path, encoding="utf-8") as f:
            d = json.load(f)
        names = {v.get("name"): v for v in d["templating"]["list"]}
        ds = names.get("datasource")
        if ds is None or ds.get("type") != "datasource" \
                or ds.get("query") != "prometheus":
            bad.append("%s: no Prometheus datasource variable" % path)
        fr = names.get("frame")
        if fr is None or "hvtop_frame_info" not in json.dumps(fr):
            bad.append("%s: no frame variable over hvtop_frame_info" % path)
        if not isinstance(d.get("schemaVersion"), int) \
                or d["schemaVersion"] < 36:
            bad.append("%s: schemaVersion below 36" % path)
        n = 0
        for p in panels_of(d):
            if p.get("type") == "row":
                continue
            n += 1
            title = p.get("title", "?")
            if p.get("datasource", {}).get("uid") != "${datasource}":
                bad.append("%s: panel '%s' does not use ${datasource}"
                           % (path, title))
            exprs = [t.get("expr") for t in p.get("targets", [])]
            if not exprs or not all(exprs):
                bad.append("%s: panel '%s' has a target without expr"
                           % (path, title))
                continue
            for e in exprs:
                for name in re.findall(r"[a-z_]+:[a-z_]+:[a-z_]+", e):
                    if name not in recorded:
                        bad.append("%s: panel '%s' reads %s, no rule of %s"
                                   % (path, title, name, rules_path))
        if n == 0:
            bad.append("%s: no panels" % path)
    for b in bad:
        print(b)
    return 1 if bad else 0


def api_get(api, what, **params):
    url = api + "/" + what
    if params:
        url += "?" + urllib.parse.urlencode(params)
    with urllib.request.urlopen(url, timeout=20) as r:
        body = json.load(r)
    if body.get("status") != "success":
        raise RuntimeError("%s: %s" % (url, body.get("error")))
    return body["data"]


def instant(api, expr):
    return api_get(api, "query", query=expr)["result"]


def fill(expr, frame):
    # As Grafana sends them: an exact frame for "=", All (".*") for "=~".
    expr = expr.replace('=~"$frame"', '=~".*"')
    expr = expr.replace("${frame}", frame).replace("$frame", frame)
    for v, val in (("$__rate_interval", "1m"), ("$__interval", "5s"),
                   ("$__range", "5m")):
        expr = expr.replace(v, val)
    return expr


def panels(api, frame, paths):
    empty = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            d = json.load(f)
        for p in panels_of(d):
            for t in p.get("targets", []):
                expr = fill(t["expr"], frame)
                try:
                    res = instant(api, expr)
                except Exception as e:  # a query Prometheus refuses
                    empty.append("%s: '%s': %s: %s"
                                 % (path, p.get("title"), expr, e))
                    continue
                if not res:
                    empty.append("%s: '%s': %s: no series"
                                 % (path, p.get("title"), expr))
    for e in empty:
        print(e)
    return 1 if empty else 0


def labels_text(m):
    return ",".join("%s=%s" % (k, m[k]) for k in sorted(m)
                    if k != "__name__")


def query(api, expr):
    for s in instant(api, expr):
        print(labels_text(s["metric"]), s["value"][1])
    return 0


def rules(api):
    bad = 0
    for g in api_get(api, "rules")["groups"]:
        for r in g["rules"]:
            print(g["name"], r["name"], r["health"], r.get("lastError", ""))
            if r["health"] != "ok":
                bad = 1
    return bad


def alerts(api, name):
    for a in api_get(api, "alerts")["alerts"]:
        if a["labels"].get("alertname") == name and a["state"] == "firing":
            print(labels_text(a["labels"]))
    return 0


# The recording rules of a partition and the CSV column each equals.
LPAR_RULES = (
    ("frame_lpar:hvtop_lpar_cycles_per_second:max", "CPM_CCYC [/s]"),
    ("frame_lpar:hvtop_lpar_cores:max", "cores"),
    ("frame_lpar:hvtop_lpar_ipc:max", "ipc"),
    ("frame_lpar:hvtop_lpar_off_home_chip_ratio:max", "off_home_chip"),
    ("frame_lpar:hvtop_lpar_remote_ratio:max", "remote_node"),
)


def reference(path):
    last = {}
    with open(path, encoding="utf-8", newline="") as f:
        for row in csv.DictReader(f):
            if row.get("index") == "total" or row.get("error"):
                continue
            if row.get("domain") == "lpar" and row.get("placement") == "all":
                last[("lpar", row["index"])] = row
            elif row.get("domain") == "chip":
                last[("chip", row["index"])] = row
    ref = {"lpar": {}, "chip": {}}
    for (kind, index), row in last.items():
        if kind == "lpar":
            ref["lpar"][index] = {r: float(row[c]) for r, c in LPAR_RULES}
        else:
            ref["chip"][index] = float(row["Memory_BW_Chip [MB/s]"]) * 1e6
    ref["cycles"] = sum(v[LPAR_RULES[0][0]] for v in ref["lpar"].values())
    ref["cores"] = sum(v[LPAR_RULES[1][0]] for v in ref["lpar"].values())
    ref["memory"] = sum(ref["chip"].values())
    print(json.dumps(ref, sort_keys=True))
    return 0


def near(got, want):
    return abs(got - want) <= max(0.01 * abs(want), 1e-6)


def by_label(api, expr, label):
    return {s["metric"].get(label, ""): float(s["value"][1])
            for s in instant(api, expr)}


def compare(api, frame, ref_path):
    with open(ref_path, encoding="utf-8") as f:
        ref = json.load(f)
    sel = '{frame="%s"}' % frame
    bad = []
    for rule, _ in LPAR_RULES:
        got = by_label(api, rule + sel, "lpar")
        want = {k: v[rule] for k, v in ref["lpar"].items()}
        if sorted(got) != sorted(want):
            bad.append("%s: partitions %s, the CSV's %s"
                       % (rule, sorted(got), sorted(want)))
            continue
        for k in want:
            if not near(got[k], want[k]):
                bad.append("%s{lpar=%s}: %g, the CSV says %g"
                           % (rule, k, got[k], want[k]))
    got = by_label(api, "frame_chip:hvtop_memory_bw_bytes_per_second:max"
                   + sel, "chip")
    if sorted(got) != sorted(ref["chip"]):
        bad.append("memory: chips %s, the CSV's %s"
                   % (sorted(got), sorted(ref["chip"])))
    else:
        for k, v in ref["chip"].items():
            if not near(got[k], v):
                bad.append("memory{chip=%s}: %g, the CSV says %g"
                           % (k, got[k], v))
    for rule, key in (("frame:hvtop_lpar_cycles_per_second:sum", "cycles"),
                      ("frame:hvtop_lpar_cores:sum", "cores"),
                      ("frame:hvtop_memory_bw_bytes_per_second:sum",
                       "memory")):
        got = by_label(api, rule + sel, "frame")
        if frame not in got or not near(got[frame], ref[key]):
            bad.append("%s: %s, the CSV says %g"
                       % (rule, got.get(frame), ref[key]))
    for b in bad:
        print(b)
    return 1 if bad else 0


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    cmd, args = argv[1], argv[2:]
    if cmd == "coverage":
        return coverage(args)
    if cmd == "dashboards":
        return dashboards(args[0], args[1:])
    if cmd == "panels":
        return panels(args[0], args[1], args[2:])
    if cmd == "query":
        return query(args[0], args[1])
    if cmd == "rules":
        return rules(args[0])
    if cmd == "alerts":
        return alerts(args[0], args[1])
    if cmd == "reference":
        return reference(args[0])
    if cmd == "compare":
        return compare(args[0], args[1], args[2])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
