#!/bin/sh
# Partitions on the virtual LPAR, against the hypervisor's truth log.
# One boot on a steady frame of four partitions of 8 vcpus: perf stat -I
# on hv_24x7/EVENT,domain=D,lpar=N,core=M/ for partitions 1-3, D = 3..6,
# every vcpu M and two core events, with hvtop's -g GROUP@lpar:1-3
# beside it; perf on a partition the frame does not have; hvtop's @lpar
# on every partition it finds.  Another with the permission to see other
# partitions withheld (faults=denied).  A third on a frame of 16 vcpus a
# partition, more than its cores can run: perf stat -I and hvtop read
# every vcpu of partitions 1-3 and every physical core at once, and the
# partitions must count no more than the cores, in the truth, in perf
# and in hvtop.  part-check.py matches them with the truth and each
# other (1 % per interval).  Prints "ok NAME", "not
# ok NAME" or "SKIP NAME: REASON" per check, then "N passed, N failed".
top=$(cd "$(dirname "$0")/../.." && pwd)
here=$top/tests/guest
guest=$top/scripts/guest
passed=0
failed=0
t=$(mktemp -d "${TMPDIR:-/tmp}/hvtop-part.XXXXXX")
trap 'if [ "$failed" -eq 0 ]; then rm -rf "$t"; else echo "# kept $t"; fi' EXIT

# Four chips of four cores in two nodes: every placement exists.  With 8
# vcpus partition 1 is packed into a chip, 2 spread over a node and 3
# over both nodes (sharing a home core with 0).
frame="sockets=2,chips_per_socket=2,cores=4"
"$top/build/hvcat" sysfs -i 2 "$top/build/catalogs/power9.bin" >"$t/events"

count() {
	cat "$1"
	passed=$((passed + $(grep -c '^ok ' "$1")))
	failed=$((failed + $(grep -c '^not ok ' "$1")))
}

# boot NAME SPEC PARTS SECTIONS...
boot() {
	name=$1 spec=$2 parts=$3
	shift 3
	s0=$(date +%s)
	# shellcheck disable=SC2086
	HVTOP_GUEST_SMP=2 HVTOP_HV24X7_TRACE=1 \
	    HVTOP_GUEST_CONSOLE="$t/$name.console" \
	    HVTOP_GUEST_TRUTH="$t/$name.truth" \
	    "$guest" --sim "catalog=power9,$frame,$spec" -- \
	    sh -c "$(cat "$here/guest-truth.sh")" sh $parts \
	    >"$t/$name.out" 2>"$t/$name.err"
	if ! grep -q '^@@ end$' "$t/$name.out"; then
		tail -n 30 "$t/$name.out" "$t/$name.err"
		echo "not ok $name: boot"
		failed=$((failed + 1))
		return 1
	fi
	echo "ok $name: boot ($spec, $(( $(date +%s) - s0 )) s)"
	passed=$((passed + 1))
	python3 "$here/part-check.py" "$t/$name.truth" "$t/$name.console" \
	    "$t/events" "$t/$name.out" "$@" >"$t/$name.check" 2>&1
	sed -i -e "s/^\(not \)\{0,1\}ok /&$name: /" \
	    -e "s/^SKIP /&$name /" "$t/$name.check"
	count "$t/$name.check"
}

# A steady workload: each counter keeps one rate, so perf's and hvtop's
# intervals, which do not line up, count the same per second.  Records
# updated every millisecond.  Intervals of 4 s: a rate rests on when the
# tool took its time, which a loaded host moves by some milliseconds
# (and hvtop reads its 384 counters one call after another).
boot part "vcpus=8,update_us=1000,steady=1" "part d=4 n=4 v=8" \
    part:part-hvtop:part-perf absent:part-absent all:part-all
# Without "allow performance information collection".  The frame gives
# this partition the vcpus the guest has: it counts its own from Linux.
boot denied "vcpus=2,update_us=1000,steady=1,faults=denied" \
    "denied d=0.5" \
    denied:denied-hvtop:denied-perf:denied-other

# One frame in two views, through the real driver: 3 intervals of 4 s.
boot conserve "vcpus=16,update_us=1000,steady=1" \
    "conserve d=4 n=3 v=16 c=16" conserve:conserve-hvtop:conserve-perf

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
