#!/bin/sh
# tests/bench/bench_validate.sh: curvecache validating against Unbound
# validating, side by side on the signed lab (tests/lab/signed.sh), in one
# invocation; prints markdown tables of the figures and their ratios. Not
# part of make check (minutes, root, packages).
#
# Usage (from the build directory, as root; or `make bench-validate`):
#   sh ../tests/bench/bench_validate.sh
# Environment: BENCH_RUNS (rounds, median taken; default 3),
# BENCH_COLD_RUNS (rounds of the cold runs (1); default 3 x BENCH_RUNS:
# a cold run of 1,000 names is 30-200 ms of CPU, where one slow spell of
# the shared machine moves a single figure by 10-30 %), BENCH_TRACE and
# BENCH_PERF (a directory: each cold run traced there, bench_lib.sh),
# BENCH_SECONDS (length of a rate run; default 10), BENCH_NAMES (names
# in each bench zone; default 10000; the cold runs take the first 1,000),
# BENCH_RATE (queries/s of the fixed-rate hit runs; default 30000),
# BENCH_FLOOD_RATE (queries/s of the flood of (4); default 200),
# BENCH_OUT (also write the tables there), CURVECACHE (default
# ./curvecache), BENCH_COLD=1 (the cold runs (1) and their RSS rows
# only: a quick comparison of the cold path), COLD_PRIME (NAME/TYPE
# questions asked of each fresh process before a cold run is measured,
# so the run measures the names, not the priming; default ". SOA" and
# "sec. SOA"; COLD_PRIME=" " for none).
#
# What it does (each process started here is stopped by its pid):
# - sh etc/setup.sh --bench (unbound, dnsperf), the signed lab with
#   SIGNED_BENCH_NAMES=BENCH_NAMES: many.sec. (ECDSAP256SHA256, NSEC3;
#   secure) and manyu.sec. (unsigned, no DS: insecure), each with names
#   www0..wwwN-1 A, on the NSD of 127.54.1.3.
# - curvecache 127.54.100.11 (cache-size 64m, the lab's root hints and
#   trust anchor: trust-anchor-file $SIGNED_TA_DS), Unbound 127.54.100.12
#   (1 thread, msg + rrset cache 32m + 32m, module-config "validator
#   iterator", the same hints and trust anchor), and for the cost of
#   validation curvecache 127.54.100.13 with "dnssec: no" (validation
#   off, same hints); each pinned to core 0, dnsperf, the lab's servers
#   and the packet counter on core 1 (bench_lib.sh's bench_pin_lab).
# - (1) cold: a fresh process, the 1,000 names www0..www999 of many.sec.
#   once each (dnsperf -n 1, 100 outstanding): wall time, the resolver's
#   CPU time (/proc/PID/schedstat), upstream queries per name (every
#   packet from the resolver's address to a port 53: upcount.py), RSS
#   growth over the run, and the times it was preempted (the check that
#   its core was its own); the same for manyu.sec. (insecure) beside it.
# - (2) cache hits: all BENCH_NAMES names of each zone warmed (every
#   secure one checked for AD, every insecure one for its absence on a
#   sample), then dnsperf at saturation for BENCH_SECONDS, DO=0 and DO=1
#   (dnsperf -D): queries/s and the resolver's CPU time (utime + stime of
#   /proc/PID/stat) per answered query; secure names against insecure
#   ones (the same validating process) and against curvecache with
#   validation off (the same names); then the same at BENCH_RATE
#   queries/s (dnsperf -Q), where CPU per query does not depend on how
#   full the receive batches get at each resolver's own saturation.
# - (3) memory: RSS growth per name over the cold run (the chain of
#   trust below COLD_PRIME included; measured after it, when nothing is
#   in flight), the growth of the peak RSS (VmHWM) during it (the
#   resolutions in flight included), and over the warm-up of the
#   BENCH_NAMES names of each zone.
# - (4) under a flood: the cache-hit runs of (2) (DO=0, at saturation
#   and at BENCH_RATE) again while a second dnsperf sends
#   BENCH_FLOOD_RATE questions/s, none asked before, half for names of
#   keytrap.sec. (40 keys of one tag, 40 bad signatures), half below the
#   100-label name of hashflood.sec. (each proof costs curvecache more
#   NSEC3 hashes than a question may pay): the hits' queries/s as a share
#   of those without the flood, and the share of flood questions
#   answered within dnsperf's 5 s. The flood's dnsperf shares the core of
#   the hits' one, which is saturated in the first run (not in the
#   second, where a share near 100 % means full speed); then the flood
#   alone for BENCH_SECONDS: the resolver's CPU time per flood question.
# - The resolvers are measured in turns within each round, so a slow
#   spell of the shared machine falls on all alike; each figure is the
#   median over the rounds.
set -u
srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
RUNS=${BENCH_RUNS:-3}
COLD_RUNS=${BENCH_COLD_RUNS:-$((RUNS * 3))}
SECS=${BENCH_SECONDS:-10}
NAMES=${BENCH_NAMES:-10000}
RATE=${BENCH_RATE:-30000}
FLOOD_RATE=${BENCH_FLOOD_RATE:-200}
CURVECACHE=${CURVECACHE:-$(pwd)/curvecache}
COLD=1000
COLD_PRIME=${COLD_PRIME:-./SOA sec./SOA}
CC_IP=127.54.100.11
UB_IP=127.54.100.12
CN_IP=127.54.100.13

