#!/bin/sh
# The RPM package of rpm/hvtop.spec, built on this Debian machine as it
# is built on RHEL or SLES: make dist on a copy of the tree (the tree
# itself is never written to), rpmbuild -ta on the tarball in a
# temporary %_topdir, then rpmlint on the spec and both packages, the
# file list, the scriptlets, and systemd-analyze verify on the unit the
# package holds.  Nothing is installed: every rpm command has its own
# database in the temporary folder, and HOME is there too (Debian's rpm
# keeps its database in ~/.rpmdb, rpmlint its dictionary in ~/.config).
# Prints "ok NAME", "not ok NAME" or "SKIP NAME: why", then the totals.
top=$(cd "$(dirname "$0")/../.." && pwd)
pkg=rpm
. "$top/tests/package/pkg-lib.sh"
pkg_need git:git rpmbuild:rpm rpmlint:rpmlint rpm2cpio:rpm cpio:cpio systemd-analyze:systemd

tmp=$(mktemp -d "${TMPDIR:-/tmp}/hvtop-rpm.XXXXXX") || exit 1
# shellcheck disable=SC2317  # called by the trap
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
mkdir -p "$tmp/home" "$tmp/db" "$tmp/top" "$tmp/tmp" "$tmp/root"
HOME=$tmp/home
export HOME
db="--dbpath $tmp/db"

# The working tree as git sees it, so that uncommitted changes are
# packaged too; its release tarball as a user makes it.
src=$tmp/src
pkg_copy "$src"
if ! (cd "$src" && ./autogen.sh && mkdir build && cd build &&
    ../configure && make dist) >"$tmp/dist.log" 2>&1; then
	tail -n 30 "$tmp/dist.log" | sed 's/^/# /'
	notok "make dist"
	finish
