#!/bin/sh
# tests/e2e/authtls_lab.sh: opportunistic DNS over TLS to authoritative
# servers (RFC 9539, auth-tls: opportunistic, the default) against real
# NSD 4.6 servers answering DoT on port 853 with a self-signed
# certificate this test makes with openssl (nothing is authenticated).
#
# Run by "make check" (cwd = top build dir, $srcdir = top source dir).
# Exit 0 = every check passed, 1 = a check failed, 77 = SKIP (not root,
# or nsd/curvedns/openssl/dig/python3/ldnsutils missing).
#
# A root of its own (127.53.124.1, NSD with TLS) delegates:
#   tlsok.   -> 127.53.124.2  NSD, plain DNS on 53 and DoT on 853
#   notls.   -> 127.53.124.3  NSD, plain DNS only (853 refused)
#   stall.   -> 127.53.124.4  NSD, plain DNS; on 853 a listener that
#                             accepts and never answers (stall.py)
#   mute.    -> 127.53.124.5  NSD, plain DNS; on 853 a DoT server that
#                             answers the first query of a connection
#                             (the probe) and no other (mute.py)
#   curve.   -> the main lab's CurveDNS chain (uz5 NS names: curve. at
#               127.53.2.1, secure.curve. at 127.53.2.3), whose 853 is
#               watched by the same listener
# Every zone answers any name (a wildcard A record).
# Checks:
# - cold: www.tlsok. answered at once; the root and tlsok. servers are
#   probed beside the plain queries (upstream.authtls.works moves);
# - after the probe: 20 names under tlsok. answered, every query to its
#   server over TLS (20 upstream_send lines transport=tls, 0 in plain),
#   upstream.transport.plain does not move, one TLS connection;
# - notls.: answered in plain, no client delay (each dig < 1 s), the
#   refused probe counted (upstream.authtls.failed) and not repeated;
# - stall.: answered in plain at once while its probe hangs; the probe
#   connection was made once for 6 questions; after 4 s it failed;
# - mute.: the probe works, the next query over TLS is never answered:
#   the client is answered in plain after its timeout (about 1 s), the
#   server counted failed, the next question goes plain at once;
# - curve.: www.secure.curve. answered over DNSCurve, and neither
#   CurveDNS address got one connection on 853 (never probed);
# - a connection that fails: the tlsok. NSD restarted without TLS; the
#   next question is answered (its TLS query asked again in plain,
#   upstream.authtls.plain_retry), the ones after go plain;
# - auth-tls: no: no probe, no TLS query, all plain.
# - auth-tls-damping 3600 then a reload to 1: a probe that fails after
#   the reload is damped 1 s, one failed before keeps its hour.
# - encrypted-zone (DNSCurve only for now): secure.curve. answered over
#   DNSCurve; notls. and tlsok. SERVFAIL with EDE 22, the skipped server
#   logged, and a capture (sniff.py --addr) shows 0 packets to them.
# - DANE (a signed root of its own, ldns-signzone; dnssec: yes): once
#   the SECURE TLSA 3 1 1 of ns1.good. is cached, good. is asked over
#   DANE TLS only (upstream.authtls.dane); bad.'s TLSA names another key:
#   SERVFAIL, upstream.authtls.dane_failed and event=authtls_dane_failed
#   ns=ns1.bad., not one plain query to it; encrypted-zone enc.good.
#   (served by ns1.good.) answered from cold over DANE TLS (its TLSA
#   looked up first); encrypted-zone encplain. (plain, no TLSA): SERVFAIL
#   with EDE 22 and a capture of 0 packets to its server.
#   Every usable record of a TLSA RRset counts: roll. publishes two (the
#   old key's 3 1 1 and its server's 3 0 1, a rollover) and is asked
#   over DANE TLS; ta. (DANE-TA 2 0 1 of a test CA; its server sends
#   the CA after a leaf naming ns1.ta.) likewise; taname. (2 1 1 of the
#   same CA, its server sending the same chain, a leaf naming ns1.ta.
#   and not ns1.taname.) fails as a mismatch: SERVFAIL, counted, logged,
#   no plain query. Each DANE query counts as upstream.tls.dane.queries.
#   bg. (TLSA 3 1 1, never asked by a client): once its server took
#   opportunistic TLS, its TLSA is looked up in the background (no
#   client waits; event=dane_lookup) and the next query goes by DANE.
# The share of plain upstream queries before and after the probe is
# printed (and that after is 0 for tlsok.).
# AUTHTLS_BENCH=N (not in make check) then resolves N cold names under
# tlsok. with dnsperf (100 in flight), auth-tls: no and then
# opportunistic, and prints the wall and CPU time and connections made.

set -u
srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=tests/e2e/e2e_lib.sh
. "$srcdir/tests/e2e/e2e_lib.sh"

e2e_init authtls_lab openssl python3 nsd ss ldns-keygen ldns-signzone

ROOT=127.53.124.1
TLSOK=127.53.124.2
NOTLS=127.53.124.3
STALL=127.53.124.4
MUTE=127.53.124.5

# ---- a self-signed certificate (opportunistic TLS checks nothing) ----
P=$WORK/pki
mkdir -p "$P"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
  -keyout "$P/ns.key" -out "$P/ns.pem" -subj "/CN=ns.authtls.lab" \
  -days 2 >"$WORK/openssl.log" 2>&1 ||
  { bad "pki" "openssl failed" "$WORK/openssl.log"; exit 1; }

