#!/bin/sh
# scripts/check-floors.sh: the real tree passes, and two planted objects
# fail it with their file and symbol named: a pure folder that calls I/O
# (src/util calls src/sys) and a call up a floor (src/source calls
# src/session).  Output is TAP.
. "$(dirname "$0")/tap.sh"
trap 'rm -rf "$tmpdir"' EXIT
CHECK="$top_srcdir/scripts/check-floors.sh"
TABLE="$top_srcdir/src/layers.txt"
plan 7

out=$(sh "$CHECK" 2>&1)
check "the tree keeps its floors" test $? -eq 0
printf '%s\n' "$out" | grep '^not ok' | sed 's/^/# /'

# A tree of four files, each in a folder of the real table.
t="$tmpdir/tree"
mkdir -p "$t/src/util" "$t/src/sys" "$t/src/source" "$t/src/session"
cat >"$t/src/sys/plant-sys.c" <<'EOF'
int plant_sys_read(void) { return (1); }
EOF
cat >"$t/src/util/plant-pure.c" <<'EOF'
int plant_sys_read(void);
int plant_pure_parse(void) { return (plant_sys_read()); }
EOF
cat >"$t/src/session/plant-session.c" <<'EOF'
int plant_session_run(void) { return (2); }
EOF
cat >"$t/src/source/plant-source.c" <<'EOF'
int plant_session_run(void);
int plant_source_open(void) { return (plant_session_run()); }
EOF
for f in sys/plant-sys util/plant-pure session/plant-session \
    source/plant-source; do
	${CC:-cc} -c -o "$tmpdir/libplant_a-${f#*/}.o" "$t/src/$f.c" || break
done
(cd "$tmpdir" && ${AR:-ar} rc libplant.a libplant_a-*.o)
check "the planted objects build into an archive" test -f "$tmpdir/libplant.a"

out=$(top_srcdir="$t" LAYERS="$TABLE" \
    sh "$CHECK" "$tmpdir/libplant.a" 2>&1)
rc=$?
check "the planted archive fails the check" test $rc -ne 0
bad=$(printf '%s\n' "$out" | grep '^not ok')
printf '%s\n' "$bad" | sed 's/^/# /'
check "pure code calling I/O is named: file and symbol" sh -c \
    'printf "%s\n" "$1" | grep "src/util/plant-pure.c" |
    grep "pure code calls I/O" | grep -q "plant_sys_read()"' sh "$bad"
check "a call up a floor is named: file and symbol" sh -c \
    'printf "%s\n" "$1" | grep "src/source/plant-source.c" |
    grep "calls up a floor" | grep -q "plant_session_run()"' sh "$bad"
check "the objects that call down pass" test \
    "$(printf '%s\n' "$bad" | wc -l)" -eq 2

# A file in a folder the table does not know fails until it is placed.
mkdir -p "$t/src/newfolder"
mv "$t/src/sys/plant-sys.c" "$t/src/newfolder/"
out=$(top_srcdir="$t" LAYERS="$TABLE" \
    sh "$CHECK" "$tmpdir/libplant.a" 2>&1)
check "a folder without a floor is named" sh -c \
    'printf "%s\n" "$1" | grep -q "src/newfolder/plant-sys.c has no floor"' \
    sh "$out"
exit $tap_failed
