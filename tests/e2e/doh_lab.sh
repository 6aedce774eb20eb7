#!/bin/sh
# tests/e2e/doh_lab.sh: DNS over HTTPS for clients (RFC 8484, HTTP/2) and
# Discovery of Designated Resolvers (RFC 9462): a listen address on
# https-port (443) and one on tls-port (853) with tls-service-key/-pem (a
# test CA and certificate made here with openssl: e2e_pki), real clients
# only (curl --http2, BIND 9.18's dig +https, kdig +https). No lab
# servers: the answers come from local-data.
#
# Run by "make check" (cwd = top build dir, $srcdir = top source dir).
# Exit 0 = every check passed, 1 = a check failed, 77 = SKIP (not root,
# or curl/dig/kdig/openssl/python3 missing).
#
# Checks:
# - curvecache -t: a listen address on https-port with no certificate is
#   refused with FILE:LINE;
# - curl POST and GET (?dns=, base64url): 200, application/dns-message,
#   cache-control max-age = the least TTL of the answer (300, 60), the
#   same bytes both ways; a query with EDNS gets an answer padded to 468
#   bytes (RFC 8467);
# - dig +https (POST) and +https-get, kdig +https: the answers;
# - a wrong path 404, a PUT 405, a text/plain POST 415, a 5000-byte body
#   413, a dns= that is not base64url 400, no dns= 400; HTTP/1.1 is
#   closed (HTTP/2 only);
# - 100 GETs over one connection (curl --parallel): 100 answers, one
#   connect; 5 streams waiting on one resolution each get its answer
#   (SERVFAIL: the lab root is down); hostile HTTP/2 clients
#   (tests/e2e/h2raw.py): a stream reset while its answer waits, 150
#   streams at once (100 allowed), a POST in 1-byte DATA frames, random
#   frames; garbage after the TLS handshake
#   closes that connection
#   only; DoT on tls-port still answers (ALPN dot) beside DoH;
# - local zones and access control: a refused client gets REFUSED with
#   EDE 18 over DoH as over UDP;
# - _dns.resolver.arpa SVCB: two records (AA), alpn h2 port 443 with the
#   dohpath /dns-query{?dns} and alpn dot port 853, the listen address
#   as ipv4hint; without DoT and DoH the name is not answered by us;
# - num.query.https and num.answer.transport.https (one per answer) in
#   stats and in the Prometheus output; the query log says proto=https.

set -u
srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=tests/e2e/e2e_lib.sh
. "$srcdir/tests/e2e/e2e_lib.sh"

e2e_name=doh_lab
e2e_t0=$(date +%s)
CURVECACHE=${CURVECACHE:-./curvecache}
CTL=${CURVECACHE_CONTROL:-./curvecache-control}
e2e_need "curvecache binds ports 53, 443 and 853 on 127.53.x.y" \
  curl dig kdig openssl python3 flock
e2e_built CURVECACHE CTL
e2e_lock "$e2e_name"
LAB_ROOT_HINTS=$WORK/root.hints
printf '. 3600000 NS a.root.lab.\na.root.lab. 3600000 A 127.53.89.99\n' \
  >"$LAB_ROOT_HINTS"
CC_IP=127.53.89.10
NAME=dns.lab
URL=https://$NAME/dns-query

expect() {
  if [ "$2" = "$3" ]; then ok "$1"; else bad "$1" "got '$2', want '$3'"; fi
}

P=$WORK/pki
e2e_pki "$P" "$NAME" "$CC_IP" ||
  { bad "pki" "openssl failed" "$P/openssl.log"; exit 1; }

# ---- curvecache -t ----
cc_conf_at "$CC_IP" "$WORK/t.conf" "listen: $CC_IP@443"
"$CURVECACHE" -t -c "$WORK/t.conf" >"$WORK/t.out" 2>&1
expect "-t: a listen address on https-port needs a certificate" \
  "$(grep -c "t.conf: listen $CC_IP@443 is on https-port.*tls-service-key" \
    "$WORK/t.out")" 1

