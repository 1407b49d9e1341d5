# Runs inside the virtual LPAR (busybox sh) for test-lpar-truth.sh and
# scripts/bench lpar: hvtop (and perf stat) on chosen selections, each
# run's output in a section "@@ NAME", its status after it as "@@ rc=N".
# The host reads the hypervisor's truth log of the same boot and matches
# every value against it.  Arguments: the parts, among
#   pace     overview, chip and core in turn
#   overview hvtop's default selection
#   chip     a group per chip, core a group per core
#   picks    both picks in one run
#   side     hvtop and perf stat -I at once on the same chip's events
#   cost     hvtop and perf stat -I alone, each timed by the kernel
# d=SECONDS sets the interval (0.5), n=COUNT the intervals (6).
parts=" $* "
d=0.5
n=6
for a in "$@"; do
	case $a in
	d=*) d=${a#d=} ;;
	n=*) n=${a#n=} ;;
	esac
done
ms=$(awk -v d="$d" 'BEGIN { printf "%d", d * 1000 }')
chipgroup=Memory_BW
coregroup=CPM_32MHZ_CYC
chipevents="PM_PB_CYC PM_MBA0_CLK_CYC PM_MCS01_128B_RD_DISP_PORT01 PM_MCS01_128B_RD_DISP_PORT23
PM_MCS23_128B_RD_DISP_PORT01 PM_MCS23_128B_RD_DISP_PORT23
PM_MCS01_128B_WR_DISP_PORT01 PM_MCS01_128B_WR_DISP_PORT23
PM_MCS23_128B_WR_DISP_PORT01 PM_MCS23_128B_WR_DISP_PORT23"

# perf's event list for chip $1: one event per name.
perf_events() {
	l=""
	for e in $chipevents; do
		l="$l${l:+,}hv_24x7/$e,chip=$1/"
	done
	echo "$l"
}

# run NAME CMD...: CMD's output as section NAME.
run() {
	echo "@@ $1"
	shift
	"$@" 2>&1
	echo "@@ rc=$?"
}

# CPU seconds (user + system) of the children so far, from /proc.
cpu_children() {
	awk '{ printf "%d\n", $16 + $17 }' /proc/$$/stat
}

case $parts in *" pace "*) parts="$parts overview chip core " ;; esac
case $parts in
*" overview "*)
	run overview hvtop -b -n "$n" -d "$d" --format csv ;;
esac
case $parts in
*" chip "*)
	run chip hvtop -b -n "$n" -d "$d" --format csv -g "$chipgroup@chip" ;;
esac
case $parts in
*" core "*)
	run core hvtop -b -n "$n" -d "$d" --format csv -g "$coregroup@core" ;;
esac
case $parts in
*" picks "*)
	run picks hvtop -b -n "$n" -d "$d" --format csv \
	    -g "$chipgroup@chip" -g "$coregroup@core" ;;
esac
case $parts in
*" side "*)
	# Both at once, started together: their intervals line up to the
	# few milliseconds it takes to start them.
	secs=$(awk -v d="$d" -v n="$n" 'BEGIN { printf "%.3f", d * n + d / 2 }')
	echo "@@ side"
	perf stat -x, -I "$ms" -a -o /tmp/perf.csv \
	    -e "$(perf_events 1)" sleep "$secs" &
	hvtop -b -n "$n" -d "$d" --format csv -g "$chipgroup@chip:1" \
	    -g PowerBus@chip:1 >/tmp/hvtop.csv 2>&1
	rc=$?
	wait
	echo "@@ side-hvtop"
	cat /tmp/hvtop.csv
	echo "@@ rc=$rc"
	echo "@@ side-perf"
	grep -v '^#' /tmp/perf.csv | grep -v '^$'
	echo "@@ rc=0"
	;;
esac
case $parts in
*" cost "*)
	# Each tool alone, for 2 intervals and for 8: the difference is the
	# cost of 6 intervals without the start-up (opening the events).
	# CPU in clock ticks of the children; the calls are counted on the
	# hypervisor's side between the markers.
	for k in 2 8; do
		echo "@@ cost hvtop $k"
		c0=$(cpu_children)
		hvtop -b -n "$k" -d "$d" --format csv -g "$chipgroup@chip:1" \
		    -g PowerBus@chip:1 >/dev/null 2>&1
		c1=$(cpu_children)
		echo "@@ cpu hvtop $k $((c1 - c0)) $k"
		echo "@@ cost perf $k"
		secs=$(awk -v d="$d" -v k="$k" 'BEGIN { printf "%.3f", d * k + d / 2 }')
		c0=$(cpu_children)
		perf stat -x, -I "$ms" -a -o /tmp/cost.csv \
		    -e "$(perf_events 1)" sleep "$secs"
		c1=$(cpu_children)
		i=$(grep -c 'hv_24x7' /tmp/cost.csv)
		echo "@@ cpu perf $k $((c1 - c0)) $((i / 10))"
	done
	echo "@@ cost-end hz=$(getconf CLK_TCK 2>/dev/null || echo 100)"
	;;
esac
echo "@@ end"
