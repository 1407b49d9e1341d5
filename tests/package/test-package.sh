#!/bin/sh
# The Debian package, built as a user would build it: dpkg-buildpackage
# on a copy of the tree (the tree itself is never written to), lintian
# with no error and no warning, systemd-analyze verify on the exporter's
# unit, systemd-analyze security --offline on its sandbox and its system
# call filter against the calls hvtop makes; then,
# as root on a machine without hvtop installed, dpkg -i, the
# programs and the manual page from the installed paths, the unit's user
# with the unit's capabilities counting a whole CPU, dpkg -r leaving
# only conffiles, and dpkg --purge leaving the machine as it was.
# The documents the manual points at are installed, and nocheck skips
# the package's own run of the tests.
# Prints "ok NAME", "not ok NAME" or "SKIP NAME: why", then the totals.
top=$(cd "$(dirname "$0")/../.." && pwd)
pkg=package
. "$top/tests/package/pkg-lib.sh"
pkg_need git:git dpkg-buildpackage:dpkg-dev dh:debhelper lintian:lintian systemd-analyze:systemd
if [ ! -f "$top/debian/control" ]; then
	notok "the tree has no debian/control"
	finish
fi
if ! (cd "$top" && dpkg-checkbuilddeps) >/dev/null 2>&1; then
	skip build "unmet build dependencies: $(cd "$top" && dpkg-checkbuilddeps 2>&1)"
	finish
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/hvtop-package.XXXXXX") || exit 1
installed=no
# What dpkg -i adds outside the package's files: the user and the group
# hvtop (the postinst makes them, and the purge leaves them), the unit's
# files.  Recorded before, so that the test removes only what it made and
# finds what it did not put back.
machine() {
	echo "passwd: $(getent passwd hvtop)"
	echo "group: $(getent group hvtop)"
	ls -d /lib/systemd/system/hvtop* /etc/systemd/system/hvtop* \
	    /etc/systemd/system/*/hvtop* /etc/default/hvtop* 2>/dev/null
}
# unmake_user: remove the user and group hvtop that dpkg -i made.  With
# USERGROUPS_ENAB, deluser also takes a group of the user's name that was
# there before: that one is put back as it was.
# shellcheck disable=SC2317  # called by the trap
unmake_user() {
	grep -qx 'passwd: ' "$tmp/before" || return 0
	! getent passwd hvtop >/dev/null || deluser --system hvtop
	if grep -qx 'group: ' "$tmp/before"; then
		! getent group hvtop >/dev/null || groupdel hvtop
	elif ! getent group hvtop >/dev/null; then
		g=$(sed -n 's/^group: //p' "$tmp/before")
		members=${g##*:}
		g=${g%:*}
		groupadd -g "${g##*:}" hvtop &&
		    { [ -z "$members" ] || gpasswd -M "$members" hvtop; }
	fi
}
# shellcheck disable=SC2317  # called by the trap
cleanup() {
	if [ "$installed" = yes ]; then
		dpkg --purge hvtop >/dev/null 2>&1
		unmake_user >/dev/null 2>&1
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# The working tree as git sees it (tracked and new files, not the ignored
# build products), so that uncommitted changes are packaged too.
version=$(cd "$top" && dpkg-parsechangelog -S Version)
src=$tmp/hvtop-$version
pkg_copy "$src"

# make check ran already; the package's own run would only repeat it.
if (cd "$src" && DEB_BUILD_OPTIONS="nocheck parallel=2" \
    dpkg-buildpackage -us -uc -b) >"$tmp/build.log" 2>&1; then
	ok "dpkg-buildpackage -us -uc -b"
else
	tail -n 30 "$tmp/build.log" | sed 's/^/# /'
	notok "dpkg-buildpackage -us -uc -b"
	finish
fi
deb=$(ls "$tmp"/hvtop_"$version"_*.deb)
changes=$(ls "$tmp"/hvtop_"$version"_*.changes)

# Informational tags are shown; an error or a warning fails.
lintian -I "$changes" >"$tmp/lintian.log" 2>&1
sed -n '/^[A-Z]: /s/^/# /p' "$tmp/lintian.log"
check "lintian: no error, no warning" \
    sh -c "! grep -q '^[EW]: ' '$tmp/lintian.log'"

# The unit as shipped, its program pointed at the one just built (the
# manual page is checked installed, below).
mkdir -p "$tmp/root" "$tmp/unit"
dpkg-deb -x "$deb" "$tmp/root"

# Every docs/NAME.md the manual pages point at is in /usr/share/doc/hvtop
# under that name, as the manual's FILES says.
out=$(cat "$src/hvtop.1.in" "$src/hvcat.1.in" |
    grep -o 'docs/[A-Za-z0-9_-]*\.md' | sort -u |
    while IFS= read -r d; do
	[ -f "$tmp/root/usr/share/doc/hvtop/${d#docs/}" ] || echo "$d"
    done)
if [ -n "$out" ]; then
	# shellcheck disable=SC2086  # one a line
	printf '# not installed: %s\n' $out
	notok "the documents the manual points at are in /usr/share/doc/hvtop"
else
	ok "the documents the manual points at are in /usr/share/doc/hvtop"
fi
# The build above skipped the test suite as DEB_BUILD_OPTIONS=nocheck
# asks, and the README says how.
check "DEB_BUILD_OPTIONS=nocheck: the build runs no test" \
    sh -c "! grep -qE '^(PASS|FAIL|# TOTAL): ' '$tmp/build.log'"
check "the README says that the build runs the tests, and nocheck" \
    grep -q 'DEB_BUILD_OPTIONS=nocheck dpkg-buildpackage' "$src/README"
sed "s|/usr/bin/hvtop |$tmp/root/usr/bin/hvtop |" \
    "$tmp/root/lib/systemd/system/hvtop-exporter.service" \
    >"$tmp/unit/hvtop-exporter.service"
check "systemd-analyze verify hvtop-exporter.service (built)" \
    sh -c "out=\$(systemd-analyze verify --man=no '$tmp/unit/hvtop-exporter.service' 2>&1) &&
    [ -z \"\$out\" ] || { printf '%s\n' \"\$out\" | sed 's/^/# /'; false; }"

# The sandbox as systemd rates it: an exposure above today's 1.5 (a
# setting weakened or dropped) fails, as does anything it warns about.
if systemd-analyze security --help 2>/dev/null | grep -q -- --offline; then
	systemd-analyze security --offline=true --man=no --threshold=15 \
	    "$tmp/unit/hvtop-exporter.service" >"$tmp/security.out" \
	    2>"$tmp/security.err"
	st=$?
	echo "# $(grep 'Overall exposure' "$tmp/security.out")"
	if [ "$st" -eq 0 ] && [ ! -s "$tmp/security.err" ]; then
		ok "systemd-analyze security --offline: exposure 1.5 at most"
	else
		sed 's/^/# /' "$tmp/security.err"
		notok "systemd-analyze security --offline: exposure 1.5 at most"
	fi
else
	skip "systemd-analyze security" "this systemd has no --offline"
fi

# Every system call hvtop makes while it counts through perf and serves
# a scrape is one the unit's SystemCallFilter= lets through; a call
# outside it would fail with EPERM only in the service.
expand() {	# expand NAME|@GROUP...: the system calls, one a line
	for w; do
		case $w in
		@*) for x in $(systemd-analyze syscall-filter "$w" |
		    sed -n 's/^ \{1,\}\([@a-z0-9_-]\{1,\}\)$/\1/p'); do
			expand "$x"
		    done ;;
		*) echo "$w" ;;
		esac
	done
}
filter() {	# filter allow|deny: the unit's list, expanded
	sed -n 's/^SystemCallFilter=//p' "$tmp/unit/hvtop-exporter.service" |
	    while IFS= read -r l; do
		# shellcheck disable=SC2086  # a list of names
		case $l in
		"~"*) [ "$1" = deny ] && expand ${l#"~"} ;;
		*) [ "$1" = allow ] && expand $l ;;
		esac
	    done | sort -u
}
if ! command -v strace >/dev/null 2>&1 || ! command -v curl >/dev/null 2>&1; then
	skip "system calls" "no strace or no curl"
else
	# -n bounds the run should the test be killed.
	strace -f -qq -o "$tmp/strace.out" "$tmp/root/usr/bin/hvtop" -b \
	    -n 600 -d 0.1 \
	    --source perf --sysfs-root "$src/tests/data/sysfs/soft-pmu" \
	    --pmu soft -e cpu-clock --serve 127.0.0.1:0 2>"$tmp/serve.err" &
	pid=$!
	url=""
	i=0
	while [ $i -lt 300 ] && [ -z "$url" ] && kill -0 $pid 2>/dev/null; do
		url=$(sed -n 's/^hvtop: serving metrics at //p' "$tmp/serve.err")
		[ -n "$url" ] || sleep 0.1
		i=$((i + 1))
	done
	scraped=no
	[ -z "$url" ] || ! curl -sf "$url" >/dev/null || scraped=yes
	# hvtop's own pid (strace's first line): a signal to strace would
	# detach it and leave hvtop running.
	kill -TERM "$(sed -n '1s/^\([0-9]\{1,\}\) .*/\1/p' "$tmp/strace.out")" \
	    2>/dev/null
	wait $pid
	if [ "$scraped" = no ]; then
		sed 's/^/# /' "$tmp/serve.err" | head -n 5
		skip "system calls" "hvtop could not serve the software PMU here"
	else
		sed -n 's/^[0-9]\{1,\} \{1,\}\([a-z0-9_]\{1,\}\)(.*/\1/p' \
		    "$tmp/strace.out" | sort -u >"$tmp/used"
		filter allow >"$tmp/allow"
		filter deny >"$tmp/deny"
		out=$(comm -23 "$tmp/used" "$tmp/allow"; comm -12 "$tmp/used" "$tmp/deny")
		if [ -s "$tmp/used" ] && [ -z "$out" ]; then
			echo "# $(wc -l <"$tmp/used") system calls, all let through"
			ok "SystemCallFilter= lets through the calls hvtop makes"
		else
			# shellcheck disable=SC2086  # one a line
			printf '# refused: %s\n' $out
			notok "SystemCallFilter= lets through the calls hvtop makes"
		fi
	fi
fi

if [ "$(id -u)" -ne 0 ]; then
	skip install "not root (dpkg -i needs it)"
	finish
fi
if dpkg-query -W -f='${Status}\n' hvtop 2>/dev/null | grep -qv 'not-installed'; then
	skip install "hvtop is already on this machine ($(dpkg-query -W \
	    -f='${Version} ${Status}' hvtop)); it is left alone"
	finish
fi
machine >"$tmp/before"

installed=yes
if ! dpkg -i "$deb" >"$tmp/dpkg.log" 2>&1; then
	sed 's/^/# /' "$tmp/dpkg.log"
	notok "dpkg -i"
	finish
fi
ok "dpkg -i"
dpkg-query -L hvtop >"$tmp/files"
cat /var/lib/dpkg/info/hvtop.conffiles >"$tmp/conffiles" 2>/dev/null

check "/usr/bin/hvtop --version" \
    sh -c "/usr/bin/hvtop --version | grep -qx 'hvtop $version'"
check "/usr/bin/hvcat info power9 (the installed catalog)" \
    sh -c "/usr/bin/hvcat info power9 | grep -q '^catalog *power9\$'"
check "man -w hvtop, man -w hvcat" \
    sh -c "[ \"\$(man -w hvtop) \$(man -w hvcat)\" = \
    '/usr/share/man/man1/hvtop.1.gz /usr/share/man/man1/hvcat.1.gz' ]"
# hvtop report reads the chart library from the package it depends on.
check "hvtop report inlines libjs-dygraphs" \
    sh -c "cd '$tmp' && /usr/bin/hvtop -b -n 2 -d 0.1 --source sim \
    -w run.hvr >/dev/null && /usr/bin/hvtop report run.hvr -o run.html &&
    grep -q Dygraph run.html"
check "the exporter's user: a system user without a shell" \
    sh -c "getent passwd hvtop | grep -q ':/nonexistent:/usr/sbin/nologin\$'"
check "/etc/default/hvtop-exporter is a conffile" \
    grep -qx /etc/default/hvtop-exporter "$tmp/conffiles"
check "/etc/pcp/openmetrics/hvtop.url is a conffile, linked for PCP" \
    sh -c "grep -qx /etc/pcp/openmetrics/hvtop.url '$tmp/conffiles' &&
    [ \"\$(readlink /var/lib/pcp/pmdas/openmetrics/config.d/hvtop.url)\" = \
    /etc/pcp/openmetrics/hvtop.url ]"
check "systemd-analyze verify hvtop-exporter.service (installed)" \
    sh -c "out=\$(systemd-analyze verify /lib/systemd/system/hvtop-exporter.service 2>&1) &&
    [ -z \"\$out\" ] || { printf '%s\n' \"\$out\" | sed 's/^/# /'; false; }"

# The service's privileges without systemd: the installed hvtop as the
# unit's user, with the unit's ambient capabilities alone and no way to
# gain more, counts a whole CPU through perf (the kernel's software PMU
# under a fixed sysfs tree, which every machine has) as it would the
# hv_24x7 PMU.
unit=/lib/systemd/system/hvtop-exporter.service
user=$(sed -n 's/^User=//p' "$unit")
caps=$(sed -n 's/^AmbientCapabilities=//p' "$unit" | tr 'A-Z ' 'a-z,' |
    sed 's/cap_/+/g')
if ! command -v setpriv >/dev/null 2>&1; then
	skip "the unit's user and capabilities" "no setpriv (util-linux)"
else
	# A tree the user can read (the temporary folder is root's alone).
	cp -R "$src/tests/data/sysfs/soft-pmu" "$tmp/soft-pmu"
	chmod -R a+rX "$tmp/soft-pmu"
	chmod a+x "$tmp"
	setpriv --reuid "$user" --regid "$user" --clear-groups \
	    --no-new-privs --inh-caps "$caps" --ambient-caps "$caps" \
	    --bounding-set "-all,$caps" /usr/bin/hvtop -b -n 2 -d 0.1 \
	    --source perf --sysfs-root "$tmp/soft-pmu" --pmu soft \
	    -e cpu-clock >"$tmp/perfmon.out" 2>&1
	if grep -q '^hvtop .* perf soft' "$tmp/perfmon.out"; then
		ok "the unit's user, with $caps alone, counts a whole CPU"
	else
		sed 's/^/# /' "$tmp/perfmon.out" | head -n 5
		notok "the unit's user, with $caps alone, counts a whole CPU"
	fi
fi

# systemctl reload: the unit's ExecReload= sent to such a run serving
# the counters leaves it serving.
reload=$(sed -n 's/^ExecReload=//p' "$unit")
if ! command -v setpriv >/dev/null 2>&1 || ! command -v curl >/dev/null 2>&1
then
	skip "the unit's reload" "no setpriv (util-linux) or no curl"
elif [ -z "$reload" ]; then
	notok "the unit has an ExecReload="
else
	# -n bounds the run should the test be killed.
	setpriv --reuid "$user" --regid "$user" --clear-groups \
	    --no-new-privs --inh-caps "$caps" --ambient-caps "$caps" \
	    --bounding-set "-all,$caps" /usr/bin/hvtop -b -n 600 -d 0.1 \
	    --source perf --sysfs-root "$tmp/soft-pmu" --pmu soft \
	    -e cpu-clock --serve 127.0.0.1:0 2>"$tmp/reload.err" &
	pid=$!
	url=""
	i=0
	while [ $i -lt 300 ] && [ -z "$url" ] && kill -0 $pid 2>/dev/null; do
		url=$(sed -n 's/^hvtop: serving metrics at //p' "$tmp/reload.err")
		[ -n "$url" ] || sleep 0.1
		i=$((i + 1))
	done
	# The command as systemd runs it, $MAINPID being hvtop's pid.
	setpriv --reuid "$user" --regid "$user" --clear-groups \
	    sh -c "$(printf '%s' "$reload" | sed "s/[$]MAINPID/$pid/")"
	i=0
	while [ $i -lt 300 ] && ! grep -q SIGHUP "$tmp/reload.err"; do
		sleep 0.1
		i=$((i + 1))
	done
	if [ -n "$url" ] && grep -q SIGHUP "$tmp/reload.err" &&
	    kill -0 $pid 2>/dev/null && curl -sf "$url" |
	    grep -q '^hvtop_events_total{'; then
		ok "ExecReload= ($reload) leaves the service serving"
	else
		sed 's/^/# /' "$tmp/reload.err" | head -n 5
		notok "ExecReload= ($reload) leaves the service serving"
	fi
	kill $pid 2>/dev/null
	wait $pid
fi

# What is left of the package's files (directories shared with other
# packages aside).
left() {
	while IFS= read -r f; do
		[ -d "$f" ] && continue
		[ -e "$f" ] || [ -L "$f" ] || continue
		grep -qxF "$f" "$tmp/conffiles" && [ "$1" = remove ] && continue
		echo "# left: $f"
	done <"$tmp/files"
}
dpkg -r hvtop >"$tmp/dpkg.log" 2>&1 || sed 's/^/# /' "$tmp/dpkg.log"
out=$(left remove)
if [ -z "$out" ] && [ -f /etc/default/hvtop-exporter ]; then
	ok "dpkg -r leaves only conffiles"
else
	printf '%s\n' "$out"
	notok "dpkg -r leaves only conffiles"
fi

# The purge removes the conffiles and the unit's enablement; the system
# user and group stay, as Debian's packages leave theirs, so the test
# removes the ones the package made.
dpkg --purge hvtop >"$tmp/dpkg.log" 2>&1 || sed 's/^/# /' "$tmp/dpkg.log"
installed=no
unmake_user >/dev/null 2>&1
out=$(left purge)
machine >"$tmp/after"
if ! cmp -s "$tmp/before" "$tmp/after"; then
	out="$out
$(diff "$tmp/before" "$tmp/after" | sed -n 's/^> /# left: /p; s/^< /# gone: /p')"
fi
for f in /etc/systemd/system/multi-user.target.wants/hvtop-exporter.service \
    /var/lib/systemd/deb-systemd-helper-enabled/hvtop-exporter.service.dsh-also; do
	if [ -e "$f" ] || [ -L "$f" ]; then
		out="$out
# left: $f"
	fi
done
if dpkg-query -W -f='${Status}\n' hvtop 2>/dev/null | grep -qv 'not-installed'; then
	out="$out
# left: hvtop in dpkg's database"
fi
if [ -z "$out" ]; then
	ok "dpkg --purge leaves the machine as it was"
else
	printf '%s\n' "$out"
	notok "dpkg --purge leaves the machine as it was"
fi
finish
