#!/bin/sh
# tests/bench/resolvers.sh: curvecache, Unbound and dqcache side by side on
# the loopback lab, in one invocation; prints a markdown table with the
# ratios curvecache/peer. Not part of make check (minutes, root, packages).
#
# Usage (from the build directory, as root; or `make bench-resolvers`):
#   sh ../tests/bench/resolvers.sh
# Environment: BENCH_RUNS (runs per figure, median taken; default 3),
# BENCH_SECONDS (length of a rate run; default 10), BENCH_THREADS (the
# "threads: N" rows besides 1; default 2; empty: none), BENCH_OUT (also
# write the table there), CURVECACHE, ECHO (the programs; default ./...).
#
# What it does (each process started here is stopped by its pid):
# - sh etc/setup.sh --bench (unbound, dqcache, dnsperf), the lab
#   (tests/lab/lab.sh, under its lock).
# - Each resolver on its own address of 127.53.100.0/24, sending its
#   upstream queries from it, pinned to core 0 (taskset); dnsperf on
#   core 1. curvecache 127.53.100.11 (cache-size 64m), Unbound
#   127.53.100.12 (1 thread, msg + rrset cache 32m + 32m, module-config
#   "iterator": no validation, no trust anchor, the lab root hints,
#   do-not-query-localhost: no), dqcache 127.53.100.13 (CACHESIZE 64 MiB,
#   servers/@ = the lab root; its per-query log goes to /dev/null), the
#   trivial responder tests/bench/echo_responder 127.53.100.14.
# - The peers are measured in turns within each of BENCH_RUNS rounds
#   (all of them up at once, idle but for the one being measured), so
#   that a slow spell of the shared machine falls on all alike; every
#   figure is the median over the rounds.
# - (1) cache hits: 10,000 names nN.wild.example.lab (a wildcard of the
#   lab) warmed, then dnsperf at saturation (4 sockets, 100 queries
#   outstanding) for BENCH_SECONDS: QPS, the resolver's CPU time
#   (utime + stime of /proc/PID/stat, and each part) per answered query,
#   and how busy dnsperf's core was (near 100 %: dnsperf, not the
#   resolver, set the rate); latency p50/p99 from dnsperf -v (each
#   answer's latency) at saturation and at a fixed 100k queries/s
#   (-Q 100000).
# - (2) cold: a fresh process, 1,000 distinct names cN.wild.example.lab
#   once each (dnsperf -n 1, 100 outstanding): wall time (dnsperf's run
#   time), the resolver's CPU time, and upstream queries per name,
#   counted on the wire (every packet from the resolver's address to a
#   port 53: upcount.py).
# - (3) the same for 1,000 names in the DNSCurve zone secure.curve.
#   (root -> curve. -> secure.curve., both behind CurveDNS): curvecache,
#   dqcache, and curvecache with "curve: no" (the same servers asked in
#   plain DNS, from 127.53.100.15); then their cache-hit rates on those
#   names.
# - (4) peak RSS (VmHWM) after (1); bytes per cached name as the RSS
#   growth over a second 10,000 names (mN...) per name, and, for
#   comparison, over the first 10,000 (start-up allocations included).
# - (5) the limit: echo_responder under the same load; curvecache/limit
#   CPU per query.
# - curvecache with threads: N (sockets SO_REUSEPORT), N cores, dnsperf
#   unpinned: QPS, and CPU per query.
set -u
srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
RUNS=${BENCH_RUNS:-3}
SECS=${BENCH_SECONDS:-10}
THREADS=${BENCH_THREADS-2}
CURVECACHE=${CURVECACHE:-$(pwd)/curvecache}
ECHO=${ECHO:-$(pwd)/tests/bench/echo_responder}
NAMES=10000
COLD=1000
CC_IP=127.53.100.11
CP_IP=127.53.100.15
UB_IP=127.53.100.12
DQ_IP=127.53.100.13
EC_IP=127.53.100.14

