#!/bin/sh
# tests/e2e/threads_reload_lab.sh: reloads of a "threads: 2" curvecache
# under load (resolver/daemon/workers.h: every worker gets the new settings,
# local data and hints on its own thread; counters read race-free).
#
# Checks:
# - with dnsperf sending queries (LOAD_QPS a second) for
#   cached and local names from many source ports all along, the
#   local-data-file is rewritten ROUNDS times, each time followed by a
#   reload, by SIGHUP and by "curvecache-control reload" in turn;
# - after each reload, 64 UDP sockets (64 source ports, spread by the
#   kernel over both workers' SO_REUSEPORT sockets) each ask the local
#   name 4 times: every answer has the new address, and the per-thread
#   counters show both threads answered some of them (thread0 and
#   thread1.num.queries both grew);
# - stats: thread0.* and thread1.* lines exist, and at a quiet moment
#   thread0.num.queries + thread1.num.queries = total.num.queries;
# - the load generator got answers to nearly all of its queries (at
#   least LOAD_MIN_PCT percent) and curvecache is still running;
# - TERM stops it cleanly: exit status 0 and no sanitizer report
#   (AddressSanitizer or ThreadSanitizer) in its log: run it against an
#   --enable-sanitizers build and a CFLAGS=-fsanitize=thread build.
set -u
srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=tests/e2e/e2e_lib.sh
. "$srcdir/tests/e2e/e2e_lib.sh"
# shellcheck disable=SC2119 # cc_start takes optional config lines
e2e_init threads_reload_lab python3 dnsperf

CTL=${CURVECACHE_CONTROL:-./curvecache-control}
ROUNDS=6
SOCKS=64
PER=4
LOAD_S=15
LOAD_QPS=1000
LOAD_MIN_PCT=95
HOSTS=$WORK/hosts

hosts() { printf '10.77.0.%s  box.reload.lab\n' "$1" >"$HOSTS"; }
stat_of() {
  "$CTL" -s "$WORK/ctl" stats_noreset | awk -F= -v n="$1" '$1 == n {
    print $2 }'
}

hosts 1
cc_start "threads: 2" "control-socket: $WORK/ctl" \
  "local-data-file: $HOSTS" || exit 1

out=$(dig +time=3 +tries=1 "@$CC_IP" www.example.lab A 2>&1)
case $out in
  *"status: NOERROR"*192.0.2.*) ok "cold resolution" ;;
  *) bad "cold resolution" "$out" ;;
esac

# The load: cached, local and uncached-but-lab names, all along.
printf 'www.example.lab A\nbox.reload.lab A\nexample.lab NS\n' \
  >"$WORK/load.q"
bg_start load dnsperf -s "$CC_IP" -d "$WORK/load.q" -l $LOAD_S -c 16 \
  -Q $LOAD_QPS -t 3
LOAD_PID=$bg_pid
sleep 1

# probe ROUND: SOCKS ports ask box.reload.lab PER times (manyports.py);
# prints how many answers carried 10.77.0.ROUND, and how many did not.
probe() {
  python3 "$srcdir/tests/e2e/manyports.py" "$CC_IP" box.reload.lab \
    $SOCKS $PER "10.77.0.$1" | awk '{ print $2, $4 }'
}

i=2
while [ $i -le $((ROUNDS + 1)) ]; do
  hosts $i
  if [ $((i % 2)) -eq 0 ]; then
    how=SIGHUP
    n0=$(grep -c 'event=reload ' "$WORK/curvecache.log")
    kill -HUP "$CC_PID"
    n=0
    while [ $n -lt 50 ] &&
      [ "$(grep -c 'event=reload ' "$WORK/curvecache.log")" -le "$n0" ]; do
      sleep 0.1; n=$((n + 1))
    done
  else
    how="control reload"
    r=$("$CTL" -s "$WORK/ctl" reload 2>&1) ||
      bad "control reload (round $i)" "$r"
  fi
  t0=$(stat_of thread0.num.queries); t1=$(stat_of thread1.num.queries)
  pr=$(probe $i)
  right=${pr%% *}; wrong=${pr##* }
  u0=$(stat_of thread0.num.queries); u1=$(stat_of thread1.num.queries)
  if [ "${right:-0}" -eq $((SOCKS * PER)) ] && [ "${wrong:-1}" -eq 0 ] &&
     [ $((${u0:-0} - ${t0:-0})) -gt 0 ] && [ $((${u1:-0} - ${t1:-0})) -gt 0 ]
  then
    ok "after $how: $right answers with 10.77.0.$i\
 (thread0 +$((u0 - t0)), thread1 +$((u1 - t1)) queries)"
  else
    bad "after $how: new local data on both threads" "right ${right:-?}\
 wrong ${wrong:-?}; thread0 ${t0:-?}..${u0:-?} thread1 ${t1:-?}..${u1:-?}"
  fi
  i=$((i + 1))
done

if e2e_alive "$CC_PID"; then ok "alive after $ROUNDS reloads under load"
else bad "alive after $ROUNDS reloads under load" "" "$WORK/curvecache.log"
fi

n=0
while e2e_alive "$LOAD_PID" && [ $n -lt $((LOAD_S * 10 + 100)) ]; do
  sleep 0.1; n=$((n + 1))
done
bg_stop "$LOAD_PID"
sent=$(awk '/Queries sent:/ { print $3 }' "$WORK/load.out")
done_=$(awk '/Queries completed:/ { print $3 }' "$WORK/load.out")
if [ "${sent:-0}" -gt 0 ] &&
   [ $((${done_:-0} * 100)) -ge $((sent * LOAD_MIN_PCT)) ]; then
  ok "dnsperf load: $done_ of $sent queries answered"
else
  bad "dnsperf load: $LOAD_MIN_PCT% answered" \
    "sent ${sent:-?} completed ${done_:-?}" "$WORK/load.out"
fi

"$CTL" -s "$WORK/ctl" stats_noreset >"$WORK/stats.out" 2>&1
s0=$(awk -F= '$1 == "thread0.num.queries" { print $2 }' "$WORK/stats.out")
s1=$(awk -F= '$1 == "thread1.num.queries" { print $2 }' "$WORK/stats.out")
st=$(awk -F= '$1 == "total.num.queries" { print $2 }' "$WORK/stats.out")
if [ -n "$s0" ] && [ -n "$s1" ] && [ $((s0 + s1)) -eq "${st:-0}" ] &&
   grep -q '^thread1.num.cachehits=' "$WORK/stats.out" &&
   grep -q '^thread1.num.recursivereplies=' "$WORK/stats.out"; then
  ok "per-thread stats: thread0 $s0 + thread1 $s1 = total $st"
else
  bad "per-thread stats" \
    "thread0 ${s0:-?} thread1 ${s1:-?} total ${st:-?}" "$WORK/stats.out"
fi

cc_clean_stop "threads: 2"
e2e_finish
