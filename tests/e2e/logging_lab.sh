#!/bin/sh
# tests/e2e/logging_lab.sh: the query log (log-queries) end to end, with
# curvecache resolving in the loopback lab (tests/lab/lab.sh; shared code
# in tests/e2e/e2e_lib.sh).
#
# Run by "make check" (cwd = top build dir, $srcdir = top source dir).
# Exit 0 = every check passed, 1 = a check failed, 77 = SKIP (not root,
# or nsd/curvedns/dig missing).
#
# curvecache runs with log-queries: yes and log-level: warn (the query
# log ignores the level). Each dig is sent from its own source address
# (127.53.100.x) so its line is found by client; for each the test knows
# what the line must say:
#   cold plain name   rcode=NOERROR cached=no  src=resolved curve=no
#   same again        rcode=NOERROR cached=yes src=cache    curve=no
#   DNSCurve chain    rcode=NOERROR cached=no  src=resolved curve=yes
#   ...again          cached=yes src=cache curve=yes
#   NXDOMAIN          rcode=NXDOMAIN cached=no src=resolved
#   localhost         src=local
#   over TCP          proto=tcp
#   refused client    rcode=REFUSED src=none (access-control refuse)
#   AXFR              rcode=REFUSED src=none
# Every line ends in dnssec=STATUS (the answer's DNSSEC status; unchecked
# for error answers without a lookup).
# Also: exactly one line per query, the key=value layout and timestamp,
# nothing else at info level (log-level warn), and after a reload with
# log-queries: no, no more query lines.
#
# Then logfmt (issue 13 item 8), at log-level info with two threads: a
# reload with a bad option (reload_failed error=FILE:LINE: ... "bogus"),
# SERVFAILs for names with a quote, a space and '=' bytes in a label
# (broken.lab.: its only server refuses; the line names the zone, that
# server and server_why=REFUSED, issue 22 item 6), a random-name flood of
# FLOOD_N queries under broken.lab. at FLOOD_RATE/s (tests/e2e/clients.py
# flood): the servfail lines stay within the rate limit (10 a second)
# and "event=log_suppressed kind=servfail suppressed=N" lines account for
# the rest. Every line of the whole log must parse as strict logfmt
# (a parser in this script): on the old code the why= values, the
# quoted names and the nested quotes of the error did not.

set -u
srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=tests/e2e/e2e_lib.sh
. "$srcdir/tests/e2e/e2e_lib.sh"
e2e_init logging_lab

REFUSED_IP=127.53.100.99
cc_start "log-queries: yes" "log-level: warn" \
  "access-control: 127.0.0.0/8 allow" \
  "access-control: $REFUSED_IP/32 refuse" || { e2e_finish; exit 1; }
LOG=$WORK/curvecache.log

# q N DIG-ARGS...: one dig from 127.53.100.N (a client address of its own).
q() {
  src=127.53.100.$1
  shift
  dig +time=3 +tries=1 -b "$src" "@$CC_IP" "$@" >"$WORK/dig.out" 2>&1
}

# expect N WHAT PATTERN...: the query log line(s) of client 127.53.100.N:
# exactly one, matching every extended regex PATTERN.
expect() {
  n=$1
  what=$2
  shift 2
  i=0
  lines=
  while [ $i -lt 20 ]; do
    lines=$(grep " event=query client=127\.53\.100\.$n@" "$LOG")
    [ -n "$lines" ] && break
    sleep 0.1
    i=$((i + 1))
  done
  t="query log: $what"
  cnt=$(printf '%s\n' "$lines" | grep -c .)
  if [ "$cnt" -ne 1 ]; then
    printf '%s\n' "$lines" >"$WORK/lines"
    bad "$t" "$cnt lines for client 127.53.100.$n" "$WORK/lines"
    return
  fi
  for p in "$@"; do
    if ! printf '%s\n' "$lines" | grep -Eq "$p"; then
      printf '%s\n' "$lines" >"$WORK/lines"
      bad "$t" "no match for /$p/" "$WORK/lines"
      return
    fi
  done
  ok "$t"
}

FULL='^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}\.[0-9]{3}Z level=info event=query client=[0-9.]+@[0-9]+ proto=(udp|tcp) name=[^ ]+ type=[A-Z0-9]+ rcode=[A-Z0-9]+ cached=(yes|no) src=(none|local|cache|referral|resolved) curve=(yes|no) dnssec=(secure|insecure|bogus|unchecked)$'