die() { echo "bench_validate.sh: $*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || die "needs root (the lab and port 53)"
sh "$srcdir/etc/setup.sh" --bench || die "etc/setup.sh --bench failed"
for t in unbound dnsperf taskset flock python3 dig nsd dnssec-signzone \
  ldns-signzone curvedns; do
  command -v $t >/dev/null 2>&1 || die "$t not installed"
done
[ -x "$CURVECACHE" ] || die "$CURVECACHE not built"
[ "$(nproc)" -ge 2 ] || die "needs 2 cores (resolver and dnsperf apart)"
[ "$NAMES" -ge $COLD ] 2>/dev/null || die "BENCH_NAMES: at least $COLD"

# shellcheck source=tests/bench/bench_lib.sh
. "$srcdir/tests/bench/bench_lib.sh"
SIGNED_BENCH_NAMES=$NAMES
export SIGNED_BENCH_NAMES
bench_signed_start bench_validate
CC_ROOT_HINTS=$SIGNED_ROOT_HINTS
UB_ROOT_HINTS=$SIGNED_ROOT_HINTS
UB_MODULES="validator iterator"
UB_ANCHOR=$SIGNED_TA_DS

names() { # COUNT ZONE
  awk -v n="$1" -v z="$2" \
    'BEGIN { for (i = 0; i < n; i++) printf "www%d.%s A\n", i, z }'
}
names $COLD many.sec >"$WORK/cold"
names $COLD manyu.sec >"$WORK/coldu"
names "$NAMES" many.sec >"$WORK/hot"
names "$NAMES" manyu.sec >"$WORK/hotu"

# start_ccv: curvecache validating (PID); start_ccn: validation off.
start_ccv() {
  CC_DNSSEC=yes
  start_cc $CC_IP "trust-anchor-file: $SIGNED_TA_DS"
}
start_ccn() {
  CC_DNSSEC=no
  start_cc $CN_IP
}

# check_ad IP ZONE WANT: a sample of the zone's names (the first, the
# middle and the last) answered NOERROR, with AD (WANT 1) or without.
check_ad() {
  for i in 0 $((NAMES / 2)) $((NAMES - 1)); do
    dig +dnssec +time=2 +tries=1 "@$1" "www$i.$2" A >"$WORK/ad.out" 2>&1
    grep -q 'status: NOERROR' "$WORK/ad.out" ||
      { cat "$WORK/ad.out"; die "$1: www$i.$2 not NOERROR"; }
    ad=0
    grep -q '^;; flags:[^;]* ad[ ;]' "$WORK/ad.out" && ad=1
    [ "$ad" = "$3" ] || { cat "$WORK/ad.out"; die "$1: www$i.$2 AD $ad"; }
  done
}

# flood_names TAG COUNT: COUNT questions never asked before (TAG makes
# them so), alternately for a name of keytrap.sec. and one below the
# 100-label name of hashflood.sec. (tests/lab/signed/hashflood.sec.extra).
flood_names() {
  awk -v t="$1" -v n="$2" 'BEGIN { d = "d100.hashflood.sec"
    for (i = 0; i < 100; i++) d = "l." d
    for (i = 0; i < n; i++)
      if (i % 2) printf "%s%d.keytrap.sec A\n", t, i
      else printf "%s%d.%s A\n", t, i, d }'
}

