#!/usr/bin/env python3
"""tests/e2e/flood.py: forged answers at scale, for the forgery test of
curvecache (tests/e2e/forgery_lab.sh, section 3). Loopback only: every
address it sends to is in 127.0.0.0/8, and every address it forges into
DNS data is in 127.66.0.0/16; every name it forges starts with "evil".

Two modes:

  flood.py server ADDR ZONE NEAR SECONDS
      The authoritative server of ZONE (flood.lab.) on ADDR port 53, UDP,
      for at most SECONDS (or until SIGTERM): SOA and NS at the apex
      (ns1.ZONE A ADDR), a wildcard A 192.0.2.78 for every name below.
      Before each genuine answer it sends NEAR forged answers to the
      querier's address and port, from ADDR port 53 (so only the DNS ID
      tells them apart: the question is echoed with its exact letter
      case), each with a wrong ID taken from one counter that runs over
      all 65536 IDs (skipping the query's own), answer A 127.66.66.66.
      Forged and genuine answers alike carry out-of-bailiwick poison:
        authority   lab. NS evil-ns.flood-poison.invalid.
                    example.lab. NS evil-ns.example.lab.
        additional  evil-ns.example.lab., ns1.example.lab.,
                    www.example.lab. and a.root.lab. A 127.66.66.66
      The forged ones go out before the genuine one on the same socket, so
      they are in the resolver's socket before its answer: each one must
      be read and dropped (counted as an unwanted reply), unless the
      resolver gave up on that query and asked again. Prints "server
      ready", then at the end "server done Q queries F forged I ids O
      once" (I distinct IDs; O of the F went to names asked only once).

  flood.py client SERVER NAMES CONCURRENCY SECONDS
      Asks SERVER (port 53) for the A record of every name in the file
      NAMES, CONCURRENCY at a time, one retry after 4 s; prints one line
      per name "NAME STATUS DATA..." (DATA: the A addresses, or "-"), and
      "client done N names in S s" at the end.
"""

import os
import random
import select
import signal
import socket
import struct
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import forger  # noqa: E402 (the DNS helpers of tests/e2e/forger.py)
from forger import (TYPE_A, TYPE_NS, TYPE_SOA,  # noqa: E402
                    loopback, message, rr, rr_a, wire_name)

FLAG_QR_AA = 0x8400
FORGED_ADDR = forger.FORGED_ADDR
WILD_ADDR = "192.0.2.78"
IDS = 65536
NEAR_MAX = 64
SERVER_MAX_QUERIES = 1000000
RETRY_S = 4.0
RCODES = {0: "NOERROR", 1: "FORMERR", 2: "SERVFAIL", 3: "NXDOMAIN",
          4: "NOTIMP", 5: "REFUSED"}


POISON_NS = [rr("lab.", TYPE_NS, 86400,
                wire_name("evil-ns.flood-poison.invalid.")),
             rr("example.lab.", TYPE_NS, 86400,
                wire_name("evil-ns.example.lab."))]
POISON_AR = [rr_a(n, FORGED_ADDR, 86400) for n in
             ("evil-ns.example.lab.", "ns1.example.lab.", "www.example.lab.",
              "a.root.lab.")]


def parse_query(pkt):
    """(id, qname wire as sent, qname text lowercase, qtype) or None."""
    q = forger.parse_query(pkt)
    if q is None:
        return None
    qid, _flags, qwire, qname, qtype = q
    return qid, qwire, qname.lower(), qtype


def genuine(q, zone, addr):
    """The real answer (with the poison) to a parsed query."""
    qid, qwire, qname, qtype = q
    soa = rr(zone, TYPE_SOA, 300, wire_name("ns1." + zone) +
             wire_name("hostmaster." + zone) +
             struct.pack("!IIIII", 2024010101, 3600, 600, 86400, 300))
    if not qname.endswith("." + zone) and qname != zone:
        return message(qid, 0x8005, qwire, qtype)  # REFUSED
    if qname == zone:
        if qtype == TYPE_NS:
            return message(qid, FLAG_QR_AA, qwire, qtype,
                           an=[rr(zone, TYPE_NS, 3600,
                                  wire_name("ns1." + zone))],
                           ar=[rr_a("ns1." + zone, addr)])
        if qtype == TYPE_SOA:
            return message(qid, FLAG_QR_AA, qwire, qtype, an=[soa])
        return message(qid, FLAG_QR_AA, qwire, qtype, ns=[soa])
    if qname == "ns1." + zone and qtype == TYPE_A:
        return message(qid, FLAG_QR_AA, qwire, qtype,
                       an=[rr_a(qname, addr)])
    if qtype != TYPE_A:
        return message(qid, FLAG_QR_AA, qwire, qtype, ns=[soa])
    return message(qid, FLAG_QR_AA, qwire, qtype,
                   an=[rr_a(qname, WILD_ADDR)],
                   ns=POISON_NS, ar=POISON_AR)


