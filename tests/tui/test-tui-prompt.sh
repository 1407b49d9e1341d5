#!/bin/sh
# The prompts as a user meets them: / opens with the current filter and a
# space, so what is typed narrows it instead of being glued to its last
# word; a completion's "N matches: ..." hint goes with its prompt; the
# interval prompt shows the current interval; and editing a line recalled
# from the history leaks nothing (LeakSanitizer in a sanitizer build).
. "$(dirname "$0")/../cli/tap.sh"
. "$(dirname "$0")/tui-lib.sh"
N=11
plan $N
command -v tmux >/dev/null 2>&1 || tui_skip_all $N "tmux is not installed"

tui_init 100 30
tui_start --sim seed=5 -d 0.5
wait_for '^total ' >/dev/null
keys Tab Tab
wait_for 'NAME +DOMAIN +FLAGS +OFFSET' >/dev/null
keys /
text 'domain:core'
keys Enter
wait_for 'filter: domain:core$' >/dev/null
keys /
check "/ opens with the current filter" wait_for '^filter: domain:core'
text 're:inst$'
check "... followed by a space: a new term narrows it" \
    wait_for '^filter: domain:core re:inst\$$'
keys Enter
check "the narrowed filter applies" \
    wait_for '\([0-9]+/[0-9]+\)  filter: domain:core re:inst\$$'
check "... and shows matches" wait_for '^. CPM_[A-Z0-9_]*INST +core '

keys /
keys C-u
text 'PM_MCS01_128B_RD_DISP_PO'
keys Tab Tab
check "Tab Tab lists the completions on the status line" \
    wait_for '^2 matches: PM_MCS01_128B_RD_DISP_PORT01'
keys Escape
check "the hint goes when the prompt closes" wait_gone 'matches:'

keys d
check "d shows the current interval" \
    wait_for '^interval in seconds \(now 0\.5\):'
text '0.4'
keys Enter
keys d
check "... and the new one after a change" \
    wait_for '^interval in seconds \(now 0\.4\):'
keys Escape
wait_gone '^interval in seconds' >/dev/null
keys q
check "q quits with status 0" wait_for '^EXIT=0$'

# Next run: a line of the saved history edited, another recalled, Enter
# (readline keeps undo lists with the entries edited).
tui_start --sim seed=5 -d 0.5
wait_for '^total ' >/dev/null
keys /
wait_for '^filter:' >/dev/null
keys Up
wait_for '^filter: .' >/dev/null
text 'x'
keys Up Enter
keys q
check "q quits with status 0 after editing history lines" \
    wait_for '^EXIT=0$'
check "no sanitizer report (no leak) on standard error" tui_clean
exit $tap_failed
