#!/bin/sh
# tests/e2e/ubcontrol_lab.sh: Debian's own unbound-control (the real
# binary, /usr/sbin/unbound-control from the unbound package) against
# curvecache's control socket, in Unbound's framing ("UBCT1 " and one
# command per connection, control-use-cert: no with a socket path), with
# curvecache resolving in the loopback lab (tests/e2e/e2e_lib.sh).
#
# Run by "make check" (cwd = top build dir, $srcdir = top source dir).
# Exit 0 = every check passed, 1 = a check failed, 77 = SKIP (not root,
# or nsd/curvedns/dig/unbound-control/perl missing).
#
# How each check decides:
# - status: exit 0, "is running" and the daemon's pid in its line.
# - stats_noreset: exit 0, name=value lines; after 14 dig queries (2 of
#   them NODATA with DO set) total.num.queries, num.query.class.IN,
#   num.query.opcode.QUERY, num.query.edns.present moved by exactly 14,
#   edns.DO, type.TYPE200 and num.answer.rcode.nodata by 2; the names
#   Unbound users graph are all there, the median recursion time and
#   the requestlist maximum are not 0 after resolutions, nor thread0's;
#   flush_stats sets the counters to 0 ("ok"); reload_keep_cache answers
#   "ok" and a cached name is still answered without an upstream query.
# - errors: an unknown command prints "error ..." and exits 1 (as with
#   Unbound); a client speaking another version ("UBCT9 ") is told
#   "error version mismatch".
# - dump_cache, flush_all, load_cache: the dump ends in "EOF" (what
#   load_cache reads up to), and the cache holds the answer again after
#   the load (no upstream query: upstream.sends unchanged).
# - curvecache-control still speaks curvecache's own protocol on the same
#   socket.
# - list_forwards and list_local_zones print the configured zones as
#   Unbound does; get_option answers by Unbound's and curvecache's names,
#   a list one value a line (interface, forward-zone, local-zone);
#   dump_infra prints a line in unbound-control's fields per server;
#   ratelimit_list prints nothing (no zone rate limit);
#   verbosity 0 silences the debug log (no new line for a query) and 4
#   brings it back; local_data NAME TTL IN A ADDR is answered by the next
#   query and listed by list_local_data, local_data_remove takes it back;
#   stop answers "ok" and curvecache exits with status 0.
# - flush_type NAME TYPE: another type leaves a cached answer (no
#   upstream query: upstream.sends unchanged), the type itself goes
#   ("ok removed 1 entries", the next query moves upstream.sends);
#   curvecache-control does it too. flush_infra ADDR (curvecache-control)
#   drops that address from "servers" and only it; unbound-control
#   flush_infra all leaves "; 0 servers". Missing or bad arguments
#   (no type, unknown type, ANY, a bad address) answer "error ..." and
#   unbound-control exits 1. Restarted with threads: 2, a name resolved
#   by worker 1 alone (a source port the kernel gives it): flush_infra of
#   the name's server forgets one entry more than worker 0 holds, all
#   forgets more than worker 0's table, and a second all forgets none.

# shellcheck disable=SC2119 # cc_start takes optional config lines
set -u
srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=tests/e2e/e2e_lib.sh
. "$srcdir/tests/e2e/e2e_lib.sh"
e2e_init ubcontrol_lab unbound-control perl
perl -MIO::Socket::UNIX -e 1 2>/dev/null ||
  e2e_skip "perl module IO::Socket::UNIX missing"

CTL=${CURVECACHE_CONTROL:-./curvecache-control}
[ -x "$CTL" ] || { echo "FAIL: $CTL not built"; exit 1; }
SOCK=$WORK/run/control
UCONF=$WORK/unbound-control.conf
cat >"$UCONF" <<EOC
remote-control:
  control-enable: yes
  control-interface: $SOCK
  control-use-cert: no
EOC

uc() { unbound-control -c "$UCONF" "$@"; }
d() { dig +time=3 +tries=1 +noall +answer +nottlid "@$CC_IP" "$@"; }
val() { sed -n "s/^$2=//p" "$1"; }

cc_start "control-socket: $SOCK" \
  "forward-zone: corp.example. 127.53.213.9 127.53.213.10@5353" \
  "local-zone: corp.example. refuse" || { e2e_finish; exit 1; }

# ------------------------------------------------------------------
# status and stats_noreset