q 11 www.example.lab A
expect 11 "cold plain answer" "$FULL" \
  ' proto=udp name=www\.example\.lab\. type=A rcode=NOERROR cached=no src=resolved curve=no dnssec=[a-z]+$'
q 12 www.example.lab A
expect 12 "cached plain answer" "$FULL" \
  ' name=www\.example\.lab\. type=A rcode=NOERROR cached=yes src=cache curve=no dnssec=[a-z]+$'
q 13 www.secure.curve AAAA
expect 13 "cold DNSCurve answer" "$FULL" \
  ' name=www\.secure\.curve\. type=AAAA rcode=NOERROR cached=no src=resolved curve=yes dnssec=[a-z]+$'
q 14 www.secure.curve AAAA
expect 14 "cached DNSCurve answer" "$FULL" \
  ' type=AAAA rcode=NOERROR cached=yes src=cache curve=yes dnssec=[a-z]+$'
q 15 nosuch.example.lab A
expect 15 "NXDOMAIN" "$FULL" \
  ' name=nosuch\.example\.lab\. type=A rcode=NXDOMAIN cached=no src=resolved'
q 16 localhost A
expect 16 "local zone" "$FULL" \
  ' name=localhost\. type=A rcode=NOERROR cached=no src=local curve=no dnssec=[a-z]+$'
q 17 +tcp example.lab MX
expect 17 "TCP" "$FULL" ' proto=tcp name=example\.lab\. type=MX rcode=NOERROR'
q 99 www.example.lab A
expect 99 "refused client" "$FULL" ' rcode=REFUSED cached=no src=none curve=no dnssec=unchecked$'
q 18 example.lab AXFR
expect 18 "zone transfer refused" "$FULL" \
  ' proto=tcp name=example\.lab\. type=AXFR rcode=REFUSED cached=no src=none'
q 19 +norec www.example.lab A
expect 19 "RD=0 cached" "$FULL" ' cached=yes src=cache'

t="only warn and above besides the query log"
if grep -v ' event=query ' "$LOG" | grep -Eq ' level=(info|debug) '; then
  grep -v ' event=query ' "$LOG" | grep -E ' level=(info|debug) ' |
    head -n 5 >"$WORK/extra"
  bad "$t" "info/debug lines at log-level warn" "$WORK/extra"
else ok "$t"; fi

t="every line is key=value after the timestamp"
if grep -Ev '^[0-9T:.-]+Z level=[a-z]+ event=[a-z_]+( [a-z_.0-9]+=("[^"]*"|[^ "]*))*$' \
    "$LOG" >"$WORK/odd"; then bad "$t" "odd lines" "$WORK/odd"
else ok "$t"; fi

# Reload with the query log off: no more lines.
sed -i 's/^log-queries: yes$/log-queries: no/' "$WORK/curvecache.conf"
before=$(grep -c ' event=query ' "$LOG")
kill -HUP "$CC_PID"
sleep 0.5
q 21 www.example.lab A
q 22 nosuch2.example.lab A
sleep 0.3
t="log-queries: no after a reload stops the query log"
after=$(grep -c ' event=query ' "$LOG")
if [ "$after" -eq "$before" ] && grep -q 'status: NXDOMAIN' "$WORK/dig.out"
then ok "$t"; else bad "$t" "$before lines before, $after after"; fi

cc_stop

# --- logfmt and the rate limit ------------------------------------------
FLOOD_N=2000
FLOOD_RATE=1000
LIMIT_PER_S=10

cat >"$WORK/logfmt.py" <<'PY'
import re, sys
VALUE = r'(?:[!#-<>-~]+|"(?:[ !#-\[\]-~]|\\["\\ntr]|\\x[0-9a-f]{2})*")'
FIELD = r'[A-Za-z0-9_.-]+=' + VALUE
LINE = re.compile(r'[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}\.[0-9]{3}Z '
                  r'level=(error|warn|info|debug) event=[a-z0-9_]+'
                  r'(?: ' + FIELD + r')*')
bad = 0
for n, line in enumerate(open(sys.argv[1], encoding="latin-1"), 1):
    line = line.rstrip("\n")
    if not LINE.fullmatch(line):
        print("line %d: %s" % (n, line))
        bad += 1
print("%d lines not logfmt" % bad)
sys.exit(1 if bad else 0)
PY

