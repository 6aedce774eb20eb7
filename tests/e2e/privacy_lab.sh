#!/bin/sh
# tests/e2e/privacy_lab.sh: the privacy report (issue 24, behaviour 4)
# on the main lab (tests/lab), auth-tls at its default (opportunistic):
# no lab server answers on 853, so every probe fails and the lab's plain
# servers stay plain, its CurveDNS servers are asked boxed.
#
# Run by "make check" (cwd = top build dir, $srcdir = top source dir).
# Exit 0 = every check passed, 1 = a check failed, 77 = SKIP.
#
# Checks, after 20 names under example.lab (127.53.1.2, plain) and one
# under secure.curve. (DNSCurve):
# - privacy: plain, curve, tls and tls_dane equal stats_noreset's
#   upstream.transport.*; tls_dane is 0; the encrypted percent is
#   (curve + tls + tls_dane) / all, one decimal; every plain send was
#   noted (noted + skipped = plain); the first server is 127.53.1.2 for
#   example.lab. with at least 20, the counts add up to at most plain;
#   "privacy 1" shows one server; "privacy 0" is refused;
# - stats prometheus: the same count for 127.53.1.2 as
#   curvecache_upstream_plain_server_queries{server=,zone=}, at most 10
#   such lines, and curvecache_upstream_transport_total{transport=
#   "tls_dane"} 0;
# - servers: transport= on every server line, 127.53.1.2 failed(Ns) or
#   plain (its probe refused), 127.53.2.3 curve, and the TLS count line;
# - lookup: "learned: A curve" for www.secure.curve., "learned: A plain"
#   for www.example.lab., "learned: NXDOMAIN plain" for p0.example.lab.

set -u
srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=tests/e2e/e2e_lib.sh
. "$srcdir/tests/e2e/e2e_lib.sh"
e2e_init privacy_lab

expect() {
  if [ "$2" = "$3" ]; then ok "$1"; else bad "$1" "got '$2', want '$3'"; fi
}

CTL=${CURVECACHE_CONTROL:-./curvecache-control}
e2e_built CTL
SOCK=$WORK/ctl.sock
ctl() { "$CTL" -s "$SOCK" "$@"; }
cc_start "control-socket: $SOCK" || exit 1

PLAIN=127.53.1.2
CURVE=127.53.2.3
i=0
while [ $i -lt 20 ]; do
  dig +time=5 +tries=1 "@$CC_IP" "p$i.example.lab" A >/dev/null 2>&1
  i=$((i + 1))
done
dig +time=5 +tries=1 "@$CC_IP" www.secure.curve. A >/dev/null 2>&1
dig +time=5 +tries=1 "@$CC_IP" www.example.lab. A >/dev/null 2>&1
sleep 1 # the refused probes end

ctl stats_noreset >"$WORK/s1" 2>&1
ctl privacy >"$WORK/p" 2>&1
ctl stats_noreset >"$WORK/s2" 2>&1
ctl stats_noreset prometheus >"$WORK/prom" 2>&1
ctl servers >"$WORK/servers" 2>&1
sv() { sed -n "s/^$2=//p" "$1" | head -n 1; }
for t in plain curve tls tls_dane; do
  expect "privacy: upstream.transport.$t as in stats" \
    "$(sv "$WORK/p" "upstream.transport.$t")" \
    "$(sv "$WORK/s1" "upstream.transport.$t")"
done
expect "privacy: nothing moved while reading" \
  "$(grep '^upstream.transport' "$WORK/s1")" \
  "$(grep '^upstream.transport' "$WORK/s2")"
expect "privacy: tls_dane is 0 (no DANE in the lab)" \
  "$(sv "$WORK/p" upstream.transport.tls_dane)" 0
pl=$(sv "$WORK/p" upstream.transport.plain)
cu=$(sv "$WORK/p" upstream.transport.curve)
tl=$(sv "$WORK/p" upstream.transport.tls)
td=$(sv "$WORK/p" upstream.transport.tls_dane)
want=$(awk -v p="$pl" -v c="$cu" -v t="$tl" -v d="$td" 'BEGIN {
  a = p + c + t + d; printf "%.1f", a == 0 ? 0 : 100 * (c + t + d) / a }')
