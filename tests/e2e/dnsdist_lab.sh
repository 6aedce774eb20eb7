#!/bin/sh
# tests/e2e/dnsdist_lab.sh: dnsdist (Debian package dnsdist) in front of
# two curvecache instances, with PROXY protocol v2 (issue 8), resolving
# in the loopback lab (tests/lab/lab.sh; shared code in e2e_lib.sh).
#
# Run by "make check" (cwd = top build dir, $srcdir = top source dir).
# Exit 0 = every check passed, 1 = a check failed, 77 = SKIP.
#
# Addresses (the lab uses 127.53.1-3.x and 127.53.100.x for e2e_lib):
#   127.53.9.1, 127.53.9.2  curvecache instances (proxy-protocol-from:
#                           127.53.9.53, log-queries: yes)
#   127.53.9.53             dnsdist: listens and sends from there, with
#                           useProxyProtocol=true, health checks of
#                           localhost. A (answered locally; dnsdist sends
#                           them with a LOCAL header, so their client is
#                           dnsdist's own address, which is allowed)
#   127.53.9.100            the client: allowed by the instances
#   127.53.9.101            another client: refused by the instances
#   127.53.9.102            a client that sends a burst: allowed, and
#                           rate limited like every client (ratelimit:
#                           RATE on the instances, loopback not exempt)
# How each check decides:
# - dnsdist's health checks are answered: the instances' query logs
#   show localhost. A from 127.53.9.53 answered NOERROR, and dnsdist
#   never marks a backend down (mustResolve=true: only a NOERROR or
#   NXDOMAIN answer counts);
# - UDP and TCP queries from .100 through dnsdist are answered (NOERROR,
#   the lab's address for www.example.lab.), and the query log of the
#   instances names client=127.53.9.100 (never 127.53.9.53);
# - both instances got client queries (round robin);
# - a query from .101 through dnsdist is REFUSED by its header's
#   address, although dnsdist's own address is allowed: the client is
#   taken from the PROXY header;
# - a query sent straight to an instance from 127.53.9.53 without a
#   header gets no answer and moves num.query.proxy.bad; a plain query
#   from .100 straight to an instance is answered (no header needed);
# - a burst of BURST queries from .102 through dnsdist gets at least RATE
#   and at most 4 * RATE answers (each instance's bucket holds RATE, plus
#   what refills while the burst lasts), num.ratelimited of the two
#   instances together moves by at least BURST - 4 * RATE and by no more
#   than the queries left unanswered, and the queries from .100 sent
#   through dnsdist after each chunk of the burst (the last one right
#   after it) are all answered: the limit is per real client, not per
#   dnsdist address (which carries the whole burst). RATE stays well
#   above what the sequential checks and the health checks send.
# - 8. kdig +tls from .100 through dnsdist's DoT door (the test CA, the
#   name checked): three questions on one connection answered NOERROR,
#   the query logs name client=127.53.9.100 proto=tcp for them; kdig
#   +tls from .101: REFUSED (the ACL sees the client behind the TLS
#   balancer too).
# - 9. PROXY v2 before TLS on instance 1's own DoT (853) and DoH (443)
#   ports, python playing the balancer from 127.53.9.53 (dnsdist 1.7
#   sends its header inside TLS to a TLS backend): a header split over
#   two writes then 3 DoT queries, a header and ClientHello in one
#   segment, a DoH GET: answered and logged as client 127.53.9.100
#   (with .100 straight over DoT, no header, and one after the burst
#   below: 7 lines, none naming .53); a burst of 3 * RATE queries on one
#   DoT connection whose header names .102: at least RATE and at most
#   2 * RATE answered, the others counted in num.ratelimited, and a
#   header naming .100 answered right after (the limit is the header
#   client's);
#   a header naming .101: REFUSED; no header, a bad version, an
#   oversized length: closed, num.query.proxy.bad +3 (the slow header,
#   never finished, counts in tls.failed); a header cut short: closed
#   after the 5 s handshake limit; 20 sessions after a header held open
#   add 20 sockets to /proc/PID/fd (the header is read on the TLS
#   session's own socket: no second descriptor per connection).