t="unbound-control status"
uc status >"$WORK/status" 2>&1
rc=$?
if [ $rc -eq 0 ] && grep -q "(pid $CC_PID) is running" "$WORK/status" &&
   grep -q '^version: ' "$WORK/status"; then ok "$t"
else bad "$t" "exit $rc" "$WORK/status"; fi

t="unbound-control stats_noreset"
uc stats_noreset >"$WORK/s0" 2>&1
rc=$?
if [ $rc -eq 0 ] && grep -q '^total.num.queries=[0-9]*$' "$WORK/s0" &&
   ! grep -qv '^[a-zA-Z0-9_.]*=[0-9.]*$' "$WORK/s0"; then ok "$t"
else bad "$t" "exit $rc" "$WORK/s0"; fi

i=0
while [ $i -lt 4 ]; do
  d www.example.lab A >/dev/null
  d www.example.lab AAAA >/dev/null
  d nosuch.example.lab A >/dev/null
  i=$((i + 1))
done
# Two NODATA answers to a type without a name, asked with DO.
d +dnssec id.example.lab TYPE200 >/dev/null
d +dnssec id.example.lab TYPE200 >/dev/null
uc stats_noreset >"$WORK/s1" 2>&1

# Each counter NAME must have moved by exactly DELTA since s0.
while read -r n want; do
  a=$(val "$WORK/s0" "$n")
  b=$(val "$WORK/s1" "$n")
  t="counter $n moved by $want"
  if [ -n "$b" ] && [ $((b - ${a:-0})) -eq "$want" ]; then ok "$t"
  else bad "$t" "before ${a:-none}, after ${b:-none}"; fi
done <<EOC
total.num.queries 14
num.query.class.IN 14
num.query.opcode.QUERY 14
num.query.edns.present 14
num.query.edns.DO 2
num.query.type.TYPE200 2
num.query.ipv6 0
num.answer.rcode.nodata 2
total.num.queries_ip_ratelimited 0
EOC
t="the names Unbound users graph are there"
miss=
for n in total.num.prefetch total.num.expired num.query.tcpout \
  total.recursion.time.avg total.recursion.time.median \
  total.requestlist.avg total.requestlist.max \
  total.requestlist.current.all total.tcpusage mem.cache.rrset \
  mem.cache.message rrset.cache.count infra.cache.count \
  num.answer.secure num.answer.bogus num.rrset.bogus \
  num.query.aggressive.NXDOMAIN num.query.aggressive.NOERROR \
  total.requestlist.current.user msg.cache.count \
  thread0.requestlist.avg thread0.requestlist.max \
  thread0.requestlist.overwritten thread0.requestlist.exceeded \
  thread0.requestlist.current.all thread0.requestlist.current.user \
  thread0.recursion.time.avg thread0.recursion.time.median; do
  grep -q "^$n=" "$WORK/s1" || miss="$miss $n"
done
if [ -z "$miss" ]; then ok "$t"; else bad "$t" "missing:$miss"; fi
t="thread0.recursion.time.median and .requestlist.max are real"
med=$(val "$WORK/s1" thread0.recursion.time.median)
rmax=$(val "$WORK/s1" thread0.requestlist.max)
if [ "${med:-0}" != 0 ] && [ "${rmax:-0}" -ge 1 ]; then ok "$t"
else bad "$t" "median ${med:-none}, max ${rmax:-none}"; fi
t="recursion time median and requestlist max are real"
med=$(val "$WORK/s1" total.recursion.time.median)
rmax=$(val "$WORK/s1" total.requestlist.max)
rc=$(val "$WORK/s1" rrset.cache.count)
if [ "${med:-0}" != 0 ] && [ "${rmax:-0}" -ge 1 ] && [ "${rc:-0}" -ge 1 ]
then ok "$t"
else bad "$t" "median ${med:-none}, max ${rmax:-none}, rrsets ${rc:-none}"
fi
t="unbound-control flush_stats: ok, the counters start again from 0"
uc flush_stats >"$WORK/fs" 2>&1
rc=$?
uc stats_noreset >"$WORK/sfs" 2>&1
if [ $rc -eq 0 ] && grep -qx ok "$WORK/fs" &&
   [ "$(val "$WORK/sfs" total.num.queries)" = 0 ] &&
   [ "$(val "$WORK/sfs" thread0.num.queries)" = 0 ]; then ok "$t"
