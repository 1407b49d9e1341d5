#!/bin/sh
# hvtop's terminal interface driven through tmux, as a user would: the
# header of the simulated frame, every screen, the filter bar (substring,
# regex, negation, history), picking groups on different chips, resizing,
# saving the settings and getting them back, a terminal left sane after
# SIGTERM, a recording replayed with pause, steps and jumps (and one
# truncated under it), and another
# PMU read through perf: a fixed software PMU from tests/data for the exact
# screen, and the machine's own msr PMU for what holds on any PMU (each
# where this machine lets the user count a CPU).  Runs headless on a
# private tmux server; every wait polls the screen with a deadline instead
# of sleeping, generous enough for a sanitizer build on a busy machine.
. "$(dirname "$0")/../cli/tap.sh"
. "$(dirname "$0")/tui-lib.sh"
N=81
plan $N
command -v tmux >/dev/null 2>&1 || tui_skip_all $N "tmux is not installed"

cfg=$tmpdir/cfg
SIM="--sim sockets=2,chips_per_socket=2,cores=4,seed=5 -d 0.2"

# all_on_screen PATTERN...: every pattern is on one screen, kept in
# $tmpdir/screen.
all_on_screen() {
	screen >"$tmpdir/screen"
	for p in "$@"; do
		grep -Eq -- "$p" "$tmpdir/screen" || return 1
	done
}
# wait_all PATTERN...: poll until every pattern is on one screen.
wait_all() {
	tui_until 30 "timed out waiting for all of: $*" all_on_screen "$@"
}

tui_init 200 60

# ---- header and values ------------------------------------------------
tui_start $SIM
check "header shows the SIMULATED tag" wait_for '^ SIMULATED  hvtop'
check "header shows the catalog version and date" \
    wait_for 'catalog v1 \(20260101\)'
check "header shows interval, hcalls and own CPU" \
    wait_for 'interval 0\.20s .*hcalls [0-9]+/refresh .*hvtop CPU'
check "Live shows the chip table with a total" wait_for '^total '
first=$(screen | grep '^total' | head -n 1)
changed() { [ "$(screen | grep '^total' | head -n 1)" != "$first" ]; }
check "values change from one refresh to the next" until_ok 30 changed

# ---- every screen ------------------------------------------------------
keys Tab
check "Tab: Frame screen" wait_for 'per core, interval'
keys Tab
check "Tab: Events screen" wait_for 'NAME +DOMAIN +FLAGS +OFFSET +GROUPS'
keys Tab
check "Tab: Groups screen" wait_for 'NAME +DOMAIN +EVENTS +RECORD +PICKED'
keys Tab
check "Tab: Formulas screen" wait_for 'NAME +UNIT +GROUP +ORIGIN +LIVE'
keys Tab Tab
check "Tab: Help, then back to Live" wait_for '^chips: '
keys h
check "h: help lists the keys and the Live columns" \
    wait_for 'Live columns'
keys Escape
check "Esc leaves help" wait_for '^chips: '
# Tab and Shift-Tab from help go beside the screen it was opened on:
# help opened on Events starts with the Events columns.
keys Tab Tab h
check "h on Events: help on the Events columns" wait_for '^Events columns'
keys BTab
check "Shift-Tab from help on Events: the Frame screen" \
    wait_for 'per core, interval'
keys Tab h
wait_for '^Events columns' >/dev/null
keys Tab
check "Tab from help on Events: the Groups screen" \
    wait_for 'NAME +DOMAIN +EVENTS +RECORD +PICKED'
keys BTab BTab BTab
check "Shift-Tab back to Live" wait_for '^chips: '

# ---- the filter bar ----------------------------------------------------
keys BTab BTab
wait_for 'NAME +UNIT +GROUP' || true
keys /
check "/ opens the filter prompt" wait_for '^filter:'
text "memory bandwidth"
check "substring filter applies while typing" \
    wait_for '^. Memory_BW_Chip '
