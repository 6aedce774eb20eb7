#!/usr/bin/env python3
"""tests/e2e/faulty.py: authoritative servers that misbehave, for the
fault-injection test of curvecache (tests/e2e/faults_lab.sh). Stdlib
only; root only (port 53). Loopback only.

  faulty.py MODE@ADDR [MODE@ADDR...] SECONDS

Each MODE@ADDR is one server on ADDR port 53, UDP and TCP, that plays the
zone named by the first label of the question that equals MODE and
everything right of it (www.slow.g.fault.lab. in mode slow: zone
slow.g.fault.lab.); a question without such a label gets REFUSED. The
zone's data, when the mode answers at all: SOA and NS (ns.ZONE, A ADDR)
at the apex, www.ZONE A 192.0.2.99, NXDOMAIN below the apex otherwise.
Modes:

  silent    never answers (UDP ignored; TCP accepted, then nothing)
  slow      the right answer after SLOW_SECS (2 s)
  badid     the right answer with a wrong ID
  badq      the right answer for another question name (x.QNAME)
  refused   REFUSED
  servfail  SERVFAIL
  tc        TC=1 with no records on every UDP answer; over TCP, half of
            the answer, then the connection is closed
  garbage   random bytes (UDP and TCP, of random length)
  huge      UDP: TC=1; TCP: big.ZONE TXT is HUGE_RECORDS TXT records of
            HUGE_TXT_BYTES bytes (about 60 KB); www.ZONE as usual
  refself   every question gets a referral to ZONE itself, NS ns.ZONE,
            glue ADDR (a referral loop through one server)
  refping   a question below ZONE gets a referral down, for the next
            label's zone CUT (www.ZONE), NS ns.CUT, glue PEER (the
            address of mode refpong); refpong (which plays CUT) refers
  refpong   back up: ZONE, NS ns.ZONE, glue refping's address: a loop
            through two servers
  cname     a.ZONE CNAME b.ZONE, b.ZONE CNAME a.ZONE (a loop), nK.ZONE
            CNAME n(K+1).ZONE (an endless chain); www as usual
  glueless  an endless chain of glueless delegations: a question about
            NAME below cK.ZONE gets a referral for cK.ZONE to
            ns.c(K+1).ZONE with no glue (whose address is again behind a
            fresh delegation, and so on); the apex as usual

Prints "faulty ready" when every socket is bound and one line per
question: "MODE ADDR PROTO QNAME QTYPE". Stops after SECONDS or on
SIGTERM.
"""

import os
import queue
import random
import signal
import socket
import struct
import sys
import threading
import time

SLOW_SECS = 2.0
HUGE_RECORDS = 210
HUGE_TXT_BYTES = 250
WWW_ADDR = "192.0.2.99"
TTL = 300
TYPE_A, TYPE_NS, TYPE_CNAME, TYPE_SOA, TYPE_TXT = 1, 2, 5, 6, 16
RCODE_SERVFAIL, RCODE_NXDOMAIN, RCODE_REFUSED = 2, 3, 5
FLAG_QR, FLAG_AA, FLAG_TC = 0x8000, 0x0400, 0x0200
MODES = ("silent", "slow", "badid", "badq", "refused", "servfail", "tc",
         "garbage", "huge", "refself", "refping", "refpong", "cname",
         "glueless")
TCP_MAX_CONNS = 64
LOG_LOCK = threading.Lock()
PEERS = {}


def log(*words):
    with LOG_LOCK:
        print(*words, flush=True)


def wire_name(name):
    out = b""
    for label in name.rstrip(".").split("."):
        if label:
            out += bytes([len(label)]) + label.encode()
    return out + b"\0"


def rr(name, rtype, rdata, ttl=TTL):
    return (wire_name(name) + struct.pack("!HHIH", rtype, 1, ttl,
                                          len(rdata)) + rdata)


def parse_query(pkt):
    """(id, flags, qname text, qname wire, qtype) or None."""
    if len(pkt) < 12:
        return None
    qid, flags, qd = struct.unpack("!HHH", pkt[:6])
    if flags & FLAG_QR or qd != 1:
        return None
    pos, labels = 12, []
    while pos < len(pkt):
        n = pkt[pos]
        if n == 0 or n > 63:
            break
        labels.append(pkt[pos + 1:pos + 1 + n].decode("ascii", "replace"))
        pos += 1 + n
    if pos + 5 > len(pkt) or pkt[pos] != 0:
        return None
    qwire = pkt[12:pos + 1]
    qtype = struct.unpack("!H", pkt[pos + 1:pos + 3])[0]
    return qid, flags, ".".join(labels) + ".", qwire, qtype


