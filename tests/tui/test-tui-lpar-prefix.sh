#!/bin/sh
# One prefix per rate column on the Partitions screen, in the list of
# partitions and in one partition's virtual processors (not 975.17M
# above 1.44G), so that its rows line up and compare at a glance.
. "$(dirname "$0")/../cli/tap.sh"
. "$(dirname "$0")/tui-lib.sh"
N=5
plan $N
command -v tmux >/dev/null 2>&1 || tui_skip_all $N "tmux is not installed"

# suffixes HEAD N: the distinct last letters of column N under HEAD.
suffixes() {
	screen | awk -v head="$1" -v n="$2" '
	    $0 ~ head { rows = 1; next }
	    rows && NF >= n && $1 ~ /^\*?[0-9]+$/ { print $n }' |
	    sed 's/.*[0-9.]//' | sort -u | wc -l
}
one_prefix() { [ "$(suffixes "$1" "$2")" -eq 1 ]; }

tui_init 120 40
tui_start --sim clock=virtual,seed=3,lpars=8 -d 1
wait_for '^total ' >/dev/null
keys P
wait_for '^7 partitions' >/dev/null
wait_for '^ +\*?1 +16 +[0-9.]+[kMG]' >/dev/null
check "the partitions' CYCLES/S: one prefix" one_prefix 'LPAR +VCPUS' 3
check "the partitions' INSTR/S: one prefix" one_prefix 'LPAR +VCPUS' 5
keys Enter
wait_for 'virtual processors' >/dev/null
wait_for '^ +0 +[0-9-]+ +[0-9.]+[kMG]' >/dev/null
check "the vcpus' CYCLES/S: one prefix" one_prefix 'VCPU +HOME' 3
check "the vcpus' INSTR/S: one prefix" one_prefix 'VCPU +HOME' 5
keys q
wait_for '^EXIT=0$' >/dev/null
check "no sanitizer report" tui_clean
