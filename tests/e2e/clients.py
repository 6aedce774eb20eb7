#!/usr/bin/env python3
"""tests/e2e/clients.py: misbehaving DNS clients, for the client-side
hardening test of curvecache (tests/e2e/clients_lab.sh). Stdlib only;
loopback only.

  clients.py malformed DST
      Sends one malformed query per case over UDP (and a few over TCP) to
      DST port 53 and prints one line per case:
        "case NAME got RCODE want A|B|... ok" (or "... BAD")
      RCODE is the response code (BADVERS included) or "none" (no answer
      within a second: dropped). Then 2000 random packets, and prints
      "random sent 2000 answered K".

  clients.py burst DST SRC N [NAME]
      N queries for NAME (default www.example.lab) A from SRC, BURST_CHUNK
      at a time 2 ms apart; counts the answers that come within 2 s:
        "burst answered K of N in W ms"
      W runs from the first query sent to the last answer received (or
      the end of sending): the time in which a rate limit could refill.

  clients.py tcpflood DST N SECONDS
      Opens N TCP connections to DST port 53 (a few at a time, each left
      idle) and holds them for SECONDS; prints "tcpflood opened K of N"
      when all were tried and "tcpflood closed-by-server C" at the end.

  clients.py slowloris DST SECONDS
      One TCP connection that sends a query one byte per second; prints
      "slowloris closed after S s" when the server closes it, or
      "slowloris still open after S s".

  clients.py flood DST N RATE ZONE
      N queries for unique random names under ZONE (a random subdomain
      attack) at RATE per second, answers read and thrown away; prints
      "flood sent N answered K servfail S".
"""

import os
import random
import resource
import select
import socket
import struct
import sys
import time

RCODES = {0: "NOERROR", 1: "FORMERR", 2: "SERVFAIL", 3: "NXDOMAIN",
          4: "NOTIMP", 5: "REFUSED", 16: "BADVERS"}
RANDOM_PACKETS = 2000
# A burst goes out in chunks, so that no socket buffer overflows.
BURST_CHUNK = 25
BURST_PAUSE = 0.002


def wire_name(name):
    out = b""
    for label in name.rstrip(".").split("."):
        out += bytes([len(label)]) + label.encode()
    return out + b"\0"


def header(qid=None, flags=0x0100, qd=1, an=0, ns=0, ar=0):
    if qid is None:
        qid = random.randrange(65536)
    return struct.pack("!HHHHHH", qid, flags, qd, an, ns, ar)


def question(name="www.example.lab", qtype=1, qclass=1):
    return wire_name(name) + struct.pack("!HH", qtype, qclass)


def opt(version=0, count=1):
    rr = b"\0" + struct.pack("!HHBBHH", 41, 1232, 0, version, 0, 0)
    return rr * count


def rcode_of(resp):
    """The full RCODE of a response (extended by its OPT record)."""
    if len(resp) < 12:
        return "short"
    rc = resp[3] & 0x0f
    ar = struct.unpack("!H", resp[10:12])[0]
    if ar and resp[-11:-10] == b"\0" and resp[-10:-8] == b"\0\x29":
        rc |= resp[-6] << 4
    return RCODES.get(rc, str(rc))


def udp_ask(dst, pkt, timeout=1.0, src="0.0.0.0"):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind((src, 0))
    s.settimeout(timeout)
    try:
        s.sendto(pkt, (dst, 53))
        return s.recv(65535)
    except socket.timeout:
        return None
    finally:
        s.close()


def tcp_ask(dst, payload, timeout=2.0):
    """payload as sent (length prefix included); the reply or None."""
    s = socket.create_connection((dst, 53), timeout=timeout)
    try:
        s.sendall(payload)
        head = s.recv(2)
        if len(head) < 2:
            return None
        n = struct.unpack("!H", head)[0]
        buf = b""
        while len(buf) < n:
            chunk = s.recv(n - len(buf))
            if not chunk:
                return None
            buf += chunk
        return buf
    except (socket.timeout, ConnectionError):
        return None
    finally:
        s.close()


