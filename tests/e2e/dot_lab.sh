#!/bin/sh
# tests/e2e/dot_lab.sh: DNS over TLS to forwarders (RFC 7858, RFC 8310
# strict profile) against Debian's Unbound serving DoT, with a test CA
# and certificates this test makes with openssl (no lab NSD needed:
# Unbound answers from local-data).
#
# Run by "make check" (cwd = top build dir, $srcdir = top source dir).
# Exit 0 = every check passed, 1 = a check failed, 77 = SKIP (not root,
# or unbound/openssl/dig missing).
#
# Servers (each Unbound also answers plain DNS on port 53 and logs every
# query it gets, so a plain query to a TLS forwarder would show):
# - $GOOD: certificate for dot.lab from the test CA;
# - $BADNAME: certificate for other.lab (the name does not match);
# - $OLD: certificate for dot.lab that expired in 2020 (openssl ca
#   -startdate/-enddate);
# - $KA, $KA0: certificate for dot.lab, edns-tcp-keepalive: yes with a
#   timeout of $KA_MS ms and of 0.
# Checks:
# - dot.test. -> $GOOD@853#dot.lab: answers; 40 names over 1 TLS
#   connection (upstream.tls.handshakes 1), upstream.tls.queries moves,
#   nothing over UDP/TCP, Unbound got exactly those queries; 30 questions
#   at once pipelined on that connection; after the idle timeout (10 s)
#   a new connection that resumes the TLS session;
# - pin.test. -> $GOOD@853#dot.lab^RIGHT-PIN: answers;
#   wpin.test. -> $GOOD@853#dot.lab^WRONG-PIN: SERVFAIL (EDE 22), event
#   tls_failure with the reason;
# - bad.test. -> $BADNAME@853#dot.lab: SERVFAIL, tls_failure logged once
#   for two questions, upstream.tls.failures moves, not one plain query
#   reached that Unbound (its port 53 log stays empty);
# - old.test. -> $OLD@853#dot.lab: SERVFAIL, tls_failure "certificate
#   has expired";
# - list_forwards shows ADDR@853#NAME, and for each TLS server its
#   state: connected, or failing and why;
# - edns-tcp-keepalive (RFC 7828): ka.test. -> $KA: the connection is
#   closed by curvecache (event tls_idle_close idle_ms=7/8 of $KA_MS)
#   before 10 s, while the one to $GOOD (no keepalive) stays; ka0.test.
#   -> $KA0 (TIMEOUT 0): closed as soon as the answer is in;
# - reload (curvecache-control reload, SIGHUP): the CA bundle is read
#   again: a bundle without the test CA fails the next connection
#   (tls_failure, the chain), the test CA back answers at once (the
#   back-off starts again), a bundle that does not load is logged with
#   its file (tls_bundle_failed) and the old one kept; a forward zone's
#   pin changed by a reload is used;
# - $REFUSED (nothing on 853) and $STALL (accepts, never speaks):
#   SERVFAIL, tls_failure with the reason, list_forwards says why;
# - forward_add +t: refused without #AUTH-NAME, with it asked over TLS;
# - a capture (tests/e2e/sniff.py --addr) of every packet to or from
#   every TLS forwarder address, across all of the above (successes,
#   wrong name, expired, wrong pin, refused, stalled, a bundle without
#   the CA after a reload): none dropped by the kernel, each is TCP to
#   or from port 853, not one is plain DNS; a plain query the lab sends
#   afterwards does show.

set -u
srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=tests/e2e/e2e_lib.sh
. "$srcdir/tests/e2e/e2e_lib.sh"

e2e_name=dot_lab
e2e_t0=$(date +%s)
CURVECACHE=${CURVECACHE:-./curvecache}
e2e_need "unbound and curvecache bind ports 53 and 853 on 127.53.x.y" \
  unbound openssl dig flock
e2e_built CURVECACHE
e2e_lock "$e2e_name"
# no iteration here: a root server that is never asked
LAB_ROOT_HINTS=$WORK/root.hints
printf '. 3600000 NS a.root.lab.\na.root.lab. 3600000 A 127.53.85.99\n' \
  >"$LAB_ROOT_HINTS"
