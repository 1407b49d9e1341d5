#!/bin/sh
# The cost of hvtop against perf stat -I in the virtual LPAR, in two
# boots.  First on the same 10 events of one chip (the Memory_BW and
# PowerBus groups) and the same 0.5 s interval, each run alone in its
# steady state for 40 intervals (tests/guest/guest-truth.sh, part cost):
#   guest.cpu_ratio          hvtop's CPU per interval / perf stat's (the
#                           run time of the process's threads in the
#                           guest, in ns, from /proc/PID/task/*/schedstat;
#                           TCG makes absolute times meaningless, a ratio
#                           is not)
#   guest.hvtop.calls        H_GET_24X7_DATA calls per interval, hvtop
#   guest.perf.calls         the same for perf stat
#   guest.hvtop.cpu, guest.perf.cpu   the CPU per interval, in ms
# Then on a frame of 65 partitions of 8 vcpus: hvtop's
# -g CPM_32MHZ_CYC@lpar:1-64 on the perf source and perf stat -I on the
# same 8,192 counters (4 events x 4 placements x 8 vcpus x 64
# partitions, an -e each), 1 s intervals, each alone for 20 intervals
# once it has opened its events (part lcost):
#   guest.part.cpu_ratio     median CPU per interval, hvtop / perf stat
#   guest.part.hvtop.cpu, guest.part.perf.cpu   those medians, in ms
#   guest.part.hvtop.calls, guest.part.perf.calls   median calls per
#                           interval
#   guest.part.hvtop.start, guest.part.perf.start   seconds from start to
#                           the first interval's output (the opens)
#   guest.part.counters      the counters each reads
# The figures are medians over the intervals between two samples of
# the tool's CPU time, taken every second by the guest's clock.  The
# calls are counted on the hypervisor's side (its per-call
# trace).  Boots the partition: run it with scripts/bench -n 3 guest.  A
# smoke run (HVTOP_BENCH_SMOKE set) measures 2 s after 4 s for the
# first, 3 intervals of 2 partitions of 2 vcpus for the second, and
# never builds the partition: without it built, it says why and exits
# 77 (a skip).
top=$(cd "$(dirname "$0")/../.." && pwd)
cost=cost
ld=1
lspec="lpars=65,vcpus=8"
lcost="lcost d=$ld m=20 lp=64 lv=8 wmax=1200"
ltimeout=3000
if [ -n "${HVTOP_BENCH_SMOKE:-}" ]; then
	c=${HVTOP_GUEST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hvtop-guest}
	if ! ls "$c"/qemu-*/build/qemu-system-ppc64 "$c"/vmlinux-* \
	    "$c"/initramfs-*.cpio.gz >/dev/null 2>&1; then
		echo "bench-guest: the virtual LPAR is not built" \
		    "(scripts/guest --build builds it)" >&2
		exit 77
	fi
	cost="cost w=4 m=2"
	lspec="lpars=3,vcpus=2"
	lcost="lcost d=$ld m=3 lp=2 lv=2 wmax=120"
	ltimeout=600
fi
t=$(mktemp -d "${TMPDIR:-/tmp}/hvtop-bench-guest.XXXXXX")
trap 'rm -rf "$t"' EXIT
HVTOP_HV24X7_TRACE=1 HVTOP_GUEST_CONSOLE="$t/console" \
    "$top/scripts/guest" --sim \
    "catalog=power9,sockets=2,chips_per_socket=2,cores=4" -- \
    sh -c "$(cat "$top/tests/guest/guest-truth.sh")" sh $cost \
    >"$t/out" 2>"$t/err" || { tail -n 20 "$t/err" >&2; exit 1; }
tr -d '\r' <"$t/console" | awk '
	/^@@ cost (hvtop|perf)$/ { cur = $3; next }
	/^@@ / { cur = ""; next }
	cur != "" && /^hv24x7: H_GET_24X7_DATA / { calls[cur]++ }
	END { for (k in calls) print "calls", k, calls[k] }' >"$t/calls"
