#!/usr/bin/env python3
# Load CSV files the way people load hvtop's output elsewhere: Python's
# csv module (one header, the same number of fields on every row, seq
# counting up by one per interval) and pandas.read_csv as it is, when
# pandas is installed.  Prints one line per problem; exits 1 if any.
#   csv-check.py [--pandas] FILE...
import csv
import sys

bad = 0
use_pandas = False
files = []
for a in sys.argv[1:]:
    if a == "--pandas":
        use_pandas = True
    else:
        files.append(a)


def problem(path, what):
    global bad
    print("%s: %s" % (path, what))
    bad = 1


for path in files:
    with open(path, newline="") as fp:
        rows = list(csv.reader(fp))
    if not rows or rows[0][:2] != ["time", "seq"]:
        problem(path, "no header on the first line")
        continue
    head = rows[0]
    last = None
    for n, r in enumerate(rows[1:], 2):
        if r[:2] == ["time", "seq"]:
            problem(path, "line %d: a second header" % n)
        if len(r) != len(head):
            problem(path, "line %d: %d fields, the header has %d" %
                    (n, len(r), len(head)))
            continue
        seq = int(r[1])
        if last is not None and seq != last and seq != last + 1:
            problem(path, "line %d: seq %d after %d" % (n, seq, last))
        last = seq
    if use_pandas:
        import pandas
        try:
            df = pandas.read_csv(path)
        except Exception as e:
            problem(path, "pandas cannot read it: %s" % e)
            continue
        if list(df.columns) != head:
            problem(path, "pandas reads other columns")
        if len(df) != len(rows) - 1:
            problem(path, "pandas reads %d rows of %d" %
                    (len(df), len(rows) - 1))
        if not df["seq"].is_monotonic_increasing:
            problem(path, "pandas: seq is not monotonic")
sys.exit(bad)
