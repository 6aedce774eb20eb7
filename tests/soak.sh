#!/bin/sh
# tests/soak.sh: a soak test of curvecache (not part of make check; run it
# by hand from a build directory, ideally one configured with
# --enable-sanitizers):
#
#   ../tests/soak.sh [SECONDS]        # default 600 (10 minutes)
#
# Starts the loopback lab (tests/lab/lab.sh, root needed) and curvecache
# (cache-size SOAK_CACHE_KB), then runs dnsperf (Debian package dnsperf,
# `etc/setup.sh --bench`) for SECONDS at SOAK_QPS queries/s with a mixed
# load: half the queries for a few names that stay cached (A, AAAA, MX,
# TXT of the lab's leaf zones), half for names never asked before (a
# wildcard, NXDOMAIN names, names under the DNSCurve zones). The RSS of
# curvecache is sampled every SOAK_SAMPLE_SECS.
#
# Checks: curvecache is alive at the end and exits 0 on SIGTERM; no
# sanitizer report (leaks included) and no level=error line in its log;
# the RSS never goes above its value after the first minute plus the cache
# bound plus MEM_MARGIN_KB (see tests/e2e/clients_lab.sh for that margin).
# Prints the dnsperf summary, the RSS over time and the counters. Exit 0 =
# all checks passed. E2E_KEEP=1 keeps the work directory (rss.txt,
# dnsperf.out, curvecache.log).

set -u
srcdir=${srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=tests/e2e/e2e_lib.sh
. "$srcdir/tests/e2e/e2e_lib.sh"
# shellcheck source=tests/e2e/hard_lib.sh
. "$srcdir/tests/e2e/hard_lib.sh"
SOAK_SECS=${1:-600}
SOAK_QPS=${SOAK_QPS:-500}
SOAK_CACHE_KB=16384
SOAK_SAMPLE_SECS=5
MEM_MARGIN_KB=98304
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=16
export ASAN_OPTIONS
e2e_init soak dnsperf

cc_start "cache-size: ${SOAK_CACHE_KB}k" "log-level: info" || exit 1

# The query file: one cached line, one fresh line, in turn; enough fresh
# names that none repeats during the run.
total=$((SOAK_SECS * SOAK_QPS + 1000))
awk -v n="$total" -v seed="$$" 'BEGIN {
  split("www.example.lab A|www.example.lab AAAA|example.lab MX|" \
        "many.example.lab A|www.other.lab A|www.secure.curve A|" \
        "www.boxed.lab TXT|alias.example.lab A|www.dead.lab A|" \
        "mail.example.lab A", hot, "|")
  split("wild.example.lab A|other.lab A|example.lab AAAA|" \
        "wild.secure.curve A|boxed.lab A", cold, "|")
  srand(seed)
  for (i = 0; i < n; i++) {
    if (i % 2 == 0) { print hot[1 + int(rand() * 10)]; continue }
    c = cold[1 + int(rand() * 5)]
    printf "s%d-%x.%s\n", i, int(rand() * 2147483647), c
  }
}' >"$WORK/queries.txt"

echo "# soak: $SOAK_SECS s at $SOAK_QPS q/s, $total queries in the file" \
  "($(elapsed))"
rss() { sed -n 's/^VmRSS:[[:space:]]*\([0-9]*\).*/\1/p' "/proc/$CC_PID/status"; }
bg_start dnsperf dnsperf -s "$CC_IP" -d "$WORK/queries.txt" \
  -l "$SOAK_SECS" -Q "$SOAK_QPS" -q 500 -t 5 -c 4 -S 60
PERF_PID=$bg_pid
t0=$(date +%s)
: >"$WORK/rss.txt"
while e2e_alive "$PERF_PID"; do
  echo "$(($(date +%s) - t0)) $(rss)" >>"$WORK/rss.txt"
  sleep "$SOAK_SAMPLE_SECS"
done
wait "$PERF_PID"
e2e_bg_pids=$(echo "$e2e_bg_pids" | tr ' ' '\n' | grep -vx "$PERF_PID" |
  tr '\n' ' ')

echo "# dnsperf:"
sed -n '/Statistics:/,$p' "$WORK/dnsperf.out" | sed 's/^/#   /'
echo "# RSS (s kB), every minute:"
awk '$1 % 60 < 5' "$WORK/rss.txt" | sed 's/^/#   /'
base=$(awk '$1 >= 60 { print $2; exit }' "$WORK/rss.txt")
[ -n "$base" ] || base=$(head -n 1 "$WORK/rss.txt" | cut -d' ' -f2)
max=$(awk 'BEGIN { m = 0 } $2 > m { m = $2 } END { print m }' \
  "$WORK/rss.txt")
last=$(tail -n 1 "$WORK/rss.txt" | cut -d' ' -f2)
echo "# RSS: $(head -n 1 "$WORK/rss.txt" | cut -d' ' -f2) kB at start," \
  "$base kB after a minute, max $max kB, last $last kB"
for c in total.num.queries total.num.cachehits total.num.cachemiss \
         resolutions.servfail total.requestlist.overwritten \
         upstream.timeouts num.answer.send_errors; do
  printf '#   %s=%s\n' "$c" "$(cc_stat "$c")"
done

if e2e_alive "$CC_PID"; then ok "curvecache alive after the soak"
else bad "curvecache alive after the soak" "it died"; fi
if [ "$max" -le $((base + SOAK_CACHE_KB + MEM_MARGIN_KB)) ]; then
  ok "RSS max $max kB <= $base + cache $SOAK_CACHE_KB + $MEM_MARGIN_KB kB"
else
  bad "RSS bounded" "max $max kB, after a minute $base kB"
fi
if grep 'level=error' "$WORK/curvecache.log" >"$WORK/errors"; then
  bad "no error in the log" "$(wc -l <"$WORK/errors") lines" "$WORK/errors"
else
  ok "no error in the log"
fi
cc_stop
san_check
e2e_finish
