#!/bin/sh
# Numbers the terminal interface shows, driven through tmux: the naive
# hcall count in the header is one call per counter and follows a pick;
# the Groups screen's event count is the events a group lists (power9's
# CPM_0THRD_NON_IDLE_CCYC has a free slot: 3 events, not 4).  Runs
# headless on a private tmux server; every wait polls the screen with a
# deadline.
. "$(dirname "$0")/../cli/tap.sh"
. "$(dirname "$0")/tui-lib.sh"
N=2
plan $N
command -v tmux >/dev/null 2>&1 || tui_skip_all $N "tmux is not installed"

# 2 PowerBus events on 4 chips: 8 counters.
tui_init 200 50
tui_start --sim seed=5 -d 0.2 -g PowerBus@chip
check "header: naive calls are one per counter" wait_for '\(naive 8\)'

# The Groups screen: CPM_0THRD_NON_IDLE_CCYC has 3 events.
keys Tab Tab Tab
wait_for 'NAME +DOMAIN +EVENTS +RECORD +PICKED' || true
keys /
text "CPM_0THRD_NON_IDLE_CCYC"
keys Enter
check "Groups: CPM_0THRD_NON_IDLE_CCYC says 3 events" \
    wait_for 'CPM_0THRD_NON_IDLE_CCYC +core +3 +0xc0'
