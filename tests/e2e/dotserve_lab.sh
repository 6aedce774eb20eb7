#!/bin/sh
# tests/e2e/dotserve_lab.sh: DNS over TLS for clients (RFC 7858): a
# listen address on tls-port (853) with tls-service-key/-pem, a test CA
# and certificates this test makes with openssl, real clients (kdig, BIND
# 9.18's dig) and a few scripted ones (python3's ssl module). No lab
# servers: the answers come from local-data.
#
# Run by "make check" (cwd = top build dir, $srcdir = top source dir).
# Exit 0 = every check passed, 1 = a check failed, 77 = SKIP (not root,
# or kdig/dig/openssl/python3 missing).
#
# Checks:
# - curvecache -t: the key matches, the expiry is printed; a key that
#   does not match, a missing key file and a listen address on tls-port
#   with no certificate are refused with FILE:LINE, and the daemon does
#   not start with a key that does not match;
# - kdig +keepopen: 5 questions on one TLS connection (one handshake,
#   num.query.tls 5); dig +tls; answers padded to 468 bytes (RFC 8467);
#   ALPN dot, TLS 1.2 taken, TLS 1.1 refused (openssl s_client); the
#   query log says proto=tls; dig +keepalive gets edns-tcp-keepalive
#   (10.0 s, RFC 7828) over TCP and TLS, not over UDP nor unasked;
# - a query split across three TLS records; 20 and 1000 queries sent at
#   once, as many answers; TLS 1.3 session resumption (counted); no EDNS,
#   no padding; (tls-ticket-rotate: 3) a ticket resumes after one key
#   rotation, not after three; frames of length 0 or over 4096 close the connection;
#   garbage bytes and 20 half-open handshakes are closed
#   (after 5 s for the half-open) while other clients are answered; a
#   quiet connection is closed after the idle timeout (10 s);
#   300 idle connections (more than the slots): the idlest are closed to
#   make room, a new kdig +tls is answered at its first try, none refused;
# - SIGHUP with a certificate from another CA: new connections get it, a
#   connection opened before keeps its session, UDP answers throughout;
#   curvecache-control tls_cert shows the certificate served (subject,
#   SAN, issuer, days left), after the reload the new one;
#   a reload (curvecache-control reload) with a key that does not match
#   fails with FILE:LINE and keeps the old certificate;
# - num.query.tls and num.answer.transport.tls (not in .tcp) in stats
#   and in the Prometheus output.

set -u
srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=tests/e2e/e2e_lib.sh
. "$srcdir/tests/e2e/e2e_lib.sh"

e2e_name=dotserve_lab
e2e_t0=$(date +%s)
CURVECACHE=${CURVECACHE:-./curvecache}
CTL=${CURVECACHE_CONTROL:-./curvecache-control}
e2e_need "curvecache binds ports 53 and 853 on 127.53.x.y" \
  kdig dig openssl python3 flock
e2e_built CURVECACHE CTL
e2e_lock "$e2e_name"
LAB_ROOT_HINTS=$WORK/root.hints
printf '. 3600000 NS a.root.lab.\na.root.lab. 3600000 A 127.53.87.99\n' \
  >"$LAB_ROOT_HINTS"
CC_IP=127.53.87.10
NAME=dns.lab

# ---- the PKI: two CAs, a certificate for dns.lab from each ----
P=$WORK/pki
mkdir -p "$P"
ossl() { openssl "$@" >>"$WORK/openssl.log" 2>&1; }
for ca in ca1 ca2; do
  ossl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
    -keyout "$P/$ca.key" -out "$P/$ca.pem" -subj "/CN=curvecache $ca" \
    -days 2
  # the server's certificate, signed by the CA at once (OpenSSL 3)
  ossl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
    -keyout "$P/$ca-srv.key" -out "$P/$ca-srv.pem" -subj "/CN=$NAME" \
    -CA "$P/$ca.pem" -CAkey "$P/$ca.key" -days 2 \
    -addext "subjectAltName=DNS:$NAME" -addext "basicConstraints=CA:FALSE"
  [ -s "$P/$ca-srv.pem" ] ||
    { bad "pki: $ca" "openssl failed" "$WORK/openssl.log"; exit 1; }
