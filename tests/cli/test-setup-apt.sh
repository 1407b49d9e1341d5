#!/bin/sh
# scripts/setup.sh's install (hv_install, what ./scripts/run and
# ./scripts/test do when a package is missing) on a host whose apt
# sources include an index that fails to download: a ppc64el Packages
# file out of step with its Release file, as a mirror caught mid-sync
# serves it.  The install goes on, says which index failed, and installs
# what the lists it has offer; a package none of them offers is named.
# apt runs on a private state (APT_CONFIG: sources, lists, caches and an
# empty dpkg status in the test's folder) and installs only in
# simulation (apt-get -s): the host is not changed.  On a host not
# booted with systemd, the maintainer scripts dpkg would run find a
# systemctl that does nothing on the PATH apt gives them (DPkg::Path).
. "$(dirname "$0")/tap.sh"

apt_get=$(command -v apt-get) || {
	plan 1
	skip "install with a broken index" "no apt-get"
	exit 0
}
plan 11
native=$(dpkg --print-architecture)

# A local archive: suite "good" offers hvtop-probe; suite "sync" has a
# native index that is right and a ppc64el one whose size and hash its
# Release file does not match.
repo=$tmpdir/repo
release() {	# release SUITE: its Release file over the indexes there
	{
		echo "Suite: $1"
		echo "Date: $(LC_ALL=C date -u -R)"
		echo "Codename: $1"
		echo "Architectures: $native ppc64el"
		echo "Components: main"
		echo "SHA256:"
		(cd "$repo/dists/$1" && for f in main/*/Packages; do
			echo " $(sha256sum <"$f" | cut -d' ' -f1)" \
			    "$(wc -c <"$f") $f"
		done)
	} >"$repo/dists/$1/Release"
}
for s in good sync; do
	mkdir -p "$repo/dists/$s/main/binary-$native" \
	    "$repo/dists/$s/main/binary-ppc64el"
	: >"$repo/dists/$s/main/binary-$native/Packages"
	: >"$repo/dists/$s/main/binary-ppc64el/Packages"
done
cat >"$repo/dists/good/main/binary-$native/Packages" <<EOF
Package: hvtop-probe
Version: 1.0
Architecture: all
Maintainer: hvtop <hvtop@localhost>
Filename: pool/hvtop-probe_1.0_all.deb
Size: 1000
SHA256: $(printf '%064d' 0)
Description: a package the test installs in simulation

EOF
probe() {	# probe NAME VERSION: a ppc64el package's stanza
	printf 'Package: %s\nVersion: %s\nArchitecture: ppc64el\n' "$1" "$2"
	printf 'Filename: pool/%s_%s_ppc64el.deb\nSize: 1\n\n' "$1" "$2"
}
probe hvtop-sooner 1 >"$repo/dists/sync/main/binary-ppc64el/Packages"
release good
release sync
# The mirror moves on under the Release file.
probe hvtop-later 2 >>"$repo/dists/sync/main/binary-ppc64el/Packages"

a=$tmpdir/apt
mkdir -p "$a/sources.list.d" "$a/apt.conf.d" "$a/preferences.d" \
    "$a/lists/partial" "$a/cache/archives/partial" "$a/state" "$a/log"
: >"$a/status"
cat >"$a/sources.list.d/test.sources" <<EOF
Types: deb
URIs: file:$repo
Suites: good sync
Components: main
Trusted: yes
EOF
cat >"$a/apt.conf" <<EOF
Dir::Etc::main "$a/none";
Dir::Etc::Parts "$a/apt.conf.d";
Dir::Etc::SourceList "$a/sources.list";
Dir::Etc::SourceParts "$a/sources.list.d";
Dir::Etc::Preferences "$a/preferences";
Dir::Etc::PreferencesParts "$a/preferences.d";
Dir::State "$a/state";
Dir::State::Lists "$a/lists";
Dir::State::status "$a/status";
Dir::Cache "$a/cache";
Dir::Log "$a/log";
APT::Architecture "$native";
APT::Architectures { "$native"; "ppc64el"; };
APT::Sandbox::User "$(id -un)";
Debug::NoLocking "true";
EOF
export APT_CONFIG="$a/apt.conf"

# apt-get installs in simulation only; sudo, where setup.sh would use
# it, runs the command as it is (the state is the test's own).
bin=$tmpdir/bin
mkdir -p "$bin"
# An install also runs what a maintainer script would, "systemctl
# daemon-reload", on the PATH dpkg gets: apt's DPkg::Path, or apt's
# default when none is given.
cat >"$bin/apt-get" <<EOF
#!/bin/sh
case " \$* " in
*" install "*)
	dp=/usr/sbin:/usr/bin:/sbin:/bin
	for a in "\$@"; do
		case \$a in DPkg::Path=*) dp=\${a#DPkg::Path=} ;; esac
	done
	sc=\$(PATH=\$dp command -v systemctl)
	PATH=\$dp systemctl daemon-reload >/dev/null 2>&1
	echo "postinst systemctl \$? \${sc:-none}" >"$tmpdir/postinst"
	exec "$apt_get" -s "\$@" ;;
esac
exec "$apt_get" "\$@"
EOF
printf '#!/bin/sh\nexec "$@"\n' >"$bin/sudo"
chmod +x "$bin/apt-get" "$bin/sudo"
PATH=$bin:$PATH

# The sync suite's ppc64el index is broken, as the test means it to be.
"$apt_get" update -q >/dev/null 2>"$tmpdir/update.err"; rc=$?
check "apt-get update fails on the broken index" test "$rc" -ne 0
grep -q 'binary-ppc64el' "$tmpdir/update.err" ||
    diag "$(cat "$tmpdir/update.err")"
rm -rf "$a/lists" && mkdir -p "$a/lists/partial"

install() {	# install PACKAGE...: hv_install, as setup.sh runs it
	(missing=" $*" &&
	    . "$top_srcdir/scripts/setup.sh" && hv_install) \
	    >"$tmpdir/out" 2>"$tmpdir/err"
}

install hvtop-probe; rc=$?
check "install goes on past the failed index" test "$rc" -eq 0
check "it says apt-get update failed" \
    grep -q 'apt-get update failed' "$tmpdir/err"
check "it names the index that failed" \
    grep -q 'binary-ppc64el/Packages' "$tmpdir/err"
check "it installs the package (simulated)" \
    grep -q '^Inst hvtop-probe ' "$tmpdir/err"
[ "$rc" -eq 0 ] || diag "$(cat "$tmpdir/err")"
if [ -d /run/systemd/system ]; then
	skip "a maintainer script's systemctl does nothing" \
	    "this host runs systemd"
	skip "it is not the system's" "this host runs systemd"
else
	check "a maintainer script's systemctl does nothing" \
	    grep -q '^postinst systemctl 0 ' "$tmpdir/postinst"
	check "it is not the system's" sh -c \
	    '! grep -q " /usr/s\{0,1\}bin/\| /s\{0,1\}bin/\| none$" "$1"' \
	    sh "$tmpdir/postinst"
	diag "$(cat "$tmpdir/postinst" 2>/dev/null)"
fi

install hvtop-probe hvtop-absent; rc=$?
check "a package no list offers fails the install" test "$rc" -ne 0
check "it is named" \
    grep -q 'no package list apt could read offers: hvtop-absent$' \
    "$tmpdir/err"
check "the update's failure is recalled" \
    grep -q 'apt-get update failed too' "$tmpdir/err"
check "and what could not be installed" \
    grep -q 'could not install hvtop-probe hvtop-absent' "$tmpdir/err"
grep -q 'hvtop-absent$' "$tmpdir/err" || diag "$(cat "$tmpdir/err")"
