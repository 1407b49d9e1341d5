#!/bin/sh
# Calls go down the floors of src/layers.txt, and pure code calls no I/O.
# For every object of the libraries (libhvpure.a, libhvcore.a, libhvui.a,
# or the archives named on the command line) this test finds the object
# that defines each symbol it uses, places both by their source files in
# the table, and fails, naming the file and the symbol, when
#   - a pure folder calls into a folder that does I/O, or
#   - a folder calls into one on a higher floor, or into one listed after
#     it on its own floor.
# Calls inside a folder are its own business.  A source file the table
# does not place fails too, so a new folder must be given a floor.
# Output is TAP, one test per object.
: "${NM:=nm}"
top=${top_builddir:-.}
src=${top_srcdir:-.}
table=${LAYERS:-$src/src/layers.txt}
libs="$top/libhvpure.a $top/libhvcore.a $top/libhvui.a"
[ $# -gt 0 ] && libs=$*

for f in "$table" $libs; do
	[ -f "$f" ] || { echo "1..1"; echo "not ok 1 - $f does not exist"
	    exit 1; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Every object as "archive:member.o" with its symbols: "D member sym" for
# what it defines, "U member sym" for what it uses.
for lib in $libs; do
	$NM -A "$lib" 2>/dev/null
done | awk '
	# "archive:member.o:ADDRESS T symbol" or "archive:member.o: U symbol"
	NF == 3 {
		split($1, p, ":")
		obj = p[1] ":" p[2]
		s = $3
		sub(/@.*/, "", s)
		if ($2 == "U")
			print "U", obj, s
		else if ($2 ~ /^[TDBRCGSVW]$/)
			print "D", obj, s
	}
' >"$tmp/syms"

# Each member's source file: its name without automake's "lib..._a-"
# prefix, found under src/ and ui/ of the source tree.
(cd "$src" && find src ui -name '*.c' 2>/dev/null) |
    awk '{ n = $0; sub(/.*\//, "", n); print n, $0 }' | sort >"$tmp/files"

awk -v table="$table" -v files="$tmp/files" '
BEGIN {
	while ((getline line < table) > 0) {
		if (line ~ /^#/ || line ~ /^[ \t]*$/)
			continue
		split(line, f, /[ \t]+/)
		rank[f[3]] = ++nrank
		floor[f[3]] = f[1]
		kind[f[3]] = f[2]
	}
	while ((getline line < files) > 0) {
		split(line, f, " ")
		if (f[1] in path)
			path[f[1]] = "?"
		else
			path[f[1]] = f[2]
	}
}
# The table line that places a source file: its own, else its folder.
function place(p,	d) {
	if (p in rank)
		return (p)
	d = p
	sub(/\/[^\/]*$/, "", d)
	return (d in rank ? d : "")
}
function source(obj,	m) {
	m = obj
	sub(/.*:/, "", m)
	sub(/^lib[a-z]+_a-/, "", m)
	sub(/\.o$/, ".c", m)
	return (m in path ? path[m] : m)
}
$1 == "D" { def[$3] = $2; if (!($2 in seen)) { seen[$2] = 1; objs[++n] = $2 } }
$1 == "U" { use[$2] = use[$2] " " $3; if (!($2 in seen)) { seen[$2] = 1
	objs[++n] = $2 } }
END {
	print "1.." n
	bad = 0
	for (i = 1; i <= n; i++) {
		o = objs[i]
		s = source(o)
		from = place(s)
		if (from == "") {
			printf "not ok %d - %s has no floor in %s\n", i, s, table
			bad = 1
			continue
		}
		msg = ""
		k = split(use[o], u, " ")
		for (j = 1; j <= k; j++) {
			if (!(u[j] in def))
				continue
			t = source(def[u[j]])
			to = place(t)
			if (to == "" || to == from)
				continue
			why = ""
			if (kind[from] == "pure" && kind[to] != "pure")
				why = "pure code calls I/O"
			else if (floor[to] > floor[from])
				why = "calls up a floor"
			else if (rank[to] > rank[from])
				why = "calls a folder listed after it on its floor"
			if (why != "")
				msg = msg sprintf("%s%s: %s() of %s (floor %s %s)",
				    msg == "" ? "" : "; ", why, u[j], t,
				    floor[to], kind[to])
		}
		if (msg != "") {
			printf "not ok %d - %s (floor %s %s) %s\n", i, s,
			    floor[from], kind[from], msg
			bad = 1
		} else
			printf "ok %d - %s calls only down from floor %s (%s)\n",
			    i, s, floor[from], kind[from]
	}
	exit bad
}' "$tmp/syms"
