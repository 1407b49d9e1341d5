#!/bin/sh
# Small things a new user sees first, at 80x24: the header says SIMULATED
# once and shortens the frame's label at whole words; a key that does
# nothing says so and points at h; a filter whose regex does not compile
# leaves the last valid filter in force, and the screen says which.
. "$(dirname "$0")/../cli/tap.sh"
. "$(dirname "$0")/tui-lib.sh"
N=10
plan $N
command -v tmux >/dev/null 2>&1 || tui_skip_all $N "tmux is not installed"

# header_words: every word of the header's first line but the marks of a
# cut ("~") is a whole word of the frame's label (or the badge).
header_words() {
	label=$("$HVTOP" -b -n 1 --sim clock=virtual 2>/dev/null |
	    sed -n '1s/.*  \(SIMULATED frame[^)]*)\)  .*/\1/p')
	[ -n "$label" ] || { diag "no label in the batch header"; return 1; }
	line=$(screen | head -n 1)
	label=$(echo "$label" | tr -d ,)
	for w in $(echo "$line" | tr -d ,); do
		w=${w%\~}
		case $w in ''|'~') continue ;; esac
		case " $label " in
		*" $w "*) ;;
		*) diag "'$w' is not a word of: $label"; diag "$line"
		   return 1 ;;
		esac
	done
}

tui_init 80 24
tui_start --sim clock=virtual,seed=3
wait_for '^total ' >/dev/null
check "the header's first line says SIMULATED once" \
    sh -c "[ \$(tmux -L $sock capture-pane -p -t main | head -n 1 |
	grep -o SIMULATED | wc -l) -eq 1 ]"
check "... and keeps the label's words whole" header_words
check "... and its '(no hv_24x7 PMU here)'" \
    wait_for '^ SIMULATED .*\(no hv_24x7 PMU here\)$'

keys y
check "an unknown key says so and points at h" \
    wait_for "^'y' is not a key of hvtop \\(h lists the keys\\)"
keys m
check "a key of another screen says it does nothing here" \
    wait_for "^'m' does nothing on this screen \\(h lists the keys\\)"

keys /
text 'PB'
keys Enter
wait_for 'filter: PB' >/dev/null
check "the filter PB shows the PowerBus column" wait_for '^chip +PM_PB_CYC'
keys /
keys C-u
text 're:(('
keys Enter
check "a regex that does not compile: the tab line says why" \
    wait_for ' filter: regex \(\(: '
check "... and the status line that the last filter is kept" \
    wait_for '^filter not changed, still PB: regex \(\(: '
check "... and in force: PowerBus's column is still shown" \
    wait_for '^chip +PM_PB_CYC'

keys q
wait_for '^EXIT=0$' >/dev/null
check "no sanitizer report" tui_clean