sed -n 's/^@@ cpu //p' "$t/out" | sed 's/^/cpu /' >>"$t/calls"
# The raw figures, for a look (scripts/bench keeps stdout only).
cat "$t/calls" >&2
awk '
	$1 == "calls" { c[$2] = $3 }
	$1 == "cpu" { cpu[$2] = $3; n[$2] = $4 }
	END {
		if (n["hvtop"] == 0 || n["perf"] == 0) {
			print "guest.failed 1 run"
			exit 1
		}
		# No hcall while measured: the tool was still opening its
		# events (slow under TCG), and its CPU is its start-up.
		if (c["hvtop"] == 0 || c["perf"] == 0) {
			print "bench-guest: a tool made no hcall while" \
			    " measured (not started within w seconds):" \
			    " no figure" >"/dev/stderr"
			print "guest.failed 1 run"
			exit 1
		}
		h = cpu["hvtop"] / n["hvtop"] / 1e6
		p = cpu["perf"] / n["perf"] / 1e6
		if (p > 0)
			printf "guest.cpu_ratio %.3f ratio\n", h / p
		printf "guest.hvtop.calls %.2f calls\n", c["hvtop"] / n["hvtop"]
		printf "guest.perf.calls %.2f calls\n", c["perf"] / n["perf"]
		printf "guest.hvtop.cpu %.3f ms\n", h
		printf "guest.perf.cpu %.3f ms\n", p
	}' "$t/calls" || rc=1

# The partitions: a second boot, on a frame of its own.
# shellcheck disable=SC2086  # the part's words
HVTOP_GUEST_TIMEOUT=$ltimeout HVTOP_HV24X7_TRACE=1 \
    HVTOP_GUEST_CONSOLE="$t/pconsole" \
    "$top/scripts/guest" --sim \
    "catalog=power9,sockets=2,chips_per_socket=2,cores=4,$lspec" -- \
    sh -c "$(cat "$top/tests/guest/guest-truth.sh")" sh $lcost \
    >"$t/pout" 2>"$t/perr" || { tail -n 20 "$t/perr" >&2; exit 1; }
grep -E '^@@ (lcost counters|ready|unready)' "$t/pout" >&2
sed -n '/^@@ unready/,/^@@/p' "$t/pout" | sed '/^@@ /d' >&2
tr -d '\r' <"$t/pconsole" | awk -v d="$ld" '
	# median(a, n): the median of a[1..n], sorting a.
	function median(a, n,   i, j, t) {
		for (i = 2; i <= n; i++) {
			t = a[i]
			for (j = i - 1; j >= 1 && a[j] > t; j--)
				a[j + 1] = a[j]
			a[j + 1] = t
		}
		return (n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2)
	}
	$1 == "@@" && $2 == "tick" && NF == 5 && $4 ~ /^[0-9]+$/ &&
	    $5 ~ /^[0-9]+$/ {
		nm = $3
		# A tool works once an interval, at its own moment: an
		# interval between two samples holds that work once, but
		# one that spans two (a sample lost) is left out.
		if (nm in up && $4 - up[nm] < 1.5e9 * d) {
			k = ++n[nm]
			cpu[nm, k] = ($5 - ns[nm]) / 1e6
			hc[nm, k] = calls
		}
		all[nm] += calls
		up[nm] = $4
		ns[nm] = $5
		cur = nm
		calls = 0
		next
	}
	/^@@ lcost counters / { counters = $4 }
	/^@@ ready / { start[$3] = $5 }
	/^@@ / { cur = ""; next }
	cur != "" && /^hv24x7: H_GET_24X7_DATA / { calls++ }
	END {
		for (i = 1; i <= 2; i++) {
			nm = i == 1 ? "hvtop" : "perf"
			if (n[nm] == 0 || all[nm] == 0) {
				print "bench-guest: " nm " gave no interval" \
				    " with hcalls (not started within" \
				    " wmax seconds?): no figure" >"/dev/stderr"
				print "guest.part.failed 1 run"
				exit 1
			}
			for (k = 1; k <= n[nm]; k++) {
				a[k] = cpu[nm, k]
				b[k] = hc[nm, k]
			}
			mc[nm] = median(a, n[nm])
			mh[nm] = median(b, n[nm])
		}
		if (mc["perf"] > 0)
			printf "guest.part.cpu_ratio %.3f ratio\n",
			    mc["hvtop"] / mc["perf"]
		printf "guest.part.hvtop.cpu %.3f ms\n", mc["hvtop"]
		printf "guest.part.perf.cpu %.3f ms\n", mc["perf"]
		printf "guest.part.hvtop.calls %.2f calls\n", mh["hvtop"]
		printf "guest.part.perf.calls %.2f calls\n", mh["perf"]
		printf "guest.part.hvtop.start %d s\n", start["hvtop"]
		printf "guest.part.perf.start %d s\n", start["perf"]
		printf "guest.part.counters %d counters\n", counters
	}' || rc=1
exit "${rc:-0}"
