#!/bin/sh
# The man pages render as a reader sees them: no control character in
# the sources (a "\f" written through a program that took it for a form
# feed), no warning from groff, no roff escape left in the text, and no
# words run together (a font macro that ate the spaces of the prose left
# on its line).
. "$(dirname "$0")/tap.sh"
plan 9
export LC_ALL=C

for f in hvtop.1.in hvcat.1.in README; do
	check "$f holds no control character" \
	    sh -c "! grep -nP '[\\x00-\\x08\\x0b-\\x1f\\x7f]' '$top_srcdir/$f'"
done
# render M: groff's warnings ("cannot adjust line" is typesetting, not a
# mistake) in $tmpdir/M.warn, the text in $tmpdir/M.txt, and what looks
# like a font, string or special-character escape or a request printed
# as text in $tmpdir/M.esc.
render() {
	groff -man -Tutf8 -ww -Wbreak -z "$top_builddir/$1.1" \
	    >"$tmpdir/$1.warn" 2>&1
	groff -man -Tascii -P-cbu "$top_builddir/$1.1" >"$tmpdir/$1.txt" \
	    2>/dev/null
	grep -nE '\\(f[BIRP(]|[e*(]|s[-+0-9])|^ *\.[A-Z][A-Z]? ' \
	    "$tmpdir/$1.txt" >"$tmpdir/$1.esc"
	for f in "$tmpdir/$1.warn" "$tmpdir/$1.esc"; do
		if [ -s "$f" ]; then diag "$(head -5 "$f")"; fi
	done
}
for m in hvtop hvcat; do
	if ! command -v groff >/dev/null 2>&1; then
		skip "$m.1: groff warns of nothing" "no groff"
		skip "$m.1: no roff escape left in the text" "no groff"
		skip "$m.1: no words run together" "no groff"
		continue
	fi
	render "$m"
	check "$m.1: groff warns of nothing" test ! -s "$tmpdir/$m.warn"
	check "$m.1: no roff escape left in the text" test ! -s "$tmpdir/$m.esc"
	# Unhyphenated, so that every word of the text is whole.
	groff -man -rHY=0 -rcR=1 -Tascii -P-cbu "$top_builddir/$m.1" \
	    >"$tmpdir/$m.flat" 2>/dev/null
	python3 "$top_srcdir/tests/cli/man-glued.py" "$top_builddir/$m.1" \
	    "$tmpdir/$m.flat" >"$tmpdir/$m.glued" 2>&1
	if [ -s "$tmpdir/$m.glued" ]; then diag "$(head -5 "$tmpdir/$m.glued")"; fi
	check "$m.1: no words run together" test ! -s "$tmpdir/$m.glued"
done
