#!/bin/sh
# tests/bench/selection.sh: curvecache and Unbound side by side against
# hard authoritative servers (issue 12): (1) servers with response rate
# limiting (item 10), (2) a silent server beside a good one on a cold
# cache (item 6); prints a markdown table. Not part of make check (a
# minute or two, root, unbound, dnsperf and python3).
#
# Usage (from the build directory, as root; or `make bench-selection`):
#   sh ../tests/bench/selection.sh
# Environment: BENCH_NAMES (distinct names per run; default 10000),
# BENCH_OUTSTANDING (dnsperf -q; default 100), BENCH_RUNS (runs per
# resolver, medians taken; default 1), BENCH_COLD (fresh processes for
# (2); default 20), BENCH_OUT (also write the tables there), CURVECACHE
# (default ./curvecache).
#
# What it does (each process started here is stopped by its pid):
# - the lab (tests/lab/lab.sh, under its lock) and the two NSDs of
#   rrl.lab. with NSD's default RRL (tests/e2e/rrl_lib.sh: ratelimit 200,
#   slip 2), 127.53.4.1 and .2;
# - per run and resolver, a fresh (cold) process pinned to core 0
#   (dnsperf on core 1; the NSDs unpinned): curvecache on
#   127.53.100.11 (log-level info; its counters come from the exit dump),
#   Unbound on 127.53.100.12 (1 thread, module-config "iterator", the lab
#   root hints, do-not-query-localhost: no), each sending from its own
#   address (the same /24, so the same RRL bucket: they run in turns,
#   2 s apart, so that NSD's one-second buckets are fresh);
# - BENCH_NAMES distinct names under the wildcard *.w.rrl.lab., once
#   each (dnsperf -n 1, BENCH_OUTSTANDING outstanding, 12 s timeout):
#   run time, SERVFAIL and lost queries; for curvecache also upstream
#   timeouts, hedges, truncated replies and TCP queries.
# - (2) tests/e2e/faulty.py plays a server that never answers
#   (silent@127.53.3.10), which silent.g.fault.lab. lists beside the
#   lab's good server (tests/lab/zones/fault.lab.zone); BENCH_COLD times
#   a fresh process of each resolver asks www.silent.g.fault.lab. A
#   once (dig's query time; the walk from the root included), and as a
#   baseline id.g.fault.lab. TXT (the same walk but for the last zone,
#   no silent server): mean and largest of each.
set -u
srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
NAMES=${BENCH_NAMES:-10000}
OUTST=${BENCH_OUTSTANDING:-100}
RUNS=${BENCH_RUNS:-1}
COLD=${BENCH_COLD:-20}
CURVECACHE=${CURVECACHE:-$(pwd)/curvecache}
CC_IP=127.53.100.11
UB_IP=127.53.100.12
# curvecache's counters come from the exit dump (level info)
CC_LOG_LEVEL=info
# shellcheck source=tests/e2e/rrl_lib.sh
. "$srcdir/tests/e2e/rrl_lib.sh"

