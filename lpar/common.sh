# Shared by the virtual LPAR's build scripts and scripts/lpar.  Source it
# after scripts/setup.sh (for hv_top, hv_say, hv_missing, hv_build).
#
# Everything downloaded or built goes to the cache, never into the tree:
#   ${XDG_CACHE_HOME:-$HOME/.cache}/hvtop-lpar/
# Versions are pinned below; when Debian's archive has moved on from a
# pinned version, the current one of the same package is used instead
# and the scripts say so.

lp_cache=${HVTOP_LPAR_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hvtop-lpar}
lp_dir=$hv_top/lpar

# Debian 12 (bookworm) packages.
lp_qemu_version="1:7.2+dfsg-7+deb12u18"	# source package qemu
lp_kernel_meta="linux-image-powerpc64le"	# resolves to the ABI package
lp_kernel_version="6.1.176-1"
lp_busybox_version="1:1.35.0-4+deb12u1+b1"
lp_perf_version="6.1.176-1"

# Host packages: the QEMU build, its firmware, the cross compiler and the
# initramfs tools.
lp_host_packages="ninja-build meson libglib2.0-dev libfdt-dev
libpixman-1-dev python3 pkg-config flex bison dpkg-dev xz-utils
qemu-system-data gcc-powerpc64le-linux-gnu libc6-dev-ppc64el-cross cpio gzip
binutils-powerpc64le-linux-gnu"

lp_say() { printf 'lpar: %s\n' "$*" >&2; }

# What the virtual LPAR changes on this machine: the host packages above,
# installed with the host's apt (hv_install), and nothing else.  The
# partition's ppc64el packages and QEMU's source package come through an
# apt state of its own in the cache (lp_apt): the host's sources, lists,
# dpkg architectures and apt-get update never see them.
lp_host_setup() {
	# Left by an older hvtop, and no longer needed: said, not undone.
	if [ -f /etc/apt/sources.list.d/hvtop-lpar-src.sources ] ||
	    dpkg --print-foreign-architectures | grep -qx ppc64el; then
		lp_say "the virtual LPAR no longer needs dpkg's foreign" \
		    "architecture ppc64el nor" \
		    "/etc/apt/sources.list.d/hvtop-lpar-src.sources, which an" \
		    "older hvtop added; without other ppc64el packages:" \
		    "rm -f /etc/apt/sources.list.d/hvtop-lpar-src.sources;" \
		    "dpkg --remove-architecture ppc64el"
	fi
	# shellcheck disable=SC2086
	hv_missing $lp_host_packages
	[ -n "$missing" ] || return 0
	hv_install && return 0
	lp_say "cannot install the host packages:$missing"
	return 1
}

