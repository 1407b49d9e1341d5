#!/bin/sh
# The virtual LPAR's cache keeps what each source tree of hvtop built (its
# cross build, initramfs and link of QEMU).  guest_prune
# (tests/guest/common.sh) removes them once their tree is gone, leaves a tree that is still there
# and a build still configuring alone, removes a build whose configure
# stopped and files of no known tree only when a day old, and never
# touches what the trees share.  guest_cache_move takes over the cache
# an older hvtop kept as hvtop-lpar, once, leaving a link at the old name.
# Nothing boots.
. "$(dirname "$0")/tap.sh"

if [ ! -f "$top_srcdir/tests/guest/common.sh" ]; then
	plan 1
	skip "the LPAR cache's pruning" \
	    "tests/guest/ is not in this tree (a tarball)"
	exit 0
fi
plan 12
c=$tmpdir/cache
mkdir -p "$c/sysroot-0123456789ab" "$tmpdir/here/tests/guest" \
    "$c/qemu-7.2+dfsg-x"
touch "$tmpdir/here/tests/guest/common.sh"
hash() { printf '%s' "$1" | sha256sum | cut -c1-12; }
# tree DIR: what a build from DIR leaves in the cache.
tree() {
	h=$(hash "$1")
	mkdir -p "$c/hvtop-powerpc64le-linux-gnu-$h"
	printf '%s' "$1" >"$c/hvtop-powerpc64le-linux-gnu-$h/.srcdir"
	head -c 2000000 /dev/zero >"$c/hvtop-powerpc64le-linux-gnu-$h/hvtop"
	touch "$c/initramfs-$h-0123456789ab.cpio.gz" "$c/qemu-system-ppc64-$h"
}
tree "$tmpdir/here"
tree "$tmpdir/gone"
here=$(hash "$tmpdir/here")
gone=$(hash "$tmpdir/gone")
# A build configuring: no .srcdir yet, its QEMU already linked.
mkdir -p "$c/hvtop-powerpc64le-linux-gnu-aaaaaaaaaaaa"
touch "$c/qemu-system-ppc64-aaaaaaaaaaaa" "$c/qemu-system-ppc64-bbbbbbbbbbbb"
# One whose configure failed two days ago.
mkdir -p "$c/hvtop-powerpc64le-linux-gnu-eeeeeeeeeeee"
touch "$c/hvtop-powerpc64le-linux-gnu-eeeeeeeeeeee/config.log" \
    "$c/qemu-system-ppc64-eeeeeeeeeeee"
touch -d '2 days ago' "$c/hvtop-powerpc64le-linux-gnu-eeeeeeeeeeee"
touch -d '3 days ago' "$c/initramfs-cccccccccccc.cpio.gz" \
    "$c/qemu-system-ppc64-dddddddddddd"

err=$(HVTOP_GUEST_CACHE=$c sh -c \
    '. "$1/tests/guest/common.sh"; guest_prune' sh "$top_srcdir" 2>&1)
check "the gone tree's build, initramfs and QEMU are removed" \
    test ! -e "$c/hvtop-powerpc64le-linux-gnu-$gone" -a \
    ! -e "$c/initramfs-$gone-0123456789ab.cpio.gz" -a \
    ! -e "$c/qemu-system-ppc64-$gone"
check "the tree still there keeps all three" \
    test -f "$c/hvtop-powerpc64le-linux-gnu-$here/hvtop" -a \
    -f "$c/initramfs-$here-0123456789ab.cpio.gz" -a \
    -f "$c/qemu-system-ppc64-$here"
check "a build still configuring keeps its folder and QEMU" \
    test -d "$c/hvtop-powerpc64le-linux-gnu-aaaaaaaaaaaa" -a \
    -f "$c/qemu-system-ppc64-aaaaaaaaaaaa"
check "a build that stopped configuring a day ago goes, with its QEMU" \
    test ! -e "$c/hvtop-powerpc64le-linux-gnu-eeeeeeeeeeee" -a \
    ! -e "$c/qemu-system-ppc64-eeeeeeeeeeee"
check "a file of no known tree is kept the day it was made" \
    test -f "$c/qemu-system-ppc64-bbbbbbbbbbbb"
check "a file of no known tree is removed when older" \
    test ! -e "$c/initramfs-cccccccccccc.cpio.gz" -a \
    ! -e "$c/qemu-system-ppc64-dddddddddddd"
check "what the trees share is left" \
    test -d "$c/sysroot-0123456789ab" -a -d "$c/qemu-7.2+dfsg-x"
diag "$err"
check "it says what it freed" \
    test "$err" = "guest: removed 2 MB built for source trees that are gone"

# The cache under its old name: moved, not built again.
x=$tmpdir/xdg
mkdir -p "$x/hvtop-lpar/apt"
touch "$x/hvtop-lpar/apt/status"
move() {
	(unset HVTOP_GUEST_CACHE; XDG_CACHE_HOME=$x sh -c \
	    '. "$1/tests/guest/common.sh"; guest_cache_move' sh "$top_srcdir")
}
err=$(move 2>&1)
diag "$err"
check "the old cache is the new one, its files in it" \
    test -f "$x/hvtop-guest/apt/status" -a -L "$x/hvtop-lpar"
check "it says so" test "$err" = "guest: the cache $x/hvtop-lpar is now $(
    )$x/hvtop-guest (the old name links to it; remove the link once no $(
    )older hvtop uses it)"
err=$(move 2>&1)
check "once: the next run finds nothing to move" test -z "$err"
rm "$x/hvtop-lpar"
mkdir "$x/hvtop-lpar"
err=$(move 2>&1)
check "an old cache beside a new one is left as it is" \
    test -z "$err" -a -d "$x/hvtop-lpar" -a ! -L "$x/hvtop-lpar" -a \
    -f "$x/hvtop-guest/apt/status"