# ---- zones ----
zone() { # NAME FILE NS-NAME NS-IP [EXTRA...]
  zn=$1 zf=$2 nsn=$3 nsip=$4
  shift 4
  case $zn in .) sub= ;; *) sub=$zn ;; esac
  {
    echo "\$TTL 3600"
    echo "$zn SOA $nsn hostmaster.$nsn 1 1800 900 604800 300"
    echo "$zn NS $nsn"
    echo "$nsn A $nsip"
    [ -n "$sub" ] && echo "*.$sub A 192.0.2.124"
    for l in "$@"; do echo "$l"; done
  } >"$WORK/$zf"
}
zone . root.zone a.root.servers. "$ROOT" \
  "tlsok. NS ns1.tlsok." "ns1.tlsok. A $TLSOK" \
  "notls. NS ns1.notls." "ns1.notls. A $NOTLS" \
  "stall. NS ns1.stall." "ns1.stall. A $STALL" \
  "mute. NS ns1.mute." "ns1.mute. A $MUTE" \
  "curve. NS $LAB_CURVETLD_KEY.ns1.curve." \
  "$LAB_CURVETLD_KEY.ns1.curve. A $LAB_CURVETLD_IP"
zone tlsok. tlsok.zone ns1.tlsok. "$TLSOK"
zone notls. notls.zone ns1.notls. "$NOTLS"
zone stall. stall.zone ns1.stall. "$STALL"
zone mute. mute.zone ns1.mute. "$MUTE"

# nsd_start NAME IP ZONE FILE TLS(yes|no) [ZONE2 FILE2]
nsd_start() {
  {
    printf 'server:\n\tip-address: %s\n' "$2"
    [ "$5" = yes ] && printf '\tip-address: %s@853\n\ttls-port: 853\n\ttls-service-key: "%s"\n\ttls-service-pem: "%s"\n' \
      "$2" "${NSD_KEY:-$P/ns.key}" "${NSD_PEM:-$P/ns.pem}"
    printf '\tport: 53\n\tdo-ip6: no\n\treuseport: no\n\tserver-count: 1\n'
    printf '\tusername: ""\n\tchroot: ""\n\tzonesdir: "%s"\n\tdatabase: ""\n' \
      "$WORK"
    printf '\tzonelistfile: "%s/nsd-%s.list"\n\txfrdfile: "%s/nsd-%s.xfrd"\n' \
      "$WORK" "$1" "$WORK" "$1"
    printf '\txfrdir: "%s"\n\tcookie-secret-file: "%s/nsd-%s.cookie"\n' \
      "$WORK" "$WORK" "$1"
    printf '\tpidfile: ""\n\tlogfile: "%s/nsd-%s.log"\n\tverbosity: 1\n' \
      "$WORK" "$1"
    printf '\trrl-ratelimit: 0\n\trrl-whitelist-ratelimit: 0\n'
    printf 'remote-control:\n\tcontrol-enable: no\n'
    printf 'zone:\n\tname: "%s"\n\tzonefile: "%s"\n' "$3" "$4"
    [ -n "${6:-}" ] && printf 'zone:\n\tname: "%s"\n\tzonefile: "%s"\n' "$6" "$7"
  } >"$WORK/nsd-$1.conf"
  nsd-checkconf "$WORK/nsd-$1.conf" >"$WORK/nsd-$1.check" 2>&1 ||
    { bad "nsd $1 config" "nsd-checkconf failed" "$WORK/nsd-$1.check"
      exit 1; }
  bg_start "nsd-$1" nsd -d -c "$WORK/nsd-$1.conf"
  nsd_pid=$bg_pid
  n=0
  until dig +time=1 +tries=1 +norec "@$2" "$3" SOA 2>/dev/null |
    grep -q 'status: NOERROR'; do
    n=$((n + 1))
    [ $n -lt 50 ] || { bad "nsd $1 start" "no answer on $2" \
      "$WORK/nsd-$1.out"; exit 1; }
    sleep 0.1
  done
}
nsd_start root "$ROOT" . root.zone yes
nsd_start tlsok "$TLSOK" tlsok. tlsok.zone yes
TLSOK_PID=$nsd_pid
nsd_start notls "$NOTLS" notls. notls.zone no
nsd_start stall "$STALL" stall. stall.zone no
nsd_start mute "$MUTE" mute. mute.zone no
expect "lab: the tlsok. NSD answers DNS over TLS on 853" \
  "$(dig +tls +time=2 +tries=1 +short "@$TLSOK" www.tlsok. A 2>&1)" \
  192.0.2.124

# ---- listeners on 853 that accept and never answer, counting ----
cat >"$WORK/stall.py" <<'PY'
import socket, sys, threading, time
ip, count = sys.argv[1], sys.argv[2]
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind((ip, 853))
s.listen(64)
held, n = [], 0
open(count, "w").write("0\n")
while True:
    c, _ = s.accept()
    held.append(c)  # never read, never answered, never closed
    n += 1
    open(count, "w").write("%d\n" % n)
PY
for ip in "$STALL" "$LAB_CURVETLD_IP" "$LAB_SECURE_IP"; do
  bg_start "stall-$ip" python3 "$WORK/stall.py" "$ip" "$WORK/accepts-$ip"