# ---- the daemon ----
cc_start "listen: $CC_IP@443" "listen: $CC_IP@853" \
  "tls-service-key: $P/srv.key" "tls-service-pem: $P/srv.pem" \
  "control-socket: $WORK/ctl.sock" "log-queries: yes" \
  'local-data: "a.lab. 300 IN A 192.0.2.1"' \
  'local-data: "b.lab. 60 IN A 192.0.2.2"' \
  "access-control: 127.0.0.0/8 allow" "access-control: 127.53.89.20/32 refuse" \
  || exit 1
stat() { cc_stat "$1"; }
q0=$(stat num.query.https)
a0=$(stat num.answer.transport.https)

# q FILE NAME [edns]: a DNS query (ID 0, RD) for NAME A, wire form.
q() {
  python3 - "$@" <<'PY'
import struct, sys
name = b"".join(bytes([len(l)]) + l.encode() for l in sys.argv[2].split("."))
m = struct.pack(">6H", 0, 0x0100, 1, 0, 0, 1 if len(sys.argv) > 3 else 0)
m += name + b"\0" + struct.pack(">2H", 1, 1)
if len(sys.argv) > 3:
    m += b"\0" + struct.pack(">HHIH", 41, 1232, 0, 0)
open(sys.argv[1], "wb").write(m)
PY
}
b64() { python3 -c 'import base64, sys
print(base64.urlsafe_b64encode(open(sys.argv[1], "rb").read()).decode().rstrip("="))' "$1"; }
# ans FILE: the answer's A records, from the wire
ans() { python3 - "$1" <<'PY'
import sys
m = open(sys.argv[1], "rb").read()
print(" ".join(".".join(str(b) for b in m[i + 12:i + 16])
               for i in range(len(m) - 15) if m[i:i + 2] == b"\xc0\x0c"))
PY
}
cu() { # curl over HTTP/2 to the DoH listener, with the test CA
  curl -sS --http2 --max-time 5 --cacert "$P/ca.pem" \
    --resolve "$NAME:443:$CC_IP" "$@"
}
hdr() { tr -d '\r' <"$1" | sed -n "s/^$2: //Ip" | tail -n 1; }

# ---- curl: POST and GET ----
q "$WORK/a.bin" a.lab
cu -D "$WORK/p.h" -o "$WORK/p.bin" -H 'content-type: application/dns-message' \
  --data-binary @"$WORK/a.bin" "$URL"
expect "POST: HTTP/2 200" "$(head -n 1 "$WORK/p.h" | tr -d '\r')" "HTTP/2 200 "
expect "POST: content-type" "$(hdr "$WORK/p.h" content-type)" \
  application/dns-message
expect "POST: cache-control max-age is the answer's TTL" \
  "$(hdr "$WORK/p.h" cache-control)" max-age=300
expect "POST: the answer" "$(ans "$WORK/p.bin")" 192.0.2.1
cu -D "$WORK/g.h" -o "$WORK/g.bin" "$URL?dns=$(b64 "$WORK/a.bin")"
expect "GET ?dns=: 200" "$(head -n 1 "$WORK/g.h" | tr -d '\r')" "HTTP/2 200 "
if cmp -s "$WORK/p.bin" "$WORK/g.bin"; then
  ok "GET ?dns=: the same answer as POST"
else
  bad "GET ?dns=: the same answer as POST" "they differ"
fi
q "$WORK/b.bin" b.lab edns
cu -D "$WORK/b.h" -o "$WORK/b.bin.out" "$URL?dns=$(b64 "$WORK/b.bin")"
expect "GET: max-age 60 for a 60 s record" "$(hdr "$WORK/b.h" cache-control)" \
  max-age=60
expect "GET with EDNS: padded to 468 bytes" \
  "$(wc -c <"$WORK/b.bin.out" | tr -d ' ')" 468
expect "GET with EDNS: the answer" "$(ans "$WORK/b.bin.out")" 192.0.2.2

# ---- dig +https, kdig +https ----
dig +https +tls-ca="$P/ca.pem" +tls-hostname=$NAME +time=3 +tries=1 \
  "@$CC_IP" a.lab A >"$WORK/dig.out" 2>&1
expect "dig +https: NOERROR" "$(dig_status "$WORK/dig.out")" NOERROR
expect "dig +https: the answer" \
  "$(grep -c '^a\.lab\..*IN[[:space:]]*A[[:space:]]*192\.0\.2\.1' \
    "$WORK/dig.out")" 1
expect "dig +https: over HTTPS, padded" \
  "$(grep -c '(HTTPS)\|MSG SIZE  rcvd: 468' "$WORK/dig.out")" 2
dig +https-get +tls-ca="$P/ca.pem" +tls-hostname=$NAME +time=3 +tries=1 \
  +short "@$CC_IP" b.lab A >"$WORK/dig2.out" 2>&1
expect "dig +https-get: the answer" "$(cat "$WORK/dig2.out")" 192.0.2.2
kdig +https +tls-ca="$P/ca.pem" +tls-hostname=$NAME +time=3 +retry=0 \
  "@$CC_IP" a.lab A >"$WORK/kdig.out" 2>&1
expect "kdig +https: HTTP/2 200 and the answer" \
  "$(grep -c 'status: 200\|192\.0\.2\.1' "$WORK/kdig.out")" 2

# ---- wrong requests ----
code() { cu -o /dev/null -w '%{http_code}' "$@"; }
expect "a wrong path: 404" "$(code "https://$NAME/other?dns=AAAA")" 404
expect "PUT: 405" "$(code -X PUT --data-binary @"$WORK/a.bin" "$URL")" 405
expect "POST text/plain: 415" "$(code -H 'content-type: text/plain' \
  --data-binary @"$WORK/a.bin" "$URL")" 415
head -c 5000 /dev/zero >"$WORK/big.bin"
expect "POST of 5000 bytes: 413" "$(code -H \
  'content-type: application/dns-message' --data-binary @"$WORK/big.bin" \
  "$URL")" 413
expect "dns= not base64url: 400" "$(code "$URL?dns=a%2Bb")" 400
expect "GET without dns=: 400" "$(code "$URL")" 400
expect "HTTP/1.1 (no h2 in ALPN): no answer, the connection closed" \
  "$(code --http1.1 "$URL?dns=$(b64 "$WORK/a.bin")")" 000

# ---- many streams on one connection ----
g=$(b64 "$WORK/a.bin")
i=0
: >"$WORK/par.cfg"
while [ $i -lt 100 ]; do
  printf 'url = "%s?dns=%s&n=%s"\noutput = "/dev/null"\n' "$URL" "$g" $i \
    >>"$WORK/par.cfg"
  i=$((i + 1))
done
cu --parallel --parallel-max 100 -K "$WORK/par.cfg" \
  -w '%{http_code} %{num_connects}\n' >"$WORK/par.out" 2>&1
expect "100 parallel GETs: 100 answers" "$(grep -c '^200 ' "$WORK/par.out")" \
  100
expect "100 parallel GETs: one connection" \
  "$(awk '{ n += $2 } END { print n }' "$WORK/par.out")" 1

# ---- answers that come later: a resolution (the lab root is down) ----
# one question joined by 5 streams: each gets the SERVFAIL when it ends
q "$WORK/x.bin" x.example
gx=$(b64 "$WORK/x.bin")
: >"$WORK/x.cfg"
for i in 1 2 3 4 5; do
  printf 'url = "%s?dns=%s&n=%s"\noutput = "%s/x%s.out"\n' "$URL" "$gx" $i \
    "$WORK" $i >>"$WORK/x.cfg"
done
cu --parallel -K "$WORK/x.cfg" -w '%{http_code}\n' >"$WORK/x.codes" 2>&1
expect "a resolution's answer to 5 waiting streams: 5 x 200" \
  "$(grep -c '^200$' "$WORK/x.codes")" 5
expect "...each SERVFAIL" "$(for i in 1 2 3 4 5; do python3 -c 'import sys
print(open(sys.argv[1], "rb").read()[3] & 15)' "$WORK/x$i.out"; done |
  sort -u)" 2

