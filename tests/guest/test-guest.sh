#!/bin/sh
# The virtual LPAR (scripts/guest): the real Linux hv_24x7 driver, perf's
# PMU and hvtop's perf source on QEMU's pseries machine, whose 24x7 calls
# hvtop's simulated hypervisor answers.  Checks, for the real POWER8
# catalog and each shipped one, that the kernel creates every event
# attribute and lists the events exactly as hvcat sysfs does, that the
# interface files describe the frame, that hvtop in the partition picks
# perf and prints rates (overview, @chip, @core, index lists), that a
# partition without collection permission gets hvtop's HMC message for
# chips while its virtual processors still count, that hvtop --serve
# --user nobody serves as nobody without a capability and what a source
# reopened as nobody does, that hvtop in the partition finds the frame's
# partitions through perf and reads them (@lpar), or only its own with
# the HMC message when it may not read others, and that the terminal
# interface runs on the partition's console.  Prints "ok NAME", "not ok
# NAME" or "SKIP NAME: REASON" per check, then "N passed, N failed".
top=$(cd "$(dirname "$0")/../.." && pwd)
here=$top/tests/guest
guest=$top/scripts/guest
hvcat=$top/build/hvcat
passed=0
failed=0
skipped=0
t=$(mktemp -d "${TMPDIR:-/tmp}/hvtop-guest.XXXXXX")
sock=hvtop-guest-$$
trap 'tmux -L "$sock" kill-server >/dev/null 2>&1; rm -rf "$t"' EXIT

ok() { passed=$((passed + 1)); echo "ok $1"; }
notok() { failed=$((failed + 1)); echo "not ok $1"; }
check() { _c=$1; shift; if "$@"; then ok "$_c"; else notok "$_c"; fi; }
summary() {
	if [ "$skipped" -gt 0 ]; then
		echo "$passed passed, $failed failed, $skipped skipped"
	else
		echo "$passed passed, $failed failed"
	fi
	[ "$failed" -eq 0 ]
	exit
}

# The frame every boot uses: 2 sockets x 2 chips x 4 cores.
frame="sockets=2,chips_per_socket=2,cores=4"

# The first boot builds what is missing.  Without Debian's archive the
# build cannot happen: that alone is a skip.
echo "guest: building and booting (the first run builds QEMU, the sysroot" \
    "and the initramfs; see $t/build.log)"
if ! "$guest" -- true >"$t/build.log" 2>&1; then
	mkdir -p "$t/probe"
	if ! (cd "$t/probe" && timeout 60 apt-get download -q ncurses-base \
	    >/dev/null 2>&1); then
		skipped=$((skipped + 1))
		echo "SKIP guest: no network to Debian's archive (packages" \
		    "and QEMU's source come from it)"
		summary
	fi
	# The archive answered but did not serve what the partition is
	# built from (a mirror out of step, a version gone): this machine
	# cannot build it, which is not a failure of hvtop's.
	why=$(grep -E 'apt-get (download|source).* failed|not in the package lists|cannot install the host packages|not root and no sudo' \
	    "$t/build.log" | head -n 1)
	if [ -n "$why" ]; then
		skipped=$((skipped + 1))
		echo "SKIP guest: Debian's archive did not serve what the" \
		    "partition is built from ($why)"
		summary
	fi
	tail -n 40 "$t/build.log"
	notok "guest: build and first boot"
	summary
fi
ok "guest: build and first boot"

# boot NAME SPEC PARTS...: run guest-checks.sh in a partition.
boot() {
	name=$1 spec=$2
	shift 2
	HVTOP_HV24X7_TRACE=1 HVTOP_GUEST_CONSOLE="$t/$name.console" \
	    "$guest" --sim "$spec" -- sh -c "$(cat "$here/guest-checks.sh")" \
	    sh "$@" >"$t/$name.out" 2>"$t/$name.err"
	echo $? >"$t/$name.rc"
	grep -q '^@@ end$' "$t/$name.out"
}
# section NAME FILE: the lines of section "@@ NAME".
section() {
	awk -v s="@@ $1" '$0 == s { on = 1; next } /^@@ / { on = 0 } on' "$2"
}
rc_of() {	# rc_of NAME FILE: the status printed after section NAME
	awk -v s="@@ $1" '$0 == s { on = 1; next } on && /^@@ rc=/ { sub(/^@@ rc=/, ""); print; exit }' "$2"
}

