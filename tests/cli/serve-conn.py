#!/usr/bin/env python3
# Raw HTTP clients for test-hvtop-serve-conn.sh: what one connection is
# answered, byte for byte, without a client library tidying it up.
#   serve-conn.py statuses PORT REQUEST
#     send REQUEST (\r, \n escapes) in one write, read until the server
#     closes (at most 30 s) and print every status line, one a line
#   serve-conn.py pipeline PORT
#     two requests in one write (/metrics, then / with Connection:
#     close); print each answer's status line and Content-Type, in the
#     order they came, and whether each body was whole
#   serve-conn.py headers PORT FROM TO STEP
#     one request per header size from FROM to TO bytes; print the sizes
#     that did not get exactly one status line ("bad N K"), then "done"
#   serve-conn.py gzip PORT
#     a plain and a gzip scrape of the same sample (tried again when a
#     sample came in between): "same" when the gzip one unpacks, with
#     python's gzip, to exactly the plain one's bytes
#   serve-conn.py slow PORT PID N GAP
#     N connections, one every GAP seconds (so that they meet different
#     samples), that each send a request and never read, held 2 s past
#     the last; print hvtop's (PID) resident memory in KiB
#     before the first ("base N") and the most seen while they are held
#     ("peak N")
import gzip
import re
import socket
import sys
import time


def connect(port):
    s = socket.create_connection(("127.0.0.1", port))
    s.settimeout(30)
    return s


def read_all(s):
    d = b""
    try:
        while True:
            c = s.recv(65536)
            if not c:
                break
            d += c
    except OSError:
        pass
    return d


def statuses(port, req):
    s = connect(port)
    s.sendall(req.encode("latin1").decode("unicode_escape")
              .encode("latin1"))
    d = read_all(s)
    for line in d.split(b"\r\n"):
        if line.startswith(b"HTTP/"):
            print(line.decode("latin1"))


def answers(d):
    """Split a byte stream into (status, headers, body, whole) answers."""
    out = []
    while d:
        end = d.find(b"\r\n\r\n")
        if end < 0:
            out.append((d.split(b"\r\n")[0], {}, b"", False))
            break
        head = d[:end].split(b"\r\n")
        h = {}
        for line in head[1:]:
            k, _, v = line.partition(b":")
            h[k.strip().lower()] = v.strip()
        d = d[end + 4:]
        if h.get(b"transfer-encoding", b"").lower() == b"chunked":
            body, d, whole = unchunk(d)
        else:
            n = int(h.get(b"content-length", b"0"))
            body, d, whole = d[:n], d[n:], len(d) >= n
        out.append((head[0], h, body, whole))
    return out


def unchunk(d):
    """A chunked body from d: (body, the rest, whether it was whole)."""
    body = b""
    while True:
        end = d.find(b"\r\n")
        if end < 0:
            return body, b"", False
        n = int(d[:end].split(b";")[0], 16)
        if n == 0:
            # No trailer fields: the empty line ends the body.
            return body, d[end + 4:], d[end + 2:end + 4] == b"\r\n"
        body += d[end + 2:end + 2 + n]
        if len(d) < end + 4 + n:
            return body, b"", False
        d = d[end + 4 + n:]


def pipeline(port):
    s = connect(port)
    s.sendall(b"GET /metrics HTTP/1.1\r\nHost: hvtop\r\n\r\n"
              b"GET / HTTP/1.1\r\nHost: hvtop\r\nConnection: close\r\n\r\n")
    for st, h, _, whole in answers(read_all(s)):
        print(st.decode("latin1"), h.get(b"content-type", b"-")
              .decode("latin1").split(";")[0],
              "whole" if whole else "cut")


def headers(port, lo, hi, step):
    base = (b"GET /metrics HTTP/1.1\r\nHost: hvtop\r\n"
            b"Connection: close\r\nX-Pad: ")
    for n in range(lo, hi + 1, step):
        s = connect(port)
        s.sendall(base + b"a" * max(0, n - len(base) - 4) + b"\r\n\r\n")
        st = [a[0] for a in answers(read_all(s))]
        s.close()
        if len(st) != 1:
            print("bad %d %d" % (n, len(st)))
    print("done")


def scrape(port, enc):
    s = connect(port)
    s.sendall(b"GET /metrics HTTP/1.1\r\nHost: hvtop\r\n" + enc +
              b"Connection: close\r\n\r\n")
    a = answers(read_all(s))
    return a[0] if a else (b"", {}, b"", False)


def samples(text):
    m = re.search(rb"^hvtop_samples_total(?:\{[^}]*\})? (\d+)", text, re.M)
    return m.group(1) if m else None


def gzip_same(port):
    for _ in range(20):
        _, ph, plain, _ = scrape(port, b"")
        _, gh, packed, _ = scrape(port, b"Accept-Encoding: gzip\r\n")
        _, _, again, _ = scrape(port, b"")
        if gh.get(b"content-encoding") != b"gzip":
            print("not gzip")
            return
        if b"content-encoding" in ph:
            print("plain scrape encoded")
            return
        if samples(plain) is None or samples(plain) != samples(again):
            continue  # a sample came in between
        print("same" if gzip.decompress(packed) == plain else "differs")
        return
    print("no two scrapes of one sample")


def rss(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def slow(port, pid, n, gap):
    socks = []
    base = peak = rss(pid)
    for i in range(n):
        s = socket.socket()
        # A small window: the answer stays in hvtop, not in the kernel.
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.connect(("127.0.0.1", port))
        s.setblocking(False)
        s.sendall(b"GET /metrics HTTP/1.1\r\nHost: hvtop\r\n\r\n")
        socks.append(s)
        end = time.monotonic() + gap
        while time.monotonic() < end:
            peak = max(peak, rss(pid))
            time.sleep(0.05)
    # Held a while more (the server's deadline, 10 s from the first
    # request, cuts them off about then).
    end = time.monotonic() + 2
    while time.monotonic() < end:
        peak = max(peak, rss(pid))
        time.sleep(0.05)
    for s in socks:
        s.close()
    print("base %d" % base)
    print("peak %d" % peak)


if __name__ == "__main__":
    cmd, port = sys.argv[1], int(sys.argv[2])
    if cmd == "statuses":
        statuses(port, sys.argv[3])
    elif cmd == "pipeline":
        pipeline(port)
    elif cmd == "headers":
        headers(port, int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]))
    elif cmd == "gzip":
        gzip_same(port)
    elif cmd == "slow":
        slow(port, int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5]))