done
# a DoT server that answers the first query of a connection (the probe:
# the question sent back as a REFUSED reply) and never another
cat >"$WORK/mute.py" <<'PY'
import socket, ssl, sys, threading
ip, cert, key = sys.argv[1], sys.argv[2], sys.argv[3]
ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
ctx.load_cert_chain(cert, key)
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind((ip, 853))
s.listen(16)
held = []
def serve(c):
    try:
        t = ctx.wrap_socket(c, server_side=True)
        held.append(t)
        n = int.from_bytes(t.recv(2), "big")
        q = b""
        while len(q) < n:
            q += t.recv(n - len(q))
        r = q[:2] + bytes([q[2] | 0x80, (q[3] & 0xf0) | 5]) + q[4:]
        t.sendall(len(r).to_bytes(2, "big") + r)
        while t.recv(4096):
            pass  # read and never answer
    except (OSError, ssl.SSLError):
        pass
while True:
    c, _ = s.accept()
    threading.Thread(target=serve, args=(c,), daemon=True).start()
PY
bg_start mute python3 "$WORK/mute.py" "$MUTE" "$P/ns.pem" "$P/ns.key"
n=0
while [ $n -lt 50 ] && { ! ss -Hltn 2>/dev/null | grep -q "$STALL:853" ||
  ! ss -Hltn 2>/dev/null | grep -q "$MUTE:853"; }; do
  sleep 0.1; n=$((n + 1)); done
accepts() { cat "$WORK/accepts-$1" 2>/dev/null || echo none; }

LAB_ROOT_HINTS=$WORK/root.hints
printf '. 3600000 NS a.root.servers.\na.root.servers. 3600000 A %s\n' \
  "$ROOT" >"$LAB_ROOT_HINTS"
CTL=${CURVECACHE_CONTROL:-./curvecache-control}
e2e_built CTL
cc_start "control-socket: $WORK/ctl.sock" || exit 1

# timed NAME: a dig through curvecache; its status and address in $res,
# the milliseconds it took in $took
timed() {
  t0=$(now_ms)
  dig +time=8 +tries=1 "@$CC_IP" "$1" A >"$WORK/q.out" 2>&1
  took=$(($(now_ms) - t0))
  res="$(dig_status "$WORK/q.out") $(sed -n \
    's/^[^;].*IN[[:space:]]A[[:space:]]//p' "$WORK/q.out" | head -n 1)"
}
fast() { # NAME MS: took below MS
  if [ "$took" -lt "$2" ]; then ok "$1 ($took ms)"; else
    bad "$1" "took $took ms, want < $2"; fi
}
# sends SERVER TRANSPORT-REGEX: upstream_send lines so far
sends() {
  grep -c "event=upstream_send server=$1 .*transport=$2 " \
    "$WORK/curvecache.log"
}
plain_to() { sends "$1" '[tu][cd]p'; }

# ---- cold: plain at once, the probes beside ----
p0=$(cc_stat upstream.transport.plain)
timed www.tlsok.
expect "cold: www.tlsok. answered" "$res" "NOERROR 192.0.2.124"
fast "cold: no wait on a probe" 1000
sleep 0.5
atleast "cold: the root and tlsok. servers probed" \
  "$(cc_stat upstream.authtls.probes)" 2
atleast "cold: ... and found working" "$(cc_stat upstream.authtls.works)" 2
atleast "cold: the first queries went in plain" \
  "$(($(cc_stat upstream.transport.plain) - p0))" 2
expect "cold: the probes are logged" \
  "$(grep -c "event=authtls_probe server=$TLSOK result=tls" \
    "$WORK/curvecache.log")" 1
plain_cold=$(cc_stat upstream.transport.plain)
tls_cold=$(cc_stat upstream.transport.tls)

# ---- after the probe: every query to tlsok. over TLS ----
pl0=$(plain_to "$TLSOK")
tl0=$(sends "$TLSOK" tls)
h0=$(cc_stat upstream.tls.handshakes)
i=0
: >"$WORK/many.out"
while [ $i -lt 20 ]; do
  dig +time=8 +tries=1 +short "@$CC_IP" "n$i.tlsok." A >>"$WORK/many.out"
  i=$((i + 1))
done
expect "tls: 20 names under tlsok. answered" \
  "$(grep -c '^192.0.2.124$' "$WORK/many.out")" 20
expect "tls: 20 queries to its server over TLS" \
  "$(($(sends "$TLSOK" tls) - tl0))" 20
expect "tls: not one to it in plain" "$(($(plain_to "$TLSOK") - pl0))" 0
expect "tls: upstream.transport.plain did not move" \
  "$(cc_stat upstream.transport.plain)" "$plain_cold"
atleast "tls: upstream.transport.tls moved by 20" \
  "$(($(cc_stat upstream.transport.tls) - tls_cold))" 20
expect "tls: on the connection of the probe (no new handshake)" \
  "$(cc_stat upstream.tls.handshakes)" "$h0"
tls_now=$(cc_stat upstream.transport.tls)
plain_now=$(cc_stat upstream.transport.plain)
echo "# share of plain upstream queries: cold $plain_cold of" \
  "$((plain_cold + tls_cold)), then 0 of 20 to tlsok.;" \
  "in all $plain_now of $((plain_now + tls_now))"
"$CTL" -s "$WORK/ctl.sock" stats_noreset >"$WORK/stats.out" 2>&1
share=$(sed -n 's/^upstream.transport.encrypted.share=//p' "$WORK/stats.out")
expect "stats: the encrypted share is tls / (plain + tls)" \
  "$(awk -v s="$share" -v p="$plain_now" -v t="$tls_now" \
    'BEGIN { d = s - t / (p + t); print (d < 0.001 && d > -0.001) }')" 1
