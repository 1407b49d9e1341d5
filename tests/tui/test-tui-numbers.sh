#!/bin/sh
# Numbers the terminal interface shows, driven through tmux: the naive
# hcall count in the header is one call per counter and follows a pick;
# the Groups screen's event count is the events a group lists (power9's
# CPM_0THRD_NON_IDLE_CCYC has a free slot: 3 events, not 4).  Runs
# headless on a private tmux server; every wait polls the screen with a
# deadline.
. "$(dirname "$0")/../cli/tap.sh"
N=2
plan $N

if ! command -v tmux >/dev/null 2>&1; then
	i=0
	while [ $i -lt $N ]; do
		skip "terminal numbers test $i" "tmux is not installed"
		i=$((i + 1))
	done
	exit 0
fi

sock=hvtop-numbers-$$
T() { tmux -L "$sock" "$@"; }
trap 'tmux_stop "$sock"; rm -rf "$tmpdir"' EXIT

export HVTOP_CONFIG="$tmpdir/cfg/hvtoprc"
export INPUTRC=/dev/null
export LC_ALL=C

screen() { T capture-pane -p -t main; }
wait_for() {
	deadline=$(($(date +%s) + ${2:-30}))
	while [ "$(date +%s)" -le "$deadline" ]; do
		screen | grep -Eq -- "$1" && return 0
		sleep 0.1
	done
	diag "timed out waiting for: $1"
	screen | sed 's/^/| /' | while IFS= read -r l; do diag "$l"; done
	return 1
}
keys() { T send-keys -t main "$@"; }
text() { T send-keys -t main -l "$1"; }

# 2 PowerBus events on 4 chips: 8 counters.
T -f /dev/null new-session -d -s main -x 200 -y 50 \
    "env HVTOP_CONFIG=$HVTOP_CONFIG INPUTRC=/dev/null LC_ALL=C \
    $HVTOP --sim seed=5 -d 0.2 -g PowerBus@chip"
check "header: naive calls are one per counter" wait_for '\(naive 8\)'

# The Groups screen: CPM_0THRD_NON_IDLE_CCYC has 3 events.
keys Tab Tab Tab
wait_for 'NAME +DOMAIN +EVENTS +RECORD +PICKED' || true
keys /
text "CPM_0THRD_NON_IDLE_CCYC"
keys Enter
check "Groups: CPM_0THRD_NON_IDLE_CCYC says 3 events" \
    wait_for 'CPM_0THRD_NON_IDLE_CCYC +core +3 +0xc0'
