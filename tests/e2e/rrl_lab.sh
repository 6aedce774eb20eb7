#!/bin/sh
# tests/e2e/rrl_lab.sh: curvecache against authoritative servers that
# run response rate limiting (RRL), in the loopback lab
# (tests/lab/lab.sh; issue 12, item 10).
#
# Two NSDs serve rrl.lab. (127.53.4.1 and 127.53.4.2, delegated from
# lab.) with NSD's default RRL (tests/e2e/rrl_lib.sh: 200 answers a
# second per client /24 and type of answer, slip 2: past the rate every
# second reply is truncated, TC=1, and the rest are dropped). RRL_NAMES
# distinct names under the wildcard *.w.rrl.lab. (default 2,500; all one
# RRL bucket) are asked once each through curvecache by dnsperf, at most
# RRL_OUTSTANDING (default 50) at a time: far above the rate, so many of
# curvecache's upstream queries are dropped or truncated.
#
# Checks: no query lost by the client, SERVFAIL under RRL_SERVFAIL_MAX
# per mille (default 10, 1 %), every other answer NOERROR; the truncated
# replies were retried over TCP (upstream.tcp > 0 when
# upstream.truncated > 0); curvecache exits 0 with no sanitizer report.
# No timing assertion: the run time, upstream timeouts, truncated
# replies, TCP retries and the hedges (log-level debug: event=sel_choose
# why=hedge) are printed as figures (speed belongs to
# tests/bench/selection.sh).
#
# Run by "make check" (cwd = top build dir, $srcdir = top source dir).
# Exit 0 = every check passed, 1 = a check failed, 77 = SKIP.

# shellcheck disable=SC2119 # cc_start takes optional config lines
set -u
srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=tests/e2e/e2e_lib.sh
. "$srcdir/tests/e2e/e2e_lib.sh"
# shellcheck source=tests/e2e/hard_lib.sh
. "$srcdir/tests/e2e/hard_lib.sh"
# shellcheck source=tests/e2e/rrl_lib.sh
. "$srcdir/tests/e2e/rrl_lib.sh"
e2e_init rrl_lab dnsperf
RRL_NAMES=${RRL_NAMES:-2500}
RRL_OUTSTANDING=${RRL_OUTSTANDING:-50}
RRL_SERVFAIL_MAX=${RRL_SERVFAIL_MAX:-10}

n=0
for ip in "$RRL_NS1" "$RRL_NS2"; do
  n=$((n + 1))
  rrl_nsd_conf "$WORK" "rrl$n" "$ip" \
    "$(cd "$srcdir" && pwd)/tests/lab/zones/rrl.lab.zone"
  bg_start "nsd-rrl$n" nsd -d -c "$WORK/nsd-rrl$n.conf"
  rrl_up "$ip" || { bad "NSD rrl$n on $ip" "does not answer" \
    "$WORK/nsd-rrl$n.log"; exit 1; }
done
ok "two NSDs with RRL (ratelimit 200, slip 2) serve rrl.lab."

cc_start || exit 1
rrl_names "$RRL_NAMES" "r$$-" >"$WORK/names"
t0=$(now_ms)
dnsperf -s "$CC_IP" -d "$WORK/names" -n 1 -q "$RRL_OUTSTANDING" -t 12 \
  </dev/null >"$WORK/perf.out" 2>&1
ms=$(($(now_ms) - t0))
done_n=$(rrl_perf_field "$WORK/perf.out" completed)
lost=$(rrl_perf_field "$WORK/perf.out" lost)
noerr=$(rrl_perf_field "$WORK/perf.out" NOERROR)
sfail=$(rrl_perf_field "$WORK/perf.out" SERVFAIL)
tmo=$(cc_stat upstream.timeouts)
trunc=$(cc_stat upstream.truncated)
tcp=$(cc_stat upstream.tcp)
sends=$(cc_stat upstream.sends)
hedges=$(grep -c 'event=sel_choose .*why=hedge' "$WORK/curvecache.log")
echo "# $RRL_NAMES names, $RRL_OUTSTANDING outstanding: $ms ms;" \
  "NOERROR $noerr, SERVFAIL $sfail, lost $lost;" \
  "upstream: $sends sends, $tmo timeouts, $trunc truncated, $tcp over" \
  "TCP, $hedges hedges"

if [ "$lost" -eq 0 ] && [ "$done_n" -eq "$RRL_NAMES" ]; then
  ok "every name answered ($done_n)"
else
  bad "every name answered" "$done_n completed, $lost lost" "$WORK/perf.out"
fi
if [ $((sfail * 1000)) -lt $((RRL_NAMES * RRL_SERVFAIL_MAX)) ]; then
  ok "SERVFAIL $sfail of $RRL_NAMES (under $RRL_SERVFAIL_MAX per mille)"
else
  bad "SERVFAIL under $RRL_SERVFAIL_MAX per mille" "$sfail of $RRL_NAMES" \
    "$WORK/perf.out"
fi
if [ $((noerr + sfail)) -eq "$done_n" ]; then
  ok "no answer but NOERROR and SERVFAIL"
else
  bad "no answer but NOERROR and SERVFAIL" "other codes" "$WORK/perf.out"
fi
if [ "${trunc:-0}" -eq 0 ] || [ "${tcp:-0}" -gt 0 ]; then
  ok "truncated replies ($trunc) retried over TCP ($tcp)"
else
  bad "truncated replies retried over TCP" "$trunc truncated, no TCP"
fi
cc_clean_stop "rrl"
san_check
e2e_finish