CC_IP=127.53.85.10
GOOD=127.53.85.1
BADNAME=127.53.85.2
OLD=127.53.85.3
KA=127.53.85.4
KA0=127.53.85.5
REFUSED=127.53.85.6 # nothing listens there
STALL=127.53.85.7   # accepts TCP on 853 and never says a word
# the edns-tcp-keepalive TIMEOUT $KA sends (RFC 7828), in ms, and the
# idle timeout curvecache then keeps (an eighth less: it closes first)
KA_MS=1500
KA_IDLE=$((KA_MS - KA_MS / 8))

# ---- the PKI: a CA, dot.lab, other.lab, an expired dot.lab ----
P=$WORK/pki
mkdir -p "$P"
ossl() { openssl "$@" >>"$WORK/openssl.log" 2>&1; }
ossl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
  -keyout "$P/ca.key" -out "$P/ca.pem" -subj "/CN=curvecache test CA" \
  -days 2
leaf() { # NAME TAG: key and CSR with subjectAltName NAME
  printf 'subjectAltName=DNS:%s\n' "$1" >"$P/$2.ext"
  ossl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
    -keyout "$P/$2.key" -out "$P/$2.csr" -subj "/CN=$1"
}
sign() { # TAG
  ossl x509 -req -in "$P/$1.csr" -CA "$P/ca.pem" -CAkey "$P/ca.key" \
    -CAcreateserial -days 2 -extfile "$P/$1.ext" -out "$P/$1.pem"
}
leaf dot.lab good && sign good
leaf other.lab badname && sign badname
leaf dot.lab old
mkdir -p "$P/db" && : >"$P/db/index.txt" && echo 1000 >"$P/db/serial"
cat >"$P/ca.cnf" <<CNF
[ ca ]
default_ca = lab
[ lab ]
database = $P/db/index.txt
serial = $P/db/serial
new_certs_dir = $P/db
default_md = sha256
policy = any
[ any ]
commonName = supplied
CNF
ossl ca -batch -config "$P/ca.cnf" -cert "$P/ca.pem" -keyfile "$P/ca.key" \
  -in "$P/old.csr" -out "$P/old.pem" -startdate 20200101000000Z \
  -enddate 20200102000000Z -extfile "$P/old.ext" -notext
for t in good badname old; do
  [ -s "$P/$t.pem" ] || { bad "pki: $t.pem" "openssl failed" \
    "$WORK/openssl.log"; exit 1; }
done
pin() { # TAG: base64 SHA-256 of the SubjectPublicKeyInfo
  openssl x509 -in "$P/$1.pem" -pubkey -noout |
    openssl pkey -pubin -outform der | openssl dgst -sha256 -binary |
    openssl base64
}
RIGHT_PIN=$(pin good)
WRONG_PIN=$(pin badname)
expect "pki: the expired certificate is expired" \
  "$(openssl x509 -in "$P/old.pem" -noout -checkend 0 >/dev/null ||
    echo expired)" expired

# ---- the Unbound DoT servers ----
ub_start() { # IP TAG [LINE...]: LINEs go into its server: clause
  ub_ip=$1 ub_tag=$2
  shift 2
  cat >"$WORK/ub-$ub_tag.conf" <<UB
server:
  interface: $ub_ip@853
  interface: $ub_ip@53
  tls-port: 853
  tls-service-key: "$P/$ub_tag.key"
  tls-service-pem: "$P/$ub_tag.pem"
  do-ip6: no
  username: ""
  chroot: ""
  directory: "$WORK"
  pidfile: ""
  use-syslog: no
  logfile: "$WORK/ub-$ub_tag.log"
  verbosity: 1
  log-queries: yes
  access-control: 127.0.0.0/8 allow
  module-config: "iterator"
  local-zone: "test." redirect
  local-data: "test. 300 IN A 192.0.2.80"
$(for l in "$@"; do echo "  $l"; done)
remote-control:
  control-enable: no
UB
  : >"$WORK/ub-$ub_tag.log"
  bg_start "ub-$ub_tag" unbound -d -c "$WORK/ub-$ub_tag.conf"
  n=0
  until dig +time=1 +tries=1 +short "@$ub_ip" probe.test A >/dev/null 2>&1; do
    n=$((n + 1))
    [ $n -lt 50 ] || { bad "unbound $ub_tag start" "no answer on $ub_ip" \
      "$WORK/ub-$ub_tag.out"; exit 1; }
    sleep 0.1
  done
  : >"$WORK/ub-$ub_tag.log" # the probe above is not the test's
}
ub_start "$GOOD" good
ub_start "$BADNAME" badname
ub_start "$OLD" old
# a DoT server that tells its clients an idle timeout of KA_MS
cp "$P/good.key" "$P/ka.key" && cp "$P/good.pem" "$P/ka.pem"
ub_start "$KA" ka "edns-tcp-keepalive: yes" \
  "edns-tcp-keepalive-timeout: $KA_MS"