check "substring filter hides what does not match" \
    wait_gone 'PowerBUS_Frequency'
keys Enter
keys /
keys C-u
text "re:^memory_(rd|wr)"
keys Enter
check "regex filter keeps the read and write metrics" \
    wait_for '^. Memory_WR_BW_Chip '
check "regex filter drops the sum" wait_gone '^. Memory_BW_Chip '
keys /
keys C-u
text "!memory"
keys Enter
check "negation shows what the word does not match" \
    wait_for 'PowerBUS_Frequency'
check "negation hides the matches" wait_gone 'Memory_BW_Chip'
keys /
keys C-u
text "nosuch"
# Esc only once the edit is on the screen: sent before hvtop has read
# the text, Esc and the next key could reach it together, as a Meta
# pair, whatever the test waited for in between.
check "the edit is shown" wait_for 'nosuch'
keys Escape
check "Esc cancels the edit" wait_gone 'nosuch'
check "... and keeps the filter" wait_for 'filter: !memory'
keys =
check "= clears the filter" wait_for 'Memory_BW_Chip'
keys /
keys Up
check "Up recalls the last filter from the history" \
    wait_for '^filter: !memory'
keys C-c
check "Ctrl-C closes the prompt and hvtop goes on" wait_gone '^filter:'
check "... with the filter it had" wait_for 'Memory_BW_Chip'

# ---- picking groups on different chips ---------------------------------
keys BTab
wait_for 'NAME +DOMAIN +EVENTS' || true
keys /
text "re:^memory_bw$"
keys Enter
wait_for '^. Memory_BW ' || true
keys Enter
check "Enter on a group asks for the indices" wait_for '^pick Memory_BW on'
text "0-1"
keys Enter
keys =
keys g
text "PowerB"
keys Tab
check "Tab completes a group name" wait_for 'PowerBus$'
text ":2"
keys Enter
keys Tab Tab Tab
check "two groups run on different chips at the same time" \
    wait_for '^chips: Memory_BW on 0-1; PowerBus on 2'
check "each row names its group" wait_for '^ +2 PowerBus +[^ ]'
keys Enter
check "Enter shows the cursor row in detail" \
    wait_for '^chip 0  groups: Memory_BW'
keys Enter
keys d
text "0.3"
keys Enter
check "d sets the interval" wait_for 'interval 0\.30s'
keys p
check "p pauses" wait_for 'PAUSED'
keys p
check "p resumes" wait_gone 'PAUSED'
keys BTab BTab BTab
wait_for 'NAME +DOMAIN +EVENTS' || true
keys /
text "re:^powerbus$"
keys Enter
wait_for '^. PowerBus ' || true
keys x
keys = Tab Tab Tab
check "x on a group unpicks it" wait_for '^chips: Memory_BW on 0-1$'
keys g
text "PowerBus:2"
keys Enter
check "g picks it again by name" \
    wait_for '^chips: Memory_BW on 0-1; PowerBus on 2'

# ---- resizing ----------------------------------------------------------
T resize-window -t main -x 80 -y 24
check "80x24 still shows the header and the table" \
    wait_for '^chips: Memory_BW'
check "80x24 keeps the key bar" wait_for '^F1Help /Filter'
T resize-window -t main -x 200 -y 60
check "200x60 again, with room between the keys" \
    wait_for '^F1Help  /Filter'

# ---- settings ----------------------------------------------------------
keys W
check "W writes the settings" wait_for 'settings written to'
check "the file holds the picks by name" \
    grep -q '^pick=group:Memory_BW:0-1$' "$cfg/hvtoprc"
keys q
check "q quits with status 0" wait_for '^EXIT=0'
check "the filter history was saved" grep -q 'memory bandwidth' \
    "$cfg/history"
tui_start $SIM
check "a restart brings the same selection back" \
    wait_for '^chips: Memory_BW on 0-1; PowerBus on 2'

