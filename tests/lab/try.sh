#!/bin/sh
# tests/lab/try.sh: try curvecache without the Internet. Starts the
# loopback lab (tests/lab/lab.sh: a root, the TLDs lab. and curve., zones
# on NSD, DNSCurve zones behind CurveDNS) and a curvecache that uses the
# lab root as its root, shows one DNSCurve resolution, prints dig commands
# to try, waits for Enter or Ctrl-C, then stops everything by pid.
#
# Usage (as root, from the build directory or the top of the tree):
#   sh tests/lab/try.sh            (or sh ../tests/lab/try.sh from _build)
#
# Environment:
#   CURVECACHE   the daemon (default: ./curvecache, else ./_build/curvecache,
#                else curvecache in PATH)
#   TRY_LISTEN   where curvecache answers (default 127.0.0.1@5399)
#   TRY_LOCK_WAIT  seconds to wait for the lab lock (default 10)
#
# Nothing is sent anywhere but 127.0.0.0/8; nothing outside the lab's
# temporary directory is written. It takes the lab lock (one lab per
# machine; "make check" takes it too) and gives up after TRY_LOCK_WAIT s.
# tests/e2e/try_lab.sh runs it (Enter and Ctrl-C) in "make check".
# Exit status: 0 after a clean stop, 1 if something could not start.

# shellcheck disable=SC2317 # stop_all runs from the traps
set -u