# ... and one that says 0: close once the answers are in
cp "$P/good.key" "$P/ka0.key" && cp "$P/good.pem" "$P/ka0.pem"
ub_start "$KA0" ka0 "edns-tcp-keepalive: yes" \
  "edns-tcp-keepalive-timeout: 0"
# the queries each Unbound logged (over TLS or plain: a server whose
# handshake fails must log none)
plain_seen() { grep -c "info: 127" "$WORK/ub-$1.log"; }

# a port that accepts and stalls
cat >"$WORK/stall.py" <<'PY'
import socket, sys
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind((sys.argv[1], 853))
s.listen(16)
held = []
while True:
    held.append(s.accept()[0])
PY
bg_start stall python3 "$WORK/stall.py" "$STALL"

# ---- the capture: every packet to or from a TLS forwarder ----
TLS_FWDS="$GOOD,$BADNAME,$OLD,$KA,$KA0,$REFUSED,$STALL"
CAP=$WORK/capture.txt
e2e_sniff_start "$CAP" 600 --addr "$TLS_FWDS"

# the bundle curvecache reads: the test CA (swapped later for a reload)
BUNDLE=$P/bundle.pem
cp "$P/ca.pem" "$BUNDLE"
dot_cc() { # cc_start|cc_conf PIN-OF-wpin.test.
  "$1" "tls-cert-bundle: $BUNDLE" "control-socket: $WORK/ctl.sock" \
  "forward-zone: dot.test. $GOOD@853#dot.lab" \
  "forward-zone: pin.test. $GOOD@853#dot.lab^$RIGHT_PIN" \
  "forward-zone: wpin.test. $GOOD@853#dot.lab^$2" \
  "forward-zone: bad.test. $BADNAME@853#dot.lab" \
  "forward-zone: old.test. $OLD#dot.lab" \
  "forward-zone: ka.test. $KA@853#dot.lab" \
  "forward-zone: ka0.test. $KA0@853#dot.lab" \
  "forward-zone: refused.test. $REFUSED@853#dot.lab" \
  "forward-zone: stall.test. $STALL@853#dot.lab"
}
dot_cc cc_start "$WRONG_PIN" || exit 1

q() { # NAME: the status and the answer's address
  dig +time=8 +tries=1 "@$CC_IP" "$1" A >"$WORK/q.out" 2>&1
  printf '%s %s' "$(dig_status "$WORK/q.out")" \
    "$(sed -n 's/^[^;].*IN[[:space:]]A[[:space:]]//p' "$WORK/q.out" | head -n 1)"
}

# ---- a verified forwarder: many names, one connection ----
expect "tls: www.dot.test A over TLS" "$(q www.dot.test)" "NOERROR 192.0.2.80"
i=0
while [ $i -lt 40 ]; do
  dig +time=8 +tries=1 +short "@$CC_IP" "n$i.dot.test" A >>"$WORK/many.out"
  i=$((i + 1))
done
expect "tls: 40 more names answered" \
  "$(grep -c '^192.0.2.80$' "$WORK/many.out")" 40
expect_stat "tls: 41 queries over TLS" upstream.tls.queries 41
expect_stat "tls: one handshake for 41 names" upstream.tls.handshakes 1
expect "tls: nothing over UDP or TCP" \
  "$(($(cc_stat upstream.udp) + $(cc_stat upstream.tcp)))" 0
expect "tls: the forwarder got those 41 queries and no other" \
  "$(plain_seen good)" 41
atleast "tls: the debug log names the transport" \
  "$(grep -c "event=upstream_send server=$GOOD .*transport=tls" \
    "$WORK/curvecache.log")" 41