# ---- garbage after the handshake; DoT beside DoH ----
head -c 3000 /dev/urandom | timeout 5 openssl s_client -quiet -alpn h2 \
  -connect "$CC_IP:443" -servername $NAME >/dev/null 2>&1
expect "after garbage on one connection, the others are answered" \
  "$(code "$URL?dns=$g")" 200
kdig +tls-ca="$P/ca.pem" +tls-hostname=$NAME +time=3 +retry=0 +short \
  "@$CC_IP" -p 853 a.lab A >"$WORK/dot.out" 2>&1
expect "DoT on tls-port beside DoH" "$(cat "$WORK/dot.out")" 192.0.2.1

# ---- the same resolver: access control ----
q "$WORK/r.bin" a.lab edns
curl -sS --http2 --max-time 5 --cacert "$P/ca.pem" --interface 127.53.89.20 \
  --resolve "$NAME:443:$CC_IP" -o "$WORK/r.out" "$URL?dns=$(b64 "$WORK/r.bin")"
expect "a refused client: REFUSED over DoH" \
  "$(python3 -c 'import sys; print(open(sys.argv[1], "rb").read()[3] & 15)' \
    "$WORK/r.out" 2>&1)" 5
expect "...with EDE 18 (Prohibited)" \
  "$(grep -c 'refused by access-control' "$WORK/r.out")" 1

