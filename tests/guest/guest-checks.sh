# Runs inside the virtual LPAR (busybox sh): prints what the host-side
# test compares, in sections "@@ NAME".  $1 lists the parts: sysfs,
# hvtop, calls, denied, ident (the frame's identity), user (and
# paranoid0: user with
# kernel.perf_event_paranoid at 0), lpars (the frame's partitions
# through perf) and lpars-denied (the same without the permission).
parts=" $* "
pmu=/sys/bus/event_source/devices/hv_24x7

# The first group of a domain ("Physical Chip", "Physical Core").
group_of() {
	hvtop --list groups | sed -n "s/^  \([^ ]*\) *\[$1,.*/\1/p" | head -n 1
}

echo "@@ dmesg"
dmesg | grep -E 'hv-24x7|hv_24x7|hv-gpci'
case $parts in
*" ident "*)
	# The identity as the kernel publishes it, then as hvtop reads it.
	echo "@@ ident"
	dt=/proc/device-tree
	for p in model system-id ibm,partition-name; do
		if [ -f "$dt/$p" ]; then
			printf '%s=%s\n' "$p" "$(tr -d '\000' <"$dt/$p")"
		fi
	done
	if [ -f "$dt/ibm,partition-no" ]; then
		printf 'ibm,partition-no=%d\n' \
		    "0x$(od -An -tx1 "$dt/ibm,partition-no" | tr -d ' \n')"
	fi
	if [ -f /proc/powerpc/lparcfg ]; then
		grep -E '^(system_type|serial_number|partition_id)=' \
		    /proc/powerpc/lparcfg | sed 's/^/lparcfg /'
	fi
	hvtop --check 2>&1 | grep '^info  frame '
	# The frame label of hvtop --serve's series, from one scrape.
	hvtop -b --source perf -d 0.5 --serve 127.0.0.1:9725 >/dev/null 2>&1 &
	pid=$!
	n=0
	while [ $n -lt 60 ]; do
		if wget -q -O /tmp/ident.om http://127.0.0.1:9725/metrics \
		    2>/dev/null && grep -q '^hvtop_samples_total{' /tmp/ident.om
		then
			break
		fi
		sleep 0.5
		n=$((n + 1))
	done
	kill $pid 2>/dev/null
	wait $pid 2>/dev/null
	sed -n 's/^hvtop_samples_total{.*\(frame="[^"]*"\).*/label \1/p' \
	    /tmp/ident.om 2>/dev/null | head -n 1
	;;
esac
case $parts in
*" sysfs "*)
	echo "@@ events"
	(cd $pmu/events && grep -H '' -- *)
	echo "@@ interface"
	for f in catalog_version sockets chipspersocket coresperchip; do
		echo "$f=$(cat $pmu/interface/$f)"
	done
	echo "@@ domains"
	cat $pmu/interface/domains
	;;
esac
case $parts in
*" hvtop "*)
	chip=$(group_of "Physical Chip")
	core=$(group_of "Physical Core")
	echo "@@ groups $chip $core"
	echo "@@ overview"
	hvtop -b -n 3 -d 0.3; echo "@@ rc=$?"
	echo "@@ chip"
	hvtop -b -n 3 -d 0.3 -g "$chip@chip"; echo "@@ rc=$?"
	echo "@@ core"
	hvtop -b -n 3 -d 0.3 -g "$core@core"; echo "@@ rc=$?"
	echo "@@ list"
	hvtop -b -n 3 -d 0.3 -g "$chip@chip:1" -g "$core@core:0,2-3"
	echo "@@ rc=$?"
	;;
esac
case $parts in
*" calls "*)
	echo "@@ calls-1"
	hvtop -b -n 1 -d 0.3 >/dev/null
	echo "@@ calls-4"
	hvtop -b -n 4 -d 0.3 >/dev/null
	echo "@@ calls-end"
	;;
esac
case $parts in
*" denied "*)
	chip=$(group_of "Physical Chip")
	core=$(group_of "Physical Core")
	echo "@@ privileged $(cat /sys/bus/event_source/devices/hv_gpci/interface/collect_privileged)"
	echo "@@ denied-chip"
	hvtop -b -n 2 -d 0.3 -g "$chip@chip" 2>&1; echo "@@ rc=$?"
	echo "@@ denied-vcpu"
	hvtop -b -n 3 -d 0.3 -g "$core@vcpu" 2>&1; echo "@@ rc=$?"
	;;
