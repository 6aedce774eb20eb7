#!/usr/bin/env python3
"""tests/bench/syncount.py: count the TCP connections opened to a port of
some loopback addresses, for tests/bench/bench_dot.sh (TLS handshakes to
a DNS-over-TLS forwarder: one per connection).

Usage: syncount.py OUTFILE DST_PREFIX DST_PORT SECONDS

Opens an AF_PACKET socket on "lo" (root only), writes "# ready" to OUTFILE
once open, then counts IPv4 TCP segments with SYN set and ACK clear (a
connection's first segment) whose destination address starts with
DST_PREFIX (dotted text, e.g. "127.53.123.") and whose destination port
is DST_PORT, and the TCP segments carrying data to that port (client
bytes: queries and TLS records). On SIGTERM/SIGINT, or after SECONDS,
appends "syn N data M" to OUTFILE. The packets come from upcount.py's
lo_packets (each counted once). Nothing is sent.
"""

import os
import socket
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from upcount import lo_packets  # noqa: E402

TCP_SYN = 0x02
TCP_ACK = 0x10


def wanted(ip, prefix, port):
    """The TCP header offset of an IPv4 TCP packet to PREFIX*:PORT, or 0."""
    if len(ip) < 20 or ip[9] != 6:
        return 0
    ihl = (ip[0] & 0x0f) * 4
    if len(ip) < ihl + 20:
        return 0
    if not socket.inet_ntoa(ip[16:20]).startswith(prefix):
        return 0
    if struct.unpack("!H", ip[ihl + 2:ihl + 4])[0] != port:
        return 0
    return ihl


def main():
    out, prefix = sys.argv[1], sys.argv[2]
    port, secs = int(sys.argv[3]), float(sys.argv[4])
    syn = data = 0
    for ip in lo_packets(out, secs):
        ihl = wanted(ip, prefix, port)
        if not ihl:
            continue
        flags = ip[ihl + 13]
        if flags & TCP_SYN and not flags & TCP_ACK:
            syn += 1
        total = struct.unpack("!H", ip[2:4])[0]
        if total - ihl - (ip[ihl + 12] >> 4) * 4 > 0:
            data += 1
    with open(out, "a") as f:
        f.write("syn %d data %d\n" % (syn, data))


if __name__ == "__main__":
    main()
