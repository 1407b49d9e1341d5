#!/bin/sh
# A recording that cannot be written on (ulimit -f: a write past it fails
# with EFBIG, SIGXFSZ being ignored) stops the sampling in the screens as
# it stops a batch run: the header's REC turns into REC FAILED, the
# status line says why, q still quits at once, with status 1, and once
# the screen is closed standard error says the recording is incomplete
# and after which sample it ends, the sample hvcat info counts last.
. "$(dirname "$0")/../cli/tap.sh"
. "$(dirname "$0")/tui-lib.sh"
N=6
plan $N
command -v tmux >/dev/null 2>&1 || tui_skip_all $N "tmux is not installed"

tui_init 100 30
rec=$tmpdir/rec.hvr
# 160 blocks (of 512 bytes in sh, of 1 KiB in bash): the preamble fits,
# some seconds of samples do not.
rm -f "$tmpdir/pid" "$tmpdir/stderr"
keys "clear; (trap '' XFSZ; ulimit -f 160; sh $tmpdir/run.sh --sim seed=3 \
-d 0.02 -w $rec); echo EXIT=\$?" Enter
check "the header's REC turns into REC FAILED" wait_for ' REC FAILED ' 60
check "the status line says why sampling stopped" \
    wait_for 'sampling stopped: .*File too large' 5
keys q
check "q quits with status 1" wait_for '^EXIT=1$' 10
check "standard error says why" \
    grep -q "^hvtop: $rec: writing the recording: File too large" \
    "$tmpdir/stderr"
n=$("$HVCAT" info "$rec" 2>/dev/null | sed -n 's/^samples *\([0-9]*\),.*/\1/p')
check "standard error says where the recording ends (sample ${n:-?})" \
    grep -Eq "^hvtop: the recording $rec is incomplete: it ends after \
sample ${n:-X}, at 20[0-9-]+T" "$tmpdir/stderr"
check "no sanitizer report on standard error" tui_clean
exit $tap_failed