def zone_of(mode, qname):
    labels = qname.lower().rstrip(".").split(".")
    for i, label in enumerate(labels):
        if label == mode:
            return ".".join(labels[i:]) + "."
    return None


def message(qid, flags, qwire, qtype, rcode=0, an=(), ns=(), ar=()):
    head = struct.pack("!HHHHHH", qid, FLAG_QR | flags | rcode, 1,
                       len(an), len(ns), len(ar))
    return (head + qwire + struct.pack("!HH", qtype, 1) + b"".join(an) +
            b"".join(ns) + b"".join(ar))


def soa(zone):
    rdata = (wire_name("ns." + zone) + wire_name("hostmaster." + zone) +
             struct.pack("!IIIII", 1, 1800, 900, 604800, TTL))
    return rr(zone, TYPE_SOA, rdata)


def referral(q, cut, nsname, glue):
    """A referral for cut to nsname (with glue, if given)."""
    ar = [rr(nsname, TYPE_A, socket.inet_aton(glue))] if glue else []
    return message(q[0], 0, q[3], q[4],
                   ns=[rr(cut, TYPE_NS, wire_name(nsname))], ar=ar)


def authoritative(q, zone, addr, mode):
    """The zone's true answer to question q."""
    qid, _, qname, qwire, qtype = q
    name = qname.lower()
    an, rcode = [], 0
    if name == zone:
        if qtype == TYPE_SOA:
            an = [soa(zone)]
        elif qtype == TYPE_NS:
            an = [rr(zone, TYPE_NS, wire_name("ns." + zone))]
    elif name == "ns." + zone and qtype == TYPE_A:
        an = [rr(name, TYPE_A, socket.inet_aton(addr))]
    elif name == "www." + zone:
        if qtype == TYPE_A:
            an = [rr(name, TYPE_A, socket.inet_aton(WWW_ADDR))]
    elif name == "big." + zone and mode == "huge":
        if qtype == TYPE_TXT:
            an = [rr(name, TYPE_TXT, bytes([HUGE_TXT_BYTES - 1]) +
                     b"%04d" % i + b"x" * (HUGE_TXT_BYTES - 5))
                  for i in range(HUGE_RECORDS)]
    elif name in ("a." + zone, "b." + zone) and mode == "cname":
        other = ("b." if name.startswith("a.") else "a.") + zone
        an = [rr(name, TYPE_CNAME, wire_name(other))]
    elif mode == "cname" and name.startswith("n") and \
            name[1:].split(".")[0].isdigit() and name.count(".") == \
            zone.count(".") + 1:
        k = int(name[1:].split(".")[0])
        an = [rr(name, TYPE_CNAME, wire_name("n%d.%s" % (k + 1, zone)))]
    else:
        rcode = RCODE_NXDOMAIN
    ns = [soa(zone)] if not an else []
    return message(qid, FLAG_AA, qwire, qtype, rcode, an=an, ns=ns)


def glueless(q, zone, addr):
    name = q[2].lower()
    if name == zone or name == "ns." + zone:
        return authoritative(q, zone, addr, "glueless")
    below = name[:-len(zone)].rstrip(".").split(".")[-1]
    k = int(below[1:]) if below[:1] == "c" and below[1:].isdigit() else 0
    cut = "%s.%s" % (below, zone)
    return referral(q, cut, "ns.c%d.%s" % (k + 1, zone), None)


def refloop(mode, q, zone, addr):
    """refping refers down to refpong, refpong back up to refping."""
    if mode == "refpong":
        return referral(q, zone, "ns." + zone, PEERS.get("refping", addr))
    name = q[2].lower()
    if name == zone:
        return authoritative(q, zone, addr, mode)
    cut = name[:-len(zone)].rstrip(".").split(".")[-1] + "." + zone
    return referral(q, cut, "ns." + cut, PEERS.get("refpong", addr))


