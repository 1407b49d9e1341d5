#!/usr/bin/env python3
"""Words of a rendered man page that its source never writes.

Usage: man-glued.py PAGE.1 PAGE.txt

PAGE.txt is PAGE.1 rendered without hyphenation.  A word of the text
that is no word of the source was glued together by the typesetter,
most often by a font macro (.BR, .RB, .IR ...) that alternates fonts
between its arguments without a space: prose left on such a line after
its last argument runs together ("0).Thedetailpane").  The macro's own
joins are words of the source where they are meant (".BI \\ex NN" is
\\xNN): between two arguments of which at least one is not a plain
word.  Prints one line per glued word, with the text's line; nothing
when there is none.
"""

import re
import shlex
import sys

ALTERNATING = {".BR", ".RB", ".BI", ".IB", ".IR", ".RI"}
WORD = re.compile(r"[A-Za-z0-9]+")
PLAIN = re.compile(r"[A-Za-z]+[.,;:]?$")


def unescape(s):
    """The text of roff s, escapes dropped (\\fB, \\(em, \\*(xx, \\&)."""
    s = re.sub(r"\\f(\[[A-Z]*\]|\(..|.)", "", s)
    s = re.sub(r"\\(\(..|\[[^]]*\]|\*(\(..|\[[^]]*\]|.))", " ", s)
    s = re.sub(r"\\[&c%]", "", s)
    return s.replace("\\-", "-").replace("\\e", "\\")


def source_words(path):
    words = set()
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            words.update(WORD.findall(unescape(line)))
            head = line.split(" ", 1)
            if head[0] not in ALTERNATING or len(head) < 2:
                continue
            try:
                args = shlex.split(head[1].replace("\\", "\\\\"))
            except ValueError:
                continue
            joined = args[0] if args else ""
            for a, b in zip(args, args[1:]):
                plain = PLAIN.match(a) and PLAIN.match(b)
                joined += (" " if plain else "") + b
            words.update(WORD.findall(unescape(joined)))
    return words


def main():
    words = source_words(sys.argv[1])
    with open(sys.argv[2], encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            for w in WORD.findall(line):
                if w not in words:
                    print("line %d: %s: %s" % (n, w, line.strip()))


if __name__ == "__main__":
    main()