# ---- SIGTERM -----------------------------------------------------------
kill -TERM "$(cat "$tmpdir/pid")"
check "SIGTERM ends hvtop" wait_for '^EXIT='
keys "stty -a | tr ' ' '\n' | grep -Ex -- '-?(icanon|echo)' | tr '\n' ' '; echo" Enter
check "the terminal is sane after SIGTERM (icanon echo)" \
    wait_for '^icanon echo *$'

# ---- replay ------------------------------------------------------------
"$HVTOP" -b -n 20 --sim clock=virtual,seed=7 -w "$tmpdir/t.hvr" \
    -o /dev/null 2>/dev/null
cat >"$tmpdir/replay.sh" <<EOF
exec "$HVTOP" -r "$tmpdir/t.hvr" "\$@"
EOF
keys "clear; sh $tmpdir/replay.sh -d 0.05; echo EXIT=\$?" Enter
check "a replay shows the REPLAY tag" wait_for '^ REPLAY  hvtop'
check "a replay shows what was recorded, not the saved picks" \
    wait_for '^chips: Memory_BW on 0-3; PowerBus on 0-3$'
check "the replay pauses at its end" wait_for 'sample 21/21 at 20x.* END'
check "and says so" wait_for 'end of the recording \(.*21 samples'
keys '['
check "[ steps back one sample" wait_for 'sample 20/21 .*PAUSED'
keys '{'
check "{ jumps back a tenth" wait_for 'sample 18/21 .*PAUSED'
keys ']'
check "] steps forward one sample" wait_for 'sample 19/21 .*PAUSED'
keys p
check "p plays on to the end" wait_for 'sample 21/21 .* END'
keys G
text "+5"
keys Enter
check "G +5 goes to the sample 5 s in, and shows when it was recorded" \
    wait_for 'sample 6/21 at 20x  2026-01-01T00:00:05Z'
keys G
text "00:00:11"
keys Enter
check "G with a time of day" wait_for 'sample 12/21 at 20x  2026-01-01T00:00:11Z'
keys G
text "25:00"
keys Enter
check "G with a bad time says which column is wrong" \
    wait_for 'go to 25:00: column 1: expected an hour'
keys q
check "q ends the replay with status 0" wait_for '^EXIT=0'

# Jumping back across a catalog reload the recording holds (written over
# the first recording, which takes --force).
"$HVTOP" -b -n 20 --sim clock=virtual,seed=7,faults=version-change@10 \
    -w "$tmpdir/t.hvr" --force -o /dev/null 2>/dev/null
keys "clear; sh $tmpdir/replay.sh -d 0.05; echo EXIT=\$?" Enter
check "a replay follows the recorded catalog reload" \
    wait_for '^catalog v2 .*'
wait_for 'sample 21/21 .* END' >/dev/null
# (the reload comes with the fifth sample: two hcalls a sample)
keys '{' '{' '{' '{' '{' '{' '{' '{' '{' '{' '{' '{'
check "jumping back before it shows the older catalog" \
    wait_for '^catalog v1 .*'
keys q
check "and quits cleanly" wait_for '^EXIT=0'

# A recording truncated by another program while it is replayed: the
# replay says so where it stopped, the terminal interface lives on, and
# q then exits 1, the replay not having shown the whole file.
"$HVTOP" -b -n 600 --sim clock=virtual,seed=7 -w "$tmpdir/t.hvr" \
    --force -o /dev/null 2>/dev/null
keys "clear; sh $tmpdir/replay.sh -d 0.05 --replay-speed 20; \
echo EXIT=\$?" Enter
wait_for 'sample [0-9]+/601 at 20x' >/dev/null
truncate -s 4096 "$tmpdir/t.hvr"
check "a recording cut under the replay: the screen says so" \
    wait_for 'replay: .*cut short while it was replayed'
