#!/bin/sh
# tests/bench/bench_localzone.sh: a block list of 100,000 always_nxdomain
# local zones in curvecache and in Unbound 1.17 (issue 22 item 4): how
# long each takes to load it, and what it costs a cache hit. Prints a
# markdown table. Not part of make check (root, packages, a minute or
# two); its checks of the answers are tests/e2e/localzone_lab.sh.
#
# Usage (from the build directory, as root; or `make bench-localzone`):
#   sh ../tests/bench/bench_localzone.sh
# Environment: BENCH_ZONES (default 100000), BENCH_RUNS (rounds, median
# taken; default 3), BENCH_SECONDS (each dnsperf run; default 5),
# BENCH_OUT (also write the table there), CURVECACHE (./curvecache).
#
# What it does (each process started here is stopped by its pid):
# - the list: BENCH_ZONES lines 'local-zone: "adNNNNN.example."
#   always_nxdomain', the same text in both configurations (Unbound's
#   indented under server:).
# - load: curvecache -t of the config with the list (and without), and
#   unbound-checkconf likewise (wall ms); then each daemon started fresh,
#   with and without the list, timed from the start to its first answer
#   (dig polled every 10 ms), and its RSS (VmRSS) after that answer.
# - cache hits: 1,000 names nN.wild.example.lab of the lab, warmed, then
#   dnsperf for BENCH_SECONDS on core 1 with the resolver pinned to core
#   0 (one thread each): queries/s with and without the list; and the
#   same for 1,000 names under the listed zones (answered from the list).
# - The resolvers are measured in turns within each round; each figure
#   is the median over the rounds.
set -u
srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
CURVECACHE=${CURVECACHE:-$(pwd)/curvecache}
ZONES=${BENCH_ZONES:-100000} RUNS=${BENCH_RUNS:-3} SECS=${BENCH_SECONDS:-5}
CC_IP=127.54.101.11 UB_IP=127.54.101.12 HOT=1000

die() { echo "bench_localzone.sh: $*" >&2; exit 1; }
# shellcheck source=tests/bench/bench_lib.sh
. "$srcdir/tests/bench/bench_lib.sh"
bench_need unbound unbound-checkconf dnsperf taskset flock dig
bench_lab_start bench_localzone

awk -v n="$ZONES" 'BEGIN { for (i = 0; i < n; i++)
  printf "local-zone: \"ad%05d.example.\" always_nxdomain\n", i }' \
  >"$WORK/list.conf"
sed 's/^/\t/' "$WORK/list.conf" >"$WORK/list.ub"
awk -v n=$HOT 'BEGIN { for (i = 1; i <= n; i++)
  printf "n%d.wild.example.lab A\n", i }' >"$WORK/hot"
awk -v n=$HOT -v z="$ZONES" 'BEGIN { for (i = 0; i < n; i++)
  printf "www.ad%05d.example A\n", int(i * z / n) }' >"$WORK/blocked"

now_ms() { echo $(($(date +%s%N) / 1000000)); }
# first_answer IP: ms from now until IP answers (dig every 10 ms, 60 s).
first_answer() {
  fa0=$(now_ms)
  n=0
  until dig +time=1 +tries=1 "@$1" localhost A >/dev/null 2>&1; do
    kill -0 "$PID" 2>/dev/null || return 1
    n=$((n + 1)); [ $n -lt 6000 ] || return 1
    sleep 0.01
  done
  echo $(($(now_ms) - fa0))
}
# timed FILE CMD...: the wall ms of CMD appended to FILE.
timed() {
  tf=$1; shift
  t0=$(now_ms)
  "$@" >/dev/null 2>&1 9>&- || die "failed: $*"
  echo $(($(now_ms) - t0)) >>"$WORK/$tf"
}

