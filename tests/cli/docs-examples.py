#!/usr/bin/env python3
"""Run every example command of the man pages and the README.

Usage: docs-examples.py SRCDIR BUILDDIR WORKDIR

The examples are read where a reader finds them: the EXAMPLES section and
the "$ " lines of .EX blocks of hvtop.1.in and hvcat.1.in, the code blocks
and the `hvtop ...` / `hvcat ...` spans of the README.  Each runs against
the simulator (clock=virtual and -n 3 added where the command would run
on, real time where it runs a command, a free port for --serve), in
document order, in WORKDIR: an example that writes a recording comes
before the ones that read it.
An example that cannot run here is in SKIP with the reason; an entry of
SKIP that matches no example is an error too, so the list stays true.
Prints TAP.
"""

import os
import shutil
import re
import shlex
import socket
import subprocess
import sys

# Examples not run, each with why.
SKIP = {
    "hvcat dump --json":
        "names the command in a sentence; its FILE is elsewhere",
    "hvcat build":
        "names the command in a sentence; its input is elsewhere",
    "hvcat sysfs":
        "names the command in a sentence; its FILE is elsewhere",
    "hvtop report":
        "names the command in a sentence; the full one is above it",
}
# Placeholders of a template, and what stands for them here.
TEMPLATE = {
    "FILE": "@CATALOG@",
    "'EXPR'": "'A + B'",
    "EXPR": "A + B",
    "NAME=VALUE...": ["A=1", "B=2"],
}


def roff_text(line, keep_indent=False):
    """A .B/.BI/.BR/.I line or plain roff text as the reader sees it."""
    m = re.match(r"^\.(B|I|BI|IB|BR|RB|IR|RI)\s+(.*)$", line)
    if m:
        # Alternating fonts: the words join without spaces.
        words = shlex.split(m.group(2), posix=True) if len(
            m.group(1)) == 2 else [m.group(2)]
        line = "".join(words)
    line = re.sub(r"\\f[BIRP]", "", line)
    line = line.replace("\\-", "-").replace("\\e", "\\")
    line = line.replace("\\(aq", "'").replace("\\(dq", '"')
    return line.rstrip() if keep_indent else line.strip()


def from_man(path):
    out = []
    lines = open(path, encoding="utf-8").read().splitlines()
    section = ""
    in_ex = False
    for i, line in enumerate(lines):
        if line.startswith(".SH "):
            section = line[4:].strip().strip('"')
        if line.startswith(".EX"):
            in_ex = True
            continue
        if line.startswith(".EE"):
            in_ex = False
            continue
        if in_ex and line.startswith("$ "):
            # The lines up to .EE are what it prints.
            shown = []
            for nxt in lines[i + 1:]:
                if nxt.startswith(".EE"):
                    break
                shown.append(roff_text(nxt, True))
            out.append((os.path.basename(path), i + 1,
                        roff_text(line[2:]), shown))
        if section == "EXAMPLES" and line == ".TP" and i + 1 < len(lines):
            out.append((os.path.basename(path), i + 2,
                        roff_text(lines[i + 1]), None))
    return out


def from_readme(path):
    out = []
    for i, line in enumerate(open(path, encoding="utf-8").read()
                             .splitlines()):
        m = re.match(r"^    ((hvtop|hvcat) .*)$", line)
        if m:
            cmd = re.sub(r"\s+#.*$", "", m.group(1)).strip()
            out.append(("README", i + 1, cmd, None))
            continue
        for span in re.findall(r"`((?:hvtop|hvcat) [^`]*)`", line):
            out.append(("README", i + 1, span, None))
    return out


