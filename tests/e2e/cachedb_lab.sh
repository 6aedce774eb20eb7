#!/bin/sh
# tests/e2e/cachedb_lab.sh: the shared cache tier on Redis (issue 26,
# cachedb-backend: redis) with two curvecache instances in the loopback
# lab (tests/lab/lab.sh; shared code in tests/e2e/e2e_lib.sh) and a real
# redis-server started here on 127.53.100.9 (config in the work dir,
# --save '' and no AOF: nothing written to disk; stopped by its pid).
#
# Run by "make check" (cwd = top build dir, $srcdir = top source dir).
# Exit 0 = every check passed, 1 = a check failed, 77 = SKIP (not root,
# or nsd/curvedns/dig/redis-server/redis-cli missing).
#
# The lab is the unsigned one; DNSSEC (AD, RRSIGs, proofs kept through
# Redis) is tests/e2e/cachedb_signed_lab.sh's.
#
# How each check decides:
# - A (on $CC_IP, the flat option names) resolves names of every shape
#   (an address, a CNAME chain across three zones, a DNAME, a CNAME to
#   NXDOMAIN, NXDOMAIN, NODATA, a wildcard, a DNSCurve zone) and writes
#   each to Redis (cachedb.stores, keys curvecache:HEX in Redis).
# - B (on 127.53.100.2, a fresh cache, Unbound's cachedb: clause) answers
#   the same questions with the same status and records, with not one
#   upstream_send line in its log, and counts them in cachedb.hits.
# - a forged record (the right format, written with redis-cli without
#   the secret: a MAC under another key) for www.example.lab. is refused
#   by a restarted B (cachedb.refused, event=cachedb_refused), which
#   resolves the name upstream and answers the true address.
# - Redis stopped (SIGSTOP: it accepts connections and answers nothing):
#   both instances still answer new names, the first within
#   redis-timeout of a cold resolution, the next without waiting on
#   Redis (cachedb.skipped); SIGCONT: both reconnect (event=cachedb_up)
#   and share again.
# - Redis killed: both answer new names at once; restarted on the same
#   address: both reconnect and a name resolved by A is answered by B
#   from Redis.

set -u
srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=tests/e2e/e2e_lib.sh
. "$srcdir/tests/e2e/e2e_lib.sh"
e2e_init cachedb_lab redis-server redis-cli python3

B_IP=127.53.100.2
R_IP=127.53.100.9
R_PORT=6391
B_PID=
R_PID=
LOG=$WORK/curvecache.log
BLOG=$WORK/b.log
head -c 48 /dev/urandom >"$WORK/secret"
chmod 600 "$WORK/secret"

# A Redis of our own: bound to the lab address, nothing on disk.
cat >"$WORK/redis.conf" <<EOF
bind $R_IP
port $R_PORT
protected-mode no
daemonize no
save ""
appendonly no
dir $WORK
logfile ""
EOF
rcli() { redis-cli -h "$R_IP" -p "$R_PORT" "$@"; }
redis_start() {
  bg_start redis redis-server "$WORK/redis.conf"
  R_PID=$bg_pid
  n=0
  while [ $n -lt 50 ]; do
    [ "$(rcli PING 2>/dev/null)" = PONG ] && return 0
    sleep 0.1
    n=$((n + 1))
  done
  bad "redis-server start" "no PONG within 5 s" "$WORK/redis.out"
  return 1
}

CDB_FLAT="cachedb-backend: redis
redis-server-host: $R_IP
redis-server-port: $R_PORT
redis-timeout: 100
cachedb-secret-file: $WORK/secret"
CDB_CLAUSE="cachedb:
backend: redis
redis-server-host: $R_IP
redis-server-port: $R_PORT
redis-timeout: 100
cachedb-secret-file: $WORK/secret"

a_start() {
  old_ifs=$IFS
  IFS='
'
  # shellcheck disable=SC2086 # one config line per word
  set -- $CDB_FLAT
  IFS=$old_ifs
  cc_start "$@" && wait_cdb "$LOG"
}
# wait_cdb LOG: the instance logged event=cachedb_up (up to 3 s).
wait_cdb() {
  n=0
  while [ $n -lt 30 ]; do
    grep -q 'event=cachedb_up' "$1" && return 0
    sleep 0.1
    n=$((n + 1))
  done
  bad "connected to Redis" "no event=cachedb_up within 3 s" "$1"
  return 1
}
b_start() {
  port_free "$B_IP" || { bad "B start" "$B_IP:53 in use"; return 1; }
  old_ifs=$IFS
  IFS='
'
  # shellcheck disable=SC2086
  set -- $CDB_CLAUSE
  IFS=$old_ifs
  cc_conf_at "$B_IP" "$WORK/b.conf" "$@"
  "$CURVECACHE" -f -c "$WORK/b.conf" </dev/null >>"$BLOG" 2>&1 9>&- &
  B_PID=$!
  e2e_bg_pids="$e2e_bg_pids $B_PID"
  wait_up B "$B_IP" "$B_PID" "$BLOG" && wait_cdb "$BLOG"
}
b_stop() { [ -n "$B_PID" ] && bg_stop "$B_PID"; B_PID=; }