expect "tls: ... and the connection of each query (41 names on conn=1)" \
  "$(grep "event=tls_query server=$GOOD@853 conn=1 id=[0-9]* qname=" \
    "$WORK/curvecache.log" | grep -cE 'qname=(www|n[0-9]+)\.dot\.test\.')" 41

# at_once N LABEL ZONE: N questions LABEL0.ZONE ... at once; prints how
# many were answered
at_once() {
  i=0
  pids=
  while [ $i -lt "$1" ]; do
    dig +time=8 +tries=1 +short "@$CC_IP" "$2$i.$3" A \
      >"$WORK/par.$2.$i.out" 2>&1 &
    pids="$pids $!"
    i=$((i + 1))
  done
  for p in $pids; do wait "$p"; done
  cat "$WORK/par.$2".*.out | grep -c '^192.0.2.80$'
}

# ---- pipelined: 30 questions at once on the same connection ----
expect "pipelined: 30 questions at once answered" "$(at_once 30 p dot.test)" \
  30
expect_stat "pipelined: still one handshake" upstream.tls.handshakes 1

# ---- idle timeout, then a new connection that resumes the session ----
sleep 11
expect "idle: after 11 s, answered again" "$(q again.dot.test)" \
  "NOERROR 192.0.2.80"
expect_stat "idle: a second handshake" upstream.tls.handshakes 2
expect_stat "idle: ... resumed (TLS 1.3 session ticket)" \
  upstream.tls.resumed 1

# ---- edns-tcp-keepalive (RFC 7828): the server's idle timeout ----
expect "keepalive: www.ka.test over TLS" "$(q www.ka.test)" \
  "NOERROR 192.0.2.80"
expect "keepalive: the connection is up after the answer" "$(tls_conns "$KA")" 1
expect "keepalive: not closed at once" \
  "$(grep -c "event=tls_idle_close server=$KA@853 .*idle_ms=$KA_IDLE" \
    "$WORK/curvecache.log")" 0
sleep $((KA_MS / 1000 + 2))
expect "keepalive: closed after ${KA_MS} ms idle, not kept 10 s" \
  "$(tls_conns "$KA")" 0
expect "keepalive: ... by curvecache, at the server's timeout" \
  "$(grep -c "event=tls_idle_close server=$KA@853 .*idle_ms=$KA_IDLE" \
    "$WORK/curvecache.log")" 1
expect "keepalive: a server without it keeps the 10 s default" \
  "$(tls_conns "$GOOD")" 1
# TIMEOUT 0: closed here at once (Unbound itself waits 200 ms)
expect "keepalive 0: www.ka0.test answered" "$(q www.ka0.test)" \
  "NOERROR 192.0.2.80"
sleep 0.1
expect "keepalive 0: the connection is closed by curvecache at once" \
  "$(tls_conns "$KA0")/$(grep -c "event=tls_idle_close server=$KA0@853 .*idle_ms=0" \
    "$WORK/curvecache.log")" 0/1
# 12 at once: those asked after the TIMEOUT 0 wait for the next connection
n=$(at_once 12 k ka0.test)
sleep 0.1
expect "keepalive 0: 12 questions at once answered, then closed" \
  "$n/$(tls_conns "$KA0")" 12/0

# ---- pins ----
expect "pin: the right pin answers" "$(q www.pin.test)" "NOERROR 192.0.2.80"
expect "pin: a wrong pin: SERVFAIL" "$(q www.wpin.test)" "SERVFAIL "
expect "pin: ... with EDE 22" \
  "$(grep -c 'EDE: 22' "$WORK/q.out")" 1
expect "pin: ... tls_failure logged with the reason" \
  "$(grep -c "event=tls_failure server=$GOOD@853 .*pin" \
    "$WORK/curvecache.log")" 1

# ---- a name that does not match ----
f0=$(cc_stat upstream.tls.failures)
expect "name: certificate for other.lab: SERVFAIL" "$(q www.bad.test)" \
  "SERVFAIL "
expect "name: again (in back-off): SERVFAIL" "$(q www2.bad.test)" "SERVFAIL "
expect "name: tls_failure logged once" \
  "$(grep -c "event=tls_failure server=$BADNAME@853" \
    "$WORK/curvecache.log")" 1
