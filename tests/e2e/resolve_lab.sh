#!/bin/sh
# tests/e2e/resolve_lab.sh: end-to-end test of the curvecache daemon as a
# recursive resolver, with the loopback lab (tests/lab/lab.sh) as its
# Internet: every lab case asked with dig over UDP and over TCP, and the
# proof that the DNSCurve zones were asked boxed.
#
# Run by "make check" (cwd = top build dir, $srcdir = top source dir).
# Exit 0 = every check passed, 1 = a check failed, 77 = SKIP (not root,
# or nsd/curvedns/dig/python3 missing). Shared code: tests/e2e/e2e_lib.sh.
#
# How each check decides:
# - The reference is the lab itself: dig asks the NSD that holds each
#   zone (without recursion), following CNAMEs and DNAMEs from zone to
#   zone (ref in e2e_lib.sh). curvecache's answer section must hold the
#   same records (owner, type, data) with TTLs no larger; its status must
#   be the expected one (and the reference's); NXDOMAIN and NODATA must
#   carry the zone's SOA in the authority section; flags qr rd ra, never
#   aa or ad; SERVFAIL only for the cases built to fail (CNAME loop, only
#   lame servers, only dead addresses); every answer within T_ANSWER_MS,
#   every SERVFAIL within T_SERVFAIL_MS (e2e_lib.sh).
# - Rounds: UDP with a cold cache (DNSCurve streamlined first, the
#   default); UDP again from the cache (no upstream query may be sent);
#   then a restarted curvecache (SIGTERM must exit 0) with
#   "curve-formats: txt streamlined" and a cold cache, over TCP.
# - DNSCurve proof: tests/e2e/sniff.py captures loopback port-53 traffic
#   for the whole run. curvecache sends from its own address (CC_IP), so
#   its packets are told apart from CurveDNS's forwarding (127.0.0.1) and
#   from this script's reference queries. Every message from curvecache
#   to a CurveDNS address must be a DNSCurve query (streamlined or TXT
#   format), each of the three CurveDNS must have been asked, both
#   formats and TCP must appear, nothing from curvecache may reach a
#   back end (127.53.0.4, 127.53.2.2, 127.53.2.4), the CurveDNS logs must
#   show boxed replies and no plain ones, and curvecache's own log and
#   counters must agree.
# - Also: TC to the client when an answer does not fit, TTLs counted
#   down, a 2-second TTL that expires and is fetched again, RD=0 served
#   from the cache only, and the TLD test. answered locally (RFC 6761).

# shellcheck disable=SC2119 # cc_start takes optional config lines
set -u
srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=tests/e2e/e2e_lib.sh
. "$srcdir/tests/e2e/e2e_lib.sh"
e2e_init resolve_lab python3 ss

# NAME TYPE EXPECT: every case of the lab (see tests/lab/lab.sh and the
# zone files). EXPECT: answer, nodata, nxdomain or servfail.
CASES="www.example.lab A answer
www.example.lab AAAA answer
www.example.lab TXT answer
example.lab MX answer
_dns._udp.example.lab SRV answer
id.lab TXT answer
alias.example.lab A answer
chain.example.lab A answer
chain.example.lab AAAA answer
www.dn.example.lab A answer
dangle.example.lab A nxdomain
foo.wild.example.lab A answer
a.b.wild.example.lab TXT answer
foo.wild.example.lab AAAA nodata
nosuch.example.lab A nxdomain
mail.example.lab AAAA nodata
www.example.lab MX nodata
many.example.lab A answer
many.example.lab AAAA answer
bigtxt.example.lab TXT answer
short.example.lab AAAA answer
www.other.lab A answer
www.other.lab AAAA answer
www.other.lab MX nodata
nosuch.other.lab A nxdomain
loop1.other.lab A servfail
www.dead.lab A answer
id.dead.lab TXT answer
www.lame.lab A answer
id.lame.lab TXT answer
www.broken.lab A servfail
www.gone.lab A servfail
id.curve TXT answer
nosuch.curve A nxdomain
www.secure.curve A answer
www.secure.curve AAAA answer
www.secure.curve TXT answer
secure.curve MX answer
chain.secure.curve A answer
foo.wild.secure.curve A answer
nosuch.secure.curve A nxdomain
mail.secure.curve AAAA nodata
many.secure.curve AAAA answer
bigtxt.secure.curve TXT answer
www.boxed.lab A answer
id.boxed.lab TXT answer
nosuch.boxed.lab A nxdomain"