a_stat() { cc_stat_of "$CC_PID" "$LOG" "$1"; }
b_stat() { cc_stat_of "$B_PID" "$BLOG" "$1"; }

QS="www.example.lab/A chain.example.lab/A www.dn.example.lab/A \
dangle.example.lab/A nosuch.example.lab/A example.lab/MX \
x.wild.example.lab/A www.secure.curve/A"

# answers IP FILE: "status name/type records|..." for every question.
answers() {
  : >"$2"
  for nt in $QS; do
    dig +time=3 +tries=1 +noall +comments +answer +authority "@$1" \
      "${nt%/*}" "${nt#*/}" >"$WORK/one" 2>&1
    {
      printf '%s %s ' "$(dig_status "$WORK/one")" "$nt"
      awk '!/^;/ && NF >= 5 { $2 = ""; printf "%s|", $0 }' "$WORK/one" |
        tr -s ' '
      echo
    } >>"$2"
  done
}

# ask IP NAME: the answer's first address (empty if none), time in ms.
ask() {
  t0=$(now_ms)
  got=$(dig +time=3 +tries=1 +short "@$1" "$2" A 2>/dev/null | tail -n 1)
  took=$(($(now_ms) - t0))
}

redis_start || { e2e_finish; exit 1; }
a_start || { e2e_finish; exit 1; }
b_start || { e2e_finish; exit 1; }

# ------------------------------------------------------------------
# A resolves and shares; B answers from Redis.

answers "$CC_IP" "$WORK/a1"
t="A answers every question"
if ! grep -vq '^NOERROR \|^NXDOMAIN ' "$WORK/a1" &&
   [ "$(grep -c '^NXDOMAIN ' "$WORK/a1")" -eq 2 ]; then ok "$t"
else bad "$t" "unexpected status" "$WORK/a1"; fi
stores=$(a_stat cachedb.stores)
keys=$(rcli --scan --pattern 'curvecache:*' | wc -l)
t="A wrote its answers to Redis (cachedb.stores=$stores, $keys keys)"
# www.secure.curve/A is a local hit after chain.example.lab (its last
# link): a local hit never touches Redis, so 7 resolutions, 7 keys.
if [ "${stores:-0}" -ge 7 ] && [ "$keys" -ge 7 ]; then ok "$t"
else bad "$t" "expected 7 or more" "$LOG"; fi

answers "$B_IP" "$WORK/b1"
t="B (fresh cache) gives the same answers"
if diff "$WORK/a1" "$WORK/b1" >"$WORK/ab.diff"; then ok "$t"
else bad "$t" "answers differ" "$WORK/ab.diff"; fi
sends=$(grep -c 'event=upstream_send' "$BLOG")
hits=$(b_stat cachedb.hits)
t="B asked no server upstream ($sends sends), answered from Redis (cachedb.hits=$hits)"
if [ "$sends" -eq 0 ] && [ "${hits:-0}" -ge 7 ]; then ok "$t"
else bad "$t" "upstream sends or too few hits" "$BLOG"; fi
t="B timed its Redis lookups (cachedb.lookups, cachedb.lookup.usec)"
lookups=$(b_stat cachedb.lookups)
usec=$(b_stat cachedb.lookup.usec)
if [ "${lookups:-0}" -ge 7 ] && [ -n "$usec" ]; then
  ok "$t: $lookups lookups, $((usec / lookups)) us each on average"
else bad "$t" "lookups=$lookups usec=$usec" "$BLOG"; fi

# ------------------------------------------------------------------
# A forged record (no secret) is refused.

key=$(rcli --scan --pattern 'curvecache:*' | while read -r k; do
  rcli GET "$k" | grep -q 'www.example.lab.' && { echo "$k"; break; }
done)
python3 - "$WORK/forged" <<'EOF'
import os, struct, sys, time
now = int(time.time())
q = b'\x03www\x07example\x03lab\x00'
text = ('; curvecache-dump version=1 time=%d\n'
        'www.example.lab.\t3600\tIN\tA\t192.0.2.66\t; rank=auth src=plain\n'
        % now).encode()
img = (b'CCDB' + bytes([1, 0, 0, 0]) +
       struct.pack('>QQHHB', now, now + 3600, 1, 1, len(q)) + q +
       struct.pack('>I', len(text)) + text)
