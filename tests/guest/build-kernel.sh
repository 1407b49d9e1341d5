#!/bin/sh
# Build the virtual LPAR's own kernel, one with /proc/powerpc/lparcfg
# (Debian's ppc64el kernel is built without it): Debian's linux-source
# package of the guest kernel's version, cross-compiled with
# gcc-powerpc64le-linux-gnu from allnoconfig and
# tests/guest/kernel/lparcfg.config, no modules.  Cached by the source
# version and a hash of the fragment; the source tree and the objects
# go once the kernel is built.  Prints the kernel's path.
set -e
. "$(dirname "$0")/../../scripts/setup.sh"
# setup.sh takes the tree to be its caller's parent folder: two up here.
hv_top=$(cd "$(dirname "$0")/../.." && pwd)
. "$hv_top/tests/guest/common.sh"

frag=$guest_dir/kernel/lparcfg.config
src_pkg=linux-source-${guest_kernel_version%.*}
make_args="ARCH=powerpc CROSS_COMPILE=powerpc64le-linux-gnu-"

# Which version: asked of apt once per pin, then remembered.
picked=$guest_cache/resolved-ksrc-$(echo "$src_pkg $guest_kernel_version" |
    guest_hash -)
if [ -s "$picked" ]; then
	ver=$(cat "$picked")
else
	guest_apt_setup
	ver=$(guest_pick "$src_pkg" "$guest_kernel_version")
	mkdir -p "$guest_cache"
	echo "$ver" >"$picked"
fi
key=$(printf '%s\n' "$ver" "$make_args" | cat - "$frag" | guest_hash -)
out=$guest_cache/vmlinux-lparcfg-$key
if [ -f "$out" ]; then
	echo "$out"
	exit 0
fi

# One build at a time: every source tree of hvtop shares the cache.
mkdir -p "$guest_cache"
exec 9>"$guest_cache/.kernel-lock"
flock 9
if [ -f "$out" ]; then
	echo "$out"
	exit 0
fi
t=$guest_cache/tmp.kbuild.$$
trap 'rm -rf "$t"' EXIT
trap 'exit 1' HUP INT TERM
rm -rf "$t"
mkdir -p "$t/deb" "$t/src" "$t/obj"

guest_say "$src_pkg $ver: fetching the source package"
getsrc() {
	(cd "$t/deb" && guest_apt apt-get download -q "$src_pkg=$ver" \
	    >/dev/null 2>"$t/err")
}
getsrc || { guest_apt_setup; guest_apt_update; getsrc; } || {
	cat "$t/err" >&2
	guest_say "apt-get download $src_pkg=$ver failed (no network to" \
	    "Debian's archive?)"
	exit 1
}
# All of it: Kconfig reads files of other architectures' folders and of
# the documentation's.
guest_say "$src_pkg $ver: extracting"
dpkg-deb --fsys-tarfile "$t"/deb/*.deb |
    tar -xO "./usr/src/$src_pkg.tar.xz" |
    tar -xJ -C "$t/src" --strip-components=1
rm -rf "$t/deb"

# shellcheck disable=SC2086
make -s -C "$t/src" O="$t/obj" $make_args KCONFIG_ALLCONFIG="$frag" \
    allnoconfig >"$t/config.log" 2>&1 || {
	tail -n 20 "$t/config.log" >&2
	exit 1
}
# Every option the fragment sets must have been taken: one whose
# dependencies are not met is dropped by Kconfig without a word.
bad=$(grep -E '^CONFIG_[A-Z0-9_]+=' "$frag" | while read -r o; do
	grep -qxF -- "$o" "$t/obj/.config" || printf ' %s' "$o"
done)
if [ -n "$bad" ]; then
	guest_say "the kernel's configuration does not take:$bad"
	exit 1
fi

# The log outlives the scratch folder, for a build that failed.
log=$out.log
guest_say "$src_pkg $ver: building the kernel with lparcfg (about 10" \
    "minutes of CPU; log: $log)"
t0=$(date +%s)
# shellcheck disable=SC2086
make -C "$t/obj" $make_args -j2 vmlinux >"$log" 2>&1 || {
	grep -E 'error|Error' "$log" | tail -n 30 >&2
	exit 1
}
guest_say "the kernel built in $(( $(date +%s) - t0 )) s"
cp "$t/obj/.config" "$out.config"
cp "$t/obj/vmlinux" "$out.$$"
mv "$out.$$" "$out"
echo "$out"
