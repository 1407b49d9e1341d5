#!/bin/sh
# What only the terminal interface (ui/, libhvui.a) may do: keep state in
# mutable globals, and call curses or readline.  This test looks at every
# object of the libraries below it (libhvpure.a, libhvcore.a) and fails,
# naming the source file and the symbol, when an object defines a variable
# in a writable section or uses a symbol that the curses or readline
# libraries define.  Output is TAP.
: "${NM:=nm}"
: "${OBJDUMP:=objdump}"
top=${top_builddir:-.}
libs="$top/libhvpure.a $top/libhvcore.a"
[ $# -gt 0 ] && libs=$*

# The symbols curses, terminfo and readline define, read from the shared
# libraries hvtop is linked with (so no list goes stale).
uisyms=""
if [ -x "$top/hvtop" ] && command -v ldd >/dev/null 2>&1; then
	for so in $(ldd "$top/hvtop" 2>/dev/null |
	    awk '/ncurses|tinfo|readline|history/ { print $3 }'); do
		uisyms="$uisyms $($NM -D --defined-only "$so" 2>/dev/null |
		    awk '{ print $3 }' | sed 's/@.*//')"
	done
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# What hvtop defines itself is its own, whatever those libraries also
# export (readline exports an xmalloc).
for lib in $libs; do
	$NM --defined-only "$lib" 2>/dev/null | awk 'NF == 3 { print $3 }'
done | sort -u >"$tmp/own"
printf '%s\n' $uisyms | sort -u | comm -23 - "$tmp/own" >"$tmp/ui"

total=0
for lib in $libs; do
	[ -f "$lib" ] || { echo "1..1"; echo "not ok 1 - $lib does not exist"
	    exit 1; }
	total=$((total + $(${AR:-ar} t "$lib" | grep -c '\.o$')))
done
echo "1..$total"
n=0
bad=0
for lib in $libs; do
	prefix=$(basename "$lib" .a)_a-
	for m in $(${AR:-ar} t "$lib" | grep '\.o$'); do
		n=$((n + 1))
		src=$(printf "%s" "$m" | sed "s/^$prefix//; s/\.o$/.c/")
		full=$(cd "${top_srcdir:-.}" 2>/dev/null &&
		    find src -name "$src" 2>/dev/null | head -n 1)
		[ -n "$full" ] && src=$full
		# Variables in .data, .bss and their relocated or thread-local
		# kin; .data.rel.ro is read-only once loaded.  A sanitizer's
		# own markers (AddressSanitizer's ODR indicators) are not
		# hvtop's.
		globals=$($OBJDUMP -t "$lib" 2>/dev/null | awk -v m="$m" '
		    /^In archive/ { next }
		    /file format/ { on = ($1 == m ":"); next }
		    on && $3 == "O" && $4 ~ /^\.(data|bss|tdata|tbss)(\.rel(\.local)?)?$/ &&
		    $NF !~ /^_?__(odr_asan|asan_gen|sancov)/ {
			    printf " %s", $NF }')
		ui=$($NM -u "$lib" 2>/dev/null | awk -v m="$m:" '
		    $0 == m { on = 1; next } /:$/ { on = 0 }
		    on && $1 == "U" { sub(/@.*/, "", $2); print $2 }' |
		    sort -u | comm -12 - "$tmp/ui" | tr '\n' ' ' | sed 's/ $//')
		# The SIGBUS guard of mapped files and the stop of waits: a
		# signal handler finds its state only in globals
		# (src/sys/mapguard.h, src/sys/iowait.h).
		guard=""
		if { [ "$src" = src/sys/mapguard.c ] ||
		    [ "$src" = src/sys/iowait.c ]; } && [ -n "$globals" ]; then
			guard=" but the guard's own:$globals"
			globals=""
		fi
		if [ -n "$globals" ] || [ -n "$ui" ]; then
			msg=""
			[ -n "$globals" ] && msg="defines mutable globals:$globals"
			[ -n "$ui" ] && msg="$msg${msg:+; }uses curses or readline: $ui"
			echo "not ok $n - $src is below ui/ but $msg"
			bad=1
		else
			echo "ok $n - $src keeps no mutable global$guard and" \
			    "draws nothing"
		fi
	done
done
exit $bad
