#!/usr/bin/env python3
"""tests/e2e/sniff.py: a minimal packet capture on the loopback interface,
for the end-to-end tests of curvecache (no tcpdump or tshark needed).

Usage: sniff.py [--addr A[,A...]]... OUTFILE SECONDS

Opens an AF_PACKET socket on "lo" (root only), then writes one line per
IPv4 UDP or TCP packet that goes to or comes from port 53 of a 127.53.x.y
address, until SIGTERM/SIGINT or SECONDS have passed (a hard bound):

    PROTO SRC SPORT DST DPORT LEN KIND

PROTO is udp or tcp, LEN the transport payload length, KIND what the DNS
payload is:
    streamlined  DNSCurve streamlined query (magic Q6fnvWj8)
    streamlined-reply  DNSCurve streamlined response (magic R6fnvWJ8)
    txt          a DNS query for TXT whose name has an x1a<key> label
                 (DNSCurve TXT format)
    txt-reply    a DNS response to such a query
    plain        any other DNS message (plain DNS)
    short        fewer than 12 bytes of DNS (not a whole header)
    none         an empty UDP datagram
TCP streams are put back together (in order, as loopback delivers them;
a segment that does not continue its stream restarts it), and one line
is written per whole DNS message in the stream (LEN without the 2-byte
length prefix); control segments and partial messages write nothing.

With --addr (DNS over TLS proofs): one line per IPv4 UDP or TCP packet
(control segments too) to or from any port of the addresses given,
and no port-53 capture of other addresses; the same fields, LEN the
transport payload length of the packet, KIND by port:
    plain        port 53 on either side (DNS in the clear)
    tls          TCP with port 853 on either side (DNS over TLS)
    other        anything else

In --addr mode a kernel filter (classic BPF) keeps only the packets of
those addresses (as received: loopback's outgoing copies are left out),
so that other loopback traffic cannot crowd them out; the socket gets a
large receive buffer, and the line "# dropped N" before "# end" says
how many of the kept packets the kernel dropped for want of room (a
proof needs 0).

The line "# ready" is written (and flushed) once the socket is open, so
the caller can wait for it before starting traffic. Each line is flushed,
so the file can be read while the capture runs. Only loopback is read;
nothing is sent.
"""

import ctypes
import signal
import socket
import struct
import sys
import time

ETH_P_ALL = 0x0003
ETH_P_IP = 0x0800
ETH_HLEN = 14
PACKET_OUTGOING = 4
SOL_PACKET = 263
PACKET_STATISTICS = 6
SO_RCVBUFFORCE = 33
SO_ATTACH_FILTER = 26
# classic BPF: opcodes, the packet type ancillary field, the snap length
BPF_LD_W_ABS = 0x20
BPF_LD_H_ABS = 0x28
BPF_JEQ_K = 0x15
BPF_RET_K = 0x06
SKF_AD_PKTTYPE = 0xFFFFF000 + 4
IP_SRC_AT = ETH_HLEN + 12
IP_DST_AT = ETH_HLEN + 16
SNAP = 262144
ADDR_RCVBUF = 64 * 1024 * 1024
MAGIC_Q = b"Q6fnvWj8"
MAGIC_R = b"R6fnvWJ8"
DNS_HEADER = 12
TYPE_TXT = 16
KEY_LABEL_LEN = 54
MAX_LABELS = 128

stop = False


def on_signal(_sig, _frame):
    global stop
    stop = True


def qname_labels(msg):
    """The labels of the first question name (no compression expected)."""
    pos = DNS_HEADER
    labels = []
    while pos < len(msg) and len(labels) < MAX_LABELS:
        n = msg[pos]
        if n == 0:
            return labels, pos + 1
        if n > 63:
            return None, pos
        labels.append(msg[pos + 1:pos + 1 + n])
        pos += 1 + n
    return None, pos


def classify_dns(msg):
    if msg.startswith(MAGIC_Q):
        return "streamlined"
    if msg.startswith(MAGIC_R):
        return "streamlined-reply"
    if len(msg) < DNS_HEADER:
        return "short"
    flags, qd = struct.unpack("!HH", msg[2:6])
    if qd == 1:
        labels, end = qname_labels(msg)
        if labels is not None and end + 4 <= len(msg):
            qtype = struct.unpack("!H", msg[end:end + 2])[0]
            if qtype == TYPE_TXT and any(
                    len(lab) == KEY_LABEL_LEN and lab[:3].lower() == b"x1a"
                    for lab in labels):
                return "txt-reply" if flags & 0x8000 else "txt"
    return "plain"


class Flows:
    """TCP payload per flow, cut into length-prefixed DNS messages."""

    MAX_FLOWS = 4096
    MAX_BYTES = 70000

    def __init__(self):
        self.flows = {}

    def feed(self, key, seq, flags, payload):
        """Whole messages completed by this segment."""
        syn = flags & 0x02
        if syn or key not in self.flows:
            if len(self.flows) >= self.MAX_FLOWS:
                self.flows.clear()
            self.flows[key] = [(seq + 1) & 0xFFFFFFFF if syn else seq, b""]
        flow = self.flows[key]
        if not payload:
            return []
        if seq != flow[0]:
            flow[1] = b""
        flow[0] = (seq + len(payload)) & 0xFFFFFFFF
        flow[1] = (flow[1] + payload)[:self.MAX_BYTES]
        msgs = []
        while len(flow[1]) >= 2:
            want = struct.unpack("!H", flow[1][:2])[0]
            if len(flow[1]) < 2 + want:
                break
            msgs.append(flow[1][2:2 + want])
            flow[1] = flow[1][2 + want:]
        return msgs


def lab_port53(ip, port):
    return port == 53 and ip.startswith("127.53.")


