#!/usr/bin/env python3
"""tests/bench/tlsidle.py: idle TLS clients for tests/bench/bench_srvtls.sh.

  tlsidle.py ADDR PORT CA NAME N ALPN HOLD READY

Opens N TLS connections to ADDR:PORT (certificate of NAME checked
against the test CA), 16 handshakes at a time, and leaves them idle:
with ALPN "dot" nothing is sent after the handshake; with "h2" the
HTTP/2 preface and an empty SETTINGS frame are sent (what a DoH client
sends before its first request), so the server sets its HTTP/2 session
up. When every attempt has ended, writes "opened K failed F" to the file
READY (the caller reads the server's memory then), holds the
connections HOLD seconds, counts those the server has not closed, then
asks one DNS over TLS question on a fresh connection (port 853, up to 3
tries: a server at its connection limit may close the first) and prints

  opened K failed F held H fresh T

(T: the try that was answered, 0 if none was). Bounded: every socket
operation has a 5 s timeout, and the program ends by itself.
"""

import concurrent.futures
import resource
import socket
import ssl
import struct
import sys
import time

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
SETTINGS = b"\x00\x00\x00\x04\x00\x00\x00\x00\x00"
TIMEOUT = 5.0
PARALLEL = 16
TRIES = 3
FD_SPARE = 64


def context(ca, alpn):
    ctx = ssl.create_default_context(cafile=ca)
    ctx.set_alpn_protocols([alpn])
    return ctx


def dial(addr, port, ctx, name, alpn):
    """One connection after its handshake, or None."""
    try:
        s = socket.create_connection((addr, port), timeout=TIMEOUT)
    except OSError:
        return None
    try:
        t = ctx.wrap_socket(s, server_hostname=name)
        if alpn == "h2":
            t.sendall(PREFACE + SETTINGS)
        return t
    except (OSError, ssl.SSLError):
        s.close()
        return None


def still_open(t):
    """False when the server has closed the connection."""
    t.setblocking(False)
    try:
        while True:
            if not t.recv(65536):
                return False
    except (ssl.SSLWantReadError, BlockingIOError):
        return True
    except (OSError, ssl.SSLError):
        return False


def ask(addr, ctx, name):
    """One query over a fresh DoT connection; True if answered."""
    t = dial(addr, 853, ctx, name, "dot")
    if t is None:
        return False
    q = struct.pack(">6H", 0x4242, 0x0100, 1, 0, 0, 0)
    q += b"\x02n1\x05bench\x03lab\x00" + struct.pack(">2H", 1, 1)
    try:
        t.sendall(struct.pack(">H", len(q)) + q)
        got = b""
        while len(got) < 4:
            more = t.recv(4096)
            if not more:
                return False
            got += more
        return got[2:4] == b"\x42\x42"
    except (OSError, ssl.SSLError):
        return False
    finally:
        t.close()


def main():
    addr, port, ca, name, n, alpn, hold, ready = sys.argv[1:9]
    n, port, hold = int(n), int(port), float(hold)
    want = n + FD_SPARE
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < want:
        want = hard
    resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    ctx = context(ca, alpn)
    with concurrent.futures.ThreadPoolExecutor(PARALLEL) as pool:
        conns = list(pool.map(lambda _: dial(addr, port, ctx, name, alpn),
                              range(n)))
    opened = [t for t in conns if t is not None]
    with open(ready, "w", encoding="ascii") as f:
        f.write("opened %d failed %d\n" % (len(opened), n - len(opened)))
    time.sleep(hold)
    held = sum(1 for t in opened if still_open(t))
    fresh = 0
    dot = context(ca, "dot")
    for i in range(1, TRIES + 1):
        if ask(addr, dot, name):
            fresh = i
            break
        time.sleep(0.1)
    for t in opened:
        t.close()
    print("opened %d failed %d held %d fresh %d" %
          (len(opened), n - len(opened), held, fresh))


if __name__ == "__main__":
    main()
