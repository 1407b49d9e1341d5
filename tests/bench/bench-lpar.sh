#!/bin/sh
# The cost of hvtop against perf stat -I in the virtual LPAR, on the same
# 10 events of one chip (the Memory_BW and PowerBus groups) and the same
# 0.5 s interval, each run alone in its steady state for 40 intervals
# (tests/lpar/guest-truth.sh, part cost):
#   lpar.cpu_ratio          hvtop's CPU per interval / perf stat's (the
#                           run time of the process's threads in the
#                           guest, in ns, from /proc/PID/task/*/schedstat;
#                           TCG makes absolute times meaningless, a ratio
#                           is not)
#   lpar.hvtop.calls        H_GET_24X7_DATA calls per interval, hvtop
#   lpar.perf.calls         the same for perf stat
#   lpar.hvtop.cpu, lpar.perf.cpu   the CPU per interval, in ms
# The calls are counted on the hypervisor's side (its per-call trace).
# Boots the partition: run it with scripts/bench -n 3 lpar.  A smoke run
# (HVTOP_BENCH_SMOKE set) measures 2 s after 4 s, and never builds the
# partition: without it built, it says why and exits 77 (a skip).
top=$(cd "$(dirname "$0")/../.." && pwd)
cost=cost
if [ -n "${HVTOP_BENCH_SMOKE:-}" ]; then
	c=${HVTOP_LPAR_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hvtop-lpar}
	if ! ls "$c"/qemu-*/build/qemu-system-ppc64 "$c"/vmlinux-* \
	    "$c"/initramfs-*.cpio.gz >/dev/null 2>&1; then
		echo "bench-lpar: the virtual LPAR is not built" \
		    "(scripts/lpar --build builds it)" >&2
		exit 77
	fi
	cost="cost w=4 m=2"
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
	}' "$t/calls"
