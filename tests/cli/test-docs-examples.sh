#!/bin/sh
# Every example command of hvtop(1), hvcat(1) and the README runs, as
# printed, against the simulator (docs-examples.py says how, and which
# are skipped and why); a command whose output the page shows prints it.
. "$(dirname "$0")/tap.sh"
command -v python3 >/dev/null 2>&1 || { echo "1..0 # SKIP no python3"; exit 0; }
mkdir -p "$tmpdir/work"
python3 "$top_srcdir/tests/cli/docs-examples.py" "$top_srcdir" \
    "$top_builddir" "$tmpdir/work"
