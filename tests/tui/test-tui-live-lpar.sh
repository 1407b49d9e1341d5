#!/bin/sh
# Partition tables on the Live screen say what they are: with -g GROUP@lpar
# the titles name the partitions read, the virtual processors' rows are
# labelled by partition and vcpu (not lpar << 16 | vcpu), and the status
# line and the detail pane name the row the same way.
. "$(dirname "$0")/../cli/tap.sh"
. "$(dirname "$0")/tui-lib.sh"
N=8
plan $N
command -v tmux >/dev/null 2>&1 || tui_skip_all $N "tmux is not installed"

tui_init 120 40
tui_start --sim clock=virtual,lpars=4 -d 1 -g CPM_32MHZ_CYC@lpar:1-2
check "the partitions' title names the partitions read" \
    wait_for '^lpars: CPM_32MHZ_CYC on lpars 1-2$'
check "the virtual processors' title names them too" \
    wait_for '^lpar vcpus: CPM_32MHZ_CYC on lpars 1-2 \(32 vcpus\)$'
check "their rows are labelled by partition and vcpu" \
    wait_for '^ +2 +5 +[0-9]'
check "no row is labelled lpar << 16 | vcpu" \
    sh -c "! tmux -L $sock capture-pane -p -t main | grep -Eq '^ *(6553[6-9]|655[4-9][0-9]|1310[0-9][0-9]) '"
# Down to the vcpu table's sixth row: partition 1's vcpu 5.
keys Down Down Down Down Down Down Down Down
check "the status line names lpar 1 vcpu 5" \
    wait_for '^lpar 1 vcpu 5: [A-Za-z_]+ = '
keys Enter
check "the detail pane names the row the same way" \
    wait_for '^lpar 1 vcpu 5  groups: CPM_32MHZ_CYC'
keys q
check "q quits with status 0" wait_for '^EXIT=0'
check "no sanitizer report" tui_clean