set -u
srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=tests/e2e/e2e_lib.sh
. "$srcdir/tests/e2e/e2e_lib.sh"
e2e_init dnsdist_lab dnsdist python3

CC1=127.53.9.1
CC2=127.53.9.2
DD=127.53.9.53
CLIENT=127.53.9.100
OTHER=127.53.9.101
LIMITED=127.53.9.102
# Queries/s per client on the instances (the 21 sequential queries from
# $CLIENT, about 11 per instance, stay under a full bucket), and the
# burst of check 7.
RATE=20
BURST=300
WWW=www.example.lab

# inst_start N IP: curvecache instance N on IP (pid in INST_PID), with
# DoT and DoH doors (ports 853 and 443, the test CA's certificate).
inst_start() {
  cc_conf_at "$2" "$WORK/cc$1.conf" "log-queries: yes" \
    "listen: $2@853" "listen: $2@443" \
    "tls-service-key: $WORK/pki/srv.key" "tls-service-pem: $WORK/pki/srv.pem" \
    "access-control: 127.0.0.1 allow" "access-control: $CLIENT allow" \
    "access-control: $LIMITED allow" "access-control: $DD allow" \
    "access-control-default: refuse" "proxy-protocol-from: $DD" \
    "ratelimit: $RATE" "ratelimit-exempt-loopback: no"
  bg_start "cc$1" "$CURVECACHE" -f -c "$WORK/cc$1.conf"
  INST_PID=$bg_pid
  wait_up "curvecache $1" "$2" "$INST_PID" "$WORK/cc$1.out" || exit 1
}

# inst_stat N PID NAME: counter NAME from a fresh SIGUSR1 dump.
inst_stat() {
  before=$(grep -c "event=stats" "$WORK/cc$1.out")
  kill -USR1 "$2"
  n=0
  while [ $n -lt 20 ]; do
    sleep 0.1
    [ "$(grep -c "event=stats" "$WORK/cc$1.out")" -gt "$before" ] && break
    n=$((n + 1))
  done
  grep 'event=stats' "$WORK/cc$1.out" | tr ' ' '\n' |
    sed -n "s/^$3=//p" | tail -n 1
}

e2e_pki "$WORK/pki" dot.example.lab "$DD" ||
  { bad "test CA" "openssl failed" "$WORK/pki/openssl.log"; exit 1; }
inst_start 1 $CC1
PID1=$INST_PID
inst_start 2 $CC2
PID2=$INST_PID
cat >"$WORK/dnsdist.conf" <<EOC
setLocal("$DD:53")
addTLSLocal("$DD:853", "$WORK/pki/srv.pem", "$WORK/pki/srv.key")
setACL({"127.0.0.0/8"})
newServer({address="$CC1:53", name="cc1", source="$DD",
           useProxyProtocol=true, checkName="localhost.", checkType="A",
           checkInterval=1, mustResolve=true})
newServer({address="$CC2:53", name="cc2", source="$DD",
           useProxyProtocol=true, checkName="localhost.", checkType="A",
           checkInterval=1, mustResolve=true})
setServerPolicy(roundrobin)
EOC
bg_start dnsdist dnsdist --supervised --disable-syslog -C "$WORK/dnsdist.conf"
DD_PID=$bg_pid
n=0
while [ $n -lt 100 ]; do
  dig +time=1 +tries=1 -b $CLIENT "@$DD" localhost A 2>/dev/null |
    grep -q 'status: NOERROR' && break
  sleep 0.1
  n=$((n + 1))
done
if [ $n -ge 100 ]; then
  bad "dnsdist start" "no answer on $DD:53 within 10 s" "$WORK/dnsdist.out"
  exit 1
fi
ok "dnsdist answers on $DD ($(elapsed))"

# 0. Health checks: answered by the instances, backends never down.
sleep 2.5
h1=$(grep -c "client=${DD}[^0-9].*name=localhost\. type=A rcode=NOERROR" \
     "$WORK/cc1.out")
h2=$(grep -c "client=${DD}[^0-9].*name=localhost\. type=A rcode=NOERROR" \
     "$WORK/cc2.out")
