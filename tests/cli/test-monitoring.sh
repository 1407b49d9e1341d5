#!/bin/sh
# The shipped Prometheus rules (monitoring/prometheus): promtool reads
# them, their unit tests pass, and every recording rule and alert has a
# unit test of its own.  The Grafana dashboards (monitoring/grafana):
# each has its datasource and frame variables, and every panel's query,
# run against a real Prometheus that loads the rules and scrapes a
# simulated frame, returns series.  Without promtool (Debian's
# prometheus package) the test is a visible SKIP.
. "$(dirname "$0")/tap.sh"
mon=$top_srcdir/monitoring
prom=$mon/prometheus
if ! have promtool; then
	echo "1..0 # SKIP promtool is not installed (Debian's prometheus)"
	exit 0
fi
plan 8

skip_rest() {
	while [ "$tap_n" -lt 8 ]; do
		skip "$1" "$2"
	done
	exit "$tap_failed"
}

if out=$(promtool check rules "$prom/hvtop.rules.yml" \
    "$prom/hvtop.alerts.yml" 2>&1); then
	pass "promtool check rules reads the rules and the alerts"
else
	diag "$out"
	fail "promtool check rules reads the rules and the alerts"
fi
for t in rules alerts; do
	if out=$(cd "$prom" && promtool test rules "hvtop.$t.test.yml" 2>&1)
	then
		pass "promtool test rules hvtop.$t.test.yml"
	else
		diag "$out"
		fail "promtool test rules hvtop.$t.test.yml"
	fi
done
if ! python3 -c 'import yaml' 2>/dev/null; then
	skip "every rule and every alert has a unit test" "no PyYAML"
elif out=$(python3 "$top_srcdir/tests/cli/monitoring-check.py" coverage \
    "$prom/hvtop.rules.yml" "$prom/hvtop.rules.test.yml" \
    "$prom/hvtop.alerts.yml" "$prom/hvtop.alerts.test.yml" 2>&1); then
	pass "every rule and every alert has a unit test"
else
	diag "$out"
	fail "every rule and every alert has a unit test"
fi
if ! have python3; then
	skip_rest "dashboards" "no python3"
fi
mc() { python3 "$top_srcdir/tests/cli/monitoring-check.py" "$@"; }
dash="$mon/grafana/hvtop-frame.json $mon/grafana/hvtop-fleet.json"
# shellcheck disable=SC2086
if ! python3 -c 'import yaml' 2>/dev/null; then
	skip "the dashboards' variables, queries and rules" "no PyYAML"
elif out=$(mc dashboards "$prom/hvtop.rules.yml" $dash 2>&1); then
	pass "the dashboards' variables, queries and rules"
else
	diag "$out"
	fail "the dashboards' variables, queries and rules"
fi

have prometheus || skip_rest "panels" "prometheus is not installed"
have curl || skip_rest "panels" "curl is not installed"
# The partitions' gauges and the chips' memory bandwidth, sampled twice
# a second in real time.
serve_start sim -b --sim clock=real,steady=1 -d 0.5 \
    -g CPM_32MHZ_CYC@lpar -g Memory_BW --serve 127.0.0.1:0
[ -n "$url" ] || { diag "$(cat "$tmpdir/sim.err")"; skip_rest "panels" \
    "hvtop --serve did not start"; }
until_ok 30 curl -s -f -m 5 -o "$tmpdir/scrape" "$url"
frame=$(sed -n 's/^hvtop_frame_info{.*frame="\([^"]*\)".*/\1/p' \
    "$tmpdir/scrape" | head -n 1)
[ -n "$frame" ] || skip_rest "panels" "this hvtop serves no hvtop_frame_info"
hp=${url#http://}
hp=${hp%/metrics}
cat >"$tmpdir/prometheus.yml" <<EOC
global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files:
  - $prom/hvtop.rules.yml
  - $prom/hvtop.alerts.yml
scrape_configs:
  - job_name: hvtop
    static_configs:
      - targets: ['$hp']
EOC
prom_start "$tmpdir/prometheus.yml"
check "Prometheus starts with the rules" test -n "$ppid"
[ -n "$ppid" ] || { diag "$(tail -n 5 "$tmpdir/prom.log")"; skip_rest \
    "panels" "no Prometheus"; }
# shellcheck disable=SC2086
panels_ok() { mc panels "$api" "$frame" $dash >"$tmpdir/empty" 2>&1; }
until_ok 60 panels_ok
if out=$(mc rules "$api" 2>&1); then
	pass "Prometheus evaluates every rule without an error"
else
	diag "$out"
	fail "Prometheus evaluates every rule without an error"
fi
if panels_ok; then
	pass "every panel's query returns series for $frame"
else
	diag "$(cat "$tmpdir/empty")"
	fail "every panel's query returns series for $frame"
fi
exit "$tap_failed"