die() { echo "resolvers.sh: $*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || die "needs root (the lab and port 53)"
sh "$srcdir/etc/setup.sh" --bench || die "etc/setup.sh --bench failed"
for t in unbound dqcache dnsperf taskset flock python3 dig
do
  command -v $t >/dev/null 2>&1 || die "$t not installed"
done
[ -x "$CURVECACHE" ] || die "$CURVECACHE not built"
[ -x "$ECHO" ] || die "$ECHO not built (make tests/bench/echo_responder)"
[ "$(nproc)" -ge 2 ] || die "needs 2 cores (resolver and dnsperf apart)"

# shellcheck source=tests/bench/bench_lib.sh
. "$srcdir/tests/bench/bench_lib.sh"
bench_lab_start bench_resolvers

names() { # COUNT PREFIX ZONE
  awk -v n="$1" -v p="$2" -v z="$3" \
    'BEGIN { for (i = 1; i <= n; i++) printf "%s%d.wild.%s A\n", p, i, z }'
}
names $NAMES n example.lab >"$WORK/hot"
names $NAMES m example.lab >"$WORK/hot2"
names $NAMES n secure.curve >"$WORK/hot_curve"
names $COLD c example.lab >"$WORK/cold"
names $COLD c secure.curve >"$WORK/cold_curve"

# ---------------------------------------------------------------- starting
# Each start_* sets PID; CPUS is the taskset core list.
CPUS=0
start_dq() {
  rm -rf "$WORK/dq"
  mkdir -p "$WORK/dq/servers"
  echo "$LAB_ROOT_IP" >"$WORK/dq/servers/@"
  chmod -R a+rX "$WORK/dq"
  nobody=$(id -u nobody)
  nogroup=$(id -g nobody)
  taskset -c "$CPUS" env -i PATH=/usr/sbin:/usr/bin:/bin \
    ROOT="$WORK/dq" IP=$DQ_IP IPSEND4=$DQ_IP CACHESIZE=67108864 \
    UID="$nobody" GID="$nogroup" DISABLEIPV6=1 dqcache \
    </dev/null >/dev/null 2>"$WORK/dqcache.log" 9>&- &
  PID=$!
  PIDS="$PIDS $PID"
  wait_answer $DQ_IP || { cat "$WORK/dqcache.log"; die "dqcache"; }
}
start_echo() {
  launch echo "$ECHO" $EC_IP 53
  n=0
  while ! dig +time=1 +tries=1 "@$EC_IP" x.example A >/dev/null 2>&1; do
    n=$((n + 1)); [ $n -lt 50 ] || die "echo_responder"
    sleep 0.1
  done
}

# ---------------------------------------------------------------- measuring
# mem_warm NAME PID IP: warm the 10,000 hot names, then 10,000 more;
# NAME.bpn1 (RSS growth over the first 10,000
# per name, start-up allocations included), NAME.bpn (growth per name
# over the second 10,000: the marginal cost of a cached name).
mem_warm() {
  r0=$(rss_kb "$2" VmRSS)
  warm "$3" "$WORK/hot"
  r1=$(rss_kb "$2" VmRSS)
  warm "$3" "$WORK/hot2"
  r2=$(rss_kb "$2" VmRSS)
  awk -v a="$r0" -v b="$r1" -v c="$r2" -v n=$NAMES -v o="$WORK/$1" \
    'BEGIN { printf "%.0f\n", (b - a) * 1024 / n > (o ".bpn1.m")
             printf "%.0f\n", (c - b) * 1024 / n > (o ".bpn.m") }'
}

# ---------------------------------------------------------------- the runs
# Peers are measured in turns within each round (cold starts, then
# rate runs, then latency runs), so a slow spell of the shared machine
# falls on all of them alike; the table takes each figure's median.
r=0
while [ "$r" -lt "$RUNS" ]; do
  progress "cold, round $((r + 1)) of $RUNS: curvecache, unbound, dqcache," \
    "DNSCurve zone: curvecache, dqcache, curvecache plain"
  cold_once cc $CC_IP "$WORK/cold" start_cc $CC_IP
  cold_once ub $UB_IP "$WORK/cold" start_ub
  cold_once dq $DQ_IP "$WORK/cold" start_dq
  cold_once ccC $CC_IP "$WORK/cold_curve" start_cc $CC_IP
  cold_once dqC $DQ_IP "$WORK/cold_curve" start_dq
  cold_once ccP $CC_IP "$WORK/cold_curve" start_cc $CC_IP "curve: no"
  r=$((r + 1))