down=$(grep -c "as 'down'" "$WORK/dnsdist.out")
echo "# health checks answered: cc1 $h1, cc2 $h2; dnsdist down marks $down"
if [ "$h1" -ge 2 ] && [ "$h2" -ge 2 ] && [ "$down" -eq 0 ]; then
  ok "dnsdist's health checks answered NOERROR, no backend marked down"
else bad "health checks" "cc1 $h1, cc2 $h2 (want >= 2 each), down $down" \
  "$WORK/dnsdist.out"; fi

# 1. UDP through dnsdist from the allowed client.
good=0
i=0
while [ $i -lt 20 ]; do
  dig +time=3 +tries=1 -b $CLIENT "@$DD" $WWW A >"$WORK/dig.out" 2>&1
  [ "$(dig_status "$WORK/dig.out")" = NOERROR ] &&
    grep -q "^$WWW\.[[:space:]].*[[:space:]]A[[:space:]]" "$WORK/dig.out" &&
    good=$((good + 1))
  i=$((i + 1))
done
if [ $good -eq 20 ]; then ok "20/20 UDP queries through dnsdist answered"
else bad "UDP through dnsdist" "$good/20 answered" "$WORK/dig.out"; fi

# 2. TCP through dnsdist.
dig +tcp +time=3 +tries=1 -b $CLIENT "@$DD" $WWW A >"$WORK/dig.out" 2>&1
if [ "$(dig_status "$WORK/dig.out")" = NOERROR ]; then
  ok "TCP query through dnsdist answered"
else bad "TCP through dnsdist" "not NOERROR" "$WORK/dig.out"; fi

# 3. The query logs see the client, both instances got some.
sleep 0.5
q1=$(grep -c "client=${CLIENT}[^0-9].*name=$WWW" "$WORK/cc1.out")
q2=$(grep -c "client=${CLIENT}[^0-9].*name=$WWW" "$WORK/cc2.out")
tcpq=$(grep -c "client=${CLIENT}[^0-9].*proto=tcp name=$WWW" \
       "$WORK/cc1.out" "$WORK/cc2.out" | awk -F: '{s += $2} END {print s}')
ddq=$(grep -c "client=${DD}[^0-9].*name=$WWW" "$WORK/cc1.out" "$WORK/cc2.out" |
      awk -F: '{s += $2} END {print s}')
echo "# query log lines for $WWW from $CLIENT: cc1 $q1, cc2 $q2" \
  "(tcp $tcpq), from $DD: $ddq"
if [ "$q1" -ge 1 ] && [ "$q2" -ge 1 ] && [ $((q1 + q2)) -eq 21 ]; then
  ok "both instances answered the client ($q1 + $q2)"
else bad "both instances" "cc1 $q1, cc2 $q2 (want both > 0, sum 21)"; fi
if [ "$tcpq" -eq 1 ] && [ "$ddq" -eq 0 ]; then
  ok "query logs name the real client (UDP and TCP), never dnsdist"
else bad "real client in the query log" "tcp $tcpq (want 1), dnsdist $ddq"; fi

# 4. Another client through dnsdist: its own address is refused.
dig +time=3 +tries=1 -b $OTHER "@$DD" $WWW A >"$WORK/dig.out" 2>&1
st=$(dig_status "$WORK/dig.out")
if [ "$st" = REFUSED ]; then ok "client $OTHER through dnsdist: REFUSED"
else bad "other client refused" "status '$st'" "$WORK/dig.out"; fi

# 5. Straight to an instance from dnsdist's address, no header: dropped.
b1=$(inst_stat 1 "$PID1" num.query.proxy.bad)
dig +time=1 +tries=1 -b $DD "@$CC1" $WWW A >"$WORK/dig.out" 2>&1
st=$(dig_status "$WORK/dig.out")
b2=$(inst_stat 1 "$PID1" num.query.proxy.bad)
if [ -z "$st" ] && grep -q "timed out" "$WORK/dig.out" &&
   [ "${b2:-0}" -eq $((${b1:-0} + 1)) ]; then
  ok "headerless query from $DD dropped (num.query.proxy.bad $b1 -> $b2)"
else
  bad "headerless query dropped" "status '$st', proxy.bad $b1 -> $b2" \
    "$WORK/dig.out"