done
cp "$P/ca1-srv.key" "$WORK/tls.key"
cp "$P/ca1-srv.pem" "$WORK/tls.pem"

# ---- curvecache -t ----
check() { # FILE: curvecache -t's output and status
  "$CURVECACHE" -t -c "$1" >"$WORK/t.out" 2>&1
  echo "rc=$?" >>"$WORK/t.out"
}
cc_conf_at "$CC_IP" "$WORK/t.conf" "listen: $CC_IP@853" \
  "tls-service-key: $WORK/tls.key" "tls-service-pem: $WORK/tls.pem"
check "$WORK/t.conf"
expect "-t: the key matches, the expiry is printed" \
  "$(grep -c 'tls-service-pem .*: the key matches; expires 2' "$WORK/t.out")" 1
expect "-t: OK" "$(tail -n 1 "$WORK/t.out")" "rc=0"
cc_conf_at "$CC_IP" "$WORK/t.conf" "listen: $CC_IP@853" \
  "tls-service-key: $P/ca2-srv.key" "tls-service-pem: $WORK/tls.pem"
check "$WORK/t.conf"
expect "-t: a key that does not match: FILE:LINE and why" \
  "$(grep -c "^$WORK/t.conf:[0-9]*: tls-service-pem .*does not match" \
    "$WORK/t.out")" 1
expect "-t: a key that does not match: status 1" \
  "$(tail -n 1 "$WORK/t.out")" "rc=1"
cc_conf_at "$CC_IP" "$WORK/t.conf" "tls-service-key: $WORK/none.key" \
  "tls-service-pem: $WORK/tls.pem"
check "$WORK/t.conf"
expect "-t: a missing key file: FILE:LINE" \
  "$(grep -c "^$WORK/t.conf:[0-9]*: tls-service-key .*none.key" \
    "$WORK/t.out")" 1
cc_conf_at "$CC_IP" "$WORK/t.conf" "listen: $CC_IP@853"
check "$WORK/t.conf"
expect "-t: a listen address on tls-port needs a certificate" \
  "$(grep -c "tls-port.*tls-service-key and tls-service-pem" \
    "$WORK/t.out")" 1
cc_conf_at "$CC_IP" "$WORK/t.conf" "listen: $CC_IP@853" \
  "tls-service-key: $P/ca2-srv.key" "tls-service-pem: $WORK/tls.pem"
"$CURVECACHE" -f -c "$WORK/t.conf" >"$WORK/nostart.out" 2>&1 </dev/null 9>&- &
nspid=$!
n=0
while e2e_alive $nspid && [ $n -lt 30 ]; do sleep 0.1; n=$((n + 1)); done
if e2e_alive $nspid; then
  e2e_kill $nspid
  bad "start: refused with a key that does not match" "it runs"
else
  wait $nspid
  expect "start: refused with a key that does not match (FILE:LINE)" \
    "$(grep -c "t.conf:[0-9]*: tls-service-pem .*does not match" \
      "$WORK/nostart.out")" 1
fi

# ---- the daemon ----
cc_start "listen: $CC_IP@853" "tls-service-key: $WORK/tls.key" \
  "tls-service-pem: $WORK/tls.pem" "control-socket: $WORK/ctl.sock" \
  "tls-ticket-rotate: 3" \
  "log-queries: yes" 'local-data: "a.lab. 300 IN A 192.0.2.1"' || exit 1

