#!/bin/sh
# tests/lab/lab.sh: the loopback test lab of curvecache.
#
# Usage:  tests/lab/lab.sh start|stop|status|env
#
#   out=$(tests/lab/lab.sh start) || exit 1   # starts every server
#   eval "$out"                                # sets LAB_DIR and LAB_* below
#   ... tests ...
#   tests/lab/lab.sh stop                      # needs LAB_DIR (exported)
#
# (Do not write `eval "$(lab.sh start)"`: eval hides a failed start.)
#
# Real authoritative servers on loopback addresses of their own, port 53
# (root is needed to bind port 53 and for CurveDNS; `start` refuses
# otherwise). Nothing is written outside $LAB_DIR and nothing in /etc is read
# or changed; each server is started under our control and stopped by the pid
# recorded in $LAB_DIR/*.pid (TERM, a few seconds, then KILL), never by name.
#
# Layout (IPv4 only, UDP and TCP on port 53):
#
#   127.53.0.1  NSD, zone "."           the lab root (NS a.root.lab.,
#                                       a.root.lab. A 127.53.0.1);
#                                       delegates test. to ns1.test.
#   127.53.0.2  NSD, zone "test."       NS ns1.test. (A 127.53.0.2);
#                                       delegates plain.test. (NS
#                                       ns1.plain.test., glue 127.53.0.3) and
#                                       curve.test. (NS KEYNS, glue 127.53.0.5)
#   127.53.0.3  NSD, zone "plain.test." plain DNS only
#   127.53.0.4  NSD, zone "curve.test." the back end behind CurveDNS
#   127.53.0.5  CurveDNS -> 127.53.0.4  the published server of curve.test.:
#                                       streamlined and TXT DNSCurve queries
#                                       are answered boxed; anything else is
#                                       forwarded as plain DNS, unprotected
#
#   KEYNS = uz5jwc7p039nvnbsd1y6wkqzqp5mrt7psuj024538xmqd280z0ynh2.ns1.curve.test.
#
# Each NSD serves only its own zone, so a resolver that starts from the lab
# root hints (tests/lab/root.hints, copied to $LAB_DIR/root.hints) really
# walks . -> test. -> plain.test. / curve.test. through referrals.
#
# Keys (TEST keys only, from /work/shared/docs/dnscurve-vectors.md):
#   CurveDNS secret key  54513cc5055949401fc46dfe2c666cbcf4fcf43a1dac120944c12b0e8d09fa07
#   its public key       90af53c14874538559f08647fb6d2df3e653b186409032509f9609043ef0f409
#                        = uz5jwc7p039nvnbsd1y6wkqzqp5mrt7psuj024538xmqd280z0ynh2
#   a second key that no server holds (for "wrong key" tests):
#                        uz5ff8w2prur0vr7yut61ykyhdlg730frvc1tz8f5sdqz1tj6yjzy1
#
# Zone data: tests/lab/zones/*.zone; the two leaf zones share
# tests/lab/zones/leaf.inc, whose header lists the records (www A/AAAA/TXT,
# MX, mail, alias CNAME, many = 20 A + 20 AAAA, bigtxt ~3000 bytes, SRV, and
# the NXDOMAIN / NODATA names). Note: the 20 A records of many.<zone> make
# a ~390-byte answer, which fits in 512 bytes; the 20 AAAA records (~590
# bytes) are the ones truncated (TC) without EDNS.
#
# `env` prints `export NAME='value'` lines (also printed by `start`):
#   LAB_DIR               state: configs, zone copies, *.pid, *.log
#   LAB_ROOT_HINTS        $LAB_DIR/root.hints
#   LAB_ROOT_IP LAB_TEST_IP LAB_PLAIN_IP LAB_CURVE_BACKEND_IP LAB_CURVE_IP
#   LAB_CURVE_KEY         uz5jwc7p... (the uz5 label of the CurveDNS key)
#   LAB_CURVE_NS          KEYNS (with the final dot)
#   LAB_CURVE_PUBKEY      the public key in hex
#   LAB_WRONG_KEY         uz5ff8w2... (a key no server holds)
#
# Logs: $LAB_DIR/nsd-NAME.log (NAME = root, test, plain, curveback) and
# $LAB_DIR/curvedns.log (CURVEDNS_DEBUG=4: several lines per packet that
# tests may count, e.g. "event_udp_ext_cb(): received UDP query",
# "event_tcp_accept_cb(): received TCP DNS request",
# "dnscurve_reply_streamlined_query(): done encryption",
# "dnscurve_reply_txt_query(): done encryption",
# "unable to open cryptobox", "sending DNS response in regular format").
#
# LAB_DIR: taken from the environment; when unset, `start` makes a fresh
# one with mktemp -d, and `stop` removes a directory that `start` made
# (unless LAB_KEEP=1). `start` waits up to LAB_START_TIMEOUT seconds
# (default 10) for every server to answer. Exit status: 0 = done,
# 1 = failure (message on stderr). Requires nsd, nsd-checkconf,
# nsd-checkzone, curvedns and dig.
#
# One lab per machine at a time (fixed addresses): a test that starts it
# should first take the lock "flock -w 300 9" on fd 9 opened on
# ${TMPDIR:-/tmp}/curvecache-lab.lock, as tests/e2e/curve_lab.sh does, so
# parallel "make check" runs in several build trees wait for each other.

