#!/usr/bin/env python3
"""tests/e2e/h2raw.py: hostile HTTP/2 clients for the DNS over HTTPS test
of curvecache (tests/e2e/doh_lab.sh). Frames are written by hand (HPACK
literals without Huffman), so that the client can break the rules; the
answers are read as DATA frames (a DNS message each), never decoded as
headers.

  h2raw.py ADDR NAME CA MODE

ADDR is the DoH listener (port 443), NAME the certificate's name, CA the
test CA. Modes print one line and exit 0 when the server behaved:

  reset    a GET whose answer waits on a resolution, reset by the client
           at once, then a GET answered on the same connection: "ok"
  streams  150 GETs at once (the server allows 100): "answered N refused R"
           (N at least 100, N + R = 150: every stream answered or refused)
  chunks   a POST whose query comes in 1-byte DATA frames: "ok"
  random   200 frames of random types, flags, streams and payloads after
           the preface: the connection is closed: "closed"
"""

import base64
import random
import socket
import ssl
import struct
import sys
import time

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
DATA, HEADERS, RST, SETTINGS, PING, GOAWAY = 0, 1, 3, 4, 6, 7
END_STREAM, END_HEADERS, ACK = 1, 4, 1


def frame(ftype, flags, sid, payload=b""):
    return struct.pack(">I", len(payload))[1:] + bytes([ftype, flags]) + \
        struct.pack(">I", sid) + payload


def hstr(s):
    """An HPACK string literal: no Huffman, 7-bit prefix length."""
    n = len(s)
    if n < 127:
        return bytes([n]) + s
    out, n = b"\x7f", n - 127
    while n >= 128:
        out += bytes([n % 128 + 128])
        n //= 128
    return out + bytes([n]) + s


def field_block(headers):
    """Literal header fields without indexing, new names."""
    return b"".join(b"\x00" + hstr(n.encode()) + hstr(v.encode())
                    for n, v in headers)


def query(name):
    m = struct.pack(">6H", 0, 0x0100, 1, 0, 0, 0)
    m += b"".join(bytes([len(x)]) + x.encode() for x in name.split("."))
    return m + b"\0" + struct.pack(">2H", 1, 1)


def get_headers(host, name):
    dns = base64.urlsafe_b64encode(query(name)).decode().rstrip("=")
    return field_block([(":method", "GET"), (":scheme", "https"),
                        (":authority", host),
                        (":path", "/dns-query?dns=" + dns)])


class Conn:
    def __init__(self, addr, host, ca):
        ctx = ssl.create_default_context(cafile=ca)
        ctx.set_alpn_protocols(["h2"])
        s = socket.create_connection((addr, 443), timeout=5)
        self.s = ctx.wrap_socket(s, server_hostname=host)
        self.buf = b""
        self.s.sendall(PREFACE + frame(SETTINGS, 0, 0))

    def send(self, data):
        self.s.sendall(data)

    def read_frame(self):
        """One frame (type, flags, stream, payload); None when closed."""
        while len(self.buf) < 9 or \
                len(self.buf) < 9 + int.from_bytes(self.buf[:3], "big"):
            try:
                more = self.s.recv(65536)
            except (OSError, ssl.SSLError):
                return None
            if not more:
                return None
            self.buf += more
        n = int.from_bytes(self.buf[:3], "big")
        f = (self.buf[3], self.buf[4],
             int.from_bytes(self.buf[5:9], "big") & 0x7fffffff,
             self.buf[9:9 + n])
        self.buf = self.buf[9 + n:]
        if f[0] == SETTINGS and not f[1] & ACK:
            try:
                self.send(frame(SETTINGS, ACK, 0))
            except (OSError, ssl.SSLError):
                return None
        return f


def until_data(c, sids):
    """Read until each stream in sids ended (DATA end or RST); returns
    (answered, refused)."""
    answered, refused = set(), set()
    while not sids <= answered | refused:
        f = c.read_frame()
        if f is None:
            break
        if f[0] == DATA and f[1] & END_STREAM:
            answered.add(f[2])
        elif f[0] == RST:
            refused.add(f[2])
        elif f[0] == HEADERS and f[1] & END_STREAM:
            refused.add(f[2])  # an error status, no body
    return answered, refused


def main():
    addr, host, ca, mode = sys.argv[1:5]
    c = Conn(addr, host, ca)
    if mode == "reset":
        c.send(frame(HEADERS, END_HEADERS | END_STREAM, 1,
                     get_headers(host, "reset.example")))
        c.send(frame(RST, 0, 1, struct.pack(">I", 8)))  # CANCEL
        c.send(frame(HEADERS, END_HEADERS | END_STREAM, 3,
                     get_headers(host, "a.lab")))
        answered, _ = until_data(c, {3})
        print("ok" if 3 in answered else "no answer")
    elif mode == "streams":
        c.send(b"".join(frame(HEADERS, END_HEADERS | END_STREAM, 2 * i + 1,
                              get_headers(host, "a.lab"))
                        for i in range(150)))
        answered, refused = until_data(c, {2 * i + 1 for i in range(150)})
        print("answered %d refused %d" % (len(answered), len(refused)))
    elif mode == "chunks":
        hdr = field_block([(":method", "POST"), (":scheme", "https"),
                           (":authority", host), (":path", "/dns-query"),
                           ("content-type", "application/dns-message")])
        c.send(frame(HEADERS, END_HEADERS, 1, hdr))
        q = query("a.lab")
        for i, b in enumerate(q):
            c.send(frame(DATA, END_STREAM if i == len(q) - 1 else 0, 1,
                         bytes([b])))
        answered, _ = until_data(c, {1})
        print("ok" if 1 in answered else "no answer")
    elif mode == "random":
        rnd = random.Random(8484)
        for _ in range(200):
            payload = bytes(rnd.getrandbits(8)
                            for _ in range(rnd.randrange(0, 64)))
            try:
                c.send(frame(rnd.randrange(0, 12), rnd.getrandbits(8),
                             rnd.randrange(0, 8), payload))
            except OSError:
                break
        deadline = time.time() + 5
        while time.time() < deadline and c.read_frame() is not None:
            pass
        print("closed" if time.time() < deadline else "still open")


if __name__ == "__main__":
    main()
