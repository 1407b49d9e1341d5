#!/bin/sh
# hvtop's start-up as a user meets it: metrics that can never be computed
# are named with file, line and column; options and hvtoprc values that
# cannot be used are refused with a message that says what the user typed
# and why, usage errors exit 2.
. "$(dirname "$0")/tap.sh"
plan 44
export LC_ALL=C
export HVTOP_CONFIG="$tmpdir/none/hvtoprc"
SIM="--sim clock=virtual,seed=1"

# run NAME ARGS...: hvtop with stdout in $tmpdir/o, stderr in $tmpdir/e,
# the exit status in $rc.
run() { "$HVTOP" "$@" >"$tmpdir/o" 2>"$tmpdir/e"; rc=$?; }
# has TEXT: stderr holds TEXT (fixed string).
has() { grep -qF -- "$1" "$tmpdir/e" || { diag "stderr:"; diag "$(cat "$tmpdir/e")"; return 1; }; }

# ---- metrics that can never be computed ------------------------------
deep=$(i=0; while [ $i -lt 300 ]; do printf '('; i=$((i + 1)); done
    printf N0; i=0; while [ $i -lt 300 ]; do printf ')'; i=$((i + 1)); done)
cat >"$tmpdir/m.txt" <<EOT
CPU,hv_24x7
EVENT,A,DERIVED_ADD,B,PM_PB_CYC
EVENT,B,DERIVED_ADD,A,PM_PB_CYC
EVENT,DEEP,DERIVED_INFIX,$deep,PM_PB_CYC
EVENT,PM_PB_CYC,DERIVED_INFIX,N0*2,PM_MBA0_CLK_CYC
EVENT,GOOD,DERIVED_INFIX,N0*2,PM_PB_CYC
EOT
run -b -n 1 $SIM -m "$tmpdir/m.txt"
check "a metric cycle is named with file:line:column" \
    has "hvtop: $tmpdir/m.txt:2:7: metric A: formula cycle: A -> B -> A"
check "300 nested parentheses are named with file:line:column" \
    has "hvtop: $tmpdir/m.txt:4:7: metric DEEP: formula nested too deeply"
check "a metric named like a catalog event is named" \
    has "hvtop: $tmpdir/m.txt:5:7: metric PM_PB_CYC: the catalog has an event of that name"
check_not "a metric that can be computed is not named" \
    grep -q "metric GOOD" "$tmpdir/e"
check "the run still exits 0" test "$rc" = 0
run --list formulas $SIM -m "$tmpdir/m.txt" GOOD
check "--list formulas says why too" \
    has "$tmpdir/m.txt:3:7: metric B: formula cycle: B -> A -> B"

# A metric whose names are no events here reads no counter.
printf 'EVENT,NONE,DERIVED_INFIX,N0/N1,NO_SUCH_A,NO_SUCH_B\n' >"$tmpdir/n.txt"
run -b -n 1 $SIM -m "$tmpdir/n.txt"
check "a metric that reads no counter names the names it misses" \
    has "$tmpdir/n.txt:1:7: metric NONE: it reads no counter: NO_SUCH_A, NO_SUCH_B are no event or formula of this catalog"

# A catalog formula that uses itself: hvcat build refuses to make one, so
# an operand of the shipped power9 catalog's first formula is renamed in
# place, to the formula's own name padded with spaces (same length).
if python3 - "$top_builddir/catalogs/power9.bin" "$tmpdir/loop.bin" <<'PY'
import sys
b = open(sys.argv[1], "rb").read()
old = b"(PM_MCS01_128B_RD_DISP_PORT01 +"
new = b"(Memory_RD_BW_Chip            +"
assert len(old) == len(new) and b.count(old) == 1
open(sys.argv[2], "wb").write(b.replace(old, new))
PY
then
	run -b -n 1 --sim "clock=virtual,catalog=$tmpdir/loop.bin"
	check "a catalog formula that uses itself is named" \
	    has "formula Memory_RD_BW_Chip: formula cycle: Memory_RD_BW_Chip -> Memory_RD_BW_Chip"
else
	skip "a catalog formula that uses itself is named" \
	    "python3 is not installed"
fi

