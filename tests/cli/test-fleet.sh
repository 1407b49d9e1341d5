#!/bin/sh
# A fleet in one Prometheus: Debian's Prometheus scrapes, over TLS with
# Basic auth, four hvtop exporters of simulated frames.  Frame A is
# exported by two partitions that may see it (1 and 2), frame B by its
# partition 1, and by its partition 2 without the HMC's permission
# (collect=0).  Through Prometheus' HTTP API: each frame's recording
# rules (monitoring/prometheus) equal what hvtop's CSV of that frame
# says, within 1 %; frame A, served twice, is counted once; the remote
# placement alert fires for the badly placed partition of each frame,
# once, and resolves after its DPO event, which the test asks for (the
# simulator's dpo_file=) only once it has seen the alert fire, so that
# nothing races the clock; the blind exporter is reported blind.  An hvtop whose simulator names no frame, or serves
# no hvtop_frame_info, is a SKIP.
. "$(dirname "$0")/tap.sh"
for p in prometheus curl openssl perl python3; do
	have "$p" && continue
	echo "1..0 # SKIP $p is not installed"
	exit 0
done
# The load of the first second throughout (steady), so that a rate
# over any window is the CSV's; partition 3 runs remote until the test
# creates $dpo (the DPO event at that second of the hour is never
# reached), so every check before it sees the frame as the CSV does.
sim=clock=real,steady=1,seed=7,dpo=3@3600
groups="-g CPM_32MHZ_CYC@lpar -g Memory_BW"
if ! "$HVTOP" -b -n 1 --sim "clock=virtual,serial=FLEETA,collect=1" \
    >/dev/null 2>&1; then
	echo "1..0 # SKIP this hvtop's simulator names no frame (serial=," \
	    "collect=)"
	exit 0
fi
plan 13

skip_rest() {
	while [ "$tap_n" -lt 13 ]; do
		skip "$1" "$2"
	done
	exit "$tap_failed"
}
mc() { python3 "$top_srcdir/tests/cli/monitoring-check.py" "$@"; }
# ok_or_say NAME FILE CMD...: a check whose failure shows FILE.
ok_or_say() {
	_n=$1
	_f=$2
	shift 2
	if "$@"; then
		pass "$_n"
	else
		diag "$(cat "$_f" 2>/dev/null)"
		fail "$_n"
	fi
}

d=$tmpdir/tls
mkdir "$d"
dpo=$tmpdir/dpo
tls_cert "$d/key.pem" "$d/cert.pem"
# bcrypt PASSWORD: a $2b$ hash of cost 4 through the system's crypt(3).
bcrypt() {
	perl -e '
	    my @c = ("a".."z", "A".."Z", "0".."9", ".", "/");
	    my $s = join "", map { $c[int rand 64] } 1..21;
	    print crypt($ARGV[0], "\$2b\$04\$" . $s . "u")' "$1"
}
printf 'tls_server_config:\n  cert_file: %s\n  key_file: %s\n%s\n  %s\n' \
    "$d/cert.pem" "$d/key.pem" 'basic_auth_users:' \
    "prometheus: $(bcrypt fleet-pw)" >"$d/web.yml"

