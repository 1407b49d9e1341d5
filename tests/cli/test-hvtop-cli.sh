#!/bin/sh
# hvtop's command line: version, help, usage errors and their exit codes.
. "$(dirname "$0")/tap.sh"
plan 4
out=$("$HVTOP" --version)
check "--version prints the version" \
    test "$(printf '%s' "$out" | head -n 1 | cut -d' ' -f1)" = hvtop
"$HVTOP" -h >"$tmpdir/h" 2>&1
check "-h exits 0 with usage" grep -q '^usage: hvtop' "$tmpdir/h"
"$HVTOP" --no-such-option >/dev/null 2>"$tmpdir/e"; rc=$?
check "an unknown option exits 2" test "$rc" = 2
check "an unknown option prints the usage" grep -q 'usage: hvtop' "$tmpdir/e"