# The LPAR's apt state: its sources (Debian bookworm, binary packages
# for ppc64el alone, and sources), lists, caches and an empty dpkg
# status, all under $lp_apt_dir.  APT_CONFIG is read before anything
# else and names every directory, so none of the host's configuration
# files is read (their update hooks would run for these lists); the
# host's proxy settings are carried over.  APT::Architectures set means
# apt does not ask dpkg for its foreign architectures.
lp_apt_dir=$lp_cache/apt
lp_mirror=${HVTOP_LPAR_MIRROR:-http://deb.debian.org/debian}
lp_security=${HVTOP_LPAR_SECURITY_MIRROR:-http://deb.debian.org/debian-security}
lp_keyring=/usr/share/keyrings/debian-archive-keyring.gpg

lp_apt_setup() {
	d=$lp_apt_dir
	mkdir -p "$d/sources.list.d" "$d/apt.conf.d" "$d/preferences.d" \
	    "$d/lists/partial" "$d/cache/archives/partial" "$d/state" \
	    "$d/log" || return 1
	: >>"$d/status"
	signed=""
	[ ! -f "$lp_keyring" ] || signed="Signed-By: $lp_keyring"
	cat >"$d/sources.list.d/debian.sources.$$" <<-EOS
	Types: deb deb-src
	URIs: $lp_mirror
	Suites: bookworm bookworm-updates
	Components: main
	$signed

	Types: deb deb-src
	URIs: $lp_security
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
	ls "$d"/lists/*_Packages* >/dev/null 2>&1 || lp_apt_update
}

# lp_apt COMMAND [ARG]...: apt-get or apt-cache on the LPAR's apt state.
lp_apt() {
	APT_CONFIG=$lp_apt_dir/apt.conf "$@"
}

# lp_apt_update: fetch the LPAR's package lists (one at a time, though
# the QEMU and guest builds run side by side).  A list that fails is
# shown and the rest are used: a missing package is said later.
lp_apt_update() {
	lp_say "fetching Debian's package lists for the partition" \
	    "(apt state: $lp_apt_dir)"
	if ! flock "$lp_apt_dir/.lock" sh -c \
	    'APT_CONFIG=$1/apt.conf apt-get update -q >"$1/update.log" 2>&1' \
	    sh "$lp_apt_dir"; then
		grep -E '^(E|W):' "$lp_apt_dir/update.log" >&2
		lp_say "apt-get update failed for the lists above;" \
		    "going on with those it has"
	fi
}

# lp_pick PKG PINNED: the pinned version when the archive has it, else
# the candidate (said aloud).  Prints the version.
lp_pick() {
	# apt-cache show exits 0 for a version it does not have.
	if lp_apt apt-cache show "$1=$2" 2>/dev/null | grep -q '^Package:'
	then
		echo "$2"
		return 0
	fi
	v=$(lp_apt apt-cache policy "$1" 2>/dev/null | sed -n 's/^ *Candidate: //p')
	if [ -z "$v" ] || [ "$v" = "(none)" ]; then
		lp_say "$1: not in the package lists for the partition"
		return 1
	fi
	lp_say "$1: pinned $2 is gone from the archive; using $v"
	echo "$v"
}

# lp_pick_src PKG PINNED: lp_pick for a source package; else the
# newest version of it the lists have.
lp_pick_src() {
	vs=$(lp_apt apt-cache showsrc --only-source "$1" 2>/dev/null |
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
		lp_say "source package $1: not in the package lists"
		return 1
	fi
	lp_say "source package $1: pinned $2 is gone from the archive;" \
	    "using $v"
	echo "$v"
}

# lp_hash FILE...: a short hash of the files' contents.
lp_hash() {
	cat "$@" | sha256sum | cut -c1-12
}

# lp_drop PATH...: remove them, adding their KiB to _freed (lp_prune's).
lp_drop() {
	_freed=$((_freed + $(du -sk "$@" 2>/dev/null |
	    awk '{ k += $1 } END { print k + 0 }')))
	rm -rf "$@"
}

# lp_prune: remove what the cache holds for source trees of hvtop that are
# gone (a clone deleted after its test run): each tree's cross build, its
# initramfs and its link of QEMU, 35 MB a tree.  A build names its tree
# in .srcdir once configured; one still configuring has no .srcdir and is
# left alone, unless nothing was written to it for a day (a configure
# that failed).  Files of no known tree are removed after a day too,
# which no build of one takes.
lp_prune() {
	_freed=0
	for _d in "$lp_cache"/hvtop-*-*/; do
		[ -d "$_d" ] || continue
		if [ -f "$_d.srcdir" ]; then
			_src=$(cat "$_d.srcdir")
			[ ! -f "$_src/lpar/common.sh" ] || continue
			_h=$(printf '%s' "$_src" | lp_hash -)
		else
			[ -n "$(find "$_d" -maxdepth 0 -mtime +0)" ] || continue
			_h=${_d%/}
			_h=${_h##*-}
		fi
		lp_drop "$_d" "$lp_cache"/initramfs-"$_h"-*.cpio.gz \
		    "$lp_cache/qemu-system-ppc64-$_h"
	done
	for _f in "$lp_cache"/initramfs-*.cpio.gz \
	    "$lp_cache"/qemu-system-ppc64-*; do
		[ -f "$_f" ] || continue
		_h=${_f##*/}
		_h=${_h#initramfs-}
		_h=${_h#qemu-system-ppc64-}
		_h=${_h%%[-.]*}
		_known=no
		for _d in "$lp_cache"/hvtop-*-"$_h"; do
			[ ! -d "$_d" ] || _known=yes
		done
		[ "$_known" = no ] || continue
		[ -n "$(find "$_f" -mtime +0 2>/dev/null)" ] || continue
		lp_drop "$_f"
	done
	[ "$_freed" -eq 0 ] ||
	    lp_say "removed $(((_freed + 1023) / 1024)) MB built for source trees that are gone"
}
