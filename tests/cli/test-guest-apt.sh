#!/bin/sh
# The virtual LPAR's apt state (tests/guest/common.sh: guest_apt_setup,
# guest_apt, guest_pick, guest_pick_src) against a local archive in place
# of Debian's: it lists ppc64el packages and sources, picks pinned
# versions or says what replaces them, downloads a ppc64el package, and
# goes on past a ppc64el index out of step with its Release file, while
# this machine has no ppc64el architecture: dpkg is never asked for its
# foreign architectures, and the host's apt configuration and lists are
# left as they are.  Nothing boots; nothing is installed.
. "$(dirname "$0")/tap.sh"

for t in apt-get dpkg-deb; do
	command -v "$t" >/dev/null 2>&1 && continue
	plan 1
	skip "the LPAR's apt state" "$t is not installed"
	exit 0
done
if [ ! -f "$top_srcdir/tests/guest/common.sh" ]; then
	plan 1
	skip "the LPAR's apt state" \
	    "tests/guest/ is not in this tree (a tarball)"
	exit 0
fi
plan 12
apt_get=$(command -v apt-get)
dpkg_bin=$(command -v dpkg)

# The archive: bookworm has hvtop-probe and busybox-static for ppc64el
# and two versions of the qemu source package; bookworm-security's
# ppc64el index no longer matches its Release file (a mirror mid-sync).
repo=$tmpdir/repo
deb=$tmpdir/deb
mkdir -p "$deb/DEBIAN" "$repo/pool"
printf 'Package: hvtop-probe\nVersion: 1.0\nArchitecture: ppc64el\nMaintainer: hvtop <hvtop@localhost>\nDescription: probe\n' \
    >"$deb/DEBIAN/control"
dpkg-deb --build "$deb" "$repo/pool/hvtop-probe_1.0_ppc64el.deb" \
    >/dev/null 2>&1
