#!/bin/sh
# tests/e2e/tlsflood_lab.sh: 5,000 hostile TLS connections to the DoT
# port and 300 to the DoH port (tests/e2e/tlsflood.py: idle after the
# handshake, half-open TCP, a ClientHello and then silence, 512 bytes of
# garbage, slow-loris clients dripping a DNS frame one byte a second)
# while normal clients keep being answered (issue 25).
#
# curvecache on 127.53.88.10, port 53 (UDP, TCP), 853 (DoT), 443 (DoH),
# one worker, a certificate of the test CA (e2e_pki), a.lab. as local
# data (no upstream: the lab's root is a black hole here).
# How each check decides:
# - before: kdig +tls answers; RSS and the connections on 853/443 are
#   noted;
# - with the flood held open: 5 rounds of kdig +tls (one new connection,
#   as a phone makes), dig +https (a new HTTP/2 connection), dig (UDP)
#   and dig +tcp, each answered NOERROR in
#   under MAX_MS; curvecache still runs;
# - the daemon's own TLS and TCP connections (ss, its side of 853 and
#   443) never exceed its slots (incoming-num-tcp, 256 per worker; each
#   newcomer takes the slot of the connection idle longest) and the
#   RSS grew by less than the bound curvecache(8) states for one worker
#   (BOUND_KB: 256 slots x 128 KiB);
# - after the flood's sockets close: no connection of the flood left on
#   the daemon's side within 12 s, the RSS back under its value in the
#   flood and within BOUND_KB of the start (the allocator keeps what it
#   got: RSS does not go back to the start), kdig +tls answers again;
# - the same flood a second time: the RSS peak stays within REUSE_KB of
#   the first one's (the memory is used again, nothing leaks per
#   connection).
#
# Run by "make check" (cwd = top build dir, $srcdir = top source dir).
# Exit 0 = every check passed, 1 = a check failed, 77 = SKIP (not root,
# or kdig/dig/openssl/python3 missing).

set -u
srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=tests/e2e/e2e_lib.sh
. "$srcdir/tests/e2e/e2e_lib.sh"

e2e_name=tlsflood_lab
e2e_t0=$(date +%s)
CURVECACHE=${CURVECACHE:-./curvecache}
e2e_need "curvecache binds ports 53, 443 and 853 on 127.53.x.y" \
  kdig dig openssl python3 flock ss
e2e_built CURVECACHE
e2e_lock "$e2e_name"
LAB_ROOT_HINTS=$WORK/root.hints
printf '. 3600000 NS a.root.lab.\na.root.lab. 3600000 A 127.53.88.99\n' \
  >"$LAB_ROOT_HINTS"
CC_IP=127.53.88.10
NAME=dns.lab
N_DOT=${TLSFLOOD_DOT:-5000}
N_DOH=${TLSFLOOD_DOH:-300}
MAX_MS=1000
SLOTS=256
BOUND_KB=$((SLOTS * 128))
REUSE_KB=4096
FLOOD_PID=

# shellcheck disable=SC3045 # dash and bash both have ulimit -n
ulimit -n 20000 2>/dev/null || ulimit -n 8192 ||
  { bad "ulimit -n" "cannot raise the open files limit"; exit 1; }
e2e_pki "$WORK/pki" "$NAME" "$CC_IP" ||
  { bad "test CA" "openssl failed" "$WORK/pki/openssl.log"; exit 1; }
cc_start "listen: $CC_IP@853" "listen: $CC_IP@443" \
  "tls-service-key: $WORK/pki/srv.key" "tls-service-pem: $WORK/pki/srv.pem" \
  "log-level: info" 'local-data: "a.lab. 300 IN A 192.0.2.1"' || exit 1

rss() { awk '$1 == "VmRSS:" { print $2 }' "/proc/$CC_PID/status"; }
# conns: the daemon's established TCP connections on 853 and 443
conns() {
  ss -Htn state established "( sport = :853 or sport = :443 )" \
    src "$CC_IP" | wc -l
}
# ms CMD...: run CMD (output in $WORK/q.out), print its time in ms
ms() {
  a=$(date +%s%N)
  "$@" >"$WORK/q.out" 2>&1
  echo $((($(date +%s%N) - a) / 1000000))
}
kq() {
  kdig +tls +tls-ca="$WORK/pki/ca.pem" +tls-hostname=$NAME +timeout=2 \
    +retry=0 "@$CC_IP" -p 853 a.lab A
}
hq() {
  dig +https +tls-ca="$WORK/pki/ca.pem" +tls-hostname=$NAME +time=2 \
    +tries=1 "@$CC_IP" a.lab A
}
uq() { dig +time=2 +tries=1 "@$CC_IP" a.lab A; }
tq() { dig +tcp +time=2 +tries=1 "@$CC_IP" a.lab A; }
answered() { grep -q 'status: NOERROR' "$WORK/q.out" &&
  grep -q '192\.0\.2\.1' "$WORK/q.out"; }

t=$(ms kq)
if answered; then ok "kdig +tls answered before the flood (${t} ms)"
else bad "kdig +tls before the flood" "no answer" "$WORK/q.out"; fi
rss0=$(rss)
c0=$(conns)
rej0=$(cc_stat tcp.rejected)
echo "# before: RSS $rss0 kB, $c0 connections on 853/443," \
  "tcp.rejected ${rej0:-?}"