# pane_has SOCKET TEXT: the pane of tmux server SOCKET shows TEXT; the
# screen is kept in $tmpdir/screen.
pane_has() {
	tmux -L "$1" capture-pane -p -t main >"$tmpdir/screen"
	grep -qF -- "$2" "$tmpdir/screen"
}

# The screens say it on the status line.
if command -v tmux >/dev/null 2>&1; then
	sock=hvtop-options-$$
	tmux -L "$sock" -f /dev/null new-session -d -s main -x 200 -y 40 \
	    "env HVTOP_CONFIG=$HVTOP_CONFIG LC_ALL=C TERM=xterm $HVTOP $SIM -m $tmpdir/m.txt; sleep 60"
	found=1
	until_ok 30 pane_has "$sock" 'metrics cannot be computed' && found=0
	tmux_stop "$sock"
	check "the screens say how many metrics cannot be computed" \
	    test "$found" = 0
	check "the status line names the first one" \
	    grep -qF "4 metrics cannot be computed (hvtop --list formulas says why): $tmpdir/m.txt:2:7: metric A" "$tmpdir/screen"
else
	skip "the screens say how many metrics cannot be computed" \
	    "tmux is not installed"
	skip "the status line names the first one" "tmux is not installed"
fi

# ---- event and group names -------------------------------------------
run -b -n 1 $SIM -e pm_pb_cyc --format csv
check "an event name in another case is taken" \
    grep -q '^time,.*,PM_PB_CYC \[/s\]' "$tmpdir/o"
run -b -n 1 $SIM -e PM_PB_CYX
check "a misspelt event exits 2" test "$rc" = 2
check "a misspelt event gets a suggestion" \
    has "hvtop: -e PM_PB_CYX: unknown event 'PM_PB_CYX': did you mean PM_PB_CYC?"
run -b -n 1 $SIM -g Memory_BX
check "a misspelt group gets a suggestion" \
    has "unknown group 'Memory_BX': did you mean Memory_BW?"
run -b -n 1 $SIM -e 'hv_24x7/PM_PB_CYC,chip=1/' --format csv
check "perf's spelling reads PM_PB_CYC on chip 1 only" \
    test "$(cut -d, -f4,5 "$tmpdir/o" | grep -c '^chip,[0-9]')" = 1 -a \
    "$(cut -d, -f4,5 "$tmpdir/o" | grep '^chip,[0-9]')" = chip,1
run -b -n 1 $SIM -e 'hv_24x7/PM_PB_CYC,domain=5,chip=0/'
check "a perf domain hvtop cannot count exits 2 and says so" \
    test "$rc" = 2 -a -n "$(grep 'domain=5 (VCPU Home Node) cannot be mapped' "$tmpdir/e")"
run -b -n 1 $SIM -g Memory_BW:18446744073709551616
check "a huge index is echoed as typed" \
    has "index 18446744073709551616 is out of range: this frame has"
check "a huge index exits 2" test "$rc" = 2

# ---- the parser ------------------------------------------------------
run --list $SIM
check "--list without a kind exits 0" test "$rc" = 0
check "--list without a kind lists events, groups and formulas" \
    test "$(grep -cE '^(Events \(-e\)|Groups \(-g\)|Formulas \(metrics\)):$' "$tmpdir/o")" = 3
run --list $SIM PM_PB_CY
check "--list PATTERN filters all three" \
    grep -q 'hv_24x7/PM_PB_CYC ' "$tmpdir/o"
run --list events $SIM PM_PB_CY
check "--list events PATTERN still works" \
    test "$rc" = 0 -a -z "$(grep '^Groups' "$tmpdir/o")" -a \
    -n "$(grep 'hv_24x7/PM_PB_CYC ' "$tmpdir/o")"
run --no-such-option
check "getopt's messages say hvtop:, not the path" \
    grep -q "^hvtop: unrecognized option '--no-such-option'" "$tmpdir/e"
run -b -n 99999999999999999999 $SIM
check "-n too large exits 2" test "$rc" = 2
check "-n too large says out of range with the limit" \
    has "-n 99999999999999999999: out of range: the largest count is"