fi
dig +tcp +time=2 +tries=1 -b $DD "@$CC1" $WWW A >"$WORK/dig.out" 2>&1
st=$(dig_status "$WORK/dig.out")
b3=$(inst_stat 1 "$PID1" num.query.proxy.bad)
if [ -z "$st" ] && [ "${b3:-0}" -gt "${b2:-0}" ]; then
  ok "headerless TCP connection from $DD closed (proxy.bad $b2 -> $b3)"
else
  bad "headerless TCP dropped" "status '$st', proxy.bad $b2 -> $b3" \
    "$WORK/dig.out"
fi

# 5b. A header split over two TCP segments (waited for), claiming the
# client $CLIENT, then one query: answered NOERROR on that connection.
t0=$(grep -c "client=${CLIENT}[^0-9].*proto=tcp name=$WWW" "$WORK/cc1.out")
python3 - "$DD" "$CC1" "$CLIENT" >"$WORK/split.out" 2>&1 <<'EOP'
import socket, struct, sys, time
src, dst, client = sys.argv[1:4]
body = socket.inet_aton(client) + socket.inet_aton(dst) + \
    struct.pack("!HH", 40000, 53)
hdr = b"\r\n\r\n\x00\r\nQUIT\n" + bytes([0x21, 0x11]) + \
    struct.pack("!H", len(body)) + body
q = struct.pack("!HHHHHH", 0x4242, 0x0100, 1, 0, 0, 0)
q += b"".join(bytes([len(l)]) + l.encode() for l in "www.example.lab".split("."))
q += b"\x00" + struct.pack("!HH", 1, 1)
s = socket.socket()
s.settimeout(5)
s.bind((src, 0))
s.connect((dst, 53))
s.sendall(hdr[:9])
time.sleep(0.3)
s.sendall(hdr[9:] + struct.pack("!H", len(q)) + q)
n = struct.unpack("!H", s.recv(2))[0]
r = b""
while len(r) < n:
    r += s.recv(n - len(r))
print("id=%x rcode=%d an=%d" % (struct.unpack("!H", r[:2])[0], r[3] & 15,
      struct.unpack("!H", r[6:8])[0]))
EOP
sleep 0.2
t1=$(grep -c "client=${CLIENT}[^0-9].*proto=tcp name=$WWW" "$WORK/cc1.out")
if grep -q "id=4242 rcode=0 an=1" "$WORK/split.out" && [ "$t1" -eq $((t0 + 1)) ]
then ok "PROXY header split over two TCP segments: answered, client logged"
else bad "split TCP header" "no NOERROR answer" "$WORK/split.out"; fi

# 6. Plain DNS from a client that is no balancer still works.
dig +time=3 +tries=1 -b $CLIENT "@$CC2" $WWW A >"$WORK/dig.out" 2>&1
st=$(dig_status "$WORK/dig.out")
if [ "$st" = NOERROR ]; then ok "plain query straight to an instance"
else bad "plain query" "status '$st'" "$WORK/dig.out"; fi

# 7. A burst from $LIMITED through dnsdist, one query from $CLIENT after
# each chunk of it: the burst is limited, $CLIENT is not.
r1=$(inst_stat 1 "$PID1" num.ratelimited)
r2=$(inst_stat 2 "$PID2" num.ratelimited)
python3 - "$DD" "$LIMITED" "$CLIENT" "$BURST" >"$WORK/burst.out" 2>&1 <<'EOP'
import select, socket, struct, sys, time
dst, lim, cli, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
CHUNK = 25
qname = b"".join(bytes([len(l)]) + l.encode()
                 for l in "www.example.lab".split(".")) + b"\x00"
def sock(src):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind((src, 0))
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
    return s
def query(qid):
    return struct.pack("!HHHHHH", qid, 0x0100, 1, 0, 0, 0) + qname + \
        struct.pack("!HH", 1, 1)
ls, cs = sock(lim), sock(cli)
sent = 0
for i in range(n):
    ls.sendto(query(i), (dst, 53))
    if i % CHUNK == CHUNK - 1 or i == n - 1:
        cs.sendto(query(sent), (dst, 53))
        sent += 1
        time.sleep(0.002)
