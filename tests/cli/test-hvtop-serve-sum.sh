#!/bin/sh
# hvtop --serve summed the way PromQL users sum: every computed metric
# is a family of one series per row, so sum() over a family is the sum of
# its rows, not twice that.  Checked on a scrape (promtool accepts it, no
# series carries an index of "total", the family's sum equals the sum
# over the rows' indices) and, where Prometheus is installed, by a real
# server's sum() query.  What the machine lacks is a visible SKIP.
. "$(dirname "$0")/tap.sh"
plan 6

if ! have curl; then
	while [ "$tap_n" -lt 6 ]; do
		skip "serve sums" "curl is not installed (apt-get install curl)"
	done
	exit 0
fi

# A headless run on a free loopback port; wait until it says where.
serve_start h -b --sim clock=real -d 0.5 --serve 127.0.0.1:0
check "hvtop --serve starts" test -n "$url"

# A scrape that already carries computed metrics (the second sample).
computed() {
	curl -s -m 5 -o "$tmpdir/s" "$url" 2>/dev/null &&
	    grep -q '^hvtop_metric_' "$tmpdir/s"
}
until_ok 30 computed
check "the scrape has computed metrics" grep -q '^hvtop_metric_' "$tmpdir/s"
if have promtool; then
	check "promtool accepts the scrape" sh -c \
	    "promtool check metrics <'$tmpdir/s' >'$tmpdir/lint' 2>&1"
else
	skip "promtool accepts the scrape" \
	    "promtool is not installed (apt-get install prometheus)"
fi
check_not "no computed series is labelled total" \
    grep -q '^hvtop_metric_.*="total"' "$tmpdir/s"
# Per family: the sum of every series against the sum of the series
# whose chip/core/vcpu label is a number.
awk '
/^hvtop_metric_/ {
	fam = $1; sub(/\{.*/, "", fam)
	all[fam] += $NF
	if ($1 ~ /(chip|core|vcpu|cpu)="[0-9]+"/)
		rows[fam] += $NF
}
END {
	for (f in all) {
		d = all[f] - rows[f]; if (d < 0) d = -d
		if (d > 1e-9 * (all[f] < 0 ? -all[f] : all[f]) + 1e-12) {
			print f ": sum " all[f] ", rows " rows[f]; bad = 1
		}
		n++
	}
	exit bad || n == 0
}' "$tmpdir/s" >"$tmpdir/sums"
check "the sum of each family is the sum of its rows" test $? = 0
diag "$(head -5 "$tmpdir/sums")"

# A real Prometheus: sum() over a family equals sum() over its rows.
if ! have prometheus; then
	skip "Prometheus sum() counts each row once" \
	    "prometheus is not installed (apt-get install prometheus)"
	exit 0
fi
hport=${url#http://127.0.0.1:}
hport=${hport%/metrics}
cat >"$tmpdir/prometheus.yml" <<EOT
global:
  scrape_interval: 1s
scrape_configs:
  - job_name: hvtop
    static_configs:
      - targets: ['127.0.0.1:$hport']
EOT
prom_start "$tmpdir/prometheus.yml"
fam=$(sed -n 's/^\(hvtop_metric_memory_bw_chip[a-z_]*\){.*/\1/p' \
    "$tmpdir/s" | head -1)
# One query gives both sums, at the same instant: their ratio.
q="sum($fam) / sum($fam{chip=~\"[0-9]+\"})"
summed() {
	curl -s -G "$api/query" --data-urlencode "query=$q" >"$tmpdir/q.json"
	ratio=$(sed -n 's/.*"value":\[[0-9.]*,"\([^"]*\)"\].*/\1/p' \
	    "$tmpdir/q.json")
	[ -n "$ratio" ]
}
ratio=""
[ -n "$ppid" ] && [ -n "$fam" ] && until_ok 60 summed
diag "$fam: sum over the family / sum over its rows = $ratio"
check "Prometheus sum() counts each row once" test "$ratio" = 1
