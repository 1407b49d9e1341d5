# TAP helpers for the shell tests; source this file.
#   plan N        ok COND-STATUS NAME      skip NAME REASON     diag TEXT
# Paths: $top_srcdir and $top_builddir come from the test harness.
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
HVTOP="$top_builddir/hvtop"
HVCAT="$top_builddir/hvcat"
DATA="$top_srcdir/tests/data"
tap_n=0
tap_failed=0
plan() { echo "1..$1"; }
diag() { printf '%s\n' "$*" | sed 's/^/# /'; }
pass() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $1"; }
fail() { tap_n=$((tap_n + 1)); tap_failed=1; echo "not ok $tap_n - $1"; }
skip() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $1 # SKIP $2"; }
# check NAME CMD...: pass when CMD succeeds.
check() { name=$1; shift; if "$@"; then pass "$name"; else fail "$name"; fi; }
# check_not NAME CMD...: pass when CMD fails.
check_not() { name=$1; shift; if "$@"; then fail "$name"; else pass "$name"; fi; }
# have PROGRAM: PROGRAM is on the PATH.
have() { command -v "$1" >/dev/null 2>&1; }

# until_ok SECONDS CMD...: poll until CMD succeeds, at most SECONDS (to
# the nanosecond: "within 1 s" means 1 s), every tenth of a second; CMD
# is tried once more at the deadline.  The one polling loop of the tests.
until_ok() {
	_end=$(($(date +%s%N) + $1 * 1000000000))
	shift
	while [ "$(date +%s%N)" -lt "$_end" ]; do
		"$@" && return 0
		sleep 0.1
	done
	"$@"
}
# at_least_lines N FILE [RE]: FILE has N lines or more (that match the
# basic regular expression RE, when given); false while FILE is missing.
at_least_lines() {
	if [ $# -gt 2 ]; then
		_c=$(grep -c -- "$3" "$2" 2>/dev/null)
	else
		_c=$(wc -l 2>/dev/null <"$2")
	fi
	[ "${_c:-0}" -ge "$1" ]
}
# at_least_bytes N FILE: FILE has N bytes or more.
at_least_bytes() {
	_c=$(wc -c 2>/dev/null <"$2")
	[ "${_c:-0}" -ge "$1" ]
}
# gone PID: the process has ended (a zombie counts).
gone() {
	case $(cut -d' ' -f3 "/proc/$1/stat" 2>/dev/null) in
	''|Z) return 0 ;;
	esac
	return 1
}

# reap PID [SECONDS]: wait for a background child and return its status,
# at most SECONDS (60): one that is still running then is killed and
# reaped (status 137), so a signal it lost fails a check instead of
# hanging the suite.  A child that exited but is not reaped yet is a
# zombie, which kill -0 still finds: /proc says which it is.
reap() {
	if ! until_ok "${2:-60}" gone "$1"; then
		diag "pid $1 still running after ${2:-60} s: killed"
		kill -KILL "$1" 2>/dev/null
	fi
	wait "$1"
}
tmpdir=$(mktemp -d "${TMPDIR:-/tmp}/hvtop-test.XXXXXX")

# caught PID SIG: PID is hvtop itself and has its handler for signal
# number SIG installed.  Between fork and exec, PID is still the test's
# shell, which catches TERM and INT through the traps below: a signal
# sent then is taken by the shell and never reaches hvtop.
caught() {
	[ "$(cat "/proc/$1/comm" 2>/dev/null)" = hvtop ] || return 1
	_m=$(awk '/^SigCgt:/ { print $2 }' "/proc/$1/status" 2>/dev/null)
	[ -n "$_m" ] && [ $(((0x$_m >> ($2 - 1)) & 1)) = 1 ]
}

# tmux_stop SOCKET: end a private tmux server and what runs in its panes.
# A program that loses its terminal exits on the hangup; one still there
# after 10 s is killed, so that no test leaves a process behind it (seen
# under ASan: LeakSanitizer's exit-time check waits forever for a thread
# to stop when the hangup comes as the program starts).
tmux_stop() {
	_tp=$(tmux -L "$1" list-panes -a -F '#{pane_pid}' 2>/dev/null)
	_all=$_tp
	# The panes' programs and theirs, three levels down.
	for _lvl in 1 2 3; do
		_next=""
		for _p in $_tp; do
			_next="$_next $(ps -o pid= --ppid "$_p" 2>/dev/null)"
		done
		_tp=$_next
		_all="$_all $_tp"
	done
	tmux -L "$1" kill-server >/dev/null 2>&1
	until_ok 10 tmux_ended && return 0
	# shellcheck disable=SC2086
	kill -KILL $_alive 2>/dev/null
	return 0
}
# tmux_ended: none of tmux_stop's $_all is left; the others in $_alive.
tmux_ended() {
	_alive=""
	for _p in $_all; do
		kill -0 "$_p" 2>/dev/null && _alive="$_alive $_p"
	done
	[ -z "$_alive" ]
}

# pandas_python: the first python3 that imports pandas (Debian's pandas
# is for Debian's python3, which may not be the first on the PATH);
# prints nothing and fails when none does.
pandas_python() {
	for _py in /usr/bin/python3 python3; do
		"$_py" -c 'import pandas' >/dev/null 2>&1 || continue
		echo "$_py"
		return 0
	done
	return 1
}