seen = {ls: set(), cs: set()}
while True:
    ready = select.select([ls, cs], [], [], 2.0)[0]
    if not ready:
        break
    for s in ready:
        r = s.recv(65535)
        if len(r) >= 12 and r[3] & 15 == 0:
            seen[s].add(struct.unpack("!H", r[:2])[0])
print("limited answered %d of %d" % (len(seen[ls]), n))
print("client answered %d of %d" % (len(seen[cs]), sent))
EOP
r1b=$(inst_stat 1 "$PID1" num.ratelimited)
r2b=$(inst_stat 2 "$PID2" num.ratelimited)
got=$(sed -n 's/^limited answered \([0-9]*\) of.*/\1/p' "$WORK/burst.out")
cans=$(sed -n 's/^client answered \([0-9]*\) of.*/\1/p' "$WORK/burst.out")
csent=$(sed -n 's/^client answered .* of \([0-9]*\)/\1/p' "$WORK/burst.out")
got=${got:-0}
drop=$((${r1b:-0} - ${r1:-0} + ${r2b:-0} - ${r2:-0}))
echo "# burst of $BURST from $LIMITED at ratelimit $RATE: $got answered;" \
  "num.ratelimited cc1 $r1 -> $r1b, cc2 $r2 -> $r2b;" \
  "$CLIENT: $cans of $csent"
if [ "$got" -ge $RATE ] && [ "$got" -le $((RATE * 4)) ] &&
   [ "$drop" -ge $((BURST - RATE * 4)) ] && [ "$drop" -le $((BURST - got)) ]
then
  ok "burst from $LIMITED: $got of $BURST answered, $drop ratelimited"
else
  bad "burst through dnsdist is rate limited" \
    "$got of $BURST answered, num.ratelimited +$drop" "$WORK/burst.out"
fi
if [ "${cans:-0}" -ge 1 ] && [ "$cans" = "$csent" ]; then
  ok "$CLIENT during and after the burst: $cans of $csent answered"
else
  bad "the limit is per real client" \
    "$CLIENT: '$cans' of '$csent' answered" "$WORK/burst.out"
fi

# 8. DNS over TLS at dnsdist, PROXY v2 over TCP to the instances.
sleep 1.1 # a new second: the rate limit buckets of check 7 refill
DOTC=www.example.lab
n0=$(grep -c "client=${CLIENT}[^0-9].*proto=tcp name=$DOTC" \
  "$WORK/cc1.out" "$WORK/cc2.out" | awk -F: '{s += $2} END {print s}')
kdig +tls +tls-ca="$WORK/pki/ca.pem" +tls-hostname=dot.example.lab \
  +timeout=3 +retry=0 -b $CLIENT "@$DD" -p 853 $DOTC A $DOTC AAAA $DOTC A \
  >"$WORK/kdig.out" 2>&1
sleep 0.3
n1=$(grep -c "client=${CLIENT}[^0-9].*proto=tcp name=$DOTC" \
  "$WORK/cc1.out" "$WORK/cc2.out" | awk -F: '{s += $2} END {print s}')
nok=$(grep -c 'status: NOERROR' "$WORK/kdig.out")
echo "# kdig +tls through dnsdist: $nok NOERROR; query log lines of" \
  "$CLIENT over tcp: $n0 -> $n1"
if [ "$nok" -eq 3 ] && grep -q 'TLS session (TLS1' "$WORK/kdig.out" &&
   [ "$n1" -eq $((n0 + 3)) ]; then
  ok "kdig +tls via dnsdist's DoT: 3 answers, logged as client $CLIENT"
else
  bad "DoT through dnsdist with PROXY v2" "$nok NOERROR, log $n0 -> $n1" \
    "$WORK/kdig.out"
fi
kdig +tls +tls-ca="$WORK/pki/ca.pem" +tls-hostname=dot.example.lab \
  +timeout=3 +retry=0 -b $OTHER "@$DD" -p 853 $DOTC A >"$WORK/kdig.out" 2>&1
if grep -q 'status: REFUSED' "$WORK/kdig.out"; then
  ok "kdig +tls from $OTHER via dnsdist's DoT: REFUSED by its own address"
else bad "DoT client $OTHER refused" "not REFUSED" "$WORK/kdig.out"; fi

