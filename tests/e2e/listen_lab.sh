#!/bin/sh
# tests/e2e/listen_lab.sh: wildcard listeners and ip-freebind (issue 13,
# item 3). No lab needed: every name asked is localhost. (answered
# locally, RFC 6761), so nothing goes upstream.
#
# - listen: 0.0.0.0@PORT (and ::@PORT when ::1 is on lo): dig asks
#   127.0.55.7 and 127.0.55.8 (and ::1) over UDP and must get its answer
#   from the address it asked (dig ignores a reply from any other source:
#   "reply from unexpected source"), over TCP too; a PROXY v2 datagram
#   from a proxy-protocol-from peer, sent to 127.0.55.7, is answered from
#   127.0.55.7 to that peer; the same with threads: 2 (SO_REUSEPORT).
# - ip-freebind: a listen on addresses this host does not have
#   (198.51.100.55, TEST-NET-2, and 2001:db8:55::1, documentation
#   prefix; only bound, never sent a packet) makes the daemon refuse to
#   start with an error naming the address and ip-freebind; with
#   ip-freebind: yes it starts, answers on its loopback listen and holds
#   the UDP and TCP sockets of those addresses.
#
# Run by "make check" (cwd = top build dir, $srcdir = top source dir).
# Exit 0 = every check passed, 1 = a check failed, 77 = SKIP (not root,
# or dig, python3 or ss missing).

set -u
srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=tests/e2e/e2e_lib.sh
. "$srcdir/tests/e2e/e2e_lib.sh"

PORT=5477
A1=127.0.55.7
A2=127.0.55.8
PROXY_PEER=127.0.55.9
FREE4=198.51.100.55
FREE6=2001:db8:55::1

[ "$(id -u)" -eq 0 ] || e2e_skip "not root (SO_RCVBUFFORCE, as the daemon)"
for t in dig python3 ss; do
  command -v "$t" >/dev/null 2>&1 || e2e_skip "$t not installed"
done
CURVECACHE=${CURVECACHE:-./curvecache}
[ -x "$CURVECACHE" ] || { echo "FAIL: $CURVECACHE not built"; exit 1; }
WORK=$(mktemp -d "${TMPDIR:-/tmp}/listen_lab.XXXXXX") || exit 1
trap e2e_cleanup EXIT
trap 'exit 130' HUP INT TERM
LOG=$WORK/curvecache.log
HAVE6=no
ip -6 addr show lo 2>/dev/null | grep -q 'inet6 ::1/128' && HAVE6=yes
echo "# listen_lab: port $PORT, IPv6 loopback: $HAVE6"

# port_used: something listens on port $PORT (any address).
port_used() {
  ss -Hlnut 2>/dev/null | awk '{ print $5 }' | grep -q ":$PORT\$"
}

# conf LINE...: the configuration (no control socket, debug log; the
# lab's root hints, on loopback addresses that do-not-query-localhost,
# left on, keeps curvecache from asking).
conf() {
  {
    echo "# written by tests/e2e/listen_lab.sh"
    echo "root-hints: $(cd "$srcdir" && pwd)/tests/lab/root.hints"
    echo "dnssec: no"
    echo "user:"
    echo "control-socket:"
    echo "log-level: debug"
    for line in "$@"; do echo "$line"; done
  } >"$WORK/curvecache.conf"
}

# start PROBE LINE...: start curvecache with the lines as its config and
# wait (5 s) until it answers localhost. on PROBE (UDP). Returns 1 if it
# does not; CC_PID is its pid either way.
start() {
  probe=$1
  shift
  if port_used; then
    bad "port $PORT free" "in use"
    return 1
  fi
  conf "$@"
  echo "---- start: $*" >>"$LOG"
  "$CURVECACHE" -f -c "$WORK/curvecache.conf" </dev/null >>"$LOG" 2>&1 &
  CC_PID=$!
  n=0
  while [ $n -lt 50 ] && e2e_alive "$CC_PID"; do
    dig +time=1 +tries=1 -p "$PORT" "@$probe" localhost A 2>/dev/null |
      grep -q 'status: NOERROR' && return 0
    sleep 0.1
    n=$((n + 1))
  done
  return 1
}

# ask ADDR [DIGOPT...]: localhost. A (AAAA for an IPv6 ADDR) from ADDR
# must come back NOERROR with the loopback address.
ask() {
  aa=$1
  shift
  case $aa in
    *:*) at=AAAA want=::1 ;;
    *) at=A want=127.0.0.1 ;;
  esac
  dig +time=2 +tries=1 -p "$PORT" "@$aa" "$@" localhost "$at" \
    >"$WORK/dig.out" 2>&1
  got=$(awk '$4 == "'"$at"'" { print $5 }' "$WORK/dig.out")
  what="asked $aa:$PORT ${*:-over UDP}: answer from $aa"
  if grep -q 'status: NOERROR' "$WORK/dig.out" && [ "$got" = "$want" ]; then
    ok "$what"
  else
    bad "$what" "no answer from it" "$WORK/dig.out"
  fi
}

