#!/bin/sh
# The Live table scrolled sideways at 80x24: every value shown is the whole
# value (the same text as on a screen wide enough for every column), the
# scroll markers never overwrite a cell ("total" stays whole), and the
# column names break only after a '_' or lose their middle to '~'.
. "$(dirname "$0")/../cli/tap.sh"
. "$(dirname "$0")/tui-lib.sh"
N=15
plan $N
command -v tmux >/dev/null 2>&1 || tui_skip_all $N "tmux is not installed"

tui_init 300 60
tui_start --sim sockets=2,chips_per_socket=2,cores=4,seed=5 -d 0.2
wait_for '^total ' >/dev/null
keys p
wait_for ' PAUSED ' >/dev/null
# The chip table on a screen where every column fits: names and values.
wait_for '^chip +Memory_RD_BW_Chip' >/dev/null
screen >"$tmpdir/wide"
# Names are right-aligned over two lines: join the parts ending in the
# same column.
sed -n '/^chip /{p;n;p;q;}' "$tmpdir/wide" | awk '
NR == 1 { l1 = $0 } NR == 2 { l2 = $0 }
END {
	for (i = 1; i <= length(l1); i++) {
		if (substr(l1, i, 1) == " " || (i < length(l1) &&
		    substr(l1, i + 1, 1) != " "))
			continue
		for (j = i; j > 0 && substr(l1, j, 1) != " "; j--) ;
		w1 = substr(l1, j + 1, i - j)
		w2 = ""
		if (substr(l2, i, 1) != " " && substr(l2, i, 1) != "") {
			for (j = i; j > 0 && substr(l2, j, 1) != " "; j--) ;
			w2 = substr(l2, j + 1, i - j)
		}
		print w1 w2
	}
}' >"$tmpdir/names"
sed -n '/^ *0 /{p;q;}' "$tmpdir/wide" | tr ' ' '\n' | sed 1d | grep . \
    >"$tmpdir/values"
check "a wide screen shows the chip table on one header line" \
    test "$(wc -l <"$tmpdir/names")" -gt 6
diag "names: $(tr '\n' ' ' <"$tmpdir/names")"

# whole_values: chip 0's cells on the narrow screen are whole values.
whole_values() {
	screen >"$tmpdir/narrow"
	sed -n '/^ *0[ <]/{p;q;}' "$tmpdir/narrow" | sed 's/^ *0//' |
	    tr '<> ' '\n\n\n' | grep . >"$tmpdir/cells" || return 1
	while IFS= read -r c; do
		grep -Fqx -- "$c" "$tmpdir/values" ||
		    { bad="value cut: $c"; return 1; }
	done <"$tmpdir/cells"
	return 0
}

# whole_names: the two header lines break names only after a '_'.
whole_names() {
	screen >"$tmpdir/narrow"
	sed -n '/^chip[ <]/{p;q;}' "$tmpdir/narrow" | sed 's/^chip//' |
	    tr '<> ' '\n\n\n' | grep . >"$tmpdir/h1" || return 1
	sed -n '/^chip[ <]/{n;p;q;}' "$tmpdir/narrow" | tr '<> ' '\n\n\n' |
	    grep . >"$tmpdir/h2"
	while IFS= read -r c; do
		case $c in
		*~*|*_) ;;
		*) grep -Fqx -- "$c" "$tmpdir/names" ||
		    { bad="name cut: $c"; return 1; } ;;
		esac
	done <"$tmpdir/h1"
	while IFS= read -r c; do
		case $c in
		*~*) ;;
		*) grep -q -- "_$c\$" "$tmpdir/names" ||
		    { bad="name cut: $c"; return 1; } ;;
		esac
	done <"$tmpdir/h2"
	return 0
}

# poll CMD: until CMD succeeds, with a deadline (a key redraws at once).
poll() {
	until_ok 30 "$@" && return 0
	diag "$bad"
	diag "$(cat "$tmpdir/narrow")"
	return 1
}

T resize-window -t main -x 80 -y 24
check "80x24: the table is drawn" wait_for '^total '
check "80x24: more columns are marked with >" wait_for '^total .*>$'
check "80x24, unscrolled: every value shown is whole" poll whole_values
check "80x24, unscrolled: names break only after a _" poll whole_names
for step in 3 6 9 12; do
	keys Right Right Right
	check "80x24, $step columns right: every value shown is whole" \
	    poll whole_values
	check "80x24, $step columns right: names break only after a _" \
	    poll whole_names
done
check "80x24, scrolled: the < marker leaves total whole" \
    wait_for '^total ?<'
keys q
check "q quits with status 0" wait_for '^EXIT=0$'
exit $tap_failed