# check_sysfs NAME CATALOG IFACE: the kernel's events and interface.
check_sysfs() {
	name=$1 cat=$2 iface=$3 out=$t/$1.out
	"$hvcat" sysfs -i "$iface" "$cat" | LC_ALL=C sort >"$t/$name.want"
	n=$(wc -l <"$t/$name.want")
	check "$name: kernel: created $n event attrs (0 failures)" \
	    grep -q "created $n event attrs (0 failures)" "$out"
	section events "$out" | sed 's/:/\t/' | LC_ALL=C sort >"$t/$name.got"
	if cmp -s "$t/$name.want" "$t/$name.got"; then
		ok "$name: events/ is hvcat sysfs, line for line ($n)"
	else
		diff "$t/$name.want" "$t/$name.got" | head -n 10
		notok "$name: events/ is hvcat sysfs, line for line ($n)"
	fi
	v=$("$hvcat" info "$cat" | sed -n 's/^version *//p')
	printf '%s\n' "catalog_version=$v" sockets=2 chipspersocket=2 \
	    coresperchip=4 >"$t/$name.iface"
	if section interface "$out" | cmp -s "$t/$name.iface" -; then
		ok "$name: interface/ describes the frame"
	else
		section interface "$out"
		notok "$name: interface/ describes the frame"
	fi
	check "$name: interface/domains lists the chip domain" \
	    grep -q '^1: Physical Chip$' "$out"
}

# rates NAME FILE SECTION ROWS: hvtop printed 3 intervals from perf with
# rates, no SIMULATED tag, and the rows ROWS (an ERE) in each.
rates() {
	name=$1 sec=$3 rows=$4 f=$t/$1.$3
	section "$sec" "$2" >"$f"
	[ "$(rc_of "$sec" "$2")" = 0 ] || return 1
	[ "$(grep -c '^hvtop .* perf hv_24x7' "$f")" -eq 3 ] || return 1
	! grep -q SIMULATED "$f" || return 1
	# A row: an index (or total) then at least one positive number.
	[ "$(grep -Ec "^($rows) +.*[1-9]" "$f")" -ge 3 ]
}

check_hvtop() {
	name=$1 out=$t/$1.out
	check "$name: hvtop -b -n 3 picks perf and prints the overview's rates" \
	    rates "$name" "$out" overview 'total'
	check "$name: @chip: a rate per chip 0..3" rates "$name" "$out" chip '3'
	check "$name: @core: a rate per core 0..15" rates "$name" "$out" core '15'
	check "$name: index lists: chip 1, cores 0,2-3" \
	    rates "$name" "$out" list '1|2'
	if grep -Eq '^(4|1[0-5]) ' "$t/$name.list"; then
		notok "$name: index lists read nothing else"
	else
		ok "$name: index lists read nothing else"
	fi
}

# lpar_rows FILE SECTION: "SEQ ID" of each row of the CSV of SECTION
# for a partition (domain "lpar") with a rate above 0.
lpar_rows() {
	section "$2" "$1" | awk -F, '
		$1 == "time" {
			for (i = 1; i <= NF; i++) {
				c[$i] = i
				if ($i ~ /\[\/s\]$/)
					rate[i] = 1
			}
			next
		}
		c["domain"] && $c["domain"] == "lpar" && $c["index"] != "total" {
			for (i in rate)
				if ($i + 0 > 0) {
					print $c["seq"], $c["index"]
					break
				}
		}'
}
# lpars NAME FILE SECTION IDS N: SECTION ended well and printed N
# intervals with rates for exactly the partitions IDS.
lpars() {
	[ "$(rc_of "$3" "$2")" = 0 ] || return 1
	lpar_rows "$2" "$3" | sort -u >"$t/$1.$3"
	got=$(cut -d' ' -f2 "$t/$1.$3" | sort -n -u | paste -s -d' ' -)
	[ "$got" = "$4" ] || { echo "# partitions: '$got', want '$4'"; return 1; }
	[ "$(cut -d' ' -f1 "$t/$1.$3" | sort -u | wc -l)" -eq "$5" ]
}

