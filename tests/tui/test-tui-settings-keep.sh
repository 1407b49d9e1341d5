#!/bin/sh
# W writes the settings back without losing what hvtop does not
# understand: a line that is not key=value is named with file:line on
# the status line and kept as written, with comments and a key of a newer
# hvtop; the settings the file has still apply (interval=0.7), and one
# changed (the interval, to 0.5) is changed where its line is.  A
# symbolic link (a dotfiles checkout) stays a link and the file it names
# is written, keeping its mode.  A file hvtop could not read (written by
# a newer hvtop) is not written over, and the status line says so.
. "$(dirname "$0")/../cli/tap.sh"
. "$(dirname "$0")/tui-lib.sh"
N=13
plan $N
command -v tmux >/dev/null 2>&1 || tui_skip_all $N "tmux is not installed"

tui_init 120 30
rc=$HVTOP_CONFIG
mkdir -p "$tmpdir/dotfiles"
dot=$tmpdir/dotfiles/hvtoprc
cat >"$dot" <<'RC'
# my hvtop settings
config_version=1
# slower than the default
interval=0.7
future.key=from a newer hvtop
this line is no setting
RC
chmod 0444 "$dot"
ln -s "$dot" "$rc"

tui_start "--sim seed=2"
check "a bad line is named with file:line and kept" \
    wait_for "settings: kept as written, not used: $rc:6:6: expected"
check "the file's interval=0.7 applies" wait_for '^interval 0\.70s'
keys d
wait_for 'nterval' 5 >/dev/null
text "0.5"
keys Enter
check "the interval is now 0.5 s" wait_for '^interval 0\.50s'
keys W
check "W writes the settings" wait_for 'settings written to'
check "the link is still a link" test -L "$rc"
check "the file it names keeps mode 0444" \
    test "$(stat -c %a "$dot")" = 444
check "the file it names has interval=0.5 where 0.7 was" \
    test "$(sed -n 4p "$dot")" = "interval=0.5"
check "the key of a newer hvtop is kept" \
    grep -qx 'future.key=from a newer hvtop' "$dot"
check "the comments are kept" \
    sh -c 'grep -qx "# my hvtop settings" "$1" &&
    grep -qx "# slower than the default" "$1"' sh "$dot"
check "the bad line is kept as written" \
    grep -qx 'this line is no setting' "$dot"
keys q
wait_for '^EXIT=0$' 10 >/dev/null

# Written by a newer hvtop: not used, and not written over.
rm -f "$rc"
printf 'config_version=999\nnew.thing=1\n' >"$rc"
cp "$rc" "$tmpdir/before"
tui_start "--sim seed=2"
check "a newer file is not used" wait_for 'settings not used: .*newer'
keys W
check "W refuses to write over a file it could not read" \
    wait_for 'settings not written: the file could not be read'
check "the file is as it was" cmp -s "$rc" "$tmpdir/before"
keys q
wait_for '^EXIT=0$' 10 >/dev/null
exit $tap_failed
