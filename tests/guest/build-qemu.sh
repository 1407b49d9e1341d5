#!/bin/sh
# Build qemu-system-ppc64 with hvtop's simulated 24x7 counters: Debian's
# QEMU source package, tests/guest/qemu/hv24x7.patch and spapr_hv24x7.[ch], and
# hvtop's pure library (libhvpure.a, built by hvtop's own build with the
# host compiler and linked in).  Cached by QEMU version and a hash of
# the patch, the configure options and the device list; a changed glue
# file or libhvpure.a only recompiles it or relinks.  Prints the binary's
# path.
set -e
. "$(dirname "$0")/../../scripts/setup.sh"
# setup.sh takes the tree to be its caller's parent folder: two up here.
hv_top=$(cd "$(dirname "$0")/../.." && pwd)
. "$hv_top/tests/guest/common.sh"

# Only what the pseries machine needs: no other board or device
# (tests/guest/qemu/hvtop-guest.mak lists them), no tools, no debugging
# information, no trace backend.  A fifth of the build steps go, and
# each compiles faster.
devices=hvtop-guest
qemu_configure="--target-list=ppc64-softmmu --without-default-features
--without-default-devices --with-devices-ppc64=$devices --enable-fdt=system
--disable-install-blobs --disable-docs --disable-werror --disable-tools
--disable-debug-info --enable-trace-backends=nop"

# Which version: asked of apt once per pin (apt-cache takes seconds on
# every run otherwise), then remembered, as build-guest.sh does.
picked=$guest_cache/resolved-qemu-$(echo "$guest_qemu_version" | guest_hash -)
if [ -s "$picked" ]; then
	ver=$(cat "$picked")
else
	guest_apt_setup
	ver=$(guest_pick_src qemu "$guest_qemu_version")
	mkdir -p "$guest_cache"
	echo "$ver" >"$picked"
fi
upver=${ver#*:}
upver=${upver%-*}
key=$(printf '%s\n' "$ver" "$qemu_configure" |
    cat - "$guest_dir"/qemu/hv24x7.patch "$guest_dir/qemu/$devices.mak" | guest_hash -)
src=$guest_cache/qemu-$upver-$key
bin=$src/build/qemu-system-ppc64

# One build at a time in a QEMU tree: every source tree of hvtop on this
# machine shares it (the cache), each linking its own libhvpure.a, and
# boots a copy of the binary named after the tree, which the next
# tree's relink leaves alone.
mkdir -p "$guest_cache"
exec 9>"$guest_cache/.qemu-lock"
flock 9
tree=$(printf '%s' "$hv_top" | guest_hash -)
out=$guest_cache/qemu-system-ppc64-$tree

# The hypervisor logic: hvtop's own pure library, as hvtop builds it
# (scripts/guest builds it first when it runs this beside build-guest.sh).
[ -n "${guest_host_built:-}" ] || hv_build build --enable-werror || exit 1
pure=$hv_top/build/libhvpure.a

if [ ! -f "$src/.patched" ]; then
	guest_say "QEMU $ver: fetching and patching the source package"
	mkdir -p "$guest_cache/src"
	guest_apt_setup
	# Through the LPAR's own apt state (tests/guest/common.sh); lists gone
	# stale are fetched again once.
	getsrc() {
		(cd "$guest_cache/src" && guest_apt apt-get source --download-only \
		    -q "qemu=$ver" >/dev/null 2>"$guest_cache/src/.err")
	}
	getsrc || { guest_apt_update; getsrc; } || {
		cat "$guest_cache/src/.err" >&2
		guest_say "apt-get source qemu=$ver failed (no network to" \
		    "Debian's archive?)"
		exit 1
	}
	rm -rf "$src"
	dsc=$(ls "$guest_cache"/src/qemu_"${ver#*:}".dsc)
	dpkg-source --no-check -x "$dsc" "$src" >/dev/null
	# dpkg-source leaves a copy of the upstream tarball beside "$src".
	rm -f "$guest_cache"/qemu_*.orig.tar.*
	(cd "$src" && patch -p1 -s <"$guest_dir/qemu/hv24x7.patch")
	mkdir -p "$src/hw/ppc/hvtop"
	cp "$guest_dir/qemu/$devices.mak" "$src/configs/devices/ppc64-softmmu/"
	touch "$src/.patched"
fi

# The glue (recompiled by ninja when it changes), hvsim.h and the
# frame_ident it fills, and libhvpure.a (a change only relinks: ninja does not track it, so the
# binary goes).  None of them makes a new QEMU build.
for f in "$guest_dir"/qemu/spapr_hv24x7.c "$guest_dir"/qemu/spapr_hv24x7.h; do
	cmp -s "$f" "$src/hw/ppc/${f##*/}" || cp "$f" "$src/hw/ppc/"
done
for f in "$pure" "$hv_top/src/sim/hvsim.h" \
    "$hv_top/src/model/frame-ident.h"; do
	if ! cmp -s "$f" "$src/hw/ppc/hvtop/${f##*/}"; then
		cp "$f" "$src/hw/ppc/hvtop/"
		rm -f "$bin"
	fi
done

if [ ! -f "$src/build/build.ninja" ]; then
	guest_say "QEMU $ver: configuring (log: $src/build/configure.log)"
	mkdir -p "$src/build"
	# shellcheck disable=SC2086
	(cd "$src/build" && ../configure $qemu_configure \
	    >configure.log 2>&1) || {
		tail -n 30 "$src/build/configure.log" >&2
		exit 1
	}
fi
# Always asked: ninja finds nothing to do in a second, or recompiles the
# glue.
if [ ! -x "$bin" ] && [ ! -f "$src/build/.built" ]; then
	guest_say "QEMU $ver: building qemu-system-ppc64 (about 5 minutes on" \
	    "2 idle cores; log: $src/build/ninja.log)"
fi
t0=$(date +%s)
(cd "$src/build" && ninja -j2 qemu-system-ppc64 >ninja.log 2>&1) || {
	grep -E 'error|FAILED' "$src/build/ninja.log" | tail -n 30 >&2
	exit 1
}
[ -f "$src/build/.built" ] ||
    guest_say "QEMU built in $(( $(date +%s) - t0 )) s"
touch "$src/build/.built"
cmp -s "$bin" "$out" || { cp "$bin" "$out.$$" && mv "$out.$$" "$out"; }
echo "$out"