for v in nan inf 1e400; do
	run -b -n 1 $SIM --const "PB_Freq=$v"
	check "--const PB_Freq=$v exits 2" test "$rc" = 2
	check "--const PB_Freq=$v says it must be finite" \
	    has "--const PB_Freq=$v: the value must be a finite number"
done
# The virtual clock starts at 2026-01-01T00:00:00Z; a real one does not.
run -b -n 1 -d 0.01 --sim clock=virtual -O clock=real
real_clock() {
	grep -q '^hvtop 20' "$tmpdir/o" &&
	    ! grep -q '^hvtop 2026-01-01T00:00:0' "$tmpdir/o"
}
check "--sim clock=virtual -O clock=real runs on the real clock" real_clock
# A virtual clock never waits: served forever it would spin.
timeout 20 "$HVTOP" -b --sim clock=virtual --serve 127.0.0.1:0 \
    -o /dev/null >"$tmpdir/o" 2>"$tmpdir/e"
rc=$?
check "--serve with clock=virtual and no -n is a usage error" test $rc = 2
check "... that says a count is needed" \
    has "hvtop: --serve with clock=virtual needs -n COUNT"

# ---- catalog files and the simulated frame ---------------------------
mkdir "$tmpdir/dir"
run -b -n 1 --sim clock=virtual --catalog "$tmpdir/dir"
check "--catalog DIR says it is a directory" \
    has "hvtop: $tmpdir/dir: is a directory, not a catalog file"
run -b -n 1 --sim clock=virtual --catalog /dev/zero
check "--catalog /dev/zero says it is not a regular file" \
    has "hvtop: /dev/zero: not a regular file (a character device)"
printf 'root:x:0:0:root:/root:/bin/sh\n' >"$tmpdir/passwd"
run -b -n 1 --sim clock=virtual --catalog "$tmpdir/passwd"
check "--catalog on a text file names the file" \
    has "hvtop: $tmpdir/passwd: not a 24x7 catalog: page 0 claims"
check "--catalog on a text file exits 1" test "$rc" = 1
run -b -n 1 --sim clock=virtual,lpars=1
check "--sim lpars=1 speaks of lpars and of the default lpar" \
    has "sim lpars=1 leaves no partition lpar=1 for hvtop to run in"

# ---- hvtoprc ---------------------------------------------------------
# tui CONFIG PATTERN ARGS...: start the screens under tmux with
# HVTOP_CONFIG=CONFIG and wait (10 s at most) for PATTERN on the screen,
# kept in $tmpdir/screen.  Fails when it never shows.
tui() {
	cfgfile=$1 pattern=$2
	shift 2
	ntui=$((${ntui:-0} + 1))
	sock=hvtop-options-$$-$ntui
	tmux -L "$sock" -f /dev/null new-session -d -s main -x 200 -y 40 \
	    "env HVTOP_CONFIG=$cfgfile LC_ALL=C TERM=xterm $HVTOP $*; sleep 60"
	found=1
	until_ok 30 pane_has "$sock" "$pattern" && found=0
	tmux_stop "$sock"
	[ "$found" = 0 ] || { diag "never on screen: $pattern"; return 1; }
}
mkdir -p "$tmpdir/rc"
if command -v tmux >/dev/null 2>&1; then
	for v in nan 0.001 1e400; do
		printf 'config_version=1\ninterval=%s\n' "$v" >"$tmpdir/rc/bad"
		check "hvtoprc interval=$v is refused with file:line" \
		    tui "$tmpdir/rc/bad" "$tmpdir/rc/bad:2: interval=$v: " $SIM
	done
	check "hvtoprc interval=nan: the default 1 s is used" \
	    grep -q 'interval 1\.0' "$tmpdir/screen"
	mkfifo "$tmpdir/rc/fifo"
	check "an hvtoprc that is a FIFO does not block start-up" \
	    tui "$tmpdir/rc/fifo" "$tmpdir/rc/fifo: not a regular file (a pipe)" $SIM
else
	for v in nan 0.001 1e400; do
		skip "hvtoprc interval=$v is refused with file:line" \
		    "tmux is not installed"
	done
	skip "hvtoprc interval=nan: the default 1 s is used" \
	    "tmux is not installed"
	skip "an hvtoprc that is a FIFO does not block start-up" \
	    "tmux is not installed"
fi