"$CTL" -s "$WORK/ctl.sock" stats_noreset --prometheus >"$WORK/prom.out" 2>&1
expect "stats: Prometheus has the transports as one family" \
  "$(grep -c '^curvecache_upstream_transport_total{transport="\(plain\|curve\|tls\)"} ' \
    "$WORK/prom.out")" 3

# ---- no TLS there: plain, no delay, one refused probe ----
f0=$(cc_stat upstream.authtls.failed)
timed www.notls.
expect "notls: www.notls. answered" "$res" \
  "NOERROR 192.0.2.124"
fast "notls: no client delay" 1000
for n in 1 2 3 4 5; do
  timed "n$n.notls."
  fast "notls: n$n.notls. no delay either" 1000
done
sleep 0.3
expect "notls: the refused probe counted once" \
  "$(($(cc_stat upstream.authtls.failed) - f0))" 1
expect "notls: 6 queries in plain to its server" "$(plain_to "$NOTLS")" 6
expect "notls: none over TLS" "$(sends "$NOTLS" tls)" 0

# ---- 853 accepts and stalls: plain at once, one probe, failed at 4 s ----
f0=$(cc_stat upstream.authtls.failed)
timed www.stall.
expect "stall: www.stall. answered" "$res" \
  "NOERROR 192.0.2.124"
fast "stall: no wait on the stalled probe" 1000
for n in 1 2 3 4 5; do
  timed "n$n.stall."
  fast "stall: n$n.stall. no delay either" 1000
done
expect "stall: one probe connection for 6 questions" "$(accepts "$STALL")" 1
expect "stall: not failed yet" "$(($(cc_stat upstream.authtls.failed) - f0))" 0
sleep 4.5
expect "stall: the probe failed after its 4 s" \
  "$(($(cc_stat upstream.authtls.failed) - f0))" 1
timed n9.stall.
expect "stall: answered still" "$res" "NOERROR 192.0.2.124"
fast "stall: ... at once" 1000
expect "stall: no new probe (damping)" "$(accepts "$STALL")" 1
expect "stall: 7 queries in plain" "$(plain_to "$STALL")" 7

# ---- TLS works for the probe, then a query is never answered: the
# timeout is a failure, plain from then on ----
f0=$(cc_stat upstream.authtls.failed)
timed www.mute.
expect "mute: www.mute. answered (plain, the probe beside)" "$res" \
  "NOERROR 192.0.2.124"
sleep 0.3
expect "mute: its probe found TLS working" \
  "$(grep -c "event=authtls_probe server=$MUTE result=tls" \
    "$WORK/curvecache.log")" 1
timed n1.mute.
expect "mute: n1.mute. answered when the TLS query timed out" "$res" \
  "NOERROR 192.0.2.124"
fast "mute: ... within about a second" 2500
expect "mute: the timeout counted as a failure" \
  "$(($(cc_stat upstream.authtls.failed) - f0))" 1
tl0=$(sends "$MUTE" tls)
timed n2.mute.
expect "mute: n2.mute. answered" "$res" "NOERROR 192.0.2.124"
fast "mute: ... at once, in plain" 1000
expect "mute: no TLS query after the failure" \
  "$(($(sends "$MUTE" tls) - tl0))" 0

# ---- DNSCurve servers are never probed ----
c0=$(cc_stat curve.queries)
timed www.secure.curve.
expect "curve: www.secure.curve. answered" "$res" \
  "NOERROR $(dig +short "@$LAB_SECURE_BACKEND_IP" www.secure.curve. A |
    head -n 1)"
atleast "curve: over DNSCurve" "$(($(cc_stat curve.queries) - c0))" 2
expect "curve: the curve. server got no connection on 853" \
  "$(accepts "$LAB_CURVETLD_IP")" 0
expect "curve: the secure.curve. server got none" \
  "$(accepts "$LAB_SECURE_IP")" 0
expect "curve: no probe logged for them" \
  "$(grep -c "event=authtls_probe server=127.53.2" "$WORK/curvecache.log")" 0

# ---- a connection that fails: plain again at once ----
bg_stop "$TLSOK_PID"
nsd_start tlsok "$TLSOK" tlsok. tlsok.zone no
sleep 0.3
r0=$(cc_stat upstream.authtls.plain_retry)
pl0=$(plain_to "$TLSOK")
timed x1.tlsok.
expect "drop: TLS gone, x1.tlsok. answered" "$res" \
  "NOERROR 192.0.2.124"
fast "drop: ... without a client delay" 1000
expect "drop: its TLS query asked again in plain" \
  "$(($(cc_stat upstream.authtls.plain_retry) - r0))" 1
tl0=$(sends "$TLSOK" tls)
for n in 2 3 4; do
  timed "x$n.tlsok."
  expect "drop: x$n.tlsok. answered" "$res" "NOERROR 192.0.2.124"
done
expect "drop: then plain (damping), no TLS" "$(($(sends "$TLSOK" tls) - tl0))" 0
expect "drop: 4 plain queries to it" "$(($(plain_to "$TLSOK") - pl0))" 4
cc_clean_stop authtls

# ---- auth-tls: no ----
cc_start "auth-tls: no" || exit 1
timed www.tlsok.
expect "off: www.tlsok. answered" "$res" "NOERROR 192.0.2.124"
expect "off: no probe" "$(cc_stat upstream.authtls.probes)" 0
expect "off: no TLS query" "$(cc_stat upstream.transport.tls)" 0
cc_clean_stop authtls-off

