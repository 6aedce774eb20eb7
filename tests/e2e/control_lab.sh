#!/bin/sh
# tests/e2e/control_lab.sh: end-to-end test of the control socket and
# curvecache-control, with curvecache resolving in the loopback lab
# (tests/lab/lab.sh; shared code in tests/e2e/e2e_lib.sh).
#
# Run by "make check" (cwd = top build dir, $srcdir = top source dir).
# Exit 0 = every check passed, 1 = a check failed, 77 = SKIP (not root,
# or nsd/curvedns/dig/setpriv/perl/script missing).
#
# curvecache runs as the user "daemon" with its control socket in a
# directory it creates ($WORK/run). How each check decides:
# - socket: mode 0660, owner and group daemon, made before the privilege
#   drop (the directory is root's $WORK); removed at exit.
# - counters: after a reset, 100 dig queries of 4 known name/type pairs
#   must move total.num.queries, num.query.udp, num.query.type.*,
#   num.answer.rcode.*, cache hits/misses and recursive replies by
#   exactly what was sent (each pair misses once, then hits).
# - stats --prometheus must pass a strict parser (perl, below: names,
#   HELP/TYPE once per family before its samples, label syntax, values,
#   counters ending in _total, histogram buckets cumulative with +Inf =
#   _count, no duplicate series) and promtool check metrics when the
#   prometheus package is installed; --json must parse (JSON::PP) and
#   agree with the text output.
# - flush / flush_negative: the next query goes upstream again
#   (upstream.sends moves, a cache miss is counted).
# - dump_cache, flush_all, load_cache: the same answers afterwards with
#   upstream.sends unchanged (all from the cache); a missing dump file is
#   one error line and exit 2, before anything is sent.
# - lookup and servers show provenance (plain, or the uz5 key of
#   secure.curve.) and the servers the iterator would ask.
# - refused: "nobody" cannot connect (file mode); with the file opened
#   to everyone, the daemon itself refuses it (SO_PEERCRED); a member of
#   the daemon's group (primary or supplementary) is let in.
# - garbage (raw bytes over the socket, with perl): error lines, closed
#   connections, more peers than allowed; curvecache keeps answering.
# - top: --once and -n print views; it quits on q (under script(1), a
#   terminal) and on SIGINT with status 0; it shows the busiest name and
#   client of the interval; with COLUMNS=40 LINES=14 no line is wider
#   than 40 and the view has at most 13 rows, the header first.
# - top's SERVFAIL share is of all answers (the sum of
#   num.answer.rcode.*): a fake daemon (perl, a socket of its own) whose
#   counters grow by 90 SERVFAIL and 10 NOERROR per reading, none with
#   upstream data, must show 90.0%.
# - -h lists every command the daemon's help lists (and top); -V and
#   --version print the version.
# - reload: refused while the config is unreadable for the daemon's
#   user, done once it is readable.

# shellcheck disable=SC2119 # cc_start takes optional config lines
set -u
srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=tests/e2e/e2e_lib.sh
. "$srcdir/tests/e2e/e2e_lib.sh"
e2e_init control_lab setpriv perl script stat
perl -MIO::Socket::UNIX -MJSON::PP -e 1 2>/dev/null ||
  e2e_skip "perl modules IO::Socket::UNIX and JSON::PP missing"
if ! getent passwd daemon >/dev/null || ! getent passwd nobody >/dev/null
then
  e2e_skip "users daemon and nobody are needed"
fi

CTL=${CURVECACHE_CONTROL:-./curvecache-control}
e2e_built CTL
SOCK=$WORK/run/control
DGID=$(id -g daemon)
NOGID=$(id -g nobody)
# Pairs sent 25 times each in the counter check.
Q1="www.example.lab A"
Q2="www.example.lab AAAA"
Q3="example.lab MX"
Q4="nosuch.example.lab A"

ctl() { "$CTL" -s "$SOCK" "$@"; }
# d NAME TYPE: one dig through curvecache, answer section only.
d() {
  dig +time=3 +tries=1 +noall +answer +nottlid "@$CC_IP" "$@"
}
# val FILE NAME: the value of NAME=... in a stats text.
val() { sed -n "s/^$2=//p" "$1"; }
# snap FILE: stats_noreset into FILE; a check of its own on failure.
snap() {
  ctl stats_noreset >"$1" 2>"$WORK/snap.err" ||
    bad "stats_noreset" "exit $?" "$WORK/snap.err"
}