else cat "$WORK/sfs" >>"$WORK/fs"; bad "$t" "exit $rc" "$WORK/fs"; fi
t="unbound-control reload_keep_cache: ok, the cache kept"
s0=$(grep -c 'event=upstream_send ' "$WORK/curvecache.log")
uc reload_keep_cache >"$WORK/rkc" 2>&1
rc=$?
a=$(d www.example.lab A)
s1=$(grep -c 'event=upstream_send ' "$WORK/curvecache.log")
if [ $rc -eq 0 ] && grep -q '^ok' "$WORK/rkc" && [ -n "$a" ] &&
   [ "$s1" -eq "$s0" ]; then ok "$t"
else bad "$t" "exit $rc, $((s1 - s0)) upstream queries" "$WORK/rkc"; fi
# the baseline of the checks below, after flush_stats
uc stats_noreset >"$WORK/s1" 2>&1

# ------------------------------------------------------------------
# errors

t="unknown command: error, exit 1"
uc no_such_command >"$WORK/unk" 2>&1
rc=$?
if [ $rc -eq 1 ] && grep -q '^error ' "$WORK/unk"; then ok "$t"
else bad "$t" "exit $rc" "$WORK/unk"; fi

t="another version: error version mismatch"
got=$(perl -MIO::Socket::UNIX -e '
  my $s = IO::Socket::UNIX->new(Peer => $ARGV[0]) or die "connect: $!";
  print $s "UBCT9  status\n";
  local $/; my $r = <$s>; print $r;' "$SOCK" 2>&1)
if [ "$got" = "error version mismatch" ]; then ok "$t"
else bad "$t" "got '$got'"; fi

# ------------------------------------------------------------------
# dump_cache, flush_all, load_cache

uc dump_cache >"$WORK/dump" 2>"$WORK/dump.err"
rc=$?
t="dump_cache ends in EOF"
if [ $rc -eq 0 ] && [ "$(tail -n 1 "$WORK/dump")" = EOF ] &&
   grep -q 'www.example.lab' "$WORK/dump"; then ok "$t"
else bad "$t" "exit $rc" "$WORK/dump.err"; fi
uc flush_all >"$WORK/flush" 2>&1
t="flush_all answers ok"
if [ $? -eq 0 ] && grep -q '^ok' "$WORK/flush"; then ok "$t"
else bad "$t" "$(cat "$WORK/flush")"; fi
uc load_cache <"$WORK/dump" >"$WORK/load" 2>&1
rc=$?
t="load_cache reads the dump"
if [ $rc -eq 0 ] && grep -q '^ok ' "$WORK/load"; then ok "$t"
else bad "$t" "exit $rc" "$WORK/load"; fi
s0=$(val "$WORK/s1" upstream.sends)
got=$(d www.example.lab A | wc -l)
uc stats_noreset >"$WORK/s2" 2>&1
s1=$(val "$WORK/s2" upstream.sends)
t="after load_cache, answered from the cache"
if [ "$got" -ge 1 ] && [ -n "$s0" ] && [ "$s0" = "$s1" ]; then ok "$t"
else bad "$t" "answer lines $got, upstream.sends $s0 -> $s1"; fi

# ------------------------------------------------------------------
# curvecache's own protocol on the same socket

t="curvecache-control still works"
"$CTL" -s "$SOCK" status >"$WORK/own" 2>&1
rc=$?
if [ $rc -eq 0 ] && grep -qx 'is running' "$WORK/own"; then ok "$t"
else bad "$t" "exit $rc" "$WORK/own"; fi

# ------------------------------------------------------------------
# The commands scripts use

t="list_forwards, list_local_zones"
uc list_forwards >"$WORK/lf" 2>&1
uc list_local_zones >"$WORK/lz" 2>&1
if [ "$(cat "$WORK/lf")" = \
     "corp.example. IN forward 127.53.213.9 127.53.213.10@5353" ] &&
   [ "$(cat "$WORK/lz")" = "corp.example. refuse" ]; then ok "$t"
else bad "$t" "$(cat "$WORK/lf" "$WORK/lz")"; fi

t="get_option by Unbound's name and by ours"
a=$(uc get_option num-threads 2>&1)
b=$(uc get_option do-not-query-localhost 2>&1)
if [ "$a" = 1 ] && [ "$b" = no ]; then ok "$t"
else bad "$t" "num-threads '$a', do-not-query-localhost '$b'"; fi

t="dump_infra: a line per server in unbound-control's fields"
uc dump_infra >"$WORK/infra" 2>&1
rc=$?
if [ $rc -eq 0 ] && grep -Eq '^127\.53\.[0-9.]+ [^ ]+ ttl [0-9]+ ping [0-9]+ var 0 rtt [0-9]+ rto [0-9]+ tA 0 tAAAA 0 tother [0-9]+ ednsknown [01] edns (0|-1) delay [01] lame dnssec [01] rec [01] A 0 other 0$' \
     "$WORK/infra"; then ok "$t"
else bad "$t" "exit $rc" "$WORK/infra"; fi
t="ratelimit_list: empty (no zone rate limit); get_option of lists"
r=$(uc ratelimit_list 2>&1)
rc=$?
i=$(uc get_option interface 2>&1)
f=$(uc get_option forward-zone 2>&1)
lz=$(uc get_option local-zone 2>&1)
if [ $rc -eq 0 ] && [ -z "$r" ] && [ "$i" = "$CC_IP@53" ] &&
   [ "$f" = "corp.example. 127.53.213.9@53 127.53.213.10@5353" ] &&
   [ "$lz" = "corp.example. refuse" ]; then ok "$t"
else bad "$t" "exit $rc, '$r', '$i', '$f', '$lz'"; fi

t="verbosity 0 quiets the debug log, verbosity 4 restores it"
uc verbosity 0 >/dev/null 2>&1
n0=$(wc -l <"$WORK/curvecache.log")
d www.example.lab A >/dev/null
n1=$(wc -l <"$WORK/curvecache.log")
uc verbosity 4 >"$WORK/verb" 2>&1
d www.example.lab MX >/dev/null
n2=$(wc -l <"$WORK/curvecache.log")
if [ "$n1" -eq "$n0" ] && [ "$n2" -gt "$n1" ] &&
   [ "$(cat "$WORK/verb")" = ok ]; then ok "$t"
else bad "$t" "log lines $n0 -> $n1 -> $n2"; fi

t="local_data answers at once, local_data_remove takes it back"
uc local_data printer.home.arpa. 300 IN A 192.0.2.9 >"$WORK/ld" 2>&1
a1=$(d printer.home.arpa A)
l1=$(uc list_local_data 2>&1)
uc local_data_remove printer.home.arpa. >>"$WORK/ld" 2>&1
a2=$(d printer.home.arpa A)
if [ "$(echo "$a1" | tr -s '\t ' ' ')" = "printer.home.arpa. IN A 192.0.2.9" ] &&
   [ -z "$a2" ] &&
   [ "$l1" = "$(printf 'printer.home.arpa.\t300\tIN\tA\t192.0.2.9')" ] &&
   [ "$(cat "$WORK/ld")" = "$(printf 'ok\nok')" ]
then ok "$t"
else bad "$t" "before '$a1', after '$a2', list '$l1'" "$WORK/ld"; fi

# ------------------------------------------------------------------
# flush_type and flush_infra (unbound-control and curvecache-control)

# upstream.sends now.
sends() { uc stats_noreset 2>/dev/null | sed -n 's/^upstream.sends=//p'; }
t="flush_type: another type leaves the answer cached"
d www.example.lab A >/dev/null
u0=$(sends)
uc flush_type www.example.lab TXT >"$WORK/ft" 2>&1
rc=$?
n=$(d www.example.lab A | wc -l)
u1=$(sends)
if [ $rc -eq 0 ] && [ "$(cat "$WORK/ft")" = "ok removed 0 entries" ] &&
   [ "$n" -ge 1 ] && [ -n "$u0" ] && [ "$u0" = "$u1" ]; then ok "$t"
else bad "$t" "exit $rc, answer lines $n, upstream.sends $u0 -> $u1" \
  "$WORK/ft"; fi
t="flush_type NAME A: removed, asked upstream again"
uc flush_type www.example.lab A >"$WORK/ft" 2>&1
rc=$?
n=$(d www.example.lab A | wc -l)
u2=$(sends)
if [ $rc -eq 0 ] && [ "$(cat "$WORK/ft")" = "ok removed 1 entries" ] &&
   [ "$n" -ge 1 ] && [ "${u2:-0}" -gt "${u1:-0}" ]; then ok "$t"
else bad "$t" "exit $rc, answer lines $n, upstream.sends $u1 -> $u2" \
  "$WORK/ft"; fi
t="flush_type through curvecache-control"
"$CTL" -s "$SOCK" flush_type www.example.lab A >"$WORK/ft" 2>&1
rc=$?
if [ $rc -eq 0 ] && grep -qx 'removed 1 entries' "$WORK/ft"; then ok "$t"
else bad "$t" "exit $rc" "$WORK/ft"; fi
t="flush_type and flush_infra: bad arguments are errors, exit 1"
bad_args=
for args in "flush_type www.example.lab" "flush_type x.lab NOSUCHTYPE" \
  "flush_type x.lab ANY" "flush_infra 300.1.1.1" "flush_infra"; do
  # shellcheck disable=SC2086 # the words of args are the arguments
  out=$(uc $args 2>&1)
  rc=$?
  case "$rc $out" in "1 error "*) ;; *) bad_args="$bad_args [$args: $rc $out]" ;;
  esac
