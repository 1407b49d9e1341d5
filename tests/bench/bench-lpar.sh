#!/bin/sh
# The cost of hvtop against perf stat -I in the virtual LPAR, in two
# boots.  First on the same 10 events of one chip (the Memory_BW and
# PowerBus groups) and the same 0.5 s interval, each run alone in its
# steady state for 40 intervals (tests/lpar/guest-truth.sh, part cost):
#   lpar.cpu_ratio          hvtop's CPU per interval / perf stat's (the
#                           run time of the process's threads in the
#                           guest, in ns, from /proc/PID/task/*/schedstat;
#                           TCG makes absolute times meaningless, a ratio
#                           is not)
#   lpar.hvtop.calls        H_GET_24X7_DATA calls per interval, hvtop
#   lpar.perf.calls         the same for perf stat
#   lpar.hvtop.cpu, lpar.perf.cpu   the CPU per interval, in ms
# Then on a frame of 65 partitions of 8 vcpus: hvtop's
# -g CPM_32MHZ_CYC@lpar:1-64 on the perf source and perf stat -I on the
# same 8,192 counters (4 events x 4 placements x 8 vcpus x 64
# partitions, an -e each), 1 s intervals, each alone for 20 intervals
# once it has opened its events (part lcost):
#   lpar.part.cpu_ratio     median CPU per interval, hvtop / perf stat
#   lpar.part.hvtop.cpu, lpar.part.perf.cpu   those medians, in ms
#   lpar.part.hvtop.calls, lpar.part.perf.calls   median calls per
#                           interval
#   lpar.part.hvtop.start, lpar.part.perf.start   seconds from start to
#                           the first interval's output (the opens)
#   lpar.part.counters      the counters each reads
# The figures are medians over the intervals between two samples of
# the tool's CPU time, taken every second by the guest's clock.  The
# calls are counted on the hypervisor's side (its per-call
# trace).  Boots the partition: run it with scripts/bench -n 3 lpar.  A
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
	c=${HVTOP_LPAR_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hvtop-lpar}
	if ! ls "$c"/qemu-*/build/qemu-system-ppc64 "$c"/vmlinux-* \
	    "$c"/initramfs-*.cpio.gz >/dev/null 2>&1; then
		echo "bench-lpar: the virtual LPAR is not built" \
		    "(scripts/lpar --build builds it)" >&2
		exit 77
	fi
	cost="cost w=4 m=2"
	lspec="lpars=3,vcpus=2"
	lcost="lcost d=$ld m=3 lp=2 lv=2 wmax=120"
	ltimeout=600
fi
t=$(mktemp -d "${TMPDIR:-/tmp}/hvtop-bench-lpar.XXXXXX")
trap 'rm -rf "$t"' EXIT
HVTOP_HV24X7_TRACE=1 HVTOP_LPAR_CONSOLE="$t/console" \
    "$top/scripts/lpar" --sim \
    "catalog=power9,sockets=2,chips_per_socket=2,cores=4" -- \
    sh -c "$(cat "$top/tests/lpar/guest-truth.sh")" sh $cost \
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
			print "lpar.failed 1 run"
			exit 1
		}
		# No hcall while measured: the tool was still opening its
		# events (slow under TCG), and its CPU is its start-up.
		if (c["hvtop"] == 0 || c["perf"] == 0) {
			print "bench-lpar: a tool made no hcall while" \
			    " measured (not started within w seconds):" \
			    " no figure" >"/dev/stderr"
			print "lpar.failed 1 run"
			exit 1
		}
		h = cpu["hvtop"] / n["hvtop"] / 1e6
		p = cpu["perf"] / n["perf"] / 1e6
		if (p > 0)
			printf "lpar.cpu_ratio %.3f ratio\n", h / p
		printf "lpar.hvtop.calls %.2f calls\n", c["hvtop"] / n["hvtop"]
		printf "lpar.perf.calls %.2f calls\n", c["perf"] / n["perf"]
		printf "lpar.hvtop.cpu %.3f ms\n", h
		printf "lpar.perf.cpu %.3f ms\n", p
	}' "$t/calls" || rc=1

# The partitions: a second boot, on a frame of its own.
# shellcheck disable=SC2086  # the part's words
HVTOP_LPAR_TIMEOUT=$ltimeout HVTOP_HV24X7_TRACE=1 \
    HVTOP_LPAR_CONSOLE="$t/pconsole" \
    "$top/scripts/lpar" --sim \
    "catalog=power9,sockets=2,chips_per_socket=2,cores=4,$lspec" -- \
    sh -c "$(cat "$top/tests/lpar/guest-truth.sh")" sh $lcost \
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
				print "bench-lpar: " nm " gave no interval" \
				    " with hcalls (not started within" \
				    " wmax seconds?): no figure" >"/dev/stderr"
				print "lpar.part.failed 1 run"
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
			printf "lpar.part.cpu_ratio %.3f ratio\n",
			    mc["hvtop"] / mc["perf"]
		printf "lpar.part.hvtop.cpu %.3f ms\n", mc["hvtop"]
		printf "lpar.part.perf.cpu %.3f ms\n", mc["perf"]
		printf "lpar.part.hvtop.calls %.2f calls\n", mh["hvtop"]
		printf "lpar.part.perf.calls %.2f calls\n", mh["perf"]
		printf "lpar.part.hvtop.start %d s\n", start["hvtop"]
		printf "lpar.part.perf.start %d s\n", start["perf"]
		printf "lpar.part.counters %d counters\n", counters
	}' || rc=1
exit "${rc:-0}"
