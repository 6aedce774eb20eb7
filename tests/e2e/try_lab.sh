#!/bin/sh
# tests/e2e/try_lab.sh: the "try it without the Internet" script,
# tests/lab/try.sh (README's third command), run as a newcomer would: it
# must start the lab and curvecache, show a boxed resolution, answer the
# dig commands it prints, and stop everything on Enter and on Ctrl-C
# (SIGINT), leaving no process and no port behind.
#
# Run by "make check" (cwd = top build dir, $srcdir = top source dir).
# Exit 0 = every check passed, 1 = a check failed, 77 = SKIP (not root,
# or nsd/curvedns/dig/python3 missing). try.sh takes the lab lock itself (this
# script must not hold it), waiting up to TRY_LOCK_WAIT=300 s here.

set -u
srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
TRY=$srcdir/tests/lab/try.sh
CURVECACHE=${CURVECACHE:-./curvecache}
LADDR=127.0.0.1
LPORT=5399

skip() { echo "SKIP: $*"; exit 77; }
[ "$(id -u)" -eq 0 ] || skip "not root (the lab binds port 53 on 127.53.x.y)"
for t in nsd nsd-checkconf nsd-checkzone curvedns dig flock mkfifo ss \
         python3; do
  command -v "$t" >/dev/null 2>&1 || skip "$t not installed"
done
[ -x "$CURVECACHE" ] || { echo "FAIL: $CURVECACHE not built"; exit 1; }
case $CURVECACHE in /*) ;; *) CURVECACHE=$(pwd)/$CURVECACHE ;; esac
export CURVECACHE

WORK=$(mktemp -d "${TMPDIR:-/tmp}/try_lab.XXXXXX") || exit 1
TRY_PID=
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() {
  fail=$((fail + 1))
  echo "FAIL $1: $2"
  [ -n "${3:-}" ] && [ -f "$3" ] && sed 's/^/     | /' "$3"
  return 0
}
# alive PID: the process exists and is not a zombie (the lab's daemons
# end as children of init, which may reap them late).
# started PID: the process's start time (clock ticks since boot; field 22
# of /proc/PID/stat, counted after the parenthesised command name, which
# may hold spaces), so that a pid the kernel has handed to a new process
# (pid_max is 32768 here and make check forks thousands) is not taken for
# the old one.
started() {
  sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null | awk '{ print $20 }'
}
alive() {
  kill -0 "$1" 2>/dev/null || return 1
  st=$(sed -n 's/^State:[[:space:]]*\([A-Z]\).*/\1/p' "/proc/$1/status" \
       2>/dev/null) || st=
  [ "$st" != Z ]
}
cleanup() {
  if [ -n "$TRY_PID" ] && kill -0 "$TRY_PID" 2>/dev/null; then
    # try.sh stops curvecache and the lab by pid in its own trap.
    kill -TERM "$TRY_PID" 2>/dev/null
    n=0
    while kill -0 "$TRY_PID" 2>/dev/null && [ $n -lt 100 ]; do
      sleep 0.1
      n=$((n + 1))
    done
  fi
  exec 8>&- 2>/dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' HUP INT TERM

# try_dig NAME TYPE WANT: dig +short through try.sh's curvecache gives
# WANT (its last line).
try_dig() {
  got=$(dig +short +time=5 +tries=1 -p "$LPORT" "@$LADDR" "$1" "$2" |
    tail -n 1)
  if [ "$got" = "$3" ]; then ok "$how: dig $1 $2"
  else bad "$how: dig $1 $2" "got '$got', want '$3'"; fi
}

# run_try HOW: one run; HOW is enter (a line on stdin) or int (SIGINT).
run_try() {
  how=$1
  # The last run's output goes first: the child below truncates it only
  # once it runs, and its "Press Enter" must not be taken for this run's.
  rm -f "$WORK/in" "$WORK/out"
  mkfifo "$WORK/in" || exit 1
  # In a process group of its own, with SIGINT back to its default (a
  # background job of a script starts with SIGINT ignored), so that
  # "kill -INT -PGID" is what Ctrl-C in a terminal would do.
  TRY_LOCK_WAIT=300 python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.setpgid(0, 0)
os.execvp(sys.argv[1], sys.argv[1:])' sh "$TRY" <"$WORK/in" >"$WORK/out" 2>&1 &
  TRY_PID=$!
  exec 8>"$WORK/in" # open the writing end: try.sh reads until a line
  n=0
  until grep -q '^Press Enter' "$WORK/out" 2>/dev/null; do
    n=$((n + 1))
    if [ $n -ge 3200 ] || ! kill -0 "$TRY_PID" 2>/dev/null; then
      bad "$how: try.sh comes up" "no prompt" "$WORK/out"
      return
    fi
    sleep 0.1
  done
  ok "$how: try.sh comes up and prints its commands"
  if grep -q 'format=streamlined' "$WORK/out" &&
     grep -q '^    www\.secure\.curve\.[[:space:]].*192\.0\.2\.10$' "$WORK/out"
  then
    ok "$how: it shows www.secure.curve resolved, boxed (format=streamlined)"
  else
    bad "$how: it shows a boxed resolution" "not in its output" "$WORK/out"
  fi
  # The commands it prints work.
  try_dig www.example.lab A 192.0.2.10
  try_dig chain.example.lab A 192.0.2.10
  try_dig www.boxed.lab TXT '"hello world" "say \"hi\" \\ bye"'
  try_dig foo.wild.example.lab A 192.0.2.77
  labdir=$(sed -n 's|^  grep upstream_send \(.*\)/try/curvecache.log$|\1|p' \
    "$WORK/out")
  if [ -z "$labdir" ] || [ ! -d "$labdir" ]; then
    bad "$how: the lab directory is printed" "not found" "$WORK/out"
  fi
  pids=
  for f in "$labdir"/*.pid; do
    p=$(cat "$f" 2>/dev/null) || continue
    pids="$pids $p:$(started "$p")"
  done
  if [ "$how" = enter ]; then
    echo >&8
  else
    kill -s INT -- "-$TRY_PID"
  fi
  exec 8>&-
  n=0
  while kill -0 "$TRY_PID" 2>/dev/null && [ $n -lt 300 ]; do
    sleep 0.1
    n=$((n + 1))
  done
  if kill -0 "$TRY_PID" 2>/dev/null; then
    bad "$how: try.sh stops" "still running after 30 s" "$WORK/out"
    return
  fi
  wait "$TRY_PID"
  rc=$?
  TRY_PID=
  want_rc=0
  [ "$how" = int ] && want_rc=130
  left=
  for e in $pids; do
    p=${e%%:*}
    alive "$p" && [ "$(started "$p")" = "${e#*:}" ] && left="$left $p"
  done
  if [ "$rc" -eq "$want_rc" ] && grep -q '^Stopped curvecache and the lab' \
       "$WORK/out" && [ -z "$left" ] && [ ! -d "$labdir" ] &&
     ! ss -Hlnu | awk '{ print $5 }' | grep -qxF "$LADDR:$LPORT"; then
    ok "$how: everything stopped (exit $rc, no lab process, port free)"
  else
    bad "$how: everything stopped" \
      "exit $rc (want $want_rc), lab processes left:${left:- none}" \
      "$WORK/out"
  fi
}

run_try enter
run_try int
echo "# $pass passed, $fail failed"
[ "$fail" -eq 0 ]