# The users of the refusal checks must reach the socket: the work
# directory is traversable (not listable); the socket's own directory is
# made by curvecache.
chmod 0711 "$WORK"
# Root hints readable by the daemon's user too (reload reads them again).
cp "$LAB_ROOT_HINTS" "$WORK/root.hints" && chmod 0644 "$WORK/root.hints"
cc_start "user: daemon" "control-socket: $SOCK" "log-level: info" \
  "root-hints: $WORK/root.hints" || {
  e2e_finish
  exit 1
}

# ------------------------------------------------------------------
# The socket

t="socket is 0660 daemon:daemon"
got=$(stat -c '%a %U %G %F' "$SOCK" 2>&1)
if [ "$got" = "660 daemon daemon socket" ]; then ok "$t"
else bad "$t" "$got"; fi

t="status answers"
ctl status >"$WORK/status" 2>&1
rc=$?
if [ $rc -eq 0 ] && grep -qx "pid: $CC_PID" "$WORK/status" &&
   grep -qx "is running" "$WORK/status" &&
   grep -qx "threads: 1" "$WORK/status"; then ok "$t"
else bad "$t" "exit $rc" "$WORK/status"; fi

# ------------------------------------------------------------------
# Counters move by exactly the queries sent

ctl stats >/dev/null 2>&1
snap "$WORK/s0"
t="stats resets the counters"
if [ "$(val "$WORK/s0" total.num.queries)" = 0 ]; then ok "$t"
else bad "$t" "total.num.queries=$(val "$WORK/s0" total.num.queries)"; fi

for q in "$Q1" "$Q2" "$Q3" "$Q4"; do
  i=0
  while [ $i -lt 25 ]; do
    # shellcheck disable=SC2086 # $q is "NAME TYPE"
    d $q >/dev/null
    i=$((i + 1))
  done
done
snap "$WORK/s1"

# expect NAME DELTA: counter NAME moved by exactly DELTA since s0.
expect() {
  a=$(val "$WORK/s0" "$1")
  b=$(val "$WORK/s1" "$1")
  if [ -n "$b" ] && [ $((b - ${a:-0})) -eq "$2" ]; then
    ok "counter $1 moved by $2"
  else
    bad "counter $1 moved by $2" "before ${a:-none}, after ${b:-none}"
  fi
}
expect total.num.queries 100
expect num.query.udp 100
expect num.query.tcp 0
expect num.query.type.A 50
expect num.query.type.AAAA 25
expect num.query.type.MX 25
expect num.answer.rcode.NOERROR 75
expect num.answer.rcode.NXDOMAIN 25
expect num.answer.rcode.SERVFAIL 0
expect total.num.cachemiss 4
expect total.num.cachehits 96
expect total.num.recursivereplies 4
expect curve.answers.plain 100
t="histogram counts the 4 recursive replies"
h=$(grep '^histogram\.' "$WORK/s1" | awk -F= '{ s += $2 } END { print s }')
if [ "$h" = 4 ]; then ok "$t"; else bad "$t" "sum $h" "$WORK/s1"; fi

# ------------------------------------------------------------------
# Prometheus and JSON