# The frame the identity boot is given, and what PowerVM, and so QEMU's
# pseries machine with hvtop's hypervisor, publishes for it: "IBM,"
# before the model, "IBM," and a plant code before a 7-character serial.
ident_model=9009-42A ident_serial=21A1B2C
ident_sim="model=$ident_model,serial=$ident_serial"

# check_ident NAME: the identity the kernel published is the frame's, and
# hvtop --check's frame line and the frame label of hvtop --serve's
# series are that identity, kept the way lparcfg's values are (no
# "IBM,", a 9-character serial's plant digits dropped, a model or serial
# of other characters unknown), from /proc/powerpc/lparcfg when the
# kernel has it (HVTOP_GUEST_KERNEL=lparcfg: it must), else the device
# tree.
check_ident() {
	name=$1 f=$t/$1.ident
	section ident "$t/$1.out" >"$f"
	sed 's/^/# /' "$f"
	check "$name: the device tree's root names the frame and the partition" \
	    sh -c "grep -qx 'model=IBM,$ident_model' '$f' &&
	    grep -qx 'system-id=IBM,02$ident_serial' '$f' &&
	    grep -qx 'ibm,partition-no=1' '$f' &&
	    grep -qx 'ibm,partition-name=hvtop-guest1' '$f'"
	if grep -q '^lparcfg ' "$f"; then
		check "$name: the kernel's lparcfg names the frame and the partition" \
		    sh -c "grep -qx 'lparcfg system_type=IBM,$ident_model' '$f' &&
		    grep -qx 'lparcfg serial_number=IBM,02$ident_serial' '$f' &&
		    grep -qx 'lparcfg partition_id=1' '$f'"
	elif [ "${HVTOP_GUEST_KERNEL:-debian}" = lparcfg ]; then
		notok "$name: the kernel has /proc/powerpc/lparcfg"
	fi
	awk -F= -v from="device tree" '
		/^lparcfg / { sub(/^lparcfg /, ""); from = "lparcfg"
			l[$1] = substr($0, length($1) + 2); next }
		/^info  frame / || /^label / { next }
		{ d[$1] = substr($0, length($1) + 2) }
		END {
			if (from == "lparcfg") {
				m = l["system_type"]; s = l["serial_number"]
				id = l["partition_id"]
			} else {
				m = d["model"]; s = d["system-id"]
				id = ("ibm,partition-no" in d) ? \
				    d["ibm,partition-no"] : -1
			}
			sub(/^IBM,/, "", m); sub(/^IBM,/, "", s)
			if (length(s) == 9 && s ~ /^[0-9][0-9]/)
				s = substr(s, 3)
			mtms = "unknown"
			if (m ~ /^[A-Za-z0-9-]+$/ && length(m) < 32 &&
			    s ~ /^[A-Za-z0-9]+$/ && length(s) < 32)
				mtms = m "*" s
			n = d["ibm,partition-name"]
			printf "info  frame %s, partition %d%s, from %s\n", mtms,
			    id, n != "" ? " (" n ")" : "", from
			printf "label frame=\"%s\"\n", mtms > "/dev/stderr"
		}' "$f" >"$f.want" 2>"$f.lwant"
	grep '^info  frame ' "$f" >"$f.got" || true
	if cmp -s "$f.want" "$f.got"; then
		ok "$name: hvtop's frame and partition are the kernel's ($(cat "$f.got"))"
	else
		echo "# want: $(cat "$f.want")"
		notok "$name: hvtop's frame and partition are the kernel's"
	fi
	grep '^label ' "$f" >"$f.lgot" || true
	if cmp -s "$f.lwant" "$f.lgot"; then
		ok "$name: hvtop --serve's frame label is the kernel's ($(cat "$f.lgot"))"
	else
		echo "# want: $(cat "$f.lwant")"
		notok "$name: hvtop --serve's frame label is the kernel's"
	fi
}

