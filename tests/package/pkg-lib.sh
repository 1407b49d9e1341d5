# What the package tests share, sourced after setting pkg (the word each
# result line is prefixed with) and top (the tree): result lines and
# their totals, the tools a test needs, and the working tree as git sees
# it.  Results are "ok PKG: NAME", "not ok PKG: NAME", "SKIP PKG: NAME:
# why"; finish prints "N passed, N failed" and ends the test.
passed=0
failed=0

ok() { echo "ok $pkg: $1"; passed=$((passed + 1)); }
notok() { echo "not ok $pkg: $1"; failed=$((failed + 1)); }
skip() { echo "SKIP $pkg: $1: $2"; }
check() {	# check NAME COMMAND...: ok when COMMAND succeeds
	name=$1
	shift
	if "$@"; then ok "$name"; else notok "$name"; fi
}
finish() {
	echo "$passed passed, $failed failed"
	exit 0
}

# pkg_need TOOL[:PACKAGE]...: skip the build, and finish, naming the
# Debian package when a tool is missing; then that the tree is git's.
pkg_need() {
	for t in "$@"; do
		p=${t#*:}
		t=${t%%:*}
		command -v "$t" >/dev/null 2>&1 && continue
		skip build "no $t (the Debian package $p could not be installed)"
		finish
	done
	if ! why=$(git -C "$top" rev-parse HEAD 2>&1 >/dev/null); then
		skip build "the copy is made of git's files, and git says: \
$(printf '%s\n' "$why" | head -n 1)"
		finish
	fi
}

# pkg_copy DIR: the working tree as git sees it into DIR, so that
# uncommitted changes are packaged too; the tree is never written to.
pkg_copy() {
	mkdir -p "$1"
	# shellcheck disable=SC2016  # $f is the inner shell's
	(cd "$top" && git ls-files -z --cached --others --exclude-standard |
	    xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh |
	    tar --null -T - -cf -) | tar -xf - -C "$1"
}
