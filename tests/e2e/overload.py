#!/usr/bin/env python3
"""tests/e2e/overload.py: a burst of questions at a fixed rate, each
asked once, every reply judged; for tests/e2e/overload_lab.sh and
tests/bench/bench_overload.sh. Loopback only.

  overload.py SERVER NAMES RATE [WAIT] [--do | --noedns]

Asks SERVER (an address in 127.0.0.0/8, port 53) for the A record of
every name in the file NAMES (one a line), RATE questions a second,
spread over SOCKETS source ports, with EDNS (1232 bytes; DO with --do;
none with --noedns: 512-byte replies),
then waits WAIT seconds (default 6) for the last replies. Prints one
line per notable reply:

  bogus NAME CODE         SERVFAIL with EDE 6 (DNSSEC bogus)
  servfail NAME CODE      another SERVFAIL (CODE: its EDE, or -)
  tcempty NAME RCODE      TC=1 with no record at all (RCODE NOERROR or
                          other)

and at the end one line of counts:

  done sent N answered A noerror X nxdomain Z servfail S bogus B
  tcempty T other O seconds E
"""

import os
import random
import select
import socket
import struct
import sys
import time

SOCKETS = 16
BUF = 1232
WAIT_S = 6.0
TICK_S = 0.005
FLAG_TC = 0x0200
OPT = 41
EDE = 15
EDE_BOGUS = 6
RCODE_NAMES = {0: "NOERROR", 2: "SERVFAIL", 3: "NXDOMAIN"}


def wire_name(text):
    out = b""
    for label in text.rstrip(".").split("."):
        out += bytes([len(label)]) + label.encode("ascii")
    return out + b"\0"


def query(qid, name, dnssec):
    """An A question with an OPT record (DO when dnssec is True; none
    when it is None)."""
    head = struct.pack(">HHHHHH", qid, 0x0100, 1, 0, 0,
                       0 if dnssec is None else 1)
    question = wire_name(name) + struct.pack(">HH", 1, 1)
    if dnssec is None:
        return head + question
    ttl = 0x8000 if dnssec else 0
    return head + question + b"\0" + struct.pack(">HHIH", OPT, BUF, ttl, 0)


def skip_name(msg, pos):
    """The offset after the name at pos (bounded by the message)."""
    while pos < len(msg):
        n = msg[pos]
        if n & 0xC0 == 0xC0:
            return pos + 2
        if n == 0:
            return pos + 1
        pos += n + 1
    raise ValueError("name runs past the message")


def ede_code(msg, pos, count):
    """The first EDE info-code in the additional section, or None."""
    for _ in range(count):
        pos = skip_name(msg, pos)
        if pos + 10 > len(msg):
            raise ValueError("record runs past the message")
        rtype, _, _, rdlen = struct.unpack(">HHIH", msg[pos:pos + 10])
        pos += 10
        end = pos + rdlen
        if end > len(msg):
            raise ValueError("rdata runs past the message")
        while rtype == OPT and pos + 4 <= end:
            code, olen = struct.unpack(">HH", msg[pos:pos + 4])
            if code == EDE and olen >= 2 and pos + 6 <= end:
                return struct.unpack(">H", msg[pos + 4:pos + 6])[0]
            pos += 4 + olen
        pos = end
    return None


def judge(msg):
    """(rcode, tc, records, ede) of a reply."""
    if len(msg) < 12:
        raise ValueError("short reply")
    _, flags, qd, an, ns, ar = struct.unpack(">HHHHHH", msg[:12])
    pos = 12
    for _ in range(qd):
        pos = skip_name(msg, pos) + 4
    for _ in range(an + ns):
        pos = skip_name(msg, pos)
        if pos + 10 > len(msg):
            raise ValueError("record runs past the message")
        pos += 10 + struct.unpack(">H", msg[pos + 8:pos + 10])[0]
    return flags & 0xF, bool(flags & FLAG_TC), an + ns, ede_code(msg, pos,
                                                                  ar)


class Run:
    def __init__(self, server, dnssec):
        self.server = server
        self.dnssec = dnssec
        self.socks = []
        for _ in range(SOCKETS):
            s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
            s.bind(("127.0.0.1", 0))
            s.setblocking(False)
            self.socks.append(s)
        self.pending = {}
        self.counts = dict.fromkeys(["sent", "answered", "noerror",
                                     "nxdomain", "servfail", "bogus",
                                     "tcempty", "other"], 0)

    def send(self, i, name):
        s = self.socks[i % SOCKETS]
        while True:
            qid = random.getrandbits(16)
            if (s.fileno(), qid) not in self.pending:
                break
        try:
            s.sendto(query(qid, name, self.dnssec), (self.server, 53))
        except BlockingIOError:
            return
        self.pending[(s.fileno(), qid)] = name
        self.counts["sent"] += 1

    def note(self, name, msg):
        c = self.counts
        try:
            rcode, tc, records, ede = judge(msg)
        except (ValueError, struct.error):
            c["other"] += 1
            print("unparsable", name)
            return
        c["answered"] += 1
        if tc and records == 0:
            c["tcempty"] += 1
            print("tcempty", name, RCODE_NAMES.get(rcode, rcode))
        if rcode == 2 and ede == EDE_BOGUS:
            c["bogus"] += 1
            print("bogus", name, ede)
        elif rcode == 2:
            c["servfail"] += 1
            print("servfail", name, "-" if ede is None else ede)
        elif rcode in (0, 3):
            c["noerror" if rcode == 0 else "nxdomain"] += 1
        else:
            c["other"] += 1

    def read(self, timeout):
        ready, _, _ = select.select(self.socks, [], [], timeout)
        for s in ready:
            while True:
                try:
                    msg = s.recv(65535)
                except BlockingIOError:
                    break
                if len(msg) < 2:
                    continue
                name = self.pending.pop(
                    (s.fileno(), struct.unpack(">H", msg[:2])[0]), None)
                if name is not None:
                    self.note(name, msg)


def main(argv):
    if len(argv) < 4:
        sys.exit(__doc__)
    server, path, rate = argv[1], argv[2], float(argv[3])
    wait = float(argv[4]) if len(argv) > 4 and argv[4][0] != "-" else WAIT_S
    if not server.startswith("127."):
        sys.exit("overload.py: loopback servers only")
    with open(path) as f:
        names = [line.split()[0] for line in f if line.strip()]
    run = Run(server, None if "--noedns" in argv else "--do" in argv)
    t0 = time.monotonic()
    i = 0
    while i < len(names):
        due = min(len(names), int((time.monotonic() - t0) * rate) + 1)
        while i < due:
            run.send(i, names[i])
            i += 1
        run.read(TICK_S)
    end = time.monotonic() + wait
    while run.pending and time.monotonic() < end:
        run.read(min(0.1, max(0.0, end - time.monotonic())))
    c = run.counts
    print("done", " ".join("%s %d" % (k, c[k]) for k in c),
          "seconds %.1f" % (time.monotonic() - t0))
    sys.stdout.flush()
    os._exit(0)


if __name__ == "__main__":
    main(sys.argv)
