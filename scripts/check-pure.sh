#!/bin/sh
# The pure layer (libhvpure.a) must not do I/O, read a clock, draw random
# numbers or look at the environment.  This test lists every undefined
# symbol of each object in the archive and fails, naming the source file and
# the symbol, when one of them is on the forbidden list.  Output is TAP.
: "${NM:=nm}"
lib=${1:-${top_builddir:-.}/libhvpure.a}
if [ ! -f "$lib" ]; then
	echo "1..1"
	echo "not ok 1 - $lib does not exist"
	exit 1
fi
forbidden='printf fprintf vprintf vfprintf dprintf puts fputs putc fputc
putchar fwrite fread fopen fdopen freopen fclose fflush perror open openat
creat read pread write pwrite close ioctl syscall mmap munmap socket connect
clock_gettime clock time gettimeofday rand random srand srandom drand48
getenv setenv exit _exit system popen fork execv execve execvp stat fstat
lstat opendir readdir unlink rename sleep usleep nanosleep
__printf_chk __fprintf_chk __vfprintf_chk __vprintf_chk __read_chk
__pread_chk stdout stderr stdin'
members=$(${AR:-ar} t "$lib" | grep '\.o$')
n=0
bad=0
echo "1..$(printf '%s\n' "$members" | grep -c .)"
for m in $members; do
	n=$((n + 1))
	syms=$($NM -u "$lib" 2>/dev/null | awk -v m="$m:" '
	    $0 == m { on = 1; next } /:$/ { on = 0 } on && $1 == "U" { print $2 }')
	hits=""
	for s in $syms; do
		base=${s%%@*}
		for f in $forbidden; do
			[ "$base" = "$f" ] && hits="$hits $base"
		done
	done
	src=$(printf "%s" "$m" | sed "s/^libhvpure_a-//; s/\.o$/.c/")
	full=$(cd "${top_srcdir:-.}" 2>/dev/null && find src -name "$src" 2>/dev/null | head -n 1)
	[ -n "$full" ] && src=$full
	if [ -n "$hits" ]; then
		echo "not ok $n - $src is pure code but uses:$hits"
		bad=1
	else
		echo "ok $n - $src uses no I/O, clock or environment"
	fi
done
exit $bad