cc_conf() { # FILE [with]: curvecache's config, the list included or not
  {
    echo "listen: $CC_IP@53"
    echo "outgoing-interface: $CC_IP"
    echo "root-hints: $LAB_ROOT_HINTS"
    echo "dnssec: no"
    echo "do-not-query-localhost: no"
    echo "do-ip6: no"
    echo "cache-size: 64m"
    echo "threads: 1"
    echo "user:"
    echo "control-socket:"
    echo "log-level: warn"
    [ "${2:-}" = with ] && echo "include: $WORK/list.conf"
  } >"$1"
}
ub_conf() { # FILE [with]
  mkdir -p "$WORK/ub"
  {
    printf 'server:\n\tusername: ""\n\tchroot: ""\n\tdirectory: "%s"\n' \
      "$WORK/ub"
    printf '\tpidfile: ""\n\tuse-syslog: no\n\tlogfile: "%s"\n' \
      "$WORK/ub/unbound.log"
    printf '\tverbosity: 0\n\tinterface: %s@53\n\toutgoing-interface: %s\n' \
      "$UB_IP" "$UB_IP"
    printf '\tnum-threads: 1\n\tdo-ip6: no\n\tdo-not-query-localhost: no\n'
    printf '\troot-hints: "%s"\n\tmodule-config: "iterator"\n' \
      "$LAB_ROOT_HINTS"
    printf '\tmsg-cache-size: 32m\n\trrset-cache-size: 32m\n'
    printf '\taccess-control: 127.0.0.0/8 allow\n'
    [ "${2:-}" = with ] && cat "$WORK/list.ub"
    printf 'remote-control:\n\tcontrol-enable: no\n'
  } >"$1"
}
cc_conf "$WORK/cc.conf"
cc_conf "$WORK/cc-list.conf" with
ub_conf "$WORK/ub.conf"
ub_conf "$WORK/ub-list.conf" with

# one NAME CMD...: start, time the first answer, RSS, warm, the runs.
one() {
  on=$1; oip=$2; shift 2
  launch "$on" "$@"
  ms=$(first_answer "$oip") || { cat "$WORK/$on.log"; die "$on"; }
  echo "$ms" >>"$WORK/$on.start"
  rss_kb "$PID" VmRSS | awk '{ printf "%.1f\n", $1 / 1024 }' \
    >>"$WORK/$on.rss"
  warm "$oip" "$WORK/hot"
  hits_once "$on.hot" "$PID" "$oip" "$WORK/hot"
  case $on in
    *list) hits_once "$on.blk" "$PID" "$oip" "$WORK/blocked" ;;
  esac
  stop_pid "$PID"
}

r=0
while [ $r -lt "$RUNS" ]; do
  r=$((r + 1))
  timed cc.t "$CURVECACHE" -t -c "$WORK/cc.conf"
  timed cclist.t "$CURVECACHE" -t -c "$WORK/cc-list.conf"
  timed ub.t unbound-checkconf "$WORK/ub.conf"
  timed ublist.t unbound-checkconf "$WORK/ub-list.conf"
  one cc $CC_IP "$CURVECACHE" -f -c "$WORK/cc.conf"
  one cclist $CC_IP "$CURVECACHE" -f -c "$WORK/cc-list.conf"
  one ub $UB_IP unbound -d -c "$WORK/ub.conf"
  one ublist $UB_IP unbound -d -c "$WORK/ub-list.conf"
done
for n in cc cclist ub ublist; do
  medians "$n.t" "$n.start" "$n.rss" "$n.hot.qps"
done
medians cclist.blk.qps ublist.blk.qps
m() { cat "$WORK/$1.m"; }

{
  echo "curvecache local zones, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores"
  echo "($ZONES always_nxdomain zones; $(unbound -V | head -n 1 |
    sed 's/Version/Unbound/'); medians of $RUNS runs, dnsperf runs of" \
    "$SECS s; resolver on core 0, one thread, dnsperf on core 1)"
  echo
  echo "| measure | curvecache | Unbound |"
  echo "| --- | ---: | ---: |"
  echo "| check the config (-t / unbound-checkconf), no list, ms | $(m cc.t) | $(m ub.t) |"
  echo "| check the config, with the list, ms | $(m cclist.t) | $(m ublist.t) |"
  echo "| start to first answer, no list, ms | $(m cc.start) | $(m ub.start) |"
  echo "| start to first answer, with the list, ms | $(m cclist.start) | $(m ublist.start) |"
  echo "| RSS after start, no list, MB | $(m cc.rss) | $(m ub.rss) |"
  echo "| RSS after start, with the list, MB | $(m cclist.rss) | $(m ublist.rss) |"
  echo "| cache hits, no list, queries/s | $(m cc.hot.qps) | $(m ub.hot.qps) |"
  echo "| cache hits, with the list, queries/s | $(m cclist.hot.qps) | $(m ublist.hot.qps) |"
  echo "| listed names (NXDOMAIN from the list), queries/s | $(m cclist.blk.qps) | $(m ublist.blk.qps) |"
} >"$WORK/table"
cat "$WORK/table"
[ -n "${BENCH_OUT:-}" ] && cp "$WORK/table" "$BENCH_OUT"
exit 0