esac
case $parts in
*" lpars "*)
	# The partitions perf finds by opening events, read in the four
	# placements of every vcpu; then a range of ids that leaves some out.
	echo "@@ lpars"
	hvtop -b -n 3 -d 0.3 --source perf --format csv \
	    -g CPM_32MHZ_CYC@lpar 2>&1; echo "@@ rc=$?"
	echo "@@ lpars-range"
	hvtop -b -n 2 -d 0.3 --source perf -O lpars=2-3 --format csv \
	    -g CPM_32MHZ_CYC@lpar 2>&1; echo "@@ rc=$?"
	;;
esac
case $parts in
*" lpars-denied "*)
	echo "@@ lpars-denied"
	hvtop -b -n 3 -d 0.3 --source perf --format csv \
	    -g CPM_32MHZ_CYC@lpar 2>&1; echo "@@ rc=$?"
	;;
esac
case $parts in
*" user "*)
	# hvtop --serve --user nobody, started as root: the process after
	# the change, two scrapes, then the catalog version change the
	# hypervisor makes (faults=version-change@N) and what the source
	# reopened as nobody did.
	chip=$(group_of "Physical Chip")
	url=http://127.0.0.1:9724/metrics
	samples_of() {
		sed -n -e 's/^hvtop_samples_total //p' \
		    -e 's/^hvtop_samples_total{[^}]*} //p' "$1" 2>/dev/null
	}
	# scrape_until FILE MIN [ERE]: scrape every half second, for 60 s at
	# most, until hvtop_samples_total is MIN or more (and a line matches
	# ERE), or hvtop has ended.
	scrape_until() {
		_n=0
		while :; do
			rm -f "$1"
			wget -q -O "$1" $url 2>/dev/null
			_s=$(samples_of "$1")
			if [ "${_s:-0}" -ge "$2" ] &&
			    { [ -z "$3" ] || grep -Eq "$3" "$1"; }; then
				return 0
			fi
			kill -0 $pid 2>/dev/null || return 1
			[ $_n -lt 120 ] || return 1
			sleep 0.5
			_n=$((_n + 1))
		done
	}
	case $parts in
	*" paranoid0 "*) echo 0 >/proc/sys/kernel/perf_event_paranoid ;;
	esac
	echo "@@ paranoid $(cat /proc/sys/kernel/perf_event_paranoid)"
	hvtop -b --source perf -d 0.5 -g "$chip@chip" --serve 127.0.0.1:9724 \
	    --user nobody >/dev/null 2>/tmp/user.err &
	pid=$!
	n=0
	while [ $n -lt 60 ] && kill -0 $pid 2>/dev/null &&
	    ! grep -q '^hvtop: running as nobody' /tmp/user.err; do
		sleep 1
		n=$((n + 1))
	done
	# Scrape until hvtop has taken a sample, then until it has taken
	# two more: a slow partition (an emulated one on a busy host) takes
	# its first sample later than a fast one.
	scrape_until /tmp/scrape.1 1
	s1=$(samples_of /tmp/scrape.1)
	scrape_until /tmp/scrape.2 $((${s1:-0} + 2))
	echo "@@ user-status"
	grep -E '^(Uid|Gid|Groups|Cap(Inh|Prm|Eff|Amb)|NoNewPrivs):' \
	    /proc/$pid/status
	echo "@@ user-scrape-1"
	grep -E '^hvtop_[a-z_]*(total|version)' /tmp/scrape.1
	echo "@@ user-scrape-2"
	grep -E '^hvtop_[a-z_]*(total|version)' /tmp/scrape.2
	# The source rechecks the version every 10 s.
	n=0
	while [ $n -lt 120 ] && kill -0 $pid 2>/dev/null &&
	    ! grep -q 'catalog version changed' /tmp/user.err; do
		sleep 1
		n=$((n + 1))
	done
	# Then until a sample of the new version is served, or the run ends.
	scrape_until /tmp/scrape.3 1 '^hvtop_events_total{.*catalog_version="2"}'
	echo "@@ user-running $(kill -0 $pid 2>/dev/null && echo yes || echo no)"
	echo "@@ user-scrape-3"
	grep -E '^hvtop_[a-z_]*(total|version)' /tmp/scrape.3 2>/dev/null
	echo "@@ user-exit"
	kill $pid 2>/dev/null
	wait $pid
	echo "@@ rc=$?"
	echo "@@ user-err"
	cat /tmp/user.err
	;;
esac
echo "@@ end"
