# shellcheck shell=sh disable=SC2154 # srcdir, die, UB_IP...: the caller's
# tests/bench/bench_lib.sh: shared by the side-by-side benchmarks
# (tests/bench/resolvers.sh, tests/bench/selection.sh); sourced, not run.
# The caller defines die() and srcdir first.
#
#   bench_lab_start NAME   # $WORK, the EXIT trap, the lab lock, the lab
#   launch NAME CMD...     # a pinned background process (PID, in PIDS)
#   wait_answer IP         # until $PID answers on IP (10 s)
#   start_cc IP [LINE...]  # curvecache on IP (log-level $CC_LOG_LEVEL,
#                          # default warn; log curvecache-IP.log)
#   start_ub               # Unbound on $UB_IP ($WORK/ub)
#   stop_pid PID           # TERM, 5 s, KILL
#
# Every process started here is recorded in PIDS and stopped by its pid
# in the EXIT trap, with the lab (lab.sh stop). CPUS is the taskset core
# list of launch (default 0: the resolver's core; dnsperf runs on 1).
CPUS=${CPUS:-0}

# stop_pid PID: TERM, up to 5 s, then KILL.
stop_pid() {
  kill -TERM "$1" 2>/dev/null
  n=0
  while kill -0 "$1" 2>/dev/null && [ $n -lt 50 ]; do
    sleep 0.1; n=$((n + 1))
  done
  kill -KILL "$1" 2>/dev/null
  wait "$1" 2>/dev/null
  PIDS=$(echo "$PIDS" | tr ' ' '\n' | grep -vx "$1" | tr '\n' ' ')
}
cleanup() {
  [ -z "${LAB_DIR:-}" ] && [ -n "${labenv:-}" ] && eval "$labenv"
  for p in $PIDS; do stop_pid "$p"; done
  [ -n "$LAB_DIR" ] && LAB_DIR=$LAB_DIR "$srcdir/tests/lab/lab.sh" stop
  if [ "${BENCH_KEEP:-0}" = 1 ]; then echo "# kept $WORK"
  else rm -rf "$WORK"; fi
}

# bench_lab_start NAME: the work directory $WORK (kept with
# BENCH_KEEP=1), the trap, the lab lock on fd 9 and the lab (its LAB_*
# variables set, LAB_DIR exported).
bench_lab_start() {
  WORK=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX") || exit 1
  PIDS=
  LAB_DIR=
  labenv=

  trap cleanup EXIT
  trap 'exit 130' HUP INT TERM

  exec 9>"${TMPDIR:-/tmp}/curvecache-lab.lock"
  flock -w 900 9 || die "lab lock busy"
  labenv=$("$srcdir/tests/lab/lab.sh" start 9>&-) || die "lab start"
  eval "$labenv"
  export LAB_DIR
}

wait_answer() { # IP
  n=0
  while [ $n -lt 100 ]; do
    kill -0 "$PID" 2>/dev/null || return 1
    dig +time=1 +tries=1 "@$1" localhost A >/dev/null 2>&1 && return 0
    sleep 0.1; n=$((n + 1))
  done
  return 1
}
launch() { # NAME CMD...: in the background, pinned, output in NAME.log
  lname=$1; shift
  taskset -c "$CPUS" "$@" </dev/null >"$WORK/$lname.log" 2>&1 9>&- &
  PID=$!
  PIDS="$PIDS $PID"
}
start_cc() { # IP [CONFIG LINE...]
  cip_=$1; shift
  {
    echo "listen: $cip_@53"
    echo "outgoing-interface: $cip_"
    echo "root-hints: $LAB_ROOT_HINTS"
    echo "dnssec: no"
    echo "do-not-query-localhost: no"
    echo "do-ip6: no"
    echo "cache-size: 64m"
    echo "user:"
    echo "control-socket:"
    echo "log-level: ${CC_LOG_LEVEL:-warn}"
    for l in "$@"; do echo "$l"; done
  } >"$WORK/cc-$cip_.conf"
  launch "curvecache-$cip_" "$CURVECACHE" -f -c "$WORK/cc-$cip_.conf"
  wait_answer "$cip_" ||
    { cat "$WORK/curvecache-$cip_.log"; die "curvecache"; }
}
start_ub() {
  mkdir -p "$WORK/ub"
  cat >"$WORK/ub/unbound.conf" <<EOF
server:
	username: ""
	chroot: ""
	directory: "$WORK/ub"
	pidfile: ""
	use-syslog: no
	logfile: "$WORK/ub/unbound.log"
	verbosity: 0
	interface: $UB_IP@53
	outgoing-interface: $UB_IP
	num-threads: 1
	do-ip6: no
	do-not-query-localhost: no
	root-hints: "$LAB_ROOT_HINTS"
	module-config: "iterator"
	msg-cache-size: 32m
	rrset-cache-size: 32m
	access-control: 127.0.0.0/8 allow
remote-control:
	control-enable: no
EOF
  launch unbound unbound -d -c "$WORK/ub/unbound.conf"
  wait_answer "$UB_IP" || { cat "$WORK/ub/unbound.log"; die "unbound"; }
}