fi
tarball=$(ls "$src"/build/hvtop-*.tar.gz)
version=${tarball##*/hvtop-}
version=${version%.tar.gz}

check "rpm/hvtop.spec's Version: is configure's ($version)" \
    grep -qx "Version: *$version" "$src/rpm/hvtop.spec"

# What RHEL's build configuration (redhat-rpm-config) and
# systemd-rpm-macros give rpmbuild and Debian's rpm has not, written for
# this test: the systemd paths and scriptlets, the documents in
# /usr/share/doc/NAME, and the debuginfo package that takes the
# binaries' symbols.  Debian's /bin/sh is dash, and rpm's brp-compress,
# which gzips the manual pages, needs bash; the binaries are stripped
# by find-debuginfo.
cat >"$tmp/macros" <<'EOF'
%_unitdir /usr/lib/systemd/system
%_sysusersdir /usr/lib/sysusers.d
%_docdir_fmt %%{NAME}
%__os_install_post \
    bash %{_rpmconfigdir}/brp-compress %{_prefix}\
    %{_rpmconfigdir}/brp-elfperms\
    %{_rpmconfigdir}/brp-strip-static-archive %{__strip}\
    %{_rpmconfigdir}/brp-remove-la-files\
%{nil}
%systemd_ordering \
OrderWithRequires(post): systemd\
OrderWithRequires(preun): systemd\
OrderWithRequires(postun): systemd\
%{nil}
%systemd_post() \
if [ $1 -eq 1 ] && [ -x /usr/bin/systemctl ]; then\
    /usr/bin/systemctl --no-reload preset %{?*} >/dev/null 2>&1 || :\
fi\
%{nil}
%systemd_preun() \
if [ $1 -eq 0 ] && [ -x /usr/bin/systemctl ]; then\
    /usr/bin/systemctl --no-reload disable --now %{?*} >/dev/null 2>&1 || :\
fi\
%{nil}
%systemd_postun_with_restart() \
if [ $1 -ge 1 ] && [ -x /usr/bin/systemctl ]; then\
    /usr/bin/systemctl try-restart %{?*} >/dev/null 2>&1 || :\
fi\
%{nil}
%_enable_debug_packages 1
%_debugsource_packages 1
%install %{?_enable_debug_packages:%{?buildsubdir:%{debug_package}}}\
%%install\
%{nil}
EOF

# --nodeps: the BuildRequires are RHEL's and SLES's -devel packages,
# which no Debian machine has; Debian's own -dev packages (scripts/setup.sh)
# stand in for them.  make check ran already: --without check.
# shellcheck disable=SC2086  # $db is two words
if rpmbuild $db --load "$tmp/macros" --define "_topdir $tmp/top" \
    --define "_tmppath $tmp/tmp" --nodeps --without check \
    -ta "$tarball" >"$tmp/build.log" 2>&1; then
	ok "rpmbuild -ta hvtop-$version.tar.gz"
else
	tail -n 30 "$tmp/build.log" | sed 's/^/# /'
	notok "rpmbuild -ta hvtop-$version.tar.gz"
	finish
fi
# hvtop-VERSION-*, not hvtop-debuginfo-VERSION-*.
rpm=$(echo "$tmp"/top/RPMS/*/hvtop-"$version"-*.rpm)
srpm=$(echo "$tmp"/top/SRPMS/hvtop-"$version"-*.src.rpm)
for f in "$tmp"/top/RPMS/*/*.rpm "$srpm"; do
	echo "# ${f##*/}: $(wc -c <"$f") bytes"
done

# Errors and warnings fail, but for those rpm/hvtop.rpmlintrc explains.
rpmlint -r "$src/rpm/hvtop.rpmlintrc" "$src/rpm/hvtop.spec" "$rpm" \
    "$srpm" >"$tmp/rpmlint.log" 2>&1
sed -n '/: [EW]: /s/^/# /p; / checked; /{s/^ */# /;s/ *$//;p;}' \
    "$tmp/rpmlint.log"
rpmlint "$src/rpm/hvtop.spec" "$rpm" "$srpm" 2>&1 |
    sed -n 's/^ *\(.* checked; .*[^ ]\) *$/# without rpm\/hvtop.rpmlintrc: \1/p'
check "rpmlint: no error, no warning" \
    grep -q ' checked; 0 errors, 0 warnings' "$tmp/rpmlint.log"

# shellcheck disable=SC2086
rpm $db -qlp "$rpm" >"$tmp/files"
out=$(for f in /usr/bin/hvtop /usr/bin/hvcat \
    /usr/share/man/man1/hvtop.1.gz /usr/share/man/man1/hvcat.1.gz \
    /usr/share/hvtop/catalogs/power8.bin \
    /usr/share/hvtop/catalogs/power9.bin \
    /usr/share/hvtop/catalogs/power10.bin \
    /usr/share/doc/hvtop/README /usr/share/licenses/hvtop/LICENSE \
    /usr/lib/systemd/system/hvtop-exporter.service \
    /etc/sysconfig/hvtop-exporter /usr/lib/sysusers.d/hvtop.conf \
    $(cat "$src/hvtop.1.in" "$src/hvcat.1.in" |
    grep -o 'docs/[A-Za-z0-9_-]*\.md' | sort -u |
    sed 's|^docs/|/usr/share/doc/hvtop/|'); do
	grep -qxF "$f" "$tmp/files" || echo "$f"
done)
if [ -n "$out" ]; then
	# shellcheck disable=SC2086  # one a line
	printf '# not in the package: %s\n' $out
	notok "rpm -qlp: programs, manual pages, catalogs, docs, unit, user"
else
	ok "rpm -qlp: programs, manual pages, catalogs, docs, unit, user"
fi
# shellcheck disable=SC2086
check "/etc/sysconfig/hvtop-exporter is %config(noreplace)" \
    sh -c "rpm $db -qp --qf '[%{FILEFLAGS:fflags} %{FILENAMES}\n]' '$rpm' |
    grep -qx 'cn /etc/sysconfig/hvtop-exporter'"

(cd "$tmp/root" && rpm2cpio "$rpm" | cpio -idm --quiet) 2>"$tmp/cpio.log"
root=$tmp/root
entry=$(cat "$root/usr/lib/sysusers.d/hvtop.conf")

# The scriptlets: the user before the files, then the unit's presets on
# installation, its stop on removal and its restart on an upgrade.
# shellcheck disable=SC2086
rpm $db -qp --scripts "$rpm" >"$tmp/scripts"
check "%pre makes the user from the sysusers.d entry ($entry)" \
    sh -c "sed -n '/^preinstall scriptlet/,/^[a-z]* scriptlet/p' \
    '$tmp/scripts' >'$tmp/pre' &&
    grep -qF 'systemd-sysusers --replace=/usr/lib/sysusers.d/hvtop.conf -' \
    '$tmp/pre' && grep -qF '$entry' '$tmp/pre'"
# shellcheck disable=SC2086
check "the scriptlets are sh (sh -n)" \
    sh -c "for t in PREIN POSTIN PREUN POSTUN; do
    rpm $db -qp --qf \"%{\$t}\" '$rpm' >'$tmp/script' &&
    [ -s '$tmp/script' ] && sh -n '$tmp/script' || exit 1; done"
for s in "post:postinstall:preset" "preun:preuninstall:disable --now" \
    "postun:postuninstall:try-restart"; do
	n=${s%%:*}
	s=${s#*:}
	check "%$n runs systemctl ${s#*:} hvtop-exporter.service" \
	    sh -c "sed -n '/^${s%%:*} scriptlet/,/^[a-z]* scriptlet/p' \
	    '$tmp/scripts' | grep -q 'systemctl.* ${s#*:} hvtop-exporter.service'"
done

# The entry makes a system user without a shell (in a root of its own).
mkdir -p "$tmp/sysroot/etc"
check "systemd-sysusers makes the system user hvtop from the entry" \
    sh -c "systemd-sysusers --root='$tmp/sysroot' \
    '$root/usr/lib/sysusers.d/hvtop.conf' >/dev/null 2>&1 &&
    grep -q '^hvtop:x:[0-9]*:[0-9]*:hvtop exporter:/:.*nologin\$' \
    '$tmp/sysroot/etc/passwd' &&
    [ \$(cut -d: -f3 '$tmp/sysroot/etc/passwd' | sort -n | tail -n 1) \
    -lt 1000 ]"

# The unit is Debian's but for where its settings are; the settings are
# Debian's.
check "the unit is debian/'s, reading /etc/sysconfig/hvtop-exporter" \
    sh -c "sed -e 's|/etc/default/|/etc/sysconfig/|' \
    -e 's/defaults file/sysconfig file/g' \
    '$src/debian/hvtop.hvtop-exporter.service' |
    cmp -s - '$root/usr/lib/systemd/system/hvtop-exporter.service' &&
    grep -qx 'EnvironmentFile=-/etc/sysconfig/hvtop-exporter' \
    '$root/usr/lib/systemd/system/hvtop-exporter.service'"
check "/etc/sysconfig/hvtop-exporter is debian/'s defaults file" \
    cmp -s "$src/debian/hvtop.hvtop-exporter.default" \
    "$root/etc/sysconfig/hvtop-exporter"
mkdir -p "$tmp/unit"
sed "s|/usr/bin/hvtop |$root/usr/bin/hvtop |" \
    "$root/usr/lib/systemd/system/hvtop-exporter.service" \
    >"$tmp/unit/hvtop-exporter.service"
check "systemd-analyze verify hvtop-exporter.service (from the rpm)" \
    sh -c "out=\$(systemd-analyze verify --man=no \
    '$tmp/unit/hvtop-exporter.service' 2>&1) &&
    [ -z \"\$out\" ] || { printf '%s\n' \"\$out\" | sed 's/^/# /'; false; }"

# The programs run from the package's files.
check "hvtop --version, hvcat info power9 (the packaged catalog)" \
    sh -c "'$root/usr/bin/hvtop' --version | grep -qx 'hvtop $version' &&
    HVTOP_CATALOG_DIR='$root/usr/share/hvtop/catalogs' \
    '$root/usr/bin/hvcat' info power9 | grep -q '^catalog *power9\$'"
check "the README says how to build the rpm" \
    grep -q 'rpmbuild -ta hvtop-' "$src/README"
finish
