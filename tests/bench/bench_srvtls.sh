#!/bin/sh
# tests/bench/bench_srvtls.sh: curvecache and Unbound 1.17 serving DNS
# over TLS and DNS over HTTPS to clients on the same machine (issue 25's
# benchmark). Prints a markdown table with ratios curvecache/Unbound. Not
# part of make check (root, packages, about 5 minutes).
#
# Usage (from the build directory, as root; or `make bench-srvtls`):
#   sh ../tests/bench/bench_srvtls.sh
# Environment: BENCH_RUNS (rounds, medians taken; default 3),
# BENCH_SECONDS (each throughput run; default 8), BENCH_HS_SECONDS (each
# handshake run; default 5), BENCH_CONNS (dnsperf's persistent
# connections; default 100), BENCH_IDLE (idle connections for the memory
# per connection; default 200), BENCH_MANY (default 5000), BENCH_OUT
# (also write the table there), CURVECACHE (./curvecache).
#
# Set-up: a test CA and a certificate for dns.lab made here with openssl,
# the same for both; each resolver one thread, pinned to core 0, on its
# own address (curvecache 127.53.125.11, Unbound 127.53.125.12) with DoT
# on 853 and DoH on 443 (/dns-query); 100 names n1..n100.bench.lab
# answered from local-data in both (so every answer is "cached": no
# upstream, no lab); the clients run on core 1. Unbound's
# incoming-num-tcp is raised to BENCH_MANY + 100; curvecache has no
# such setting (server.h: SERVER_TCP_CONNS_MAX connections per worker,
# the oldest idle one closed to make room).
#
# In each round, curvecache first, then Unbound (each figure is the
# median over the rounds; each resolver started fresh for each part):
# - throughput: dnsperf -m dot, then -m doh (GET), -c BENCH_CONNS
#   persistent connections, -q 5 x BENCH_CONNS outstanding, for
#   BENCH_SECONDS: queries/s, the resolver's CPU (utime + stime from
#   /proc/PID/stat) per answered query, and dnsperf's (its rusage): on a
#   shared machine the rate depends on the share of core 1 the client
#   gets, the CPU per query much less;
# - handshakes: dnsperf -m dot -O num-queries-per-conn=1: each of the
#   BENCH_CONNS clients connects, makes a full TLS handshake (dnsperf
#   does not resume sessions), asks one question, gets its answer and
#   closes; handshakes/s is its queries/s, with the resolver's CPU per
#   handshake (dnsperf, a C client, rather than a Python loop, so that
#   the client is less often the limit);
# - memory per idle connection: tests/bench/tlsidle.py opens BENCH_IDLE
#   TLS connections (DoT: nothing sent; DoH: the HTTP/2 preface and
#   SETTINGS) and holds them; the growth of the resolver's VmRSS over
#   its RSS after start, divided by BENCH_IDLE;
# - BENCH_MANY idle DoT connections: the resolver's VmRSS with them
#   opened, how many the resolver still held 2 s later, and whether a
#   fresh DoT client was answered then (the try it took).
set -u
srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
CURVECACHE=${CURVECACHE:-$(pwd)/curvecache}
RUNS=${BENCH_RUNS:-3} SECS=${BENCH_SECONDS:-8} HS_SECS=${BENCH_HS_SECONDS:-5}
CONNS=${BENCH_CONNS:-100} IDLE=${BENCH_IDLE:-200} MANY=${BENCH_MANY:-5000}
CC_IP=127.53.125.11 UB_IP=127.53.125.12 NAME=dns.lab NAMES=100

die() { echo "bench_srvtls.sh: $*" >&2; exit 1; }
# shellcheck source=tests/bench/bench_lib.sh
. "$srcdir/tests/bench/bench_lib.sh"
bench_need unbound dnsperf taskset flock dig openssl python3
bench_work bench_srvtls
# file descriptors: Unbound counts incoming-num-tcp per TCP interface
# (ulimit -n: dash and bash have it)
fds=$((MANY * 4 + 2000))
# shellcheck disable=SC3045
hard=$(ulimit -Hn)
[ "$hard" != unlimited ] && [ "$hard" -lt $fds ] && fds=$hard
# shellcheck disable=SC3045
ulimit -n "$fds" || die "ulimit -n $fds"

# a root that is not there: nothing here goes upstream
LAB_ROOT_HINTS=$WORK/root.hints
printf '. 3600000 NS a.root.lab.\na.root.lab. 3600000 A 127.53.125.99\n' \
  >"$LAB_ROOT_HINTS"