CURVE_IPS="$LAB_CURVE_IP $LAB_CURVETLD_IP $LAB_SECURE_IP"

# ask ROUND NAME TYPE [DIG OPTIONS]: dig through curvecache; writes
# $WORK/cc.raw and sets ms, the time dig reports for its last query (after
# a TC answer over UDP: the TCP one), 99999 when there was no reply.
ask() {
  aopt=
  [ "$1" = tcp ] && aopt=+tcp
  an=$2 at=$3
  shift 3
  # shellcheck disable=SC2086 # aopt is one option or none
  dig +time=8 +tries=1 $aopt "$@" +noclass +noall +comments +answer \
    +authority +stats "@$CC_IP" "$an" "$at" </dev/null >"$WORK/cc.raw" 2>&1
  ms=99999
  while IFS= read -r line; do
    case $line in ";; Query time: "*" msec") ms=${line#;; Query time: }
                                            ms=${ms% msec} ;;
    esac
  done <"$WORK/cc.raw"
}

# ask_more: after ask, the sections as "TTL owner TYPE RDATA" lines in
# $WORK/cc.ans and cc.auth, and cc_status, cc_flags (" qr rd ... ").
ask_more() {
  rm -f "$WORK/cc.ans" "$WORK/cc.auth"
  split_sections "$WORK/cc.raw" "$WORK/cc.ans" "$WORK/cc.auth"
  cc_status=$(dig_status "$WORK/cc.raw")
  cc_flags=" $(dig_flags "$WORK/cc.raw") "
}

# check ROUND NAME TYPE EXPECT [DIG OPTIONS]: one case (see the header
# and verdict in e2e_lib.sh), within the time bound.
check() {
  cr=$1 cn=$2 ct=$3 ce=$4
  shift 4
  label="$cr $cn $ct: $ce${*:+ ($*)}"
  [ "$ce" = servfail ] || ref "$cn" "$ct"
  ask "$cr" "$cn" "$ct" "$@"
  bound=$T_ANSWER_MS
  [ "$ce" = servfail ] && bound=$T_SERVFAIL_MS
  [ "$ms" -le "$bound" ] ||
    { bad "$label" "took $ms ms (bound $bound ms)" "$WORK/cc.raw"; return; }
  v=$(verdict "$ce" "$cn" "$ct" "$WORK/cc.raw")
  if [ "$v" = ok ]; then
    ok "$label"
  else
    bad "$label" "$v" "$WORK/cc.raw"
    [ "$ce" = servfail ] || sed 's/^/     lab | /' "$ref_ans"
  fi
}

# round ROUND [EXPECT-FILTER]: every case (or those whose EXPECT matches
# the extended regex).
round() {
  printf '%s\n' "$CASES" | grep -E " (${2:-.*})\$" >"$WORK/cases"
  while read -r n t e; do
    check "$1" "$n" "$t" "$e"
  done <"$WORK/cases"
}

# count_lines PATTERN FILE: lines matching the extended regex (0 if none).
count_lines() { grep -cE "$1" "$2"; }

# ---- The capture: from before curvecache starts to the end ----
CAP=$WORK/capture.txt
e2e_sniff_start "$CAP" 300

# Per CurveDNS log (in LAB_CURVEDNS_LOGS order): boxed and plain replies
# so far (lab.sh's start-up probes are plain queries).
for f in $LAB_CURVEDNS_LOGS; do
  grep -c 'done encryption' "$f" >>"$WORK/boxed0"
  grep -c 'sending DNS response in regular format' "$f" >>"$WORK/plain0"
