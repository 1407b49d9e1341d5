#!/bin/sh
# Sticky table heads on the Live screen at 80x24: whenever a row of a
# table is on the screen, so are the table's title and its column names,
# however the cursor got there (Down, End, Home, Up, PgUp, a filter), and
# scrolling back always brings the whole head back.
. "$(dirname "$0")/../cli/tap.sh"
. "$(dirname "$0")/tui-lib.sh"
N=12
plan $N
command -v tmux >/dev/null 2>&1 || tui_skip_all $N "tmux is not installed"

# chip_head: the chip table's units line is never shown without its title
# and its names above it.
chip_head() {
	screen >"$tmpdir/s"
	grep -q 'GHz' "$tmpdir/s" || return 0
	grep -q '^chips: PowerBus on 0' "$tmpdir/s" &&
	    grep -Eq '^chip +PowerBUS_Frequency' "$tmpdir/s" && return 0
	diag "chip units without their title or names:"
	sed 's/^/| /' "$tmpdir/s" | while IFS= read -r l; do diag "$l"; done
	return 1
}

tui_init 80 24
tui_start --sim clock=virtual,seed=3 -g PowerBus@chip:0 \
    -g CPM_32MHZ_CYC@core:0-3 -g CPM_1THRD_NON_IDLE_CCYC@core:4-7
wait_for '^total ' >/dev/null
keys Down
# The cursor on the chip table's total (one chip): the key was read.
wait_for '^total of chips: ' >/dev/null
keys End
check "End: the cursor is on the core table's total" \
    wait_for '^total of cores: '
check "End: the chip table's units are never left without its head" \
    chip_head
keys Home
check "Home: the chip table's title is back" \
    wait_for '^chips: PowerBus on 0'
check "Home: ... with its column names" \
    wait_for '^chip +PowerBUS_Frequency'
keys End
wait_for '^total of cores: ' >/dev/null
keys Up Up Up Up Up Up Up Up Up Up
check "Up to the chip table: its title is back" \
    wait_for '^chips: PowerBus on 0'
check "Up to the chip table: ... with its column names" \
    wait_for '^chip +PowerBUS_Frequency'
keys End
wait_for '^total of cores: ' >/dev/null
keys PPage PPage
check "PgUp: the chip table's head is back" \
    wait_for '^chip +PowerBUS_Frequency'
keys q
wait_for '^EXIT=0$' >/dev/null

# A table taller than the screen: its head stays above the rows shown.
tui_start --sim clock=virtual,seed=3
wait_for '^total ' >/dev/null
keys End
wait_for '^total of cores: ' >/dev/null
keys Up Up Up Up Up Up Up Up Up Up Up Up Up
check "scrolled into the core table: row 11 is under the cursor" \
    wait_for '^core 11: '
check "scrolled into the core table: its title is shown" \
    wait_for '^cores: CPM_32MHZ_CYC on 0-23; CPM_0THRD_NON_IDLE_CCYC on 0-23'
check "scrolled into the core table: ... and its column names" \
    wait_for '^core +hvtop_busy +hvtop_ipc +CPM_CCYC'
# Each column has one prefix, chosen from its values, so a units line
# reads "/s" before the first interval and "G/s" once values are in.
check "scrolled into the core table: ... and its units" \
    wait_for '^ +% +[kMGT]?/s +[kMGT]?/s +[kMGT]?/s'
keys q
check "q quits with status 0" wait_for '^EXIT=0$'
exit $tap_failed
