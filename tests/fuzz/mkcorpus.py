#!/usr/bin/env python3
"""tests/fuzz/mkcorpus.py: helpers of tests/fuzz/mkcorpus.sh, which makes
the seed corpora of the resolver/ fuzz targets from the loopback lab.

Usage:
  mkcorpus.py walk OUT HEADER QNAME QTYPE
      Resolve QNAME/QTYPE by hand from the lab root (127.53.0.1), plain
      DNS with EDNS and RD=0, following referrals (glue, or a walk of its
      own for a glueless NS name) and CNAMEs; write the replies in the
      order they came to OUT as the iter target reads them: one HEADER
      byte, then each reply with a 2-byte big-endian length. With bit 8
      of HEADER set the walk minimises the names it asks (RFC 9156: NS
      queries one label below each zone cut), as the target's iterator
      does then. DNSCurve
      servers of the lab (CurveDNS) forward plain queries to their back
      ends, so the replies are the inner messages a boxed query gets.
  mkcorpus.py capture ADDR PORT OUTDIR IDLE
      Listen on ADDR@PORT (UDP) and save each query that arrives as
      OUTDIR/QNAME-TYPE-FLAGS, answering each with REFUSED so that the
      sender (dig) does not wait; stop after IDLE seconds without one.
  mkcorpus.py cheader DUMP OUT
      Write the C header tests/fuzz/fuzz_query_cache.h: the cache dump
      DUMP as a C string, lines cut into pieces of at most 64
      characters (escapes included).

Loopback only; nothing is sent anywhere else.
"""

import random
import socket
import struct
import sys

ROOT = "127.53.0.1"
TYPES = {"A": 1, "NS": 2, "CNAME": 5, "SOA": 6, "MX": 15, "TXT": 16,
         "AAAA": 28, "SRV": 33}
EDNS_SIZE = 1232
MAX_STEPS = 16
TIMEOUT_S = 2.0


def wire_name(text):
    out = b""
    for label in text.rstrip(".").split("."):
        if label:
            out += bytes([len(label)]) + label.encode()
    return out + b"\0"


def build_query(qname, qtype):
    qid = random.randrange(65536)
    hdr = struct.pack(">HHHHHH", qid, 0, 1, 0, 0, 1)
    q = wire_name(qname) + struct.pack(">HH", qtype, 1)
    opt = b"\0" + struct.pack(">HHIH", 41, EDNS_SIZE, 0, 0)
    return qid, hdr + q + opt


def ask(ip, qname, qtype):
    qid, pkt = build_query(qname, qtype)
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.settimeout(TIMEOUT_S)
    s.sendto(pkt, (ip, 53))
    while True:
        data, _ = s.recvfrom(65535)
        if len(data) >= 2 and struct.unpack(">H", data[:2])[0] == qid:
            break
    s.close()
    if data[2] & 0x02:  # TC: again over TCP
        t = socket.create_connection((ip, 53), timeout=TIMEOUT_S)
        t.sendall(struct.pack(">H", len(pkt)) + pkt)
        n = struct.unpack(">H", recv_all(t, 2))[0]
        data = recv_all(t, n)
        t.close()
    return data


def recv_all(sock, n):
    buf = b""
    while len(buf) < n:
        chunk = sock.recv(n - len(buf))
        if not chunk:
            raise OSError("short TCP read")
        buf += chunk
    return buf


def read_name(msg, pos):
    """(text name, position after the name); follows pointers."""
    labels, end, steps = [], None, 0
    while True:
        n = msg[pos]
        if n >= 0xC0:
            if end is None:
                end = pos + 2
            pos = ((n & 0x3F) << 8) | msg[pos + 1]
            steps += 1
            if steps > 64:
                raise ValueError("pointer loop")
            continue
        pos += 1
        if n == 0:
            break
        labels.append(msg[pos:pos + n].decode("ascii", "replace"))
        pos += n
    return ".".join(labels).lower() + ".", end if end is not None else pos


def parse(msg):
    """rcode and the records of each section as (owner, type, rdata
    text or bytes)."""
    _, flags, qd, an, ns, ar = struct.unpack(">HHHHHH", msg[:12])
    pos = 12
    for _ in range(qd):
        _, pos = read_name(msg, pos)
        pos += 4
    secs = []
    for count in (an, ns, ar):
        rrs = []
        for _ in range(count):
            owner, pos = read_name(msg, pos)
            rtype, _, _, rdlen = struct.unpack(">HHIH", msg[pos:pos + 10])
            pos += 10
            rd = msg[pos:pos + rdlen]
            if rtype in (2, 5):
                rd = read_name(msg, pos)[0]
            elif rtype == 1:
                rd = socket.inet_ntoa(rd)
            rrs.append((owner, rtype, rd))
            pos += rdlen
        secs.append(rrs)
    return flags & 0xF, secs


def labels(name):
    return [x for x in name.rstrip(".").split(".") if x]


def qmin_step(qname, qtype, zone):
    """What a QNAME-minimising resolver asks a server of zone: the name
    one label below zone, type NS, or the question itself at the end."""
    want, have = labels(qname), len(labels(zone))
    if have + 1 >= len(want):
        return qname, qtype
    return ".".join(want[-(have + 1):]) + ".", 2


