# Shared by the virtual LPAR's build scripts and scripts/guest.  Source it
# after scripts/setup.sh (for hv_top, hv_say, hv_missing, hv_build).
#
# Everything downloaded or built goes to the cache, never into the tree:
#   ${XDG_CACHE_HOME:-$HOME/.cache}/hvtop-guest/
# Versions are pinned below; when Debian's archive has moved on from a
# pinned version, the current one of the same package is used instead
# and the scripts say so.

guest_cache=${HVTOP_GUEST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hvtop-guest}
guest_dir=$hv_top/tests/guest

# Debian 12 (bookworm) packages.
guest_qemu_version="1:7.2+dfsg-7+deb12u18"	# source package qemu
guest_kernel_meta="linux-image-powerpc64le"	# resolves to the ABI package
guest_kernel_version="6.1.176-1"
guest_busybox_version="1:1.35.0-4+deb12u1+b1"
guest_perf_version="6.1.176-1"

# Host packages: the QEMU build, its firmware, the cross compiler and the
# initramfs tools.
guest_host_packages="ninja-build meson libglib2.0-dev libfdt-dev
libpixman-1-dev python3 pkg-config flex bison dpkg-dev xz-utils
qemu-system-data gcc-powerpc64le-linux-gnu libc6-dev-ppc64el-cross cpio gzip
binutils-powerpc64le-linux-gnu"

guest_say() { printf 'guest: %s\n' "$*" >&2; }

