#!/bin/sh
# Usage errors as a user meets them: a --sim key or value hvtop cannot
# use exits 2 and names every key it knows, ours included; perf has no
# virtual clock and says so.
. "$(dirname "$0")/tap.sh"
plan 16
export LC_ALL=C

# run ARGS...: hvtop with stdout in $tmpdir/o, stderr in $tmpdir/e, the
# exit status in $rc.
run() { "$HVTOP" "$@" >"$tmpdir/o" 2>"$tmpdir/e"; rc=$?; }
has() { grep -qF -- "$1" "$tmpdir/e" || { diag "stderr:"; diag "$(cat "$tmpdir/e")"; return 1; }; }

run -b -n 1 --sim foo=1
check "--sim foo=1: a usage error (exit 2)" test "$rc" = 2
check "--sim foo=1: names the key" has "--sim foo: unknown key"
check "--sim foo=1: the keys listed include catalog, clock and dpo_file" \
    has "faults, model, serial, name, collect, catalog, clock, dpo_file)"
run -b -n 1 --sim cores=0
check "--sim cores=0: a usage error (exit 2)" test "$rc" = 2
check "--sim cores=0: says the range" has "cores=0: must be 1 to 64"
run -b -n 1 --sim clock=sometimes
check "--sim clock=sometimes: a usage error (exit 2)" test "$rc" = 2
# Keys fine one by one that make no frame together.
run -b -n 1 --sim lpars=1,lpar=1
check "--sim lpars=1,lpar=1: a usage error (exit 2)" test "$rc" = 2
# A DPO event on request needs a path and a DPO event.
run -b -n 1 --sim clock=virtual,dpo_file=
check "--sim dpo_file=: a usage error (exit 2)" test "$rc" = 2
check "... asking for a path" has "dpo_file=: expected a path"
run -b -n 1 --sim clock=virtual,dpo=none,dpo_file="$tmpdir/dpo"
check "--sim dpo=none,dpo_file=PATH: a usage error (exit 2)" test "$rc" = 2
check "... saying the frame has no DPO event" has "this frame has no DPO event"
run -b -n 1 --sim nokey
check "--sim without KEY=VALUE: a usage error (exit 2)" test "$rc" = 2
run -b -n 1 --source perf --sim clock=virtual
check "--source perf --sim clock=virtual: a usage error (exit 2)" \
    test "$rc" = 2
check "... saying only the simulated frame has a virtual clock" \
    has "only the simulated frame (--source sim) has a virtual clock"
check_not "... not 'unknown option'" grep -q "unknown option" "$tmpdir/e"
# A runtime failure is still 1: a catalog that is not there.
run -b -n 1 --sim clock=virtual,catalog="$tmpdir/none.bin"
check "a missing catalog file is a runtime failure (exit 1)" test "$rc" = 1
