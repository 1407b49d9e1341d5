#!/usr/bin/env python3
# Misbehaving HTTP clients for test-hvtop-serve-abuse.sh.
#   serve-abuse.py slow PORT N-SLOW N-IDLE SECONDS
#     N-SLOW clients each send a request one byte a second, N-IDLE connect
#     and send nothing; a client the server closes connects again.  Prints
#     "ready" once all are connected, then at the end how many slow
#     clients the server cut off while they were sending ("cut N") and the
#     longest life of one ("longest S").
#   serve-abuse.py full PORT N SECONDS
#     N connections at once that send nothing, held; prints "ready", then
#     how many the server closed ("closed N") and whether the first ones
#     opened went first ("oldest-first yes|no").
import selectors
import socket
import sys
import time

HEAD = b"GET /metrics HTTP/1.1\r\nHost: hvtop\r\nX-Slow: "


def connect(port):
    s = socket.create_connection(("127.0.0.1", port))
    s.setblocking(False)
    return s


def slow(port, nslow, nidle, seconds):
    sel = selectors.DefaultSelector()
    conns = {}  # socket -> [kind, opened, bytes sent]

    def add(kind):
        s = connect(port)
        conns[s] = [kind, time.monotonic(), 0]
        sel.register(s, selectors.EVENT_READ)

    for _ in range(nslow):
        add("slow")
    for _ in range(nidle):
        add("idle")
    print("ready", flush=True)
    cut, longest = 0, 0.0
    end = time.monotonic() + seconds
    tick = time.monotonic()
    while time.monotonic() < end:
        for key, _ in sel.select(timeout=0.2):
            s = key.fileobj
            try:
                data = s.recv(4096)
            except OSError:
                data = b""
            if data:
                continue
            kind, opened, _ = conns.pop(s)
            sel.unregister(s)
            s.close()
            if kind == "slow":
                cut += 1
                longest = max(longest, time.monotonic() - opened)
            add(kind)
        if time.monotonic() >= tick:
            tick += 1.0
            for s, c in list(conns.items()):
                if c[0] != "slow":
                    continue
                b = HEAD[c[2]:c[2] + 1] if c[2] < len(HEAD) else b"a"
                try:
                    s.send(b)
                    c[2] += 1
                except OSError:
                    pass
    print("cut %d" % cut)
    print("longest %.1f" % longest)


def full(port, n, seconds):
    socks = []
    for _ in range(n):
        socks.append(connect(port))
    print("ready", flush=True)
    closed = [False] * n
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for i, s in enumerate(socks):
            if closed[i]:
                continue
            try:
                if s.recv(4096) == b"":
                    closed[i] = True
            except BlockingIOError:
                pass
            except OSError:
                closed[i] = True
        time.sleep(0.1)
    k = sum(closed)
    print("closed %d" % k)
    print("oldest-first %s" % ("yes" if k > 0 and all(closed[:k]) else "no"))


if __name__ == "__main__":
    if sys.argv[1] == "slow":
        slow(int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]),
             float(sys.argv[5]))
    else:
        full(int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]))
