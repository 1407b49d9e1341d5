#!/bin/sh
# The simulated frame is consistent with the constants it declares: each
# clock counter a shipped catalog's formula pairs with PB_Freq, XBUS_Freq,
# ABUS_Freq or PHB_Freq counts at that rate, and each frequency formula
# reads the clock it measures (sim-clocks.py).
. "$(dirname "$0")/tap.sh"
command -v python3 >/dev/null 2>&1 || { echo "1..0 # SKIP no python3"; exit 0; }
python3 "$top_srcdir/tests/cli/sim-clocks.py" "$HVTOP"
