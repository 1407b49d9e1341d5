#!/bin/sh
# Build the partition's side of the virtual LPAR: Debian's ppc64el kernel,
# and an initramfs with busybox, hvtop (cross-built against a sysroot of
# ppc64el packages), perf, the libraries they need, and tests/guest/init.
# Everything goes to the cache.  Prints "KERNEL INITRAMFS".
set -e
. "$(dirname "$0")/../../scripts/setup.sh"
# setup.sh takes the tree to be its caller's parent folder: two up here.
hv_top=$(cd "$(dirname "$0")/../.." && pwd)
. "$hv_top/tests/guest/common.sh"

arch=ppc64el
triplet=powerpc64le-linux-gnu
debs=$guest_cache/debs
# The cache is shared by every source tree of hvtop on this machine:
# what is built from one tree is named after it, and scratch folders
# after the process, so that two trees building or booting at once do
# not take each other's.
tree=$(printf '%s' "$hv_top" | guest_hash -)
# The scratch folders and the initramfs being written: a step that fails
# stops the script (set -e), and what it half made must go with it.
initrd=""
trap 'rm -rf "$guest_cache/tmp.kernel.$$" "$guest_cache/tmp.root.$$"
    [ -z "$initrd" ] || rm -f "$initrd.$$"' EXIT
trap 'exit 1' HUP INT TERM

# Headers and link-time libraries for the cross build of hvtop.
sysroot_packages="libncurses-dev libncursesw6 libtinfo6 libreadline-dev
libreadline8 libjansson-dev libjansson4 libmicrohttpd-dev libmicrohttpd12
libgnutls28-dev libgnutls30 nettle-dev libnettle8 libhogweed6 libgmp10
libgmp-dev libtasn1-6-dev libtasn1-6 libidn2-dev libidn2-0 libp11-kit-dev
libp11-kit0 libunistring2 libffi8 libcmocka-dev libcmocka0 zlib1g-dev
zlib1g"

# What runs in the partition: the libraries of hvtop and perf (their
# DT_NEEDED closure is checked below), the terminal descriptions.
runtime_packages="libc6 libgcc-s1 libstdc++6 libncursesw6 libtinfo6
libreadline8 libjansson4 libmicrohttpd12 libgnutls30 libnettle8
libhogweed6 libgmp10 libidn2-0 libunistring2 libtasn1-6 libp11-kit0 libffi8
libbabeltrace1 libglib2.0-0 libpcre2-8-0 libmount1 libblkid1 libselinux1
libuuid1 libpopt0 libcap2 libdw1 libelf1 libbz2-1.0 liblzma5 zlib1g
libzstd1 libnuma1 libopencsd1 libperl5.36 libcrypt1 libdb5.3 libgdbm6
libgdbm-compat4 libpython3.11 libexpat1 libslang2 libunwind8 ncurses-base"
arch_all_packages="ncurses-base"

# relink DIR: absolute symbolic links under DIR point into DIR instead.
relink() {
	find "$1" -type l | while read -r l; do
		t=$(readlink "$l")
		case $t in
		/*) ln -sfn "$1$t" "$l" ;;
		esac
	done
}

deb_of() {
	ls "$debs/${1}_"*"_$arch.deb" "$debs/${1}_"*_all.deb 2>/dev/null |
	    head -n 1 | grep .
}

# guest_fetch PKG[=VERSION]...: download each ppc64el package once.
guest_fetch() {
	need=""
	for p in $(printf '%s\n' "$@" | sort -u); do
		name=${p%%=*}
		a=:$arch
		case " $arch_all_packages " in
		*" $name "*) a="" ;;
		esac
		deb_of "$name" >/dev/null || need="$need $name$a${p#"$name"}"
	done
	[ -n "$need" ] || return 0
	guest_say "downloading ppc64el packages:$need"
	mkdir -p "$debs"
	# Through the LPAR's own apt state (tests/guest/common.sh); lists gone
	# stale are fetched again once.
	get() {
		# shellcheck disable=SC2086
		(cd "$debs" && guest_apt apt-get download -q $need \
		    >/dev/null 2>"$debs/.err")
	}
	get || { guest_apt_update; get; } || {
		cat "$debs/.err" >&2
		guest_say "apt-get download failed (no network to" \
		    "Debian's archive?)"
		return 1
	}
}

# Which packages: asked of apt once per set of pins and lists (apt-cache
# is slow), then remembered with the downloads.
resolved=$guest_cache/resolved-$(echo "$guest_kernel_meta" \
    "$guest_kernel_version $guest_busybox_version $guest_perf_version" \
    "$sysroot_packages $runtime_packages" | guest_hash -)
if [ ! -f "$resolved" ]; then
	guest_apt_setup
	# The kernel: the ABI package the pinned metapackage points at.
	kver=$(guest_pick "$guest_kernel_meta:$arch" "$guest_kernel_version")
	kpkg=$(guest_apt apt-cache depends "$guest_kernel_meta:$arch=$kver" \
	    2>/dev/null |
	    sed -n 's/^ *Depends: \(linux-image-[0-9][^:]*\).*/\1/p' |
	    head -n 1)
	[ -n "$kpkg" ] ||
	    { guest_say "no kernel package behind $guest_kernel_meta"; exit 1; }
	bbver=$(guest_pick "busybox-static:$arch" "$guest_busybox_version")
	perfver=$(guest_pick "linux-perf:$arch" "$guest_perf_version")
	# shellcheck disable=SC2086
	guest_fetch "$kpkg" "busybox-static=$bbver" "linux-perf=$perfver" \
	    $sysroot_packages $runtime_packages
	echo "$kpkg" >"$resolved"
	# What was downloaded, for the record.
	(cd "$debs" && ls -- *.deb) >"$resolved.debs"
