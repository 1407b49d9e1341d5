#!/bin/sh
# g picks by name as -g and -e do: a group or an event in any case, "did
# you mean" for a near miss; its prompt and the Help screen show @lpar.
. "$(dirname "$0")/../cli/tap.sh"
. "$(dirname "$0")/tui-lib.sh"
N=8
plan $N
command -v tmux >/dev/null 2>&1 || tui_skip_all $N "tmux is not installed"

tui_init 120 50
tui_start --sim clock=virtual,seed=3 -d 1
wait_for '^total ' >/dev/null
keys g
check "g's prompt shows @lpar" \
    wait_for '^pick GROUP or EVENT\[@chip[|]@core[|]@vcpu[|]@lpar\]\[:LIST\]:'
text 'powerbus@chip'
keys Enter
check "a group in the wrong case is picked by its catalog name" \
    wait_for '^picked PowerBus@chip: '
keys g
text 'pm_pb_cyc@chip:0'
keys Enter
check "an event in the wrong case too" \
    wait_for '^picked event PM_PB_CYC@chip:0: '
check "... and read" wait_for '^events: .*PM_PB_CYC|PM_PB_CYC on 0'
keys g
text 'PowerBsu'
keys Enter
check "a near miss: did you mean" \
    wait_for "^unknown group 'PowerBsu': did you mean PowerBus"
"$HVTOP" -b -n 1 --sim clock=virtual -g PowerBsu 2>"$tmpdir/cli" >/dev/null
check "... as -g says it" grep -q "did you mean PowerBus" "$tmpdir/cli"
keys h
check "Help shows @lpar for g" wait_for '^ *g +pick by name: .*@lpar'
keys q
wait_for '^EXIT=0$' >/dev/null
check "no sanitizer report" tui_clean
