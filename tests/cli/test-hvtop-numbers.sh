#!/bin/sh
# The numbers of a batch run checked against what the simulated frame is
# known to do, not against hvtop's own arithmetic: with nest_hz=2000000000
# (PB_Freq) the PowerBus cycle counter steps 2e9 / 250 = 8e6 times a
# second, so PowerBUS_Frequency (PM_PB_CYC * 2.5e-7 / delta-seconds) is
# exactly 2 GHz on every chip, in every interval, and in the total.
. "$(dirname "$0")/tap.sh"
plan 16

# Print column NAME (header without its unit) of CSV rows of DOMAIN as
# "seq index interval value".
col() {
	awk -F, -v want="$1" -v dom="$2" '
	NR == 1 {
		for (i = 1; i <= NF; i++) {
			h = $i; sub(/ \[.*\]$/, "", h)
			if (h == want) c = i
		}
		next
	}
	$4 == dom { print $2, $5, $3, $c }' "$3"
}

# Chips updated at different times: rows cover different intervals.
SIM=clock=virtual,seed=4,update_ms=700,sockets=2,chips_per_socket=2
SIM=$SIM,nest_hz=2000000000
"$HVTOP" -b -n 6 --sim "$SIM" --format csv -d 2 >"$tmpdir/t.csv"
check "rows of one interval cover different intervals" \
    test "$(col PowerBUS_Frequency chip "$tmpdir/t.csv" |
    awk '$2 != "total" { print $1, $3 }' | sort -u |
    awk '{ n[$1]++ } END { for (s in n) if (n[s] > 1) print s }' |
    wc -l)" -gt 0
col PowerBUS_Frequency chip "$tmpdir/t.csv" >"$tmpdir/pb"
check "every chip and the total run the bus at 2 GHz" \
    awk 'NF < 4 || $4 + 0 != 2 { print; bad = 1 } END { exit bad }' \
    "$tmpdir/pb"
# A total is the sum of the rows' rates.
col Memory_RD_BW_Chip chip "$tmpdir/t.csv" >"$tmpdir/rd"
check "Memory_RD_BW_Chip total is the sum of its rows" awk '
	$2 != "total" { sum[$1] += $4; next }
	{ d = sum[$1] - $4; if (d < 0) d = -d
	  if (d > 1e-6 * $4) { print "seq " $1 ": rows " sum[$1] \
	      ", total " $4; bad = 1 } }
	END { exit bad }' "$tmpdir/rd"
check "the total's interval is the mean of its rows'" awk '
	$2 != "total" { sum[$1] += $3; n[$1]++; next }
	{ d = sum[$1] / n[$1] - $3; if (d < 0) d = -d
	  if (d > 1e-9) { print "seq " $1 ": " $3; bad = 1 } }
	END { exit bad }' "$tmpdir/rd"

# A frame that boots as hvtop starts: records are not updated at first,
# and a rate needs two updates of the same record.
SIM=clock=virtual,seed=2,update_ms=1000,uptime_ms=0,nest_hz=2000000000
"$HVTOP" -b -n 8 -d 0.4 --sim "$SIM" --format csv >"$tmpdir/b.csv"
col PowerBUS_Frequency chip "$tmpdir/b.csv" >"$tmpdir/pb"
check "before two updates a chip has no value, never 0/s" \
    awk 'NF == 4 && $4 + 0 != 2 { print; bad = 1 } END { exit bad }' \
    "$tmpdir/pb"
check "the first two samples (before any update) have no value" \
    awk '$1 <= 2 && NF == 4 { print; bad = 1 } END { exit bad }' "$tmpdir/pb"
check "values appear once a chip was updated twice" \
    test "$(awk 'NF == 4' "$tmpdir/pb" | wc -l)" -gt 2
"$HVTOP" -b -n 1 -d 0.4 --sim "$SIM" >"$tmpdir/b.txt" 2>&1
check "text output shows no 0/s for a record not updated yet" awk '
	/^([0-9]+|total) / { for (i = 2; i <= NF; i++) if ($i == "0") bad = 1 }
	END { exit bad }' "$tmpdir/b.txt"

# The naive hcall count is one call per counter: 2 PowerBus events on 4
# chips are 8, 5 more cores make 13, however the planner packs them.
"$HVTOP" -b -n 1 --sim clock=virtual -g PowerBus@chip >"$tmpdir/n.txt"
check "naive calls: one per counter in the batch header" \
    grep -q '^hvtop .*hcalls [0-9]* (naive 8)' "$tmpdir/n.txt"
"$HVTOP" -b -n 1 --sim clock=virtual -g PowerBus@chip \
    -e CPM_NON_IDLE_INST@core:0-4 >"$tmpdir/n.txt"
check "naive calls: a further pick counts its counters" \
    grep -q '^hvtop .*hcalls [0-9]* (naive 13)' "$tmpdir/n.txt"
"$HVTOP" -b -n 1 --sim clock=virtual -g PowerBus@chip \
    -e CPM_NON_IDLE_INST@core:0-4 --format json >"$tmpdir/n.json"
check "naive calls: the same in JSON" \
    grep -q '"naive_calls": *13[,}]' "$tmpdir/n.json"

# A division by zero shows -, as the man page says, not ?.
printf 'CPU,hv_24x7\nEVENT,DIVZ,DERIVED_POSTFIX,N0|0|/|,PM_PB_CYC\n' \
    >"$tmpdir/divz.csv"
"$HVTOP" -b -n 1 --sim clock=virtual -g PowerBus@chip \
    -m "$tmpdir/divz.csv" >"$tmpdir/d.txt"
check "a division by zero shows - in text" awk '
	/^chip / { for (i = 1; i <= NF; i++) if ($i == "DIVZ") c = i }
	c && /^(0|1|total) / { n++; if ($c != "-") bad = 1 }
	END { exit bad || n != 3 }' "$tmpdir/d.txt"

# A group's "N events" is the number of events it lists and a pick of it
# reads, in every shipped catalog (power9's CPM_0THRD_NON_IDLE_CCYC has a
# free slot).
for cat in power8 power9 power10; do
	"$HVTOP" --sim clock=virtual,catalog=$cat --list groups \
	    >"$tmpdir/g.$cat" 2>&1
	check "$cat: every group's event count is the events it lists" awk '
	function done() {
		if (name != "" && n != want) {
			print name ": says " want ", lists " n; bad = 1
		}
	}
	/^  [^ ]/ { done(); name = $1; n = 0
		want = $0; sub(/ events,.*/, "", want); sub(/.*, /, "", want)
		next }
	/^       / { n++ }
	END { done(); exit bad || name == "" }' "$tmpdir/g.$cat"
done
check "power9: CPM_0THRD_NON_IDLE_CCYC says 3 events" \
    grep -q '^  CPM_0THRD_NON_IDLE_CCYC .* 3 events,' "$tmpdir/g.power9"