P=$WORK/pki
mkdir -p "$P"
{
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
    -keyout "$P/ca.key" -out "$P/ca.pem" -subj "/CN=bench test CA" \
    -days 2 &&
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
      -keyout "$P/srv.key" -out "$P/srv.pem" -subj "/CN=$NAME" \
      -CA "$P/ca.pem" -CAkey "$P/ca.key" -days 2 \
      -addext "subjectAltName=DNS:$NAME" \
      -addext "basicConstraints=CA:FALSE"
} >"$P/openssl.log" 2>&1 || { cat "$P/openssl.log"; die "openssl"; }

awk -v n=$NAMES 'BEGIN { for (i = 1; i <= n; i++)
  printf "n%d.bench.lab A\n", i }' >"$WORK/names"
awk -v n=$NAMES 'BEGIN { for (i = 1; i <= n; i++)
  printf "local-data: \"n%d.bench.lab. 300 IN A 192.0.2.%d\"\n", i,
    i % 250 + 1 }' >"$WORK/local.conf"

cc_go() {
  start_cc "$CC_IP" "threads: 1" "listen: $CC_IP@853" "listen: $CC_IP@443" \
    "tls-service-key: $P/srv.key" "tls-service-pem: $P/srv.pem" \
    "include: $WORK/local.conf"
}
UB_LINES=$(
  printf '\tinterface: %s@853\n\tinterface: %s@443\n' "$UB_IP" "$UB_IP"
  printf '\ttls-port: 853\n\thttps-port: 443\n\thttp-endpoint: "/dns-query"\n'
  printf '\ttls-service-key: "%s"\n\ttls-service-pem: "%s"\n' \
    "$P/srv.key" "$P/srv.pem"
  printf '\tincoming-num-tcp: %d\n\toutgoing-range: 64\n' $((MANY + 100))
  sed 's/^/\t/' "$WORK/local.conf"
)
export UB_LINES
go() { if [ "$1" = cc ]; then cc_go; else start_ub; fi; }

# qrun TAG PID IP SECONDS [dnsperf options]: one dnsperf run; appends
# queries/s to TAG.qps, the resolver's CPU per answered query (us) to
# TAG.cpu and dnsperf's own CPU per answered query (us; its rusage, not
# its core's busy time, which the other work on a shared machine fills)
# to TAG.dp.
qrun() {
  qn=$1; qpid=$2; qip=$3; qs=$4; shift 4
  t0=$(cpu_ticks "$qpid")
  taskset -c "${DP_CPUS:-1}" python3 -c "$RUSAGE" dnsperf -s "$qip" \
    -d "$WORK/names" -c "$CONNS" -q $((CONNS * 5)) -t 2 -l "$qs" \
    -O suppress=timeouts,congestion "$@" >"$WORK/$qn.out" 2>&1 9>&-
  t1=$(cpu_ticks "$qpid")
  q=$(field "$WORK/$qn.out" "Queries completed")
  [ "${q:-0}" -gt 0 ] 2>/dev/null ||
    { cat "$WORK/$qn.out"; die "$qn: no answer"; }
  field "$WORK/$qn.out" "Queries per second" >>"$WORK/$qn.qps"
  awk -v a="$t0" -v b="$t1" -v q="$q" -v hz="$CLK" \
    'BEGIN { printf "%.2f\n", (b - a) / hz / q * 1e6 }' >>"$WORK/$qn.cpu"
  awk -v q="$q" '$1 == "client-cpu-seconds" {
    printf "%.2f\n", $2 / q * 1e6 }' "$WORK/$qn.out" >>"$WORK/$qn.dp"
}
# a command run with its CPU time (user + system) printed after it
RUSAGE='import os, resource, sys
os.spawnvp(os.P_WAIT, sys.argv[1], sys.argv[1:])
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print("client-cpu-seconds", r.ru_utime + r.ru_stime)'