def answer(mode, addr, q, proto):
    """The bytes to send for question q (None: nothing)."""
    zone = zone_of("refping" if mode == "refpong" else mode, q[2])
    if zone is None:
        return message(q[0], 0, q[3], q[4], RCODE_REFUSED)
    good = authoritative(q, zone, addr, mode)
    if mode == "badid":
        return struct.pack("!H", (q[0] + 1 + random.randrange(65535))
                           % 65536) + good[2:]
    if mode == "badq":
        return message(q[0], FLAG_AA, b"\1x" + q[3], q[4])
    if mode in ("refused", "servfail"):
        rcode = RCODE_REFUSED if mode == "refused" else RCODE_SERVFAIL
        return message(q[0], 0, q[3], q[4], rcode)
    if mode in ("tc", "huge") and proto == "udp":
        return message(q[0], FLAG_AA | FLAG_TC, q[3], q[4])
    if mode == "garbage":
        return os.urandom(random.randrange(1, 600))
    if mode == "refself":
        return referral(q, zone, "ns." + zone, addr)
    if mode in ("refping", "refpong"):
        return refloop(mode, q, zone, addr)
    if mode == "glueless":
        return glueless(q, zone, addr)
    return good


def delayed_sender(sock, due):
    """Send (time, packet, peer) items of due at their time (FIFO: all
    delays are equal)."""
    while True:
        when, out, peer = due.get()
        wait = when - time.time()
        if wait > 0:
            time.sleep(wait)
        sock.sendto(out, peer)


def serve_udp(mode, addr, sock):
    due = queue.Queue()
    if mode == "slow":
        threading.Thread(target=delayed_sender, args=(sock, due),
                         daemon=True).start()
    while True:
        pkt, peer = sock.recvfrom(65535)
        q = parse_query(pkt)
        if q is None:
            continue
        log(mode, addr, "udp", q[2], q[4])
        if mode == "silent":
            continue
        out = answer(mode, addr, q, "udp")
        if mode == "slow":
            due.put((time.time() + SLOW_SECS, out, peer))
        elif out is not None:
            sock.sendto(out, peer)


def recv_exact(conn, n):
    buf = b""
    while len(buf) < n:
        chunk = conn.recv(n - len(buf))
        if not chunk:
            return None
        buf += chunk
    return buf


def tcp_conn(mode, addr, conn):
    with conn:
        while True:
            head = recv_exact(conn, 2)
            if head is None:
                return
            pkt = recv_exact(conn, struct.unpack("!H", head)[0])
            q = parse_query(pkt or b"")
            if q is None:
                return
            log(mode, addr, "tcp", q[2], q[4])
            if mode == "silent":
                time.sleep(30)
                return
            out = answer(mode, addr, q, "tcp")
            if mode == "slow":
                time.sleep(SLOW_SECS)
            msg = struct.pack("!H", len(out)) + out
            if mode == "tc":
                conn.sendall(msg[:len(msg) // 2])
                return
            conn.sendall(msg)


def serve_tcp(mode, addr, sock):
    sem = threading.BoundedSemaphore(TCP_MAX_CONNS)
    while True:
        conn, _ = sock.accept()
        conn.settimeout(30)
        if not sem.acquire(blocking=False):
            conn.close()
            continue

        def run(c=conn):
            try:
                tcp_conn(mode, addr, c)
            except OSError:
                pass
            finally:
                sem.release()
        threading.Thread(target=run, daemon=True).start()


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    seconds = float(argv[-1])
    servers = []
    for spec in argv[1:-1]:
        mode, _, addr = spec.partition("@")
        if mode not in MODES or not addr.startswith("127."):
            sys.exit("faulty.py: bad MODE@ADDR %r" % spec)
        PEERS[mode] = addr
        u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        u.bind((addr, 53))
        t = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        t.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        t.bind((addr, 53))
        t.listen(128)
        servers.append((mode, addr, u, t))
    for mode, addr, u, t in servers:
        threading.Thread(target=serve_udp, args=(mode, addr, u),
                         daemon=True).start()
        threading.Thread(target=serve_tcp, args=(mode, addr, t),
                         daemon=True).start()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    log("faulty ready")
    time.sleep(seconds)


if __name__ == "__main__":
    main(sys.argv)
