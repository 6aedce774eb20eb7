#!/bin/sh
# tests/e2e/cli_lab.sh: the daemon's command line and the config options
# that concern running it (issue 13 item 7). No lab is needed: curvecache
# listens on 127.53.113.1 port 5313 (used by no other test) and is asked
# only for local names; its root hints are a copy of the lab's file,
# never used.
#
# Checks:
# - -V prints curvecache's version and those of libsodium, c-ares and
#   libuv as run (each line "NAME X.Y.Z (built with X.Y.Z)"), exit 0;
# - -h prints the usage (with -t and -V) on stdout, exit 0; an unknown
#   option prints it on stderr, exit 2;
# - -t: a good config (with an include glob) prints one OK line, exit 0;
#   an error inside an included file prints that file's FILE:LINE,
#   exit 1; an include loop is refused with FILE:LINE; a missing
#   local-data-file is named; nothing listens after any -t;
# - a local-data-file of mode 0600 owned by root, with user: nobody:
#   the start is refused (exit 1) naming the file and the user (before:
#   it started and only the first reload failed); -t says the same;
# - pidfile: in the foreground and detached, the file holds the pid of
#   the process that answers; TERM removes it (exit 0);
# - a reload that changes threads logs reload_partial naming threads
#   only; one that changes listen names listen only; one that changes
#   neither logs no reload_partial;
# - trust anchors (issue 15): a broken trust-anchor-file refuses the
#   start (exit 1, its FILE:LINE in the message) and -t; so does a broken
#   trust-anchor line (the config's FILE:LINE); the start logs
#   event=trust_anchors with its source; a reload with a broken file
#   fails and keeps the old config, one with a good file and a
#   domain-insecure line logs source=options insecure=1.
#
# Exit 0 = every check passed, 1 = a check failed, 77 = SKIP (not root,
# or dig missing).
set -u
srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=tests/e2e/e2e_lib.sh
. "$srcdir/tests/e2e/e2e_lib.sh"
[ "$(id -u)" -eq 0 ] || e2e_skip "not root (user: nobody needs root)"
command -v dig >/dev/null 2>&1 || e2e_skip "dig not installed"
CURVECACHE=${CURVECACHE:-./curvecache}
[ -x "$CURVECACHE" ] || { echo "FAIL: $CURVECACHE not built"; exit 1; }
id nobody >/dev/null 2>&1 || { echo "FAIL: no user nobody"; exit 1; }
WORK=$(mktemp -d "${TMPDIR:-/tmp}/cli_lab.XXXXXX") || exit 1
trap e2e_cleanup EXIT
trap 'exit 130' HUP INT TERM
# shellcheck disable=SC2034 # read by elapsed (e2e_lib.sh)
e2e_t0=$(date +%s)
# nobody must reach the files: the work directory is world-searchable
chmod 755 "$WORK"

IP=127.53.113.1
PORT=5313
CONF=$WORK/curvecache.conf
LOG=$WORK/curvecache.log
HOSTS=$WORK/hosts
# a copy nobody can reach (the source tree may be in a private home);
# absolute: the detached daemon works from "/"
HINTS=$WORK/root.hints
cp "$srcdir/tests/lab/root.hints" "$HINTS" && chmod 644 "$HINTS"
printf '10.113.0.1 box.cli.lab\n' >"$HOSTS"
chmod 644 "$HOSTS"
mkdir "$WORK/run" "$WORK/conf.d"
chown nobody "$WORK/run"

# conf [LINE...]: the base config (listen, hints, user nobody, local
# data) and LINEs, in $CONF.
conf() {
  {
    echo "listen: $IP@${LPORT:-$PORT}"
    echo "root-hints: $HINTS"
    echo "user: nobody"
    echo "control-socket:"
    echo "log-level: debug"
    echo "local-data-file: $HOSTS"
    for line in "$@"; do echo "$line"; done
  } >"$CONF"
  chmod 644 "$CONF"
}

# answers: box.cli.lab is answered from the local data.
answers() {
  dig +time=1 +tries=1 -p "$PORT" "@$IP" box.cli.lab A 2>/dev/null |
    grep -q '^box\.cli\.lab\..*10\.113\.0\.1'
}

