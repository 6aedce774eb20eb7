#!/bin/sh
# tests/bench/bench_overload.sh: curvecache and Unbound 1.17, both
# validating with one thread, under more fresh names a second than one
# thread can take (issue 21, items 12 and 15); prints a markdown table of
# the figures and their ratios. Not part of make check (minutes, root,
# packages); its small sibling in make check is tests/e2e/overload_lab.sh.
#
# Usage (from the build directory, as root; or `make bench-overload`):
#   sh ../tests/bench/bench_overload.sh
# Environment: BENCH_RUNS (rounds, median taken; default 3),
# BENCH_SECONDS (length of the burst; default 20), BENCH_RATE (questions
# a second; default 8000), BENCH_OUT (also write the table there),
# CURVECACHE (default ./curvecache).
#
# What it does (each process started here is stopped by its pid):
# - sh etc/setup.sh --bench (unbound, dnsperf) and the signed lab.
# - curvecache 127.54.100.11 (threads 1, cache-size 8m, the lab's root
#   hints and trust anchor) and Unbound 127.54.100.12 (1 thread,
#   msg-cache-size and rrset-cache-size 4m each, module-config
#   "validator iterator", the same hints and anchor, ede: yes), each
#   started fresh for its burst and pinned to core 0; dnsperf on core 1.
# - The burst: BENCH_RATE x BENCH_SECONDS questions (dnsperf -Q, each
#   name once, up to 20,000 outstanding, 5 s timeout), fresh names under
#   the signed wildcards *.w.ZONE of alg8.sec. (RSA, NSEC), alg13.sec.
#   (ECDSA, NSEC3), alg15.sec. (Ed25519, NSEC3) and alg16.sec. (Ed448,
#   NSEC), round robin; every one is valid and secure.
# - Per resolver: answered % (replies dnsperf received within its 5 s,
#   of the questions sent), SERVFAIL % (of the questions sent), NOERROR %,
#   bogus (names answered SERVFAIL in the burst that, asked again at
#   once and slowly with tests/e2e/overload.py, are SERVFAIL with EDE 6:
#   cached as bogus; at most 2,000 asked again), and the peak RSS
#   (VmHWM) in MB.
# - The resolvers are measured in turns within each round, so a slow
#   spell of the shared machine falls on both alike; each figure is the
#   median over the rounds.
set -u
srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
CURVECACHE=${CURVECACHE:-$(pwd)/curvecache}
RUNS=${BENCH_RUNS:-3} SECS=${BENCH_SECONDS:-20} RATE=${BENCH_RATE:-8000}
CC_IP=127.54.100.11 UB_IP=127.54.100.12 AGAIN_MAX=2000

die() { echo "bench_overload.sh: $*" >&2; exit 1; }
# shellcheck source=tests/bench/bench_lib.sh
. "$srcdir/tests/bench/bench_lib.sh"
bench_need unbound dnsperf taskset flock python3 dig nsd dnssec-signzone \
  ldns-signzone
bench_signed_start bench_overload
CC_ROOT_HINTS=$SIGNED_ROOT_HINTS
UB_ROOT_HINTS=$SIGNED_ROOT_HINTS
UB_MODULES="validator iterator"
UB_ANCHOR=$SIGNED_TA_DS
UB_CACHE=4m
UB_LINES="	ede: yes"
CC_DNSSEC=yes
export CC_ROOT_HINTS UB_ROOT_HINTS UB_MODULES UB_ANCHOR UB_CACHE UB_LINES CC_DNSSEC

start_ccv() {
  start_cc $CC_IP "trust-anchor-file: $SIGNED_TA_DS" "cache-size: 8m" \
    "threads: 1"
}

# burst NAME IP STARTER TAG: a fresh resolver, the burst, the figures
# appended to NAME.ans, NAME.sf, NAME.ok, NAME.bogus, NAME.rss.
burst() {
  bn=$1; bip=$2; "$3"
  awk -v n=$((RATE * SECS)) -v t="$4" 'BEGIN {
    split("alg8 alg13 alg15 alg16", z, " ")
    for (i = 0; i < n; i++) printf "%s-%d.w.%s.sec A\n", t, i, z[i % 4 + 1]
  }' >"$WORK/names"
  taskset -c "${DP_CPUS:-1}" dnsperf -s "$bip" -d "$WORK/names" -n 1 \
    -Q "$RATE" -q 20000 -t 5 -v -O suppress=timeouts,congestion \
    </dev/null >"$WORK/burst.out" 2>&1 9>&-
  sent=$(field "$WORK/burst.out" "Queries sent")
  done_=$(field "$WORK/burst.out" "Queries completed")
  awk '$1 == ">" && $2 == "SERVFAIL" { print $3 }' "$WORK/burst.out" |
    head -n $AGAIN_MAX >"$WORK/sf.names"
  sf=$(awk '$1 == ">" && $2 == "SERVFAIL"' "$WORK/burst.out" | wc -l)
  ok_=$(awk '$1 == ">" && $2 == "NOERROR"' "$WORK/burst.out" | wc -l)
  rss_kb "$PID" VmHWM | awk '{ printf "%.1f\n", $1 / 1024 }' >>"$WORK/$bn.rss"
  bogus=0
  if [ -s "$WORK/sf.names" ]; then
    python3 "$srcdir/tests/e2e/overload.py" "$bip" "$WORK/sf.names" 200 \
      </dev/null >"$WORK/again.out" 2>&1 9>&-
    bogus=$(grep -c '^bogus ' "$WORK/again.out")
  fi
  echo "$bogus" >>"$WORK/$bn.bogus"
  awk -v s="$sent" -v a="$done_" -v f="$sf" -v k="$ok_" -v o="$WORK/$bn" \
    'BEGIN { if (s > 0) { printf "%.2f\n", 100 * a / s >> (o ".ans")
      printf "%.2f\n", 100 * f / s >> (o ".sf")
      printf "%.2f\n", 100 * k / s >> (o ".ok") } }'
  stop_pid "$PID"
}

r=0
while [ "$r" -lt "$RUNS" ]; do
  progress "round $((r + 1)) of $RUNS: curvecache, Unbound; $RATE q/s" \
    "for $SECS s"
  burst cc $CC_IP start_ccv "c$r-$$"
  burst ub $UB_IP start_ub "u$r-$$"
  r=$((r + 1))
done
for n in cc ub; do medians $n.ans $n.sf $n.ok $n.bogus $n.rss; done

row() { # LABEL A B: the medians and their ratio
  printf '| %s | %s | %s | %s |\n' "$1" "$(v "$2")" "$(v "$3")" \
    "$(ratio "$(v "$2")" "$(v "$3")")"
}
{
  echo "curvecache under overload, $(date -u '+%Y-%m-%d %H:%M') UTC," \
    "$(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "($(unbound -V 2>/dev/null | sed -n 's/^Version /Unbound /p');" \
    "medians of $RUNS bursts of $SECS s at $RATE q/s, fresh names under" \
    "signed wildcards; resolver on core 0, dnsperf on core 1)"
  echo
  printf '| measure | curvecache | Unbound | cc/Unbound |\n'
  printf '| --- | ---: | ---: | ---: |\n'
  for m in "ans:answered, % of questions" "sf:SERVFAIL, % of questions" \
    "ok:NOERROR, % of questions" \
    "bogus:bogus (SERVFAIL names cached bogus)" \
    "rss:peak RSS, MB (cache 8m; Unbound 4m + 4m)"; do
    row "${m#*:}" "cc.${m%%:*}" "ub.${m%%:*}"
  done
} | tee "${BENCH_OUT:-/dev/null}"
