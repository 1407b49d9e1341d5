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
tmpdir=$(mktemp -d "${TMPDIR:-/tmp}/hvtop-test.XXXXXX")
trap 'rm -rf "$tmpdir"' EXIT
# None of the user's own settings reach hvtop: an empty home, and no
# variable that names a settings file, a metrics folder or catalogs.
HOME=$tmpdir/home
mkdir -p "$HOME"
export HOME
unset XDG_CONFIG_HOME XDG_STATE_HOME HVTOP_CONFIG HVTOP_CATALOG_DIR
