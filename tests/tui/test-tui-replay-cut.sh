#!/bin/sh
# A recording cut by another program while the screens replay it: a jump
# past the cut shows what the header says (the sample shown, its time, a
# total that is what is left) and the status line says the file was cut;
# q then exits 1 with the reason on standard error, as the man page says
# and as a batch replay does.
. "$(dirname "$0")/../cli/tap.sh"
. "$(dirname "$0")/tui-lib.sh"
N=7
plan $N
command -v tmux >/dev/null 2>&1 || tui_skip_all $N "tmux is not installed"

rec=$tmpdir/big.hvr
# 20001 samples a second apart from 2026-01-01T00:00:00Z: sample k is at
# k - 1 seconds.
"$HVTOP" -b -n 20000 -d 1 --sim seed=4,clock=virtual -w "$rec" \
    >/dev/null 2>&1
tui_init 120 30
tui_start "-r $rec"
wait_for 'sample [0-9]+/20001' 30 >/dev/null
keys p
# Format 3 takes about 188 bytes a sample: the cut leaves some 9,300.
truncate -s 1800000 "$rec"
keys G
wait_for 'o to' 5 >/dev/null
text "8000"
keys Enter
check "G 8000 shows sample 8000 at 02:13:19" \
    wait_for 'sample 8000/20001 .*02:13:19' 30
keys '}'
check "} past the cut: the status line says the file was cut" \
    wait_for 'replay: .*cut short while it was replayed' 30
left=$(screen | sed -n 's/.*it ends after sample \([0-9]*\),.*/\1/p' |
    head -n 1)
check "... the header's total is what is left (${left:-?})" \
    wait_for "sample [0-9]+/${left:-X} " 5
check "... and its sample and time are those shown (8000, 02:13:19)" \
    wait_for "sample 8000/${left:-X} .*02:13:19" 5
keys q
check "q exits with status 1" wait_for '^EXIT=1$' 10
check "standard error says the file was cut" \
    grep -q "^hvtop: $rec: the file was cut short while it was replayed" \
    "$tmpdir/stderr"
check "no sanitizer report on standard error" tui_clean
exit $tap_failed
