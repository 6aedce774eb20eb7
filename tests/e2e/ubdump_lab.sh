#!/bin/sh
# tests/e2e/ubdump_lab.sh: a switch from Unbound keeps its warm cache.
# Debian's unbound (the real daemon, /usr/sbin/unbound, iterating in the
# loopback lab of tests/lab/lab.sh on $UB_IP) resolves a few lab names;
# "unbound-control dump_cache" writes its cache; curvecache loads that
# text with load_cache and answers the same names from its cache.
#
# Run by "make check" (cwd = top build dir, $srcdir = top source dir).
# Exit 0 = every check passed, 1 = a check failed, 77 = SKIP (not root,
# or nsd/curvedns/dig/unbound/unbound-control missing).
#
# How each check decides:
# - the dump is Unbound's: it begins with START_RRSET_CACHE, holds
#   ";rrset" lines and a message part, and ends with EOF.
# - curvecache-control load_cache FILE: exit 0, "loaded N entries" with
#   N > 0 and 0 bad lines; the message part is ignored, not an error.
# - the answers: for each name, curvecache's answer section (dig
#   +noall +answer +nottlid) equals Unbound's, and curvecache sent no
#   query upstream for any of them (no upstream_send line in its debug
#   log after the load).
# - nothing loaded is marked validated: dump_cache shows no sec=secure.
# - unbound-control load_cache (Unbound's framing, to the EOF line) into
#   an emptied cache: the same answers, still no upstream query.
# - a dump cut in the middle of an RRset, and one with garbage lines,
#   report their bad lines as FILE:LINE (load_cache FILE); the good
#   RRsets are stored and curvecache keeps answering.

# shellcheck disable=SC2119 # cc_start takes optional config lines
set -u
srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=tests/e2e/e2e_lib.sh
. "$srcdir/tests/e2e/e2e_lib.sh"
e2e_init ubdump_lab unbound unbound-control

CTL=${CURVECACHE_CONTROL:-./curvecache-control}
e2e_built CTL
# Unbound beside curvecache (the lab never uses 127.53.100.0/24).
UB_IP=127.53.100.2
SOCK=$WORK/control
UB_SOCK=$WORK/unbound.ctl
# The names both resolvers are asked (name and type).
NAMES="www.plain.test:A www.plain.test:AAAA www.plain.test:TXT
plain.test:MX alias.plain.test:A _dns._udp.plain.test:SRV
www.curve.test:A mail.plain.test:A"

e2e_diag() {
  [ -f "$WORK/unbound.out" ] && tail -n 20 "$WORK/unbound.out"
  [ -f "$WORK/curvecache.log" ] &&
    grep -v 'event=stats' "$WORK/curvecache.log" | tail -n 30
}

port_free "$UB_IP" || { echo "FAIL: $UB_IP:53 is in use"; exit 1; }
# test. is one of Unbound's default local zones (RFC 6761): nodefault
UB_CONTROL=$UB_SOCK ub_conf "$UB_IP" "$LAB_ROOT_HINTS" \
  'module-config: "iterator"' "qname-minimisation: no" \
  'local-zone: "test." nodefault'
ubc_conf "$WORK/ubc.conf" "$UB_SOCK"
# unbound-control for curvecache's socket (its Unbound framing)
ubc_conf "$WORK/ccc.conf" "$SOCK"
ub_start "$UB_IP" || exit 1

# answers SERVER FILE: the answer sections of every name, one block each.
answers() {
  for nt in $NAMES; do
    echo "; ${nt%%:*} ${nt#*:}"
    dig +time=3 +tries=1 +noall +answer +nottlid "@$1" "${nt%%:*}" \
      "${nt#*:}" | sort
  done >"$2"
}

answers "$UB_IP" "$WORK/ub.answers"
t="Unbound resolves the lab names"
if [ "$(grep -vc '^;' "$WORK/ub.answers")" -ge 8 ]; then ok "$t"
else bad "$t" "too few records" "$WORK/ub.answers"; fi

t="unbound-control dump_cache writes Unbound's format"
unbound-control -c "$WORK/ubc.conf" dump_cache >"$WORK/ub.dump" 2>&1
rc=$?
if [ $rc -eq 0 ] && [ "$(head -n 1 "$WORK/ub.dump")" = START_RRSET_CACHE ] &&
   grep -q '^;rrset ' "$WORK/ub.dump" && grep -qx START_MSG_CACHE \
     "$WORK/ub.dump" && [ "$(tail -n 1 "$WORK/ub.dump")" = EOF ]