# listening: something is bound to $IP:$PORT.
listening() {
  ss -Hlnu 2>/dev/null | awk '{print $4}' | grep -qx "$IP:$PORT"
}

# start_fg: curvecache -f in the background; wait until it answers.
start_fg() {
  "$CURVECACHE" -f -c "$CONF" </dev/null >>"$LOG" 2>&1 &
  CC_PID=$!
  n=0
  while [ $n -lt 50 ] && e2e_alive "$CC_PID"; do
    answers && return 0
    sleep 0.1
    n=$((n + 1))
  done
  bad "curvecache start" "no answer on $IP:$PORT" "$LOG"
  return 1
}

# t_fails NAME PATTERN: -t exits 1, its output matches PATTERN, and
# nothing listens (a check).
t_fails() {
  "$CURVECACHE" -t -c "$CONF" >"$WORK/t.out" 2>&1
  rc=$?
  if [ $rc -eq 1 ] && grep -q "$2" "$WORK/t.out" && ! listening; then
    ok "$1"
  else
    bad "$1" "exit $rc" "$WORK/t.out"
  fi
}

# hup: SIGHUP; wait (3 s) for one more "event=reload " line.
hup() {
  hb=$(grep -c 'event=reload ' "$LOG")
  kill -HUP "$CC_PID"
  n=0
  while [ "$(grep -c 'event=reload ' "$LOG")" -le "$hb" ] && [ $n -lt 30 ]
  do sleep 0.1; n=$((n + 1)); done
}

# ---- -V, -h, a bad option
"$CURVECACHE" -V >"$WORK/v.out" 2>&1
rc=$?
vers='[0-9][0-9]*\.[0-9][0-9]*\.[0-9][0-9]*'
if [ $rc -eq 0 ] && grep -q "^curvecache $vers" "$WORK/v.out" &&
   grep -q "^libsodium $vers (built with $vers)$" "$WORK/v.out" &&
   grep -q "^c-ares $vers (built with $vers)$" "$WORK/v.out" &&
   grep -q "^libuv $vers (built with $vers)$" "$WORK/v.out"; then
  ok "-V: version, libsodium, c-ares, libuv ($(tr '\n' ' ' <"$WORK/v.out"))"
else
  bad "-V" "exit $rc" "$WORK/v.out"
fi
"$CURVECACHE" -h >"$WORK/h.out" 2>"$WORK/h.err"
rc=$?
if [ $rc -eq 0 ] && [ ! -s "$WORK/h.err" ] &&
   grep -q '^usage: curvecache' "$WORK/h.out" &&
   grep -q '^  -t ' "$WORK/h.out" && grep -q '^  -V ' "$WORK/h.out"; then
  ok "-h: usage with -t and -V on stdout, exit 0"
else
  bad "-h" "exit $rc" "$WORK/h.out"
fi
"$CURVECACHE" -Z >"$WORK/z.out" 2>"$WORK/z.err"
rc=$?
if [ $rc -eq 2 ] && [ ! -s "$WORK/z.out" ] &&
   grep -q '^usage: curvecache' "$WORK/z.err"; then
  ok "unknown option: usage on stderr, exit 2"
else
  bad "unknown option" "exit $rc" "$WORK/z.err"
fi

# ---- -t
printf 'threads: 1\n' >"$WORK/conf.d/10-a.conf"
printf '# b\nlog-queries: no\n' >"$WORK/conf.d/20-b.conf"
chmod 644 "$WORK/conf.d/"*
conf "include: conf.d/*.conf"
"$CURVECACHE" -t -c "$CONF" >"$WORK/t.out" 2>&1
rc=$?
if [ $rc -eq 0 ] && [ "$(wc -l <"$WORK/t.out")" -eq 1 ] &&
   grep -q "^curvecache: configuration $CONF is OK$" "$WORK/t.out" &&
   ! listening; then
  ok "-t, good config with an include glob: one OK line, exit 0"
else
  bad "-t on a good config" "exit $rc" "$WORK/t.out"
fi
printf '# b\nlog-queries: maybe\n' >"$WORK/conf.d/20-b.conf"
t_fails "-t, error in an included file: that FILE:LINE, exit 1" \
  "^$WORK/conf.d/20-b.conf:2: expected yes or no"