set -u

LAB_ROOT_IP=127.53.0.1
LAB_TEST_IP=127.53.0.2
LAB_PLAIN_IP=127.53.0.3
LAB_CURVE_BACKEND_IP=127.53.0.4
LAB_CURVE_IP=127.53.0.5
LAB_CURVE_KEY=uz5jwc7p039nvnbsd1y6wkqzqp5mrt7psuj024538xmqd280z0ynh2
LAB_CURVE_NS=$LAB_CURVE_KEY.ns1.curve.test.
LAB_CURVE_PUBKEY=90af53c14874538559f08647fb6d2df3e653b186409032509f9609043ef0f409
LAB_CURVE_SECRET=54513cc5055949401fc46dfe2c666cbcf4fcf43a1dac120944c12b0e8d09fa07
LAB_WRONG_KEY=uz5ff8w2prur0vr7yut61ykyhdlg730frvc1tz8f5sdqz1tj6yjzy1

# The NSD instances: name, address, zone, zone file.
NSD_SERVERS="root:$LAB_ROOT_IP:.:root.zone
test:$LAB_TEST_IP:test.:test.zone
plain:$LAB_PLAIN_IP:plain.test.:plain.test.zone
curveback:$LAB_CURVE_BACKEND_IP:curve.test.:curve.test.zone"

# How long `start` waits for every server to answer (seconds; override
# with LAB_START_TIMEOUT), and `stop` for each process to go after TERM
# (tenths of a second).
START_WAIT_SECS=${LAB_START_TIMEOUT:-10}
STOP_WAIT_TENTHS=50

LAB_SRCDIR=$(cd "$(dirname "$0")" && pwd) || exit 1
CREATED_MARK=.created-by-lab-start