# tap_csvs: every CSV of hvtop's that the test left in $tmpdir loads the
# way people load it elsewhere (csv-check.py: Python's csv module, and
# pandas where it is installed); says which does not, and fails.
tap_csvs() {
	command -v python3 >/dev/null 2>&1 || return 0
	set --
	for f in $(find "$tmpdir" -type f -name '*.csv' 2>/dev/null); do
		[ "$(head -c 9 "$f")" = "time,seq," ] && set -- "$@" "$f"
	done
	[ $# -gt 0 ] || return 0
	py=python3
	pd=""
	if _pp=$(pandas_python); then
		py=$_pp
		pd=--pandas
	fi
	out=$("$py" "$top_srcdir/tests/cli/csv-check.py" $pd "$@" 2>&1) &&
	    return 0
	diag "a CSV hvtop wrote does not load:"
	diag "$out"
	return 1
}
# om_value NAME FILE: the value of an unlabelled sample in a scrape.
om_value() {
	awk -v n="$1" '{ k = $1; sub(/\{.*/, "", k) } k == n { print $2 }' "$2"
}

# scraped_after N FILE: one scrape of $url into FILE, whose
# hvtop_samples_total is above N.
scraped_after() {
	curl -s -m 5 -o "$2" "$url" || return 1
	_now=$(om_value hvtop_samples_total "$2")
	[ -n "$_now" ] && [ "$_now" -gt "$1" ]
}
# scrape_after N FILE: the same, at most 60 s of waiting.
scrape_after() { until_ok 60 scraped_after "$@"; }

# serve_start NAME ARGS...: hvtop ARGS (which name --serve) in the
# background, its output in $tmpdir/NAME.out and NAME.err; waits (at most
# 60 s) until it says where it serves.  Sets pid, also added to $pids,
# and url, the URL alone (empty, and a failure, when hvtop did not start).
serve_start() {
	_name=$1
	shift
	"$HVTOP" "$@" >"$tmpdir/$_name.out" 2>"$tmpdir/$_name.err" &
	pid=$!
	pids="$pids $pid"
	url=""
	until_ok 60 serve_said "$_name"
	[ -n "$url" ]
}
# serve_said NAME: hvtop, started by serve_start, said where it serves
# (sets url), or has ended.
serve_said() {
	url=$(sed -n 's/^hvtop: serving metrics at \([^ ]*\).*/\1/p' \
	    "$tmpdir/$1.err")
	[ -n "$url" ] || ! kill -0 "$pid" 2>/dev/null
}

# tls_cert KEY CERT: a new key and a self-signed certificate for
# 127.0.0.1 (its name and its subjectAltName), good for two days.
tls_cert() {
	openssl req -x509 -newkey rsa:2048 -nodes -days 2 \
	    -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 \
	    -keyout "$1" -out "$2" >/dev/null 2>&1
}

# prom_start CONFIG: a Prometheus server with CONFIG on a free loopback
# port (five tried at random), its data and prom.log in $tmpdir; waits
# (at most 30 s a port) until it is ready.  Sets ppid, also added to
# $pids (empty, and a failure, when none started), pport and api, the
# URL of its HTTP API.
prom_start() {
	ppid=""
	_tries=0
	while [ $_tries -lt 5 ] && [ -z "$ppid" ]; do
		pport=$(awk 'BEGIN { srand(); print 20000 + int(rand() * 40000) }')
		pport=$((pport + _tries))
		prometheus --config.file="$1" --storage.tsdb.path="$tmpdir/prom" \
		    --web.listen-address="127.0.0.1:$pport" >"$tmpdir/prom.log" 2>&1 &
		ppid=$!
		pids="$pids $ppid"
		# Ready, or gone (its port was taken: another one).
		until_ok 30 prom_settled
		kill -0 "$ppid" 2>/dev/null || ppid=""
		_tries=$((_tries + 1))
	done
	api="http://127.0.0.1:$pport/api/v1"
	[ -n "$ppid" ]
}

# prom_settled: the Prometheus of prom_start is ready, or has ended.
prom_settled() {
	curl -s -o /dev/null "http://127.0.0.1:$pport/-/ready" ||
	    ! kill -0 "$ppid" 2>/dev/null
}

# prom_up JOB: the Prometheus of prom_start says JOB's up is 1; its
# answer is kept in $tmpdir/up.json.
prom_up() {
	curl -s -G "$api/query" --data-urlencode "query=up{job=\"$1\"}" \
	    >"$tmpdir/up.json"
	grep -q '"value":\[[0-9.]*,"1"\]' "$tmpdir/up.json"
}

# tap_end [STATUS]: at exit, stop the processes the test started in the
# background (listed in $pids), check the CSVs, then remove $tmpdir; a
# test with an exit trap of its own calls it from there.  A signal that
# ends the test goes through the same exit (dash runs no EXIT trap for a
# signal it dies of), so a timeout or ^C leaves nothing behind either.
pids=""
tap_end() {
	rc=${1:-$?}
	for p in $pids; do
		kill "$p" 2>/dev/null
	done
	wait 2>/dev/null
	tap_csvs || rc=1
	rm -rf "$tmpdir"
	exit "$rc"
}
trap tap_end EXIT
trap 'exit 1' HUP INT PIPE TERM
# None of the user's own settings reach hvtop: an empty home, and no
# variable that names a settings file, a metrics folder or catalogs.
HOME=$tmpdir/home
mkdir -p "$HOME"
export HOME
unset XDG_CONFIG_HOME XDG_STATE_HOME HVTOP_CONFIG HVTOP_CATALOG_DIR
