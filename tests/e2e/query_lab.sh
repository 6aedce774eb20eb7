#!/bin/sh
# tests/e2e/query_lab.sh: curvecache-query with dig's habits, against the
# NSD servers of the loopback lab (tests/lab/lab.sh) and one echo server
# of its own on 127.0.0.1 (python3, below).
#
# Run by "make check" (cwd = top build dir, $srcdir = top source dir).
# Exit 0 = every check passed, 1 = a check failed, 77 = SKIP (not root,
# or nsd/curvedns/dig/python3 missing).
#
# How each check decides (the reference is dig +short asking the same NSD):
# - words in any order: NAME TYPE CLASS, +short, +tcp and @SERVER before
#   or after each other give dig's answer; +tcp says (TCP) in the footer.
# - -x ADDR asks the PTR of the reverse name (the QUESTION line).
# - no @SERVER: the first nameserver line of $CURVECACHE_RESOLV_CONF (a
#   file of the test, so the machine's resolv.conf does not matter).
# - a host name server (localhost, from /etc/hosts) and -p PORT reach the
#   echo server on 127.0.0.1 port $ECHO_PORT; -6 with an IPv4 literal is
#   a usage error.
# - +dnssec +cd to the echo server: the query carried DO and CD (echoed:
#   "flags: do" in the OPT pseudosection, cd in the flags line), and the
#   AD flag and EDE option the echo adds are shown; without them neither
#   goes out; +dnssec with --curve or +noedns is a usage error.
# - RD is set by default, as dig does (the echoed flags line says rd);
#   +norec and --norec clear it, +rec after +norec sets it again.
# - --version prints the version.
# - a boxed query to a plain NSD: the dropped reply is reported as "the
#   server answered in plain DNS, not DNSCurve" (not "packet too short").

set -u
srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=tests/e2e/e2e_lib.sh
. "$srcdir/tests/e2e/e2e_lib.sh"
e2e_init query_lab python3

QUERY=${CURVECACHE_QUERY:-./curvecache-query}
e2e_built QUERY
PLAIN_IP=127.53.0.3
PZ=plain.test
KEY=uz5jwc7p039nvnbsd1y6wkqzqp5mrt7psuj024538xmqd280z0ynh2
# The echo server (not used by other tests).
ECHO_PORT=53917

# q ARGS...: run the tool (out, err, rc).
q() {
  timeout 20 "$QUERY" --timeout 3 "$@" >"$WORK/out" 2>"$WORK/err"
  rc=$?
  out=$(cat "$WORK/out")
}
ref() { dig +short +norec +time=2 +tries=2 "@$PLAIN_IP" "$@"; }
# has ERE: a line of the tool's output matches (the whole line).
has() { printf '%s\n' "$out" | grep -qE "^$1\$"; }
# S: white space in dig's layout.
S='[[:space:]]+'

# same NAME ARGS...: exit 0 and stdout equal to the reference in $want.
same() {
  n=$1
  shift
  q "$@"
  if [ "$rc" -eq 0 ] && [ -n "$want" ] && [ "$out" = "$want" ]; then
    ok "$n"
  else
    printf 'want:\n%s\n' "$want" >>"$WORK/out"
    cat "$WORK/err" >>"$WORK/out"
    bad "$n" "exit $rc" "$WORK/out"
  fi
}

want=$(ref "www.$PZ" AAAA)
same "@SERVER TYPE NAME +short" "@$PLAIN_IP" AAAA "www.$PZ" +short
same "NAME +short TYPE @SERVER" "www.$PZ" +short AAAA "@$PLAIN_IP"
want=$(ref "www.$PZ" TXT)
same "NAME CLASS TYPE, options after the words" "www.$PZ" IN TXT \
  "@$PLAIN_IP" --short
want=$(ref "$PZ" MX)
same "TYPE before NAME, +tcp" +tcp mx "$PZ" "@$PLAIN_IP" +short

t="+tcp goes over TCP"
q "@$PLAIN_IP" "www.$PZ" +tcp
if [ "$rc" -eq 0 ] && has ";; SERVER: $PLAIN_IP#53\($PLAIN_IP\) \(TCP\)"
then ok "$t"; else bad "$t" "exit $rc" "$WORK/out"; fi

t="-x ADDR asks the PTR of the in-addr.arpa name"
q -x 192.0.2.7 "@$PLAIN_IP"
if [ "$rc" -eq 0 ] && has ";7\.2\.0\.192\.in-addr\.arpa\.${S}IN${S}PTR"
then ok "$t"; else bad "$t" "exit $rc" "$WORK/out"; fi

t="-x ADDR (IPv6) asks the PTR of the ip6.arpa name"
q "@$PLAIN_IP" -x 2001:db8::1
v6="1\.(0\.){23}8\.b\.d\.0\.1\.0\.0\.2\.ip6\.arpa\."
if [ "$rc" -eq 0 ] && has ";${v6}${S}IN${S}PTR"
then ok "$t"; else bad "$t" "exit $rc" "$WORK/out"; fi

t="no @SERVER: the first nameserver of CURVECACHE_RESOLV_CONF"
printf '# a comment\nsearch lab\n  nameserver\t%s # the lab\n%s\n' \
  "$PLAIN_IP" "nameserver 127.53.1.254" >"$WORK/resolv.conf"
want=$(ref "www.$PZ" A)
CURVECACHE_RESOLV_CONF=$WORK/resolv.conf q "www.$PZ"
if [ "$rc" -eq 0 ] && has ";; SERVER: $PLAIN_IP#53.*" &&
   has "www\.$PZ\.${S}.*${S}$want"