say() { printf 'lab: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }

need_tools() {
  for t in nsd nsd-checkconf nsd-checkzone curvedns dig; do
    command -v "$t" >/dev/null 2>&1 || die "'$t' not found in PATH"
  done
}

need_lab_dir() {
  [ -n "${LAB_DIR:-}" ] || die "LAB_DIR is not set (use the output of 'start')"
  [ -d "$LAB_DIR" ] || die "LAB_DIR=$LAB_DIR is not a directory"
}

# alive PID: the process exists and is not a zombie.
alive() {
  kill -0 "$1" 2>/dev/null || return 1
  st=$(sed -n 's/^State:[[:space:]]*\([A-Z]\).*/\1/p' "/proc/$1/status" \
       2>/dev/null) || st=
  [ "$st" != Z ]
}

# descendants PID: the pids of every process below PID (via /proc).
descendants() {
  # shellcheck disable=SC2013 # the file is a list of pids
  for kid in $(cat /proc/"$1"/task/*/children 2>/dev/null); do
    echo "$kid"
    descendants "$kid"
  done
}

# stop_pidfile FILE: stop the process whose pid FILE holds, and its
# children; remove FILE. Returns 1 if something survived KILL.
stop_pidfile() {
  pf=$1
  [ -f "$pf" ] || return 0
  pid=$(cat "$pf")
  case $pid in ''|*[!0-9]*) say "bad pid file $pf"; rm -f "$pf"; return 1;; esac
  if ! alive "$pid"; then rm -f "$pf"; return 0; fi
  pids="$pid $(descendants "$pid")"
  # shellcheck disable=SC2086 # lists of pids
  kill -TERM $pids 2>/dev/null
  n=0
  while [ $n -lt $STOP_WAIT_TENTHS ]; do
    left=
    for p in $pids; do alive "$p" && left="$left $p"; done
    [ -z "$left" ] && break
    sleep 0.1
    n=$((n + 1))
  done
  if [ -n "$left" ]; then
    say "$pf: still running after TERM:$left; sending KILL"
    # shellcheck disable=SC2086
    kill -KILL $left 2>/dev/null
    sleep 0.2
    for p in $left; do
      alive "$p" && { say "pid $p survived KILL"; return 1; }
    done
  fi
  rm -f "$pf"
  return 0
}

do_stop() {
  need_lab_dir
  rc=0
  stop_pidfile "$LAB_DIR/curvedns.pid" || rc=1
  for pf in "$LAB_DIR"/nsd-*.pid; do
    [ -e "$pf" ] || continue
    stop_pidfile "$pf" || rc=1
  done
  if [ $rc -eq 0 ] && [ -f "$LAB_DIR/$CREATED_MARK" ] &&
     [ "${LAB_KEEP:-0}" != 1 ]; then
    rm -rf "$LAB_DIR"
  fi
  return $rc
}

# listening_on IP: something listens on IP:53 (or a wildcard :53).
listening_on() {
  command -v ss >/dev/null 2>&1 || return 1
  ss -Hlnut 2>/dev/null | awk '{print $5}' |
    grep -qxE "($(printf '%s' "$1" | sed 's/\./\\./g')|0\.0\.0\.0|\*|\[::\]):53"
}

# answers IP ZONE: IP gives an authoritative NOERROR answer to ZONE SOA.
answers() {
  out=$(dig +time=1 +tries=1 +norec +noall +comments "@$1" "$2" SOA 2>&1) ||
    return 1
  case $out in *"status: NOERROR"*) ;; *) return 1;; esac
  printf '%s\n' "$out" | grep -q '^;; flags:[^;]* aa[ ;]'
}

write_nsd_conf() { # NAME IP ZONE FILE
  cat > "$LAB_DIR/nsd-$1.conf" <<EOF
# NSD for the curvecache lab: $3 on $2 (written by tests/lab/lab.sh)
server:
	ip-address: $2
	port: 53
	do-ip4: yes
	do-ip6: no
	reuseport: no
	server-count: 1
	username: ""
	chroot: ""
	zonesdir: "$LAB_DIR"
	database: ""
	zonelistfile: "$LAB_DIR/nsd-$1.zone.list"
	xfrdfile: "$LAB_DIR/nsd-$1.xfrd.state"
	xfrdir: "$LAB_DIR/xfr-$1"
	cookie-secret-file: "$LAB_DIR/nsd-$1.cookiesecrets"
	pidfile: ""
	logfile: "$LAB_DIR/nsd-$1.log"
	verbosity: 1
	hide-version: yes
	hide-identity: yes
remote-control:
	control-enable: no
zone:
	name: "$3"
	zonefile: "$4"
EOF
}

# prepare_nsd NAME IP ZONE FILE: config and zone checks (fail loudly).
prepare_nsd() {
  write_nsd_conf "$@"
  mkdir -p "$LAB_DIR/xfr-$1" || return 1
  nsd-checkconf "$LAB_DIR/nsd-$1.conf" >&2 ||
    { say "nsd-checkconf failed for $LAB_DIR/nsd-$1.conf"; return 1; }
  (cd "$LAB_DIR" && nsd-checkzone "$3" "$4") >&2 ||
    { say "nsd-checkzone failed for $3 ($4)"; return 1; }
}

# spawn NAME CMD...: run CMD in the background, its output in
# $LAB_DIR/NAME.out, its pid in $LAB_DIR/NAME.pid. Inherited descriptors
# 3-9 are closed so no caller's pipe or lock is held by a daemon.
spawn() {
  name=$1; shift
  "$@" </dev/null >"$LAB_DIR/$name.out" 2>&1 \
    3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&- &
  echo $! > "$LAB_DIR/$name.pid"
}

start_servers() {
  for entry in $NSD_SERVERS; do
    IFS=: read -r name ip zone file <<EOF
$entry
EOF
    prepare_nsd "$name" "$ip" "$zone" "$file" || return 1
  done
  for entry in $NSD_SERVERS; do
    name=${entry%%:*}
    spawn "nsd-$name" nsd -d -c "$LAB_DIR/nsd-$name.conf"
  done
  mkdir -p "$LAB_DIR/curvedns-root" || return 1
  # CurveDNS needs UID and GID (it drops root after binding) and chroots
  # into ROOT; env(1) because UID is read-only in bash.
  spawn curvedns env CURVEDNS_PRIVATE_KEY="$LAB_CURVE_SECRET" \
    UID="$(id -u nobody)" GID="$(id -g nobody)" \
    ROOT="$LAB_DIR/curvedns-root" CURVEDNS_DEBUG=4 \
    curvedns "$LAB_CURVE_IP" 53 "$LAB_CURVE_BACKEND_IP" 53
  # CurveDNS writes its log to stderr.
  ln -sf curvedns.out "$LAB_DIR/curvedns.log"
}

# The probes of `start` and `status`: address and zone.
PROBES="$LAB_ROOT_IP:.
$LAB_TEST_IP:test.
$LAB_PLAIN_IP:plain.test.
$LAB_CURVE_BACKEND_IP:curve.test.
$LAB_CURVE_IP:curve.test."

# all_running: every pid file names a live process.
all_running() {
  for pf in "$LAB_DIR/curvedns.pid" "$LAB_DIR"/nsd-*.pid; do
    if [ ! -f "$pf" ] || ! alive "$(cat "$pf")"; then
      dead=$pf
      return 1
    fi
  done
}

wait_ready() {
  deadline=$(($(date +%s) + START_WAIT_SECS))
  while :; do
    all_running || { say "server of $dead exited"; return 1; }
    pending=
    for p in $PROBES; do
      answers "${p%%:*}" "${p#*:}" || pending="$pending ${p%%:*}"
    done
    [ -z "$pending" ] && return 0
    [ "$(date +%s)" -lt "$deadline" ] || break
    sleep 0.2
  done
  say "no answer within $START_WAIT_SECS s from:$pending"
  return 1
}

dump_logs() {
  for f in "$LAB_DIR"/*.log "$LAB_DIR"/*.out; do
    if [ ! -f "$f" ] || [ -L "$f" ]; then continue; fi
    printf '==== %s ====\n' "$f" >&2
    tail -n 40 "$f" >&2
  done
}

do_start() {
  [ "$(id -u)" -eq 0 ] ||
    die "must run as root (binds port 53 on 127.53.0.x)"
  need_tools
  if [ -n "${LAB_DIR:-}" ]; then
    for pf in "$LAB_DIR"/nsd-*.pid "$LAB_DIR/curvedns.pid"; do
      [ -f "$pf" ] && alive "$(cat "$pf")" &&
        die "a lab is already running in $LAB_DIR ($pf); stop it first"
    done
  fi
  for p in $PROBES; do
    ip=${p%%:*}
    if listening_on "$ip" ||
       dig +time=1 +tries=1 +norec "@$ip" . SOA >/dev/null 2>&1; then
      die "port 53 of $ip is already in use (another lab running?)"
    fi
  done
  if [ -z "${LAB_DIR:-}" ]; then
    LAB_DIR=$(mktemp -d "${TMPDIR:-/tmp}/curvecache-lab.XXXXXX") ||
      die "mktemp failed"
    : > "$LAB_DIR/$CREATED_MARK"
  fi
  mkdir -p "$LAB_DIR" || die "cannot create $LAB_DIR"
  LAB_DIR=$(cd "$LAB_DIR" && pwd)
  if cp "$LAB_SRCDIR"/zones/*.zone "$LAB_SRCDIR"/zones/leaf.inc \
        "$LAB_SRCDIR"/root.hints "$LAB_DIR"/ &&
     chmod u+w "$LAB_DIR"/*.zone "$LAB_DIR"/leaf.inc "$LAB_DIR"/root.hints &&
     start_servers && wait_ready; then
    say "started in $LAB_DIR"
    do_env
    return 0
  fi
  say "start failed; logs follow"
  dump_logs
  do_stop
  exit 1
}

do_status() {
  need_lab_dir
  rc=0
  for pf in "$LAB_DIR"/nsd-*.pid "$LAB_DIR/curvedns.pid"; do
    [ -f "$pf" ] || continue
    pid=$(cat "$pf")
    if alive "$pid"; then st=running; else st=dead; rc=1; fi
    printf '%-14s pid %-7s %s\n' "$(basename "$pf" .pid)" "$pid" "$st"
  done
  for p in $PROBES; do
    st=answers
    answers "${p%%:*}" "${p#*:}" || { st="NO ANSWER"; rc=1; }
    printf '%-14s %-11s %s\n' "${p%%:*}" "${p#*:}" "$st"
  done
  return $rc
}

do_env() {
  need_lab_dir
  cat <<EOF
export LAB_DIR='$LAB_DIR'
export LAB_ROOT_HINTS='$LAB_DIR/root.hints'
export LAB_ROOT_IP='$LAB_ROOT_IP'
export LAB_TEST_IP='$LAB_TEST_IP'
export LAB_PLAIN_IP='$LAB_PLAIN_IP'
export LAB_CURVE_BACKEND_IP='$LAB_CURVE_BACKEND_IP'
export LAB_CURVE_IP='$LAB_CURVE_IP'
export LAB_CURVE_KEY='$LAB_CURVE_KEY'
export LAB_CURVE_NS='$LAB_CURVE_NS'
export LAB_CURVE_PUBKEY='$LAB_CURVE_PUBKEY'
export LAB_WRONG_KEY='$LAB_WRONG_KEY'
EOF
}

case ${1:-} in
  start) do_start ;;
  stop) do_stop ;;
  status) do_status ;;
  env) do_env ;;
  *) echo "usage: $0 start|stop|status|env" >&2; exit 1 ;;
esac