fi
kpkg=$(cat "$resolved")

kabi=${kpkg#linux-image-}
kernel=$guest_cache/vmlinux-$kabi
if [ ! -f "$kernel" ]; then
	guest_say "extracting the kernel $kabi"
	t=$guest_cache/tmp.kernel.$$
	rm -rf "$t"
	mkdir -p "$t"
	dpkg-deb --fsys-tarfile "$(deb_of "$kpkg")" |
	    tar -x -C "$t" "./boot/vmlinux-$kabi"
	mv "$t/boot/vmlinux-$kabi" "$kernel"
	rm -rf "$t"
fi

# The sysroot: packages extracted, absolute symbolic links made relative
# so they resolve inside it.
sysroot=$guest_cache/sysroot-$(echo $sysroot_packages | guest_hash -)
if [ ! -f "$sysroot/.done" ]; then
	guest_say "extracting the ppc64el sysroot"
	rm -rf "$sysroot"
	mkdir -p "$sysroot"
	for p in $sysroot_packages; do
		dpkg-deb -x "$(deb_of "$p")" "$sysroot"
	done
	relink "$sysroot"
	touch "$sysroot/.done"
fi

# hvtop for ppc64le, in its own build directory in the cache.
hb=$guest_cache/hvtop-$triplet-$tree
libdir=$sysroot/usr/lib/$triplet
mkdir -p "$hb"
if [ ! -f "$hb/Makefile" ] || [ "$hv_top/configure" -nt "$hb/Makefile" ] ||
    [ "$(cat "$hb/.srcdir" 2>/dev/null)" != "$hv_top" ]; then
	guest_say "configuring hvtop for $triplet (log: $hb/build.log)"
	# Objects built from another tree can be newer than this tree's
	# sources and would be kept: start empty.
	rm -rf "$hb"
	mkdir -p "$hb"
	(cd "$hb" && "$hv_top/configure" --host=$triplet --prefix=/usr \
	    PKG_CONFIG="pkg-config" \
	    PKG_CONFIG_LIBDIR="$libdir/pkgconfig:$sysroot/usr/share/pkgconfig" \
	    PKG_CONFIG_SYSROOT_DIR="$sysroot" \
	    CPPFLAGS="-I$sysroot/usr/include -I$sysroot/usr/include/$triplet" \
	    LDFLAGS="-L$libdir -L$sysroot/lib/$triplet -Wl,-rpath-link,$libdir -Wl,-rpath-link,$sysroot/lib/$triplet" \
	    >"$hb/build.log" 2>&1) || {
		tail -n 30 "$hb/build.log" >&2
		exit 1
	}
	printf '%s' "$hv_top" >"$hb/.srcdir"
fi
make -C "$hb" -j2 hvtop >>"$hb/build.log" 2>&1 || {
	grep -E 'error|Error' "$hb/build.log" | tail -n 30 >&2
	guest_say "cross build of hvtop failed (log: $hb/build.log)"
	exit 1
}
# The shipped catalogs, as the host build made them (hvtop --source sim
# in the partition finds them in its data directory).
[ -n "${guest_host_built:-}" ] || hv_build build --enable-werror || exit 1

# The runtime tree every library is taken from.
rt=$guest_cache/runtime-$(echo $runtime_packages | guest_hash -)
if [ ! -f "$rt/.done" ]; then
	guest_say "extracting the ppc64el runtime libraries"
	rm -rf "$rt"
	mkdir -p "$rt"
	for p in $runtime_packages linux-perf busybox-static; do
		dpkg-deb -x "$(deb_of "$p")" "$rt"
	done
	relink "$rt"
	touch "$rt/.done"
fi

# The initramfs, rebuilt when hvtop, init, this script (what it packs)
# or the package set changes.
key=$(cat "$hb/hvtop" "$guest_dir/init" "$0" "$hv_top"/build/catalogs/*.bin |
    cat - "$sysroot/.done" "$rt/.done" | guest_hash -)
initrd=$guest_cache/initramfs-$tree-$key.cpio.gz
if [ ! -f "$initrd" ]; then
	guest_say "packing the initramfs"
	root=$guest_cache/tmp.root.$$
	rm -rf "$root"
	mkdir -p "$root/bin" "$root/sbin" "$root/usr/bin" "$root/lib64" \
	    "$root/lib/$triplet" "$root/proc" "$root/sys" "$root/dev" \
	    "$root/tmp" "$root/root" "$root/etc" "$root/usr/share/hvtop/catalogs"
	cp "$rt/bin/busybox" "$root/bin/busybox"
	ln -s busybox "$root/bin/sh"
	cp "$guest_dir/init" "$root/init"
	chmod 755 "$root/init"
	cp "$rt/usr/bin/perf" "$root/usr/bin/perf"
	powerpc64le-linux-gnu-strip -o "$root/usr/bin/hvtop" "$hb/hvtop"
	cp "$hv_top"/build/catalogs/*.bin "$root/usr/share/hvtop/catalogs/"
	# Terminal descriptions a host terminal is likely to name.
	for t in l/linux v/vt100 v/vt220 x/xterm x/xterm-256color \
	    s/screen s/screen-256color t/tmux t/tmux-256color d/dumb; do
		for d in lib/terminfo usr/share/terminfo; do
			if [ -f "$rt/$d/$t" ]; then
				mkdir -p "$root/usr/share/terminfo/${t%/*}"
				cp "$rt/$d/$t" "$root/usr/share/terminfo/$t"
			fi
		done
	done
	# Dynamic loader, then the DT_NEEDED closure of every program.
	cp -L "$rt/lib64/ld64.so.2" "$root/lib64/ld64.so.2"
	todo="$root/usr/bin/hvtop $root/usr/bin/perf"
	while [ -n "$todo" ]; do
		next=""
		for f in $todo; do
			for so in $(readelf -d "$f" |
			    sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
				[ -f "$root/lib/$triplet/$so" ] && continue
				src=""
				for d in lib/$triplet usr/lib/$triplet; do
					[ -e "$rt/$d/$so" ] && src=$rt/$d/$so
				done
				if [ -z "$src" ]; then
					guest_say "$so (needed by ${f##*/}) is in" \
					    "none of the runtime packages"
					exit 1
				fi
				cp -L "$src" "$root/lib/$triplet/$so"
				next="$next $root/lib/$triplet/$so"
			done
		done
		todo=$next
	done
	# nobody, as Debian has it: what hvtop --user becomes in the
	# partition's checks.
	printf '%s\n' "root:x:0:0:root:/root:/bin/sh" \
	    "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin" \
	    >"$root/etc/passwd"
	printf '%s\n' "root:x:0:" "nogroup:x:65534:" >"$root/etc/group"
	printf '%s\n' "passwd: files" "group: files" \
	    >"$root/etc/nsswitch.conf"
	# gzip -6: a third of -9's time, for 0.5 % more bytes.
	(cd "$root" && find . | sort | cpio -o -H newc --quiet -R 0:0) |
	    gzip -6 >"$initrd.$$"
	rm -f "$guest_cache"/initramfs-"$tree"-*.cpio.gz
	mv "$initrd.$$" "$initrd"
	rm -rf "$root"
	guest_say "initramfs: $(du -k "$initrd" | cut -f1) KiB"
fi
echo "$kernel $initrd"
