#!/bin/sh
# tests/e2e/clients_lab.sh: clients that misbehave, against curvecache in
# the loopback lab (tests/lab/lab.sh), with tests/e2e/clients.py:
#
# 1. Malformed queries (bad counts, truncated names, compression loops,
#    unknown classes and opcodes, EDNS errors, QR set, runts, 2000 random
#    packets, and a few over TCP): each gets FORMERR, NOTIMP, REFUSED or
#    BADVERS as RFC 1035/6891 say, or is dropped; curvecache still answers.
# 2. Access control: a client outside the list gets REFUSED (default
#    refuse), a client under a deny rule gets nothing, over UDP and TCP.
# 3. TCP abuse: 5000 connections held open, and a client sending a query
#    one byte a second: UDP and new TCP clients are still answered.
# 4. A flood of unique random names (random subdomain attack), fast (a
#    healthy zone) and slow (faulty.py's 2 s server, so resolutions pile
#    up past SERVER_RES_MAX = 256): the RSS stays under the cache bound
#    plus MEM_MARGIN_KB, old resolutions are jostled out past
#    jostle-timeout (total.requestlist.overwritten), and a cached name
#    probed all along is always answered, in a median under
#    T_CACHED_MED_MS and nine times in ten under T_CACHED_MS.
# 5. Rate limiting (ratelimit: N): a client over N queries/s has the
#    excess dropped (num.ratelimited), another client is not affected,
#    and loopback is exempt by default (ratelimit-exempt-loopback).
#
# Run by "make check" (cwd = top build dir, $srcdir = top source dir).
# Exit 0 = every check passed, 1 = a check failed, 77 = SKIP.

set -u
srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=tests/e2e/e2e_lib.sh
. "$srcdir/tests/e2e/e2e_lib.sh"
# shellcheck source=tests/e2e/hard_lib.sh
. "$srcdir/tests/e2e/hard_lib.sh"
e2e_init clients_lab python3
CLIENTS=$srcdir/tests/e2e/clients.py
# Clients: allowed (CC_IP itself), refused (no rule), denied (deny rule).
OTHER_IP=127.53.100.2
DENIED_IP=127.53.100.3
CACHE_KB=8192
# The in-flight bound (SERVER_RES_MAX = 1024 resolutions, ~45 KB each,
# more under ASan) plus 32 MB for the rest (ASan's quarantine included).
MEM_MARGIN_KB=98304
# A cached name during the floods (dig's start included; ASan build; a
# query the kernel drops under the flood is retried after 1 s, as a stub
# would): the median probe, and nine probes in ten. Every probe must be
# answered; one slow probe in ten is the test machine's scheduling (a
# VM that loses its CPU for a second), not the resolver.
T_CACHED_MED_MS=300
T_CACHED_MS=1500
# SERVER_TCP_IDLE_MS (10 s) and slack: a byte-a-second client is closed.
T_SLOWLORIS_S=13
TCP_CONNS=5000
FLOOD_FAST=20000
FLOOD_SLOW=3000
RATE=50
# Under ASan, freed memory waits in a quarantine (256 MB by default):
# keep it small, so that the RSS measures what curvecache holds.
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=16
export ASAN_OPTIONS

# The slow server (2 s) of tests/e2e/faulty.py for the slow flood.
faulty_start 600 slow@127.53.3.11
ACL="access-control: 127.0.0.1/32 allow
access-control: $CC_IP/32 allow
access-control: $DENIED_IP/32 deny"

# start_cc [LINE...]: curvecache with the ACL above and the lines given.
start_cc() {
  old_ifs=$IFS
  IFS='
'
  # shellcheck disable=SC2086 # one config line per ACL line
  cc_start $ACL "cache-size: ${CACHE_KB}k" "$@" || exit 1
  IFS=$old_ifs
}

rss_kb() { sed -n 's/^VmRSS:[[:space:]]*\([0-9]*\).*/\1/p' "/proc/$CC_PID/status"; }

# cached_ms: the time to answer the cached www.example.lab A (ms; 99999
# if it was not answered right).
cached_ms() {
  t0=$(now_ms)
  dig +time=1 +tries=3 +short "@$CC_IP" www.example.lab A </dev/null \
    >"$WORK/c.out" 2>&1
  ms=$(($(now_ms) - t0))
  grep -qx '192\.0\.2\.[0-9]*' "$WORK/c.out" || ms=99999
  echo "$ms"
}