def closest_cut(qname, cuts):
    """The deepest zone of cuts at or above qname, and its server."""
    want = labels(qname)
    for i in range(len(want) + 1):
        zone = ".".join(want[i:]) + "." if i < len(want) else "."
        if zone in cuts:
            return zone, cuts[zone]
    return ".", ROOT


def walk(qname, qtype, out, depth=0, qmin=False, cuts=None):
    """Append the replies of a walk to out; return an address found for
    qname (for glueless NS names) or None. Like a resolver's cache, cuts
    remembers the zone cuts met (zone: server address), and every walk
    starts from the closest one."""
    cuts = {".": ROOT} if cuts is None else cuts
    zone, server = closest_cut(qname, cuts)
    for _ in range(MAX_STEPS):
        name, rtype = qmin_step(qname, qtype, zone) if qmin else \
            (qname, qtype)
        msg = ask(server, name, rtype)
        out.append(msg)
        rcode, (an, ns, ar) = parse(msg)
        if name != qname:
            nsnames = [rd for o, t, rd in ns if t == 2]
            if rcode == 0 and not nsnames:
                zone = name  # no cut here: one label deeper, same server
                continue
        addrs = [rd for o, t, rd in an if t == 1]
        if addrs:
            return addrs[0]
        cnames = [rd for o, t, rd in an if t == 5]
        if cnames and qtype != 5:
            qname = cnames[-1]
            zone, server = closest_cut(qname, cuts)
            continue
        nsnames = [rd for o, t, rd in ns if t == 2]
        if an or rcode != 0 or not nsnames:
            return None
        zone = [o for o, t, rd in ns if t == 2][0]
        glue = {o: rd for o, t, rd in ar if t == 1}
        ips = [glue[n] for n in nsnames if n in glue]
        if ips:
            server = ips[0]
        elif depth < 2:
            server = walk(nsnames[0], 1, out, depth + 1, qmin, cuts)
            if server is None:
                return None
        else:
            return None
        cuts[zone] = server
    return None


def cmd_walk(path, header, qname, qtype):
    replies = []
    walk(qname, TYPES[qtype], replies, qmin=int(header, 0) & 8 != 0)
    with open(path, "wb") as f:
        f.write(bytes([int(header, 0)]))
        for r in replies:
            f.write(struct.pack(">H", len(r)) + r)


def query_label(data):
    """A file name for a query: qname-TYPE-flags (hex), made safe."""
    try:
        name, pos = read_name(data, 12)
        qtype, qclass = struct.unpack(">HH", data[pos:pos + 4])
    except (IndexError, ValueError, struct.error):
        return "short-%d" % len(data)
    kind = {v: k for k, v in TYPES.items()}.get(qtype, str(qtype))
    if qclass != 1:
        kind += "-class%d" % qclass
    safe = "".join(c if c.isalnum() or c in "-_" else "_"
                   for c in name.rstrip(".")) or "root"
    if any(65 <= b <= 90 for b in data[12:pos]):
        safe += "-mixedcase"
    return "%s-%s-%02x%02x" % (safe, kind, data[2], data[3])


def cmd_capture(addr, port, outdir, idle):
    """Save each query until none came for idle seconds."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind((addr, int(port)))
    s.settimeout(float(idle))
    print("ready", flush=True)
    while True:
        try:
            data, peer = s.recvfrom(65535)
        except socket.timeout:
            break
        with open("%s/%s" % (outdir, query_label(data)), "wb") as f:
            f.write(data)
        if len(data) >= 12:
            flags = (struct.unpack(">H", data[2:4])[0] | 0x8000) & ~0xF
            s.sendto(data[:2] + struct.pack(">H", flags | 5) + data[4:],
                     peer)
    s.close()


def cmd_cheader(dump, out):
    text = open(dump).read()
    with open(out, "w") as f:
        f.write("/*\n * tests/fuzz/fuzz_query_cache.h - the cache of the "
                "query target: a dump\n * of curvecache's cache after "
                "resolving names in the lab (made by\n * "
                "tests/fuzz/mkcorpus.sh; do not edit).\n */\n"
                "#ifndef CURVECACHE_TESTS_FUZZ_FUZZ_QUERY_CACHE_H\n"
                "#define CURVECACHE_TESTS_FUZZ_FUZZ_QUERY_CACHE_H\n\n"
                "static const char fuzz_query_dump[] =\n")
        for line in text.splitlines(True):
            piece = ""
            for ch in line:
                esc = {"\\": "\\\\", '"': '\\"', "\t": "\\t",
                       "\n": "\\n"}.get(ch, ch)
                if len(piece) + len(esc) > 64:
                    f.write('\t"%s"\n' % piece)
                    piece = ""
                piece += esc
            if piece:
                f.write('\t"%s"\n' % piece)
        f.write("\t;\n\n#endif /* CURVECACHE_TESTS_FUZZ_FUZZ_QUERY_CACHE_H "
                "*/\n")


def main(argv):
    if len(argv) == 6 and argv[1] == "walk":
        cmd_walk(argv[2], argv[3], argv[4], argv[5])
    elif len(argv) == 6 and argv[1] == "capture":
        cmd_capture(argv[2], argv[3], argv[4], argv[5])
    elif len(argv) == 4 and argv[1] == "cheader":
        cmd_cheader(argv[2], argv[3])
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
