#!/bin/sh
# The virtual LPAR against the hypervisor's own account: each boot keeps
# the truth log (every value each H_GET_24X7_DATA call returned, written
# by the emulated hypervisor), runs hvtop -b --format csv in the
# partition (guest-truth.sh), and truth-check.py matches every value
# hvtop printed to a delta between two reads of the same counter, or
# finds it empty with its reason.  Boots: records updated slower than
# hvtop samples (and some not updated yet); busy and short-result
# faults, a catalog version change and counters wrapping at 2^64; and
# hvtop beside perf stat -I on the same events, both against the truth
# and against each other.  Prints "ok NAME" / "not ok NAME" per check,
# then "N passed, N failed".
top=$(cd "$(dirname "$0")/../.." && pwd)
here=$top/tests/guest
guest=$top/scripts/guest
passed=0
failed=0
t=$(mktemp -d "${TMPDIR:-/tmp}/hvtop-truth.XXXXXX")
# What a failed check rests on stays for a look.
trap 'if [ "$failed" -eq 0 ]; then rm -rf "$t"; else echo "# kept $t"; fi' EXIT

frame="sockets=2,chips_per_socket=2,cores=4"
"$top/build/hvcat" sysfs -i 2 "$top/build/catalogs/power9.bin" >"$t/events"

count() {	# count the ok and not ok lines of a check's output
	cat "$1"
	passed=$((passed + $(grep -c '^ok ' "$1")))
	failed=$((failed + $(grep -c '^not ok ' "$1")))
}

# boot NAME SPEC PARTS SECTIONS...: a partition with a truth log, the
# guest's parts, then the check of its sections.
boot() {
	name=$1 spec=$2 parts=$3
	shift 3
	HVTOP_GUEST_SMP=${smp:-1} \
	HVTOP_HV24X7_TRACE=1 HVTOP_GUEST_CONSOLE="$t/$name.console" \
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
	echo "ok $name: boot ($spec)"
	passed=$((passed + 1))
	python3 "$here/truth-check.py" "$t/$name.truth" "$t/$name.console" \
	    "$t/events" "$t/$name.out" $expect "$@" >"$t/$name.check" 2>&1
	sed -i "s/^\(not \)\{0,1\}ok /&$name: /" "$t/$name.check"
	count "$t/$name.check"
}

# Records updated every second while hvtop samples every 0.3 s; with no
# uptime before, some are not updated yet when the run starts.
expect=""
boot pace "update_ms=1000,uptime_ms=0" "pace d=0.3" overview chip core
# Faults: H_BUSY and short results now and then once the events are
# open (the kernel's test read of each event, one call each, comes
# first: the overview opens 120, its two core groups sharing two events
# that are opened once; the two picks 32 + 64), the catalog version
# moving on mid-run, and counters 3e9 short of 2^64 at the first call (the cores'
# cycles wrap within a second).  The picks' faults begin 16 opens early:
# hvtop opens again an event whose test read was busy.
faults="busy:0.1+short-results:0.1"
expect="--wrap --faults"
boot faults "start=-3000000000,seed=7,faults=$faults+from@121+version-change@142" \
    overview overview
boot faults-picks "start=-3000000000,seed=7,faults=$faults+from@81+version-change@120" \
    picks picks
# hvtop and perf stat -I at once on chip 1's memory and clock events,
# each on a virtual processor of its own so that neither waits for the
# other between taking its time and reading.  A steady workload, so that
# every counter compares interval by interval though the two programs'
# intervals do not line up.
expect=""
smp=2
boot side "update_us=1000,steady=1" side side:side-hvtop:side-perf

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
