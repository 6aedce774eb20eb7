#!/usr/bin/env python3
"""tests/e2e/tlsflood.py: many hostile TLS clients at once, for
tests/e2e/tlsflood_lab.sh.

tlsflood.py HOST DOT_PORT DOH_PORT N_DOT N_DOH HOLD_FILE

Opens N_DOT connections to HOST:DOT_PORT and N_DOH to HOST:DOH_PORT, all
non-blocking, from one selector loop, of these kinds (by index):
  idle   TLS handshake finished (ALPN dot or h2), then silence
  half   TCP connected, nothing sent (a half-open TLS client)
  hello  the ClientHello sent, the server's flight never read
  junk   connected, 512 random bytes sent
  slow   handshake finished, then one byte of a DNS frame a second
Connections the server closes are counted and not opened again. Once
every connection is settled (or 20 s passed) it prints
"ready opened=N done=N closed=N", then holds the sockets (the slow
clients keep dripping) until HOLD_FILE is removed, closes them all,
prints "closed" and exits 0.
"""
import os
import random
import selectors
import socket
import ssl
import sys
import time

KINDS = ["idle"] * 5 + ["half"] * 2 + ["hello"] * 2 + ["junk"]
SETTLE_S = 20.0
QUERY = (b"\x00\x1d\x12\x34\x01\x00\x00\x01\x00\x00\x00\x00\x00\x00"
         b"\x01a\x03lab\x00\x00\x01\x00\x01")


def kind_of(i):
    # one in 20 a slow client, the rest in KINDS' proportions
    return "slow" if i % 20 == 19 else KINDS[i % len(KINDS)]


class Conn:
    def __init__(self, sel, ctx, host, port, kind, alpn):
        self.kind = kind
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setblocking(False)
        self.state = "connect"
        self.tls = None
        self.drip = 0
        self.ctx = ctx
        self.alpn = alpn
        self.sel = sel
        self.sock.connect_ex((host, port))
        sel.register(self.sock, selectors.EVENT_WRITE, self)

    def settled(self):
        return self.state in ("hold", "closed")

    def close(self):
        if self.state != "closed":
            try:
                self.sel.unregister(self.tls or self.sock)
            except (KeyError, ValueError):
                pass
            (self.tls or self.sock).close()
            self.state = "closed"

    def step(self):
        try:
            self._step()
        except (ssl.SSLError, OSError):
            self.close()

    def _step(self):
        if self.state == "connect":
            err = self.sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
            if err:
                self.close()
                return
            if self.kind == "half":
                self.hold()
            elif self.kind == "junk":
                self.sock.send(os.urandom(512))
                self.hold()
            else:
                self.sel.unregister(self.sock)
                self.tls = self.ctx.wrap_socket(
                    self.sock, server_hostname=None,
                    do_handshake_on_connect=False)
                self.state = "hs"
                self.sel.register(self.tls, selectors.EVENT_READ, self)
                self.handshake()
        elif self.state == "hs":
            self.handshake()
        elif self.state == "hold":
            # the server closed it (or sent something): EOF closes
            s = self.tls or self.sock
            try:
                if not s.recv(4096):
                    self.close()
            except (ssl.SSLWantReadError, BlockingIOError):
                pass

    def handshake(self):
        try:
            self.tls.do_handshake()
        except ssl.SSLWantReadError:
            if self.kind == "hello":
                self.hold()
            return
        self.hold()

    def hold(self):
        self.state = "hold"
        s = self.tls or self.sock
        self.sel.modify(s, selectors.EVENT_READ, self)

    def tick(self):
        if self.kind == "slow" and self.state == "hold" and \
                self.drip < len(QUERY):
            try:
                self.tls.send(QUERY[self.drip:self.drip + 1])
                self.drip += 1
            except (ssl.SSLError, OSError):
                self.close()


def main():
    host, dport, hport = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    ndot, ndoh, hold = int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
    sel = selectors.DefaultSelector()
    ctxs = {}
    for alpn in ("dot", "h2"):
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        ctx.check_hostname = False
        ctx.verify_mode = ssl.CERT_NONE
        ctx.set_alpn_protocols([alpn])
        ctxs[alpn] = ctx
    conns = []
    specs = [(dport, "dot")] * ndot + [(hport, "h2")] * ndoh
    random.seed(53)
    t0 = time.monotonic()
    for i, (port, alpn) in enumerate(specs):
        conns.append(Conn(sel, ctxs[alpn], host, port, kind_of(i), alpn))
        if i % 200 == 199:  # let the server's accept loop breathe
            for key, _ in sel.select(0.01):
                key.data.step()
    while time.monotonic() - t0 < SETTLE_S and \
            not all(c.settled() for c in conns):
        for key, _ in sel.select(0.2):
            key.data.step()
    done = sum(1 for c in conns if c.state == "hold")
    closed = sum(1 for c in conns if c.state == "closed")
    print("ready opened=%d held=%d closed=%d (%.1f s)" %
          (len(conns), done, closed, time.monotonic() - t0), flush=True)
    last = time.monotonic()
    while os.path.exists(hold):
        for key, _ in sel.select(0.2):
            key.data.step()
        if time.monotonic() - last >= 1.0:
            last = time.monotonic()
            for c in conns:
                c.tick()
    held = sum(1 for c in conns if c.state == "hold")
    print("at the end: held=%d (the server closed the others)" % held,
          flush=True)
    for c in conns:
        c.close()
    print("closed", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