p8=$top/tests/data/catalog/p8-catalog-v3.bin
cats=$top/build/catalogs

if boot power9 "catalog=power9,$frame,$ident_sim" sysfs hvtop calls lpars \
    ident; then
	ok "power9: boot"
	check_ident power9
	check_sysfs power9 "$cats/power9.bin" 2
	check_hvtop power9
	# The default frame has partitions 0-3; 0 is not this partition's
	# to read, and there is no 4.
	check "power9: @lpar through perf: partitions 1, 2 and 3, nothing else" \
	    lpars power9 "$t/power9.out" lpars "1 2 3" 3
	check "power9: @lpar with -O lpars=2-3: partitions 2 and 3" \
	    lpars power9 "$t/power9.out" lpars-range "2 3" 2
	# H_GET_24X7_DATA calls as the hypervisor counted them, between the
	# guest's markers: 1 refresh, then 4.
	awk '
		/^@@ calls-1/ { s = 1; next }
		/^@@ calls-4/ { s = 4; next }
		/^@@ calls-end/ { s = 0 }
		s && /^hv24x7: H_GET_24X7_DATA / { n[s]++ }
		END { printf "%d %d\n", n[1], n[4] }' \
	    "$t/power9.console" | tr -d '\r' >"$t/calls"
	read -r c1 c4 <"$t/calls"
	if [ "$c4" -gt "$c1" ]; then
		ok "power9: H_GET_24X7_DATA calls per refresh: $(( (c4 - c1) / 3 )) (hvtop -n 1: $c1 calls, -n 4: $c4)"
	else
		notok "power9: H_GET_24X7_DATA calls counted ($c1, $c4)"
	fi
else
	tail -n 30 "$t/power9.out" "$t/power9.err"
	notok "power9: boot"
fi

if boot power10 "catalog=power10,$frame" sysfs hvtop; then
	ok "power10: boot"
	check_sysfs power10 "$cats/power10.bin" 2
	check_hvtop power10
else
	tail -n 30 "$t/power10.out" "$t/power10.err"
	notok "power10: boot"
fi

if boot power8 "catalog=power8,$frame" sysfs hvtop; then
	ok "power8: boot"
	check_sysfs power8 "$cats/power8.bin" 1
	check_hvtop power8
else
	tail -n 30 "$t/power8.out" "$t/power8.err"
	notok "power8: boot"
fi

if boot p8-v3 "catalog=$p8,$frame" sysfs; then
	ok "p8-catalog-v3: boot"
	check_sysfs p8-v3 "$p8" 1
else
	tail -n 30 "$t/p8-v3.out" "$t/p8-v3.err"
	notok "p8-catalog-v3: boot"
fi

if boot denied "catalog=power9,$frame,faults=denied" denied lpars-denied; then
	ok "denied: boot"
	check "denied: hv_gpci says collect_privileged 0" \
	    grep -q '^@@ privileged 0$' "$t/denied.out"
	section denied-chip "$t/denied.out" >"$t/denied.chip"
	if [ "$(rc_of denied-chip "$t/denied.out")" != 0 ] &&
	    grep -q 'HMC' "$t/denied.chip"; then
		ok "denied: a chip pick fails with hvtop's message naming the HMC"
	else
		cat "$t/denied.chip"
		notok "denied: a chip pick fails with hvtop's message naming the HMC"
	fi
	check "denied: the vcpu domain still counts" \
	    rates denied "$t/denied.out" denied-vcpu 'total'
	check "denied: @lpar reads this partition alone (0xffff)" \
	    lpars denied "$t/denied.out" lpars-denied 65535 3
	n=$(section lpars-denied "$t/denied.out" | grep -c 'other partitions are not visible: allow performance information collection for this partition on the HMC')
	if [ "$n" -ge 1 ] && [ "$(section lpars-denied "$t/denied.out" |
	    grep 'allow performance information' | cut -d, -f2 | sort -u)" = 1 ]
	then
		ok "denied: @lpar says once why, naming the HMC"
	else
		section lpars-denied "$t/denied.out" | head -n 5
		notok "denied: @lpar says once why, naming the HMC"
	fi