def port_kind(proto, sport, dport):
    """KIND of a packet in --addr mode."""
    if 53 in (sport, dport):
        return "plain"
    if proto == 6 and 853 in (sport, dport):
        return "tls"
    return "other"


def handle(frame, out, flows, addrs=None):
    if len(frame) < ETH_HLEN + 20:
        return
    if struct.unpack("!H", frame[12:14])[0] != ETH_P_IP:
        return
    ip = frame[ETH_HLEN:]
    ihl = (ip[0] & 0x0F) * 4
    total = struct.unpack("!H", ip[2:4])[0]
    proto = ip[9]
    src = socket.inet_ntoa(ip[12:16])
    dst = socket.inet_ntoa(ip[16:20])
    l4 = ip[ihl:total]
    if proto not in (6, 17) or len(l4) < 20 - 12 * (proto == 17):
        return
    sport, dport = struct.unpack("!HH", l4[:4])
    if addrs is not None:
        if src in addrs or dst in addrs:
            hlen = 8 if proto == 17 else (l4[12] >> 4) * 4
            out.write("%s %s %d %s %d %d %s\n" %
                      ("udp" if proto == 17 else "tcp", src, sport, dst,
                       dport, max(len(l4) - hlen, 0),
                       port_kind(proto, sport, dport)))
            out.flush()
        return
    if not (lab_port53(src, sport) or lab_port53(dst, dport)):
        return
    if proto == 17:
        payload = l4[8:]
        msgs = [("udp", payload, classify_dns(payload) if payload else
                 "none")]
    else:
        seq = struct.unpack("!I", l4[4:8])[0]
        payload = l4[(l4[12] >> 4) * 4:]
        msgs = [("tcp", m, classify_dns(m)) for m in
                flows.feed((src, sport, dst, dport), seq, l4[13], payload)]
    for name, msg, kind in msgs:
        out.write("%s %s %d %s %d %d %s\n" %
                  (name, src, sport, dst, dport, len(msg), kind))
    out.flush()


def parse_args(argv):
    """(addresses or None, OUTFILE, SECONDS), or None when unusable."""
    addrs = None
    while len(argv) >= 2 and argv[0] == "--addr":
        addrs = (addrs or set()) | {a for a in argv[1].split(",") if a}
        argv = argv[2:]
    if len(argv) != 2:
        return None
    return addrs, argv[0], float(argv[1])


def addr_filter(addrs):
    """A classic BPF program: IPv4 to or from one of addrs, received."""
    ips = [struct.unpack("!I", socket.inet_aton(a))[0] for a in sorted(addrs)]
    prog = [(BPF_LD_W_ABS, "", "", SKF_AD_PKTTYPE),
            (BPF_JEQ_K, "no", "", PACKET_OUTGOING),
            (BPF_LD_H_ABS, "", "", 12),
            (BPF_JEQ_K, "", "no", ETH_P_IP)]
    for at in (IP_SRC_AT, IP_DST_AT):
        prog.append((BPF_LD_W_ABS, "", "", at))
        prog += [(BPF_JEQ_K, "yes", "", ip) for ip in ips]
    prog += [(BPF_RET_K, "", "", 0), (BPF_RET_K, "", "", SNAP)]
    where = {"no": len(prog) - 2, "yes": len(prog) - 1}
    code = b""
    for i, (op, jt, jf, k) in enumerate(prog):
        rel = [where[j] - i - 1 if j else 0 for j in (jt, jf)]
        code += struct.pack("HBBI", op, rel[0], rel[1], k)
    return code


def attach(sock, code):
    """SO_ATTACH_FILTER with a struct sock_fprog pointing at code."""
    buf = ctypes.create_string_buffer(code)
    fprog = struct.pack("HL", len(code) // 8, ctypes.addressof(buf))
    sock.setsockopt(socket.SOL_SOCKET, SO_ATTACH_FILTER, fprog)


def drain(sock):
    """Read what was queued before the filter, and reset the counts."""
    sock.setblocking(False)
    try:
        while True:
            sock.recv(65600)
    except (BlockingIOError, InterruptedError):
        pass
    dropped(sock)


def big_buffer(sock):
    """Room for bursts (root may exceed rmem_max)."""
    try:
        sock.setsockopt(socket.SOL_SOCKET, SO_RCVBUFFORCE, ADDR_RCVBUF)
    except OSError:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, ADDR_RCVBUF)


def dropped(sock):
    """Packets the kernel dropped since the socket opened."""
    _packets, drops = struct.unpack(
        "II", sock.getsockopt(SOL_PACKET, PACKET_STATISTICS, 8))
    return drops


def main():
    args = parse_args(sys.argv[1:])
    if args is None:
        sys.stderr.write("usage: sniff.py [--addr A[,A...]]... "
                         "OUTFILE SECONDS\n")
        return 1
    addrs, outfile, seconds = args
    deadline = time.monotonic() + seconds
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW,
                         socket.htons(ETH_P_ALL))
    sock.bind(("lo", 0))
    if addrs is not None:
        big_buffer(sock)
        attach(sock, addr_filter(addrs))
        drain(sock)
    sock.settimeout(0.2)
    flows = Flows()
    with open(outfile, "w") as out:
        out.write("# ready\n")
        out.flush()
        while not stop and time.monotonic() < deadline:
            try:
                frame, addr = sock.recvfrom(65600)
            except socket.timeout:
                continue
            except InterruptedError:
                continue
            # Loopback shows each packet twice: as sent and as received.
            if addr[2] == PACKET_OUTGOING:
                continue
            handle(frame, out, flows, addrs)
        if addrs is not None:
            out.write("# dropped %d\n" % dropped(sock))
        out.write("# end\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
