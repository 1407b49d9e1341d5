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

# lp_time CMD...: run CMD, then say how long it took.
lp_time() {
	lp_t0=$(date +%s)
	"$@"
	lp_rc=$?
	lp_say "$1: $(( $(date +%s) - lp_t0 )) s"
	return $lp_rc
}

lp_sudo() {
	if [ "$(id -u)" -eq 0 ]; then
		"$@"
	elif command -v sudo >/dev/null 2>&1; then
		sudo "$@"
	else
		lp_say "not root and no sudo: cannot run $*"
		return 1
	fi
}

# What the virtual LPAR changes on this machine, once: dpkg's foreign
# architecture ppc64el (to download ppc64el packages; nothing of that
# architecture is installed), a deb-src entry for bookworm (for QEMU's
# source package), and the host packages above.
lp_host_setup() {
	changed=no
	if ! dpkg --print-foreign-architectures | grep -qx ppc64el; then
		lp_say "adding the ppc64el architecture to dpkg (downloads only)"
		lp_sudo dpkg --add-architecture ppc64el || return 1
		changed=yes
	fi
	if ! grep -rqs '^Types: *deb-src' /etc/apt/sources.list.d/ &&
	    ! grep -qs '^deb-src ' /etc/apt/sources.list; then
		lp_say "adding a deb-src entry for bookworm:" \
		    "/etc/apt/sources.list.d/hvtop-lpar-src.sources"
		lp_sudo sh -c 'cat >/etc/apt/sources.list.d/hvtop-lpar-src.sources' <<-'EOS' || return 1
		Types: deb-src
		URIs: http://deb.debian.org/debian
		Suites: bookworm
		Components: main
		Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
		EOS
		changed=yes
	fi
	# The package lists are fetched again only when the sources changed
	# or lack ppc64el, or when an install fails on them.
	updated=no
	if [ "$changed" = yes ] ||
	    ! apt-cache show busybox-static:ppc64el >/dev/null 2>&1; then
		lp_apt_update
		updated=yes
	fi
	# shellcheck disable=SC2086
	hv_missing $lp_host_packages
	if [ -n "$missing" ]; then
		lp_say "installing host packages:$missing"
		lp_apt_install && return 0
		if [ "$updated" = no ]; then
			lp_apt_update
			lp_apt_install && return 0
		fi
		lp_say "cannot install the host packages:$missing"
		return 1
	fi
}

lp_apt_update() {
	lp_say "apt-get update"
	# A mirror in sync leaves one index stale now and then; the main
	# archive is what the LPAR needs.
	lp_sudo apt-get update -q >/dev/null 2>&1 ||
	    lp_sudo apt-get update -q 2>&1 | grep -E '^(E|W):' >&2
}

lp_apt_install() {
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive lp_sudo apt-get install -y -q \
	    --no-install-recommends $missing >/dev/null
}

# lp_pick PKG PINNED: the pinned version when the archive has it, else
# the candidate (said aloud).  Prints the version.
lp_pick() {
	if apt-cache show "$1=$2" >/dev/null 2>&1; then
		echo "$2"
		return 0
	fi
	v=$(apt-cache policy "$1" 2>/dev/null | sed -n 's/^ *Candidate: //p')
	if [ -z "$v" ] || [ "$v" = "(none)" ]; then
		lp_say "$1: not in the package lists"
		return 1
	fi
	lp_say "$1: pinned $2 is gone from the archive; using $v"
	echo "$v"
}

# lp_hash FILE...: a short hash of the files' contents.
lp_hash() {
	cat "$@" | sha256sum | cut -c1-12
}