check "... and the replay stays up (no bus error)" \
    sh -c "! tmux -L $sock capture-pane -p -t main | grep -q EXIT="
keys q
check "... and quits with status 1" wait_for '^EXIT=1'

# Another PMU through the perf source: rows are CPUs, and the header speaks
# of CPUs and group reads, not of a frame and hcalls.  The exact screen
# comes from a fixed tree whose PMU is the kernel's software PMU under
# another name, so its events and their offsets are the same everywhere.
SOFT="--source perf --sysfs-root $DATA/sysfs/soft-pmu --pmu soft"
if "$HVTOP" -b $SOFT -e cpu-clock -n 1 -d 0.1 >/dev/null \
    2>"$tmpdir/soft.err"; then
	keys "clear; $HVTOP $SOFT -e cpu-clock -e context-switches -d 0.2; \
echo EXIT=\$?" Enter
	check "perf soft: the header counts one CPU, not a frame" \
	    wait_for 'events from sysfs  1 cpu counted$'
	check "perf soft: ... and group reads, not hcalls" \
	    wait_for 'age [0-9.]+s  group reads 1/refresh'
	check "perf soft: the table's rows are CPUs" \
	    wait_for '^cpu +cpu-clock +context-switches'
	keys Tab Tab v
	# Offsets are slots of the record hvtop makes of the PMU's events,
	# in name order.
	check "perf soft: the Events screen says cpu, with each slot" \
	    wait_all '^\* context-switches +cpu +- +0x0 +1 +soft/event=0x3/$' \
	    '^\* cpu-clock +cpu +- +0x8 +1 +soft/event=0x0/$' \
	    '^  page-faults +cpu +- +0x10 +1 +soft/event=0x2/$'
	wait_for '^   soft/event=' >/dev/null
	check "perf soft: the detail shows the event in its PMU's terms only" \
	    sh -c "tmux -L $sock capture-pane -p -t main |
	    grep -q '^   soft/event=0x3/' &&
	    ! tmux -L $sock capture-pane -p -t main | grep -q hv_24x7"
	keys q
	check "perf soft: quits cleanly" wait_for '^EXIT=0'
else
	why=$(head -n 1 "$tmpdir/soft.err")
	for i in 1 2 3 4 5 6; do
		skip "perf soft screen $i" \
		    "this user cannot count a CPU here: ${why:-no reason given}"
	done
fi

# The machine's own msr PMU: only what holds whatever events it lists.
if [ -d /sys/bus/event_source/devices/msr ] &&
    "$HVTOP" -b --source perf --pmu msr -e tsc -n 1 -d 0.1 \
    >/dev/null 2>&1; then
	keys "clear; $HVTOP --source perf --pmu msr -e tsc -d 0.2; \
echo EXIT=\$?" Enter
	check "perf msr: the header counts CPUs, not a frame" \
	    wait_for 'events from sysfs  [0-9]+ cpus? counted$'
	check "perf msr: ... and group reads, not hcalls" \
	    wait_for 'age [0-9.]+s  group reads [0-9]+/refresh'
	check "perf msr: the table's rows are CPUs" wait_for '^cpu +tsc'
	keys Tab Tab v
	check "perf msr: the Events screen says cpu" \
	    wait_for '^\* tsc +cpu +- +0x[0-9a-f]+( |$)'
	wait_for '^   msr/event=' >/dev/null
	check "perf msr: the detail shows the event in msr's terms only" \
	    sh -c "tmux -L $sock capture-pane -p -t main |
	    grep -q '^   msr/event=' &&
	    ! tmux -L $sock capture-pane -p -t main | grep -q hv_24x7"
	keys q
	check "perf msr: quits cleanly" wait_for '^EXIT=0'
else
	for i in 1 2 3 4 5 6; do
		skip "perf msr screen $i" "the msr PMU cannot be counted here"
	done
fi
check "no sanitizer report" tui_clean
exit $tap_failed