# ---- a reload changes auth-tls-damping for the failures after it ----
# notls.'s probe fails under 3600 s, then a reload sets 1 s, then
# stall.'s probe (out before the reload) fails at 4 s: after 5.5 s
# stall. is probed again (a new failure, the new damping), notls. is not
# (failed before the reload, it keeps its hour). Probes in all: the
# root, notls., stall. twice.
cc_start "control-socket: $WORK/ctl.sock" "auth-tls-damping: 3600" || exit 1
nl0=$(grep -c "event=authtls_probe server=$NOTLS " "$WORK/curvecache.log")
timed www.notls.
sleep 0.3
timed www.stall.
cc_conf "control-socket: $WORK/ctl.sock" "auth-tls-damping: 1"
"$CTL" -s "$WORK/ctl.sock" reload >"$WORK/reload.out" 2>&1 ||
  bad "damping reload: reloaded" "curvecache-control failed" "$WORK/reload.out"
sleep 5.5
timed n1.stall.
expect "damping reload: n1.stall. answered" "$res" "NOERROR 192.0.2.124"
timed n1.notls.
expect "damping reload: n1.notls. answered" "$res" "NOERROR 192.0.2.124"
sleep 0.3
expect "damping reload: stall. probed again after 1 s, notls. not" \
  "$(cc_stat upstream.authtls.probes)" 4
expect "damping reload: notls. probed once" "$(($(grep -c \
  "event=authtls_probe server=$NOTLS " "$WORK/curvecache.log") - nl0))" 1
cc_clean_stop authtls-damping

# ---- encrypted-zone: DNSCurve servers only (DANE TLS is not looked up
# yet): secure.curve. (CurveDNS) answered; notls. and tlsok. (plain/TLS
# servers only) SERVFAIL with EDE 22, and a capture of every packet to
# or from their servers shows not one ----
CAP=$WORK/capture.txt
e2e_sniff_start "$CAP" 120 --addr "$NOTLS,$TLSOK"
cc_start "encrypted-zone: notls." "encrypted-zone: tlsok." \
  "encrypted-zone: secure.curve." || exit 1
timed www.secure.curve.
expect "encrypted-zone: www.secure.curve. (DNSCurve) answered" "$res" \
  "NOERROR $(dig +short "@$LAB_SECURE_BACKEND_IP" www.secure.curve. A |
    head -n 1)"
for z in notls tlsok; do
  dig +time=8 +tries=1 "@$CC_IP" "www.$z." A >"$WORK/enc-$z.out" 2>&1
  expect "encrypted-zone: www.$z. SERVFAIL" \
    "$(dig_status "$WORK/enc-$z.out")" SERVFAIL
  expect "encrypted-zone: ... with EDE 22 and its text" \
    "$(grep -c 'EDE: 22.*encrypted-zone: no server reachable by DNSCurve or DANE TLS' \
      "$WORK/enc-$z.out")" 1
  atleast "encrypted-zone: the skipped server of $z. logged" \
    "$(grep -c "event=encrypted_zone_skip zone=$z\\. .*servers=ns1.$z\\. " \
      "$WORK/curvecache.log")" 1
done
# a control packet from the lab shows the capture sees these servers
sleep 0.3
ncap=$(grep -vc '^#' "$CAP")
dig +time=2 +tries=1 "@$NOTLS" control.notls. A >/dev/null 2>&1
sleep 0.5
e2e_sniff_stop "$CAP"
expect "encrypted-zone capture: no packet dropped by the kernel" \
  "$(sed -n 's/^# dropped //p' "$CAP")" 0
expect "encrypted-zone capture: the lab's control query is seen" \
  "$(grep -c "^udp [0-9.]* [0-9]* $NOTLS 53 [0-9]* plain$" "$CAP")" 1
expect "encrypted-zone capture: 0 packets from curvecache to their servers" \
  "$ncap" 0
cc_clean_stop encrypted-zone

# ---- DANE (RFC 7671) with a signed root of its own (ldns): good. and
# bad. publish _853._tcp.ns1.<zone> TLSA 3 1 1; bad.'s names another
# key than its server's. Once the TLSA is cached SECURE, good.'s server
# is asked over DANE TLS only; bad.'s is not asked at all (the failure
# counted and logged, no plain query). encrypted-zone enc.good. (served
# by ns1.good.) is answered over DANE TLS from cold; encplain. (a plain
# server without TLSA) gets SERVFAIL, EDE 22, and no packet. ----
DROOT=127.53.124.11
DGOOD=127.53.124.12
DBAD=127.53.124.13
DPLAIN=127.53.124.14
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
  -keyout "$P/other.key" -out "$P/other.pem" -subj "/CN=other.lab" \
  -days 2 >>"$WORK/openssl.log" 2>&1