else
	tail -n 30 "$t/denied.out" "$t/denied.err"
	notok "denied: boot"
fi

# hvtop --serve --user nobody in the partition, started as root: the
# process after the change of user, its counters across two scrapes, and
# what the source reopened as nobody does when the catalog changes
# under it (the hypervisor's 80th H_GET_24X7_DATA call, after the
# second scrape): with kernel.perf_event_paranoid above 0 the run ends
# saying why, at 0 it keeps serving, now the new version's series.
# series FILE: "NAME{LABELS} VALUE" of every hvtop_events_total, sorted.
series() { grep '^hvtop_events_total{' "$1" | LC_ALL=C sort; }
# grows A B: the same series in both, none lower in B, one higher at
# least (values compared as decimal strings: they pass 2^53).
grows() {
	series "$1" >"$1.s"
	series "$2" >"$2.s"
	[ -s "$1.s" ] || return 1
	[ "$(cut -d' ' -f1 "$1.s")" = "$(cut -d' ' -f1 "$2.s")" ] || return 1
	paste -d' ' "$1.s" "$2.s" | awk '
		function cmp(a, b) {
			if (length(a) != length(b))
				return length(a) < length(b) ? -1 : 1
			return a < b ? -1 : a > b
		}
		{ c = cmp($2, $4); if (c > 0) bad = 1; if (c < 0) up++ }
		END { exit bad || up == 0 }'
}
# scraped FILE: what a scrape held, for a failure's message.
scraped() {
	echo "$(grep -c '^hvtop_events_total{' "$1") series," \
	    "$(sed -n -e 's/^hvtop_samples_total //p' \
	    -e 's/^hvtop_samples_total{[^}]*} //p' "$1" | head -n 1) samples," \
	    "versions $(sed -n 's/.*catalog_version="\([^"]*\)".*/\1/p' "$1" |
	    sort -u | tr '\n' ' ')"
}
check_user() {
	name=$1 out=$t/$1.out
	section user-status "$out" >"$t/$name.status"
	section user-err "$out" >"$t/$name.err"
	for i in 1 2 3; do
		section "user-scrape-$i" "$out" >"$t/$name.s$i"
	done
	par=$(sed -n 's/^@@ paranoid //p' "$out")
	check "$name: hvtop -b --source perf --serve --user nobody changes user" \
	    grep -q '^hvtop: running as nobody (uid 65534, gid 65534)' \
	    "$t/$name.err"
	check "$name: every uid is nobody's (65534)" awk '$1 == "Uid:" {
	    exit !($2 == 65534 && $3 == 65534 && $4 == 65534 && $5 == 65534) }' \
	    "$t/$name.status"
	check "$name: every gid, and the only group, are nogroup's (65534)" \
	    awk '$1 == "Gid:" { g = $2 == 65534 && $3 == 65534 &&
	    $4 == 65534 && $5 == 65534 } $1 == "Groups:" { s = $0 }
	    END { exit !(g && s ~ /^Groups:[ \t]+65534[ \t]*$/) }' \
	    "$t/$name.status"
	check "$name: CapInh, CapPrm, CapEff and CapAmb are all zero" awk '
	    $1 ~ /^Cap(Inh|Prm|Eff|Amb):$/ { n++; if ($2 !~ /^0+$/) bad = 1 }
	    END { exit bad || n != 4 }' "$t/$name.status"
	check "$name: NoNewPrivs is 1" \
	    grep -Eq '^NoNewPrivs:[[:space:]]+1$' "$t/$name.status"
	if grows "$t/$name.s1" "$t/$name.s2" &&
	    ! grep -q 'catalog_version="[^1]' "$t/$name.s2"; then
		ok "$name: after the change it serves perf's counters, which grow ($(wc -l <"$t/$name.s2.s") series)"
	else
		paste -d' ' "$t/$name.s1.s" "$t/$name.s2.s" 2>/dev/null |
		    sed 's/^/# /'
		notok "$name: after the change it serves perf's counters, which grow ($(scraped "$t/$name.s1") then $(scraped "$t/$name.s2"))"
	fi
	rc=$(rc_of user-exit "$out")
	if [ "${par:-1}" -gt 0 ]; then
		if [ "$rc" = 1 ] && grep -q "after the catalog version changed from 1 to 2: .*perf_event_open(.*Permission denied: perf_event_paranoid is $par" "$t/$name.err" &&
		    grep -q 'note: hvtop ran as nobody (--user)' "$t/$name.err"
		then
			ok "$name: paranoid $par: the catalog changes, and the source reopened as nobody ends the run saying why"
		else
			cat "$t/$name.err"
			notok "$name: paranoid $par: the catalog changes, and the source reopened as nobody ends the run saying why (status $rc)"
		fi
	elif [ "$rc" = 143 ] &&
	    grep -q 'catalog version changed from 1 to 2' "$t/$name.err" &&
	    grep -q '^@@ user-running yes$' "$out" &&
	    grep -Eq '^hvtop_catalog_version(\{[^}]*\})? 2$' "$t/$name.s3" &&
	    grep -q '^hvtop_events_total{.*catalog_version="2"}' "$t/$name.s3"
	then
		ok "$name: paranoid $par: the catalog changes, and the source reopened as nobody serves the new version's counters"
	else
		cat "$t/$name.err"
		head -n 4 "$t/$name.s3"
		notok "$name: paranoid $par: the catalog changes, and the source reopened as nobody serves the new version's counters (status $rc; $(scraped "$t/$name.s3"))"
	fi
}

