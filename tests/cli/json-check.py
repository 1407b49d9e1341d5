#!/usr/bin/env python3
# Check hvtop's JSON lines as a consumer reads them: each line parses,
# every number is written in the fewest digits that read back exactly,
# every value has a unit, "index" is a number or null (with "total"
# saying which), and a null value has its reason.  Prints one line per
# problem; exits 1 if any.
import json
import re
import sys

bad = 0


def problem(where, what):
    global bad
    print("%s: %s" % (where, what))
    bad = 1


num = re.compile(r'(?<=[:,\[])-?[0-9][0-9.eE+-]*(?=[,}\]])')
for path in sys.argv[1:]:
    with open(path) as fp:
        for n, line in enumerate(fp, 1):
            where = "%s:%d" % (path, n)
            try:
                o = json.loads(line)
            except ValueError as e:
                problem(where, "not JSON: %s" % e)
                continue
            for tok in num.findall(re.sub(r'"(\\.|[^"\\])*"', '""', line)):
                if re.fullmatch(r'-?[0-9]+', tok):
                    continue
                short = repr(float(tok))
                if tok != short:
                    problem(where, "%s is not the shortest: %s" %
                            (tok, short))
                    break
            units = o.get("units")
            if not isinstance(units, dict):
                problem(where, "no units")
                continue
            for r in o["rows"]:
                idx, total = r.get("index"), r.get("total")
                if total is True and idx is not None:
                    problem(where, "a total row has index %r" % idx)
                if total is False and not isinstance(idx, int):
                    problem(where, "index %r is not a number" % idx)
                for k, v in r["values"].items():
                    if k not in units:
                        problem(where, "%s has no unit" % k)
                    if v is None and k not in r.get("reasons", {}):
                        problem(where, "%s is null without a reason" % k)
sys.exit(bad)