def malformed_cases():
    """(name, packet, allowed answers, transport)."""
    q = question()
    long_name = b"".join(bytes([63]) + b"a" * 63 for _ in range(5)) + b"\0"
    return [
        ("qdcount-2", header(qd=2) + q, "FORMERR|none"),
        ("qdcount-0", header(qd=0), "FORMERR|none"),
        ("qdcount-65535", header(qd=65535) + q, "FORMERR|none"),
        ("ancount-5-empty", header(an=5) + q, "FORMERR|none"),
        ("arcount-3-empty", header(ar=3) + q, "FORMERR|none"),
        ("name-truncated", header() + b"\x14abc", "FORMERR|none"),
        ("no-qtype", header() + wire_name("www.example.lab"),
         "FORMERR|none"),
        ("pointer-to-itself", header() + b"\xc0\x0c\0\1\0\1",
         "FORMERR|none"),
        ("pointer-loop", header() + b"\x01a\xc0\x0e\xc0\x0c\0\1\0\1",
         "FORMERR|none"),
        ("pointer-forward", header() + b"\xc0\x20\0\1\0\1",
         "FORMERR|none"),
        ("label-type-01", header() + b"\x41abc\0\0\1\0\1",
         "FORMERR|none"),
        ("name-over-255", header() + long_name + b"\0\1\0\1",
         "FORMERR|none"),
        ("class-42", header() + question(qclass=42), "REFUSED|NOTIMP"),
        ("class-CH", header() + question(qclass=3), "REFUSED|NOTIMP"),
        ("class-ANY", header() + question(qclass=255), "REFUSED|NOTIMP"),
        ("opcode-STATUS", header(flags=0x1100) + q, "NOTIMP"),
        ("opcode-NOTIFY", header(flags=0x2100) + q, "NOTIMP|REFUSED"),
        ("opcode-UPDATE", header(flags=0x2900) + q, "NOTIMP|REFUSED"),
        ("opcode-15", header(flags=0x7900) + q, "NOTIMP"),
        ("qtype-OPT", header() + question(qtype=41), "FORMERR"),
        ("qtype-AXFR", header() + question(qtype=252), "REFUSED|NOTIMP"),
        ("two-OPT", header(ar=2) + q + opt(count=2), "FORMERR"),
        ("edns-version-1", header(ar=1) + q + opt(version=1), "BADVERS"),
        ("qr-set", header(flags=0x8100) + q, "none"),
        ("header-5-bytes", header()[:5], "none"),
        ("empty", b"", "none"),
        ("trailing-garbage", header() + q + os.urandom(40),
         "FORMERR|NOERROR|none"),
    ]


def run_malformed(dst):
    for name, pkt, want in malformed_cases():
        resp = udp_ask(dst, pkt)
        got = "none" if resp is None else rcode_of(resp)
        verdict = "ok" if got in want.split("|") else "BAD"
        print("case udp-%s got %s want %s %s" % (name, got, want, verdict))
    q = header() + question()
    for name, payload, want in [
            ("tcp-length-0", b"\0\0" + struct.pack("!H", len(q)) + q,
             "FORMERR|none|NOERROR"),
            ("tcp-pointer-loop",
             struct.pack("!H", 18) + header() + b"\xc0\x0c\0\1\0\1",
             "FORMERR|none"),
            ("tcp-opcode-STATUS",
             struct.pack("!H", len(q)) + header(flags=0x1100) + q[12:],
             "NOTIMP")]:
        resp = tcp_ask(dst, payload)
        got = "none" if resp is None else rcode_of(resp)
        verdict = "ok" if got in want.split("|") else "BAD"
        print("case %s got %s want %s %s" % (name, got, want, verdict))
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    answered = 0
    for _ in range(RANDOM_PACKETS):
        s.sendto(os.urandom(random.randrange(0, 600)), (dst, 53))
    s.settimeout(1.0)
    try:
        while True:
            s.recv(65535)
            answered += 1
    except socket.timeout:
        pass
    print("random sent %d answered %d" % (RANDOM_PACKETS, answered),
          flush=True)