# guest_cache_move: the cache an older hvtop kept as hvtop-lpar becomes
# hvtop-guest, once, rather than be downloaded and built again.  The old
# name is left as a link to the new: QEMU's and hvtop's build folders in
# it name their own paths.  Run before the builds, which share the cache.
guest_cache_move() {
	[ -z "${HVTOP_GUEST_CACHE:-}" ] || return 0
	_old=${guest_cache%/*}/hvtop-lpar
	[ -d "$_old" ] && [ ! -L "$_old" ] && [ ! -e "$guest_cache" ] ||
	    return 0
	mv "$_old" "$guest_cache" && ln -s hvtop-guest "$_old" || return 1
	guest_say "the cache $_old is now $guest_cache (the old name links" \
	    "to it; remove the link once no older hvtop uses it)"
}

# What the virtual LPAR changes on this machine: the host packages above,
# installed with the host's apt (hv_install), and nothing else.  The
# partition's ppc64el packages and QEMU's source package come through an
# apt state of its own in the cache (guest_apt): the host's sources, lists,
# dpkg architectures and apt-get update never see them.
guest_host_setup() {
	# Left by an older hvtop, and no longer needed: said, not undone.
	if [ -f /etc/apt/sources.list.d/hvtop-lpar-src.sources ] ||
	    dpkg --print-foreign-architectures | grep -qx ppc64el; then
		guest_say "the virtual LPAR no longer needs dpkg's foreign" \
		    "architecture ppc64el nor" \
		    "/etc/apt/sources.list.d/hvtop-lpar-src.sources, which an" \
		    "older hvtop added; without other ppc64el packages:" \
		    "rm -f /etc/apt/sources.list.d/hvtop-lpar-src.sources;" \
		    "dpkg --remove-architecture ppc64el"
	fi
	# shellcheck disable=SC2086
	hv_missing $guest_host_packages
	[ -n "$missing" ] || return 0
	hv_install && return 0
	guest_say "cannot install the host packages:$missing"
	return 1
}

# The LPAR's apt state: its sources (Debian bookworm, binary packages
# for ppc64el alone, and sources), lists, caches and an empty dpkg
# status, all under $guest_apt_dir.  APT_CONFIG is read before anything
# else and names every directory, so none of the host's configuration
# files is read (their update hooks would run for these lists); the
# host's proxy settings are carried over.  APT::Architectures set means
# apt does not ask dpkg for its foreign architectures.
guest_apt_dir=$guest_cache/apt
guest_mirror=${HVTOP_GUEST_MIRROR:-http://deb.debian.org/debian}
guest_security=${HVTOP_GUEST_SECURITY_MIRROR:-http://deb.debian.org/debian-security}
guest_keyring=/usr/share/keyrings/debian-archive-keyring.gpg

guest_apt_setup() {
	d=$guest_apt_dir
	mkdir -p "$d/sources.list.d" "$d/apt.conf.d" "$d/preferences.d" \
	    "$d/lists/partial" "$d/cache/archives/partial" "$d/state" \
	    "$d/log" || return 1
	: >>"$d/status"
	signed=""
	[ ! -f "$guest_keyring" ] || signed="Signed-By: $guest_keyring"
	cat >"$d/sources.list.d/debian.sources.$$" <<-EOS
	Types: deb deb-src
	URIs: $guest_mirror
	Suites: bookworm bookworm-updates
	Components: main
	$signed

	Types: deb deb-src
	URIs: $guest_security
	Suites: bookworm-security
	Components: main
	$signed
	EOS
	mv "$d/sources.list.d/debian.sources.$$" "$d/sources.list.d/debian.sources"
	{
		cat <<-EOC
		Dir::Etc::main "$d/apt.conf.main";
		Dir::Etc::Parts "$d/apt.conf.d";
		Dir::Etc::SourceList "$d/sources.list";
		Dir::Etc::SourceParts "$d/sources.list.d";
		Dir::Etc::Preferences "$d/preferences";
		Dir::Etc::PreferencesParts "$d/preferences.d";
		Dir::State "$d/state";
		Dir::State::Lists "$d/lists";
		Dir::State::status "$d/status";
		Dir::Cache "$d/cache";
		Dir::Log "$d/log";
		APT::Architecture "ppc64el";
		APT::Architectures { "ppc64el"; };
		Acquire::Languages "none";
		EOC
		[ "$(id -u)" -ne 0 ] || echo 'APT::Sandbox::User "root";'
		apt-config dump 2>/dev/null |
		    grep -E '^Acquire::[a-z]+::Proxy(::[^ ]+)? ' || true
	} >"$d/apt.conf.$$"
	mv "$d/apt.conf.$$" "$d/apt.conf"
	ls "$d"/lists/*_Packages* >/dev/null 2>&1 || guest_apt_update
}

# guest_apt COMMAND [ARG]...: apt-get or apt-cache on the LPAR's apt state.
guest_apt() {
	APT_CONFIG=$guest_apt_dir/apt.conf "$@"
}

# guest_apt_update: fetch the LPAR's package lists (one at a time, though
# the QEMU and guest builds run side by side).  A list that fails is
# shown and the rest are used: a missing package is said later.
guest_apt_update() {
	guest_say "fetching Debian's package lists for the partition" \
	    "(apt state: $guest_apt_dir)"
	if ! flock "$guest_apt_dir/.lock" sh -c \
	    'APT_CONFIG=$1/apt.conf apt-get update -q >"$1/update.log" 2>&1' \
	    sh "$guest_apt_dir"; then
		grep -E '^(E|W):' "$guest_apt_dir/update.log" >&2
		guest_say "apt-get update failed for the lists above;" \
		    "going on with those it has"
	fi
}

# guest_pick PKG PINNED: the pinned version when the archive has it, else
# the candidate (said aloud).  Prints the version.
guest_pick() {
	# apt-cache show exits 0 for a version it does not have.
	if guest_apt apt-cache show "$1=$2" 2>/dev/null | grep -q '^Package:'
	then
		echo "$2"
		return 0
	fi
	v=$(guest_apt apt-cache policy "$1" 2>/dev/null | sed -n 's/^ *Candidate: //p')
	if [ -z "$v" ] || [ "$v" = "(none)" ]; then
		guest_say "$1: not in the package lists for the partition"
		return 1
	fi
	guest_say "$1: pinned $2 is gone from the archive; using $v"
	echo "$v"
}

# guest_pick_src PKG PINNED: guest_pick for a source package; else the
# newest version of it the lists have.
guest_pick_src() {
	vs=$(guest_apt apt-cache showsrc --only-source "$1" 2>/dev/null |
	    sed -n 's/^Version: //p')
	if printf '%s\n' "$vs" | grep -qxF -- "$2"; then
		echo "$2"
		return 0
	fi
	v=""
	for x in $vs; do
		[ -z "$v" ] || dpkg --compare-versions "$x" gt "$v" || continue
		v=$x
	done
	if [ -z "$v" ]; then
		guest_say "source package $1: not in the package lists"
		return 1
	fi
	guest_say "source package $1: pinned $2 is gone from the archive;" \
	    "using $v"
	echo "$v"
}

# guest_hash FILE...: a short hash of the files' contents.
guest_hash() {
	cat "$@" | sha256sum | cut -c1-12
}

# guest_drop PATH...: remove them, adding their KiB to _freed (guest_prune's).
guest_drop() {
	_freed=$((_freed + $(du -sk "$@" 2>/dev/null |
	    awk '{ k += $1 } END { print k + 0 }')))
	rm -rf "$@"
}

# guest_prune: remove what the cache holds for source trees of hvtop that are
# gone (a clone deleted after its test run): each tree's cross build, its
# initramfs and its link of QEMU, 35 MB a tree.  A build names its tree
# in .srcdir once configured; one still configuring has no .srcdir and is
# left alone, unless nothing was written to it for a day (a configure
# that failed).  Files of no known tree are removed after a day too,
# which no build of one takes.
guest_prune() {
	_freed=0
	for _d in "$guest_cache"/hvtop-*-*/; do
		[ -d "$_d" ] || continue
		if [ -f "$_d.srcdir" ]; then
			_src=$(cat "$_d.srcdir")
			# An older hvtop kept this file in lpar/.
			[ ! -f "$_src/tests/guest/common.sh" ] &&
			    [ ! -f "$_src/lpar/common.sh" ] || continue
			_h=$(printf '%s' "$_src" | guest_hash -)
		else
			[ -n "$(find "$_d" -maxdepth 0 -mtime +0)" ] || continue
			_h=${_d%/}
			_h=${_h##*-}
		fi
		guest_drop "$_d" "$guest_cache"/initramfs-"$_h"-*.cpio.gz \
		    "$guest_cache/qemu-system-ppc64-$_h"
	done
	for _f in "$guest_cache"/initramfs-*.cpio.gz \
	    "$guest_cache"/qemu-system-ppc64-*; do
		[ -f "$_f" ] || continue
		_h=${_f##*/}
		_h=${_h#initramfs-}
		_h=${_h#qemu-system-ppc64-}
		_h=${_h%%[-.]*}
		_known=no
		for _d in "$guest_cache"/hvtop-*-"$_h"; do
			[ ! -d "$_d" ] || _known=yes
		done
		[ "$_known" = no ] || continue
		[ -n "$(find "$_f" -mtime +0 2>/dev/null)" ] || continue
		guest_drop "$_f"
	done
	[ "$_freed" -eq 0 ] ||
	    guest_say "removed $(((_freed + 1023) / 1024)) MB built for source trees that are gone"
}
