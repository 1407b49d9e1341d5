# Runs inside the virtual LPAR (busybox sh) for test-guest-truth.sh,
# test-guest-part.sh and scripts/bench guest: hvtop (and perf stat) on
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
#   conserve perf stat -I on every vcpu of partitions 1-3 in domains 3-6
#            and on every physical core, hvtop's @lpar and @core beside
#            it: the frame in both views at once
#   lcost    hvtop's @lpar and perf stat -I alone on every vcpu of
#            partitions 1..lp in domains 3-6, each timed per interval
# d=SECONDS sets the interval (0.5), n=COUNT the intervals (6); for cost,
# w=SECONDS the start-up left out (6) and m=SECONDS the time measured (20);
# for part, v=COUNT the vcpus of each partition perf reads (4) (for
# conserve, every one of c=COUNT cores and v vcpus a partition); for
# lcost, lp=COUNT the partitions (64), lv=COUNT their vcpus (8),
# wmax=SECONDS the longest a tool may take to open its events (120)
# and m as for cost.
parts=" $* "
d=0.5
n=6
w=6
m=20
v=4
c=16
lp=64
lv=8
wmax=120
for a in "$@"; do
	case $a in
	lp=*) lp=${a#lp=} ;;
	lv=*) lv=${a#lv=} ;;
	wmax=*) wmax=${a#wmax=} ;;
	v=*) v=${a#v=} ;;
	c=*) c=${a#c=} ;;
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
# The events of $coregroup, for perf.
groupevents="CPM_CCYC CPM_32MHZ_CYC CPM_NON_IDLE_INST CPM_NON_IDLE_PCYC"
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

# ticked NAME CMD...: CMD, once it has opened its events (its output's
# second line that is not a comment: its first interval), left two
# intervals, then its CPU time in ns (as for steady) and the clock at
# the start and at each interval's end for m seconds, a line
# "@@ tick NAME UPTIME_NS CPU_NS" each.  The host counts the hcalls
# between two ticks.  A tool not started within wmax seconds gets
# "@@ unready NAME" and its error output.
ticked() {
	# The command's words are split already: back to the defaults.
	unset IFS
	set +f
	name=$1
	shift
	rm -f /tmp/ready /tmp/pid
	sh -c 'echo $$ >/tmp/pid; exec "$@" 2>/tmp/ticked.err' sh "$@" | {
		k=0
		while [ "$k" -lt 2 ] && IFS= read -r l; do
			case $l in ''|'#'*) ;; *) k=$((k + 1)) ;; esac
		done
		[ "$k" -lt 2 ] || : >/tmp/ready
		exec cat >/dev/null
	} &
	i=0
	while [ ! -e /tmp/ready ] && [ "$i" -lt "$wmax" ]; do
		sleep 1
		i=$((i + 1))
	done
	pid=$(cat /tmp/pid 2>/dev/null)
	if [ ! -e /tmp/ready ]; then
		echo "@@ unready $name after $i s"
		tail -n 5 /tmp/ticked.err
		[ -z "$pid" ] || kill "$pid" 2>/dev/null
		wait
		return 0
	fi
	sleep "$d"
	sleep "$d"
	echo "@@ ready $name after $i s"
	k=$(awk -v m="$m" -v d="$d" 'BEGIN { printf "%d", m / d + 0.5 }')
	i=0
	while :; do
		echo "@@ tick $name $(awk '{ printf "%.0f", $1 * 1e9 }' \
		    /proc/uptime) $(cpu_ns "$pid")"
		[ "$i" -lt "$k" ] || break
		sleep "$d"
		i=$((i + 1))
	done
	echo "@@ cost-stop"
	kill "$pid" 2>/dev/null
	wait
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
*" conserve "*)
	# The same frame in two views: a perf group per partition and
	# event (every vcpu, domains 3-6), one of the physical cores (domain
	# 2), and hvtop's partitions and cores in one run beside them.
	l=""
	for e in $partevents; do
		for p in 1 2 3; do
			g=""
			for dm in 3 4 5 6; do
				i=0
				while [ "$i" -lt "$v" ]; do
					g="$g${g:+,}hv_24x7/$e,domain=$dm,lpar=$p,core=$i/"
					i=$((i + 1))
				done
			done
			l="$l${l:+,}{$g}"
		done
	done
	g=""
	for e in $partevents; do
		i=0
		while [ "$i" -lt "$c" ]; do
			g="$g${g:+,}hv_24x7/$e,domain=2,core=$i/"
			i=$((i + 1))
		done
	done
	l="$l,{$g}"
	secs=$(awk -v d="$d" -v n="$n" 'BEGIN { printf "%.3f", d * n + d / 2 }')
	echo "@@ conserve"
	perf stat -x, -I "$ms" -a -o /tmp/perf.csv -e "$l" sleep "$secs" &
	hvtop -b -n "$n" -d "$d" --source perf --format csv \
	    -g "$coregroup@lpar:1-3" -g "$coregroup@core" >/tmp/hvtop.csv 2>&1
	rc=$?
	wait
	echo "@@ conserve-hvtop"
	cat /tmp/hvtop.csv
	echo "@@ rc=$rc"
	echo "@@ conserve-perf"
	grep -v '^#' /tmp/perf.csv | grep -v '^$'
	echo "@@ rc=0"
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
	# the calls the hypervisor counts.  For scripts/bench guest, not a
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
case $parts in
*" lcost "*)
	# hvtop reads the group's events on every vcpu of partitions 1..lp
	# in the four placements as one pick, perf stat -I the same
	# counters an event each (one -e per event: a single list would pass
	# the kernel's limit on one argument), each alone; perf without a
	# command, so that nothing it started keeps the pipe open once it
	# is stopped.  Both need a descriptor per counter.  For
	# scripts/bench guest, not a test.
	# shellcheck disable=SC3045  # busybox's sh has it
	ulimit -n 65536
	awk -v lp="$lp" -v lv="$lv" -v ev="$groupevents" 'BEGIN {
		ne = split(ev, e, " ")
		f = "-e\nhv_24x7/%s,domain=%d,lpar=%d,core=%d/\n"
		for (p = 1; p <= lp; p++)
			for (j = 1; j <= ne; j++)
				for (dm = 3; dm <= 6; dm++)
					for (i = 0; i < lv; i++)
						printf f, e[j], dm, p, i
	}' >/tmp/lcost.ev
	echo "@@ lcost counters $(($(wc -l </tmp/lcost.ev) / 2))"
	life=$(awk -v w="$wmax" -v m="$m" -v d="$d" \
	    'BEGIN { printf "%d", w + m + 4 * d + 10 }')
	ticked hvtop hvtop -b -n "$(awk -v l="$life" -v d="$d" \
	    'BEGIN { printf "%d", l / d }')" -d "$d" --source perf \
	    -O "lpars=1-$lp" --format csv -g "$coregroup@lpar:1-$lp"
	set -f
	IFS='
'
	# shellcheck disable=SC2046
	ticked perf perf stat -x, -I "$ms" -a -o /proc/self/fd/1 \
	    $(cat /tmp/lcost.ev)
	set +f
	echo "@@ lcost-end"
	;;
esac
echo "@@ end"
