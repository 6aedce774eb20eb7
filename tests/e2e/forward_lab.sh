#!/bin/sh
# tests/e2e/forward_lab.sh: forward zones (zone cuts of the iterator
# whose servers are the forwarders, asked with RD=1) and stub zones end to
# end, with curvecache resolving in the loopback lab (tests/lab/lab.sh;
# shared code in tests/e2e/e2e_lib.sh).
#
# Run by "make check" (cwd = top build dir, $srcdir = top source dir).
# Exit 0 = every check passed, 1 = a check failed, 77 = SKIP (not root,
# or nsd/curvedns/dig missing).
#
# Forward zones (the forwarder is the lab's NSD of the zone: it answers
# an RD=1 query from its own data, which is what a forwarder returns):
# - example.lab. -> 127.53.1.2: answers, NXDOMAIN with the SOA, from the
#   forwarder only: forward.queries moves, nothing is sent to the root
#   or to lab.; the
#   second query is a cache hit with no new forwarded query; the answer
#   has no AA and data as the lab's.
# - other.lab. -> a dead address, then 127.53.1.3: the next forwarder
#   is asked.
# - gone.lab. -> dead addresses only: SERVFAIL, forward.failures moves.
# Stub zones (test. is a special-use name answered locally, RFC 6761, so
# plain.test. and curve.test. are not reachable by iteration at all):
# - plain.test. -> 127.53.0.3: resolved at that NSD, nothing sent to the
#   root or to test.'s server;
# - curve.test. -> 127.53.0.5/uz5... (the lab's CurveDNS and its key):
#   the query goes boxed (curve.responses.ok moves), the answer is
#   right.
# Reload (SIGHUP, two workers), without a restart:
# - example.lab. forwarded to a dead address instead: questions from four
#   source ports (both workers) get SERVFAIL, four forward failures;
# - the forward zones removed: example.lab. names are resolved from the
#   root again (upstream.sends moves, forward.queries does not);
# - a question still at a (2 s slow) forwarder when a reload drops it is
#   answered SERVFAIL; no sanitizer report at the end.

set -u
srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=tests/e2e/e2e_lib.sh
. "$srcdir/tests/e2e/e2e_lib.sh"
# shellcheck source=tests/e2e/hard_lib.sh
. "$srcdir/tests/e2e/hard_lib.sh"
e2e_init forward_lab python3