# alive_answers WHAT: curvecache is alive and answers a cached name.
alive_answers() {
  if e2e_alive "$CC_PID" && [ "$(cached_ms)" -lt 2000 ]; then
    ok "$1: curvecache alive and answering"
  else
    bad "$1: curvecache alive and answering" "no answer" "$WORK/c.out"
  fi
}

start_cc
dig +time=3 +tries=1 "@$CC_IP" www.example.lab A >/dev/null 2>&1
# The slow sender runs alone (the TCP flood below would evict it).
bg_start slowloris python3 "$CLIENTS" slowloris "$CC_IP" 20
SLOW_PID=$bg_pid

# ---- 1. Malformed queries ----
echo "# 1. malformed queries ($(elapsed))"
python3 "$CLIENTS" malformed "$CC_IP" >"$WORK/malformed.out" 2>&1
sed 's/^/#   /' "$WORK/malformed.out"
ncase=$(grep -c '^case .* ok$' "$WORK/malformed.out")
if [ "$ncase" -ge 30 ] && ! grep -q 'BAD$' "$WORK/malformed.out" &&
   grep -q '^random sent' "$WORK/malformed.out"; then
  ok "$ncase malformed queries: each answered as it should, or dropped"
else
  bad "malformed queries" "wrong answers" "$WORK/malformed.out"
fi
alive_answers "after the malformed queries"

# ---- 2. Access control ----
echo "# 2. access control ($(elapsed))"
ref0=$(cc_stat acl.refused)
drop0=$(cc_stat acl.dropped)
dig +time=2 +tries=1 -b "$OTHER_IP" "@$CC_IP" www.example.lab A \
  </dev/null >"$WORK/acl.out" 2>&1
if [ "$(dig_status "$WORK/acl.out")" = REFUSED ]; then
  ok "a client outside the access list gets REFUSED"
else
  bad "a client outside the access list gets REFUSED" "" "$WORK/acl.out"
fi
dig +tcp +time=2 +tries=1 -b "$OTHER_IP" "@$CC_IP" www.example.lab A \
  </dev/null >"$WORK/acl.out" 2>&1
if [ "$(dig_status "$WORK/acl.out")" = REFUSED ]; then
  ok "... over TCP too"
else
  bad "... over TCP too" "" "$WORK/acl.out"
fi
for proto in +notcp +tcp; do
  dig "$proto" +time=1 +tries=1 -b "$DENIED_IP" "@$CC_IP" www.example.lab \
    A </dev/null >"$WORK/acl.out" 2>&1
  if [ -z "$(dig_status "$WORK/acl.out")" ]; then
    ok "a client under a deny rule gets no answer ($proto)"
  else
    bad "a client under a deny rule gets no answer ($proto)" "" \
      "$WORK/acl.out"
  fi
done
ref1=$(cc_stat acl.refused)
drop1=$(cc_stat acl.dropped)
if [ $((ref1 - ref0)) -ge 2 ] && [ $((drop1 - drop0)) -ge 1 ]; then
  ok "counted: acl.refused +$((ref1 - ref0)), acl.dropped +$((drop1 - drop0))"
else
  bad "counted" "acl.refused $ref0 -> $ref1, acl.dropped $drop0 -> $drop1"
fi

# ---- 3. TCP abuse ----
echo "# 3. $TCP_CONNS TCP connections and a slow sender ($(elapsed))"
wait "$SLOW_PID" 2>/dev/null
sed 's/^/#   /' "$WORK/slowloris.out"
s=$(sed -n 's/^slowloris closed after \([0-9]*\) s/\1/p' "$WORK/slowloris.out")
if [ -n "$s" ] && [ "$s" -le "$T_SLOWLORIS_S" ]; then
  ok "a client sending a byte a second was closed after $s s"
else
  bad "a client sending a byte a second is closed" "" "$WORK/slowloris.out"