def run_burst(dst, src, n, name):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind((src, 0))
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
    q = question(name)
    t0 = time.monotonic()
    for i in range(n):
        s.sendto(header(qid=i) + q, (dst, 53))
        if i % BURST_CHUNK == BURST_CHUNK - 1:
            time.sleep(BURST_PAUSE)
    last = time.monotonic()
    seen = set()
    s.settimeout(2.0)
    try:
        while len(seen) < n:
            resp = s.recv(65535)
            seen.add(struct.unpack("!H", resp[:2])[0])
            last = time.monotonic()
    except socket.timeout:
        pass
    print("burst answered %d of %d in %d ms" %
          (len(seen), n, int((last - t0) * 1000) + 1), flush=True)


def run_tcpflood(dst, n, seconds):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = min(hard, n + 64)
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    socks = []
    for _ in range(n):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setblocking(False)
        try:
            s.connect((dst, 53))
        except BlockingIOError:
            pass
        except OSError:
            s.close()
            continue
        socks.append(s)
        if len(socks) % 200 == 0:
            time.sleep(0.02)
    print("tcpflood opened %d of %d" % (len(socks), n), flush=True)
    closed = set()
    end = time.time() + seconds
    while time.time() < end:
        r, _, _ = select.select(
            [s for s in socks[:1000] if s not in closed], [], [], 0.5)
        for s in r:
            try:
                if not s.recv(1):
                    closed.add(s)
            except OSError:
                closed.add(s)
    print("tcpflood closed-by-server %d" % len(closed), flush=True)


def run_slowloris(dst, seconds):
    q = header() + question()
    msg = struct.pack("!H", len(q)) + q
    s = socket.create_connection((dst, 53), timeout=5)
    t0 = time.time()
    for i in range(int(seconds)):
        try:
            s.send(msg[i % len(msg):i % len(msg) + 1])
        except OSError:
            break
        r, _, _ = select.select([s], [], [], 1.0)
        if r:
            try:
                if not s.recv(65535):
                    break
            except OSError:
                break
    else:
        print("slowloris still open after %d s" % (time.time() - t0))
        return
    print("slowloris closed after %d s" % (time.time() - t0), flush=True)


def run_flood(dst, n, rate, zone):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 22)
    s.setblocking(False)
    answered = servfail = 0
    t0 = time.time()
    for i in range(n):
        name = "r%08x.%s" % (random.getrandbits(32), zone)
        s.sendto(header(qid=i & 0xffff) + question(name), (dst, 53))
        while True:
            try:
                resp = s.recv(65535)
            except BlockingIOError:
                break
            answered += 1
            servfail += (resp[3] & 0x0f) == 2
        lag = t0 + (i + 1) / rate - time.time()
        if lag > 0:
            time.sleep(lag)
    end = time.time() + 6
    while time.time() < end:
        r, _, _ = select.select([s], [], [], 0.5)
        if r:
            resp = s.recv(65535)
            answered += 1
            servfail += (resp[3] & 0x0f) == 2
    print("flood sent %d answered %d servfail %d" % (n, answered,
                                                       servfail), flush=True)


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    mode, dst = argv[1], argv[2]
    if not dst.startswith("127."):
        sys.exit("clients.py: loopback only")
    if mode == "malformed":
        run_malformed(dst)
    elif mode == "burst":
        run_burst(dst, argv[3], int(argv[4]),
                  argv[5] if len(argv) > 5 else "www.example.lab")
    elif mode == "tcpflood":
        run_tcpflood(dst, int(argv[3]), float(argv[4]))
    elif mode == "slowloris":
        run_slowloris(dst, float(argv[3]))
    elif mode == "flood":
        run_flood(dst, int(argv[3]), float(argv[4]), argv[5])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
