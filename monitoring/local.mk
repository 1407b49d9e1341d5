# monitoring: Prometheus recording and alerting rules and Grafana
# dashboards for hvtop's endpoint, installed for an administrator to copy
# or point Prometheus and Grafana at.  tests/cli/test-monitoring.sh runs
# the rules' unit tests and every dashboard query against a Prometheus;
# tests/cli/test-fleet.sh runs the rules over a fleet of exporters.
prometheusdir = $(pkgdatadir)/prometheus
prometheus_DATA = monitoring/prometheus/hvtop.rules.yml \
	monitoring/prometheus/hvtop.alerts.yml
grafanadir = $(pkgdatadir)/grafana
grafana_DATA = monitoring/grafana/hvtop-frame.json \
	monitoring/grafana/hvtop-fleet.json
EXTRA_DIST += $(prometheus_DATA) $(grafana_DATA) \
	monitoring/prometheus/hvtop.rules.test.yml \
	monitoring/prometheus/hvtop.alerts.test.yml
TESTS += tests/cli/test-monitoring.sh