# exporter NAME SIM-KEYS: one exporter, its host:port added to $targets.
targets=""
exporter() {
	# shellcheck disable=SC2086
	serve_start "$1" -b --sim "$sim,dpo_file=$dpo,$2" -d 0.5 $groups \
	    --serve 127.0.0.1:0 --web-config "$d/web.yml"
	hp=${url#https://}
	hp=${hp%/metrics}
	targets="$targets${targets:+, }'$hp'"
	eval "url_$1=\$url"
}
exporter a1 serial=FLEETA,lpar=1
exporter a2 serial=FLEETA,lpar=2
exporter b1 serial=FLEETB,lpar=1
exporter bx serial=FLEETB,lpar=2,collect=0
# shellcheck disable=SC2154
check "four exporters serve https" test -n "$url_a1" -a -n "$url_a2" \
    -a -n "$url_b1" -a -n "$url_bx"
until_ok 30 curl -s -f -m 5 --cacert "$d/cert.pem" -u prometheus:fleet-pw \
    -o "$tmpdir/a1.om" "$url_a1"
fa=$(sed -n 's/^hvtop_frame_info{.*frame="\([^"]*FLEETA\)".*/\1/p' \
    "$tmpdir/a1.om" | head -n 1)
[ -n "$fa" ] || skip_rest "fleet" "this hvtop serves no hvtop_frame_info"
fb=${fa%FLEETA}FLEETB

# The shipped rules, each alert's "for" cut to 3 s.
sed 's/^\( *for:\).*/\1 3s/' "$top_srcdir/monitoring/prometheus/hvtop.alerts.yml" \
    >"$tmpdir/alerts.yml"
cat >"$tmpdir/prometheus.yml" <<EOC
global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files:
  - $top_srcdir/monitoring/prometheus/hvtop.rules.yml
  - $tmpdir/alerts.yml
scrape_configs:
  - job_name: hvtop
    scheme: https
    tls_config:
      ca_file: $d/cert.pem
    basic_auth:
      username: prometheus
      password: fleet-pw
    static_configs:
      - targets: [$targets]
EOC
prom_start "$tmpdir/prometheus.yml"
[ -n "$ppid" ] || { diag "$(tail -n 5 "$tmpdir/prom.log")"; skip_rest \
    "fleet" "no Prometheus"; }
q() { mc query "$api" "$1" 2>&1; }
all_up() { [ "$(q 'count(up{job="hvtop"} == 1)' | awk '{ print $NF }')" = 4 ]; }
until_ok 60 all_up
check "Prometheus scrapes the four over TLS with Basic auth" all_up

# The badly placed partition of each frame, one alert each.
remote() { mc alerts "$api" HvtopPartitionRemote | sort; }
want="alertname=HvtopPartitionRemote,frame=$fa,lpar=3,severity=warning
alertname=HvtopPartitionRemote,frame=$fb,lpar=3,severity=warning"
firing() { [ "$(remote)" = "$want" ]; }
until_ok 60 firing
remote >"$tmpdir/remote"
fired=no
firing && fired=yes
ok_or_say "HvtopPartitionRemote fires for partition 3 of each frame, once" \
    "$tmpdir/remote" firing

# What hvtop's own CSV of each frame says (the same frame, read in
# virtual time: steady, its rates are those of any window before DPO).
for f in A B; do
	# shellcheck disable=SC2086
	"$HVTOP" -b -n 3 --sim "${sim#clock=real,},clock=virtual,serial=FLEET$f" \
	    $groups --format csv -o "$tmpdir/ref$f.csv" 2>"$tmpdir/ref$f.err"
	mc reference "$tmpdir/ref$f.csv" >"$tmpdir/ref$f.json" ||
	    diag "$(cat "$tmpdir/ref$f.err")"
done
same_a() { mc compare "$api" "$fa" "$tmpdir/refA.json" >"$tmpdir/cmpA" 2>&1; }
same_b() { mc compare "$api" "$fb" "$tmpdir/refB.json" >"$tmpdir/cmpB" 2>&1; }
until_ok 30 same_a
ok_or_say "frame A's rules are its CSV's, each partition and chip once" \
    "$tmpdir/cmpA" same_a
until_ok 10 same_b
ok_or_say "frame B's rules are its CSV's, the blind exporter beside" \
    "$tmpdir/cmpB" same_b

# Served twice, frame A adds up to what frame B, served once, does when
# both frames carry the same load; a sum over the exporters doubles it.
cyc() { q "sum(hvtop_lpar_cycles_per_second{frame=\"$1\"})" | awk '{ print $NF }'; }
rule() { q "frame:hvtop_lpar_cycles_per_second:sum{frame=\"$1\"}" | awk '{ print $NF }'; }
ra=$(rule "$fa")
rb=$(rule "$fb")
naive=$(cyc "$fa")
if cmp -s "$tmpdir/refA.json" "$tmpdir/refB.json"; then
	check "frame A's cycles are frame B's ($ra, $rb), not twice theirs" \
	    awk -v a="$ra" -v b="$rb" 'BEGIN { d = a - b; if (d < 0) d = -d
		exit !(b > 0 && d <= 0.01 * b) }'
else
	skip "frame A's cycles are frame B's" "the serial changes the load"
fi
check "... while a sum over A's two exporters is twice ($naive)" \
    awk -v a="$ra" -v n="$naive" 'BEGIN { d = n - 2 * a; if (d < 0) d = -d
	exit !(a > 0 && d <= 0.02 * a) }'

# What the frame can give: its partitions never use more than its 24
# cores (4 chips of 6), and a partition's remote share is part of what
# runs off its home chip, both shares between 0 and 1.
cores=$(q "frame:hvtop_lpar_cores:sum{frame=\"$fa\"}" | awk '{ print $NF }')
check "frame A's partitions use $cores cores, no more than its 24" \
    awk -v c="$cores" 'BEGIN { exit !(c > 0 && c <= 24) }'
bad=$(q 'count((frame_lpar:hvtop_lpar_remote_ratio:max
    > on (frame, lpar) frame_lpar:hvtop_lpar_off_home_chip_ratio:max)
    or frame_lpar:hvtop_lpar_off_home_chip_ratio:max > 1
    or frame_lpar:hvtop_lpar_remote_ratio:max < 0) or vector(0)' |
    awk '{ print $NF }')
check "no partition runs more remote than off its home chip ($bad)" \
    test "$bad" = 0

hp_bx=${url_bx#https://}
blind() {
	[ "$(mc alerts "$api" HvtopFrameNotVisible |
	    sed -n 's/.*instance=\([^,]*\),.*/\1/p')" = "${hp_bx%/metrics}" ]
}
check "HvtopFrameNotVisible fires for the blind exporter alone" \
    until_ok 10 blind
[ "$(q "frame:hvtop_exporters:count{frame=\"$fb\"}" | awk '{ print $NF }')" = 2 ] &&
    [ "$(q "frame:hvtop_exporters_seeing_frame:count{frame=\"$fb\"}" |
    awk '{ print $NF }')" = 1 ]
check "frame B has two exporters, one of which sees it" test $? -eq 0
# The DPO event now, asked for through its file: from the simulator's
# next second the partition runs home, and the alert resolves.  It must
# have fired first, or its absence proves nothing.
resolved() { [ -z "$(remote)" ]; }
if [ "$fired" = yes ]; then
	: >"$dpo"
	check "HvtopPartitionRemote resolves after the DPO event" \
	    until_ok 60 resolved
else
	fail "HvtopPartitionRemote resolves after the DPO event (it never fired)"
fi
rules_ok() { mc rules "$api" >"$tmpdir/rules.out" 2>&1; }
ok_or_say "every rule evaluates without an error" "$tmpdir/rules.out" rules_ok
exit "$tap_failed"
