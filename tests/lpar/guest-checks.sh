# Runs inside the virtual LPAR (busybox sh): prints what the host-side
# test compares, in sections "@@ NAME".  $1 lists the parts: sysfs,
# hvtop, calls, denied.
parts=" $* "
pmu=/sys/bus/event_source/devices/hv_24x7

# The first group of a domain ("Physical Chip", "Physical Core").
group_of() {
	hvtop --list groups | sed -n "s/^  \([^ ]*\) *\[$1,.*/\1/p" | head -n 1
}

echo "@@ dmesg"
dmesg | grep -E 'hv-24x7|hv_24x7|hv-gpci'
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
echo "@@ end"
