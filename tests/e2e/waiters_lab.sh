#!/bin/sh
# tests/e2e/waiters_lab.sh: more clients than one resolution takes
# (INFLIGHT_WAITERS_PER_ENTRY, 256, resolver/front/inflight.h) ask the
# same question while its authority is slow (tests/e2e/faulty.py's slow
# server: every answer 2 s late), in the loopback lab (tests/lab/lab.sh).
#
# 1. TCP: WAITERS_CONNS connections, each with WAITERS_PER questions
#    pipelined (300 in all, fewer than SERVER_TCP_PENDING_MAX a
#    connection), for one fresh name of slow.fault.lab. Every question
#    gets an answer (none left waiting): the first 256 the slow server's
#    NXDOMAIN (after its 2 s), the 44 over the cap SERVFAIL at once
#    (within T_PROMPT_MS, well before the slow server answers); the 44
#    are counted in total.requestlist.exceeded. (Before commit ab20643
#    the 44 got no answer at all: the client waited out its own timeout.)
# 2. UDP: the same over WAITERS_CONNS sockets: the 256 are answered,
#    the 44 over the cap dropped (no reply) and counted.
#
# One worker thread (the cap is per worker's resolution). Run by "make
# check" (cwd = top build dir, $srcdir = top source dir). Exit 0 = every
# check passed, 1 = a check failed, 77 = SKIP.

set -u
srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=tests/e2e/e2e_lib.sh
. "$srcdir/tests/e2e/e2e_lib.sh"
# shellcheck source=tests/e2e/hard_lib.sh
. "$srcdir/tests/e2e/hard_lib.sh"
e2e_init waiters_lab python3
# INFLIGHT_WAITERS_PER_ENTRY (resolver/front/inflight.h)
CAP=256
WAITERS_CONNS=10
WAITERS_PER=30
TOTAL=$((WAITERS_CONNS * WAITERS_PER))
OVER=$((TOTAL - CAP))
# A shed client's SERVFAIL, from its question sent (faulty.py's slow
# server answers after 2000 ms).
T_PROMPT_MS=1000
# The first answer of the slow server, at the earliest (it held them).
T_SLOW_MIN_MS=1500
# How long the client waits for the last answers (query-timeout 5 s).
WAIT_S=8

# The client: QUESTIONS for one name, over TCP (pipelined on CONNS
# connections) or UDP (CONNS sockets); one line per reply, then
# "done sent N answered A nxdomain X servfail F other O unanswered U
# sendms S servfailmax M answermin m" (times from each question sent).
cat >"$WORK/waiters.py" <<'EOF'
import select, socket, struct, sys, time
proto, dst, name, conns, per, wait_s = sys.argv[1:7]
conns, per, wait_s = int(conns), int(per), float(wait_s)
qname = b"".join(bytes([len(l)]) + l.encode() for l in name.split("."))
def query(qid):
    return struct.pack("!6H", qid, 0x0100, 1, 0, 0, 0) + qname + \
        b"\0" + struct.pack("!HH", 1, 1)
kind = socket.SOCK_STREAM if proto == "tcp" else socket.SOCK_DGRAM
socks, sent, got, bufs = [], {}, {}, {}
for c in range(conns):
    s = socket.socket(socket.AF_INET, kind)
    s.connect((dst, 53))
    socks.append(s)
    bufs[s] = b""
t0 = time.monotonic()
for c, s in enumerate(socks):
    qs = [query(c * per + i) for i in range(per)]
    now = time.monotonic()
    for i in range(per):
        sent[c * per + i] = now
    if proto == "tcp":
        s.sendall(b"".join(struct.pack("!H", len(q)) + q for q in qs))
    else:
        for q in qs:
            s.send(q)
        time.sleep(0.002)
sendms = int((time.monotonic() - t0) * 1000)
def reply(msg):
    qid, rcode = struct.unpack("!H", msg[:2])[0], msg[3] & 15
    if qid in sent and qid not in got:
        got[qid] = (rcode, int((time.monotonic() - sent[qid]) * 1000))
        print("reply", qid, rcode, got[qid][1])
end = t0 + wait_s
while len(got) < len(sent) and time.monotonic() < end:
    ready, _, _ = select.select(socks, [], [], end - time.monotonic())
    for s in ready:
        data = s.recv(65535)
        if proto == "udp":
            reply(data)
            continue
        if not data:
            socks.remove(s)
            continue
        bufs[s] += data
        while len(bufs[s]) >= 2:
            n = struct.unpack("!H", bufs[s][:2])[0]
            if len(bufs[s]) < 2 + n:
                break
            reply(bufs[s][2:2 + n])
            bufs[s] = bufs[s][2 + n:]
    if not socks:
        break