kq() { # CA [NAME...]: kdig over TLS, one connection, the answers
  kq_ca=$1
  shift
  kdig +tls-ca="$kq_ca" +tls-hostname=$NAME +keepopen +time=3 +retry=0 \
    "@$CC_IP" -p 853 "$@" 2>&1
}
# kq_answered CHECK CA WANT: a check that kdig +tls (CA) of a.lab A is
# answered (WANT 1) or not (0).
kq_answered() {
  kq "$2" a.lab A >"$WORK/kq.out"
  expect "$1" "$(grep -c 'status: NOERROR' "$WORK/kq.out")" "$3"
}

# ---- kdig: many questions, one connection ----
h0=$(cc_stat tls.handshakes)
q0=$(cc_stat num.query.tls)
a0=$(cc_stat num.answer.transport.tls)
u0=$(cc_stat num.answer.transport.tcp)
kq "$P/ca1.pem" a.lab A a.lab A a.lab A localhost A a.lab A >"$WORK/k.out"
expect "kdig: 5 answers" "$(grep -c 'status: NOERROR' "$WORK/k.out")" 5
expect "kdig: the local data" \
  "$(grep -c '^a.lab\..*A[[:space:]]*192.0.2.1$' "$WORK/k.out")" 4
expect_stat "kdig: one handshake" tls.handshakes 1 "$h0"
expect_stat "kdig: num.query.tls counts 5" num.query.tls 5 "$q0"
expect_stat "kdig: num.answer.transport.tls counts the 5 answers" \
  num.answer.transport.tls 5 "$a0"
expect_stat "kdig: ...and num.answer.transport.tcp none of them" \
  num.answer.transport.tcp 0 "$u0"
expect "kdig: padded to 468 (RFC 8467)" \
  "$(grep -c '^;; Received 468 B' "$WORK/k.out")" 5
expect "query log: proto=tls" \
  "$(grep -c 'event=query .*proto=tls name=a.lab. ' "$WORK/curvecache.log")" 4

# ---- dig +tls (BIND 9.18) ----
dig +tls +tls-ca="$P/ca1.pem" +tls-hostname=$NAME +time=3 +tries=1 \
  "@$CC_IP" -p 853 a.lab A >"$WORK/d.out" 2>&1
expect "dig +tls: NOERROR" "$(dig_status "$WORK/d.out")" NOERROR
expect "dig +tls: padded" "$(grep -c '^;; MSG SIZE  rcvd: 468$' \
  "$WORK/d.out")" 1

# ---- edns-tcp-keepalive (RFC 7828): over TCP and TLS, never UDP ----
ka() { dig +keepalive +time=3 +tries=1 "@$CC_IP" "$@" a.lab A 2>&1 |
  grep -c '^; TCP KEEPALIVE: 10.0 secs'; }
expect "keepalive: dig +tcp +keepalive gets 10.0 secs" "$(ka +tcp)" 1
expect "keepalive: dig +tls +keepalive gets 10.0 secs" \
  "$(ka +tls +tls-ca="$P/ca1.pem" +tls-hostname=$NAME -p 853)" 1
expect "keepalive: not over UDP" "$(ka +notcp)" 0
expect "keepalive: not unless asked (dig +tcp)" \
  "$(dig +tcp +time=3 +tries=1 "@$CC_IP" a.lab A 2>&1 |
    grep -c 'KEEPALIVE')" 0

# ---- the TLS versions and ALPN (openssl s_client) ----
sc() { openssl s_client -connect "$CC_IP:853" -CAfile "$P/ca1.pem" \
  -servername $NAME "$@" </dev/null 2>&1; }
expect "alpn: dot" "$(sc -alpn dot | grep -c '^ALPN protocol: dot$')" 1
expect "tls 1.2: taken" \
  "$(sc -tls1_2 | grep -c '^ *Protocol *: TLSv1.2$')" 1
expect "tls 1.1: refused" \
  "$(sc -tls1_1 -cipher 'DEFAULT@SECLEVEL=0' | grep -c 'alert protocol version')" 1