expect "name: ... the reason is the name" \
  "$(grep "event=tls_failure server=$BADNAME@853" "$WORK/curvecache.log" |
    grep -c 'mismatch')" 1
atleast "name: counted" "$(cc_stat upstream.tls.failures)" $((f0 + 1))
expect "name: not one plain query reached that server" \
  "$(plain_seen badname)" 0
expect "name: curvecache sent it nothing in plain" \
  "$(grep -c "event=upstream_send server=$BADNAME .*transport=[tu][cd]p" \
    "$WORK/curvecache.log")" 0

# ---- an expired certificate ----
expect "expired: SERVFAIL" "$(q www.old.test)" "SERVFAIL "
expect "expired: tls_failure says expired" \
  "$(grep "event=tls_failure server=$OLD@853" "$WORK/curvecache.log" |
    grep -c 'expired')" 1
expect "expired: not one plain query reached that server" \
  "$(plain_seen old)" 0

# ---- a refused port, and one that accepts and stalls ----
expect "refused: nothing on port 853: SERVFAIL" "$(q www.refused.test)" \
  "SERVFAIL "
expect "refused: ... tls_failure, the TCP connection" \
  "$(grep "event=tls_failure server=$REFUSED@853" "$WORK/curvecache.log" |
    grep -ci 'connect')" 1
expect "stall: a server that never speaks: SERVFAIL" "$(q www.stall.test)" \
  "SERVFAIL "
n=0 # the handshake deadline is 5 s from the connect
until grep -q "event=tls_failure server=$STALL@853" "$WORK/curvecache.log" ||
  [ $n -ge 70 ]; do sleep 0.1; n=$((n + 1)); done
expect "stall: ... tls_failure, the handshake timed out" \
  "$(grep "event=tls_failure server=$STALL@853" "$WORK/curvecache.log" |
    grep -c 'timed out')" 1

# ---- list_forwards ----
# (the two connections to $GOOD used again: the stall took 5 s)
q www3.dot.test >/dev/null
q www3.pin.test >/dev/null
${CURVECACHE_CONTROL:-./curvecache-control} -s "$WORK/ctl.sock" \
  list_forwards >"$WORK/list.out" 2>&1 || true
expect "list_forwards: the TLS server with its name" \
  "$(grep -c "^dot.test. IN forward $GOOD@853#dot.lab" "$WORK/list.out")" 1
expect "list_forwards: connected forwarders (dot.test., pin.test.)" \
  "$(grep -c "^;   $GOOD@853#dot.lab transport=tls state=connected" \
    "$WORK/list.out")" 2
expect "list_forwards: a failing forwarder and why" \
  "$(grep -c "^;   $BADNAME@853#dot.lab transport=tls state=failing (.*mismatch" \
    "$WORK/list.out")" 1
expect "list_forwards: ... each failure with its own reason" \
  "$(grep -c "^;   $OLD@853#dot.lab transport=tls state=failing (.*expired" \
    "$WORK/list.out")$(grep -c "^;   $REFUSED@853#dot.lab transport=tls state=failing (.*[Cc]onnect" \
    "$WORK/list.out")$(grep -c "^;   $STALL@853#dot.lab transport=tls state=failing (.*timed out" \
    "$WORK/list.out")" 111

# ---- reload: the CA bundle and the forward zones' TLS auth again ----
# ($KA0 closes after each answer: every query below makes a connection)
ctl() { ${CURVECACHE_CONTROL:-./curvecache-control} -s "$WORK/ctl.sock" "$@"; }
ossl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
  -keyout "$P/ca2.key" -out "$P/ca2.pem" -subj "/CN=another CA" -days 2
expect "reload: ka0.test answered with the test CA" "$(q r1.ka0.test)" \
  "NOERROR 192.0.2.80"
cp "$P/ca2.pem" "$BUNDLE"
expect "reload: a bundle without the test CA, curvecache-control reload" \
  "$(ctl reload >"$WORK/reload.out" 2>&1 && echo ok)" ok
# (the TLS session of r1 is not resumed: resumption skips the chain)
expect "reload: ... the new bundle is used: SERVFAIL" "$(q r2.ka0.test)" \
  "SERVFAIL "
expect "reload: ... tls_failure: the chain does not verify" \
  "$(grep "event=tls_failure server=$KA0@853" "$WORK/curvecache.log" |
    grep -c 'did not verify')" 1
