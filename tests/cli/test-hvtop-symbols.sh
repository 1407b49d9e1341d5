#!/bin/sh
# The programs export none of their own functions: a definition in hvtop
# with the name of one in a library it loads (readline has xmalloc, as
# hvtop does) would replace the library's own inside that library.  (A
# library's variables that the program uses are copied into it; they are
# not the program's own, and only functions are compared.)
. "$(dirname "$0")/tap.sh"
plan 2

NM=${NM:-nm}
for prog in "$HVTOP" "$HVCAT"; do
	name=${prog##*/}
	if ! command -v "$NM" >/dev/null 2>&1 || ! command -v ldd >/dev/null 2>&1; then
		skip "$name exports nothing a library defines" "nm or ldd is missing"
		continue
	fi
	"$NM" -D --defined-only "$prog" | awk '$2 == "T" { print $3 }' |
	    sed 's/@.*//' | sort -u >"$tmpdir/own"
	: >"$tmpdir/libs"
	for lib in $(ldd "$prog" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }'); do
		"$NM" -D --defined-only "$lib" 2>/dev/null |
		    awk '{ print $NF }' | sed 's/@.*//' >>"$tmpdir/libs"
	done
	sort -u "$tmpdir/libs" -o "$tmpdir/libs"
	# The C runtime's own markers (_init, _end, ...) are the linker's.
	clash=$(comm -12 "$tmpdir/own" "$tmpdir/libs" | grep -v '^_')
	[ -z "$clash" ] || diag "$name defines: $(echo $clash)"
	check "$name exports nothing a library defines" test -z "$clash"
done
exit $tap_failed
