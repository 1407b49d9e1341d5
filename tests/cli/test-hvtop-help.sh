#!/bin/sh
# --help and --list as a user meets them: the help gives the common
# options one line each and points to the man page; a word after --list
# that is neither a kind nor matches anything is a usage error naming the
# kinds, never empty headings and success; a kind whose pattern matches
# nothing says so and exits 1, as grep does.
. "$(dirname "$0")/tap.sh"
plan 18
export LC_ALL=C
SIM="--sim clock=virtual,seed=1"

run() { "$HVTOP" "$@" >"$tmpdir/o" 2>"$tmpdir/e"; rc=$?; }

run --help
check "--help exits 0" test "$rc" = 0
ok=1
for opt in -b -d -n -o --format -g -e -m --const --list --check --source --sim \
    --catalog -w -r --serve --no-color -h -V; do
	grep -qE "^  (-[a-zA-Z], )?$opt[ ,]|^      $opt " "$tmpdir/o" ||
	    { diag "no line for $opt"; ok=0; }
done
check "--help has a line for each common option" test "$ok" = 1
check "--help points to the man page" grep -q 'hvtop(1)' "$tmpdir/o"
check "--help says how to count over a command" grep -qF -- '-- COMMAND' \
    "$tmpdir/o"
run -h
check "-h is --help" grep -q 'hvtop(1)' "$tmpdir/o"

run --list widgets $SIM
check "--list widgets: a usage error (exit 2)" test "$rc" = 2
check "--list widgets: names the valid kinds" \
    grep -qF -- "--list widgets: not a kind (events, groups or formulas)" \
    "$tmpdir/e"
check "--list widgets: prints no empty headings" test ! -s "$tmpdir/o"
run --list=widgets $SIM
check "--list=widgets: a usage error (exit 2)" test "$rc" = 2
# A pattern without a kind that matches something still lists.
run --list PM_PB_CY $SIM
check "--list PATTERN that matches: exit 0" test "$rc" = 0
check "--list PATTERN that matches: lists it" \
    grep -q 'hv_24x7/PM_PB_CYC' "$tmpdir/o"

# A kind and a pattern that matches nothing: said, and exit 1.
run --list groups memroy $SIM
check "--list groups memroy: exit 1" test "$rc" = 1
check "--list groups memroy: says nothing matched" \
    grep -qF -- '--list groups: nothing matches "memroy"' "$tmpdir/e"
check "--list groups memroy: prints nothing" test ! -s "$tmpdir/o"
# A pattern over all three: headings only for kinds with a match, each
# followed by an entry.
run --list PM_PB_CY $SIM
check "--list PATTERN: no Groups heading without a group" \
    sh -c '! grep -q "^Groups" "$1"' sh "$tmpdir/o"
awk '/^[A-Z].*:$/ { if (h != "") print h; h = $0; next }
    NF { h = "" } END { if (h != "") print h }' "$tmpdir/o" >"$tmpdir/empty"
check "--list PATTERN: no heading without entries" test ! -s "$tmpdir/empty"
run --list memory $SIM
awk '/^[A-Z].*:$/ { if (h != "") print h; h = $0; next }
    NF { h = "" } END { if (h != "") print h }' "$tmpdir/o" >"$tmpdir/empty"
check "--list memory: no heading without entries" test ! -s "$tmpdir/empty"
check "--list memory: exit 0" test "$rc" = 0