# 9. PROXY v2 before TLS on the instance's own DoT and DoH ports (the
# header in plain, then the ClientHello: haproxy's and Unbound's way;
# dnsdist 1.7 sends its header inside the TLS session to a TLS backend,
# so a python client plays the balancer from $DD).
sleep 1.1
b0=$(inst_stat 1 "$PID1" num.query.proxy.bad)
# (DoT lines say proto=tls, DoH's proto=https)
t0=$(grep -cE "client=${CLIENT}[^0-9].*proto=(tls|https) name=$WWW" \
  "$WORK/cc1.out")
r0=$(inst_stat 1 "$PID1" num.ratelimited)
python3 - "$DD" "$CC1" "$CLIENT" "$OTHER" "$WORK/pki/ca.pem" \
  "$srcdir/tests/e2e" "$LIMITED" $((RATE * 3)) "$PID1" \
  >"$WORK/tlsproxy.out" 2>&1 <<'EOP'
import os, socket, ssl, struct, sys, time
dd, cc, client, other, ca, e2e, limited = sys.argv[1:8]
burst_n, pid = int(sys.argv[8]), sys.argv[9]
sys.path.insert(0, e2e)
import h2raw
NAME, HOST = "www.example.lab", "dot.example.lab"
def header(cli, ver=0x21, extra=b""):
    body = socket.inet_aton(cli) + socket.inet_aton(cc) + \
        struct.pack("!HH", 40000, 853) + extra
    return b"\r\n\r\n\x00\r\nQUIT\n" + bytes([ver, 0x11]) + \
        struct.pack("!H", len(body)) + body
def tcp(src, port):
    s = socket.socket()
    s.settimeout(8)
    s.bind((src, 0))
    s.connect((cc, port))
    return s
def tls(s, alpn):
    ctx = ssl.create_default_context(cafile=ca)
    ctx.set_alpn_protocols([alpn])
    return ctx.wrap_socket(s, server_hostname=HOST)
def frame(qid, qtype=1):
    q = struct.pack("!6H", qid, 0x0100, 1, 0, 0, 0) + b"".join(
        bytes([len(l)]) + l.encode() for l in NAME.split(".")) + \
        b"\0" + struct.pack("!HH", qtype, 1)
    return struct.pack("!H", len(q)) + q
def ask(t, qid, qtype):
    t.sendall(frame(qid, qtype))
    n = struct.unpack("!H", t.recv(2))[0]
    r = b""
    while len(r) < n:
        r += t.recv(n - len(r))
    return r[3] & 15
def closed(s):
    try:
        return s.recv(100) == b""
    except OSError:
        return True
class Bio:
    """TLS through memory BIOs: the ClientHello is at hand before it is
    sent, to go in the header's segment."""
    def __init__(self, s, alpn):
        ctx = ssl.create_default_context(cafile=ca)
        ctx.set_alpn_protocols([alpn])
        self.s, self.inc, self.out = s, ssl.MemoryBIO(), ssl.MemoryBIO()
        self.o = ctx.wrap_bio(self.inc, self.out, server_hostname=HOST)
    def hello(self):
        try:
            self.o.do_handshake()
        except ssl.SSLWantReadError:
            pass
        return self.out.read()
    def pump(self):
        d = self.out.read()
        if d:
            self.s.sendall(d)
        d = self.s.recv(65536)
        if not d:
            raise ConnectionResetError("closed")
        self.inc.write(d)
    def handshake(self):
        while True:
            try:
                return self.o.do_handshake()
            except ssl.SSLWantReadError:
                self.pump()
    def sendall(self, b):
        self.o.write(b)
        self.s.sendall(self.out.read())
    def recv(self, n):
        while True:
            try:
                return self.o.read(n)
            except ssl.SSLWantReadError:
                self.pump()
def dot(label, src, hdr, split=False, one=False, qtypes=(1,)):
    try:
        s = tcp(src, 853)
        if one:  # the header and the ClientHello in one segment
            t = Bio(s, "dot")
            s.sendall(hdr + t.hello())
            t.handshake()
        else:
            if split:
                s.sendall(hdr[:9])
                time.sleep(0.3)
            s.sendall(hdr[9:] if split else hdr)
            t = tls(s, "dot")
        rc = [ask(t, 0x100 + i, q) for i, q in enumerate(qtypes)]
        print(label, "rcodes=" + ",".join(map(str, rc)))
    except (OSError, ssl.SSLError) as e:
        print(label, "closed", type(e).__name__)