spki() { # PEM: the SHA-256 of its SubjectPublicKeyInfo (TLSA 3 1 1)
  openssl x509 -in "$1" -noout -pubkey | openssl pkey -pubin -outform DER |
    sha256sum | cut -d' ' -f1
}
certsha() { # PEM: the SHA-256 of the whole certificate (TLSA 3 0 1)
  openssl x509 -in "$1" -outform DER | sha256sum | cut -d' ' -f1
}
DROLL=127.53.124.15
DTA=127.53.124.16
DTANAME=127.53.124.17
DBG=127.53.124.18
# a test CA and a leaf it issued for ns1.ta.; the server sends both
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
  -keyout "$P/ca.key" -out "$P/ca.pem" -subj "/CN=DANE Test CA" \
  -days 2 >>"$WORK/openssl.log" 2>&1 &&
  openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
    -keyout "$P/ta.key" -out "$P/ta.csr" -subj "/CN=ns1.ta" \
    >>"$WORK/openssl.log" 2>&1 &&
  printf 'basicConstraints=CA:FALSE\nsubjectAltName=DNS:ns1.ta\n' \
    >"$P/ta.ext" &&
  openssl x509 -req -in "$P/ta.csr" -CA "$P/ca.pem" -CAkey "$P/ca.key" \
    -CAcreateserial -days 2 -extfile "$P/ta.ext" -out "$P/ta.pem" \
    >>"$WORK/openssl.log" 2>&1 &&
  cat "$P/ta.pem" "$P/ca.pem" >"$P/ta-chain.pem" ||
  { bad "pki: test CA" "openssl failed" "$WORK/openssl.log"; exit 1; }
expect "pki: the ns1.ta. leaf verifies under the test CA" \
  "$(openssl verify -CAfile "$P/ca.pem" "$P/ta.pem" 2>&1)" "$P/ta.pem: OK"
sign() { # ZONE FILE: signed into FILE.signed; the DS into $WORK/FILE.ds
  (cd "$WORK" && kb=$(ldns-keygen -a ECDSAP256SHA256 -k "$1") &&
    ldns-signzone -o "$1" "$2" "$kb" && cp "$kb.ds" "$2.ds") \
    >>"$WORK/sign.log" 2>&1 || { bad "sign $1" "ldns failed" \
      "$WORK/sign.log"; exit 1; }
}
zone good. dgood.zone ns1.good. "$DGOOD" \
  "_853._tcp.ns1.good. TLSA 3 1 1 $(spki "$P/ns.pem")" \
  "enc.good. NS ns1.good."
# (its server's address lives in good., not here)
printf '$TTL 3600\n%s\n%s\n%s\n' \
  "enc.good. SOA ns1.good. hostmaster.ns1.good. 1 1800 900 604800 300" \
  "enc.good. NS ns1.good." "*.enc.good. A 192.0.2.124" >"$WORK/denc.zone"
zone bad. dbad.zone ns1.bad. "$DBAD" \
  "_853._tcp.ns1.bad. TLSA 3 1 1 $(spki "$P/other.pem")"
zone encplain. dplain.zone ns1.encplain. "$DPLAIN"
zone roll. droll.zone ns1.roll. "$DROLL" \
  "_853._tcp.ns1.roll. TLSA 3 1 1 $(spki "$P/other.pem")" \
  "_853._tcp.ns1.roll. TLSA 3 0 1 $(certsha "$P/ns.pem")"
zone ta. dta.zone ns1.ta. "$DTA" \
  "_853._tcp.ns1.ta. TLSA 2 0 1 $(certsha "$P/ca.pem")"
zone taname. dtaname.zone ns1.taname. "$DTANAME" \
  "_853._tcp.ns1.taname. TLSA 2 1 1 $(spki "$P/ca.pem")"
zone bg. dbg.zone ns1.bg. "$DBG" \
  "_853._tcp.ns1.bg. TLSA 3 1 1 $(spki "$P/ns.pem")" \
  "x1.bg. A 192.0.2.124" "x2.bg. A 192.0.2.124" "x3.bg. A 192.0.2.124"
sign bg. dbg.zone
sign roll. droll.zone
sign ta. dta.zone
sign taname. dtaname.zone
sign good. dgood.zone
sign bad. dbad.zone
sign encplain. dplain.zone
zone . droot.zone a.root.servers. "$DROOT" \
  "good. NS ns1.good." "ns1.good. A $DGOOD" "$(cat "$WORK/dgood.zone.ds")" \
  "bad. NS ns1.bad." "ns1.bad. A $DBAD" "$(cat "$WORK/dbad.zone.ds")" \
  "encplain. NS ns1.encplain." "ns1.encplain. A $DPLAIN" \
  "$(cat "$WORK/dplain.zone.ds")" \
  "roll. NS ns1.roll." "ns1.roll. A $DROLL" "$(cat "$WORK/droll.zone.ds")" \
  "ta. NS ns1.ta." "ns1.ta. A $DTA" "$(cat "$WORK/dta.zone.ds")" \
  "taname. NS ns1.taname." "ns1.taname. A $DTANAME" \
  "$(cat "$WORK/dtaname.zone.ds")" \
  "bg. NS ns1.bg." "ns1.bg. A $DBG" "$(cat "$WORK/dbg.zone.ds")"
sign . droot.zone
nsd_start droot "$DROOT" . droot.zone.signed no
nsd_start dgood "$DGOOD" good. dgood.zone.signed yes enc.good. denc.zone
nsd_start dbad "$DBAD" bad. dbad.zone.signed yes
nsd_start dplain "$DPLAIN" encplain. dplain.zone.signed no
nsd_start droll "$DROLL" roll. droll.zone.signed yes
nsd_start dbg "$DBG" bg. dbg.zone.signed yes
NSD_KEY=$P/ta.key NSD_PEM=$P/ta-chain.pem \
  nsd_start dta "$DTA" ta. dta.zone.signed yes
NSD_KEY=$P/ta.key NSD_PEM=$P/ta-chain.pem \
  nsd_start dtaname "$DTANAME" taname. dtaname.zone.signed yes