printf 'include: ../curvecache.conf\n' >"$WORK/conf.d/20-b.conf"
t_fails "-t, include loop: refused with FILE:LINE, exit 1" \
  "^$WORK/conf.d/20-b.conf:1: include .*: include loop"
rm -f "$WORK/conf.d/20-b.conf"
conf "include: conf.d/*.conf" "block-file: $WORK/no-such-file"
t_fails "-t, missing block-file: named, exit 1" "$WORK/no-such-file"

# ---- trust anchors: a broken trust-anchor-file or trust-anchor line
# refuses the start (exit 1) and -t, naming FILE:LINE
printf '; root\n. IN DNSKEY 257 4 8 AwEAAQ==\n' >"$WORK/bad.key"
chmod 644 "$WORK/bad.key"
conf "trust-anchor-file: \"$WORK/bad.key\""
"$CURVECACHE" -f -c "$CONF" </dev/null >"$WORK/ta.out" 2>&1 &
CC_PID=$!
n=0
while e2e_alive "$CC_PID" && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
if e2e_alive "$CC_PID"; then
  bad "broken trust-anchor-file: start refused" "it runs" "$WORK/ta.out"
  e2e_kill "$CC_PID"
else
  wait "$CC_PID"
  rc=$?
  if [ $rc -eq 1 ] && ! listening &&
     grep -q "$WORK/bad.key:2: DNSKEY protocol 4, not 3" "$WORK/ta.out"
  then
    ok "broken trust-anchor-file: start refused (exit 1) naming FILE:LINE"
  else
    bad "broken trust-anchor-file: refused naming FILE:LINE" "exit $rc" "$WORK/ta.out"
  fi
fi
CC_PID=
t_fails "-t, broken trust-anchor-file: the option's and the file's FILE:LINE, exit 1" \
  "^$CONF:7: trust-anchor-file $WORK/bad.key:2: DNSKEY protocol 4, not 3"
conf 'trust-anchor: ". DS 20326 8 2 E06D"'
t_fails "-t, broken trust-anchor line: its FILE:LINE, exit 1" \
  "^$CONF:7: trust-anchor \". DS 20326 8 2 E06D\": DS digest type 2 wants 32 bytes"

# ---- a reloaded file the run user cannot read: refused at start
conf
chmod 600 "$HOSTS"
"$CURVECACHE" -f -c "$CONF" </dev/null >"$WORK/u.out" 2>&1 &
CC_PID=$!
n=0
while e2e_alive "$CC_PID" && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
if e2e_alive "$CC_PID"; then
  bad "local-data-file 0600 root, user nobody: start refused" "it runs" \
    "$WORK/u.out"
  e2e_kill "$CC_PID"
else
  wait "$CC_PID"
  rc=$?
  if [ $rc -eq 1 ] && grep -q "local-data-file $HOSTS: cannot be read by user nobody" "$WORK/u.out"
  then
    ok "local-data-file 0600 root, user nobody: start refused, file and user named"
  else
    bad "local-data-file unreadable: refused naming it" "exit $rc" "$WORK/u.out"
  fi
fi
CC_PID=
t_fails "-t as root: the same file named, exit 1" \
  "$HOSTS: cannot be read by user nobody"
chmod 644 "$HOSTS"

# ---- pidfile, in the foreground
PIDF=$WORK/run/curvecache.pid
conf "pidfile: $PIDF"
if start_fg; then
  if [ "$(cat "$PIDF" 2>/dev/null)" = "$CC_PID" ]; then
    ok "pidfile holds the daemon's pid ($CC_PID)"
  else
    bad "pidfile holds the pid" "'$(cat "$PIDF" 2>&1)', want $CC_PID"
  fi
  e2e_kill "$CC_PID"
  rc=$?
  CC_PID=
  if [ $rc -eq 0 ] && [ ! -e "$PIDF" ]; then
    ok "TERM: exit 0, pidfile removed"
  else
    bad "pidfile removed at stop" "exit $rc, $(ls -l "$PIDF" 2>&1)" "$LOG"
  fi
fi