# ---- the flood
HOLD=$WORK/hold
# flood_start: tlsflood.py in the background until it says ready
flood_start() {
  : >"$HOLD"
  python3 "$srcdir/tests/e2e/tlsflood.py" "$CC_IP" 853 443 "$N_DOT" \
    "$N_DOH" "$HOLD" >"$WORK/flood.out" 2>&1 &
  FLOOD_PID=$!
  n=0
  while [ $n -lt 300 ] && e2e_alive "$FLOOD_PID" &&
    ! grep -q '^ready' "$WORK/flood.out"; do sleep 0.1; n=$((n + 1)); done
  grep -q '^ready' "$WORK/flood.out"
}
# flood_end: its sockets closed, it gone
flood_end() {
  rm -f "$HOLD"
  n=0
  while e2e_alive "$FLOOD_PID" && [ $n -lt 100 ]; do
    sleep 0.1
    n=$((n + 1))
  done
  e2e_kill "$FLOOD_PID" >/dev/null
  FLOOD_PID=
}
if flood_start; then
  ok "flood: $(grep '^ready' "$WORK/flood.out")"
else
  bad "flood of $N_DOT + $N_DOH connections" "not ready" "$WORK/flood.out"
fi

worst=0
fails=0
cmax=0
rmax=0
for round in 1 2 3 4 5; do
  for q in kq hq uq tq; do
    t=$(ms $q)
    if answered && [ "$t" -lt $MAX_MS ]; then :; else
      fails=$((fails + 1))
      cp "$WORK/q.out" "$WORK/fail-$round-$q.out"
      echo "# round $round: $q took $t ms"
    fi
    [ "$t" -gt "$worst" ] && worst=$t
  done
  c=$(conns)
  r=$(rss)
  [ "$c" -gt "$cmax" ] && cmax=$c
  [ "$r" -gt "$rmax" ] && rmax=$r
  sleep 0.5
done
e2e_alive "$CC_PID" || bad "curvecache runs under the flood" "it is gone" \
  "$WORK/curvecache.log"
rej1=$(cc_stat tcp.rejected)
tfail=$(cc_stat tls.failed)
idle=$(cc_stat tcp.idle_closed)
grow=$((rmax - rss0))
echo "# in the flood: worst answer $worst ms, up to $cmax connections on" \
  "853/443, RSS up to $rmax kB (+$grow kB, bound $BOUND_KB kB)," \
  "tcp.rejected ${rej0:-?} -> ${rej1:-?}, tls.failed ${tfail:-?}," \
  "tcp.idle_closed ${idle:-?}"
if [ $fails -eq 0 ]; then
  ok "in the flood: 5 x (kdig +tls, dig +https, dig UDP, dig +tcp) answered, worst $worst ms"
else
  set -- "$WORK"/fail-*.out
  bad "answers within $MAX_MS ms in the flood" "$fails of 20 late or lost" "$1"
fi
if [ "$cmax" -le $SLOTS ]; then
  ok "connections held by curvecache <= $SLOTS slots ($cmax), the idlest closed for newcomers"
else
  bad "connections bounded by the slots" \
    "$cmax held, tcp.rejected ${rej0:-?} -> ${rej1:-?}"
fi
# a sanitizer's shadow memory and quarantine are not the daemon's
SAN=
grep -qa -e __asan_init -e __tsan_init "$CURVECACHE" && SAN=1
if [ -n "$SAN" ]; then
  ok "RSS not judged: a sanitizer build (+$grow kB in the flood)"
elif [ "$grow" -lt "$BOUND_KB" ]; then
  ok "RSS in the flood +$grow kB < $BOUND_KB kB (256 slots x 128 KiB)"
else bad "RSS bound" "+$grow kB, bound $BOUND_KB kB"; fi

# ---- the flood ends
flood_end
n=0
while [ "$(conns)" -gt "$c0" ] && [ $n -lt 120 ]; do
  sleep 0.1
  n=$((n + 1))
done
c2=$(conns)
sleep 0.5
rss2=$(rss)
echo "# after: $c2 connections on 853/443 (after $((n / 10)) s), RSS $rss2 kB"
if [ "$c2" -le "$c0" ]; then ok "after the flood: the connections are gone ($c2)"
else bad "connections closed after the flood" "$c2 left"; fi
if [ -n "$SAN" ] ||
   { [ "$rss2" -le "$rmax" ] && [ $((rss2 - rss0)) -lt "$BOUND_KB" ]; }; then
  ok "after the flood: RSS $rss2 kB (start $rss0, flood $rmax)"
else bad "RSS after the flood" "$rss2 kB (start $rss0, flood $rmax)"; fi

# ---- the same flood again: the memory of the first is used again
flood_start || bad "second flood" "not ready" "$WORK/flood.out"
rmax3=$(rss)
flood_end
rss3=$(rss)
[ "$rss3" -gt "$rmax3" ] && rmax3=$rss3
echo "# second flood: RSS up to $rmax3 kB (first $rmax kB)"
if [ -n "$SAN" ] || [ "$rmax3" -le $((rmax + REUSE_KB)) ]; then
  ok "a second flood: RSS $rmax3 kB, within $REUSE_KB kB of the first's $rmax kB"
else bad "no growth in a second flood" "RSS $rmax3 kB, first $rmax kB"; fi
t=$(ms kq)
if answered; then ok "kdig +tls answered after the flood (${t} ms)"
else bad "kdig +tls after the flood" "no answer" "$WORK/q.out"; fi
cc_clean_stop tlsflood_lab
e2e_finish
