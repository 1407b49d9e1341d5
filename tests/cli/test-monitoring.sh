#!/bin/sh
# The shipped Prometheus rules (monitoring/prometheus): promtool reads
# them, their unit tests pass, and every recording rule and alert has a
# unit test of its own.  Without promtool (Debian's prometheus package)
# the test is a visible SKIP.
. "$(dirname "$0")/tap.sh"
mon=$top_srcdir/monitoring
prom=$mon/prometheus
if ! have promtool; then
	echo "1..0 # SKIP promtool is not installed (Debian's prometheus)"
	exit 0
fi
plan 4

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
exit "$tap_failed"
