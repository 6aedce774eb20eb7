#!/bin/sh
# tests/e2e/outage_lab.sh: curvecache through an outage of every upstream
# server, and through the loss of its outgoing address, in the loopback
# lab (tests/lab/lab.sh), with no restart.
#
# The whole test runs in a network namespace of its own (unshare -n)
# whose loopback holds 127.0.0.1/32, 127.53.0.0/16 (the lab and
# curvecache) and OUT_IP/32, the address curvecache sends from: there an
# address can really be taken away (on the host's lo, 127.0.0.0/8 is
# local whatever addresses are listed). It also keeps the test apart from
# any other lab.
#
# 1. Outage: the lab is stopped (lab.sh down) for OUTAGE_SECS (default
#    20; OUTAGE_SECS=120 for the two minutes of the issue) while fresh
#    names are asked every OUTAGE_POLL_SECS (each SERVFAIL within the
#    query timeout) and a cached name is still answered; then the lab
#    comes back (lab.sh up) and a fresh name must be answered within
#    T_RECOVER_MS of the servers' return.
# 2. Address change: OUT_IP is removed from lo (ip addr del) for
#    ADDR_GONE_SECS: fresh names get SERVFAIL at once (nothing can be
#    sent), cached ones are answered; OUT_IP is added again and a fresh
#    name must be answered within T_RECOVER_MS.
#
# Prints the recovery times. Run by "make check" (cwd = top build dir,
# $srcdir = top source dir). Exit 0 = every check passed, 1 = a check
# failed, 77 = SKIP (not root, no unshare/ip, or a lab program missing).

# shellcheck disable=SC2119 # cc_start takes optional config lines
set -u
srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
OUT_IP=127.54.0.1
if [ -z "${OUTAGE_IN_NETNS:-}" ]; then
  [ "$(id -u)" -eq 0 ] || { echo "SKIP: not root"; exit 77; }
  for t in unshare ip; do
    command -v "$t" >/dev/null 2>&1 || { echo "SKIP: $t missing"; exit 77; }
  done
  # shellcheck disable=SC2016 # expanded by the inner shell
  OUTAGE_IN_NETNS=1 exec unshare -n sh -c '
    ip link set lo up && ip addr del 127.0.0.1/8 dev lo &&
    ip addr add 127.0.0.1/32 dev lo && ip addr add 127.53.0.0/16 dev lo &&
    ip addr add "$1"/32 dev lo || exit 1
    exec sh "$2"' sh "$OUT_IP" "$0"
fi

# shellcheck source=tests/e2e/e2e_lib.sh
. "$srcdir/tests/e2e/e2e_lib.sh"
# shellcheck source=tests/e2e/hard_lib.sh
. "$srcdir/tests/e2e/hard_lib.sh"
e2e_init outage_lab
OUTAGE_SECS=${OUTAGE_SECS:-20}
OUTAGE_POLL_SECS=2
ADDR_GONE_SECS=${ADDR_GONE_SECS:-10}
T_RECOVER_MS=5000

# cc_start sends from $CC_IP: rewrite its config to send from OUT_IP and
# start again (same log).
cc_start || exit 1
cc_stop >/dev/null
sed -i "s/^outgoing-interface: .*/outgoing-interface: $OUT_IP/" \
  "$WORK/curvecache.conf"
"$CURVECACHE" -f -c "$WORK/curvecache.conf" </dev/null \
  >>"$WORK/curvecache.log" 2>&1 9>&- &
CC_PID=$!
sleep 0.5
e2e_alive "$CC_PID" || { bad "curvecache start" "died" \
  "$WORK/curvecache.log"; exit 1; }
PID0=$CC_PID

# ask NAME: dig through curvecache; sets st (status) and ms (time).
ask() {
  t0=$(now_ms)
  dig +time=7 +tries=1 "@$CC_IP" "$1" A </dev/null >"$WORK/ask.out" 2>&1
  ms=$(($(now_ms) - t0))
  st=$(dig_status "$WORK/ask.out")
}

# recover LABEL: ask fresh names (a wildcard of example.lab. and, the
# first time only, www.dead.lab. via lab.) until both are answered; ok
# if that took at most T_RECOVER_MS from now.
recover() {
  r0=$(now_ms)
  need_dead=$2
  i=0
  while [ $(($(now_ms) - r0)) -lt $((T_RECOVER_MS * 3)) ]; do
    i=$((i + 1))
    ask "rec$i-$$-$1.wild.example.lab"
    wild_ok=$st
    if [ "$need_dead" = yes ]; then
      ask www.dead.lab
      [ "$st" = NOERROR ] && need_dead=no
    fi
    [ "$wild_ok" = NOERROR ] && [ "$need_dead" = no ] && break
    sleep 0.2
  done
  rec_ms=$(($(now_ms) - r0))
  echo "# $1: answered again $rec_ms ms after the return ($i tries)"
  if [ "$wild_ok" = NOERROR ] && [ "$need_dead" = no ] &&
     [ "$rec_ms" -le "$T_RECOVER_MS" ]; then
    ok "$1: resolves again in $rec_ms ms (bound $T_RECOVER_MS ms)"
  else
    bad "$1: resolves again within $T_RECOVER_MS ms" "$rec_ms ms" \
      "$WORK/ask.out"
  fi
}

# during LABEL SECS: for SECS seconds, fresh names get SERVFAIL within
# T_SERVFAIL_MS and the cached name is answered.
during() {
  end=$(($(date +%s) + $2))
  n=0 sf=0 slow=0 cached=0
  while [ "$(date +%s)" -lt "$end" ]; do
    n=$((n + 1))
    ask "out$n-$$-$1.wild.example.lab"
    [ "$st" = SERVFAIL ] && sf=$((sf + 1))
    [ "$ms" -gt "$T_SERVFAIL_MS" ] && slow=$((slow + 1))
    ask www.example.lab
    [ "$st" = NOERROR ] && cached=$((cached + 1))
    sleep "$OUTAGE_POLL_SECS"
  done
  if [ "$sf" -eq "$n" ] && [ "$slow" -eq 0 ] && [ "$cached" -eq "$n" ]; then
    ok "$1: $n fresh names SERVFAIL in time, the cached name answered"
  else
    bad "$1: fresh names SERVFAIL in time, cached answered" \
      "of $n: $sf SERVFAIL, $slow too slow, $cached cached answers"
  fi
}

ask www.example.lab
[ "$st" = NOERROR ] || bad "before: www.example.lab" "$st" "$WORK/ask.out"

# ---- 1. Outage ----
echo "# 1. every server down for $OUTAGE_SECS s ($(elapsed))"
LAB_DIR=$LAB_DIR "$LAB" down || bad "lab.sh down" "failed"
during "outage" "$OUTAGE_SECS"
LAB_DIR=$LAB_DIR "$LAB" up >"$WORK/up.out" 2>&1 ||
  { bad "lab.sh up" "failed" "$WORK/up.out"; exit 1; }
recover "after the outage" yes

# ---- 2. Address change ----
echo "# 2. $OUT_IP removed for $ADDR_GONE_SECS s ($(elapsed))"
ip addr del "$OUT_IP/32" dev lo || bad "ip addr del" "failed"
during "address gone" "$ADDR_GONE_SECS"
ip addr add "$OUT_IP/32" dev lo || bad "ip addr add" "failed"
recover "after the address came back" no

if [ "$CC_PID" = "$PID0" ] && e2e_alive "$CC_PID"; then
  ok "no restart: curvecache pid $CC_PID throughout"
else
  bad "no restart" "pid $PID0 -> $CC_PID"
fi
cc_stop
san_check
e2e_finish
