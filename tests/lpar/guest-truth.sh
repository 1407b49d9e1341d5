# Runs inside the virtual LPAR (busybox sh) for test-lpar-truth.sh,
# test-lpar-part.sh and scripts/bench lpar: hvtop (and perf stat) on
# chosen selections, each run's output in a section "@@ NAME", its status
# after it as "@@ rc=N".
# The host reads the hypervisor's truth log of the same boot and matches
# every value against it.  Arguments: the parts, among
#   pace     overview, chip and core in turn
#   overview hvtop's default selection
#   chip     a group per chip, core a group per core
#   picks    both picks in one run
#   side     hvtop and perf stat -I at once on the same chip's events
#   cost     hvtop and perf stat -I alone, each timed by the kernel
#   part     perf stat -I on partitions 1-3's vcpus in domains 3-6, and
#            hvtop's @lpar beside it; perf on a partition that is not;
#            hvtop's @lpar on every partition it finds
#   denied   hvtop's @lpar and perf without the permission to see others
# d=SECONDS sets the interval (0.5), n=COUNT the intervals (6); for cost,
# w=SECONDS the start-up left out (6) and m=SECONDS the time measured (20);
# for part, v=COUNT the vcpus of each partition perf reads (4).
parts=" $* "
d=0.5
n=6
w=6
m=20
v=4
for a in "$@"; do
	case $a in
	v=*) v=${a#v=} ;;
	d=*) d=${a#d=} ;;
	n=*) n=${a#n=} ;;
	w=*) w=${a#w=} ;;
	m=*) m=${a#m=} ;;
	esac
done
ms=$(awk -v d="$d" 'BEGIN { printf "%d", d * 1000 }')
chipgroup=Memory_BW
coregroup=CPM_32MHZ_CYC
partevents="CPM_CCYC CPM_NON_IDLE_INST"
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

# cpu_ns PID: the CPU time of every thread of PID so far, in ns: the
# kernel's run time (schedstat), else user + system clock ticks.
cpu_ns() {
	if [ -r "/proc/$1/schedstat" ]; then
		cat /proc/"$1"/task/*/schedstat 2>/dev/null |
		    awk '{ s += $1 } END { printf "%.0f", s }'
	else
		awk -v hz="$(getconf CLK_TCK 2>/dev/null || echo 100)" \
		    '{ printf "%.0f", ($14 + $15) * 1e9 / hz }' "/proc/$1/stat"
	fi
}

# steady NAME CMD...: CMD's CPU time in ns over m seconds (m/d
# intervals), once started and w seconds in.
steady() {
	name=$1
	shift
	"$@" >/dev/null 2>&1 &
	pid=$!
	sleep "$w"
	echo "@@ cost $name"
	a=$(cpu_ns $pid)
	sleep "$m"
	b=$(cpu_ns $pid)
	echo "@@ cost-stop"
	kill $pid 2>/dev/null
	wait $pid 2>/dev/null
	echo "@@ cpu $name $(awk -v a="$a" -v b="$b" \
	    'BEGIN { printf "%.0f", b - a }') $(awk -v m="$m" -v d="$d" \
	    'BEGIN { printf "%d", m / d + 0.5 }')"
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
# Whether hvtop's perf source finds partitions (it takes -O lpars=).
case $parts in
*" part "*|*" denied "*)
	run lpar-probe hvtop -b -n 1 -d 0.1 --source perf -O lpars=1 \
	    --format csv -e CPM_CCYC@vcpu:0 ;;
esac
case $parts in
*" part "*)
	# perf stat reads each vcpu of partitions 1-3 in each placement
	# (perf spells the vcpu core=), hvtop the same as one pick, both at
	# once as for side.  A perf group per partition: the driver reads a
	# group in one call, all its counters at one moment.
	l=""
	for p in 1 2 3; do
		g=""
		for e in $partevents; do
			for dm in 3 4 5 6; do
				i=0
				while [ "$i" -lt "$v" ]; do
					g="$g${g:+,}hv_24x7/$e,domain=$dm,lpar=$p,core=$i/"
					i=$((i + 1))
				done
			done
		done
		l="$l${l:+,}{$g}"
	done
	secs=$(awk -v d="$d" -v n="$n" 'BEGIN { printf "%.3f", d * n + d / 2 }')
	echo "@@ part"
	perf stat -x, -I "$ms" -a -o /tmp/perf.csv -e "$l" sleep "$secs" &
	hvtop -b -n "$n" -d "$d" --source perf --format csv \
	    -g "$coregroup@lpar:1-3" >/tmp/hvtop.csv 2>&1
	rc=$?
	wait
	echo "@@ part-hvtop"
	cat /tmp/hvtop.csv
	echo "@@ rc=$rc"
	echo "@@ part-perf"
	grep -v '^#' /tmp/perf.csv | grep -v '^$'
	echo "@@ rc=0"
	# No partition 9 on the frame: the kernel's test call fails.
	run part-absent perf stat -x, \
	    -e hv_24x7/CPM_CCYC,domain=3,lpar=9,core=0/ true
	# Every partition hvtop finds: those the frame has, but 0.
	run part-all hvtop -b -n 1 -d 0.5 --source perf --format csv \
	    -g "$coregroup@lpar"
	;;
esac
case $parts in
*" denied "*)
	# Without the permission: this partition's own vcpus (lpar=0xffff)
	# only, and hvtop says why.
	run denied-hvtop hvtop -b -n 2 -d "$d" --source perf --format csv \
	    -g "$coregroup@lpar"
	run denied-perf perf stat -x, -I "$ms" -a \
	    -e hv_24x7/CPM_CCYC,domain=4,lpar=0xffff,core=0/ sleep "$d"
	run denied-other perf stat -x, \
	    -e hv_24x7/CPM_CCYC,domain=4,lpar=2,core=0/ true
	;;
esac
case $parts in
*" cost "*)
	# Each tool alone, in its steady state: started, left w s (6) to
	# open its events (slow under TCG), then measured over m s (20, 40
	# intervals of 0.5 s): its own CPU from /proc, in ns (schedstat;
	# the hcalls run in its read(2) calls) and, between the markers,
	# the calls the hypervisor counts.  For scripts/bench lpar, not a
	# test.
	life=$(awk -v w="$w" -v m="$m" 'BEGIN { printf "%d", 2 * (w + m) }')
	steady hvtop hvtop -b -n "$(awk -v l="$life" -v d="$d" \
	    'BEGIN { printf "%d", l / d }')" -d "$d" --format csv \
	    -g "$chipgroup@chip:1" -g PowerBus@chip:1
	steady perf perf stat -x, -I "$ms" -a -o /dev/null \
	    -e "$(perf_events 1)" sleep "$life"
	echo "@@ cost-end ns"
	;;
esac
echo "@@ end"