done
if [ -z "$bad_args" ]; then ok "$t"; else bad "$t" "$bad_args"; fi

t="flush_infra ADDR: the server is gone from servers, the others stay"
"$CTL" -s "$SOCK" servers >"$WORK/sv0" 2>&1
addr=$(grep -m 1 ' srtt=' "$WORK/sv0" | cut -d ' ' -f 1)
k0=$(grep -c ' srtt=' "$WORK/sv0")
"$CTL" -s "$SOCK" flush_infra "${addr:-none}" >"$WORK/fi" 2>&1
rc=$?
"$CTL" -s "$SOCK" servers >"$WORK/sv1" 2>&1
k1=$(grep -c ' srtt=' "$WORK/sv1")
if [ $rc -eq 0 ] && [ -n "$addr" ] &&
   grep -qx 'forgot 1 server entries' "$WORK/fi" &&
   [ "$k0" -ge 2 ] && ! grep -q "^$addr " "$WORK/sv1" &&
   [ "$k1" -eq $((k0 - 1)) ]; then ok "$t"
else bad "$t" "exit $rc, '$addr', servers $k0 -> $k1" "$WORK/fi"; fi
t="unbound-control flush_infra all: no server left"
uc flush_infra all >"$WORK/fi" 2>&1
rc=$?
"$CTL" -s "$SOCK" servers >"$WORK/sv2" 2>&1
if [ $rc -eq 0 ] &&
   [ "$(cat "$WORK/fi")" = "ok forgot $((k0 - 1)) server entries" ] &&
   grep -qx '; 0 servers, 0 with a DNSCurve key' "$WORK/sv2" &&
   ! grep -q ' srtt=' "$WORK/sv2"; then ok "$t"