LAB_ROOT_HINTS=$WORK/droot.hints
printf '. 3600000 NS a.root.servers.\na.root.servers. 3600000 A %s\n' \
  "$DROOT" >"$LAB_ROOT_HINTS"
TA=$(tr -s ' \t' ' ' <"$WORK/droot.zone.ds")
cc_start "dnssec: yes" "trust-anchor: \"$TA\"" || exit 1
timed www.good.
expect "dane: www.good. answered (before its TLSA is known)" "$res" \
  "NOERROR 192.0.2.124"
dig +time=8 +tries=1 "@$CC_IP" _853._tcp.ns1.good. TLSA >"$WORK/tlsa.out"
expect "dane: the TLSA of ns1.good. is SECURE" \
  "$(grep -c 'flags:.* ad' "$WORK/tlsa.out")" 1
d0=$(cc_stat upstream.authtls.dane)
pl0=$(plain_to "$DGOOD")
tl0=$(sends "$DGOOD" tls)
# (one query: the next names come from the cached wildcard, RFC 8198)
for n in 1 2 3; do
  timed "d$n.good."
  expect "dane: d$n.good. answered" "$res" "NOERROR 192.0.2.124"
done
atleast "dane: upstream.authtls.dane counts the DANE query" \
  "$(($(cc_stat upstream.authtls.dane) - d0))" 1
atleast "dane: ... sent over TLS to ns1.good." \
  "$(($(sends "$DGOOD" tls) - tl0))" 1
expect "dane: not one in plain to it" "$(($(plain_to "$DGOOD") - pl0))" 0
timed www.bad.
expect "dane: www.bad. answered (before its TLSA is known)" "$res" \
  "NOERROR 192.0.2.124"
dig +time=8 +tries=1 "@$CC_IP" _853._tcp.ns1.bad. TLSA >"$WORK/tlsab.out"
expect "dane: the TLSA of ns1.bad. is SECURE" \
  "$(grep -c 'flags:.* ad' "$WORK/tlsab.out")" 1
f0=$(cc_stat upstream.authtls.dane_failed)
pl0=$(plain_to "$DBAD")
timed d1.bad.
expect "dane mismatch: d1.bad. SERVFAIL" "${res% *}" SERVFAIL
atleast "dane mismatch: counted (upstream.authtls.dane_failed)" \
  "$(($(cc_stat upstream.authtls.dane_failed) - f0))" 1
atleast "dane mismatch: logged with the NS name" \
  "$(grep -c 'event=authtls_dane_failed ns=ns1.bad. ' \
    "$WORK/curvecache.log")" 1
expect "dane mismatch: not asked in plain" "$(($(plain_to "$DBAD") - pl0))" 0
# dane_case ZONE IP LABEL: the TLSA of ns1.ZONE cached SECURE, then a
# name in another NSEC span than www. asked (d1.ZONE.)
dane_case() {
  timed "www.$1"
  expect "dane $3: www.$1 answered (before its TLSA is known)" "$res" \
    "NOERROR 192.0.2.124"
  dig +time=8 +tries=1 "@$CC_IP" "_853._tcp.ns1.$1" TLSA >"$WORK/tlsa-$1out"
  expect "dane $3: the TLSA of ns1.$1 is SECURE" \
    "$(grep -c 'flags:.* ad' "$WORK/tlsa-$1out")" 1
  d0=$(cc_stat upstream.authtls.dane)
  q0=$(cc_stat upstream.tls.dane.queries)
  f0=$(cc_stat upstream.authtls.dane_failed)
  pl0=$(plain_to "$2")
  tl0=$(sends "$2" tls)
  timed "d1.$1"
}
dane_case roll. "$DROLL" rollover
expect "dane rollover: d1.roll. answered" "$res" "NOERROR 192.0.2.124"
atleast "dane rollover: asked over DANE TLS (upstream.authtls.dane)" \
  "$(($(cc_stat upstream.authtls.dane) - d0))" 1
atleast "dane rollover: counted as upstream.tls.dane.queries" \
  "$(($(cc_stat upstream.tls.dane.queries) - q0))" 1
atleast "dane rollover: ... sent over TLS to ns1.roll." \
  "$(($(sends "$DROLL" tls) - tl0))" 1
expect "dane rollover: not one in plain to it" \
  "$(($(plain_to "$DROLL") - pl0))" 0
expect "dane rollover: no failure" \
  "$(($(cc_stat upstream.authtls.dane_failed) - f0))" 0
dane_case ta. "$DTA" "DANE-TA"
expect "dane DANE-TA: d1.ta. answered" "$res" "NOERROR 192.0.2.124"
atleast "dane DANE-TA: asked over DANE TLS (upstream.authtls.dane)" \
  "$(($(cc_stat upstream.authtls.dane) - d0))" 1
atleast "dane DANE-TA: ... sent over TLS to ns1.ta." \
  "$(($(sends "$DTA" tls) - tl0))" 1
expect "dane DANE-TA: not one in plain to it" \
  "$(($(plain_to "$DTA") - pl0))" 0
expect "dane DANE-TA: no failure" \
  "$(($(cc_stat upstream.authtls.dane_failed) - f0))" 0
dane_case taname. "$DTANAME" "DANE-TA name"
expect "dane DANE-TA name mismatch: d1.taname. SERVFAIL" "${res% *}" \
  SERVFAIL