def doh(label, src, hdr):
    s = tcp(src, 443)
    s.sendall(hdr)
    c = h2raw.Conn.__new__(h2raw.Conn)
    c.s, c.buf = tls(s, "h2"), b""
    c.send(h2raw.PREFACE + h2raw.frame(h2raw.SETTINGS, 0, 0))
    c.send(h2raw.frame(h2raw.HEADERS, h2raw.END_STREAM | h2raw.END_HEADERS,
                       1, h2raw.get_headers(HOST, NAME)))
    data = b""
    while True:
        f = c.read_frame()
        if f is None:
            print(label, "closed")
            return
        if f[0] == h2raw.DATA and f[2] == 1:
            data += f[3]
            if f[1] & h2raw.END_STREAM:
                break
    print(label, "rcodes=%d" % (data[3] & 15))
def bad(label, data, wait=3):
    s = tcp(dd, 853)
    s.sendall(data)
    s.settimeout(wait)
    t0 = time.time()
    print(label, "closed" if closed(s) else "open",
          "after %.1f s" % (time.time() - t0))
def burst(label, cli, n):
    """n queries at once on one connection; the answers within 2 s."""
    s = tcp(dd, 853)
    s.sendall(header(cli))
    t = tls(s, "dot")
    t.sendall(b"".join(frame(i) for i in range(n)))
    t.settimeout(2)
    buf, got = b"", 0
    try:
        while True:
            d = t.recv(65536)
            if not d:
                break
            buf += d
            while len(buf) >= 2 and len(buf) >= 2 + (buf[0] << 8 | buf[1]):
                buf = buf[2 + (buf[0] << 8 | buf[1]):]
                got += 1
    except (OSError, ssl.SSLError):
        pass
    print(label, "answered %d of %d" % (got, n))
burst("burst", limited, burst_n)
dot("after-burst", dd, header(client))
dot("split", dd, header(client), split=True, qtypes=(1, 28, 1))
dot("one-segment", dd, header(client), one=True)
dot("other", dd, header(other))
dot("direct", client, b"")
doh("doh", dd, header(client))
dot("no-header", dd, b"")
bad("garbage", header(client, ver=0x11))
bad("oversized", header(client)[:14] + struct.pack("!H", 2000) + b"x" * 40)
bad("slow", header(client)[:20], wait=8)
def sockets():
    n = 0
    for f in os.listdir("/proc/%s/fd" % pid):
        try:
            n += os.readlink("/proc/%s/fd/%s" % (pid, f)).startswith("socket:")
        except OSError:
            pass
    return n
def held(label, n):
    """n DoT sessions after a header, held open: the daemon's sockets
    grow by n (one descriptor per connection, none duplicated)."""
    time.sleep(0.5)
    before, conns = sockets(), []
    for i in range(n):
        s = tcp(dd, 853)
        s.sendall(header(client))
        conns.append(tls(s, "dot"))
    time.sleep(0.5)
    during = sockets()
    for t in conns:
        t.close()
    print(label, "sockets %d -> %d with %d sessions" % (before, during, n))
held("held", 20)
EOP
sleep 0.3
b1=$(inst_stat 1 "$PID1" num.query.proxy.bad)
r1=$(inst_stat 1 "$PID1" num.ratelimited)
t1=$(grep -cE "client=${CLIENT}[^0-9].*proto=(tls|https) name=$WWW" \
  "$WORK/cc1.out")
tdd=$(grep -cE "client=${DD}[^0-9].*proto=(tls|https)" "$WORK/cc1.out")
tot=$(grep -c "client=${OTHER}[^0-9].*proto=tls name=$WWW.*rcode=REFUSED" \
  "$WORK/cc1.out")