if boot user "catalog=power9,$frame,faults=version-change@80" user; then
	ok "user: boot"
	check_user user
else
	tail -n 30 "$t/user.out" "$t/user.err"
	notok "user: boot"
fi
if boot user0 "catalog=power9,$frame,faults=version-change@80" \
    user paranoid0; then
	ok "user0: boot"
	check_user user0
else
	tail -n 30 "$t/user0.out" "$t/user0.err"
	notok "user0: boot"
fi

# The terminal interface on the partition's console, under tmux.
if command -v tmux >/dev/null 2>&1; then
	T() { tmux -L "$sock" "$@"; }
	screen() { T capture-pane -p -t guest 2>/dev/null; }
	wait_for() {	# wait_for ERE SECONDS
		end=$(($(date +%s) + $2))
		while [ "$(date +%s)" -le "$end" ]; do
			screen | grep -Eq -- "$1" && return 0
			sleep 0.5
		done
		screen | sed 's/^/| /'
		return 1
	}
	chip_rows() {	# the chip table's row 3 has numbers (polled)
		end=$(($(date +%s) + 60))
		while [ "$(date +%s)" -le "$end" ]; do
			screen | awk '/^chip /{c=1} /^cores:/{c=0}
			    c && /^ +3 +[0-9]/{f=1} END{exit !f}' && return 0
			sleep 0.5
		done
		screen | sed 's/^/| /'
		return 1
	}
	T -f /dev/null new-session -d -s guest -x 160 -y 45 \
	    "TERM=tmux-256color $guest --sim catalog=power9,$frame; echo guest-exited; sleep 60"
	if wait_for '# *$' 120; then
		ok "tui: the partition's shell"
		T send-keys -t guest 'hvtop -d 0.5' Enter
		check "tui: the Live screen" wait_for '^ Live +Frame +Events' 60
		check "tui: per-chip rows with rates" chip_rows
		check "tui: perf, not simulated" sh -c \
		    "tmux -L $sock capture-pane -p -t guest | grep -q 'perf hv_24x7' &&
		    ! tmux -L $sock capture-pane -p -t guest | grep -q SIMULATED"
		T send-keys -t guest q
		T send-keys -t guest 'echo "hvtop-rc=$?"' Enter
		check "tui: q quits cleanly" wait_for '^hvtop-rc=0' 30
		T send-keys -t guest 'poweroff -f' Enter
		check "tui: the partition powers off" wait_for 'guest-exited' 60
	else
		notok "tui: the partition's shell"
	fi
	T kill-server >/dev/null 2>&1
else
	skipped=$((skipped + 1))
	echo "SKIP tui: tmux is not installed"
fi

summary