atleast "dane DANE-TA name mismatch: counted" \
  "$(($(cc_stat upstream.authtls.dane_failed) - f0))" 1
atleast "dane DANE-TA name mismatch: logged with the NS name" \
  "$(grep -c 'event=authtls_dane_failed ns=ns1.taname. ' \
    "$WORK/curvecache.log")" 1
expect "dane DANE-TA name mismatch: not asked in plain" \
  "$(($(plain_to "$DTANAME") - pl0))" 0
# bg.: no client asks its TLSA; the background lookup does
timed x1.bg.
expect "dane background: x1.bg. answered" "$res" "NOERROR 192.0.2.124"
sleep 0.5
timed x2.bg.
expect "dane background: x2.bg. answered" "$res" "NOERROR 192.0.2.124"
fast "dane background: no wait on the TLSA lookup" 1000
atleast "dane background: x2.bg. went over opportunistic TLS" \
  "$(sends "$DBG" tls)" 1
n=0
until grep -q 'event=dane_lookup name=_853._tcp.ns1.bg.$' \
  "$WORK/curvecache.log"; do
  n=$((n + 1))
  [ $n -lt 50 ] || break
  sleep 0.1
done
sleep 0.5 # its answer
atleast "dane background: the TLSA of ns1.bg. looked up (event=dane_lookup)" \
  "$(grep -c 'event=dane_lookup name=_853._tcp.ns1.bg.$' \
    "$WORK/curvecache.log")" 1
dig +norec +time=2 +tries=1 "@$CC_IP" _853._tcp.ns1.bg. TLSA \
  >"$WORK/tlsa-bg.out" 2>&1
expect "dane background: ... cached SECURE (RD=0 from the cache)" \
  "$(grep -c 'flags:.* ad.*ANSWER: 1' "$WORK/tlsa-bg.out")" 1
d0=$(cc_stat upstream.authtls.dane)
q0=$(cc_stat upstream.tls.dane.queries)
pl0=$(plain_to "$DBG")
timed x3.bg.
expect "dane background: x3.bg. answered" "$res" "NOERROR 192.0.2.124"
atleast "dane background: x3.bg. asked over DANE TLS" \
  "$(($(cc_stat upstream.authtls.dane) - d0))" 1
atleast "dane background: counted as upstream.tls.dane.queries" \
  "$(($(cc_stat upstream.tls.dane.queries) - q0))" 1
expect "dane background: not one in plain" "$(($(plain_to "$DBG") - pl0))" 0
cc_clean_stop dane
CAP=$WORK/capture-dane.txt
e2e_sniff_start "$CAP" 120 --addr "$DPLAIN"
cc_start "dnssec: yes" "trust-anchor: \"$TA\"" \
  "encrypted-zone: enc.good." "encrypted-zone: encplain." || exit 1
timed www.enc.good.
expect "dane encrypted-zone: www.enc.good. answered from cold" "$res" \
  "NOERROR 192.0.2.124"
atleast "dane encrypted-zone: ... over DANE TLS" \
  "$(cc_stat upstream.authtls.dane)" 1
dig +time=8 +tries=1 "@$CC_IP" www.encplain. A >"$WORK/encp.out" 2>&1
expect "dane encrypted-zone: www.encplain. SERVFAIL with EDE 22" \
  "$(grep -c 'EDE: 22' "$WORK/encp.out")" 1
sleep 0.3
e2e_sniff_stop "$CAP"
expect "dane encrypted-zone capture: 0 packets to encplain.'s server" \
  "$(grep -vc '^#' "$CAP")" 0
cc_clean_stop dane-encrypted

# ---- AUTHTLS_BENCH=N: N cold names under tlsok. with dnsperf, TLS (after
# the probe) beside plain; wall and CPU time of curvecache, TLS
# connections made. Figures only (not run by make check). ----
bench_one() { # MODE: one run of curvecache with auth-tls: MODE
  cc_start "auth-tls: $1" || exit 1
  timed www.tlsok.
  sleep 0.5
  awk -v n="$AUTHTLS_BENCH" -v m="$1" \
    'BEGIN { for (i = 0; i < n; i++) printf "b%d-%s.tlsok. A\n", i, m }' \
    >"$WORK/bench.names"
  cpu0=$(awk '{ print $14 + $15 }' "/proc/$CC_PID/stat")
  dnsperf -s "$CC_IP" -d "$WORK/bench.names" -n 1 -c 1 -q 100 -t 10 \
    >"$WORK/bench-$1.out" 2>&1
  cpu1=$(awk '{ print $14 + $15 }' "/proc/$CC_PID/stat")
  echo "# bench auth-tls: $1: $(sed -n 's/^ *Queries completed: *//p' \
    "$WORK/bench-$1.out") completed in $(sed -n \
    's/^ *Run time (s): *//p' "$WORK/bench-$1.out") s, curvecache CPU" \
    "$((cpu1 - cpu0)) ticks, TLS handshakes" \
    "$(cc_stat upstream.tls.handshakes), plain" \
    "$(cc_stat upstream.transport.plain), tls" \
    "$(cc_stat upstream.transport.tls)"
  cc_clean_stop "bench $1"
}
if [ "${AUTHTLS_BENCH:-0}" -gt 0 ] && command -v dnsperf >/dev/null; then
  bg_stop "$nsd_pid"
  nsd_start tlsok "$TLSOK" tlsok. tlsok.zone yes
  bench_one no
  bench_one opportunistic
fi
e2e_finish