echo "# PROXY v2 before TLS: $(tr '\n' ';' <"$WORK/tlsproxy.out")"
echo "# query log lines over TLS: $CLIENT $t0 -> $t1, $DD $tdd," \
  "$OTHER REFUSED $tot; num.query.proxy.bad $b0 -> $b1;" \
  "num.ratelimited $r0 -> $r1"
if grep -q '^split rcodes=0,0,0$' "$WORK/tlsproxy.out" &&
   grep -q '^one-segment rcodes=0$' "$WORK/tlsproxy.out"; then
  ok "DoT after a PROXY v2 header (split; with the ClientHello): answered"
else bad "DoT after a PROXY v2 header" "not answered" "$WORK/tlsproxy.out"; fi
if grep -q '^doh rcodes=0$' "$WORK/tlsproxy.out"; then
  ok "DoH (HTTP/2 GET) after a PROXY v2 header: answered"
else bad "DoH after a PROXY v2 header" "not answered" "$WORK/tlsproxy.out"; fi
if grep -q '^other rcodes=5$' "$WORK/tlsproxy.out" && [ "$tot" -eq 1 ]; then
  ok "DoT with header client $OTHER: REFUSED by the header's address"
else bad "DoT header client refused" "ACL" "$WORK/tlsproxy.out"; fi
if grep -q '^direct rcodes=0$' "$WORK/tlsproxy.out"; then
  ok "DoT straight from $CLIENT (no balancer, no header): answered"
else bad "DoT with no header from a client" "-" "$WORK/tlsproxy.out"; fi
if [ "$t1" -eq $((t0 + 7)) ] && [ "$tdd" -eq 0 ]; then
  ok "query log: 7 DoT/DoH queries from $CLIENT, none from $DD"
else bad "query log over TLS" "$CLIENT $t0 -> $t1 (want +7), $DD $tdd"; fi
got=$(sed -n 's/^burst answered \([0-9]*\) of.*/\1/p' "$WORK/tlsproxy.out")
got=${got:-0}
drop=$((${r1:-0} - ${r0:-0}))
if [ "$got" -ge $RATE ] && [ "$got" -le $((RATE * 2)) ] &&
   [ "$drop" -eq $((RATE * 3 - got)) ] &&
   grep -q '^after-burst rcodes=0$' "$WORK/tlsproxy.out"; then
  ok "DoT burst, header client $LIMITED: $got of $((RATE * 3)) answered,\
 $drop ratelimited; $CLIENT answered after it"
else bad "DoT rate limit by the header's client" \
  "$got answered, ratelimited +$drop" "$WORK/tlsproxy.out"; fi
if grep -q '^no-header closed' "$WORK/tlsproxy.out" &&
   grep -q '^garbage closed' "$WORK/tlsproxy.out" &&
   grep -q '^oversized closed' "$WORK/tlsproxy.out" &&
   grep -q '^slow closed after [4-6]\.' "$WORK/tlsproxy.out" &&
   [ "${b1:-0}" -eq $((${b0:-0} + 3)) ]; then
  ok "no, bad, oversized header from $DD: closed (proxy.bad +3); slow: 5 s"
else bad "bad headers before TLS" "proxy.bad $b0 -> $b1" "$WORK/tlsproxy.out"
fi
held=$(sed -n 's/^held sockets \([0-9]*\) -> \([0-9]*\) with.*/\2 - \1/p' \
  "$WORK/tlsproxy.out")
held=$((${held:-0}))
if [ "$held" -ge 20 ] && [ "$held" -le 23 ]; then
  ok "20 DoT sessions after a PROXY v2 header: +$held sockets (one each)"
else bad "one descriptor per DoT session behind a balancer" \
  "+$held sockets for 20 (a dup would be +40)" "$WORK/tlsproxy.out"; fi

bg_stop "$DD_PID"
k=1
for p in "$PID1" "$PID2"; do
  e2e_kill "$p"
  st=$?
  bg_stop "$p"
  if [ "$st" -eq 0 ] &&
     ! grep -qE 'runtime error|Sanitizer' "$WORK/cc$k.out"; then
    ok "curvecache $k exits 0 on SIGTERM, no sanitizer report"
  else
    bad "curvecache $k exit" "status $st" "$WORK/cc$k.out"
  fi
  k=$((k + 1))
done
e2e_finish