cat >"$WORK/promcheck.pl" <<'EOF'
# A strict reader of the Prometheus text exposition format (0.0.4).
use strict;
use warnings;
my $NAME = qr/[a-zA-Z_:][a-zA-Z0-9_:]*/;
my $LNAME = qr/[a-zA-Z_][a-zA-Z0-9_]*/;
my $LVAL = qr/"(?:[^"\\\n]|\\[\\"n])*"/;
my $NUM = qr/[-+]?(?:[0-9]+(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?|NaN|Inf)/;
my (%type, %help, %seen, %done, $fam, %bucket, %count, $err);
my $n = 0;
sub fail { print STDERR "line $.: $_[0]\n"; $err = 1; }
sub family_of {
  my ($s) = @_;
  for my $suf ('_bucket', '_sum', '_count') {
    (my $f = $s) =~ s/\Q$suf\E$//;
    return $f if $f ne $s && ($type{$f} // '') eq 'histogram';
  }
  return $s;
}
my $text = do { local $/; <STDIN> };
fail("no final newline") unless $text =~ /\n\z/;
for (split /\n/, $text) {
  if (/^# HELP ($NAME) (.*)$/) {
    fail("second HELP for $1") if $help{$1}++;
    next;
  }
  if (/^# TYPE ($NAME) (counter|gauge|histogram|summary|untyped)$/) {
    fail("second TYPE for $1") if exists $type{$1};
    fail("TYPE after samples of $1") if $seen{$1};
    $type{$1} = $2;
    next;
  }
  fail("bad comment: $_"), next if /^#/;
  fail("empty line"), next if /^$/;
  my ($s, $labels, $v) = /^($NAME)(\{.*\})? ($NUM)(?: -?[0-9]+)?$/
    or fail("bad sample: $_"), next;
  my %l;
  if (defined $labels) {
    my $in = substr($labels, 1, -1);
    while ($in =~ /\G($LNAME)=($LVAL)(,|$)/gc) {
      fail("label $1 twice") if exists $l{$1};
      $l{$1} = $2;
    }
    fail("bad labels: $labels") unless (pos($in) // 0) == length $in;
  }
  my $f = family_of($s);
  fail("sample $s before its TYPE") unless exists $type{$f};
  fail("family $f not contiguous") if $done{$f};
  if (defined $fam && $fam ne $f) { $done{$fam} = 1; }
  $fam = $f;
  $seen{$f} = 1;
  my $key = $s . join(',', map { "$_=$l{$_}" } sort keys %l);
  fail("duplicate series $key") if $seen{"series:$key"}++;
  my $t = $type{$f};
  if ($t eq 'counter') {
    fail("counter $s without _total") unless $s =~ /_total$/;
    fail("negative counter $s") if $v =~ /^-/;
  }
  if ($t eq 'histogram') {
    if ($s eq "${f}_bucket") {
      fail("bucket without le") unless exists $l{le};
      fail("buckets not cumulative at $l{le}")
        if defined $bucket{$f} && $v < $bucket{$f};
      $bucket{$f} = $v;
      $count{"$f+Inf"} = $v if $l{le} eq '"+Inf"';
    } elsif ($s eq "${f}_count") {
      fail("$f: +Inf bucket != _count")
        unless defined $count{"$f+Inf"} && $count{"$f+Inf"} == $v;
    }
  } else {
    fail("le label outside a histogram") if exists $l{le};
  }
  $n++;
}
fail("no samples") unless $n;
exit($err ? 1 : 0);
EOF

t="stats --prometheus passes a strict parser"
ctl stats_noreset --prometheus >"$WORK/prom" 2>&1
rc=$?
if [ $rc -eq 0 ] && perl "$WORK/promcheck.pl" <"$WORK/prom" \
     2>"$WORK/prom.err"; then ok "$t"
else cat "$WORK/prom" >>"$WORK/prom.err"; bad "$t" "exit $rc" \
  "$WORK/prom.err"; fi

t="stats --prometheus: labels and values"
if grep -qx 'curvecache_num_queries_total 100' "$WORK/prom" &&
   grep -qx 'curvecache_num_query_type_total{type="AAAA"} 25' \
     "$WORK/prom" &&
   grep -qx 'curvecache_num_answer_rcode_total{rcode="NXDOMAIN"} 25' \
     "$WORK/prom" &&
   grep -qx 'curvecache_recursion_time_seconds_count 4' "$WORK/prom" &&
   grep -Eqx 'curvecache_build_info\{version="[^"]+",libsodium="[^"]+",openssl="[^"]+",libuv="[^"]+",c_ares="[^"]+"\} 1' \
     "$WORK/prom" &&
   ! grep -v '^#' "$WORK/prom" | sed 's/[{ ].*//' | grep -q '[A-Z]'
then ok "$t"; else bad "$t" "series missing" "$WORK/prom"; fi

if command -v promtool >/dev/null 2>&1; then
  t="promtool check metrics"
  if promtool check metrics <"$WORK/prom" >"$WORK/promtool.out" 2>&1
  then ok "$t"; else bad "$t" "promtool says no" "$WORK/promtool.out"; fi
else
  echo "# promtool not installed (Debian package prometheus): skipped"
fi

t="stats --json parses and agrees with the text"
ctl stats_noreset --json >"$WORK/json" 2>&1
if perl -MJSON::PP -e '
     local $/; my $j = decode_json(<STDIN>);
     exit(($j->{"total.num.queries"} == 100 &&
           $j->{"num.query.type.MX"} == 25 &&
           exists $j->{"histogram.000000.000000.to.000000.000001"} &&
           exists $j->{"curve.sharedkey.hits"}) ? 0 : 1)' \
     <"$WORK/json" 2>"$WORK/json.err"; then ok "$t"
else cat "$WORK/json" >>"$WORK/json.err"; bad "$t" "no" "$WORK/json.err"; fi

# ------------------------------------------------------------------
# DNSCurve: counters, lookup, servers

want_curve=$(d www.secure.curve A)
snap "$WORK/s2"
t="DNSCurve counters move"
if [ -n "$want_curve" ] &&
   [ "$(val "$WORK/s2" curve.queries)" -gt 0 ] &&
   [ "$(val "$WORK/s2" curve.responses.ok)" -gt 0 ] &&
   [ "$(val "$WORK/s2" curve.responses.bad)" -eq 0 ] &&
   [ "$(val "$WORK/s2" curve.answers.dnscurve)" -eq 1 ] &&
   [ "$(val "$WORK/s2" curve.servers.known)" -ge 2 ] &&
   [ "$(val "$WORK/s2" curve.sharedkey.misses)" -ge 2 ]; then ok "$t"
else bad "$t" "answer '$want_curve'" "$WORK/s2"; fi

SECURE_KEY=uz5n1psnkqsgr0vztxprf2fsw2m546j2m6frq8qzbwu04ushy43ux3
t="lookup: DNSCurve provenance and servers"
ctl lookup www.secure.curve A >"$WORK/lookup1" 2>&1
re="^www\.secure\.curve\..*192\.0\.2\.10.*; rank=[a-z]* src=$SECURE_KEY$"
if grep -q "$re" "$WORK/lookup1" &&
   grep -qx "zone: secure.curve. (cached NS; lowest score is asked first)" \
     "$WORK/lookup1" &&
   grep -qx "ns: $SECURE_KEY.ns1.secure.curve. dnscurve key=$SECURE_KEY" \
     "$WORK/lookup1" &&
   grep -q "^  addr: 127\.53\.2\.3 score=" "$WORK/lookup1"; then ok "$t"
else bad "$t" "unexpected" "$WORK/lookup1"; fi

t="lookup: plain provenance and servers"
ctl lookup www.example.lab >"$WORK/lookup2" 2>&1
re1="^www\.example\.lab\..*IN.A.192\.0\.2\.10.; rank=[a-z]* src=plain$"
re2="^www\.example\.lab\..*IN.AAAA.2001:db8::10.; rank="
if grep -q "$re1" "$WORK/lookup2" && grep -q "$re2" "$WORK/lookup2" &&
   grep -qx "ns: ns1.example.lab. plain" "$WORK/lookup2" &&
   grep -q "^  addr: 127\.53\.1\.2 score=[0-9]* srtt=[0-9]*ms timeouts=0$" \
     "$WORK/lookup2"; then ok "$t"
else bad "$t" "unexpected" "$WORK/lookup2"; fi

t="servers: the selection table"
ctl servers >"$WORK/servers" 2>&1
re1="^127\.53\.1\.2 zone=example\.lab\. srtt=[0-9]*ms timeouts=0 "
re1="$re1.* key=none last_error=- transport=[a-z]*\(([0-9]*s)\)*$"
re2="^127\.53\.2\.3 zone=secure\.curve\. .* key=$SECURE_KEY "
re3="^; [0-9]* servers, \([2-9]\|[1-9][0-9]*\) with a DNSCurve key$"
if grep -q "$re1" "$WORK/servers" && grep -q "$re2" "$WORK/servers" &&
   grep -q "$re3" "$WORK/servers"; then ok "$t"
else bad "$t" "unexpected" "$WORK/servers"; fi

t="lookup: a lame server shows its mark"
dig +time=6 +tries=1 "@$CC_IP" www.broken.lab A >/dev/null 2>&1
ctl lookup www.broken.lab >"$WORK/lookup3" 2>&1
if grep -qx "zone: broken.lab. (cached NS; lowest score is asked first)" \
     "$WORK/lookup3" &&
   grep -q "^  addr: 127\.53\.1\.2 score=.* lame=[0-9]*s$" \
     "$WORK/lookup3"; then ok "$t"
else bad "$t" "unexpected" "$WORK/lookup3"; fi

# ------------------------------------------------------------------
# Flushes send the next query upstream again

# delta A B NAME: how much counter NAME moved from snapshot A to B.
delta() { echo $(($(val "$WORK/$2" "$3") - $(val "$WORK/$1" "$3"))); }

# upstream_after CMD...: run CMD, then report the change of
# upstream.sends and total.num.cachemiss ("SENDS MISSES").
upstream_after() {
  snap "$WORK/u0"
  "$@" >/dev/null 2>&1
  snap "$WORK/u1"
  echo "$(delta u0 u1 upstream.sends) $(delta u0 u1 total.num.cachemiss)"
}

t="a cached answer sends nothing upstream"
got=$(upstream_after d www.example.lab A)
if [ "$got" = "0 0" ]; then ok "$t"; else bad "$t" "sends/misses $got"; fi

t="flush NAME: the next query goes upstream"
ctl flush www.example.lab >"$WORK/flush" 2>&1
got=$(upstream_after d www.example.lab A)
if grep -qx "removed 2 entries" "$WORK/flush" &&
   [ "${got%% *}" -gt 0 ] && [ "${got#* }" = 1 ]; then ok "$t"
else bad "$t" "sends/misses $got" "$WORK/flush"; fi

t="flush_negative: the NXDOMAIN is asked again"
ctl flush_negative >"$WORK/flushneg" 2>&1
got=$(upstream_after d nosuch.example.lab A)
if grep -q "^removed [1-9][0-9]* entries$" "$WORK/flushneg" &&
   [ "${got%% *}" -gt 0 ] && [ "${got#* }" = 1 ]; then ok "$t"
else bad "$t" "sends/misses $got" "$WORK/flushneg"; fi

t="flush_zone: everything under example.lab. goes"
ctl flush_zone example.lab >"$WORK/flushzone" 2>&1
got=$(upstream_after d example.lab MX)
if grep -q "^removed [1-9][0-9]* entries$" "$WORK/flushzone" &&
   [ "${got%% *}" -gt 0 ]; then ok "$t"
else bad "$t" "sends/misses $got" "$WORK/flushzone"; fi

# ------------------------------------------------------------------
# dump_cache, flush_all, load_cache

for q in "$Q1" "$Q2" "$Q3" "$Q4"; do
  # shellcheck disable=SC2086
  d $q
done >"$WORK/before"
d www.secure.curve A >>"$WORK/before"
t="dump_cache"
ctl dump_cache >"$WORK/dump" 2>"$WORK/dump.err"
rc=$?
if [ $rc -eq 0 ] && head -n 1 "$WORK/dump" |
     grep -q '^; curvecache-dump version=1 time=[0-9]*$' &&
   grep -q "src=$SECURE_KEY$" "$WORK/dump" &&
   grep -q '; nxdomain name=nosuch.example.lab. rank=' "$WORK/dump" &&
   grep -q '^; end entries=[1-9][0-9]* records=' "$WORK/dump"; then ok "$t"
else bad "$t" "exit $rc" "$WORK/dump"; fi

t="flush_all empties the cache"
ctl flush_all >/dev/null 2>&1
snap "$WORK/f"
if [ "$(val "$WORK/f" rrset.cache.count)" = 0 ]; then ok "$t"
else bad "$t" "rrset.cache.count=$(val "$WORK/f" rrset.cache.count)"; fi

t="load_cache reads the dump back"
ctl load_cache "$WORK/dump" >"$WORK/load" 2>&1
rc=$?
n=$(sed -n 's/^; end entries=\([0-9]*\) .*/\1/p' "$WORK/dump")
if [ $rc -eq 0 ] &&
   grep -q "^loaded $n entries (.*); 0 expired, 0 kept (better data \
cached), 0 bad$" "$WORK/load"; then ok "$t"
else bad "$t" "exit $rc, want $n entries" "$WORK/load"; fi

t="after load_cache: same answers, nothing sent upstream"
snap "$WORK/l0"
for q in "$Q1" "$Q2" "$Q3" "$Q4"; do
  # shellcheck disable=SC2086
  d $q
done >"$WORK/after"
d www.secure.curve A >>"$WORK/after"
snap "$WORK/l1"
sends=$(delta l0 l1 upstream.sends)
hits=$(delta l0 l1 total.num.cachehits)
if [ "$sends" = 0 ] && [ "$hits" = 5 ] &&
   diff "$WORK/before" "$WORK/after" >"$WORK/diff" 2>&1; then ok "$t"
else bad "$t" "upstream sends $sends, cache hits $hits" "$WORK/diff"; fi

t="load_cache: bad lines reported with their numbers, others stored"
printf '%s\n%s\n%s\n%s\n' "$(head -n 1 "$WORK/dump")" \
  'good.example.lab. 300 IN A 192.0.2.99 ; rank=auth src=plain' \
  'bad.example.lab. 300 IN A 192.0.2.999 ; rank=auth src=plain' \
  'worse.example.lab. x IN A 192.0.2.1' >"$WORK/badload"
ctl load_cache <"$WORK/badload" >"$WORK/badload.out" 2>&1
rc=$?
if [ $rc -eq 1 ] &&
   grep -qx "line 3: RDATA does not fit its type" "$WORK/badload.out" &&
   grep -qx "line 4: bad TTL" "$WORK/badload.out" &&
   grep -q "^loaded 1 entries (1 records); .* 2 bad$" "$WORK/badload.out" &&
   grep -qx "error: 2 bad lines" "$WORK/badload.out" &&
   [ "$(d good.example.lab A | awk '{print $NF}')" = 192.0.2.99 ]
then ok "$t"; else bad "$t" "exit $rc" "$WORK/badload.out"; fi

t="load_cache: hostile bytes are rejected, the daemon lives"
head -c 200000 /dev/urandom >"$WORK/junk"
ctl load_cache "$WORK/junk" >"$WORK/junk.out" 2>&1
rc=$?
if [ $rc -eq 1 ] && grep -q "not a curvecache dump" "$WORK/junk.out" &&
   e2e_alive "$CC_PID"; then ok "$t"
else bad "$t" "exit $rc" "$WORK/junk.out"; fi

t="load_cache: a missing file is one error, nothing sent"
ctl load_cache "$WORK/no-such-dump" >"$WORK/nofile.out" 2>&1
rc=$?
if [ $rc -eq 2 ] && [ "$(wc -l <"$WORK/nofile.out")" -eq 1 ] &&
   grep -q "no-such-dump: No such file or directory; nothing loaded$" \
     "$WORK/nofile.out"; then ok "$t"
else bad "$t" "exit $rc" "$WORK/nofile.out"; fi

# ------------------------------------------------------------------
# Who may talk to it

# as UID GID [GROUPS] CMD...: run CMD with those ids (setpriv).
as() {
  u=$1 g=$2 gs=$3
  shift 3
  if [ -n "$gs" ]; then
    setpriv --reuid="$u" --regid="$g" --groups="$gs" -- "$@"
  else
    setpriv --reuid="$u" --regid="$g" --clear-groups -- "$@"
  fi
}

t="nobody cannot connect (socket file mode)"
as nobody "$NOGID" "" "$CTL" -s "$SOCK" status >"$WORK/nobody" 2>&1
rc=$?
if [ $rc -eq 3 ] && grep -q "Permission denied" "$WORK/nobody"; then
  ok "$t"; else bad "$t" "exit $rc" "$WORK/nobody"; fi

t="a user whose group is the daemon's is let in"
as nobody "$DGID" "" "$CTL" -s "$SOCK" status >"$WORK/grp" 2>&1
rc=$?
if [ $rc -eq 0 ] && grep -qx "is running" "$WORK/grp"; then ok "$t"
else bad "$t" "exit $rc" "$WORK/grp"; fi

t="a user with the daemon's group as a supplementary group is let in"
as nobody "$NOGID" "$DGID" "$CTL" -s "$SOCK" status >"$WORK/sgrp" 2>&1
rc=$?
if [ $rc -eq 0 ] && grep -qx "is running" "$WORK/sgrp"; then ok "$t"
else bad "$t" "exit $rc" "$WORK/sgrp"; fi

t="SO_PEERCRED: nobody is refused even when the file lets it in"
chmod 0666 "$SOCK"
as nobody "$NOGID" "" "$CTL" -s "$SOCK" stats >"$WORK/peercred" 2>&1
rc=$?
chmod 0660 "$SOCK"
if [ $rc -eq 1 ] && grep -qx "error: permission denied" "$WORK/peercred"
then ok "$t"; else bad "$t" "exit $rc" "$WORK/peercred"; fi
if grep -q "event=control_denied" "$WORK/curvecache.log"; then
  ok "the refusal is logged"
else
  bad "the refusal is logged" "no control_denied event"
fi

# ------------------------------------------------------------------
# Garbage over the socket

cat >"$WORK/raw.pl" <<'PERL'
# raw.pl SOCKET: send standard input as it is, print the answer.
use strict;
use warnings;
use IO::Socket::UNIX;
my $s = IO::Socket::UNIX->new(Type => SOCK_STREAM(), Peer => $ARGV[0])
  or die "connect: $!\n";
binmode STDIN;
local $/;
my $in = <STDIN>;
$s->send($in) if length $in;
shutdown($s, 1);
my $out = '';
while (sysread($s, my $buf, 65536)) { $out .= $buf; }
print $out;
PERL
raw() { timeout 20 perl "$WORK/raw.pl" "$SOCK"; }

t="garbage: unknown command, usage errors"
printf 'bogus\nflush\nstats xml\nlookup a..b\nstatus\n' | raw >"$WORK/g1" 2>&1
if [ "$(sed -n 1,4p "$WORK/g1")" = "error: unknown command (try help)
error: usage: flush NAME  remove a name's entries
error: format must be text, prometheus or json
error: not a domain name" ] && [ "$(tail -n 1 "$WORK/g1")" = ok ]; then
  ok "$t"; else bad "$t" "unexpected" "$WORK/g1"; fi

t="garbage: binary bytes close the connection"
printf 'stat\001\377us\nstatus\n' | raw >"$WORK/g2" 2>&1
if [ "$(cat "$WORK/g2")" = \
     "error: malformed command: bytes outside printable ASCII" ]; then
  ok "$t"; else bad "$t" "unexpected" "$WORK/g2"; fi

t="garbage: an oversized command closes the connection"
head -c 5000 /dev/zero | tr '\0' a | raw >"$WORK/g3" 2>&1
if [ "$(cat "$WORK/g3")" = "error: malformed command: line too long" ]
then ok "$t"; else bad "$t" "unexpected" "$WORK/g3"; fi

t="garbage: random bytes, many peers at once"
i=0
pids=
while [ $i -lt 24 ]; do
  head -c 3000 /dev/urandom | timeout 20 perl "$WORK/raw.pl" "$SOCK" \
    >/dev/null 2>&1 9>&- &
  pids="$pids $!"
  i=$((i + 1))
done
# shellcheck disable=SC2016 # perl code
timeout 20 perl -MIO::Socket::UNIX -e '
  my @c; for (1..20) { push @c, IO::Socket::UNIX->new(Type => SOCK_STREAM(),
    Peer => $ARGV[0]) } sleep 1;' "$SOCK" 2>/dev/null
for p in $pids; do wait "$p"; done
ans=$(d www.example.lab A)
ctl status >"$WORK/g4" 2>&1
rc=$?
if [ $rc -eq 0 ] && [ -n "$ans" ] && e2e_alive "$CC_PID"; then ok "$t"
else bad "$t" "status exit $rc, answer '$ans'" "$WORK/g4"; fi

# ------------------------------------------------------------------
# top

t="top --once"
timeout 10 "$CTL" -s "$SOCK" top --once >"$WORK/top1" 2>&1
rc=$?
if [ $rc -eq 0 ] && grep -q "^queries/s " "$WORK/top1" &&
   grep -q "^cache hit ratio " "$WORK/top1" &&
   grep -q "^DNSCurve share " "$WORK/top1" &&
   grep -q "^SERVFAIL/s " "$WORK/top1" &&
   grep -q "^in flight " "$WORK/top1"; then ok "$t"
else bad "$t" "exit $rc" "$WORK/top1"; fi

t="top -n 3 -d 0.2 sees the queries"
( i=0; while [ $i -lt 40 ]; do d www.example.lab A >/dev/null;
    i=$((i + 1)); done ) &
qpid=$!
timeout 10 "$CTL" -s "$SOCK" top -n 3 -d 0.2 >"$WORK/top2" 2>&1
rc=$?
wait $qpid
if [ $rc -eq 0 ] && [ "$(grep -c '^curvecache top' "$WORK/top2")" = 3 ] &&
   grep '^queries/s' "$WORK/top2" | grep -qv ' 0\.0 '; then ok "$t"
else bad "$t" "exit $rc" "$WORK/top2"; fi

t="top quits on q at a terminal"
(sleep 1.5; printf q) | timeout 10 script -qec "$CTL -s $SOCK top" \
  /dev/null >"$WORK/top3" 2>&1
rc=$?
if [ $rc -eq 0 ] && grep -q "q quits" "$WORK/top3"; then ok "$t"
else bad "$t" "exit $rc" "$WORK/top3"; fi

t="top stops cleanly on Ctrl-C (SIGINT)"
"$CTL" -s "$SOCK" top -d 0.2 </dev/null >"$WORK/top4" 2>&1 9>&- &
tpid=$!
sleep 1
kill -INT "$tpid"
wait "$tpid"
rc=$?
if [ $rc -eq 0 ] && grep -q "^queries/s" "$WORK/top4"; then ok "$t"
else bad "$t" "exit $rc" "$WORK/top4"; fi

t="top shows the busiest query names and clients of the interval"
( i=0; while [ $i -lt 150 ]; do d busy.example.lab A >/dev/null;
    i=$((i + 1)); done ) &
qpid=$!
sleep 0.3
timeout 10 "$CTL" -s "$SOCK" top -n 2 -d 0.4 >"$WORK/top5" 2>&1
rc=$?
wait $qpid
# a view with a names list led by busy.example.lab. and a client list
# led by a loopback address, both at a rate above zero
if [ $rc -eq 0 ] &&
   grep -A1 '^top query names ' "$WORK/top5" |
     grep -q '^  *[1-9][0-9.]*   busy\.example\.lab\.$' &&
   grep -A1 '^top clients ' "$WORK/top5" |
     grep -q '^  *[1-9][0-9.]*   127\.[0-9.]*$'; then ok "$t"
else bad "$t" "exit $rc" "$WORK/top5"; fi

t="top fits COLUMNS x LINES: lines cut, not wrapped; the header stays"
( i=0; while [ $i -lt 40 ]; do d "n$((i % 20)).example.lab" A >/dev/null;
    i=$((i + 1)); done ) &
qpid=$!
COLUMNS=40 LINES=14 timeout 10 "$CTL" -s "$SOCK" top --once \
  >"$WORK/top6" 2>&1
rc=$?
wait $qpid
long=$(awk 'length($0) > 40' "$WORK/top6" | wc -l)
# 13 rows at most (the last row stays free) and the separating blank line
if [ $rc -eq 0 ] && [ "$long" -eq 0 ] &&
   [ "$(wc -l <"$WORK/top6")" -le 14 ] &&
   head -n 1 "$WORK/top6" | grep -q '^curvecache top: up ' &&
   grep -q '^queries/s ' "$WORK/top6"; then ok "$t"
else bad "$t" "exit $rc, $long lines over 40 columns" "$WORK/top6"; fi

t="top: the SERVFAIL share is of all answers (90 of 100 per reading)"
cat >"$WORK/fake.pl" <<'EOF'
use strict; use IO::Socket::UNIX;
my $l = IO::Socket::UNIX->new(Local => $ARGV[0], Listen => 1) or die;
my $c = $l->accept or die;
my $n = 0;
while (my $line = <$c>) {
  if ($line =~ /^stats_noreset/) {
    $n++;
    print $c "total.num.queries=", 100 * $n, "\n",
      "num.answer.rcode.NOERROR=", 10 * $n, "\n",
      "num.answer.rcode.SERVFAIL=", 90 * $n, "\n",
      "num.answer.rcode.nodata=", 10 * $n, "\n",
      "curve.answers.dnscurve=0\ncurve.answers.plain=0\nok\n";
  } else {
    print $c "error: unknown command (try help)\n";
  }
}
EOF
perl "$WORK/fake.pl" "$WORK/fake.sock" &
fpid=$!
n=0
until [ -S "$WORK/fake.sock" ] || [ $n -ge 50 ]; do sleep 0.1; n=$((n + 1)); done
timeout 10 "$CTL" -s "$WORK/fake.sock" top -n 1 -d 0.2 >"$WORK/top7" 2>&1
rc=$?
kill "$fpid" 2>/dev/null
wait "$fpid" 2>/dev/null
if [ $rc -eq 0 ] &&
   grep -Eq '^SERVFAIL/s +[0-9.]+   90\.0% of all answers$' "$WORK/top7"
then ok "$t"; else bad "$t" "exit $rc" "$WORK/top7"; fi

t="-h lists every command of help; -V and --version print the version"
ctl help | awk '{ print $1 }' | sort >"$WORK/help.daemon"
"$CTL" -h >"$WORK/help.tool" 2>&1
rc=$?
awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }' \
  "$WORK/help.tool" | sort -u >"$WORK/help.words"
missing=$(comm -23 "$WORK/help.daemon" "$WORK/help.words" | tr '\n' ' ')
v1=$("$CTL" -V 2>&1)
v2=$("$CTL" --version 2>&1)
if [ $rc -eq 0 ] && [ -s "$WORK/help.daemon" ] && [ -z "$missing" ] &&
   grep -q '^  top ' "$WORK/help.tool" &&
   printf '%s\n' "$v1" | grep -qx 'curvecache-control [0-9][0-9.a-z~-]*' &&
   [ "$v1" = "$v2" ]; then ok "$t"
else bad "$t" "exit $rc, missing: $missing, -V: $v1" "$WORK/help.tool"; fi

# ------------------------------------------------------------------
# reload, stop

t="reload refused while the config is unreadable for daemon"
chmod 0600 "$WORK/curvecache.conf"
ctl reload >"$WORK/reload1" 2>&1
rc=$?
if [ $rc -eq 1 ] && grep -q "^error: .*curvecache.conf" "$WORK/reload1" &&
   e2e_alive "$CC_PID"; then ok "$t"
else bad "$t" "exit $rc" "$WORK/reload1"; fi

t="reload"
chmod 0644 "$WORK/curvecache.conf"
ctl reload >"$WORK/reload2" 2>&1
rc=$?
if [ $rc -eq 0 ] && grep -q "^reloaded .*curvecache.conf$" \
     "$WORK/reload2"; then ok "$t"
else bad "$t" "exit $rc" "$WORK/reload2"; fi

t="still serving after everything"
ans=$(d www.example.lab A)
if [ "$ans" = "www.example.lab.	IN	A	192.0.2.10" ] &&
   ctl stats_noreset >/dev/null 2>&1; then ok "$t"
else bad "$t" "answer '$ans'"; fi

cc_stop
t="the socket file is removed at exit"
if [ ! -e "$SOCK" ]; then ok "$t"; else bad "$t" "still there"; fi

e2e_finish