else bad "$t" "exit $rc, $(cat "$WORK/fi")" "$WORK/sv2"; fi

t="stop: ok, and curvecache exits 0"
uc stop >"$WORK/stop" 2>&1
rc=$?
n=0
while e2e_alive "$CC_PID" && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
if e2e_alive "$CC_PID"; then
  bad "$t" "still running after 5 s (stop exit $rc)" "$WORK/stop"
else
  wait "$CC_PID"
  st=$?
  CC_PID=
  if [ $rc -eq 0 ] && [ "$(cat "$WORK/stop")" = ok ] && [ $st -eq 0 ]
  then ok "$t"
  else bad "$t" "unbound-control exit $rc, curvecache exit $st" \
    "$WORK/stop"; fi
fi

# ------------------------------------------------------------------
# Resolutions in flight and forward zones at run time, two workers
# (dump_requestlist, flush_requestlist, forward_add, forward_remove).
# faulty.py's silent server never answers: a question forwarded to it
# stays in flight. plain.test. is the lab NSD at $LAB_PLAIN_IP; test. is
# answered locally (RFC 6761), so only a forward zone reaches it.

# shellcheck source=tests/e2e/hard_lib.sh
. "$srcdir/tests/e2e/hard_lib.sh"
faulty_start 120 silent@127.53.213.21
fpid=$bg_pid
cc_start "control-socket: $SOCK" "threads: 2" || { e2e_finish; exit 1; }