done
for n in cc ub dq ccC dqC ccP; do medians $n.wall $n.up $n.cpums; done

progress "cache hits: every resolver up and warmed"
start_cc $CC_IP; CC_PID=$PID
start_cc $CP_IP "curve: no"; CP_PID=$PID
start_ub; UB_PID=$PID
start_dq; DQ_PID=$PID
start_echo; EC_PID=$PID
mem_warm cc $CC_PID $CC_IP
mem_warm ub $UB_PID $UB_IP
mem_warm dq $DQ_PID $DQ_IP
warm $CC_IP "$WORK/hot_curve"
warm $CP_IP "$WORK/hot_curve"
warm $DQ_IP "$WORK/hot_curve"
r=0
while [ "$r" -lt "$RUNS" ]; do
  progress "cache hits, round $((r + 1)) of $RUNS"
  hits_once cc $CC_PID $CC_IP "$WORK/hot"
  hits_once ub $UB_PID $UB_IP "$WORK/hot"
  hits_once dq $DQ_PID $DQ_IP "$WORK/hot"
  hits_once ec $EC_PID $EC_IP "$WORK/hot"
  hits_once ccC $CC_PID $CC_IP "$WORK/hot_curve"
  hits_once ccP $CP_PID $CP_IP "$WORK/hot_curve"
  hits_once dqC $DQ_PID $DQ_IP "$WORK/hot_curve"
  r=$((r + 1))
done
for n in cc ub dq ec ccC ccP dqC; do
  medians $n.qps $n.cpu $n.usr $n.sys $n.dpbusy
done
for n in cc:$CC_PID ub:$UB_PID dq:$DQ_PID; do
  rss_kb "${n#*:}" VmHWM >"$WORK/${n%%:*}.hwm.m"
done
r=0
while [ "$r" -lt "$RUNS" ]; do
  progress "latency, round $((r + 1)) of $RUNS"
  for n in cc:$CC_IP ub:$UB_IP dq:$DQ_IP ec:$EC_IP; do
    lat_once "${n%%:*}" "${n#*:}" "$WORK/hot" sat
    lat_once "${n%%:*}" "${n#*:}" "$WORK/hot" q100k -Q 100000
  done
  r=$((r + 1))
done
for n in cc ub dq ec; do
  medians $n.sat.p50 $n.sat.p99 $n.q100k.p50 $n.q100k.p99
done
for p in $CC_PID $CP_PID $UB_PID $DQ_PID $EC_PID; do stop_pid "$p"; done

for nt in $THREADS; do
  progress "curvecache threads: $nt"
  CPUS=0-$(($(nproc) - 1)); DP_CPUS=$CPUS
  start_cc $CC_IP "threads: $nt"; warm $CC_IP "$WORK/hot"
  r=0
  while [ "$r" -lt "$RUNS" ]; do
    hits_once "cct$nt" "$PID" $CC_IP "$WORK/hot"; r=$((r + 1))
  done
  medians "cct$nt.qps" "cct$nt.cpu"
  stop_pid "$PID"
  CPUS=0; DP_CPUS=1
done