here=$(cd "$(dirname "$0")" && pwd) || exit 1
LAB=$here/lab.sh
LISTEN=${TRY_LISTEN:-127.0.0.1@5399}
LADDR=${LISTEN%@*}
LPORT=${LISTEN##*@}

say() { printf '%s\n' "$*"; }
die() { say "try.sh: $*" >&2; exit 1; }

[ "$(id -u)" -eq 0 ] ||
  die "run as root: the lab binds port 53 on 127.53.x.y (loopback only)"
for t in nsd curvedns dig flock; do
  command -v "$t" >/dev/null 2>&1 ||
    die "$t is not installed (run: sh etc/setup.sh)"
done

CC=${CURVECACHE:-}
if [ -z "$CC" ]; then
  for c in ./curvecache ./_build/curvecache "$here/../../_build/curvecache"; do
    [ -x "$c" ] && { CC=$c; break; }
  done
fi
[ -z "$CC" ] && CC=$(command -v curvecache 2>/dev/null)
if [ -z "$CC" ] || [ ! -x "$CC" ]; then
  die "no curvecache binary: build it first (make), or set CURVECACHE"
fi
CC=$(cd "$(dirname "$CC")" && pwd)/$(basename "$CC")
CTL=$(dirname "$CC")/curvecache-control
[ -x "$CTL" ] || CTL=

if command -v ss >/dev/null 2>&1 &&
   ss -Hlnu 2>/dev/null | awk '{print $5}' | grep -qxF "$LADDR:$LPORT"; then
  die "$LADDR port $LPORT is in use; set TRY_LISTEN=ADDR@PORT"
fi

CC_PID=
LAB_DIR=
labenv=
stop_all() {
  trap - EXIT INT TERM HUP
  [ -z "${LAB_DIR:-}" ] && [ -n "${labenv:-}" ] && eval "$labenv"
  if [ -n "$CC_PID" ] && kill -0 "$CC_PID" 2>/dev/null; then
    kill -TERM "$CC_PID"
    n=0
    while kill -0 "$CC_PID" 2>/dev/null && [ "$n" -lt 50 ]; do
      sleep 0.1
      n=$((n + 1))
    done
    kill -0 "$CC_PID" 2>/dev/null && kill -KILL "$CC_PID"
    wait "$CC_PID" 2>/dev/null
  fi
  if [ -n "${LAB_DIR:-}" ]; then
    LAB_DIR=$LAB_DIR "$LAB" stop && say "Stopped curvecache and the lab."
  fi
}
trap stop_all EXIT
trap 'exit 130' INT TERM HUP

exec 9>"${TMPDIR:-/tmp}/curvecache-lab.lock"
flock -w "${TRY_LOCK_WAIT:-10}" 9 ||
  die "another lab is running (make check?); try again when it is done"

say "Starting the lab (NSD and CurveDNS on 127.53.x.y) ..."
unset LAB_DIR
labenv=$("$LAB" start 2>"${TMPDIR:-/tmp}/try-lab-start.$$") || {
  labenv=
  cat "${TMPDIR:-/tmp}/try-lab-start.$$" >&2
  rm -f "${TMPDIR:-/tmp}/try-lab-start.$$"
  die "the lab did not start"
}
rm -f "${TMPDIR:-/tmp}/try-lab-start.$$"
eval "$labenv"
DIR=$LAB_DIR/try
mkdir -p "$DIR" || exit 1
CONF=$DIR/curvecache.conf
LOG=$DIR/curvecache.log
cat >"$CONF" <<EOF
# curvecache with the loopback lab as its Internet (tests/lab/try.sh)
listen: $LISTEN
root-hints: $LAB_ROOT_HINTS
# the lab's root is unsigned: no trust anchor holds for it
dnssec: no
do-not-query-localhost: no
do-ip6: no
user:
control-socket: $DIR/control
log-level: debug
EOF
"$CC" -f -c "$CONF" </dev/null >"$LOG" 2>&1 9>&- &
CC_PID=$!
n=0
until dig +time=1 +tries=1 -p "$LPORT" "@$LADDR" localhost A 2>/dev/null |
      grep -q 'status: NOERROR'; do
  n=$((n + 1))
  if [ $n -ge 50 ] || ! kill -0 "$CC_PID" 2>/dev/null; then
    tail -n 20 "$LOG" >&2
    die "curvecache did not start (log: $LOG)"
  fi
  sleep 0.1
done

D="dig @$LADDR -p $LPORT"
say ""
say "curvecache (pid $CC_PID) answers on $LADDR port $LPORT; its root is the"
say "lab root 127.53.0.1. The TLD curve. and its zone secure.curve. are served"
say "by CurveDNS (keys in their NS names), so that whole chain is DNSCurve."
say ""
say "One resolution, to show it:  $D www.secure.curve"
$D +noall +answer www.secure.curve 2>&1 | sed 's/^/    /'
say "and what curvecache sent upstream for it (format=streamlined: boxed):"
grep 'event=upstream_send' "$LOG" | sed 's/^.*event=upstream_send /    /'
say ""
say "Try (in another terminal):"
say "  $D www.example.lab          plain DNS: . -> lab. -> example.lab."
say "  $D chain.example.lab        CNAMEs from plain zones into DNSCurve ones"
say "  $D www.boxed.lab TXT        a DNSCurve zone under the plain TLD lab."
say "  $D bigtxt.secure.curve TXT  3000 bytes: TC inside the box, boxed TCP"
say "  $D foo.wild.example.lab     a wildcard"
say "  $D nosuch.example.lab       NXDOMAIN, with the SOA"
say "  $D www.broken.lab           SERVFAIL (its only server is lame)"
say "  $D +tcp www.other.lab       over TCP; other.lab. has no glue"
say ""
say "See that the DNSCurve queries went out boxed:"
say "  grep upstream_send $LOG"
say "      format=streamlined (or txt) for the CurveDNS addresses 127.53.2.1,"
say "      127.53.2.3 and 127.53.0.5; format=plain for the others"
say "  grep 'done encryption' $LAB_DIR/curvedns-secure.log"
say "      CurveDNS boxed each reply (the NSD behind it, 127.53.2.4, is never"
say "      asked by curvecache: only CurveDNS forwards to it)"
if [ -n "$CTL" ]; then
  say "  $CTL -s $DIR/control stats_noreset | grep curve"
  say "  $CTL -s $DIR/control servers"
fi
say ""
say "Press Enter (or Ctrl-C) to stop curvecache and the lab."
read -r _ || true
exit 0