t="forward_add: the forwarder answers, list_forwards shows the zone"
a0=$(d www.plain.test A)
uc forward_add plain.test. "$LAB_PLAIN_IP" >"$WORK/fa" 2>&1
n=0
a1=
while [ $n -lt 4 ]; do  # several source ports: both workers
  a1="$a1$(d www.plain.test A | wc -l)"
  n=$((n + 1))
done
uc list_forwards >"$WORK/lf2" 2>&1
if [ -z "$a0" ] && [ "$a1" = 1111 ] && [ "$(cat "$WORK/fa")" = ok ] &&
   grep -qx "plain.test. IN forward $LAB_PLAIN_IP" "$WORK/lf2"; then
  ok "$t"
else bad "$t" "before '$a0', answer lines after '$a1'" "$WORK/fa" \
  "$WORK/lf2"; fi

t="forward_add: the TLS form is taken (never asked here), unknown flags refused"
uc forward_add tls.example. 127.0.0.1@853#tls.example >"$WORK/ft" 2>&1
rc1=$?
uc list_forwards >"$WORK/ftl" 2>&1
uc forward_remove tls.example. >>"$WORK/ft" 2>&1
uc forward_add +x tls2.example. 127.0.0.1 >>"$WORK/ft" 2>&1
rc2=$?
if [ $rc1 -eq 0 ] && [ $rc2 -eq 1 ] && grep -q '^error .*flag' "$WORK/ft" &&
   grep -qx 'tls.example. IN forward 127.0.0.1@853#tls.example' \
     "$WORK/ftl" &&
   grep -q '^;   127.0.0.1@853#tls.example transport=tls' "$WORK/ftl" &&
   ! uc list_forwards 2>&1 | grep -q tls.example; then ok "$t"
else bad "$t" "exit $rc1 $rc2" "$WORK/ft" "$WORK/ftl"; fi

t="forward_add +t: every server needs #AUTH-NAME; with it, taken as TLS"
uc forward_add +t tls3.example. 127.0.0.1 >"$WORK/ft3" 2>&1
rc1=$?
uc forward_add +t tls3.example. 127.0.0.1@853#tls.example 127.0.0.2 \
  >>"$WORK/ft3" 2>&1
rc2=$?
uc forward_add +t tls3.example. 127.0.0.1@853#tls.example >>"$WORK/ft3" 2>&1
rc3=$?
uc list_forwards >"$WORK/ftl3" 2>&1
uc forward_remove tls3.example. >>"$WORK/ft3" 2>&1
if [ $rc1 -eq 1 ] && [ $rc2 -eq 1 ] && [ $rc3 -eq 0 ] &&
   [ "$(grep -c '^error .*authentication name' "$WORK/ft3")" = 2 ] &&
   grep -q '^tls3.example. IN forward 127.0.0.1@853#tls.example' \
     "$WORK/ftl3" &&
   ! uc list_forwards 2>&1 | grep -q tls3.example; then ok "$t"
else bad "$t" "exit $rc1 $rc2 $rc3" "$WORK/ft3" "$WORK/ftl3"; fi

t="curvecache-control forward_add +i (validation off: no anchor to add): exit 0, no output"
"$CTL" -s "$SOCK" forward_add +i silent.g.fault.lab. 127.53.213.21 \
  >"$WORK/fs" 2>&1
if [ $? -eq 0 ] && [ ! -s "$WORK/fs" ]; then ok "$t"
else bad "$t" "" "$WORK/fs"; fi

t="dump_requestlist: both threads, the question in flight"
dig +time=8 +tries=1 "@$CC_IP" www.silent.g.fault.lab A \
  >"$WORK/slow.dig" 2>&1 &
dpid=$!
wait_line "$WORK/faulty.out" 'www.silent.g.fault.lab' 30
uc dump_requestlist >"$WORK/rl" 2>&1
if grep -qx 'thread #0' "$WORK/rl" && grep -qx 'thread #1' "$WORK/rl" &&
   grep -qx '#   type cl name    seconds    module status' "$WORK/rl" &&
   grep -Eq '^ +0 +A IN www\.silent\.g\.fault\.lab\. [0-9]+\.[0-9]{6} forward wait 1 client$' "$WORK/rl"
then ok "$t"
else bad "$t" "" "$WORK/rl"; fi