# flood_once NAME PID IP FILE TAG [dnsperf options]: hits_once NAME
# (DO=0, the options added) while a flood of
# FLOOD_RATE questions/s runs (dnsperf on the same core, started a second
# before and ending a second after); NAME.fans: the share of the flood
# answered, %.
flood_once() {
  fn=$1; fres=$2; fip=$3; ffile=$4
  flood_names "$5" $((FLOOD_RATE * (SECS + 2))) >"$WORK/flood.names"
  shift 5
  taskset -c "${DP_CPUS:-1}" dnsperf -s "$fip" -d "$WORK/flood.names" -n 1 \
    -Q "$FLOOD_RATE" -q 500 -t 5 -O suppress=timeouts,congestion \
    </dev/null >"$WORK/flood.out" 2>&1 9>&- &
  fpid=$!
  PIDS="$PIDS $fpid"
  sleep 1
  hits_once "$fn" "$fres" "$fip" "$ffile" "$@"
  wait "$fpid"
  PIDS=$(echo "$PIDS" | tr ' ' '\n' | grep -vx "$fpid" | tr '\n' ' ')
  awk -v a="$(field "$WORK/flood.out" "Queries completed")" \
    -v s="$(field "$WORK/flood.out" "Queries sent")" \
    'BEGIN { if (s > 0) printf "%.1f\n", 100 * a / s }' >>"$WORK/$fn.fans"
}

# flood_cpu FILE PID IP TAG: the flood alone for SECS s; FILE gets the
# resolver's CPU time (/proc/PID/schedstat) per flood question, us.
flood_cpu() {
  flood_names "$4" $((FLOOD_RATE * SECS)) >"$WORK/flood.names"
  c0=$(cpu_ns "$2")
  perf "$3" "$WORK/flood.names" "$WORK/floodc.out" -n 1 -Q "$FLOOD_RATE" \
    -q 500 -t 5
  c1=$(cpu_ns "$2")
  awk -v a="$c0" -v b="$c1" \
    -v q="$(field "$WORK/floodc.out" "Queries completed")" \
    'BEGIN { if (q > 0) printf "%.0f\n", (b - a) / 1e3 / q }' >>"$WORK/$1"
}

# mem_zone NAME PID IP FILE: warm the first half of FILE, then the
# second; NAME.bpn1.m and NAME.bpn.m: RSS growth per name over each half
# (the second: the marginal cost of a cached name).
mem_zone() {
  half=$((NAMES / 2))
  head -n $half "$4" >"$WORK/half1"
  tail -n +$((half + 1)) "$4" >"$WORK/half2"
  r0=$(rss_kb "$2" VmRSS)
  warm "$3" "$WORK/half1"
  r1=$(rss_kb "$2" VmRSS)
  warm "$3" "$WORK/half2"
  r2=$(rss_kb "$2" VmRSS)
  awk -v a="$r0" -v b="$r1" -v c="$r2" -v n=$half -v m=$((NAMES - half)) \
    -v o="$WORK/$1" 'BEGIN { printf "%.0f\n", (b - a) * 1024 / n > (o ".bpn1.m")
      printf "%.0f\n", (c - b) * 1024 / m > (o ".bpn.m") }'
}

