# Shared by scripts/run, scripts/test and scripts/bench: install what the
# build needs, then configure and build in a directory of the source tree.
# Source it; it defines hv_deps and hv_build.  Messages go to stderr so the
# programs' own output stays clean.

hv_top=$(cd "$(dirname "$0")/.." && pwd)

# Debian packages the build and the test suite use, and why:
#   build-essential autoconf automake pkg-config  the toolchain
#   libncurses-dev libreadline-dev                the terminal interface
#   libjansson-dev                                JSON in and out
#   libcmocka-dev                                 unit tests
#   tmux                                          terminal tests
#   clang libclang-rt-14-dev                      fuzzers (libFuzzer)
#   libmicrohttpd-dev                             the --serve endpoint: an
#                                                 HTTP/1.1 server with
#                                                 connection limits and
#                                                 timeouts that hvtop
#                                                 need not write itself
#   libgnutls28-dev                               the endpoint's TLS is
#                                                 libmicrohttpd's GnuTLS;
#                                                 hvtop checks a client's
#                                                 certificate on its
#                                                 session (mutual TLS)
#   libcrypt-dev                                  --web-config's bcrypt
#                                                 passwords, checked with
#                                                 the system's crypt(3)
#   libjs-dygraphs                                the charts of hvtop report,
#                                                 inlined into each page
#   zlib1g-dev                                    gzip of --serve's answer
#                                                 for a scraper that asks
#                                                 (Prometheus does)
hv_packages="build-essential autoconf automake pkg-config libncurses-dev
libreadline-dev libjansson-dev libcmocka-dev tmux clang libclang-rt-14-dev
libmicrohttpd-dev libgnutls28-dev libcrypt-dev libjs-dygraphs zlib1g-dev"

# For tests only, installed when they can be; a test whose tool is
# missing says SKIP with the reason:
#   prometheus   promtool checks what --serve answers, and a real
#                Prometheus server scrapes it
#   curl         scrapes the endpoint from the shell tests
#   wrk          the load run against the endpoint
#   python3-pandas loads every CSV the batch tests write with
#                pandas.read_csv, as users load them
#   chromium     loads the pages of hvtop report headless, as a browser
#                shows them, and draws their charts
#   faketime     libfaketime steps the clock back under a running hvtop,
#                which must go on sampling and answer SIGTERM at once
#   debhelper lintian systemd  build the Debian package with
#                dpkg-buildpackage, check it with lintian, and check
#                its exporter unit with systemd-analyze verify
#   rpm rpmlint elfutils  build the RPM package with rpmbuild (elfutils'
#                eu-strip moves its symbols into hvtop-debuginfo), and
#                check it with rpmlint
#   openssl perl  --web-config's test makes a self-signed certificate
#                with openssl and bcrypt hashes with perl's crypt, which
#                is the system's crypt(3) (no htpasswd or mkpasswd needed)
#   strace       counts the system calls of hvtop's batch loop, and
#                lists those the exporter unit's system call filter
#                must let through
#   pcp python3-requests  PCP's openmetrics agent (pmdaopenmetrics, a
#                Python agent that fetches with requests) reads the
#                endpoint under a pmcd the test starts, and pminfo
#                shows what it got
hv_test_packages="prometheus curl wrk python3-pandas chromium faketime
debhelper lintian systemd rpm rpmlint elfutils strace openssl perl pcp
python3-requests"

hv_say() { printf 'hvtop: %s\n' "$*" >&2; }

hv_missing() {
	missing=""
	for p in "$@"; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
		    grep -q '^install ok installed$' || missing="$missing $p"
	done
}

# Install every missing package; installs nothing when all are present.
# The test-only packages are tried last, and failing them is not fatal.
hv_deps() {
	# shellcheck disable=SC2086
	hv_missing $hv_packages
	if [ -n "$missing" ]; then
		hv_install || return 1
	fi
	# shellcheck disable=SC2086
	hv_missing $hv_test_packages
	if [ -n "$missing" ]; then
		hv_install || hv_say "could not install$missing: the tests" \
		    "that need them will say SKIP"
	fi
	return 0
}