# ---- DDR ----
dig +norec +time=2 +tries=1 "@$CC_IP" _dns.resolver.arpa SVCB \
  >"$WORK/ddr.out" 2>&1
expect "DDR: NOERROR, AA" \
  "$(dig_status "$WORK/ddr.out") $(dig_flags "$WORK/ddr.out" | grep -c aa)" \
  "NOERROR 1"
expect "DDR: DoH endpoint" "$(grep -c "SVCB.*alpn=\"h2\" port=443 \
ipv4hint=$CC_IP key7=\"/dns-query{?dns}\"" "$WORK/ddr.out")" 1
expect "DDR: DoT endpoint" "$(grep -c "SVCB.*alpn=\"dot\" port=853 \
ipv4hint=$CC_IP\$" "$WORK/ddr.out")" 1

# ---- statistics ----
expect "stats: num.query.https counts the DoH queries" \
  "$(($(stat num.query.https) - q0))" 113
"$CTL" -s "$WORK/ctl.sock" stats_noreset --prometheus >"$WORK/prom" 2>&1
expect "prometheus: curvecache_num_query_https_total" \
  "$(grep -c '^curvecache_num_query_https_total [0-9]' "$WORK/prom")" 1
expect "stats: num.answer.transport.https counts the DoH answers" \
  "$(($(stat num.answer.transport.https) - a0))" 113
expect "query log: DoH queries are proto=https, the one DoT query proto=tls" \
  "$(grep -c 'event=query .*proto=https ' "$WORK/curvecache.log" |
    sed 's/^[1-9][0-9]*$/some/') \
$(grep -c 'event=query .*proto=tls ' "$WORK/curvecache.log")" "some 1"
expect "prometheus: answers by transport, https among them" \
  "$(grep -c '^curvecache_num_answer_transport_total{transport="https"} [1-9]' \
    "$WORK/prom")" 1

# ---- hostile HTTP/2 clients (frames written by hand) ----
h2() { timeout 20 python3 "$srcdir/tests/e2e/h2raw.py" "$CC_IP" $NAME \
  "$P/ca.pem" "$1" 2>&1; }
expect "a stream reset while its answer waits; the next one answered" \
  "$(h2 reset)" ok
h2 streams >"$WORK/h2s.out"
expect "150 streams at once: each answered or refused, 100 at least answered" \
  "$(awk '{ print ($2 >= 100 && $2 + $4 == 150) }' "$WORK/h2s.out")" 1
expect "a POST in 1-byte DATA frames" "$(h2 chunks)" ok
expect "200 random frames: the connection is closed" "$(h2 random)" closed
expect "...and the others are answered" "$(code "$URL?dns=$g")" 200

# ---- without DoT and DoH, _dns.resolver.arpa is not ours ----
cc_clean_stop doh
cc_start 'local-zone: "resolver.arpa." static' || exit 1
dig +norec +time=2 +tries=1 "@$CC_IP" _dns.resolver.arpa SVCB \
  >"$WORK/ddr2.out" 2>&1
expect "no DoT/DoH: no SVCB records" \
  "$(dig_status "$WORK/ddr2.out") $(grep -c 'IN[[:space:]]*SVCB[[:space:]]*[0-9]' \
    "$WORK/ddr2.out")" "NXDOMAIN 0"
cc_clean_stop doh
e2e_finish