done

# ---- Round 1: UDP, cold cache, streamlined first ----
cc_start || exit 1
echo "# round 1: UDP, cold cache ($(elapsed))"
round udp

# ---- Round 2: UDP again, from the cache ----
echo "# round 2: UDP, from the cache (no upstream query) ($(elapsed))"
# The dead zone gone.lab. of round 1 is probed on a timer when its
# back-off ends (its SOA, RFC 9520; no client waits on it): those
# queries are not the clients'.
client_sends() {
  grep 'event=upstream_send' "$WORK/curvecache.log" |
    grep -v 'qname=gone\.lab\. type=SOA' >"$WORK/sends"
  wc -l <"$WORK/sends"
}
sends0=$(client_sends)
# (not the 2-second TTLs: they have expired since round 1)
printf '%s\n' "$CASES" | grep -v '^short\.' |
  grep -E ' (answer|nodata|nxdomain)$' >"$WORK/cases"
while read -r n t e; do
  check udp "$n" "$t" "$e"
done <"$WORK/cases"
sends1=$(client_sends)
if [ "$sends1" -eq "$sends0" ]; then
  ok "round 2 sent no upstream query"
else
  tail -n $((sends1 - sends0)) "$WORK/sends" >"$WORK/diff"
  bad "round 2 sent no upstream query" "$((sends1 - sends0)) sent" \
    "$WORK/diff"
fi

# ---- Answers too big for the client's UDP ----
ask udp bigtxt.example.lab TXT +ignore
ask_more
case $cc_flags in
  *" tc "*) ok "udp bigtxt.example.lab TXT (EDNS 1232): TC set" ;;
  *) bad "udp bigtxt.example.lab TXT (EDNS 1232): TC set" \
       "flags$cc_flags" "$WORK/cc.raw" ;;
esac
ask udp many.example.lab AAAA +ignore +noedns
ask_more
case $cc_flags in
  *" tc "*) ok "udp many.example.lab AAAA (no EDNS, ~590 bytes): TC set" ;;
  *) bad "udp many.example.lab AAAA (no EDNS, ~590 bytes): TC set" \
       "flags$cc_flags" "$WORK/cc.raw" ;;
esac
check udp many.example.lab AAAA answer +noedns
check udp many.example.lab A answer +noedns +ignore
ask_more
case $cc_flags in
  *" tc "*) bad "udp many.example.lab A (no EDNS, ~390 bytes): no TC" \
       "flags$cc_flags" "$WORK/cc.raw" ;;
  *) ok "udp many.example.lab A (no EDNS, ~390 bytes): no TC" ;;
esac

# ---- TTLs: counted down; a 2-second TTL expires and is fetched again ----
# first_ttl: the TTL of the first answer record of the last ask.
first_ttl() { ask_more; awk '{ print $1; exit }' "$WORK/cc.ans"; }
ask udp www.example.lab A
ttl_a=$(first_ttl)
check udp short.example.lab A answer
short1_ttl=$(first_ttl)
short1_sends=$(sends_for short.example.lab.)
check udp short.secure.curve A answer
short2_ttl=$(first_ttl)
short2_sends=$(sends_for short.secure.curve.)
sleep 3
ask udp www.example.lab A
ttl_b=$(first_ttl)
if [ -n "$ttl_a" ] && [ -n "$ttl_b" ] && [ "$ttl_b" -le $((ttl_a - 2)) ]; then
  ok "TTL counted down (www.example.lab: $ttl_a, 3 s later $ttl_b)"
else
  bad "TTL counted down" "www.example.lab: '$ttl_a', 3 s later '$ttl_b'"
