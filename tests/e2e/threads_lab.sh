#!/bin/sh
# tests/e2e/threads_lab.sh: curvecache with "threads: 2" in the loopback lab.
#
# Checks:
# - it starts with two workers: the main thread and a thread named
#   cc-worker1 (resolver/daemon/workers.c), each with its own SO_REUSEPORT UDP
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
#   log (the test is meant to run in an --enable-sanitizers build too);
# - it starts at once after a stop that closed a client's TCP connection
#   (TIME_WAIT on the listen address), after one worker and after two:
#   the SO_REUSEPORT listeners set SO_REUSEADDR too;
# - with "ratelimit: 50" (loopback not exempt), one client asking from 300
#   source ports, which the kernel spreads over both workers, gets about
#   50 answers in all: the workers share one rate limiter.
set -u
srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$srcdir/tests/e2e/e2e_lib.sh"
# shellcheck source=tests/e2e/hard_lib.sh
. "$srcdir/tests/e2e/hard_lib.sh"
# shellcheck disable=SC2119 # cc_start takes optional config lines
e2e_init threads_lab python3 ss

CTL=${CURVECACHE_CONTROL:-./curvecache-control}
SOCKS=64
PER=25
T_BUSY_NS=1000000
RATE=50
RL_PORTS=300
RL_ROUNDS=1

# hold_and_stop WHAT: stop curvecache while a TCP client is connected:
# the server closes the connection first, which leaves $CC_IP:53 in
# TIME_WAIT (sets tw, how many).
hold_and_stop() {
  bg_start tcphold python3 -c 'import socket, sys, time
s = socket.create_connection((sys.argv[1], 53))
print("connected", flush=True)
time.sleep(60)' "$CC_IP"
  hold_pid=$bg_pid
  wait_line "$WORK/tcphold.out" '^connected' 50
  cc_clean_stop "$1"
  bg_stop "$hold_pid"
  tw=$(ss -Htan state time-wait "src $CC_IP:53" 2>/dev/null | wc -l)
}

# restart LINE...: cc_start right after hold_and_stop, a check.
restart() {
  if cc_start "$@"; then
    ok "$1: started at once beside $tw TIME_WAIT connection(s) on $CC_IP:53"
  else
    e2e_finish; exit 1
  fi
}

# One worker first: its listeners have no SO_REUSEPORT, and the TIME_WAIT
# it leaves must not keep the SO_REUSEPORT listeners of two from binding.
cc_start "control-socket: $WORK/ctl" || exit 1
hold_and_stop "threads: 1"
restart "threads: 2" "control-socket: $WORK/ctl"

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

hold_and_stop "threads: 2"

# One client over both workers: the rate limiter is shared, so RL_PORTS
# source ports (spread over the two SO_REUSEPORT sockets) together get
# about RATE answers (its burst, plus what refills while it sends), not
# RATE per worker.
restart "threads: 2" "control-socket: $WORK/ctl" "ratelimit: $RATE" \
  "ratelimit-exempt-loopback: no"
dig +time=3 +tries=1 -b 127.0.0.2 "@$CC_IP" www.example.lab A >/dev/null 2>&1
python3 "$srcdir/tests/e2e/manyports.py" "$CC_IP" www.example.lab \
  $RL_PORTS $RL_ROUNDS - 2 >"$WORK/rl.out" 2>&1
got=$(awk '/^answered/ { print $2 }' "$WORK/rl.out")
win=$(awk '/^answered/ { print $6 }' "$WORK/rl.out")
limited=$("$CTL" -s "$WORK/ctl" stats_noreset |
  awk -F= '$1 == "num.ratelimited" { print $2 }')
sent=$((RL_PORTS * RL_ROUNDS))
# the bucket's RATE, plus RATE a second over the time the answers took
most=$((RATE + RATE * ${win:-0} / 1000 + 1))
echo "# ratelimit $RATE over 2 workers: $got of $sent answered in" \
  "${win:-?} ms (one shared limit allows $most), num.ratelimited $limited"
if [ "${got:-0}" -ge "$RATE" ] && [ "${got:-0}" -le "$most" ] &&
   [ $((${got:-0} + ${limited:-0})) -eq $sent ]; then
  ok "one client over both workers gets one limit ($got of $sent answered, $limited limited)"
else
  bad "one client over both workers gets one limit" \
    "$got of $sent answered (per-worker tables would give ~$((RATE * 2))), num.ratelimited $limited" \
    "$WORK/rl.out"
fi
cc_clean_stop "ratelimit"
e2e_finish
