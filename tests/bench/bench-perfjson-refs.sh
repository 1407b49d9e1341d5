#!/bin/sh
# Start-up with a perf metric file whose metrics name metrics: a chain
# (P0 an hv_24x7 event, Pi = P(i-1) + 1) of 32000 metrics, and 40
# metrics that double (Pi = P(i-1) + P(i-1)), each loaded, checked and
# compiled by hvtop -b -n 1 on the simulated frame's virtual clock.
#   startup.perfjson.chain.cpu    user + system CPU time; target under 1 s
#   startup.perfjson.chain.rss    peak resident memory; target under 100 MiB
#   startup.perfjson.double.cpu   the same for the doubling file
#   startup.perfjson.double.rss
# HVTOP_BUILD is the build directory (scripts/bench sets it).
b=${HVTOP_BUILD:-build}
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
command -v python3 >/dev/null 2>&1 || {
	echo "bench-perfjson-refs: python3 writes the files" >&2
	exit 1
}

python3 - "$tmp" <<'PY'
import json, sys
d = sys.argv[1]
p0 = {"MetricName": "P0", "MetricExpr": "hv_24x7@PM_PB_CYC\\,chip\\=?@"}
for name, n, expr in (("chain", 32000, "P%d + 1"),
                      ("double", 40, "P%d + P%d")):
    ms = [p0]
    for i in range(1, n):
        e = expr % ((i - 1,) * expr.count("%"))
        ms.append({"MetricName": "P%d" % i, "MetricExpr": e})
    with open("%s/%s.json" % (d, name), "w") as f:
        json.dump(ms, f, indent=1)
PY

for n in chain double; do
	python3 "$top/tests/bench/rusage.py" -q "$tmp/r" "$b/hvtop" -b -n 1 \
	    --sim clock=virtual -m "$tmp/$n.json" --format csv -o /dev/null ||
	    exit 1
	read -r cpu _ rss <"$tmp/r"
	echo "startup.perfjson.$n.cpu $cpu s"
	echo "startup.perfjson.$n.rss $(awk -v k="$rss" \
	    'BEGIN { printf "%.1f", k / 1024 }') MiB"
done
