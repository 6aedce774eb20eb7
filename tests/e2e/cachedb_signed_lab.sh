#!/bin/sh
# tests/e2e/cachedb_signed_lab.sh: the Redis cache tier (issue 26) keeps
# DNSSEC: two validating curvecache instances of the SIGNED lab
# (tests/lab/signed.sh; tests/e2e/cachedb_lab.sh tests the rest) share a
# redis-server started here (127.54.100.9, nothing on disk, stopped by
# pid).
#
# Run by "make check" (cwd = top build dir, $srcdir = top source dir).
# Exit 0 = every check passed, 1 = a check failed, 77 = SKIP.
#
# How each check decides:
# - A answers every case of the signed lab's table (secure, insecure,
#   NXDOMAIN and NODATA with proofs, opt-out, bogus...) with DO set,
#   resolving and validating, and writes what it learned to Redis.
# - B (fresh cache) gives each the same answer: status, AD bit and every
#   record of the answer and authority sections (RRSIGs and NSEC/NSEC3
#   proofs included, TTLs aside) as judged by dig; bogus answers are
#   never shared (SERVFAIL is not written), B finds them bogus itself.
# - the secure answers came from Redis: B sent no query upstream for
#   them (no upstream_send with their name), and cachedb.hits counts.

set -u
srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=tests/e2e/e2e_lib.sh
. "$srcdir/tests/e2e/e2e_lib.sh"
CURVECACHE=${CURVECACHE:-./curvecache}
# shellcheck disable=SC2086 # a list of programs
e2e_need "the signed lab binds port 53" $SIGNED_NEEDS redis-server redis-cli
e2e_built CURVECACHE
signed_lab_start cachedb_signed_lab

B_IP=127.53.100.2
R_IP=127.54.100.9
R_PORT=6391
BLOG=$WORK/b.log
head -c 48 /dev/urandom >"$WORK/secret"
chmod 600 "$WORK/secret"
printf 'bind %s\nport %s\nprotected-mode no\nsave ""\nappendonly no\ndir %s\nlogfile ""\n' \
  "$R_IP" "$R_PORT" "$WORK" >"$WORK/redis.conf"
bg_start redis redis-server "$WORK/redis.conf"
n=0
until [ "$(redis-cli -h "$R_IP" -p "$R_PORT" PING 2>/dev/null)" = PONG ]; do
  n=$((n + 1))
  [ $n -lt 50 ] || { bad "redis-server start" "no PONG" "$WORK/redis.out"; e2e_finish; exit 1; }
  sleep 0.1
done

# wait_cdb LOG: the instance logged event=cachedb_up (up to 3 s).
wait_cdb() {
  n=0
  until grep -q 'event=cachedb_up' "$1"; do
    n=$((n + 1))
    [ $n -lt 30 ] || { bad "connected to Redis" "no cachedb_up" "$1"; return 1; }
    sleep 0.1
  done
}
set -- "dnssec: yes" "trust-anchor-file: $SIGNED_TA_DS" \
  "cachedb-backend: redis" "redis-server-host: $R_IP" \
  "redis-server-port: $R_PORT" "cachedb-secret-file: $WORK/secret"
cc_start "$@" && wait_cdb "$WORK/curvecache.log" || { e2e_finish; exit 1; }
port_free "$B_IP" || { bad "B start" "$B_IP:53 in use"; e2e_finish; exit 1; }
cc_conf_at "$B_IP" "$WORK/b.conf" "$@"
"$CURVECACHE" -f -c "$WORK/b.conf" </dev/null >>"$BLOG" 2>&1 9>&- &
B_PID=$!
e2e_bg_pids="$e2e_bg_pids $B_PID"
wait_up B "$B_IP" "$B_PID" "$BLOG" && wait_cdb "$BLOG" ||
  { e2e_finish; exit 1; }

# norm RAW: "STATUS AD=x" and the sorted records without TTLs.
norm() {
  case " $(dig_flags "$1") " in *" ad "*) ad=1 ;; *) ad=0 ;; esac
  echo "$(dig_status "$1") AD=$ad"
  awk '!/^;/ && NF >= 5 { $2 = ""; print }' "$1" | tr -s ' ' | sort
}

"$SIGNED" cases >"$WORK/cases" || { echo "FAIL: signed.sh cases"; exit 1; }
i=0
while read -r want name type _ <&3; do
  i=$((i + 1))
  dig +dnssec +time=5 +tries=1 "@$CC_IP" "$name" "$type" >"$WORK/a$i" 2>&1
  printf '%s %s %s\n' "$want" "$name" "$type" >"$WORK/q$i"
done 3<"$WORK/cases"
stores=$(cc_stat cachedb.stores)
j=0
same=0
while [ $j -lt $i ]; do
  j=$((j + 1))
  read -r want name type <"$WORK/q$j"
  dig +dnssec +time=5 +tries=1 "@$B_IP" "$name" "$type" >"$WORK/b$j" 2>&1
  norm "$WORK/a$j" >"$WORK/na"
  norm "$WORK/b$j" >"$WORK/nb"
  if diff "$WORK/na" "$WORK/nb" >"$WORK/d$j"; then
    same=$((same + 1))
  else
    bad "B answers $name $type ($want) as A does" "differs" "$WORK/d$j"
  fi
done
t="B gives $same of $i answers exactly as A (status, AD, records with RRSIGs and proofs)"
if [ "$same" -eq "$i" ]; then ok "$t"; else bad "$t" "see above"; fi

# the secure and proven-negative cases B took from Redis
asked=0
for nt in www.alg8.sec/A www.alg13.sec/A nx.alg13.sec/A www.alg15.sec/A \
  www.alg16.sec/A www.nsec3optout.sec/A; do
  n=$(grep -c "event=upstream_send server=[^ ]* qname=${nt%/*}. type=${nt#*/} " "$BLOG")
  asked=$((asked + n))
done
kill -USR1 "$B_PID"
sleep 1
hits=$(grep 'event=stats' "$BLOG" | tr ' ' '\n' | sed -n 's/^cachedb.hits=//p' | tail -n 1)
t="validated answers came from Redis to B (A wrote $stores, B used $hits; $asked upstream queries of B for six secure names)"
if [ "$asked" -eq 0 ] && [ "${hits:-0}" -ge 10 ] && [ "${stores:-0}" -ge 10 ]; then ok "$t"
else bad "$t" "expected no upstream queries for them" "$BLOG"; fi

if grep -q 'Sanitizer' "$WORK/curvecache.log" "$BLOG"; then
  bad "no sanitizer report" "see the logs"
fi
e2e_finish