# Install the packages in $missing with the host's apt.  An index that
# fails to download (a mirror caught mid-sync, a suite or an architecture
# hvtop installs nothing from) does not stop it: apt-get update's errors
# are shown, and the install is tried on the lists apt has.  Only a
# package apt then cannot install is an error, and it is named.  The
# lists are fetched once per run.
hv_updated=no
hv_install() {
	hv_say "installing missing packages:$missing"
	if [ "$(id -u)" -eq 0 ]; then
		sudo=""
	elif command -v sudo >/dev/null 2>&1; then
		sudo="sudo"
	else
		hv_say "not root and no sudo: install$missing by hand"
		return 1
	fi
	export DEBIAN_FRONTEND=noninteractive
	hv_log=$(mktemp) || return 1
	if [ "$hv_updated" = no ]; then
		hv_updated=yes
		# Progress on stderr as it comes; apt's errors kept, then
		# shown.
		if ! $sudo apt-get update -q >&2 2>"$hv_log"; then
			hv_updated=failed
			sed 's/^/  /' "$hv_log" >&2
			hv_say "apt-get update failed for the indexes above;" \
			    "going on with the package lists apt has"
		fi
	fi
	# A machine not booted with systemd (a container) still has
	# systemctl once systemd is installed, and some maintainer scripts
	# (pcp's) call it without asking whether systemd runs: it fails
	# there, and so would the install.  For the install alone, a
	# systemctl that does nothing comes first on PATH: apt's own
	# (DPkg::Path), since apt hands dpkg a PATH of its choosing.
	hv_path=$PATH
	if [ ! -d /run/systemd/system ]; then
		hv_shim=$(mktemp -d) || return 1
		printf '#!/bin/sh\nexit 0\n' >"$hv_shim/systemctl"
		chmod 755 "$hv_shim/systemctl"
		hv_path=$hv_shim:$PATH
	fi
	# shellcheck disable=SC2086
	if $sudo env PATH="$hv_path" apt-get install -y -q \
	    -o DPkg::Path="$hv_path" --no-install-recommends $missing \
	    >&2 2>"$hv_log"; then
		cat "$hv_log" >&2
		rm -f "$hv_log"
		[ -z "${hv_shim:-}" ] || rm -rf "$hv_shim"
		return 0
	fi
	[ -z "${hv_shim:-}" ] || rm -rf "$hv_shim"
	sed 's/^/  /' "$hv_log" >&2
	rm -f "$hv_log"
	absent=""
	for p in $missing; do
		c=$(apt-cache policy "$p" 2>/dev/null |
		    sed -n 's/^ *Candidate: //p')
		[ -n "$c" ] && [ "$c" != "(none)" ] || absent="$absent $p"
	done
	[ -z "$absent" ] ||
	    hv_say "no package list apt could read offers:$absent"
	[ "$hv_updated" != failed ] ||
	    hv_say "(apt-get update failed too: see its errors above)"
	hv_say "apt-get install failed: could not install$missing"
	return 1
}

# hv_build DIR [configure options...]: autogen, configure and make as
# needed.  The log of each step is kept in DIR/build.log.
hv_build() {
	bdir=$hv_top/$1
	shift
	if [ ! -x "$hv_top/configure" ] ||
	    [ "$hv_top/configure.ac" -nt "$hv_top/configure" ]; then
		hv_say "running autogen.sh"
		(cd "$hv_top" && ./autogen.sh) >/dev/null 2>&1 || {
			hv_say "autogen.sh failed"
			(cd "$hv_top" && ./autogen.sh) >&2
			return 1
		}
	fi
	mkdir -p "$bdir"
	if [ ! -f "$bdir/Makefile" ] ||
	    [ "$(cat "$bdir/.hv-configured" 2>/dev/null)" != "$*" ]; then
		hv_say "configuring in ${bdir#"$hv_top"/} $*"
		(cd "$bdir" && "$hv_top/configure" "$@") >"$bdir/build.log" 2>&1 || {
			tail -n 30 "$bdir/build.log" >&2
			hv_say "configure failed (log: $bdir/build.log)"
			return 1
		}
		printf '%s' "$*" >"$bdir/.hv-configured"
	fi
	jobs=$(nproc 2>/dev/null || echo 2)
	make -C "$bdir" -j"$jobs" >>"$bdir/build.log" 2>&1 || {
		grep -E 'error|Error' "$bdir/build.log" | tail -n 30 >&2
		hv_say "build failed (log: $bdir/build.log)"
		return 1
	}
}
