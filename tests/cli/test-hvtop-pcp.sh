#!/bin/sh
# hvtop --serve read by PCP: pmdaopenmetrics, installed into pmcd for
# this test only, reads the endpoint through the shipped pcp/hvtop.url
# (its port changed to the one hvtop serves on here), and pminfo shows
# hvtop's counters as openmetrics.hvtop.*, growing between two fetches
# and equal to what the endpoint serves.  It starts PCP's daemons, so it
# runs as root alone; at exit, also on failure, it removes the agent,
# stops the pmcd it started and puts back every file it changed.  No
# PCP, no curl, not root, or an openmetrics agent already installed is
# a visible SKIP.
. "$(dirname "$0")/tap.sh"
plan 8

skip_rest() {
	while [ "$tap_n" -lt 8 ]; do
		skip "$1" "$2"
	done
	exit 0
}

[ "$(id -u)" -eq 0 ] || skip_rest "PCP" "not root (the test starts pmcd)"
have curl || skip_rest "PCP" "curl is not installed"
# PCP's agents are Python run as "python3" from pmcd's PATH: the
# system's own Python, which has PCP's modules, comes first.
PATH=/usr/sbin:/usr/bin:/sbin:/bin:$PATH
export PATH
[ -r /etc/pcp.env ] && have pminfo || skip_rest "PCP" "pcp is not installed"
pcp_var() { (. /etc/pcp.env && eval "printf '%s\n' \"\$$1\""); }
pmdas=$(pcp_var PCP_PMDAS_DIR)
pcpvar=$(pcp_var PCP_VAR_DIR)
conf=$(pcp_var PCP_PMCDCONF_PATH)
rc=$(pcp_var PCP_RC_DIR)
logs=$(pcp_var PCP_LOG_DIR)
om=$pmdas/openmetrics
[ -x "$om/Install" ] && [ -f "$conf" ] ||
    skip_rest "PCP" "no openmetrics agent in $om"
/usr/bin/python3 -c 'import pcp.pmda, requests' 2>/dev/null ||
    skip_rest "PCP" "no python3-pcp or python3-requests"
# One run at a time on a machine (two builds' make check): the other
# finds the lock taken and skips instead of sharing pmcd's files.
have flock || skip_rest "PCP" "no flock (util-linux)"
exec 9>"${TMPDIR:-/tmp}/hvtop-test-pcp.lock"
flock -n 9 || skip_rest "PCP" "another run of this test holds pmcd"
grep -q '^openmetrics[[:space:]]' "$conf" &&
    skip_rest "PCP" "the openmetrics agent is installed already"
[ -e "$om/config.d/hvtop.url" ] &&
    skip_rest "PCP" "$om/config.d/hvtop.url exists already"

# What the test changes, kept to be put back: pmcd's control file and
# namespace; the files the agent's Install makes are those new in its
# folder, in PCP's metadata cache and among the logs.
keep=$tmpdir/keep
mkdir -p "$keep"
cp -p "$conf" "$keep/pmcd.conf"
cp -p "$pcpvar/pmns/root" "$keep/root"
listed() { find "$om" "$pcpvar/config/pmda" "$logs/pmcd" 2>/dev/null | sort; }
listed >"$keep/files"
started=no
pcp_undo() {
	(cd "$om" && ./Remove) </dev/null >"$tmpdir/remove.log" 2>&1
	if [ "$started" = yes ]; then
		"$rc/pmcd" stop </dev/null >/dev/null 2>&1
	fi
	listed | comm -13 "$keep/files" - | sort -r | while read -r f; do
		if [ -d "$f" ]; then
			rmdir "$f"
		else
			rm -f "$f"
		fi
	done
	cp -p "$keep/pmcd.conf" "$conf"
	cp -p "$keep/root" "$pcpvar/pmns/root"
	if [ "$started" = no ]; then
		pmsignal -a -s HUP pmcd >/dev/null 2>&1
	fi
}
trap 'st=$?; pcp_undo; tap_end $st' EXIT

serve_start pcp -b --source sim -d 1 --serve 127.0.0.1:0
port=${url#http://127.0.0.1:}
port=${port%%/*}
check "hvtop serves on the simulated frame" test -n "$url"

shipped=$top_srcdir/pcp/hvtop.url
check "pcp/hvtop.url names the exporter's endpoint first" \
    test "$(sed -n 1p "$shipped")" = "http://127.0.0.1:9724/metrics"
sed "1s/:9724\//:$port\//" "$shipped" >"$om/config.d/hvtop.url"

pmcd_up() { pminfo -f pmcd.version >/dev/null 2>&1; }
if ! pmcd_up; then
	started=yes
	"$rc/pmcd" start </dev/null >"$tmpdir/pmcd.log" 2>&1
fi
until_ok 30 pmcd_up
(cd "$om" && ./Install) </dev/null >"$tmpdir/install.log" 2>&1
check "the openmetrics agent installs" \
    grep -q '^openmetrics[[:space:]]' "$conf"

# pcp_value NAME [INSTANCE-RE]: the value pminfo -f fetches for
# openmetrics.hvtop.NAME (of the instance whose name matches).
pcp_value() {
	pminfo -f "openmetrics.hvtop.$1" 2>/dev/null | awk -v re="${2:-.}" '
	/^ *value / && re == "." { print $2; exit }
	/^ *inst \[/ && $0 ~ re { print $NF; exit }'
}
has_samples() { [ -n "$(pcp_value hvtop_samples_total)" ]; }
until_ok 30 has_samples
pminfo openmetrics.hvtop >"$tmpdir/names" 2>&1
check "pminfo lists hvtop's counters" \
    grep -qx openmetrics.hvtop.hvtop_events_total "$tmpdir/names"
pminfo -f openmetrics.hvtop >"$tmpdir/values" 2>&1
diag "$(head -n 12 "$tmpdir/values")"

ev='chip:0 domain:phys_chip event:PM_PB_CYC '
s1=$(pcp_value hvtop_samples_total)
e1=$(pcp_value hvtop_events_total "$ev")
grew() {
	s2=$(pcp_value hvtop_samples_total)
	e2=$(pcp_value hvtop_events_total "$ev")
	[ -n "$s2" ] && [ -n "$e2" ] &&
	    awk -v a="$s1" -v b="$s2" -v c="$e1" -v d="$e2" \
	    'BEGIN { exit !(b > a && d > c) }'
}
check "samples and an event's counter grow between two fetches" \
    until_ok 30 grew
diag "hvtop_samples_total $s1 -> $s2, PM_PB_CYC chip 0 $e1 -> $e2"

curl -s -m 5 -o "$tmpdir/before" "$url"
p=$(pcp_value hvtop_samples_total)
curl -s -m 5 -o "$tmpdir/after" "$url"
b=$(om_value hvtop_samples_total "$tmpdir/before")
a=$(om_value hvtop_samples_total "$tmpdir/after")
check "hvtop_samples_total in PCP lies between two scrapes ($b <= $p <= $a)" \
    awk -v b="$b" -v p="$p" -v a="$a" \
    'BEGIN { exit !(b != "" && p != "" && b <= p && p <= a) }'
t=$(om_value hvtop_timebase_frequency_hertz "$tmpdir/after")
check "hvtop_timebase_frequency_hertz is the endpoint's ($t)" \
    test -n "$t" -a "$(pcp_value hvtop_timebase_frequency_hertz)" = "$t"
c=$(om_value hvtop_catalog_version "$tmpdir/after")
check "hvtop_catalog_version is the endpoint's ($c)" \
    test -n "$c" -a "$(pcp_value hvtop_catalog_version)" = "$c"