# ---- scripted clients ----
cat >"$WORK/dotcli.py" <<'PY'
import os, socket, ssl, struct, sys, time

ip, port, ca = sys.argv[2], int(sys.argv[3]), sys.argv[4]

def query(qid, name="a.lab", opt=True):
    q = struct.pack(">HHHHHH", qid, 0x0100, 1, 0, 0, 1 if opt else 0)
    for label in name.split("."):
        q += bytes([len(label)]) + label.encode()
    q += b"\0" + struct.pack(">HH", 1, 1)
    if opt:
        q += b"\0" + struct.pack(">HHIH", 41, 1232, 0, 0)  # OPT
    return struct.pack(">H", len(q)) + q

def tls():
    ctx = ssl.create_default_context(cafile=ca)
    s = socket.create_connection((ip, port), timeout=5)
    return ctx.wrap_socket(s, server_hostname="dns.lab")

def read_n(s, n):
    b = b""
    while len(b) < n:
        c = s.recv(n - len(b))
        if not c:
            raise EOFError
        b += c
    return b

def answer(s):
    n = struct.unpack(">H", read_n(s, 2))[0]
    m = read_n(s, n)
    return struct.unpack(">H", m[:2])[0], m[3] & 15, n

def closed(s, wait):
    s.settimeout(wait)
    try:
        return s.recv(100) == b""
    except (ConnectionResetError, ssl.SSLError):
        return True
    except socket.timeout:
        return False

mode = sys.argv[1]
if mode == "split":  # one query in three TLS records
    s = tls()
    q = query(7)
    for part in (q[:2], q[2:7], q[7:]):
        s.sendall(part)
        time.sleep(0.05)
    qid, rc, n = answer(s)
    print("id=%d rcode=%d padded=%s" % (qid, rc, n % 468 == 0))
elif mode == "pipeline":  # N queries in one record, N answers
    s = tls()
    count = int(sys.argv[5])
    s.sendall(b"".join(query(100 + i) for i in range(count)))
    ids = set(answer(s)[0] for _ in range(count))
    print(len(ids & set(range(100, 100 + count))))
elif mode == "resume":  # two connections, the second resumes (no EDNS)
    ctx = ssl.create_default_context(cafile=ca)
    sess, out = None, []
    for i in range(2):
        s = ctx.wrap_socket(socket.create_connection((ip, port), timeout=5),
                            server_hostname="dns.lab", session=sess)
        s.sendall(query(i, opt=False))
        out.append("%s/%d" % (s.session_reused, answer(s)[2]))
        sess = s.session
        s.close()
    print(" ".join(out))
elif mode == "rotate":  # resume across one key rotation, not three
    ctx = ssl.create_default_context(cafile=ca)

    def rotations():  # the daemon's log says when the keys rotate
        with open(sys.argv[5], errors="replace") as f:
            return f.read().count("event=tls_ticket rotated=yes")

    def wait_rotations(n):
        n0, t0 = rotations(), time.time()
        while rotations() < n0 + n and time.time() - t0 < 30:
            time.sleep(0.1)

    def conn(sess):
        s = ctx.wrap_socket(socket.create_connection((ip, port), timeout=5),
                            server_hostname="dns.lab", session=sess)
        s.sendall(query(1, opt=False))
        answer(s)
        out = (s.session_reused, s.session)
        s.close()
        return out

    first = conn(None)[1]
    wait_rotations(1)
    again = conn(first)[0]
    wait_rotations(2)
    print(again, conn(first)[0])
elif mode == "twice":  # a query, a pause, a query on the same session
    s = tls()
    s.sendall(query(1))
    first = answer(s)[1]
    print("begun", flush=True)  # the lab reloads only after this
    time.sleep(float(sys.argv[5]))
    s.sendall(query(2))
    print("%d %d" % (first, answer(s)[1]))