# proxy_ask ADDR: a PROXY v2 datagram (client 127.0.0.77) from
# $PROXY_PEER to ADDR:$PORT; prints the reply's source, ID and rcode.
proxy_ask() {
  python3 - "$1" "$PORT" "$PROXY_PEER" <<'EOF'
import socket, struct, sys
dst, port, peer = sys.argv[1], int(sys.argv[2]), sys.argv[3]
q = struct.pack('>HHHHHH', 0x5a17, 0x0100, 1, 0, 0, 0)
q += b'\x09localhost\x00' + struct.pack('>HH', 1, 1)
hdr = b'\r\n\r\n\x00\r\nQUIT\n' + bytes([0x21, 0x12]) + struct.pack('>H', 12)
hdr += socket.inet_aton('127.0.0.77') + socket.inet_aton(dst)
hdr += struct.pack('>HH', 40000, port)
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind((peer, 0))
s.settimeout(3)
s.sendto(hdr + q, (dst, port))
try:
    data, src = s.recvfrom(4096)
except socket.timeout:
    print('timeout')
    sys.exit(0)
print(src[0], data[:2].hex(), data[3] & 0x0f)
EOF
}

# stop: SIGTERM; status 0 expected (a check).
stop() {
  e2e_kill "$CC_PID"
  st=$?
  CC_PID=
  if [ "$st" -eq 0 ] && ! grep -q Sanitizer "$LOG"; then
    ok "$1: curvecache exits 0"
  else
    bad "$1: curvecache exits 0" "status $st" "$LOG"
  fi
}

# ---- 1. wildcard listeners, one worker ----
lines="listen: 0.0.0.0@$PORT"
[ "$HAVE6" = yes ] && lines="$lines
listen: ::@$PORT"
if start 127.0.0.1 "$lines" "proxy-protocol-from: $PROXY_PEER"; then
  ok "listen 0.0.0.0@$PORT: curvecache answers on 127.0.0.1"
  ask "$A1"
  ask "$A2"
  ask "$A1" +tcp
  [ "$HAVE6" = yes ] && ask ::1
  got=$(proxy_ask "$A1")
  if [ "$got" = "$A1 5a17 0" ]; then
    ok "PROXY v2 datagram sent to $A1: answered from $A1"
  else
    bad "PROXY v2 datagram sent to $A1: answered from $A1" "got '$got'"
  fi
  stop "wildcard"
else
  bad "listen 0.0.0.0@$PORT: curvecache starts" "no answer" "$LOG"
  [ -n "$CC_PID" ] && stop "wildcard"
fi

# ---- 2. the same with two workers (SO_REUSEPORT sockets) ----
if start 127.0.0.1 "$lines" "threads: 2"; then
  for _ in 1 2 3; do
    ask "$A1"
    ask "$A2"
  done
  stop "threads: 2"
else
  bad "threads: 2, listen 0.0.0.0@$PORT: curvecache starts" "no answer" \
    "$LOG"
  [ -n "$CC_PID" ] && stop "threads: 2"
fi

# ---- 3. ip-freebind ----
free="listen: $FREE4@$PORT"
[ "$HAVE6" = yes ] && free="$free
listen: $FREE6@$PORT"
if start "$A1" "listen: $A1@$PORT" "$free"; then
  bad "without ip-freebind, listen $FREE4: refused" "curvecache started"
  stop "no ip-freebind"
else
  if e2e_alive "$CC_PID"; then
    e2e_kill "$CC_PID"
    st=running
  else
    wait "$CC_PID"
    st=$?
  fi
  CC_PID=
  if [ "$st" != running ] && [ "$st" -ne 0 ] &&
     grep -q "listen $FREE4@$PORT: .*ip-freebind" "$LOG"; then
    ok "without ip-freebind, listen $FREE4: refused (status $st), the\
 error names the address and ip-freebind"
  else
    bad "without ip-freebind, listen $FREE4: refused with a clear error" \
      "status $st" "$LOG"
  fi
fi
if start "$A1" "listen: $A1@$PORT" "$free" "ip-freebind: yes"; then
  ok "ip-freebind: yes: curvecache starts and answers on $A1"
  want="$FREE4:$PORT"
  [ "$HAVE6" = yes ] && want="$want [$FREE6]:$PORT"
  for w in $want; do
    for proto in u t; do
      # one protocol: no Netid column, the local address is the 4th
      if ss -Hln"$proto" | awk '{ print $4 }' | grep -qxF "$w"; then
        ok "ip-freebind: yes: $w bound ($proto)"
      else
        bad "ip-freebind: yes: $w bound ($proto)" "not in ss -ln$proto"
      fi
    done
  done
  stop "ip-freebind"
else
  bad "ip-freebind: yes: curvecache starts" "no answer on $A1" "$LOG"
  [ -n "$CC_PID" ] && stop "ip-freebind"
fi

e2e_finish
