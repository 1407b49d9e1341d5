#!/bin/sh
# The Partitions screen on the simulated frame, at 80x24 and, after a
# resize, 200x60: P opens it and picks the default core group by
# partition; sorted by % remote the most remote partition comes first;
# the filter bar finds partition 3; Enter opens its virtual processors,
# whose header stays on End and Home, and Esc goes back with the cursor
# on it; after the DPO event partition 3 runs at home, so its % remote
# falls.
. "$(dirname "$0")/../cli/tap.sh"
. "$(dirname "$0")/tui-lib.sh"
N=16
plan $N
command -v tmux >/dev/null 2>&1 || tui_skip_all $N "tmux is not installed"

# col ID N: the N-th field of partition (or vcpu) ID's row.
col() {
	screen | awk -v id="$1" -v n="$2" '
	    /LPAR +VCPUS|VCPU +HOME/ { rows = 1; next }
	    rows && ($1 == id || $1 == "*" id) { print $n; exit }'
}

# rows_under HEAD ROW: until ROW is drawn, and under HEAD.
rows_under() {
	wait_for "$2" >/dev/null &&
	    screen | grep -E -A30 -- "$1" | grep -Eq -- "$2"
}

# wait_most_remote: until the first row has the largest % remote shown.
most_remote_first() {
	screen | awk '/LPAR +VCPUS/ { rows = 1; next }
	    rows && $1 ~ /^\*?[0-9]+$/ { v = $8 + 0; if (n++ == 0) f = v
		if (v > m) m = v }
	    END { exit !(n > 1 && f >= m) }'
}
wait_most_remote() {
	tui_until 30 "the first row is not the most remote" most_remote_first
}

# wait_remote ID OP LIMIT: until ID's % remote compares so with LIMIT.
remote_is() {
	v=$(col "$1" 8)
	case $v in
	''|-|\?) return 1 ;;
	esac
	awk -v v="$v" -v l="$3" "BEGIN { exit !(v $2 l) }"
}
wait_remote() {
	tui_until 40 "partition $1: % remote not $2 $3" remote_is "$@"
}

tui_init 80 24
tui_start --sim clock=virtual,seed=3,dpo=3@16 -d 1
wait_for '^total ' >/dev/null
check "no Partitions tab while no partition is read" \
    sh -c "! tmux -L $sock capture-pane -p -t main | grep -q Partitions"
keys P
check "P opens the screen and picks the default group by partition" \
    wait_for 'LPAR +VCPUS +CYCLES/S +CORES +INSTR/S +IPC-NI +%OFFCHIP'
check "the simulated frame's partitions but 0, which only 0 reads" \
    wait_for '^3 partitions'
check "before the DPO event partition 3 runs away from home" \
    wait_remote 3 '>' 10
keys '<'
check "< from the id: sorted by % remote" wait_for '^3 partitions, by %REMOTE'
check "the most remote partition is on top" wait_most_remote

keys /
text 'lpar=3'
keys Enter
check "the filter bar finds partition 3 alone" \
    wait_for '^1 partition of 3'
keys Enter
check "Enter opens partition 3's virtual processors" \
    wait_for '^partition 3: 16 virtual processors'
keys End
check "End: the last vcpu, the column names still above it" \
    rows_under 'VCPU +HOME' '^ +15 '
keys Home
check "Home: the first vcpu and the header" wait_for '^ +0 +- '
keys Escape
check "Esc goes back to the partitions, the cursor on partition 3" \
    wait_for '^lpar 3: cycles'
keys =

T resize-window -t main -x 200 -y 60
check "200x60: the placement bar's key" \
    wait_for 'LPAR +VCPUS.*%REMOTE +=core \+chip onode #remote'
check "200x60: still sorted, the most remote on top" wait_most_remote
check "after the DPO event partition 3's % remote falls" \
    wait_remote 3 '<' 8
keys q
check "q quits with status 0" wait_for '^EXIT=0'
check "no sanitizer report" tui_clean