then ok "$t"; else bad "$t" "exit $rc" "$WORK/out"; fi

t="no @SERVER and no nameserver line: a usage error naming the file"
printf 'search lab\n' >"$WORK/empty.conf"
CURVECACHE_RESOLV_CONF=$WORK/empty.conf q "www.$PZ"
if [ "$rc" -eq 1 ] &&
   grep -q "no nameserver line in $WORK/empty.conf" "$WORK/err"
then ok "$t"; else bad "$t" "exit $rc" "$WORK/err"; fi

# The echo server: answers every UDP query with itself, QR and RA set;
# a query whose final OPT record has DO set gets AD too, and the EDE
# option 3 "old" (RFC 8914) in that OPT record.
cat >"$WORK/echo.py" <<'EOF'
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("127.0.0.1", int(sys.argv[1])))
print("ready", flush=True)
while True:
    d, a = s.recvfrom(4096)
    if len(d) < 12:
        continue
    ad = 0
    if len(d) >= 23 and d[-10:-8] == b"\x00\x29" and d[-4] & 0x80:
        ede = b"\x00\x0f\x00\x05\x00\x03old"
        d = d[:-2] + len(ede).to_bytes(2, "big") + ede
        ad = 0x20
    s.sendto(d[:2] + bytes([d[2] | 0x80, d[3] | 0x80 | ad]) + d[4:], a)
EOF
bg_start echo python3 "$WORK/echo.py" "$ECHO_PORT"
n=0
until grep -q ready "$WORK/echo.out" || [ $n -ge 50 ]; do
  sleep 0.1; n=$((n + 1))
done

t="a server by host name (localhost) and -p PORT"
q @localhost -p "$ECHO_PORT" "echo.$PZ" TXT
if [ "$rc" -eq 0 ] &&
   has ";; SERVER: 127\.0\.0\.1#$ECHO_PORT\(localhost\) \(UDP\)" &&
   has ";echo\.$PZ\.${S}IN${S}TXT"
then ok "$t"; else bad "$t" "exit $rc" "$WORK/out"; fi

t="+dnssec +cd: DO and CD sent; AD and the EDE of the answer shown"
q @localhost -p "$ECHO_PORT" +dnssec +cd "echo.$PZ" A
if [ "$rc" -eq 0 ] &&
   has ";; flags: qr rd ra ad cd; QUERY: 1, ANSWER: 0, AUTHORITY: 0, ADDITIONAL: 1" &&
   has "; EDNS: version: 0, flags: do; udp: 1232" &&
   has "; EDE: 3 \(Stale Answer\): \(old\)"
then ok "$t"; else bad "$t" "exit $rc" "$WORK/out"; fi

t="without +dnssec: no DO, no CD"
q @localhost -p "$ECHO_PORT" "echo.$PZ" A
if [ "$rc" -eq 0 ] && has ";; flags: qr rd ra; QUERY: 1, .*" &&
   has "; EDNS: version: 0, flags:; udp: 1232"
then ok "$t"; else bad "$t" "exit $rc" "$WORK/out"; fi

for how in +norec --norec "--rd +norec" "+norec +rec"; do
  t="RD by default, as dig; $how"
  case $how in *+rec) flags="qr rd ra" ;; *) flags="qr ra" ;; esac
  # shellcheck disable=SC2086 # how is a list of options
  q @localhost -p "$ECHO_PORT" $how "echo.$PZ" A
  if [ "$rc" -eq 0 ] && has ";; flags: $flags; QUERY: 1, .*"
  then ok "$t"; else bad "$t" "exit $rc" "$WORK/out"; fi
done

t="+dnssec with --curve or +noedns is a usage error"
q +dnssec +noedns "@$PLAIN_IP" "www.$PZ"
rc1=$rc
q +dnssec --curve=streamlined --key "$KEY" "@$PLAIN_IP" "www.$PZ"
if [ "$rc1" -eq 1 ] && [ "$rc" -eq 1 ] && grep -q "+dnssec needs" "$WORK/err"
then ok "$t"; else bad "$t" "exit $rc1 $rc" "$WORK/err"; fi

t="-4 with a host name, class CH"
q -4 -p "$ECHO_PORT" version.bind CH TXT @localhost
if [ "$rc" -eq 0 ] && has ";version\.bind\.${S}CH${S}TXT"
then ok "$t"; else bad "$t" "exit $rc" "$WORK/out"; fi

t="-6 with an IPv4 address is a usage error"
q -6 "@$PLAIN_IP" "www.$PZ"
if [ "$rc" -eq 1 ] &&
   grep -q "not an address of the family asked for" "$WORK/err"
then ok "$t"; else bad "$t" "exit $rc" "$WORK/err"; fi

t="--version"
q --version
if [ "$rc" -eq 0 ] && has "curvecache-query [0-9].*"
then ok "$t"; else bad "$t" "exit $rc" "$WORK/out"; fi

for fmt in streamlined txt; do
  t="a boxed query ($fmt) answered in plain DNS says so"
  ca="--curve=$fmt --key $KEY"
  [ "$fmt" = txt ] && ca="$ca --zone $PZ"
  # shellcheck disable=SC2086 # ca is a list of options
  q $ca --timeout 1 "@$PLAIN_IP" "www.$PZ"
  want="rejected (the server answered in plain DNS, not DNSCurve)"
  if [ "$rc" -eq 2 ] && grep -qF "$want" "$WORK/err"
  then ok "$t"; else bad "$t" "exit $rc" "$WORK/err"; fi
done

e2e_finish