elif mode == "quiet":  # a query, then silence: closed by the idle timer?
    s = tls()
    t0 = time.time()  # the timer restarts when the query comes
    s.sendall(query(3))
    answer(s)
    shut = closed(s, float(sys.argv[5]))
    dt = time.time() - t0
    print("closed after 10 s" if shut and 9.5 <= dt <= 14 else
          "closed after %.1f s" % dt if shut else "open")
elif mode == "badframe":  # over TLS: a zero length, a length too big
    out = []
    for frame in (b"\0\0", struct.pack(">H", 5000) + b"x" * 100):
        s = tls()
        s.sendall(frame)
        out.append("closed" if closed(s, 3) else "open")
    print(" ".join(out))
elif mode == "garbage":  # not TLS: the server closes
    s = socket.create_connection((ip, port), timeout=5)
    s.sendall(os.urandom(300))
    print("closed" if closed(s, 3) else "open")
elif mode in ("halfopen", "idle"):  # N handshakes begun (or nothing sent)
    count, hold = int(sys.argv[5]), float(sys.argv[6])
    socks = []
    for _ in range(count):
        s = socket.create_connection((ip, port), timeout=5)
        if mode == "halfopen":  # a record header and part of a hello
            s.sendall(bytes([22, 3, 1, 2, 0, 1, 0, 1, 252, 3, 3]))
        socks.append(s)
    time.sleep(hold)
    print(sum(1 for s in socks if closed(s, 0.2)))
PY
cli2() { m=$1; shift; python3 "$WORK/dotcli.py" "$m" "$CC_IP" 853 "$@"; }

# the idle timeout (10 s), measured while the rest goes on
cli2 quiet "$P/ca1.pem" 15 >"$WORK/quiet.out" 2>&1 &
qpid=$!
expect "split: a query in three TLS records answered" \
  "$(cli2 split "$P/ca1.pem" 2>&1)" "id=7 rcode=0 padded=True"
expect "pipelined: 20 queries in one record, 20 answers" \
  "$(cli2 pipeline "$P/ca1.pem" 20 2>&1)" 20
expect "pipelined: 1000 queries at once (more than a frame buffer)" \
  "$(cli2 pipeline "$P/ca1.pem" 1000 2>&1)" 1000
r0=$(cc_stat num.query.tls.resume)
expect "resumed: the second connection resumes; no EDNS, no padding" \
  "$(cli2 resume "$P/ca1.pem" 2>&1)" "False/39 True/39"
expect_stat "resumed: num.query.tls.resume counts it" \
  num.query.tls.resume 1 "$r0"
expect "ticket keys (rotated every 3 s): resumed across one rotation, \
not after three" "$(cli2 rotate "$P/ca1.pem" "$WORK/curvecache.log" 2>&1)" \
  "True False"
expect "bad frames over TLS: closed" \
  "$(cli2 badframe "$P/ca1.pem" 2>&1)" "closed closed"
f0=$(cc_stat tls.failed)
expect "garbage: closed" "$(cli2 garbage "$P/ca1.pem" 2>&1)" closed

# 20 half-open handshakes held 7 s (the limit is 5 s), others served
cli2 halfopen "$P/ca1.pem" 20 7 >"$WORK/half.out" 2>&1 &
hpid=$!
sleep 1
kq_answered "half-open: another client is answered meanwhile" \
  "$P/ca1.pem" 1
wait $hpid
expect "half-open: all 20 closed after the handshake limit" \
  "$(cat "$WORK/half.out")" 20
expect_stat "garbage and half-open: tls.failed counts 21" tls.failed 21 \
  "$f0"

# before the flood below, which would close it to make room
wait $qpid
expect "idle: a quiet connection is closed after 10 s" \
  "$(cat "$WORK/quiet.out")" "closed after 10 s"