DEAD1=${LAB_DEAD_IPS% *}
DEAD2=${LAB_DEAD_IPS#* }

# q NAME TYPE TAG: dig through curvecache into $WORK/TAG.out.
q() {
  dig +time=8 +tries=1 +noall +comments +answer +authority +noclass \
    "@$CC_IP" "$1" "$2" >"$WORK/$3.out" 2>&1
}
# expect NAME GOT WANT
expect() {
  if [ "$2" = "$3" ]; then ok "$1"; else bad "$1" "got '$2', want '$3'"; fi
}
# judge TAG NAME TYPE EXPECT CHECK: the answer against the lab (verdict).
judge() {
  ref "$2" "$3"
  v=$(verdict "$4" "$2" "$3" "$WORK/$1.out")
  if [ "$v" = ok ]; then ok "$5"; else bad "$5" "$v" "$WORK/$1.out"; fi
}

# Two workers: a reload must reach the forwarders of both.
cc_start "threads: 2" "forward-zone: example.lab. $LAB_EXAMPLE_IP" \
  "forward-zone: other.lab $DEAD1 $LAB_OTHER_IP@53" \
  "forward-zone: gone.lab. $DEAD1 $DEAD2" \
  "stub-zone: plain.test. $LAB_PLAIN_IP" \
  "stub-zone: curve.test. $LAB_CURVE_IP/$LAB_CURVE_KEY" || exit 1

# ---- forward: answers from the forwarder only ----
q www.example.lab A f1
judge f1 www.example.lab A answer "forward: www.example.lab A as the lab"
q nosuch.example.lab A f2
judge f2 nosuch.example.lab A nxdomain "forward: NXDOMAIN with the SOA"
q www.example.lab MX f3
judge f3 www.example.lab MX nodata "forward: NODATA with the SOA"
expect "forward: 3 questions forwarded" "$(cc_stat forward.queries)" 3
expect "forward: nothing sent to the root or lab. (forwarder only)" \
  "$(($(sends_to "$LAB_ROOT_IP") + $(sends_to "$LAB_TLD_IP")))" 0
h0=$(cc_stat total.num.cachehits)
q www.example.lab A f4
judge f4 www.example.lab A answer "forward: again, from the cache"
expect "forward: ... a cache hit" "$(cc_stat total.num.cachehits)" \
  $((h0 + 1))
expect "forward: ... nothing forwarded" "$(cc_stat forward.queries)" 3

# ---- forward: failover and total failure ----
q www.other.lab A f5
judge f5 www.other.lab A answer "forward: a dead forwarder, then the next"
q www.gone.lab A f6
expect "forward: every forwarder dead: SERVFAIL" \
  "$(dig_status "$WORK/f6.out")" SERVFAIL
expect "forward: forward.failures 1" "$(cc_stat forward.failures)" 1
expect "forward: still nothing to the root or lab." \
  "$(($(sends_to "$LAB_ROOT_IP") + $(sends_to "$LAB_TLD_IP")))" 0

# ---- stub zones ----
q www.plain.test A s1
judge s1 www.plain.test A answer "stub: www.plain.test A (test. is local)"
q alias.plain.test A s2
judge s2 alias.plain.test A answer "stub: a CNAME inside the stub zone"
expect "stub: queries to the stub server" \
  "$([ "$(sends_to "$LAB_PLAIN_IP")" -ge 1 ] && echo yes)" yes
expect "stub: nothing to the root or test." \
  "$(($(sends_to "$LAB_ROOT_IP") + $(sends_to "$LAB_TEST_IP")))" 0
c0=$(cc_stat curve.responses.ok)
q www.curve.test A s3
judge s3 www.curve.test A answer "stub with a key: www.curve.test A"
if [ "$(cc_stat curve.responses.ok)" -gt "$c0" ]; then
  ok "stub with a key: answered over DNSCurve"
else
  bad "stub with a key" "curve.responses.ok did not move"
fi
expect "stub with a key: nothing plain to CurveDNS" \
  "$(grep -c "event=upstream_send server=$LAB_CURVE_IP .*format=plain" \
    "$WORK/curvecache.log")" 0

# ---- reload: forward zones changed without a restart ----
# asks NAME TYPE N: N questions from N source ports (dig picks one each
# time; the kernel spreads them over both workers); prints the statuses.
asks() {
  i=0
  while [ $i -lt "$3" ]; do
    dig +time=8 +tries=1 "@$CC_IP" "$i.$1" "$2" 2>/dev/null |
      sed -n 's/.*status: \([A-Z]*\).*/\1/p'
    i=$((i + 1))
  done | sort | uniq -c | awk '{ printf "%s %s ", $2, $1 }'
}
# example.lab. now forwarded to a dead address only: no restart, and
# every worker asks the new forwarder (SERVFAIL), none the old.
cc_conf "threads: 2" "forward-zone: example.lab. $DEAD1" \
  "stub-zone: plain.test. $LAB_PLAIN_IP"
f0=$(cc_stat forward.failures)
cc_hup reload
expect "reload: forwarders changed, logged by both workers" \
  "$(grep -c 'event=forward_zones zones=1' "$WORK/curvecache.log")" 2
expect "reload: example.lab. to a dead forwarder now: SERVFAIL" \
  "$(asks wild.example.lab A 4)" "SERVFAIL 4 "
expect "reload: ... counted as forward failures" \
  "$(($(cc_stat forward.failures) - f0))" 4
# No forward zones: example.lab. is resolved from the root again.
cc_conf "threads: 2" "stub-zone: plain.test. $LAB_PLAIN_IP"
u0=$(cc_stat upstream.sends)
q0=$(cc_stat forward.queries)
cc_hup reload
expect "reload: forward zones removed: answered by iteration" \
  "$(asks wild.example.lab TXT 6)" "NOERROR 6 "
expect "reload: ... nothing forwarded" "$(cc_stat forward.queries)" "$q0"
expect "reload: ... the iterator asked upstream" \
  "$([ "$(cc_stat upstream.sends)" -gt "$u0" ] && echo yes)" yes
# A question still at a forwarder when a reload drops it: faulty.py's
# slow server (the answer after 2 s) as the forwarder; the reload comes
# first, and the client gets SERVFAIL, not the old forwarder's answer.
faulty_start 60 slow@127.53.3.11
cc_conf "threads: 2" "forward-zone: slow.g.fault.lab. 127.53.3.11"
cc_hup reload
# (not bg_start: it is waited for below, so the trap must not signal
# its pid again; dig ends by itself within 8 s)
dig +time=8 +tries=1 "@$CC_IP" www.slow.g.fault.lab A </dev/null \
  >"$WORK/inflight.out" 2>&1 &
DIG_PID=$!
sleep 0.5
cc_conf "threads: 2"
cc_hup reload
wait "$DIG_PID"
if [ "$(dig_status "$WORK/inflight.out")" = SERVFAIL ] &&
   grep -qi 'www.slow.g.fault.lab' "$WORK/faulty.out"; then
  ok "reload with a question at the old forwarder: SERVFAIL, no crash"
else
  bad "reload with a question at the old forwarder" "not SERVFAIL" \
    "$WORK/inflight.out"
fi
cc_stop
san_check

# ---- a validating forward: forward-zone: . to a validating Unbound of
# the signed lab (tests/lab/signed.sh; as tests/e2e/signed_lab.sh starts
# them): the answers are validated here too, AD=1 and the RRSIGs for a
# DO=1 client, the DS and DNSKEY asked of the forwarder. Skipped (not
# failed) without the signed lab's programs.
fwd_signed_ok=1
# shellcheck disable=SC2086 # a list of programs
for p in $SIGNED_NEEDS unbound; do
  command -v "$p" >/dev/null 2>&1 || fwd_signed_ok=0
done
if [ "$fwd_signed_ok" = 1 ]; then
  SIGNED=$srcdir/tests/lab/signed.sh
  e2e_signed=1
  if ! signedenv=$("$SIGNED" start 9>&-); then
    signedenv=
    bad "signed lab start" "signed.sh start failed"
    e2e_finish
    exit 1
  fi
  eval "$signedenv"
  UB_IP=127.54.100.1
  ub_valid_conf "$UB_IP"
  ub_start "$UB_IP" || exit 1
  CC_IP=127.54.100.2
  l0=$(wc -l <"$WORK/curvecache.log")
  cc_start "dnssec: yes" "trust-anchor-file: $SIGNED_TA_DS" \
    "root-hints: $SIGNED_ROOT_HINTS" "forward-zone: . $UB_IP" || exit 1
  dig +dnssec +time=8 +tries=1 "@$CC_IP" www.alg8.sec A >"$WORK/v1.out" 2>&1
  fl=" $(dig_flags "$WORK/v1.out") "
  if [ "$(dig_status "$WORK/v1.out")" = NOERROR ] &&
    case $fl in *" ad "*) true ;; *) false ;; esac &&
    grep -q "^www\.alg8\.sec\..*RRSIG[[:space:]]*A " "$WORK/v1.out"; then
    ok "validating forward: www.alg8.sec A: AD=1 and its RRSIGs"
  else
    bad "validating forward: www.alg8.sec A" "want NOERROR, AD, RRSIG" \
      "$WORK/v1.out"
  fi
  tail -n +"$((l0 + 1))" "$WORK/curvecache.log" >"$WORK/v.log"
  expect "validating forward: alg8.sec. DNSKEY asked of the forwarder" \
    "$([ "$(grep -c "event=upstream_send server=$UB_IP qname=alg8.sec. type=DNSKEY" \
      "$WORK/v.log")" -ge 1 ] && echo yes)" yes
  expect "validating forward: nothing sent but to the forwarder" \
    "$(grep "event=upstream_send " "$WORK/v.log" | grep -vc "server=$UB_IP ")" 0
  cc_stop
  san_check
else
  echo "# validating forward: skipped (signed lab programs or unbound missing)"
fi
e2e_finish