# ---------------------------------------------------------------- the table
row() { # LABEL CC UB DQ LIMIT (file stems or "-")
  c=$(v "$2"); u=-; d=-; l=-
  [ "$3" != - ] && u=$(v "$3"); [ "$4" != - ] && d=$(v "$4")
  [ "$5" != - ] && l=$(v "$5")
  ru=-; rd=-; rl=-
  [ "$u" != - ] && ru=$(ratio "$c" "$u")
  [ "$d" != - ] && rd=$(ratio "$c" "$d")
  [ "$l" != - ] && rl=$(ratio "$c" "$l")
  echo "| $1 | $c | $u | $d | $l | $ru | $rd | $rl |"
}
{
  echo "curvecache benchmark, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc)" \
    "cores, $(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)"
  echo "(Unbound $(unbound -V 2>/dev/null | awk '/^Version/ { print $2 }')," \
    "dqcache $(dpkg-query -W -f='${Version}' dqcache 2>/dev/null)," \
    "dnsperf $(dpkg-query -W -f='${Version}' dnsperf 2>/dev/null);" \
    "medians of $RUNS runs of ${SECS} s; resolver on core 0, dnsperf on" \
    "core 1)"
  echo
  echo "| measure | curvecache | Unbound | dqcache | limit |" \
    "cc/Unbound | cc/dqcache | cc/limit |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
  row "(1) cache hits, queries/s" cc.qps ub.qps dq.qps ec.qps
  row "(1) CPU per answered query, us" cc.cpu ub.cpu dq.cpu ec.cpu
  row "(1) of which user space, us" cc.usr ub.usr dq.usr ec.usr
  row "(1) of which kernel, us" cc.sys ub.sys dq.sys ec.sys
  row "(1) dnsperf's core busy, %" cc.dpbusy ub.dpbusy dq.dpbusy ec.dpbusy
  row "(1) latency p50 at saturation, us" cc.sat.p50 ub.sat.p50 \
    dq.sat.p50 ec.sat.p50
  row "(1) latency p99 at saturation, us" cc.sat.p99 ub.sat.p99 \
    dq.sat.p99 ec.sat.p99
  row "(1) latency p50 at 100k q/s, us" cc.q100k.p50 ub.q100k.p50 \
    dq.q100k.p50 ec.q100k.p50
  row "(1) latency p99 at 100k q/s, us" cc.q100k.p99 ub.q100k.p99 \
    dq.q100k.p99 ec.q100k.p99
  row "(2) cold 1,000 names, wall s" cc.wall ub.wall dq.wall -
  row "(2) cold upstream queries per name" cc.up ub.up dq.up -
  row "(2) cold resolver CPU time, ms" cc.cpums ub.cpums dq.cpums -
  row "(3) DNSCurve zone cold, wall s" ccC.wall - dqC.wall ccP.wall
  row "(3) DNSCurve zone upstream queries per name" ccC.up - dqC.up ccP.up
  row "(3) DNSCurve zone cold resolver CPU time, ms" ccC.cpums - \
    dqC.cpums ccP.cpums
  row "(3) DNSCurve zone cache hits, queries/s" ccC.qps - dqC.qps ccP.qps
  row "(3) DNSCurve zone CPU per hit, us" ccC.cpu - dqC.cpu ccP.cpu
  row "(4) peak RSS after (1), kB" cc.hwm ub.hwm dq.hwm -
  row "(4) RSS per cached name (names 10,001-20,000), bytes" \
    cc.bpn ub.bpn dq.bpn -
  row "(4) RSS growth over the first 10,000 names, bytes/name" \
    cc.bpn1 ub.bpn1 dq.bpn1 -
  for nt in $THREADS; do
    row "threads: $nt, cache hits queries/s (all cores shared)" \
      "cct$nt.qps" - - cc.qps
    row "threads: $nt, CPU per answered query, us" "cct$nt.cpu" - - cc.cpu
  done
  echo
  echo "In the (3) rows the \"limit\" column is curvecache with" \
    "\"curve: no\" (the same zones asked in plain DNS); in the threads" \
    "rows it is curvecache with 1 thread. dqcache allocates and touches" \
    "its whole cache (CACHESIZE, 64 MiB here) at start, so its RSS hardly" \
    "grows per name. CPU per query is user + system time of the resolver" \
    "process over the run, divided by the answers dnsperf received."
} >"$WORK/table.md"
cat "$WORK/table.md"
[ -n "${BENCH_OUT:-}" ] && cp "$WORK/table.md" "$BENCH_OUT"
exit 0