# row LABEL A B [C]: the medians A, B (and C: "-" for none), A/B (and
# A/C).
row() {
  a=$(v "$2"); b=$(v "$3")
  line="| $1 | $a | $b | $(ratio "$a" "$b") |"
  if [ "${4:--}" != - ]; then c=$(v "$4"); line="$line $c | $(ratio "$a" "$c") |"
  elif [ $# -ge 4 ]; then line="$line - | - |"; fi
  echo "$line"
}
# cold_table: the header and the rows of the cold runs.
cold_table() {
  echo "curvecache validating against Unbound validating," \
    "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores," \
    "$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)"
  echo "(Unbound $(unbound -V 2>/dev/null | awk '/^Version/ { print $2 }')," \
    "dnsperf $(dpkg-query -W -f='${Version}' dnsperf 2>/dev/null);" \
    "signed lab, $NAMES names a zone; medians of $COLD_RUNS cold rounds" \
    "and $RUNS rounds of the rest, rate runs" \
    "of ${SECS} s; resolver on core 0, dnsperf and the lab on core 1;" \
    "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg); primed: $COLD_PRIME)"
  echo
  echo "| measure | curvecache | Unbound | cc/Unbound |"
  echo "| --- | ---: | ---: | ---: |"
  row "(1) cold 1,000 secure names, wall s" cc.wall ub.wall
  row "(1) cold upstream queries per name" cc.up ub.up
  row "(1) cold resolver CPU time, ms" cc.cpums ub.cpums
  row "(1) cold 1,000 insecure names, wall s" ccu.wall ubu.wall
  row "(1) insecure: upstream queries per name" ccu.up ubu.up
  row "(1) insecure: resolver CPU time, ms" ccu.cpums ubu.cpums
  row "(1) page faults during the cold run, secure" cc.flt ub.flt
  row "(1) page faults during the cold run, insecure" ccu.flt ubu.flt
  row "(1) times preempted during the cold run, secure" cc.ncs ub.ncs
  row "(1) the same, insecure" ccu.ncs ubu.ncs
  row "(3) RSS growth over the cold run, bytes per secure name" \
    cc.rpn ub.rpn
  row "(3) RSS growth over the cold run, bytes per insecure name" \
    ccu.rpn ubu.rpn
  row "(3) peak RSS growth during the cold run, bytes per secure name" \
    cc.hpn ub.hpn
  row "(3) the same, insecure" ccu.hpn ubu.hpn
}

# ---------------------------------------------------------------- the runs
r=0
while [ "$r" -lt "$COLD_RUNS" ]; do
  progress "cold, round $((r + 1)) of $COLD_RUNS: curvecache, Unbound;" \
    "secure, then insecure"
  cold_once cc $CC_IP "$WORK/cold" start_ccv
  cold_once ub $UB_IP "$WORK/cold" start_ub
  cold_once ccu $CC_IP "$WORK/coldu" start_ccv
  cold_once ubu $UB_IP "$WORK/coldu" start_ub
  r=$((r + 1))
done
for n in cc ub ccu ubu; do
  medians $n.wall $n.up $n.cpums $n.rss $n.hwm $n.flt $n.ncs
  awk -v n=$COLD '{ printf "%.0f\n", $1 * 1024 / n }' "$WORK/$n.rss.m" \
    >"$WORK/$n.rpn.m"
  awk -v n=$COLD '{ printf "%.0f\n", $1 * 1024 / n }' "$WORK/$n.hwm.m" \
    >"$WORK/$n.hpn.m"
done
if [ "${BENCH_COLD:-0}" = 1 ]; then
  cold_table >"$WORK/table.md"
  cat "$WORK/table.md"
  [ -n "${BENCH_OUT:-}" ] && cp "$WORK/table.md" "$BENCH_OUT"
  exit 0
fi

progress "cache hits: every resolver up and warmed"
start_ccv; CC_PID=$PID
start_ub; UB_PID=$PID
start_ccn; CN_PID=$PID
mem_zone cc $CC_PID $CC_IP "$WORK/hot"
mem_zone ub $UB_PID $UB_IP "$WORK/hot"
mem_zone ccu $CC_PID $CC_IP "$WORK/hotu"
mem_zone ubu $UB_PID $UB_IP "$WORK/hotu"
warm $CN_IP "$WORK/hot"
check_ad $CC_IP many.sec 1
check_ad $UB_IP many.sec 1
check_ad $CC_IP manyu.sec 0
check_ad $UB_IP manyu.sec 0
check_ad $CN_IP many.sec 0
r=0
while [ "$r" -lt "$RUNS" ]; do
  progress "cache hits, round $((r + 1)) of $RUNS"
  for d in 0 1; do
    opt=; [ $d = 1 ] && opt=-D
    hits_once "cc$d" $CC_PID $CC_IP "$WORK/hot" $opt
    hits_once "ub$d" $UB_PID $UB_IP "$WORK/hot" $opt
    hits_once "ccu$d" $CC_PID $CC_IP "$WORK/hotu" $opt
    hits_once "ubu$d" $UB_PID $UB_IP "$WORK/hotu" $opt
    hits_once "ccn$d" $CN_PID $CN_IP "$WORK/hot" $opt
    # the same at a fixed rate: receive batches alike, so CPU per query
    # compares the work, not how full each batch got
    hits_once "cc$d.r" $CC_PID $CC_IP "$WORK/hot" $opt -Q "$RATE"
    hits_once "ccu$d.r" $CC_PID $CC_IP "$WORK/hotu" $opt -Q "$RATE"
    hits_once "ccn$d.r" $CN_PID $CN_IP "$WORK/hot" $opt -Q "$RATE"
    hits_once "ub$d.r" $UB_PID $UB_IP "$WORK/hot" $opt -Q "$RATE"
    hits_once "ubu$d.r" $UB_PID $UB_IP "$WORK/hotu" $opt -Q "$RATE"
  done
  flood_once ccf $CC_PID $CC_IP "$WORK/hot" "r${r}cc-"
  flood_once ubf $UB_PID $UB_IP "$WORK/hot" "r${r}ub-"
  flood_once ccf.r $CC_PID $CC_IP "$WORK/hot" "r${r}ccr-" -Q "$RATE"
  flood_once ubf.r $UB_PID $UB_IP "$WORK/hot" "r${r}ubr-" -Q "$RATE"
  flood_cpu ccf.fcpu $CC_PID $CC_IP "r${r}ccc-"
  flood_cpu ubf.fcpu $UB_PID $UB_IP "r${r}ubc-"
  r=$((r + 1))
done
for n in ccf ubf ccf.r ubf.r; do medians $n.qps $n.fans; done
medians ccf.fcpu ubf.fcpu
for n in cc ub ccu ubu ccn; do
  for d in 0 1; do
    medians $n$d.qps $n$d.cpu $n$d.usr $n$d.sys $n$d.dpbusy
    medians $n$d.r.qps $n$d.r.cpu $n$d.r.usr
  done
done
for p in $CC_PID $UB_PID $CN_PID; do stop_pid "$p"; done
# (4): the hits under the flood as a share of those without, %
for n in cc ub; do
  for x in "" .r; do
    awk -v a="$(v "${n}f$x.qps")" -v b="$(v "${n}0$x.qps")" 'BEGIN {
      if (b > 0) printf "%.1f\n", 100 * a / b; else print "nan" }' \
      >"$WORK/${n}f$x.share.m"
  done
