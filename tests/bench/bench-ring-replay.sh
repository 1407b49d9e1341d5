#!/bin/sh
# The replay of a whole ring's window (hvtop -b -r DIR, CSV to
# /dev/null), on a day of the overview at 1 s (the simulated frame on a
# virtual clock, seed 1) in a ring of 16M, a segment an hour:
#   ring.replay.bytes        the ring's bytes
#   ring.replay.whole.rss    peak resident memory of the whole ring's
#                            replay (ru_maxrss)
#   ring.replay.whole.wall   its wall time, and .cpu its CPU time
#   ring.replay.last.rss     the same for a window within the last
#                            segment: what a replay takes without the
#                            rest of the ring
#   ring.replay.added        whole.rss - last.rss: what the window's
#                            length costs in memory
# A smoke run (HVTOP_BENCH_SMOKE set) records 600 samples into 1M.
# HVTOP_BUILD is the build directory (scripts/bench sets it).
b=${HVTOP_BUILD:-build}
here=$(dirname "$0")
n=86400
size=16M
[ -z "${HVTOP_BENCH_SMOKE:-}" ] || { n=600; size=1M; }
t=$(mktemp -d "${TMPDIR:-/tmp}/hvtop-bench.XXXXXX")
trap 'rm -rf "$t"' EXIT
command -v python3 >/dev/null 2>&1 || { echo "python3 is needed" >&2; exit 77; }

"$b/hvtop" -b -d 1 -n "$n" --sim clock=virtual,seed=1 -w "$t/r" \
    --ring-size "$size" -o /dev/null || exit 1
echo "ring.replay.bytes $(find "$t/r" -type f -exec cat {} + | wc -c) bytes"
python3 "$here/rusage.py" "$t/whole" "$b/hvtop" -b -r "$t/r" \
    --format csv -o /dev/null || exit 1
# The last segment's start, as hvcat info lists it: a window within it.
last=$(ls "$t/r" | tail -n 1 | sed -n \
    's/^hvtop-\([0-9]\{8\}\)T\([0-9]\{6\}\)Z-.*/\1 \2/p' |
    awk '{ printf "%s-%s-%sT%s:%s:%sZ", substr($1, 1, 4), substr($1, 5, 2),
    substr($1, 7, 2), substr($2, 1, 2), substr($2, 3, 2), substr($2, 5, 2) }')
python3 "$here/rusage.py" "$t/last" "$b/hvtop" -b -r "$t/r" \
    --from "$last" --format csv -o /dev/null || exit 1
read -r cpu wall rss <"$t/whole"
read -r _ _ lrss <"$t/last"
echo "ring.replay.whole.rss $rss KiB"
echo "ring.replay.whole.wall $wall s"
echo "ring.replay.whole.cpu $cpu s"
echo "ring.replay.last.rss $lrss KiB"
echo "ring.replay.added $((rss - lrss)) KiB"
