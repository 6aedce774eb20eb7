#!/usr/bin/env python3
"""tests/e2e/manyports.py: ask one A question from many UDP source ports.

Usage: manyports.py IP NAME SOCKETS ROUNDS [WANT [WAIT]]

Opens SOCKETS UDP sockets on 127.0.0.1 (one source port each: the kernel
spreads them over curvecache's SO_REUSEPORT sockets, that is over its
worker threads); ROUNDS times, every socket sends the question, then the
answers are collected for up to WAIT seconds (default 3) from the end of
the round's sending. Prints "answered N wrong M": N answers that are
NOERROR with an answer record (and, with WANT, whose last record's data is
the IPv4 address WANT; "-" for any), M the others and the timeouts, then
"ms W": the time from the first question sent to the last answer.
"""
import select
import socket
import struct
import sys
import time


def main():
    ip, name = sys.argv[1], sys.argv[2].encode()
    nsock, rounds = int(sys.argv[3]), int(sys.argv[4])
    want = None
    if len(sys.argv) > 5 and sys.argv[5] != "-":
        want = socket.inet_aton(sys.argv[5])
    wait = float(sys.argv[6]) if len(sys.argv) > 6 else 3.0
    q = b"".join(bytes([len(l)]) + l for l in name.split(b"."))
    q += b"\0" + struct.pack(">HH", 1, 1)
    socks = []
    for _ in range(nsock):
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.bind(("127.0.0.1", 0))
        socks.append(s)
    good = wrong = 0
    t0 = last = time.monotonic()
    for r in range(rounds):
        for i, s in enumerate(socks):
            qid = (r * nsock + i) & 0xffff
            s.sendto(struct.pack(">HHHHHH", qid, 0x0100, 1, 0, 0, 0) + q,
                     (ip, 53))
        deadline = time.monotonic() + wait
        pending = set(socks)
        while pending:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            ready, _, _ = select.select(list(pending), [], [], left)
            for s in ready:
                pending.discard(s)
                a = s.recv(4096)
                last = time.monotonic()
                if (len(a) > 12 and a[3] & 0x0f == 0
                        and a[6:8] != b"\0\0"
                        and (want is None or a[-4:] == want)):
                    good += 1
                else:
                    wrong += 1
        wrong += len(pending)
    print("answered", good, "wrong", wrong, "ms",
          int((last - t0) * 1000) + 1)


if __name__ == "__main__":
    main()