die() { echo "selection.sh: $*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || die "needs root (the lab and port 53)"
for t in unbound nsd dnsperf taskset flock dig python3; do
  command -v $t >/dev/null 2>&1 || die "$t not installed"
done
[ -x "$CURVECACHE" ] || die "$CURVECACHE not built"
[ "$(nproc)" -ge 2 ] || die "needs 2 cores (resolver and dnsperf apart)"

# shellcheck source=tests/bench/bench_lib.sh
. "$srcdir/tests/bench/bench_lib.sh"
bench_lab_start bench_selection

zone=$(cd "$srcdir" && pwd)/tests/lab/zones/rrl.lab.zone
n=0
for ip in "$RRL_NS1" "$RRL_NS2"; do
  n=$((n + 1))
  rrl_nsd_conf "$WORK" "rrl$n" "$ip" "$zone"
  launch "nsd-rrl$n" nsd -d -c "$WORK/nsd-rrl$n.conf"
  rrl_up "$ip" || { cat "$WORK/nsd-rrl$n.log"; die "NSD on $ip"; }
done

# counter NAME: from curvecache's exit dump of the counters.
counter() {
  grep 'event=stats' "$WORK/curvecache-$CC_IP.log" | tr ' ' '\n' |
    sed -n "s/^$1=//p" | tail -n 1
}

# one WHO IP RUN: a cold run; appends "time servfail% lost [counters]"
# to WHO.runs.
one() {
  rrl_names "$NAMES" "$1$3-" >"$WORK/names"
  sleep 2
  taskset -c 1 dnsperf -s "$2" -d "$WORK/names" -n 1 -q "$OUTST" -t 12 \
    </dev/null >"$WORK/perf.out" 2>&1
  t=$(rrl_perf_field "$WORK/perf.out" time)
  sf=$(rrl_perf_field "$WORK/perf.out" SERVFAIL)
  lost=$(rrl_perf_field "$WORK/perf.out" lost)
  stop_pid "$PID"
  extra="- - - -"
  [ "$1" = cc ] && extra="$(counter upstream.timeouts) \
$(counter upstream.hedges) $(counter upstream.truncated) \
$(counter upstream.tcp)"
  awk -v t="$t" -v sf="$sf" -v n="$NAMES" -v lost="$lost" -v x="$extra" \
    'BEGIN { printf "%.1f %.2f %d %s\n", t, 100 * sf / n, lost, x }' \
    >>"$WORK/$1.runs"
  echo "# run $3 $1: $(tail -n 1 "$WORK/$1.runs")" >&2
}

# cold WHO IP START: BENCH_COLD fresh processes (START starts one) ask
# the silent zone's name, as many ask the baseline; "s MS" and "b MS"
# lines in WHO.cold.
cold() {
  i=0
  while [ $i -lt "$COLD" ]; do
    for kind in s b; do
      "$3"
      if [ $kind = s ]; then q="www.silent.g.fault.lab A"
      else q="id.g.fault.lab TXT"; fi
      # shellcheck disable=SC2086 # NAME TYPE
      ms=$(dig +time=5 +tries=1 "@$2" $q 2>/dev/null |
        sed -n 's/^;; Query time: \([0-9]*\) msec.*/\1/p')
      echo "$kind ${ms:-5000}" >>"$WORK/$1.cold"
      stop_pid "$PID"
    done
    i=$((i + 1))
  done
}
start_cc_ip() { start_cc "$CC_IP"; }
launch faulty python3 "$srcdir/tests/e2e/faulty.py" silent@127.53.3.10 3600
n=0
until grep -q '^faulty ready' "$WORK/faulty.log" 2>/dev/null; do
  n=$((n + 1)); [ $n -lt 50 ] || die "faulty.py did not start"; sleep 0.1
done
cold cc "$CC_IP" start_cc_ip
cold ub "$UB_IP" start_ub

r=1
while [ $r -le "$RUNS" ]; do
  start_cc "$CC_IP"; one cc "$CC_IP" "$r"
  start_ub; one ub "$UB_IP" "$r"
  r=$((r + 1))
done

# med WHO FIELD: the median of a column of WHO.runs.
med() {
  awk -v f="$2" '{ print $f }' "$WORK/$1.runs" | sort -n |
    awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
{
  echo "(1) RRL, $(date -u '+%Y-%m-%d %H:%M UTC'): $NAMES distinct" \
    "names of one wildcard, two NSDs" \
    "$(nsd -v 2>&1 | awk 'NR == 1 { print $3 }')" \
    "with rrl-ratelimit 200 and rrl-slip 2, dnsperf -q $OUTST, cold;" \
    "medians of $RUNS runs (Unbound $(unbound -V 2>/dev/null |
      awk '/^Version/ { print $2 }'))"
  echo
  echo "| resolver | time, s | SERVFAIL % | lost | upstream timeouts |" \
    "hedges | truncated | TCP |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
  for w in cc:curvecache ub:Unbound; do
    label=${w#*:} w=${w%%:*}
    echo "| $label | $(med "$w" 1) | $(med "$w" 2) | $(med "$w" 3) |" \
      "$(med "$w" 4) | $(med "$w" 5) | $(med "$w" 6) | $(med "$w" 7) |"
  done
  echo
  echo "(2) A silent server beside a good one, cold cache: $COLD fresh" \
    "processes each (dig's query time, ms; the walk from the root" \
    "included)"
  echo
  echo "| resolver | silent.g.fault.lab mean | max |" \
    "baseline g.fault.lab mean | max | silent - baseline, mean |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: |"
  for w in cc:curvecache ub:Unbound; do
    awk -v l="${w#*:}" '
      $1 == "s" { ns++; ss += $2; if ($2 > ms) ms = $2 }
      $1 == "b" { nb++; sb += $2; if ($2 > mb) mb = $2 }
      END { printf "| %s | %.0f | %d | %.0f | %d | %.0f |\n", l, ss / ns,
            ms, sb / nb, mb, ss / ns - sb / nb }' "$WORK/${w%%:*}.cold"
  done
} | tee "${BENCH_OUT:-/dev/null}"
