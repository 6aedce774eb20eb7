#!/usr/bin/env python3
"""tests/e2e/curveproxy.py: a DNSCurve man in the middle, for the forgery
test of curvecache (tests/e2e/forgery_lab.sh, section 4). Loopback only.

  curveproxy.py LISTEN UPSTREAM REPLAYS SECONDS

Listens on LISTEN port 53 (UDP) for at most SECONDS (or until SIGTERM)
and relays every query, byte for byte, to UPSTREAM port 53 (a CurveDNS),
so the resolver reaches the zone through it and its boxes stay genuine.
It captures every genuine response on the way. For a streamlined
DNSCurve query (magic "Q6fnvWj8", client public key, client nonce half,
box), before the genuine response goes back it sends, from LISTEN port 53
to the querier's address and port (where the genuine one goes):

  replay  each of the last REPLAYS genuine responses captured for
          earlier queries (genuine boxes from the same server, to the
          same client key, under other nonces)
  flip    the genuine response with one bit of its box flipped
  random  a boxed-looking packet: magic "R6fnvWJ8", the query's own
          client nonce half, a random server nonce half and random box
          bytes as long as the genuine box

All of them are on the resolver's socket before the genuine response, so
each must be read and refused (curvecache counts curve.responses.bad).
Other packets (TXT-format or plain queries) are only relayed. Prints
"proxy ready", then at the end
"proxy done Q queries S streamlined F forged (R replayed)".
"""

import os
import select
import signal
import socket
import sys
import time
from collections import deque

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import forger  # noqa: E402 (loopback, on_signal of tests/e2e/forger.py)
from forger import loopback  # noqa: E402

QUERY_MAGIC = b"Q6fnvWj8"
RESPONSE_MAGIC = b"R6fnvWJ8"
MAGIC_BYTES = 8
KEY_BYTES = 32
HALF_NONCE = 12
UPSTREAM_WAIT_S = 3.0
REPLAYS_MAX = 16
QUERIES_MAX = 100000

def client_nonce(query):
    """The client nonce half of a streamlined query, or None."""
    if len(query) < MAGIC_BYTES + KEY_BYTES + HALF_NONCE + 16 or \
            query[:MAGIC_BYTES] != QUERY_MAGIC:
        return None
    off = MAGIC_BYTES + KEY_BYTES
    return query[off:off + HALF_NONCE]


def forgeries(nonce, genuine, captured):
    """The forged packets for one streamlined exchange; (list, replays)."""
    out = list(captured)
    head = MAGIC_BYTES + 2 * HALF_NONCE
    if len(genuine) > head and genuine[:MAGIC_BYTES] == RESPONSE_MAGIC:
        flip = bytearray(genuine)
        flip[head + (len(genuine) - head) // 2] ^= 0x01
        out.append(bytes(flip))
        out.append(RESPONSE_MAGIC + nonce + os.urandom(HALF_NONCE) +
                   os.urandom(len(genuine) - head))
    return out, len(captured)


def main():
    signal.signal(signal.SIGTERM, forger.on_signal)
    signal.signal(signal.SIGINT, forger.on_signal)
    if len(sys.argv) != 5:
        sys.stderr.write(__doc__)
        return 2
    listen, upstream = sys.argv[1], sys.argv[2]
    replays = min(int(sys.argv[3]), REPLAYS_MAX)
    deadline = time.monotonic() + float(sys.argv[4])
    if not loopback(listen) or not loopback(upstream):
        sys.stderr.write("curveproxy: loopback addresses only\n")
        return 1
    lsock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    lsock.bind((listen, 53))
    print("proxy ready", flush=True)
    pending = {}  # upstream socket -> (peer, nonce or None, sent at)
    captured = deque(maxlen=max(replays, 1))
    queries = streamlined = forged = replayed = 0
    while not forger.stop and time.monotonic() < deadline:
        ready, _, _ = select.select([lsock] + list(pending), [], [], 0.2)
        for s in ready:
            if s is lsock:
                pkt, peer = lsock.recvfrom(65535)
                if not loopback(peer[0]) or queries >= QUERIES_MAX:
                    continue
                queries += 1
                up = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
                up.sendto(pkt, (upstream, 53))
                pending[up] = (peer, client_nonce(pkt), time.monotonic())
                continue
            peer, nonce, _ = pending.pop(s)
            resp = s.recv(65535)
            s.close()
            if nonce is not None:
                streamlined += 1
                fakes, n = forgeries(nonce, resp, captured if replays else [])
                for f in fakes:
                    lsock.sendto(f, peer)
                forged += len(fakes)
                replayed += n
                captured.append(resp)
            lsock.sendto(resp, peer)
        now = time.monotonic()
        for s, (_, _, at) in list(pending.items()):
            if now - at > UPSTREAM_WAIT_S:
                del pending[s]
                s.close()
    print("proxy done %d queries %d streamlined %d forged (%d replayed)" %
          (queries, streamlined, forged, replayed), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