t="flush_requestlist: ok, the client gets SERVFAIL, the list is empty"
uc flush_requestlist >"$WORK/fl" 2>&1
wait "$dpid"
"$CTL" -s "$SOCK" dump_requestlist >"$WORK/rl2" 2>&1
if [ "$(cat "$WORK/fl")" = ok ] &&
   [ "$(dig_status "$WORK/slow.dig")" = SERVFAIL ] &&
   [ "$(grep -c '^ *[0-9]' "$WORK/rl2")" = 0 ] &&
   [ "$(grep -c '^thread #' "$WORK/rl2")" = 2 ]; then ok "$t"
else bad "$t" "dig: $(dig_status "$WORK/slow.dig")" "$WORK/fl" "$WORK/rl2"
fi

t="after flush_requestlist, queries are answered"
if [ "$(d www.example.lab A | wc -l)" -ge 1 ] &&
   [ "$(d alias.plain.test A | wc -l)" -ge 1 ]; then ok "$t"
else bad "$t" "no answer"; fi

t="forward_remove: back to normal resolution (test. is local again)"
uc forward_remove plain.test. >"$WORK/fr" 2>&1
"$CTL" -s "$SOCK" flush_zone plain.test. >/dev/null 2>&1
a2=$(d www.plain.test A)
if [ "$(cat "$WORK/fr")" = ok ] && [ -z "$a2" ] &&
   ! uc list_forwards 2>&1 | grep -q plain.test &&
   uc list_forwards 2>&1 | grep -q silent.g.fault.lab; then ok "$t"
else bad "$t" "answer '$a2'" "$WORK/fr"; fi

t="reload: the runtime forward zones are gone (as in Unbound)"
l0=$(uc list_forwards 2>&1)
uc reload >"$WORK/rel" 2>&1
if grep -q "^ok" "$WORK/rel" &&
   [ "$l0" = "silent.g.fault.lab. IN forward 127.53.213.21" ] &&
   [ -z "$(uc list_forwards 2>&1)" ]; then ok "$t"
else bad "$t" "" "$WORK/rel"; fi

bg_stop "$fpid"

cc_stop

# flush_infra with threads: 2 reaches the other worker's own table

# thread1_port: a source port the kernel hands to worker 1 (its
# thread1.num.queries moves); empty if none of 200 does.
thread1_port() {
  p=40000
  while [ $p -lt 40200 ]; do
    b=$(uc stats_noreset 2>/dev/null | sed -n 's/^thread1.num.queries=//p')
    dig -b "127.0.0.1#$p" +time=1 +tries=1 "@$CC_IP" localhost A \
      </dev/null >/dev/null 2>&1
    a=$(uc stats_noreset 2>/dev/null | sed -n 's/^thread1.num.queries=//p')
    [ "${a:-0}" -gt "${b:-0}" ] && { echo "$p"; return 0; }
    p=$((p + 1))
  done
}

t="threads 2: flush_infra ADDR and all forget worker 1's servers too"
if cc_start "control-socket: $SOCK" "threads: 2"; then
  pb=$(thread1_port)
  dig -b "127.0.0.1#${pb:-0}" +time=3 +tries=1 "@$CC_IP" \
    www.example.lab A >/dev/null 2>&1
  x=$(holder www.example.lab)
  "$CTL" -s "$SOCK" servers >"$WORK/tsv" 2>&1
  w0=$(grep -c ' srtt=' "$WORK/tsv")
  x0=$(grep -c "^$x " "$WORK/tsv")
  a1=$(uc flush_infra "$x" 2>&1)
  a2=$(uc flush_infra all 2>&1)
  n2=$(echo "$a2" | sed -n 's/^ok forgot \([0-9]*\) server entries$/\1/p')
  a3=$(uc flush_infra all 2>&1)
  # worker 0 answered nothing but localhost: what it forgot of x was
  # x0 entries (0), so the rest came from worker 1's table.
  if [ -n "$pb" ] && [ -n "$x" ] &&
     [ "$a1" = "ok forgot $((x0 + 1)) server entries" ] &&
     [ "${n2:-0}" -gt "$((w0 - x0))" ] &&
     [ "$a3" = "ok forgot 0 server entries" ]; then ok "$t"
  else bad "$t" "port '$pb', $x: '$a1'; all: '$a2', then '$a3' (worker 0: $w0)" \
    "$WORK/tsv"; fi
fi

cc_stop
e2e_finish