fi
bg_start tcpflood python3 "$CLIENTS" tcpflood "$CC_IP" "$TCP_CONNS" 20
FLOOD_PID=$bg_pid
wait_line "$WORK/tcpflood.out" '^tcpflood opened' 300
sed 's/^/#   /' "$WORK/tcpflood.out"
ms=$( (cached_ms; cached_ms; cached_ms) | sort -n | sed -n 2p)
if [ "$ms" -le "$T_CACHED_MED_MS" ]; then
  ok "UDP answered during the TCP flood (median of 3: $ms ms)"
else
  bad "UDP answered during the TCP flood" "median of 3: $ms ms" \
    "$WORK/c.out"
fi
tcp_ok=0
i=0
while [ $i -lt 5 ]; do
  t0=$(now_ms)
  dig +tcp +time=2 +tries=2 "@$CC_IP" www.example.lab A </dev/null \
    >"$WORK/tcp.out" 2>&1
  tms=$(($(now_ms) - t0))
  [ "$(dig_status "$WORK/tcp.out")" = NOERROR ] && tcp_ok=$((tcp_ok + 1))
  i=$((i + 1))
done
if [ "$tcp_ok" -eq 5 ]; then
  ok "new TCP clients answered during the TCP flood (5 of 5, last $tms ms)"
else
  bad "new TCP clients answered during the TCP flood" "$tcp_ok of 5" \
    "$WORK/tcp.out"
fi
rej=$(cc_stat tcp.rejected)
idle=$(cc_stat tcp.idle_closed)
echo "# tcp.accepted $(cc_stat tcp.accepted) tcp.rejected $rej" \
  "tcp.idle_closed $idle"
wait "$FLOOD_PID" 2>/dev/null
sed 's/^/#   /' "$WORK/tcpflood.out"
alive_answers "after the TCP flood"