def prepare(argv, work, build, src):
    """The command as it runs here, or (None, why not)."""
    prog = argv[0]
    argv = sum(([TEMPLATE.get(a, a)] if not isinstance(
        TEMPLATE.get(a), list) else TEMPLATE[a] for a in argv), [])
    argv = [os.path.join(build, "catalogs", "power9.bin")
            if a == "@CATALOG@" else a for a in argv]
    if prog == "hvcat":
        return [os.path.join(build, "hvcat")] + argv[1:], None
    args = argv[1:]
    cmd = args.index("--") if "--" in args else len(args)
    opts, tail = args[:cmd], args[cmd:]
    report = opts[:1] == ["report"]
    replay = report or "-r" in opts or any(
        a.startswith("--source=replay") for a in opts)
    if "--source" in opts and opts[opts.index("--source") + 1] == "perf":
        pmu = opts[opts.index("--pmu") + 1] if "--pmu" in opts else \
            "hv_24x7"
        if not os.path.isdir("/sys/bus/event_source/devices/" + pmu):
            return None, "needs the %s PMU, which this machine has not" % pmu
    elif not replay:
        # Real time for a command; the simulator's virtual clock else.
        opts += ["--sim", "seed=1" if tail else "clock=virtual,seed=1"]
    if not tail and not report and "--list" not in opts and \
            "-n" not in opts:
        opts += ["-n", "3"]
    if "--serve" in opts:
        # The port printed may be taken by another run: a free one.
        i = opts.index("--serve") + 1
        with socket.socket() as so:
            so.bind(("127.0.0.1", 0))
            port = so.getsockname()[1]
        opts[i] = "127.0.0.1:%d" % port
    for i, a in enumerate(opts):
        # What the example reads is made first; what it writes is new.
        if a in ("-r", "report") and i + 1 < len(opts):
            rec = opts[i + 1]
            if rec.endswith(".hvr") and not os.path.exists(
                    os.path.join(work, rec)):
                subprocess.run([os.path.join(build, "hvtop"), "-b", "-n",
                                "5", "--sim", "clock=virtual,seed=1", "-w",
                                rec], cwd=work, stdout=subprocess.DEVNULL,
                               check=True)
        if a == "-w" and i + 1 < len(opts):
            path = os.path.join(work, opts[i + 1])
            if os.path.isdir(path):
                shutil.rmtree(path)    # a ring: -w DIR --ring-size
            elif os.path.exists(path):
                os.unlink(path)
        if a == "-m" and i + 1 < len(opts) and not os.path.exists(
                os.path.join(work, opts[i + 1])):
            data = os.path.join(src, "tests", "data", "perfjson", "power9",
                                opts[i + 1])
            if not os.path.exists(data):
                return None, "no %s in tests/data" % opts[i + 1]
            with open(data, "rb") as f, \
                    open(os.path.join(work, opts[i + 1]), "wb") as g:
                g.write(f.read())
    return [os.path.join(build, "hvtop")] + opts + tail, None


def main():
    src, build, work = sys.argv[1:4]
    examples = []
    for man in ("hvtop.1.in", "hvcat.1.in"):
        examples += from_man(os.path.join(src, man))
    examples += from_readme(os.path.join(src, "README"))
    # A Makefile for the examples that count over "make".
    with open(os.path.join(work, "Makefile"), "w") as f:
        f.write("all:\n\t@:\n")
    env = dict(os.environ, LC_ALL="C")
    n = 0
    failed = 0
    seen = set()
    for doc, line, text, shown in examples:
        n += 1
        name = "%s:%d: %s" % (doc, line, text)
        seen.add(text)
        if text in SKIP:
            print("ok %d - %s # SKIP %s" % (n, name, SKIP[text]))
            continue
        try:
            argv = shlex.split(text)
        except ValueError as e:
            print("not ok %d - %s (cannot be split: %s)" % (n, name, e))
            failed += 1
            continue
        run, why = prepare(argv, work, build, src)
        if run is None:
            print("ok %d - %s # SKIP %s" % (n, name, why))
            continue
        try:
            p = subprocess.run(run, cwd=work, env=env,
                               stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, timeout=120)
        except subprocess.TimeoutExpired:
            print("not ok %d - %s (did not end in 120 s)" % (n, name))
            failed += 1
            continue
        out = p.stdout.decode("utf-8", "replace")
        bad = p.returncode != 0
        if not bad and shown is not None and shown:
            # What the page shows it printing is what it prints.
            bad = out.splitlines() != shown
        if bad:
            failed += 1
            print("not ok %d - %s" % (n, name))
            print("# ran: %s" % " ".join(shlex.quote(a) for a in run))
            print("# exit %d" % p.returncode)
            for ln in out.splitlines()[:20]:
                print("# " + ln)
            if shown:
                print("# the page shows:")
                for ln in shown:
                    print("# " + ln)
        else:
            print("ok %d - %s" % (n, name))
    for text in sorted(set(SKIP) - seen):
        n += 1
        failed += 1
        print("not ok %d - skip list: '%s' is no example any more" %
              (n, text))
    print("1..%d" % n)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