stanza() {	# stanza NAME VERSION [FILE]
	f=${3:-pool/$1_$2_ppc64el.deb}
	printf 'Package: %s\nVersion: %s\nArchitecture: ppc64el\n' "$1" "$2"
	printf 'Maintainer: hvtop <hvtop@localhost>\nDescription: x\n'
	if [ -f "$repo/$f" ]; then
		printf 'Filename: %s\nSize: %s\nSHA256: %s\n' "$f" \
		    "$(wc -c <"$repo/$f")" \
		    "$(sha256sum <"$repo/$f" | cut -d' ' -f1)"
	else
		printf 'Filename: %s\nSize: 1\n' "$f"
	fi
	echo
}
source_stanza() {	# source_stanza NAME VERSION
	printf 'Package: %s\nBinary: %s\nVersion: %s\nArchitecture: any\n' \
	    "$1" "$1-x" "$2"
	printf 'Maintainer: hvtop <hvtop@localhost>\nDirectory: pool\n'
	printf 'Files:\n 00000000000000000000000000000000 1 %s_%s.dsc\n\n' \
	    "$1" "${2#*:}"
}
release() {	# release SUITE
	(cd "$repo/dists/$1" && {
		echo "Suite: $1"
		echo "Codename: $1"
		echo "Date: $(LC_ALL=C date -u -R)"
		echo "Architectures: ppc64el"
		echo "Components: main"
		echo "SHA256:"
		for f in main/*/*; do
			echo " $(sha256sum <"$f" | cut -d' ' -f1) $(wc -c <"$f") $f"
		done
	} >Release)
}
for s in bookworm bookworm-updates bookworm-security; do
	mkdir -p "$repo/dists/$s/main/binary-ppc64el" \
	    "$repo/dists/$s/main/source"
	: >"$repo/dists/$s/main/source/Sources"
done
{
	stanza hvtop-probe 1.0
	stanza busybox-static 1:1.35.0-4+deb12u1+b1
	stanza linux-perf 6.1.999-1
} >"$repo/dists/bookworm/main/binary-ppc64el/Packages"
{
	source_stanza qemu 1:7.2+dfsg-7+deb12u18
	source_stanza qemu 1:7.2+dfsg-7+deb12u20
} >"$repo/dists/bookworm/main/source/Sources"
stanza hvtop-later 1 >"$repo/dists/bookworm-updates/main/binary-ppc64el/Packages"
stanza hvtop-sooner 1 >"$repo/dists/bookworm-security/main/binary-ppc64el/Packages"
for s in bookworm bookworm-updates bookworm-security; do
	release "$s"
done
stanza hvtop-later 2 >>"$repo/dists/bookworm-security/main/binary-ppc64el/Packages"

# dpkg answers as it would but notes each question; the host's apt
# configuration and lists, as they are before.
bin=$tmpdir/bin
mkdir -p "$bin"
cat >"$bin/dpkg" <<EOF
#!/bin/sh
echo "\$*" >>"$tmpdir/dpkg-asked"
exec "$dpkg_bin" "\$@"
EOF
chmod +x "$bin/dpkg"
hoststate() {
	dpkg --print-foreign-architectures 2>/dev/null
	find /etc/apt /var/lib/apt/lists -maxdepth 1 ! -type d \
	    -newer "$tmpdir/t0" 2>/dev/null
	find /etc/apt ! -type d 2>/dev/null | sort | xargs -r cksum 2>/dev/null
}
touch "$tmpdir/t0"
hoststate >"$tmpdir/host-before"

guest() {	# guest SHELL-CODE: run it with tests/guest/common.sh sourced
	(PATH=$bin:$PATH
	 HVTOP_GUEST_CACHE=$tmpdir/cache
	 HVTOP_GUEST_MIRROR=file:$repo
	 HVTOP_GUEST_SECURITY_MIRROR=file:$repo
	 export PATH HVTOP_GUEST_CACHE HVTOP_GUEST_MIRROR \
	     HVTOP_GUEST_SECURITY_MIRROR
	 unset APT_CONFIG
	 . "$top_srcdir/scripts/setup.sh"
	 . "$top_srcdir/tests/guest/common.sh"
	 # The local archive is not signed by Debian's key.  An unset
	 # directory would put the file at the root of the machine.
	 : "${guest_apt_dir:?is not set by tests/guest/common.sh}"
	 mkdir -p "$guest_apt_dir/apt.conf.d"
	 printf '%s\n' 'Acquire::AllowInsecureRepositories "true";' \
	     'APT::Get::AllowUnauthenticated "true";' \
	     >"$guest_apt_dir/apt.conf.d/test.conf"
	 eval "$1")
}

guest guest_apt_setup >"$tmpdir/out" 2>"$tmpdir/err"; rc=$?
check "guest_apt_setup goes on past the failed index" test "$rc" = 0
check "it says which index failed" \
    grep -q 'bookworm-security/main/binary-ppc64el/Packages' "$tmpdir/err"
check "and that it goes on with the lists it has" \
    grep -q 'going on with those it has' "$tmpdir/err"
[ "$rc" = 0 ] || diag "$(cat "$tmpdir/err")"

v=$(guest 'guest_pick busybox-static:ppc64el 1:1.35.0-4+deb12u1+b1' \
    2>"$tmpdir/err")
check "a pinned ppc64el version is found" \
    test "$v" = "1:1.35.0-4+deb12u1+b1"
v=$(guest 'guest_pick linux-perf:ppc64el 6.1.176-1' 2>"$tmpdir/err")
check "a pinned version gone: the candidate" test "$v" = "6.1.999-1"
check "... said aloud" grep -q 'pinned 6.1.176-1 is gone' "$tmpdir/err"
v=$(guest 'guest_pick_src qemu 1:7.2+dfsg-7+deb12u18' 2>"$tmpdir/err")
check "a pinned source version is found" test "$v" = "1:7.2+dfsg-7+deb12u18"
v=$(guest 'guest_pick_src qemu 1:7.2+dfsg-7+deb12u1' 2>"$tmpdir/err")
check "a source version gone: the newest" \
    test "$v" = "1:7.2+dfsg-7+deb12u20"
guest 'guest_pick hvtop-absent:ppc64el 1' >/dev/null 2>"$tmpdir/err"; rc=$?
check "a package no list has: an error naming it" sh -c \
    "[ $rc != 0 ] && grep -q 'hvtop-absent:ppc64el: not in the package lists' '$tmpdir/err'"

mkdir -p "$tmpdir/dl"
guest "cd '$tmpdir/dl' && guest_apt apt-get download -q hvtop-probe:ppc64el" \
    >/dev/null 2>"$tmpdir/err"
check "a ppc64el package downloads" \
    test -s "$tmpdir/dl/hvtop-probe_1.0_ppc64el.deb"
[ -s "$tmpdir/dl/hvtop-probe_1.0_ppc64el.deb" ] || diag "$(cat "$tmpdir/err")"

check "dpkg was never asked for its foreign architectures" sh -c \
    "! grep -q 'print-foreign-architectures' '$tmpdir/dpkg-asked' 2>/dev/null"
hoststate >"$tmpdir/host-after"
check "the host's apt configuration and lists are as they were" \
    cmp -s "$tmpdir/host-before" "$tmpdir/host-after"