cc_start "log-level: info" "threads: 2" "access-control: 127.0.0.0/8 allow" \
  || { e2e_finish; exit 1; }

echo "bogus: yes" >>"$WORK/curvecache.conf"
cc_hup reload_failed
t="a config error is one quoted, escaped value"
if grep -q ' event=reload_failed error=".*curvecache\.conf:[0-9]*: .*\\"bogus\\".*" kept=old$' "$LOG"
then ok "$t"
else grep ' event=reload_failed' "$LOG" >"$WORK/lines"
  bad "$t" "no reload_failed line with an escaped error" "$WORK/lines"; fi
sed -i '/^bogus: yes$/d' "$WORK/curvecache.conf"

q 31 'a\"b.broken.lab' A
q 32 'sp\032ace=x.broken.lab' A
sleep 0.3
t="SERVFAIL names with quote, space and '=' bytes are one value each"
if grep -q ' event=servfail qname="a\\\\\\"b\.broken\.lab\." type=A why=' "$LOG" &&
  grep -q ' event=servfail qname="sp\\\\032ace=x\.broken\.lab\." type=A why=' "$LOG"
then ok "$t"
else grep ' event=servfail' "$LOG" >"$WORK/lines"
  bad "$t" "servfail lines" "$WORK/lines"; fi

t="a SERVFAIL line names the zone, the last server and what it did"
if grep -q ' event=servfail qname="a\\\\\\"b\.broken\.lab\." type=A why=.* zone=broken\.lab\. server=127\.[0-9.]* server_why=REFUSED$' "$LOG"
then ok "$t"
else grep ' event=servfail' "$LOG" >"$WORK/lines"
  bad "$t" "no zone=broken.lab. server=... server_why=REFUSED" "$WORK/lines"; fi

before=$(grep -c ' event=servfail ' "$LOG")
t0=$(date +%s)
python3 "$srcdir/tests/e2e/clients.py" flood "$CC_IP" "$FLOOD_N" \
  "$FLOOD_RATE" broken.lab >"$WORK/flood.out" 2>&1
secs=$(($(date +%s) - t0 + 1))
cc_stop
lines=$(($(grep -c ' event=servfail ' "$LOG") - before))
supp=$(sed -n 's/.* event=log_suppressed kind=servfail suppressed=\([0-9]*\)$/\1/p' \
  "$LOG" | awk '{ s += $1 } END { print s + 0 }')
fails=$(sed -n 's/^flood sent [0-9]* answered [0-9]* servfail \([0-9]*\)$/\1/p' \
  "$WORK/flood.out")
echo "# flood: ${fails:-?} SERVFAIL answers in $secs s," \
  "$lines servfail lines, $supp suppressed"
t="flood: servfail lines stay within $LIMIT_PER_S a second"
if [ "${fails:-0}" -ge $((FLOOD_N / 2)) ] &&
  [ "$lines" -le $((LIMIT_PER_S * (secs + 1))) ]; then ok "$t"
else bad "$t" "${fails:-?} SERVFAILs, $lines lines in $secs s" "$WORK/flood.out"
fi
t="flood: log_suppressed lines count the rest"
if [ $((lines + supp)) -ge "${fails:-1}" ] &&
  [ $((lines + supp)) -le "$FLOOD_N" ]; then ok "$t"
else bad "$t" "$lines lines + $supp suppressed for ${fails:-?} SERVFAILs"; fi

# Under the journal (JOURNAL_STREAM names stderr) a start that fails on
# its config writes one logfmt line, not the terminal's plain sentence.
printf 'bogus: "x y"\n' >"$WORK/bad.conf"
: >"$WORK/start.err"
js=$(stat -c '%d:%i' "$WORK/start.err")
JOURNAL_STREAM=$js "$CURVECACHE" -f -c "$WORK/bad.conf" 2>>"$WORK/start.err"
t="a start failure under the journal is one logfmt line"
if grep -q '^<3>level=error event=start_failed error=".*bad\.conf:1: .*bogus.*"$' \
     "$WORK/start.err" && [ "$(wc -l <"$WORK/start.err")" -eq 1 ]; then ok "$t"
else bad "$t" "not one start_failed line" "$WORK/start.err"; fi

t="every line of the log is strict logfmt"
if python3 "$WORK/logfmt.py" "$LOG" >"$WORK/odd"; then ok "$t"
else bad "$t" "$(tail -n 1 "$WORK/odd")" "$WORK/odd"; fi

e2e_finish