# more idle connections than slots (256): the one idle longest makes
# room for each newcomer, which is answered at its first try (kdig
# +retry=0, one connection); nothing is refused while one is idle
r0=$(cc_stat tcp.rejected)
cli2 idle "$P/ca1.pem" 300 3 >"$WORK/idle.out" 2>&1 &
ipid=$!
sleep 1.5
kq_answered \
  "idle: a fresh kdig +tls is answered at its first try (slots full)" \
  "$P/ca1.pem" 1
wait $ipid
atleast "idle: the idlest made room (44 or more of 300 closed)" \
  "$(cat "$WORK/idle.out")" 44
expect_stat "idle: nobody refused while idle connections could make room" \
  tcp.rejected 0 "$r0"

# ---- reload: a certificate from another CA ----
cli2 twice "$P/ca1.pem" 2 >"$WORK/twice.out" 2>&1 &
tpid=$!
n=0 # the session is begun (handshake and a first answer) before the reload
until grep -q '^begun$' "$WORK/twice.out" 2>/dev/null || [ $n -ge 100 ]; do
  n=$((n + 1))
  sleep 0.1
done
cp "$P/ca2-srv.key" "$WORK/tls.key"
cp "$P/ca2-srv.pem" "$WORK/tls.pem"
"$CTL" -s "$WORK/ctl.sock" tls_cert >"$WORK/cert1.out" 2>&1
expect "tls_cert: subject, SAN, issuer (CA 1), days left" \
  "$(grep -c -e '^subject: .*CN=dns.lab$' -e '^san: DNS:dns.lab$' \
    -e '^issuer: .*CN=curvecache ca1$' -e '^not_after: 20' \
    -e '^days_left: 1$' "$WORK/cert1.out")" 5
cc_hup reload
"$CTL" -s "$WORK/ctl.sock" tls_cert >"$WORK/cert2.out" 2>&1
expect "tls_cert: after the reload, the new certificate (CA 2)" \
  "$(grep -c '^issuer: .*CN=curvecache ca2$' "$WORK/cert2.out")" 1
dig +time=2 +tries=1 "@$CC_IP" a.lab A >"$WORK/udp.out" 2>&1
expect "reload: UDP answered" "$(dig_status "$WORK/udp.out")" NOERROR
kq_answered "reload: the new certificate (CA 2) is served" \
  "$P/ca2.pem" 1
kq_answered "reload: the old one (CA 1) is not" \
  "$P/ca1.pem" 0
wait $tpid
expect "reload: a session begun before goes on" \
  "$(tail -n 1 "$WORK/twice.out")" "0 0"
cp "$P/ca1-srv.key" "$WORK/tls.key" # does not match ca2-srv.pem
"$CTL" -s "$WORK/ctl.sock" reload >"$WORK/ctlreload.out" 2>&1
expect "reload: curvecache-control reload fails (status 1)" "$?" 1
expect "reload: ...saying why with FILE:LINE" \
  "$(grep -c "curvecache.conf:[0-9]*: tls-service-pem .*does not match" \
    "$WORK/ctlreload.out")" 1
expect "reload: ...and logs it" \
  "$(grep 'event=reload_failed' "$WORK/curvecache.log" |
    grep -c 'tls-service-pem.*does not match')" 1
kq_answered "reload: ...and the loaded certificate stays" \
  "$P/ca2.pem" 1

# ---- statistics ----
expect_stat "stats: num.query.tls counts every query over TLS" \
  num.query.tls 1040 "$q0"
"$CTL" -s "$WORK/ctl.sock" stats_noreset --prometheus >"$WORK/prom" 2>&1
expect "prometheus: curvecache_num_query_tls_total" \
  "$(grep -c '^curvecache_num_query_tls_total [0-9]' "$WORK/prom")" 1
expect "prometheus: answers by transport, tls among them" \
  "$(grep -c '^curvecache_num_answer_transport_total{transport="tls"} [1-9]' \
    "$WORK/prom")" 1

cc_clean_stop dotserve
e2e_finish
