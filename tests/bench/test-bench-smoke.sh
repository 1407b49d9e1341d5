#!/bin/sh
# Every benchmark once, as a smoke run (HVTOP_BENCH_SMOKE=1: a few
# repetitions each, a few seconds in all, no figure read or timed): each
# must exit 0, print figures and no "NAME.failed" line.  A benchmark
# that cannot run here exits 77 and says why: a skip.  Every
# tests/bench/bench-NAME.c must have been built.  The virtual LPAR's
# (bench-guest.sh) boots a partition: a skip here, scripts/test runs its
# smoke run in the LPAR stage.
. "$(dirname "$0")/../cli/tap.sh"

benches=""
for c in "$top_srcdir"/tests/bench/bench-*.c; do
	n=$(basename "$c" .c)
	benches="$benches $top_builddir/tests/bench/$n"
done
for s in "$top_srcdir"/tests/bench/bench-*.sh; do
	benches="$benches $s"
done
plan "$(echo $benches | wc -w)"

for b in $benches; do
	name=$(basename "$b")
	if [ "$name" = bench-guest.sh ]; then
		skip "$name" "boots the virtual LPAR: scripts/test runs it in$(
		    ) its LPAR stage"
		continue
	fi
	if [ ! -x "$b" ]; then
		fail "$name: not built"
		continue
	fi
	HVTOP_BENCH_SMOKE=1 HVTOP_BUILD="$top_builddir" "$b" \
	    >"$tmpdir/out" 2>"$tmpdir/err" </dev/null
	rc=$?
	if [ "$rc" -eq 77 ]; then
		skip "$name" "$(tail -n 1 "$tmpdir/err")"
	elif [ "$rc" -ne 0 ]; then
		diag "$name exited with status $rc"
		diag "$(tail -n 20 "$tmpdir/err")"
		fail "$name"
	elif grep -q '^[^ ]*\.failed ' "$tmpdir/out"; then
		diag "$(cat "$tmpdir/out")"
		fail "$name: a .failed line"
	elif ! grep -q '^[^ ]* [-+0-9.eE]*[0-9][-+0-9.eE]* [^ ]' \
	    "$tmpdir/out"; then
		diag "$(cat "$tmpdir/out") $(tail -n 5 "$tmpdir/err")"
		fail "$name: no figure"
	else
		pass "$name"
	fi
done
exit "$tap_failed"