codes = [r for r, _ in got.values()]
sf = [ms for r, ms in got.values() if r == 2]
an = [ms for r, ms in got.values() if r != 2]
print("done sent %d answered %d nxdomain %d servfail %d other %d "
      "unanswered %d sendms %d servfailmax %d answermin %d" % (
      len(sent), len(got), codes.count(3), codes.count(2),
      len(got) - codes.count(3) - codes.count(2), len(sent) - len(got),
      sendms, max(sf) if sf else -1, min(an) if an else -1))
EOF

# field NAME: the value after NAME in the client's "done" line.
field() {
  sed -n 's/^done .*/&/p' "$WORK/client.out" | tr ' ' '\n' |
    sed -n "/^$1\$/{n;p;}"
}

# burst PROTO NAME: the client, its summary printed; sets ex (the
# growth of total.requestlist.exceeded).
burst() {
  ex0=$(cc_stat total.requestlist.exceeded)
  python3 "$WORK/waiters.py" "$1" "$CC_IP" "$2" "$WAITERS_CONNS" \
    "$WAITERS_PER" "$WAIT_S" >"$WORK/client.out" 2>&1 9>&-
  ex1=$(cc_stat total.requestlist.exceeded)
  ex=$((${ex1:-0} - ${ex0:-0}))
  echo "# $1: $(grep '^done ' "$WORK/client.out");" \
    "total.requestlist.exceeded +$ex"
  grep -q '^done ' "$WORK/client.out" ||
    bad "$1 client" "did not finish" "$WORK/client.out"
}

faulty_start 120 slow@127.53.3.11
cc_start "threads: 1" || exit 1
# The delegation to the slow server in the cache: a fresh name below it
# then waits on one question to it (2 s).
dig +time=8 +tries=1 "@$CC_IP" www.slow.fault.lab A >"$WORK/prime.out" 2>&1

# ---- 1. TCP ----
echo "# 1. $TOTAL TCP questions for one name, slow authority ($(elapsed))"
burst tcp "t$$.slow.fault.lab"
sendms=$(field sendms)
if [ "${sendms:-0}" -ge "$T_PROMPT_MS" ]; then
  bad "TCP questions all sent at once" "$sendms ms to send"
fi
if [ "$(field unanswered)" = 0 ]; then
  ok "TCP: every one of $TOTAL questions answered (none left waiting)"
else
  bad "TCP: every question answered" \
    "$(field unanswered) of $TOTAL never answered" "$WORK/client.out"
fi
if [ "$(field servfail)" = "$OVER" ] && [ "$(field nxdomain)" = "$CAP" ]
then
  ok "TCP: $CAP waited for the slow server's NXDOMAIN, $OVER over the cap got SERVFAIL"
else
  bad "TCP: $CAP NXDOMAIN and $OVER SERVFAIL" \
    "$(field nxdomain) NXDOMAIN, $(field servfail) SERVFAIL, $(field other) other"
fi
sfmax=$(field servfailmax)
if [ "${sfmax:--1}" -ge 0 ] && [ "$sfmax" -le "$T_PROMPT_MS" ]; then
  ok "TCP: the SERVFAILs came at once (the last $sfmax ms after its question)"
else
  bad "TCP: the SERVFAILs at once" "the last after '$sfmax' ms (bound $T_PROMPT_MS)"
fi
amin=$(field answermin)
if [ "${amin:--1}" -ge "$T_SLOW_MIN_MS" ]; then
  ok "TCP: the answers waited for the slow server (the first after $amin ms)"
else
  bad "TCP: the answers waited for the slow server" "the first after '$amin' ms"
fi
if [ "$ex" -eq "$OVER" ]; then
  ok "TCP: total.requestlist.exceeded counts the $OVER shed"
else
  bad "TCP: total.requestlist.exceeded counts the shed" "+$ex, want +$OVER"
fi

# ---- 2. UDP ----
echo "# 2. $TOTAL UDP questions for one name, slow authority ($(elapsed))"
burst udp "u$$.slow.fault.lab"
if [ "$(field nxdomain)" = "$CAP" ] && [ "$(field answered)" = "$CAP" ]
then
  ok "UDP: $CAP answered NXDOMAIN, $OVER over the cap dropped (no reply)"
else
  bad "UDP: $CAP answered, $OVER dropped" \
    "$(field answered) answered ($(field nxdomain) NXDOMAIN, $(field servfail) SERVFAIL)"
fi
if [ "$ex" -eq "$OVER" ]; then
  ok "UDP: total.requestlist.exceeded counts the $OVER dropped"
else
  bad "UDP: total.requestlist.exceeded counts the dropped" "+$ex, want +$OVER"
fi

if e2e_alive "$CC_PID"; then ok "curvecache alive"; else
  bad "curvecache alive" "it died" "$WORK/curvecache.log"; fi
cc_stop
san_check
e2e_finish