# idle TAG PORT ALPN N: tlsidle.py against a fresh resolver ($PID);
# appends the RSS growth per connection (kB) to TAG.per, the RSS with
# them (MB) to TAG.rss, and "opened failed held fresh" to TAG.line.
idle() {
  in=$1; iport=$2; ialpn=$3; inum=$4
  sleep 0.5
  r0=$(rss_kb "$PID" VmRSS)
  rm -f "$WORK/ready"
  taskset -c "${DP_CPUS:-1}" python3 "$srcdir/tests/bench/tlsidle.py" \
    "$IP" "$iport" "$P/ca.pem" "$NAME" "$inum" "$ialpn" 2 "$WORK/ready" \
    >"$WORK/$in.out" 2>&1 9>&- &
  ipy=$!
  PIDS="$PIDS $ipy"
  n=0
  until [ -s "$WORK/ready" ]; do
    n=$((n + 1)); [ $n -lt 1200 ] || die "tlsidle.py: no connections in 60 s"
    kill -0 "$ipy" 2>/dev/null || { cat "$WORK/$in.out"; die "tlsidle.py"; }
    sleep 0.05
  done
  sleep 0.5
  r1=$(rss_kb "$PID" VmRSS)
  wait "$ipy"
  PIDS=$(echo "$PIDS" | tr ' ' '\n' | grep -vx "$ipy" | tr '\n' ' ')
  awk -v a="$r0" -v b="$r1" -v n="$inum" \
    'BEGIN { printf "%.1f\n", (b - a) / n }' >>"$WORK/$in.per"
  awk -v b="$r1" 'BEGIN { printf "%.1f\n", b / 1024 }' >>"$WORK/$in.rss"
  awk '{ print $2, $4, $6, $8 }' "$WORK/$in.out" >>"$WORK/$in.line"
}

# one NAME: a round's parts for resolver NAME (cc or ub).
one() {
  on=$1
  IP=$CC_IP; [ "$on" = ub ] && IP=$UB_IP
  go "$on"
  qrun "$on.dot" "$PID" "$IP" "$SECS" -m dot
  qrun "$on.doh" "$PID" "$IP" "$SECS" -m doh \
    -O "doh-uri=https://$NAME/dns-query"
  qrun "$on.hs" "$PID" "$IP" "$HS_SECS" -m dot -O num-queries-per-conn=1
  stop_pid "$PID"
  go "$on"; idle "$on.idot" 853 dot "$IDLE"; stop_pid "$PID"
  go "$on"; idle "$on.idoh" 443 h2 "$IDLE"; stop_pid "$PID"
  go "$on"; idle "$on.many" 853 dot "$MANY"; stop_pid "$PID"
}

r=0
while [ $r -lt "$RUNS" ]; do
  r=$((r + 1))
  progress "round $r of $RUNS: curvecache"
  one cc
  progress "round $r of $RUNS: Unbound"
  one ub
done
for n in cc ub; do
  medians "$n.dot.qps" "$n.dot.cpu" "$n.dot.dp" "$n.doh.qps" \
    "$n.doh.cpu" "$n.doh.dp" "$n.hs.qps" "$n.hs.cpu" "$n.hs.dp" \
    "$n.idot.per" "$n.idoh.per" "$n.many.rss"
  for k in 1 2 3 4; do
    awk -v k=$k '{ print $k }' "$WORK/$n.many.line" >"$WORK/$n.many.$k"
    medians "$n.many.$k"
  done
done
row() { # LABEL STEM
  echo "| $1 | $(v "cc.$2") | $(v "ub.$2") | $(ratio "$(v "cc.$2")" "$(v "ub.$2")") |"
}

{
  echo "curvecache serving DoT and DoH beside Unbound," \
    "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores"
  echo "($(unbound -V | head -n 1 | sed 's/Version/Unbound/'), dnsperf" \
    "$(dpkg-query -W -f='${Version}' dnsperf 2>/dev/null); medians of" \
    "$RUNS rounds; resolver one thread on core 0, clients on core 1;" \
    "$CONNS persistent connections, runs of $SECS s, handshakes $HS_SECS s)"
  echo
  echo "| measure | curvecache | Unbound | cc/Unbound |"
  echo "| --- | ---: | ---: | ---: |"
  row "DoT queries/s" dot.qps
  row "DoT CPU per query, us" dot.cpu
  row "DoT dnsperf's CPU per query, us" dot.dp
  row "DoH queries/s" doh.qps
  row "DoH CPU per query, us" doh.cpu
  row "DoH dnsperf's CPU per query, us" doh.dp
  row "DoT handshakes/s (one query each)" hs.qps
  row "CPU per handshake, us" hs.cpu
  row "handshakes: dnsperf's CPU per handshake, us" hs.dp
  row "RSS per idle DoT connection ($IDLE), kB" idot.per
  row "RSS per idle DoH connection ($IDLE), kB" idoh.per
  row "RSS with $MANY idle DoT connections opened, MB" many.rss
  row "of the $MANY: handshakes completed" many.1
  row "of the $MANY: still open 2 s later" many.3
  row "then a fresh DoT client answered at try (0: not)" many.4
} >"$WORK/table"
cat "$WORK/table"
[ -n "${BENCH_OUT:-}" ] && cp "$WORK/table" "$BENCH_OUT"
exit 0