done

# ---------------------------------------------------------------- the tables
{
  cold_table
  for d in 0 1; do
    row "(2) secure hits DO=$d, queries/s" cc$d.qps ub$d.qps
    row "(2) secure hits DO=$d, CPU per answered query, us" cc$d.cpu ub$d.cpu
    row "(2) of which user space, us" cc$d.usr ub$d.usr
    row "(2) dnsperf's core busy, %" cc$d.dpbusy ub$d.dpbusy
  done
  h=$((NAMES / 2))
  row "(3) RSS per cached secure name (names $((h + 1))-$NAMES), bytes" \
    cc.bpn ub.bpn
  row "(3) RSS per cached insecure name (the same, manyu.sec.), bytes" \
    ccu.bpn ubu.bpn
  row "(3) RSS growth over the first $h secure names, bytes/name" \
    cc.bpn1 ub.bpn1
  row "(3) RSS growth over the first $h insecure names, bytes/name" \
    ccu.bpn1 ubu.bpn1
  row "(4) secure hits DO=0 during a $FLOOD_RATE q/s flood, queries/s" \
    ccf.qps ubf.qps
  row "(4) the same, % of the hits without the flood" ccf.share ubf.share
  row "(4) flood questions answered within 5 s, %" ccf.fans ubf.fans
  row "(4) hits at $RATE q/s during the flood, queries/s" ccf.r.qps ubf.r.qps
  row "(4) the same, % of the hits at $RATE q/s without the flood" \
    ccf.r.share ubf.r.share
  row "(4) flood questions answered within 5 s, %" ccf.r.fans ubf.r.fans
  row "(4) resolver CPU per flood question (the flood alone), us" \
    ccf.fcpu ubf.fcpu
  echo
  echo "What a secure hit costs beside an unsigned one (same names" \
    "count; \"insecure\": manyu.sec. through the same validating" \
    "process; \"off\": many.sec. through curvecache with dnssec: no):"
  echo
  echo "| measure | secure | insecure | secure/insecure | off |" \
    "secure/off |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: |"
  for d in 0 1; do
    row "curvecache DO=$d, CPU per answered query, us" cc$d.cpu ccu$d.cpu \
      ccn$d.cpu
    row "curvecache DO=$d, of which user space, us" cc$d.usr ccu$d.usr \
      ccn$d.usr
    row "curvecache DO=$d, queries/s" cc$d.qps ccu$d.qps ccn$d.qps
    row "Unbound DO=$d, CPU per answered query, us" ub$d.cpu ubu$d.cpu -
    row "Unbound DO=$d, queries/s" ub$d.qps ubu$d.qps -
    row "curvecache DO=$d at $RATE q/s, CPU per answered query, us" \
      cc$d.r.cpu ccu$d.r.cpu ccn$d.r.cpu
    row "curvecache DO=$d at $RATE q/s, of which user space, us" \
      cc$d.r.usr ccu$d.r.usr ccn$d.r.usr
    row "Unbound DO=$d at $RATE q/s, CPU per answered query, us" \
      ub$d.r.cpu ubu$d.r.cpu -
  done
  echo
  echo "CPU per query is user + system time of the resolver process over" \
    "the run, divided by the answers dnsperf received (10 ms ticks);" \
    "cold CPU is from /proc/PID/schedstat."
} >"$WORK/table.md"
cat "$WORK/table.md"
[ -n "${BENCH_OUT:-}" ] && cp "$WORK/table.md" "$BENCH_OUT"
exit 0