then ok "$t ($(grep -c '^;rrset ' "$WORK/ub.dump") RRsets)"
else bad "$t" "exit $rc" "$WORK/ub.dump"; fi

cc_start "control-socket: $SOCK" "local-zone: test. nodefault" ||
  { e2e_finish; exit 1; }

t="curvecache-control load_cache reads Unbound's dump"
"$CTL" -s "$SOCK" load_cache "$WORK/ub.dump" >"$WORK/load1" 2>&1
rc=$?
n=$(sed -n 's/^loaded \([0-9]*\) entries.*/\1/p' "$WORK/load1")
if [ $rc -eq 0 ] && [ "${n:-0}" -gt 0 ] && grep -q ', 0 bad$' "$WORK/load1"
then ok "$t ($n entries)"
else cat "$WORK/ub.dump" >>"$WORK/load1"; bad "$t" "exit $rc" "$WORK/load1"; fi

# same_from_cache WHAT: curvecache's answers equal Unbound's, and no
# upstream query went out for them.
same_from_cache() {
  s0=$(grep -c 'event=upstream_send ' "$WORK/curvecache.log")
  answers "$CC_IP" "$WORK/cc.answers"
  s1=$(grep -c 'event=upstream_send ' "$WORK/curvecache.log")
  if ! diff "$WORK/ub.answers" "$WORK/cc.answers" >"$WORK/diff" 2>&1; then
    bad "$1" "answers differ (< unbound, > curvecache)" "$WORK/diff"
  elif [ "$s1" -ne "$s0" ]; then
    grep 'event=upstream_send ' "$WORK/curvecache.log" | tail -n 5 \
      >"$WORK/sends"
    bad "$1" "$((s1 - s0)) upstream queries" "$WORK/sends"
  else
    ok "$1"
  fi
}

same_from_cache "the same answers, from the cache (no upstream query)"

t="nothing loaded is marked validated (no sec=secure)"
"$CTL" -s "$SOCK" dump_cache >"$WORK/ccdump" 2>&1
if grep -q 'www\.plain\.test\.' "$WORK/ccdump" &&
   ! grep -q 'sec=secure' "$WORK/ccdump"; then ok "$t"
else bad "$t" "see the dump" "$WORK/ccdump"; fi

t="unbound-control load_cache into an emptied cache"
"$CTL" -s "$SOCK" flush_all >/dev/null 2>&1
unbound-control -c "$WORK/ccc.conf" load_cache <"$WORK/ub.dump" \
  >"$WORK/load2" 2>&1
rc=$?
if [ $rc -eq 0 ] && grep -q '^ok ' "$WORK/load2"; then ok "$t"
else bad "$t" "exit $rc" "$WORK/load2"; fi
same_from_cache "after unbound-control load_cache: the same, no upstream query"

t="a cut and garbled dump: bad lines as FILE:LINE, the rest stored"
"$CTL" -s "$SOCK" flush_all >/dev/null 2>&1
{
  echo START_RRSET_CACHE
  echo ';rrset 3000 1 0 8 0'
  echo 'www.plain.test.	3000	IN	A	192.0.2.10'
  echo ';rrset 3000 2 0 8 0'
  echo 'good.example.	3000	IN	A	192.0.2.1'
  echo ';rrset nonsense'
  printf 'junk \001\002 line\n'
  echo ';rrset 3000 1 0 8 0'
  echo 'www.plain.test.	3000	IN	AAAA	2001:db8::10'
  echo ';rrset 3000 3 0 8 0'
  echo 'cut.example.	3000	IN	A	192.0.2.3'
} >"$WORK/bad.dump"
"$CTL" -s "$SOCK" load_cache "$WORK/bad.dump" >"$WORK/load3" 2>&1
rc=$?
s0=$(grep -c 'event=upstream_send ' "$WORK/curvecache.log")
a=$(dig +time=3 +tries=1 +short "@$CC_IP" www.plain.test A)
aaaa=$(dig +time=3 +tries=1 +short "@$CC_IP" www.plain.test AAAA)
s1=$(grep -c 'event=upstream_send ' "$WORK/curvecache.log")
if [ $rc -eq 1 ] && grep -q "^$WORK/bad.dump:6: " "$WORK/load3" &&
   grep -q "^$WORK/bad.dump:7: " "$WORK/load3" && grep -q '^loaded 2 entries' \
     "$WORK/load3" && [ "$a" = 192.0.2.10 ] &&
   [ "$aaaa" = 2001:db8::10 ] && [ "$s1" -eq "$s0" ]; then ok "$t"
else bad "$t" "exit $rc, A '$a', AAAA '$aaaa'" "$WORK/load3"; fi

cc_stop
e2e_finish