fi
# expired NAME TTL-BEFORE SENDS-BEFORE: NAME answered again, and asked
# upstream again since its TTL (at most 2) ran out.
expired() {
  check udp "$1" A answer
  ettl=$(first_ttl)
  esends=$(sends_for "$1.")
  if [ "${2:-9}" -le 2 ] && [ "$esends" -gt "$3" ]; then
    ok "$1: TTL 2 s expired, fetched again (TTL $2 then $ettl)"
  else
    bad "$1: TTL 2 s expired, fetched again" \
      "TTL '$2' then '$ettl', upstream queries $3 then $esends"
  fi
}
expired short.example.lab "$short1_ttl" "$short1_sends"
expired short.secure.curve "$short2_ttl" "$short2_sends"

# ---- RD=0: from the cache only ----
ask udp www.example.lab A +norec
ask_more
ref www.example.lab A
if [ "$cc_status" = NOERROR ] &&
   [ "$(records "$ref_ans")" = "$(records "$WORK/cc.ans")" ]; then
  ok "RD=0 www.example.lab A: the cached answer"
else
  bad "RD=0 www.example.lab A: the cached answer" "status $cc_status" \
    "$WORK/cc.raw"
fi
s0=$(sends_for uncached.example.lab.)
ask udp uncached.example.lab A +norec
ask_more
s1=$(sends_for uncached.example.lab.)
if [ "$s1" -eq "$s0" ] && [ "$ms" -le "$T_ANSWER_MS" ] &&
   [ ! -s "$WORK/cc.ans" ] && [ -n "$cc_status" ]; then
  ok "RD=0 uncached.example.lab A: no upstream query ($cc_status)"
else
  bad "RD=0 uncached.example.lab A: no upstream query" \
    "status '$cc_status', $((s1 - s0)) upstream queries, $ms ms" "$WORK/cc.raw"
fi

# ---- test. is answered locally (RFC 6761), never sent upstream ----
ask udp www.plain.test A
ask_more
if [ "$cc_status" = NXDOMAIN ] && grep -q '^[0-9]* test\. SOA ' "$WORK/cc.auth" &&
   [ "$(sends_to "$LAB_TEST_IP")" -eq 0 ] &&
   [ "$(sends_to "$LAB_ROOT_IP" test.)" -eq 0 ]; then
  ok "www.plain.test: NXDOMAIN from the local test. zone, not sent upstream"
else
  bad "www.plain.test: NXDOMAIN from the local test. zone" \
    "status $cc_status" "$WORK/cc.raw"
fi

# ---- Round 3: a new curvecache, TXT format first, TCP, cold cache ----
curve_ok0=$(cc_stat curve.responses.ok)
fallback0=$(cc_stat curve.fallback.plain)
cc_stop
cc_start "curve-formats: txt streamlined" || exit 1
echo "# round 3: TCP, cold cache, DNSCurve TXT format first ($(elapsed))"
round tcp

# ---- The DNSCurve proof ----
echo "# DNSCurve proof ($(elapsed))"
curve_ok1=$(cc_stat curve.responses.ok)
fallback1=$(cc_stat curve.fallback.plain)
e2e_sniff_stop "$CAP"
# Lines: PROTO SRC SPORT DST DPORT LEN KIND (tests/e2e/sniff.py).
awk -v cc="$CC_IP" '$2 == cc' "$CAP" >"$WORK/from_cc"
n=$(count_lines "^udp $CC_IP [0-9]+ $LAB_ROOT_IP 53 " "$WORK/from_cc")
if [ "$n" -gt 0 ]; then
  ok "capture: curvecache's queries to the root seen ($n)"
else
  bad "capture: curvecache's queries to the root seen" "none" "$CAP"
fi
for ip in $LAB_BACKENDS; do
  awk -v ip="$ip" '$4 == ip' "$WORK/from_cc" >"$WORK/diff"
  if [ -s "$WORK/diff" ]; then
    bad "capture: nothing from curvecache to back end $ip" \
      "$(wc -l <"$WORK/diff") packets" "$WORK/diff"
  else
    ok "capture: nothing from curvecache to back end $ip"
  fi
  # The back ends did get traffic (from CurveDNS and this script).
  n=$(awk -v ip="$ip" '$4 == ip' "$CAP" | wc -l)
  [ "$n" -gt 0 ] || bad "capture: back end $ip seen at all" "no packets"
