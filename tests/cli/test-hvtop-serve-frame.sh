#!/bin/sh
# hvtop --serve says which frame it describes, so that a fleet adds up
# frames once: the frame label on every hvtop_* series, the frame and
# partition info, the capabilities (collect=0 is a partition without the
# HMC's permission), no partition label on the physical series,
# partitions summed over their vcpus unless --serve-vcpus, the gauges
# of each partition, and process_* for the serving process.
. "$(dirname "$0")/tap.sh"
plan 15

if ! have curl; then
	while [ "$tap_n" -lt 15 ]; do
		skip "serve frame" "curl is not installed (apt-get install curl)"
	done
	exit 0
fi

F='frame="9080-M9S\*ABC123"'
serve_start a -b --sim clock=real,serial=ABC123,name=rack7,lpar=2 -d 0.5 \
    -g CPM_32MHZ_CYC@lpar -g PowerBus --serve 127.0.0.1:0
check "hvtop --serve starts with the frame's identity" test -n "$url"
scrape_after 2 "$tmpdir/a"
check "every hvtop_ sample names the frame" sh -c \
    "! grep '^hvtop_' '$tmpdir/a' | grep -v '$F' | grep -q ."
check "the frame's info" grep -q "^hvtop_frame_info{$F,model=\"9080-M9S\",serial=\"ABC123\",name=\"rack7\"} 1$" "$tmpdir/a"
check "the partition's info" grep -q "^hvtop_lpar_info{$F,lpar=\"2\",name=\"lpar2\",mode=\"shared\"} 1$" "$tmpdir/a"
check "it sees the frame and the partitions" sh -c \
    "grep -q '^hvtop_capability{$F,lpar=\"2\",capability=\"frame\"} 1$' '$tmpdir/a' &&
    grep -q '^hvtop_capability{$F,lpar=\"2\",capability=\"partitions\"} 1$' '$tmpdir/a'"
check_not "no partition label on a chip's series" sh -c \
    "grep '^hvtop_events_total{.*domain=\"phys_chip\"' '$tmpdir/a' | grep -q 'lpar='"
check_not "partitions summed over their vcpus: no vcpu label" \
    grep -q '^hvtop_events_total{.*vcpu=' "$tmpdir/a"
gauges=0
for g in cycles_per_second cores ipc off_home_chip_ratio remote_ratio; do
	grep -q "^hvtop_lpar_$g{$F,lpar=\"3\"} [0-9]" "$tmpdir/a" &&
	    gauges=$((gauges + 1))
done
check "the five gauges of a partition" test "$gauges" = 5
check "process_ metrics without the frame" sh -c \
    "grep -q '^process_resident_memory_bytes [0-9]' '$tmpdir/a' &&
    grep -q '^process_cpu_seconds_total [0-9]' '$tmpdir/a' &&
    grep -q '^process_open_fds [0-9]' '$tmpdir/a'"
# The start time as the kernel keeps it: now less ps' elapsed seconds.
st=$(sed -n 's/^process_start_time_seconds \([0-9.e+]*\)$/\1/p' "$tmpdir/a")
ps_start=$(( $(date +%s) - $(ps -o etimes= -p "$pid") ))
check "process_start_time_seconds is the kernel's ($st, ps $ps_start)" \
    awk -v a="$st" -v b="$ps_start" 'BEGIN { d = a - b; if (d < 0) d = -d
	exit !(a > 0 && d <= 2) }'
if have promtool; then
	check "promtool accepts the scrape" sh -c \
	    "promtool check metrics <'$tmpdir/a' >'$tmpdir/lint' 2>&1"
	diag "$(head -5 "$tmpdir/lint")"
else
	skip "promtool accepts the scrape" \
	    "promtool is not installed (apt-get install prometheus)"
fi

# Per virtual processor when asked.
serve_start v -b --sim clock=real -d 0.5 -g CPM_32MHZ_CYC@lpar \
    --serve-vcpus --serve 127.0.0.1:0
scrape_after 1 "$tmpdir/v"
check "--serve-vcpus: a series per vcpu" grep -q \
    '^hvtop_events_total{.*lpar="3",vcpu="0",placement="home_core",' "$tmpdir/v"

# A partition without the HMC's permission: blind to the frame.
serve_start b -b --sim clock=real,collect=0 -d 0.5 --serve 127.0.0.1:0
i=0
until curl -s -m 5 -o "$tmpdir/b" "$url" &&
    grep -q '^hvtop_capability' "$tmpdir/b" || [ $i -ge 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
check "collect=0: the frame is not visible" grep -q \
    '^hvtop_capability{frame="9080-M9S\*SIMFRAME1",lpar="1",capability="frame"} 0$' "$tmpdir/b"
check "collect=0: nor the partitions" grep -q \
    'capability="partitions"} 0$' "$tmpdir/b"
check "collect=0: the counters are" grep -q 'capability="pmu"} 1$' "$tmpdir/b"
