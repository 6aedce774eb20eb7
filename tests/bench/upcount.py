#!/usr/bin/env python3
"""tests/bench/upcount.py: count a resolver's upstream DNS queries on the
loopback interface, for tests/bench/resolvers.sh.

Usage: upcount.py OUTFILE SRC_IP SECONDS

Opens an AF_PACKET socket on "lo" (root only) with a large receive buffer
(so that thousands of packets a second are not lost, as they can be with
tests/e2e/sniff.py, which writes a line per packet), writes "# ready" to
OUTFILE once open, then counts IPv4 packets from SRC_IP to port 53: UDP
datagrams and TCP segments that carry data (a DNS message over TCP is
counted once per segment; queries are small, one segment each). On
SIGTERM/SIGINT, or after SECONDS, writes "udp N tcp M" to OUTFILE.
Each packet on lo is seen twice (sent and received); only the received
copy is counted. Nothing is sent.
"""

import signal
import socket
import struct
import sys
import time

ETH_P_ALL = 0x0003
ETH_HLEN = 14
ETH_P_IP = 0x0800
PACKET_OUTGOING = 4
RCVBUF = 64 * 1024 * 1024
SO_RCVBUFFORCE = 33

stop = False


def on_signal(_sig, _frame):
    global stop
    stop = True


def lo_packets(out, secs):
    """The IPv4 packets received on "lo" (each once: not the sent copy),
    from an AF_PACKET socket opened before "# ready" is written to OUT,
    until SIGTERM/SIGINT or SECS seconds (also used by syncount.py)."""
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW,
                         socket.htons(ETH_P_ALL))
    sock.setsockopt(socket.SOL_SOCKET, SO_RCVBUFFORCE, RCVBUF)
    sock.bind(("lo", 0))
    sock.settimeout(0.2)
    with open(out, "w") as f:
        f.write("# ready\n")
    end = time.monotonic() + secs
    while not stop and time.monotonic() < end:
        try:
            frame, addr = sock.recvfrom(65600)
        except socket.timeout:
            continue
        except InterruptedError:
            continue
        if addr[2] == PACKET_OUTGOING or len(frame) < ETH_HLEN + 20:
            continue
        if struct.unpack("!H", frame[12:14])[0] != ETH_P_IP:
            continue
        yield frame[ETH_HLEN:]


def main():
    out, src, secs = sys.argv[1], socket.inet_aton(sys.argv[2]), \
        float(sys.argv[3])
    udp = tcp = 0
    for ip in lo_packets(out, secs):
        ihl = (ip[0] & 0x0f) * 4
        if ip[12:16] != src or len(ip) < ihl + 4:
            continue
        proto = ip[9]
        dport = struct.unpack("!H", ip[ihl + 2:ihl + 4])[0]
        if dport != 53:
            continue
        if proto == 17:
            udp += 1
        elif proto == 6 and len(ip) >= ihl + 20:
            total = struct.unpack("!H", ip[2:4])[0]
            doff = (ip[ihl + 12] >> 4) * 4
            if total - ihl - doff > 0:
                tcp += 1
    with open(out, "a") as f:
        f.write("udp %d tcp %d\n" % (udp, tcp))


if __name__ == "__main__":
    main()