done
for ip in $CURVE_IPS; do
  awk -v ip="$ip" '$4 == ip' "$WORK/from_cc" >"$WORK/to_curve"
  awk '$7 != "streamlined" && $7 != "txt"' "$WORK/to_curve" >"$WORK/diff"
  nq=$(wc -l <"$WORK/to_curve")
  if [ "$nq" -gt 0 ] && [ ! -s "$WORK/diff" ]; then
    ok "capture: all $nq messages from curvecache to CurveDNS $ip boxed"
  else
    bad "capture: all messages from curvecache to CurveDNS $ip boxed" \
      "$nq messages, these not boxed:" "$WORK/diff"
  fi
  awk -v ip="$ip" -v cc="$CC_IP" '$2 == ip && $4 == cc &&
    $7 != "streamlined-reply" && $7 != "txt-reply"' "$CAP" >"$WORK/diff"
  if [ -s "$WORK/diff" ]; then
    bad "capture: every reply from CurveDNS $ip to curvecache boxed" \
      "these are not:" "$WORK/diff"
  else
    ok "capture: every reply from CurveDNS $ip to curvecache boxed"
  fi
done
for want in "udp streamlined" "udp txt" "tcp streamlined" "tcp txt"; do
  n=$(awk -v p="${want% *}" -v k="${want#* }" '$1 == p && $7 == k' \
    "$WORK/from_cc" | wc -l)
  if [ "$n" -gt 0 ]; then ok "capture: DNSCurve $want queries ($n)"
  else bad "capture: DNSCurve $want queries" "none"; fi
done
i=0
for f in $LAB_CURVEDNS_LOGS; do
  i=$((i + 1))
  b0=$(sed -n "${i}p" "$WORK/boxed0")
  b1=$(grep -c 'done encryption' "$f")
  if [ "$b1" -gt "$b0" ]; then
    ok "CurveDNS log $(basename "$f"): $((b1 - b0)) boxed replies"
  else
    bad "CurveDNS log $(basename "$f"): boxed replies" "none"
  fi
  p0=$(sed -n "${i}p" "$WORK/plain0")
  p1=$(grep -c 'sending DNS response in regular format' "$f")
  if [ "$p1" -eq "$p0" ]; then
    ok "CurveDNS log $(basename "$f"): no plain reply during the run"
  else
    bad "CurveDNS log $(basename "$f"): no plain reply during the run" \
      "$((p1 - p0)) plain replies"
  fi
done
for ip in $CURVE_IPS; do
  grep "event=upstream_send server=$ip " "$WORK/curvecache.log" |
    grep -v 'format=streamlined\|format=txt' >"$WORK/diff"
  n=$(sends_to "$ip")
  if [ "$n" -gt 0 ] && [ ! -s "$WORK/diff" ]; then
    ok "curvecache log: $n queries to $ip, all boxed"
  else
    bad "curvecache log: queries to $ip all boxed" "$n queries" "$WORK/diff"
  fi
done
for ip in $LAB_BACKENDS; do
  n=$(sends_to "$ip")
  if [ "$n" -eq 0 ]; then ok "curvecache log: no query to back end $ip"
  else bad "curvecache log: no query to back end $ip" "$n queries"; fi
done
if [ "${curve_ok0:-0}" -gt 0 ] && [ "${curve_ok1:-0}" -gt 0 ] &&
   [ "${fallback0:-x}" = 0 ] && [ "${fallback1:-x}" = 0 ]; then
  ok "curvecache counters: curve.responses.ok $curve_ok0 and $curve_ok1, no plain fallback"
else
  bad "curvecache counters" "curve.responses.ok '$curve_ok0' '$curve_ok1', curve.fallback.plain '$fallback0' '$fallback1'"
fi

cc_stop
e2e_finish