expect "privacy: the encrypted percent" \
  "$(sv "$WORK/p" upstream.transport.encrypted.percent)" "$want"
if [ "${cu:-0}" -ge 1 ] && [ "${pl:-0}" -ge 20 ]; then
  ok "privacy: curve and plain queries counted ($cu curve, $pl plain)"
else bad "privacy: curve and plain counted" "curve $cu plain $pl" "$WORK/p"
fi
noted=$(sed -n 's/^plain.servers noted=\([0-9]*\) .*/\1/p' "$WORK/p")
skipped=$(sed -n 's/^plain.servers .* skipped=\([0-9]*\)$/\1/p' "$WORK/p")
expect "privacy: every plain send noted (noted + skipped = plain)" \
  "$((${noted:-0} + ${skipped:-0}))" "$pl"
first=$(grep -m 1 '^plain.server ' "$WORK/p")
top=$(echo "$first" | cut -d' ' -f2)
expect "privacy: the server asked most in plain" \
  "$(echo "$first" | cut -d' ' -f3-)" "$PLAIN example.lab."
sum=$(awk '/^plain.server / { s += $2 } END { print s + 0 }' "$WORK/p")
if [ "${top:-0}" -ge 20 ] && [ "$sum" -le "$pl" ]; then
  ok "privacy: $top plain queries to it, $sum in the list of $pl"
else bad "privacy: counts" "top $top sum $sum plain $pl" "$WORK/p"; fi
expect "privacy 1: one server" \
  "$(ctl privacy 1 2>&1 | grep -c '^plain.server ')" 1
if ctl privacy 0 >"$WORK/p0" 2>&1; then
  bad "privacy 0: refused" "accepted" "$WORK/p0"
else ok "privacy 0: refused"; fi
echo "# $(tr '\n' ' ' <"$WORK/p")"

m=curvecache_upstream_plain_server_queries
expect "prometheus: the top server's plain queries" \
  "$(sed -n "s/^$m{server=\"$PLAIN\",zone=\"example.lab.\"} //p" \
    "$WORK/prom")" "$top"
n=$(grep -c "^$m{" "$WORK/prom")
if [ "$n" -ge 1 ] && [ "$n" -le 10 ] &&
   grep -q "^# TYPE $m gauge$" "$WORK/prom"; then
  ok "prometheus: $n servers (at most 10), a gauge"
else bad "prometheus: the server gauge" "$n lines" "$WORK/prom"; fi
expect "prometheus: transport tls_dane" \
  "$(grep -c '^curvecache_upstream_transport_total{transport="tls_dane"} 0$' \
    "$WORK/prom")" 1

lines=$(grep -c ' srtt=' "$WORK/servers")
expect "servers: transport= on every server line" \
  "$(grep -c ' srtt=.* transport=[a-z]*\(([0-9]*s)\)*$' "$WORK/servers")" \
  "$lines"
if grep -q "^$PLAIN .* transport=\(failed([0-9]*s)\|plain\)$" \
     "$WORK/servers" &&
   grep -q "^$CURVE .* transport=curve$" "$WORK/servers" &&
   grep -q '^; 0 asked over TLS (transport= as worker 0 asks)$' \
     "$WORK/servers"; then
  ok "servers: $PLAIN plain or failed, $CURVE curve, none over TLS"
else bad "servers: transport states" "unexpected" "$WORK/servers"; fi

expect "lookup: learned over DNSCurve" \
  "$(ctl lookup www.secure.curve A 2>&1 | grep '^learned: ')" \
  "learned: A curve"
expect "lookup: learned plain" \
  "$(ctl lookup www.example.lab A 2>&1 | grep '^learned: ')" \
  "learned: A plain"
expect "lookup: a negative entry learned plain" \
  "$(ctl lookup p0.example.lab A 2>&1 | grep '^learned: ')" \
  "learned: NXDOMAIN plain"

e2e_finish
