#!/bin/sh
# W writes through the one writer of output files: a hvtoprc that is a
# symbolic link to no file yet (a dotfiles checkout not made) creates
# the file it names, the link stays a link, and the new file gets the
# mode the umask gives any new file (022: 644).
. "$(dirname "$0")/../cli/tap.sh"
. "$(dirname "$0")/tui-lib.sh"
N=4
plan $N
command -v tmux >/dev/null 2>&1 || tui_skip_all $N "tmux is not installed"

# The pane's shell, and hvtop in it, get the umask of the tmux server.
umask 022
tui_init 120 30
rc=$HVTOP_CONFIG
mkdir -p "$tmpdir/dotfiles" "$(dirname "$rc")"
dot=$tmpdir/dotfiles/hvtoprc
ln -s "$dot" "$rc"

tui_start "--sim seed=2"
wait_for '^interval' >/dev/null
keys W
check "W through a link to no file writes the settings" \
    wait_for 'settings written to'
check "the link is still a link" test -L "$rc"
check "the file it names is made" test -f "$dot"
check "with the mode of a new file under umask 022 (644)" \
    test "$(stat -c %a "$dot" 2>/dev/null)" = 644
keys q
wait_for '^EXIT=0$' 10 >/dev/null
exit $tap_failed