# ---- 4. Random subdomain floods ----
# flood NAME COUNT RATE ZONE: the flood in the background; RSS sampled
# and the cached name timed while it runs. Sets rss_max and cached_max.
flood() {
  bg_start "$1" python3 "$CLIENTS" flood "$CC_IP" "$2" "$3" "$4"
  fpid=$bg_pid
  rss_max=0
  cached_max=0
  nc=0
  : >"$WORK/$1.ms"
  while e2e_alive "$fpid"; do
    r=$(rss_kb)
    [ "${r:-0}" -gt "$rss_max" ] && rss_max=$r
    c=$(cached_ms)
    echo "$c" >>"$WORK/$1.ms"
    [ "$c" -gt "$cached_max" ] && cached_max=$c
    nc=$((nc + 1))
    sleep 0.3
  done
  wait "$fpid" 2>/dev/null
  sed 's/^/#   /' "$WORK/$1.out"
  cached_med=$(sort -n "$WORK/$1.ms" | awk '{ v[NR] = $1 }
    END { print v[int((NR + 1) / 2)] }')
  cached_p90=$(sort -n "$WORK/$1.ms" | awk '{ v[NR] = $1 }
    END { i = int(NR * 0.9); if (i < 1) i = 1; print v[i] }')
  cached_lost=$(grep -c '^99999$' "$WORK/$1.ms")
}

# cached_fast WHAT: the probes of the last flood were all answered, fast.
cached_fast() {
  [ "$cached_lost" -eq 0 ] && [ "$cached_med" -le "$T_CACHED_MED_MS" ] &&
    [ "$cached_p90" -le "$T_CACHED_MS" ]
}

echo "# 4. random subdomain floods ($(elapsed))"
rss0=$(rss_kb)
flood fastflood "$FLOOD_FAST" 2000 wild.example.lab
echo "# fast flood: RSS $rss0 kB before, at most $rss_max kB;" \
  "cached name: median $cached_med ms, 90th percentile $cached_p90 ms," \
  "at most $cached_max ms over $nc probes, $cached_lost unanswered"
if [ "$rss_max" -le $((rss0 + CACHE_KB + MEM_MARGIN_KB)) ]; then
  ok "fast flood: RSS +$((rss_max - rss0)) kB (bound: cache $CACHE_KB kB + $MEM_MARGIN_KB kB)"
else
  bad "fast flood: RSS bounded" "$rss0 -> $rss_max kB"
fi
if cached_fast; then
  ok "fast flood: the cached name answered (median $cached_med ms, 90 % within $cached_p90 ms)"
else
  bad "fast flood: the cached name answered fast" \
    "median $cached_med ms, 90th percentile $cached_p90 ms, $cached_lost unanswered" \
    "$WORK/fastflood.ms"
fi
ow0=$(cc_stat total.requestlist.overwritten)
flood slowflood "$FLOOD_SLOW" 1000 slow.fault.lab
ow1=$(cc_stat total.requestlist.overwritten)
echo "# slow flood: RSS at most $rss_max kB; cached name: median" \
  "$cached_med ms, 90th percentile $cached_p90 ms, at most $cached_max ms," \
  "$cached_lost unanswered; total.requestlist.overwritten +$((ow1 - ow0))"
if [ $((ow1 - ow0)) -gt 0 ]; then
  ok "slow flood: in-flight resolutions capped, oldest dropped (+$((ow1 - ow0)))"
else
  bad "slow flood: in-flight resolutions capped" "overwritten $ow0 -> $ow1"
fi
if cached_fast && [ "$rss_max" -le $((rss0 + CACHE_KB + MEM_MARGIN_KB)) ]
then
  ok "slow flood: cached name in median $cached_med ms (90 % within $cached_p90 ms), RSS +$((rss_max - rss0)) kB"
else
  bad "slow flood: cached name fast, RSS bounded" \
    "median $cached_med ms, 90th percentile $cached_p90 ms, $cached_lost unanswered, RSS $rss0 -> $rss_max kB" \
    "$WORK/slowflood.ms"
fi
alive_answers "after the floods"
cc_stop

# ---- 5. Rate limiting ----
echo "# 5. rate limiting ($(elapsed))"
# burst SRC N: the count of answers to N queries sent at once from SRC;
# burst_most: what a limit of RATE/s can have let through in the time
# from the first query to the last answer (bucket + refill).
burst() {
  python3 "$CLIENTS" burst "$CC_IP" "$1" "$2" >"$WORK/burst.out" 2>&1
  sed -n 's/^burst answered \([0-9]*\) of.*/\1/p' "$WORK/burst.out"
}
burst_most() {
  w=$(sed -n 's/^burst answered .* in \([0-9]*\) ms$/\1/p' \
    "$WORK/burst.out")
  echo $((RATE + RATE * ${w:-0} / 1000 + 1))
}
start_cc "ratelimit: $RATE" "ratelimit-exempt-loopback: no"
dig +time=3 +tries=1 "@$CC_IP" www.example.lab A >/dev/null 2>&1
sleep 1
rl0=$(cc_stat num.ratelimited)
got=$(burst "$CC_IP" 300)
rl1=$(cc_stat num.ratelimited)
most=$(burst_most)
echo "# ratelimit $RATE: $got of 300 answered (at most $most in its" \
  "time); num.ratelimited +$((rl1 - rl0))"
if [ "${got:-0}" -ge "$RATE" ] && [ "${got:-0}" -le "$most" ] &&
   [ $((rl1 - rl0)) -ge $((300 - most)) ]; then
  ok "ratelimit $RATE: a burst of 300 gets $got answers, $((rl1 - rl0)) dropped and counted"
else
  bad "ratelimit $RATE: the burst is limited" \
    "answered '$got', num.ratelimited $rl0 -> $rl1" "$WORK/burst.out"
fi
got=$(burst 127.0.0.1 40)
if [ "${got:-0}" -eq 40 ]; then
  ok "another client, under its limit, is not affected (40 of 40)"
else
  bad "another client is not affected" "$got of 40" "$WORK/burst.out"
fi
cc_stop
start_cc "ratelimit: $RATE"
dig +time=3 +tries=1 "@$CC_IP" www.example.lab A >/dev/null 2>&1
rl0=$(cc_stat num.ratelimited)
got=$(burst "$CC_IP" 300)
rl1=$(cc_stat num.ratelimited)
if [ "${got:-0}" -ge 290 ] && [ "$rl1" = "$rl0" ]; then
  ok "loopback is exempt by default ($got of 300 answered, none limited)"
else
  bad "loopback is exempt by default" \
    "$got of 300; num.ratelimited $rl0 -> $rl1" "$WORK/burst.out"
fi
cc_stop

san_check
e2e_finish
