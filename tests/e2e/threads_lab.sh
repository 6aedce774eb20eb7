#!/bin/sh
# tests/e2e/threads_lab.sh: curvecache with "threads: 2" in the loopback lab.
#
# Checks:
# - it starts with two workers: the main thread and a thread named
#   cc-worker1 (resolver/workers.c), each with its own SO_REUSEPORT UDP
#   socket on the listen address (ss shows two);
# - a name is resolved (cold) and then answered from the cache to many
#   clients: 64 UDP sockets (64 source ports, spread by the kernel over
#   both sockets) each ask 25 times; every answer is NOERROR with the
#   lab's address;
# - both threads served: each one's CPU time (/proc/PID/task/TID/schedstat,
#   nanoseconds) grew by more than T_BUSY_NS during the burst;
# - the control socket's stats sum both workers: num.query.udp counts
#   every query of the burst; its status says "threads: 2";
# - TERM stops it cleanly: exit status 0 and no sanitizer report in its
#   log (the test is meant to run in an --enable-sanitizers build too).
set -u
srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$srcdir/tests/e2e/e2e_lib.sh"
# shellcheck disable=SC2119 # cc_start takes optional config lines
e2e_init threads_lab python3 ss

CTL=${CURVECACHE_CONTROL:-./curvecache-control}
SOCKS=64
PER=25
T_BUSY_NS=1000000

cc_start "threads: 2" "control-socket: $WORK/ctl" || exit 1

n=$(ss -Hlnu "src $CC_IP:53" 2>/dev/null | wc -l)
if [ "$n" -eq 2 ]; then ok "two UDP sockets on $CC_IP:53"
else bad "two UDP sockets on $CC_IP:53" "ss shows $n"; fi

wtid=
for t in /proc/"$CC_PID"/task/*; do
  [ "$(cat "$t/comm" 2>/dev/null)" = cc-worker1 ] && wtid=${t##*/}
done
if [ -n "$wtid" ]; then ok "thread cc-worker1 runs (tid $wtid)"
else bad "thread cc-worker1 runs" "no such thread of pid $CC_PID"; fi

out=$(dig +time=3 +tries=1 "@$CC_IP" www.example.lab A 2>&1)
case $out in
  *"status: NOERROR"*192.0.2.*) ok "cold resolution" ;;
  *) bad "cold resolution" "$out" ;;
esac

busy() { awk '{ print $1 }' "/proc/$CC_PID/task/$1/schedstat"; }
m0=$(busy "$CC_PID"); w0=$(busy "${wtid:-$CC_PID}")
before=$("$CTL" -s "$WORK/ctl" stats_noreset |
  awk -F= '$1 == "num.query.udp" { print $2 }')
python3 "$srcdir/tests/e2e/manyports.py" "$CC_IP" www.example.lab $SOCKS $PER \
  >"$WORK/burst.out" 2>&1
got=$(awk '/^answered/ { print $2 }' "$WORK/burst.out")
want=$((SOCKS * PER))
if [ "${got:-0}" -eq $want ]; then ok "$want cached answers to $SOCKS ports"
else bad "$want cached answers to $SOCKS ports" "got ${got:-0}" \
  "$WORK/burst.out"; fi

m1=$(busy "$CC_PID"); w1=$(busy "${wtid:-$CC_PID}")
dm=$((m1 - m0)); dw=$((w1 - w0))
if [ -n "$wtid" ] && [ $dm -gt $T_BUSY_NS ] && [ $dw -gt $T_BUSY_NS ]; then
  ok "both threads served (cpu ns: main $dm, cc-worker1 $dw)"
else
  bad "both threads served" "cpu ns: main $dm, cc-worker1 $dw"
fi

after=$("$CTL" -s "$WORK/ctl" stats_noreset |
  awk -F= '$1 == "num.query.udp" { print $2 }')
d=$(( ${after:-0} - ${before:-0} ))
if [ $d -ge $want ]; then ok "stats sum both workers ($d UDP queries)"
else bad "stats sum both workers" "num.query.udp grew by $d, want $want"
fi

if "$CTL" -s "$WORK/ctl" status 2>&1 | grep -qx "threads: 2"; then
  ok "status says threads: 2"
else bad "status says threads: 2" "$("$CTL" -s "$WORK/ctl" status 2>&1)"; fi

e2e_kill "$CC_PID"
rc=$?
CC_PID=
if [ $rc -eq 0 ] && ! grep -q 'Sanitizer' "$WORK/curvecache.log"; then
  ok "clean stop (status 0, no sanitizer report)"
else
  bad "clean stop" "status $rc" "$WORK/curvecache.log"
fi
e2e_finish