open(sys.argv[1], 'wb').write(img + os.urandom(32))
EOF
t="a forged record for www.example.lab. is written with redis-cli"
if [ -n "$key" ] && rcli -x SET "$key" <"$WORK/forged" | grep -q OK; then
  ok "$t"
else bad "$t" "key '$key' not found or SET failed"; fi
ask "$CC_IP" www.example.lab
truth=$got
b_stop
: >"$BLOG"
b_start || { e2e_finish; exit 1; }
ask "$B_IP" www.example.lab
refused=$(b_stat cachedb.refused)
t="the forged record is refused (cachedb.refused=$refused); B answers $got"
if [ "${refused:-0}" -ge 1 ] && [ "$got" != 192.0.2.66 ] &&
   [ "$got" = "$truth" ] && grep -q 'event=cachedb_refused' "$BLOG" &&
   [ "$(grep -c 'event=upstream_send' "$BLOG")" -gt 0 ]; then ok "$t"
else bad "$t" "expected $truth, refused >= 1, upstream sends" "$BLOG"; fi

# ------------------------------------------------------------------
# Redis hangs (SIGSTOP): at most one timeout, then skipped.

kill -STOP "$R_PID"
ask "$CC_IP" q1.wild.example.lab
t1=$took g1=$got
ask "$CC_IP" q2.wild.example.lab
t2=$took g2=$got
ask "$B_IP" q3.wild.example.lab
t="Redis hung: A still answers ($g1 in $t1 ms, then $g2 in $t2 ms)"
if [ -n "$g1" ] && [ -n "$g2" ] && [ "$t1" -lt "$T_ANSWER_MS" ] &&
   [ "$t2" -lt "$T_ANSWER_MS" ]; then ok "$t"
else bad "$t" "no answer or too slow" "$LOG"; fi
skipped=$(a_stat cachedb.skipped)
errors=$(a_stat cachedb.errors)
t="the hung Redis cost A one timeout (errors=$errors), then was skipped ($skipped)"
if [ "${errors:-0}" -ge 1 ] && [ "${errors:-0}" -le 2 ] &&
   [ "${skipped:-0}" -ge 1 ] && grep -q 'event=cachedb_down' "$LOG"; then
  ok "$t"
else bad "$t" "expected one error and skips" "$LOG"; fi
kill -CONT "$R_PID"

# wait_shared NAME: after a reconnect, A resolves NAME and B gets it
# from Redis (up to 10 s: the back-off may have grown meanwhile).
wait_shared() {
  n=0
  while [ $n -lt 20 ]; do
    if grep -q 'event=cachedb_up' "$WORK/after.a" 2>/dev/null; then break; fi
    sleep 0.5
    since_a=$(tail -n +"$1" "$LOG")
    printf '%s\n' "$since_a" >"$WORK/after.a"
    n=$((n + 1))
  done
  sleep 1 # B's back-off may be half a step behind A's
  ask "$CC_IP" "$2"
  before=$(grep -c 'event=upstream_send' "$BLOG")
  ask "$B_IP" "$2"
  [ -n "$got" ] &&
    [ "$(grep -c 'event=upstream_send' "$BLOG")" -eq "$before" ]
}
mark=$(($(wc -l <"$LOG") + 1))
rm -f "$WORK/after.a"
t="Redis back (SIGCONT): both reconnect and share again"
if wait_shared "$mark" short.example.lab; then ok "$t"
else bad "$t" "B asked upstream or no reconnect" "$BLOG"; fi

# ------------------------------------------------------------------
# Redis killed: both answer at once; restarted: both share again.

bg_stop "$R_PID"
ask "$CC_IP" a.wild.example.lab
ta=$took ga=$got
ask "$B_IP" b.wild.example.lab
t="Redis gone: A ($ga, $ta ms) and B ($got, $took ms) answer"
if [ "$ga" = 192.0.2.77 ] && [ "$got" = 192.0.2.77 ] &&
   [ "$ta" -lt "$T_ANSWER_MS" ] && [ "$took" -lt "$T_ANSWER_MS" ]; then
  ok "$t"
else bad "$t" "no answer or too slow" "$LOG"; fi
mark=$(($(wc -l <"$LOG") + 1))
rm -f "$WORK/after.a"
redis_start || { e2e_finish; exit 1; }
t="Redis restarted: both reconnect and share again"
if wait_shared "$mark" c.wild.example.lab; then ok "$t"
else bad "$t" "B asked upstream or no reconnect" "$BLOG"; fi

cc_no_sanitizer
if grep -q 'Sanitizer' "$BLOG"; then
  bad "no sanitizer report in B's log" "see the log" "$BLOG"
fi
e2e_finish