# ---- pidfile, detached: the pid of the daemon, not of its parent
"$CURVECACHE" -c "$CONF" </dev/null >"$WORK/d.out" 2>&1
rc=$?
dpid=$(cat "$PIDF" 2>/dev/null)
if [ $rc -eq 0 ] && [ -n "$dpid" ] && e2e_alive "$dpid" && answers &&
   [ "$(readlink "/proc/$dpid/exe")" = "$(readlink -f "$CURVECACHE")" ]; then
  ok "detached: the parent exits 0, the pidfile names the daemon ($dpid)"
  kill -TERM "$dpid"
  n=0
  while e2e_alive "$dpid" && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
  if ! e2e_alive "$dpid" && [ ! -e "$PIDF" ]; then
    ok "detached: TERM stops it, pidfile removed"
  else
    bad "detached: stop" "pid $dpid alive or $PIDF left"
    kill -KILL "$dpid" 2>/dev/null
  fi
else
  bad "detached with a pidfile" "exit $rc, pidfile '$dpid'" "$WORK/d.out"
  [ -n "$dpid" ] && kill -KILL "$dpid" 2>/dev/null
fi

# ---- a reload names the restart-only options that changed, only those
conf
if start_fg; then
  # the start says which trust anchors are used (none named: Debian's
  # root.key where dns-root-data is installed, else the built-in KSKs)
  if [ -r /usr/share/dns/root.key ]; then src=file:/usr/share/dns/root.key
  else src=builtin; fi
  if grep -q "event=trust_anchors source=$src zones=1 insecure=0" "$LOG"; then
    ok "start: event=trust_anchors source=$src zones=1"
  else
    bad "start names its trust anchors ($src)" "no line" "$LOG"
  fi
  # a reload with a broken trust-anchor-file keeps the running config
  conf "trust-anchor-file: $WORK/bad.key"
  kill -HUP "$CC_PID"
  n=0
  until grep -q "event=reload_failed .*bad.key:2: DNSKEY protocol 4" "$LOG" ||
    [ $n -ge 30 ]; do sleep 0.1; n=$((n + 1)); done
  if grep -q "event=reload_failed .*bad.key:2: DNSKEY protocol 4.* kept=old" "$LOG" &&
     answers; then
    ok "reload, broken trust-anchor-file: reload_failed FILE:LINE, old kept"
  else
    bad "reload with a broken trust-anchor-file" "no reload_failed" "$LOG"
  fi
  # a good one with a negative anchor is taken
  printf '. IN DS 20326 8 2 E06D44B80B8F1D39A95C0B0D7C65D08458E880409BBC683457104237C7F8EC8D\n' >"$WORK/bad.key"
  conf "trust-anchor-file: $WORK/bad.key" "domain-insecure: corp.example"
  hup
  if grep -q "event=trust_anchors source=options zones=1 insecure=1" "$LOG"; then
    ok "reload: the new trust anchors are used (source=options insecure=1)"
  else
    bad "reload takes the new trust anchors" "no line" "$LOG"
  fi
  partial() { grep -c 'event=reload_partial ' "$LOG"; }
  p0=$(partial)
  conf "threads: 2"
  hup
  line=$(grep 'event=reload_partial ' "$LOG" | tail -n 1)
  case $line in
    *" restart_needed=threads kept=running") ok "reload, threads changed: names threads only" ;;
    *) bad "reload names threads only" "'$line'" "$LOG" ;;
  esac
  # the running values are compared with: threads back to 1
  LPORT=$((PORT + 1)) conf
  hup
  line=$(grep 'event=reload_partial ' "$LOG" | tail -n 1)
  case $line in
    *" restart_needed=listen kept=running") ok "reload, listen changed: names listen only" ;;
    *) bad "reload names listen only" "'$line'" "$LOG" ;;
  esac
  p1=$(partial)
  conf
  printf '10.113.0.2 box.cli.lab\n' >"$HOSTS"
  hup
  if [ "$(partial)" -eq "$p1" ] && [ "$p1" -eq $((p0 + 2)) ] &&
     dig +time=1 +tries=1 -p "$PORT" "@$IP" box.cli.lab A 2>/dev/null |
       grep -q '10\.113\.0\.2'; then
    ok "reload with no restart-only change: no reload_partial, new data"
  else
    bad "reload without restart-only changes" "reload_partial $p0 -> $p1 -> $(partial)" "$LOG"
  fi
  e2e_kill "$CC_PID"
  CC_PID=
fi

e2e_finish
