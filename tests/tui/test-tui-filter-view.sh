#!/bin/sh
# A list that a filter shrinks shows every match it has room for: with the
# cursor at the end of a long list, a narrower filter must not leave
# matches hidden above the view while the rows below it are blank.
. "$(dirname "$0")/../cli/tap.sh"
. "$(dirname "$0")/tui-lib.sh"
N=6
plan $N
command -v tmux >/dev/null 2>&1 || tui_skip_all $N "tmux is not installed"

# rows RE COUNT: poll until exactly COUNT lines of the screen match RE.
rows() {
	until_ok 30 rows_now "$1" "$2" && return 0
	diag "expected $2 lines matching $1, saw $(screen | grep -Ec -- "$1")"
	tui_show
	return 1
}
# rows_now RE COUNT: exactly COUNT lines of the screen match RE, now.
rows_now() { [ "$(screen | grep -Ec -- "$1")" -eq "$2" ]; }

# filter TEXT: replace the filter with TEXT.
filter() {
	keys /
	wait_for '^filter:' >/dev/null
	keys C-u
	text "$1"
	keys Enter
}

tui_init 80 24
tui_start --sim seed=5 -d 0.5
wait_for '^total ' >/dev/null
keys Tab Tab
check "Events screen" wait_for 'NAME +DOMAIN +FLAGS +OFFSET'
filter 'domain:core'
# The prompt closed: the filter applied (at 80 columns the tab line cuts
# its text short).
wait_gone '^filter:' >/dev/null
keys End
check "End goes to the last core event" wait_for '^. CPM_[A-Z0-9_]+ +core '
filter 'domain:core re:inst$ !thrd'
check "the narrower filter counts 11 matches" wait_for '\(11/[0-9]+\)'
check "... and shows all 11, none hidden above the view" \
    rows '^. [A-Z0-9_]+ +core ' 11
filter 'domain:core'
keys End
filter 'domain:core re:inst$ !thrd'
keys Home
check "Home shows the same 11" rows '^. [A-Z0-9_]+ +core ' 11
keys q
check "q quits with status 0" wait_for '^EXIT=0$'
exit $tap_failed