cp "$P/ca.pem" "$BUNDLE"
cc_hup reload
expect "reload: the test CA back (SIGHUP): answered at once" \
  "$(q r3.ka0.test)" "NOERROR 192.0.2.80"
echo "not a PEM file" >"$BUNDLE"
cc_hup reload
expect "reload: a bundle that does not load: the old one kept" \
  "$(q r4.ka0.test)" "NOERROR 192.0.2.80"
expect "reload: ... logged with its file" \
  "$(grep -c "event=tls_bundle_failed file=$BUNDLE .*kept=old" \
    "$WORK/curvecache.log")" 1
cp "$P/ca.pem" "$BUNDLE"
dot_cc cc_conf "$RIGHT_PIN"
cc_hup reload
expect "reload: wpin.test's pin corrected: answered" \
  "$(q r5.wpin.test)" "NOERROR 192.0.2.80"

# ---- forward_add +t (unbound-control's flag) ----
expect "forward_add +t: a server without #AUTH-NAME refused" \
  "$(ctl forward_add +t rt.test. "$GOOD" >"$WORK/fa.out" 2>&1 ||
    grep -c 'authentication name' "$WORK/fa.out")" 1
expect "forward_add +t: with it, taken" \
  "$(ctl forward_add +t rt.test. "$GOOD@853#dot.lab" 2>&1 && echo ok)" ok
expect "forward_add +t: answered over TLS" "$(q www.rt.test)" \
  "NOERROR 192.0.2.80"
grep "event=upstream_send .*qname=www.rt.test. " "$WORK/curvecache.log" \
  >"$WORK/rt.sends"
expect "forward_add +t: ... sent over TLS only" \
  "$([ -s "$WORK/rt.sends" ] && grep -vc "server=$GOOD .*transport=tls" \
    "$WORK/rt.sends")" 0

# ---- the capture: not one packet to a TLS forwarder but TLS ----
# (then the control: the lab's own plain query to $GOOD port 53 shows)
sleep 0.5
ncap=$(wc -l <"$CAP")
dig +time=2 +tries=1 "@$GOOD" control.test A >/dev/null 2>&1
sleep 0.5
e2e_sniff_stop "$CAP"
expect "capture: no packet dropped by the kernel" \
  "$(sed -n 's/^# dropped //p' "$CAP")" 0
expect "capture: the control query (plain, from the lab) is seen" \
  "$(tail -n +"$((ncap + 1))" "$CAP" |
    grep -c "^udp [0-9.]* [0-9]* $GOOD 53 [0-9]* plain$")" 1
# Lines: PROTO SRC SPORT DST DPORT LEN KIND (tests/e2e/sniff.py --addr).
head -n "$ncap" "$CAP" | grep -v '^#' >"$WORK/cap.lines"
for ip in $(echo "$TLS_FWDS" | tr ',' ' '); do
  awk -v ip="$ip" '($2 == ip || $4 == ip)' "$WORK/cap.lines" >"$WORK/cap.$ip"
done
atleast "capture: TLS to the verified forwarder seen" \
  "$(awk -v ip="$GOOD" '$4 == ip && $5 == 853 && $6 > 0' \
    "$WORK/cap.$GOOD" | wc -l)" 1
for ip in $BADNAME $OLD $REFUSED $STALL; do
  atleast "capture: curvecache tried $ip (TCP to 853)" \
    "$(awk -v ip="$ip" '$1 == "tcp" && $4 == ip && $5 == 853' \
      "$WORK/cap.$ip" | wc -l)" 1
done
awk -v set="$TLS_FWDS" 'BEGIN { n = split(set, a, ","); for (i = 1; i <= n; i++) f[a[i]] = 1 }
  !($1 == "tcp" && (($4 in f && $5 == 853) || ($2 in f && $3 == 853)))' \
  "$WORK/cap.lines" >"$WORK/cap.bad"
expect "capture: every packet to or from a TLS forwarder is TCP on 853" \
  "$(wc -l <"$WORK/cap.bad" | tr -d ' ')" 0
expect "capture: not one plain DNS packet to a TLS forwarder" \
  "$(grep -c ' plain$' "$WORK/cap.lines")" 0

cc_clean_stop dot
e2e_finish