def server(args):
    addr, zone = args[0], args[1].lower().rstrip(".") + "."
    near = min(int(args[2]), NEAR_MAX)
    deadline = time.monotonic() + float(args[3])
    if not loopback(addr):
        sys.stderr.write("server: loopback addresses only\n")
        return 1
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 22)
    sock.bind((addr, 53))
    print("server ready", flush=True)
    queries = forged = 0
    next_id = random.getrandbits(16)
    seen_ids = set()
    owed = []
    asked = {}  # qname -> [times asked, forged answers sent for it]
    while not forger.stop and queries < SERVER_MAX_QUERIES:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        ready, _, _ = select.select([sock], [], [], min(left, 0.5))
        if not ready:
            continue
        try:
            pkt, peer = sock.recvfrom(4096)
        except InterruptedError:
            continue
        q = parse_query(pkt)
        if q is None or not loopback(peer[0]):
            continue
        queries += 1
        qid, qwire, qname, qtype = q
        if qtype == TYPE_A and qname.endswith("." + zone) and \
                qname != "ns1." + zone:
            for _ in range(near):
                # An ID skipped because it was a query's own is owed and
                # sent with a later query, so every ID goes out.
                fid = owed.pop() if owed and owed[-1] != qid else next_id
                if fid == next_id:
                    if next_id == qid:
                        owed.insert(0, qid)
                        next_id = (next_id + 1) % IDS
                        fid = next_id
                    next_id = (next_id + 1) % IDS
                msg = message(fid, FLAG_QR_AA, qwire, qtype,
                              an=[rr_a(qname, FORGED_ADDR)],
                              ns=POISON_NS, ar=POISON_AR)
                sock.sendto(msg, peer)
                seen_ids.add(fid)
                forged += 1
            entry = asked.setdefault(qname, [0, 0])
            entry[0] += 1
            entry[1] += near
        sock.sendto(genuine(q, zone, addr), peer)
    once = sum(f for n, f in asked.values() if n == 1)
    print("server done %d queries %d forged %d ids %d once" %
          (queries, forged, len(seen_ids), once), flush=True)
    return 0


def parse_answer(pkt):
    """(id, rcode, [A addresses]) of a response, or None."""
    if len(pkt) < 12:
        return None
    qid, flags, qd, an = struct.unpack("!HHHH", pkt[:8])
    pos = 12
    try:
        for _ in range(qd):
            pos = skip_name(pkt, pos) + 4
        addrs = []
        for _ in range(an):
            pos = skip_name(pkt, pos)
            rtype, _cls, _ttl, rdlen = struct.unpack("!HHIH",
                                                     pkt[pos:pos + 10])
            pos += 10
            if rtype == TYPE_A and rdlen == 4:
                addrs.append(socket.inet_ntoa(pkt[pos:pos + 4]))
            pos += rdlen
    except (IndexError, struct.error):
        return None
    return qid, flags & 0xF, addrs


def skip_name(pkt, pos):
    while True:
        n = pkt[pos]
        if n == 0:
            return pos + 1
        if n & 0xC0 == 0xC0:
            return pos + 2
        pos += 1 + n


def client(args):
    srv = args[0]
    with open(args[1]) as f:
        names = [n.strip() for n in f if n.strip()]
    conc = max(1, int(args[2]))
    deadline = time.monotonic() + float(args[3])
    if not loopback(srv):
        sys.stderr.write("client: loopback addresses only\n")
        return 1
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 22)
    sock.connect((srv, 53))
    t0 = time.monotonic()
    pending = {}   # id -> [name index, sent at, tries]
    result = {}
    free_ids = list(range(IDS))
    random.shuffle(free_ids)
    nxt = 0

    def send(i, qid, tries):
        sock.send(message(qid, 0x0100, wire_name(names[i]), TYPE_A))
        pending[qid] = [i, time.monotonic(), tries]

    while ((nxt < len(names) or pending) and not forger.stop and
           time.monotonic() < deadline):
        while nxt < len(names) and len(pending) < conc:
            send(nxt, free_ids.pop(), 1)
            nxt += 1
        ready, _, _ = select.select([sock], [], [], 0.2)
        if ready:
            try:
                r = parse_answer(sock.recv(65535))
            except ConnectionRefusedError:
                r = None
            if r is not None and r[0] in pending:
                i = pending.pop(r[0])[0]
                result[i] = (RCODES.get(r[1], str(r[1])), r[2])
                free_ids.insert(0, r[0])
        now = time.monotonic()
        for qid, (i, at, tries) in list(pending.items()):
            if now - at < RETRY_S:
                continue
            del pending[qid]
            if tries < 2:
                send(i, free_ids.pop(), tries + 1)
            else:
                result[i] = ("TIMEOUT", [])
    for i, name in enumerate(names):
        st, addrs = result.get(i, ("UNSENT", []))
        print(name, st, " ".join(addrs) if addrs else "-")
    print("client done %d names in %.1f s" %
          (len(names), time.monotonic() - t0), flush=True)
    return 0


def main():
    signal.signal(signal.SIGTERM, forger.on_signal)
    signal.signal(signal.SIGINT, forger.on_signal)
    if len(sys.argv) == 6 and sys.argv[1] == "server":
        return server(sys.argv[2:])
    if len(sys.argv) == 6 and sys.argv[1] == "client":
        return client(sys.argv[2:])
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main())
