#!/bin/sh
# The house limits on size: no source file over 1,000 lines, no function
# over 80.  A long file or function is where a second purpose hides; the
# limits keep each split along its seam while the seam is still easy to
# see.  Every .c and .h under src/ and ui/ is read (the product; the
# tests, fuzzers and benchmarks are not held to it yet); a function is
# what the house style writes: its name at the start of a line, then a
# "{" alone at the start of a line, and its size runs from the name's
# line to the "}" that closes it at the start of a line.  Fails naming the
# file and line, or the function with its file and line, and their sizes.
# Output is TAP.
#   scripts/check-sizes.sh [DIR...]	(default: the source tree's folders)
: "${MAX_FILE_LINES:=1000}"
: "${MAX_FUNC_LINES:=80}"
top=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
[ $# -gt 0 ] || set -- "$top/src" "$top/ui"

files=$(find "$@" -type f \( -name '*.c' -o -name '*.h' \) | sort)
if [ -z "$files" ]; then
	echo "1..1"
	echo "not ok 1 no C sources under $*"
	exit 1
fi
# shellcheck disable=SC2086
awk -v maxf="$MAX_FILE_LINES" -v maxfn="$MAX_FUNC_LINES" -v top="$top/" '
function flush() {
	if (file == "")
		return
	name = file
	if (index(name, top) == 1)
		name = substr(name, length(top) + 1)
	if (lines > maxf)
		bad[++nbad] = name ": " lines " lines (limit " maxf ")"
	for (i = 1; i <= nfn; i++)
		bad[++nbad] = name ":" fnline[i] ": " fnname[i] "() is " \
		    fnlen[i] " lines (limit " maxfn ")"
	nfiles++
}
FNR == 1 { flush(); file = FILENAME; lines = 0; nfn = 0; cand = ""; body = 0 }
{ lines++ }
# A name at the start of a line followed by "(" is a definition when
# a "{" alone at the start of a line comes before any ";".
!body && /^[A-Za-z_][A-Za-z0-9_]*\(/ {
	cand = $0
	sub(/\(.*/, "", cand)
	candline = FNR
	next
}
!body && cand != "" && /;/ && !/^\{/ { cand = "" }
!body && cand != "" && /^\{/ { body = 1; start = FNR; next }
body && /^\}/ {
	len = FNR - candline + 1
	if (len > maxfn) {
		nfn++
		fnname[nfn] = cand
		fnline[nfn] = candline
		fnlen[nfn] = len
	}
	body = 0
	cand = ""
}
END {
	flush()
	print "1.." (nbad ? nbad : 1)
	if (!nbad) {
		print "ok 1 " nfiles " files within " maxf " lines, every " \
		    "function within " maxfn
		exit 0
	}
	for (i = 1; i <= nbad; i++)
		print "not ok " i " " bad[i]
	exit 1
}' $files
