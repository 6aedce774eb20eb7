# shellcheck shell=sh
# tests/e2e/e2e_lib.sh: shared by the end-to-end tests that run the
# curvecache daemon with the loopback lab (tests/lab/lab.sh) as its
# Internet. Sourced, not run:
#
#   . "$srcdir/tests/e2e/e2e_lib.sh"
#   e2e_init NAME [PROGRAM...]   # SKIP/FAIL rules, lock, lab, trap
#   cc_start [CONFIG LINE...]    # curvecache on $CC_IP port 53
#   ... checks, each ending in ok or bad ...
#   e2e_finish                   # summary; exit 0 only if nothing failed
#
# Exit status of a test: 0 = every check passed, 1 = a check failed,
# 77 = SKIP, only when not root or when a Debian program it needs is not
# installed (nsd, curvedns, dig and those named to e2e_init).
#
# Every process a test starts is recorded and stopped by its pid in the
# EXIT trap (TERM, then KILL): curvecache (CC_PID), helpers started with
# bg_start, and the lab (lab.sh stop). The lab lock is held on fd 9 for
# the whole test, as tests/e2e/curve_lab.sh does.
#
# curvecache listens on $CC_IP port 53 (UDP and TCP; port 53 so that a
# resolv.conf can name it) and sends every upstream query from $CC_IP
# (outgoing-interface), so a capture tells its packets from CurveDNS's
# (which forwards from 127.0.0.1) and from the test's own dig runs. The
# lab never uses 127.53.100.0/24.
#
# The tests of the signed lab (tests/lab/signed.sh) start it instead:
#
#   e2e_need "the signed lab binds port 53" PROGRAM...   # SKIP rules
#   e2e_built CURVECACHE ...     # FAIL unless built; absolute paths
#   signed_lab_start NAME        # work directory, trap, lock, signed lab
#   cc_start "dnssec: yes" "trust-anchor-file: $SIGNED_TA_DS" ...
#
# and the same EXIT trap stops it (signed_lab_stop).
#
# Environment: CURVECACHE overrides the daemon (default ./curvecache in
# the build directory); E2E_KEEP=1 keeps the work directory (and the
# signed lab's).

# shellcheck disable=SC2034 # these are for the tests that source this
CC_IP=127.53.100.1
# Upper bounds (milliseconds) for one dig through curvecache: an answer
# (a cold walk included), and a SERVFAIL (query-timeout 5 s, plus slack).
T_ANSWER_MS=3000
T_SERVFAIL_MS=6500

e2e_pass=0
e2e_fail=0
e2e_bg_pids=
CC_PID=
LAB_DIR=
labenv=
signedenv=
e2e_signed=0

e2e_skip() { echo "SKIP: $*"; exit 77; }

# ok NAME / bad NAME WHY [FILE]: count one check; bad shows FILE.
ok() {
  e2e_pass=$((e2e_pass + 1))
  echo "ok   $1"
}
bad() {
  e2e_fail=$((e2e_fail + 1))
  echo "FAIL $1: $2"
  if [ -n "${3:-}" ] && [ -f "$3" ]; then sed 's/^/     | /' "$3"; fi
  return 1
}

# e2e_alive PID: the process exists and is not a zombie.
e2e_alive() {
  kill -0 "$1" 2>/dev/null || return 1
  st=$(sed -n 's/^State:[[:space:]]*\([A-Z]\).*/\1/p' "/proc/$1/status" \
       2>/dev/null) || st=
  [ "$st" != Z ]
}

# e2e_kill PID: TERM, up to 5 s, then KILL; reaps it; returns its status.
e2e_kill() {
  kill -TERM "$1" 2>/dev/null
  n=0
  while e2e_alive "$1" && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
  if e2e_alive "$1"; then
    echo "# pid $1 still running after TERM: KILL"
    kill -KILL "$1" 2>/dev/null
  fi
  wait "$1" 2>/dev/null
}

# bg_start NAME CMD...: run CMD in the background (output in
# $WORK/NAME.out), remember its pid (echoed in bg_pid) for the trap.
bg_start() {
  bgname=$1
  shift
  "$@" </dev/null >"$WORK/$bgname.out" 2>&1 9>&- &
  bg_pid=$!
  e2e_bg_pids="$e2e_bg_pids $bg_pid"
}

# bg_stop PID: stop one helper started with bg_start.
bg_stop() {
  e2e_kill "$1"
  e2e_bg_pids=$(echo "$e2e_bg_pids" | tr ' ' '\n' | grep -vx "$1" | tr '\n' ' ')
}

# e2e_diag: what the EXIT trap shows when a check failed; a test may
# define its own after sourcing this file.
e2e_diag() {
  if [ -f "${WORK:-/nonexistent}/curvecache.log" ]; then
    echo "---- last lines of the curvecache log ----"
    grep -v 'event=stats' "$WORK/curvecache.log" | tail -n 40
  fi
}

e2e_cleanup() {
  # A signal may come between "lab.sh start" and the eval of its output.
  [ -z "${LAB_DIR:-}" ] && [ -n "${labenv:-}" ] && eval "$labenv"
  for p in $e2e_bg_pids; do e2e_kill "$p"; done
  if [ -n "$CC_PID" ]; then
    e2e_kill "$CC_PID"
    CC_PID=
  fi
  [ "$e2e_fail" -ne 0 ] && e2e_diag
  if [ -n "${LAB_DIR:-}" ]; then
    LAB_DIR=$LAB_DIR "$LAB" stop || echo "FAIL: lab stop"
  fi
  [ "$e2e_signed" = 1 ] && signed_lab_stop
  if [ "${E2E_KEEP:-0}" = 1 ]; then
    echo "# kept $WORK"
  elif [ -n "${WORK:-}" ]; then
    rm -rf "$WORK"
  fi
}

# e2e_need WHY [PROGRAM...]: SKIP unless root (WHY: what needs it) and
# every PROGRAM is installed.
e2e_need() {
  [ "$(id -u)" -eq 0 ] || e2e_skip "not root ($1)"
  shift
  for t in "$@"; do
    command -v "$t" >/dev/null 2>&1 || e2e_skip "$t not installed"
  done
}

# e2e_built VAR...: the program each variable VAR names is built (else
# FAIL, exit 1); VAR is made absolute (the daemons work from "/").
e2e_built() {
  eb=
  for v in "$@"; do
    eval "eb=\$$v"
    [ -x "$eb" ] || { echo "FAIL: $eb not built"; exit 1; }
    case $eb in /*) ;; *) eval "$v=\$(pwd)/\$eb" ;; esac
  done
}

# e2e_lock NAME: the work directory, the EXIT trap and the lab lock (one
# lab at a time on this machine: fixed addresses); the lock fd is closed
# for every daemon (lab.sh, signed.sh and bg_start close fd 9).
e2e_lock() {
  WORK=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX") || exit 1
  trap e2e_cleanup EXIT
  trap 'exit 130' HUP INT TERM
  exec 9>"${TMPDIR:-/tmp}/curvecache-lab.lock"
  flock -w 300 9 || { echo "FAIL: lab lock busy for 300 s"; exit 1; }
}

# e2e_init NAME [PROGRAM...]: the SKIP rules, the work directory, the
# trap, the lab lock, and the lab (its LAB_* variables are set).
e2e_init() {
  e2e_name=$1
  e2e_t0=$(date +%s)
  shift
  srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
  LAB=$srcdir/tests/lab/lab.sh
  CURVECACHE=${CURVECACHE:-./curvecache}
  e2e_need "the lab and curvecache bind port 53 on 127.53.x.y" \
    nsd nsd-checkconf nsd-checkzone curvedns dig flock "$@"
  e2e_built CURVECACHE
  e2e_lock "$e2e_name"
  unset LAB_DIR
  labenv=$("$LAB" start) || { labenv=; echo "FAIL: lab start"; exit 1; }
  eval "$labenv"
  echo "# $e2e_name: curvecache $CURVECACHE, lab $LAB_DIR" \
    "(lock and lab start: $(elapsed))"
  e2e_t0=$(date +%s)
}

# The programs every test of the signed lab needs (tests/lab/signed.sh:
# its servers, its signers; flock and ss for the lock and the ports).
SIGNED_NEEDS="nsd nsd-checkconf nsd-checkzone dig dnssec-keygen \
dnssec-signzone dnssec-dsfromkey ldns-signzone python3 curvedns flock ss"

# signed_lab_start NAME: after e2e_need (with $SIGNED_NEEDS) and
# e2e_built: the work directory, the trap, the lab lock, and the signed
# lab (SIGNED is tests/lab/signed.sh; its SIGNED_* variables are set, and
# LAB_ROOT_HINTS is its root hints, for cc_start). Exit 1 if it fails.
signed_lab_start() {
  srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
  SIGNED=$srcdir/tests/lab/signed.sh
  e2e_t0=$(date +%s)
  e2e_lock "$1"
  e2e_signed=1
  unset LAB_DIR SIGNED_DIR
  if ! signedenv=$("$SIGNED" start 9>&-); then
    signedenv=
    echo "FAIL: signed lab start"
    exit 1
  fi
  eval "$signedenv"
  LAB_ROOT_HINTS=$SIGNED_ROOT_HINTS
  echo "# signed lab in $SIGNED_DIR (lock, keys, signing, start: $(elapsed))"
  e2e_t0=$(date +%s)
}

# signed_lab_stop: stop the signed lab (the EXIT trap does it); with
# E2E_KEEP=1 its directory is kept.
signed_lab_stop() {
  # A signal may come between "signed.sh start" and the eval.
  [ -z "${SIGNED_DIR:-}" ] && [ -n "$signedenv" ] && eval "$signedenv"
  if [ -n "${SIGNED_DIR:-}" ]; then
    SIGNED_KEEP=${E2E_KEEP:-0} "$SIGNED" stop || echo "FAIL: signed lab stop"
  fi
  SIGNED_DIR=
  signedenv=
}

e2e_finish() {
  echo "# $e2e_pass passed, $e2e_fail failed"
  [ "$e2e_fail" -eq 0 ]
}

# port_free IP: nothing listens on IP port 53 (nor on every address).
port_free() {
  ! ss -Hlnut 2>/dev/null | awk '{print $5}' |
    grep -qxE "($(echo "$1" | sed 's/\./\\./g')|0\.0\.0\.0|\*|\[::\]):53"
}

# cc_port_free: nothing listens on $CC_IP port 53.
cc_port_free() { port_free "$CC_IP"; }

# wait_up WHAT IP PID LOG: wait (up to 5 s) until the resolver PID
# answers on IP port 53; else a failed check "WHAT start" showing LOG,
# and return 1 (at once if PID is gone).
wait_up() {
  n=0
  while [ $n -lt 50 ]; do
    e2e_alive "$3" || break
    # localhost is answered locally (RFC 6761): no upstream traffic.
    dig +time=1 +tries=1 "@$2" localhost A 2>/dev/null |
      grep -q 'status: NOERROR' && return 0
    sleep 0.1
    n=$((n + 1))
  done
  bad "$1 start" "no answer on $2:53 within 5 s" "$4"
  return 1
}

# cc_start [LINE...]: write $WORK/curvecache.conf (the lab root hints,
# listen and send on $CC_IP, debug log; each LINE is appended), start
# curvecache -f in the background (log: $WORK/curvecache.log, appended
# across restarts) and wait until it answers (up to 5 s). Returns 1 if it
# does not come up.
cc_start() {
  cc_port_free || { bad "curvecache start" "$CC_IP:53 is in use"; return 1; }
  cc_conf "$@"
  "$CURVECACHE" -f -c "$WORK/curvecache.conf" </dev/null \
    >>"$WORK/curvecache.log" 2>&1 9>&- &
  CC_PID=$!
  wait_up curvecache "$CC_IP" "$CC_PID" "$WORK/curvecache.log"
}

# cc_conf [LINE...]: (re)write $WORK/curvecache.conf as cc_start does.
cc_conf() { cc_conf_at "$CC_IP" "$WORK/curvecache.conf" "$@"; }

# cc_conf_at IP FILE [LINE...]: a lab configuration for an instance on IP
# (listen and send there, the lab root hints, debug log) in FILE.
cc_conf_at() {
  ca_ip=$1
  ca_file=$2
  shift 2
  {
    echo "# written by tests/e2e/e2e_lib.sh"
    echo "listen: $ca_ip@53"
    echo "outgoing-interface: $ca_ip"
    echo "root-hints: $LAB_ROOT_HINTS"
    # the lab's root is unsigned: no trust anchor holds for it (the
    # signed lab and tests/e2e/validate_lab.sh test validation)
    echo "dnssec: no"
    echo "do-not-query-localhost: no"
    echo "do-ip6: no"
    echo "user:"
    echo "control-socket:"
    echo "log-level: debug"
    echo "query-timeout: 5"
    for line in "$@"; do echo "$line"; done
  } >"$ca_file"
}

# ub_conf IP ROOT_HINTS [LINE...]: write $WORK/unbound.conf for Debian's
# unbound on IP port 53, in the foreground (no user, chroot or pid file;
# log on stderr, verbosity 1), sending from IP, IPv4 only, one thread,
# with ROOT_HINTS, allowed to ask 127.x; each LINE is one more "server:"
# option. Remote control is off, unless UB_CONTROL names a Unix socket:
# then it is on there, without certificates.
ub_conf() {
  uc_ip=$1
  uc_hints=$2
  shift 2
  {
    echo "# written by tests/e2e/e2e_lib.sh (ub_conf)"
    echo "server:"
    printf '\t%s\n' "interface: $uc_ip" "port: 53" \
      "outgoing-interface: $uc_ip" "do-ip6: no" "num-threads: 1" \
      'username: ""' 'chroot: ""' "directory: \"$WORK\"" 'pidfile: ""' \
      "use-syslog: no" 'logfile: ""' "verbosity: 1" \
      "root-hints: \"$uc_hints\"" "do-not-query-localhost: no" "$@"
    echo "remote-control:"
    if [ -n "${UB_CONTROL:-}" ]; then
      printf '\t%s\n' "control-enable: yes" \
        "control-interface: $UB_CONTROL" "control-use-cert: no"
    else
      printf '\tcontrol-enable: no\n'
    fi
  } >"$WORK/unbound.conf"
}

# ub_valid_conf IP [LINE...]: ub_conf for an Unbound that validates
# ("validator iterator") from the signed lab's root hints with its trust
# anchor (SIGNED_ROOT_HINTS, SIGNED_TA_DS).
ub_valid_conf() {
  uv_ip=$1
  shift
  ub_conf "$uv_ip" "$SIGNED_ROOT_HINTS" \
    "trust-anchor-file: \"$SIGNED_TA_DS\"" \
    'module-config: "validator iterator"' "$@"
}

# ---- DNSSEC verdicts (the cases of tests/lab/signed/cases) ----

# dnssec_judge WANT TYPE RAW [ede]: dig +dnssec output RAW, for a
# question of TYPE, against the case WANT (secure, insecure, nxsecure,
# nodata, nxinsecure, nxchain, nxoptout, bogus, nxbogus; synth: secure,
# with a DNAME before the CNAME): the status and the AD bit, an answer
# (none for nodata), an RRSIG over TYPE (secure), and with "ede" an EDE
# option on a failure. Prints what is wrong, each item after "; " (""
# when nothing).
dnssec_judge() {
  st=$(dig_status "$3")
  fl=" $(dig_flags "$3") "
  nans=$(sed -n 's/.*ANSWER: \([0-9]*\),.*/\1/p' "$3")
  case $fl in *" ad "*) ad=1 ;; *) ad=0 ;; esac
  sigs=$(grep -c "^[^;].*[[:space:]]RRSIG[[:space:]]*$2 " "$3")
  case $1 in
    secure | synth) want="NOERROR 1" ;;
    insecure) want="NOERROR 0" ;;
    nxsecure | nxchain) want="NXDOMAIN 1" ;;
    nodata) want="NOERROR 1" ;;
    nxinsecure | nxoptout) want="NXDOMAIN 0" ;;
    bogus | nxbogus) want="SERVFAIL 0" ;;
  esac
  why=
  [ "$st $ad" = "$want" ] || why="; status $st, AD $ad; want (status, AD) $want"
  case $1 in
    secure | insecure) [ "${nans:-0}" -gt 0 ] || why="$why; no answer" ;;
    nodata) [ "${nans:-1}" -eq 0 ] || why="$why; an answer" ;;
    bogus | nxbogus)
      [ "${4:-}" != ede ] || grep -q '; EDE: ' "$3" || why="$why; no EDE" ;;
  esac
  [ "$1" = secure ] && [ "$sigs" -eq 0 ] && why="$why; no RRSIG over $2"
  if [ "$1" = synth ] && ! grep -q "^[^;].*[[:space:]]DNAME[[:space:]]" "$3"
  then why="$why; no DNAME before the CNAME"; fi
  echo "$why"
}

# cd_data IP SECONDS WANT NAME TYPE: for WANT bogus, "" when the resolver
# on IP, asked NAME/TYPE with CD set (dig +time=SECONDS), has the data,
# so that the failure is validation's, not a broken server's; for
# nxbogus, "" when it says NXDOMAIN; else what it gives, after "; ".
# Other cases: "".
cd_data() {
  case $3 in bogus | nxbogus) ;; *) return 0 ;; esac
  dig +cd +time="$2" +tries=1 "@$1" "$4" "$5" >"$WORK/cd.out" 2>&1
  if [ "$3" = nxbogus ]; then
    [ "$(dig_status "$WORK/cd.out")" = NXDOMAIN ] ||
      echo "; with CD: status $(dig_status "$WORK/cd.out"), not NXDOMAIN"
    return
  fi
  [ "$(dig_status "$WORK/cd.out")" = NOERROR ] &&
    grep -q "^[^;].*[[:space:]]$5[[:space:]]" "$WORK/cd.out" ||
    echo "; with CD: no data, status $(dig_status "$WORK/cd.out")"
}

# ubc_conf FILE SOCKET: an unbound-control configuration in FILE for the
# Unix socket SOCKET (Unbound's, or curvecache's: the same framing),
# without certificates.
ubc_conf() {
  printf 'remote-control:\n  control-enable: yes\n  control-interface: %s\n  control-use-cert: no\n' \
    "$2" >"$1"
}

# ub_start IP: start unbound -d -c $WORK/unbound.conf with bg_start (its
# output in $WORK/unbound.out) and wait until it answers on IP (wait_up,
# a failed check "unbound start" if not; returns 1 then).
ub_start() {
  bg_start unbound unbound -d -c "$WORK/unbound.conf"
  wait_up unbound "$1" "$bg_pid" "$WORK/unbound.out"
}

# cc_hup EVENT: SIGHUP to curvecache; wait (3 s) for one more
# "event=EVENT " line in its log.
cc_hup() {
  hb=$(grep -c "event=$1 " "$WORK/curvecache.log")
  kill -HUP "$CC_PID"
  n=0
  while [ "$(grep -c "event=$1 " "$WORK/curvecache.log")" -le "$hb" ] &&
    [ $n -lt 30 ]; do sleep 0.1; n=$((n + 1)); done
}

# cc_clean_stop WHAT: SIGTERM; exit status 0 and no sanitizer report in
# the log (one check, named "WHAT: clean stop").
cc_clean_stop() {
  e2e_kill "$CC_PID"
  rc=$?
  CC_PID=
  if [ $rc -eq 0 ] && ! grep -q 'Sanitizer' "$WORK/curvecache.log"; then
    ok "$1: clean stop (status 0, no sanitizer report)"
  else
    bad "$1: clean stop" "status $rc" "$WORK/curvecache.log"
  fi
}

# cc_stop: SIGTERM; curvecache must exit with status 0 (a check).
cc_stop() {
  [ -n "$CC_PID" ] || return 0
  e2e_kill "$CC_PID"
  st=$?
  CC_PID=
  if [ "$st" -eq 0 ]; then ok "curvecache exits 0 on SIGTERM"
  else bad "curvecache exits 0 on SIGTERM" "exit status $st"; fi
}

# cc_no_sanitizer: a failed check when the curvecache log holds a
# sanitizer report (nothing is counted when it does not).
cc_no_sanitizer() {
  if grep -q 'Sanitizer' "$WORK/curvecache.log"; then
    bad "no sanitizer report" "see the log" "$WORK/curvecache.log"
  fi
}

# cc_stat NAME: the value of counter NAME in a fresh SIGUSR1 dump of the
# statistics (empty if curvecache did not write it within 2 s).
# cc_stat_of PID LOG NAME: the same for the curvecache of PID logging to
# LOG.
cc_stat() { cc_stat_of "$CC_PID" "$WORK/curvecache.log" "$1"; }
cc_stat_of() {
  before=$(grep -c " $3=" "$2")
  kill -USR1 "$1" 2>/dev/null
  n=0
  while [ $n -lt 20 ]; do
    sleep 0.1
    [ "$(grep -c " $3=" "$2")" -gt "$before" ] && break
    n=$((n + 1))
  done
  grep 'event=stats' "$2" | tr ' ' '\n' | sed -n "s/^$3=//p" | tail -n 1
}

# sends_to ADDR [QNAME]: upstream_send lines of the curvecache log so far
# for server ADDR (and question QNAME, with the final dot).
sends_to() {
  if [ -n "${2:-}" ]; then
    grep -c "event=upstream_send server=$1 qname=$2 " "$WORK/curvecache.log"
  else
    grep -c "event=upstream_send server=$1 " "$WORK/curvecache.log"
  fi
}

# sends_for QNAME: upstream_send lines so far for question QNAME (any
# server; QNAME with the final dot, lowercase as logged).
sends_for() {
  grep -c "event=upstream_send server=[^ ]* qname=$1 " "$WORK/curvecache.log"
}

# now_ms: wall clock in milliseconds.
now_ms() { echo $(($(date +%s%N) / 1000000)); }

# elapsed: seconds since the lab came up (in e2e_init), for progress
# lines.
elapsed() { echo "$(($(date +%s) - e2e_t0)) s"; }

# ---- Reference answers from the lab's authoritative servers ----

# lower NAME: NAME in lower case with a final dot. lower_to NAME: the
# same into $lc, without a subshell (for the hot paths).
lower_to() {
  case $1 in
    *[A-Z]*) lc=$(printf '%s' "$1" | tr '[:upper:]' '[:lower:]') ;;
    *) lc=$1 ;;
  esac
  case $lc in *.) ;; *) lc=$lc. ;; esac
}
lower() { lower_to "$1"; printf '%s\n' "$lc"; }

# holder NAME: the address of the NSD holding the longest zone of
# LAB_ZONES that NAME lies in (for a CurveDNS zone: its back end).
holder() {
  lower_to "$1"
  hn=$lc
  hbest=
  hlen=-1
  for zi in $LAB_ZONES; do
    z=${zi%@*}
    case $z in
      .) ;;
      *) case .$hn in *."$z") ;; *) continue ;; esac ;;
    esac
    if [ "${#z}" -gt "$hlen" ]; then hbest=${zi#*@}; hlen=${#z}; fi
  done
  echo "$hbest"
}

# split_sections RAW ANS AUTH: from dig output with +noall +comments
# +answer +authority +noclass, write the answer and authority records as
# "TTL owner TYPE RDATA" lines (owner in lower case, single spaces).
split_sections() {
  awk -v ans="$2" -v auth="$3" '
    /^;; ANSWER SECTION:/ { s = 1; next }
    /^;; AUTHORITY SECTION:/ { s = 2; next }
    /^;/ || NF < 4 { next }
    {
      o = tolower($1); t = $2; $1 = ""; $2 = ""; sub(/^ +/, "")
      line = t " " o " " $0
      if (s == 1) print line > ans
      else if (s == 2) print line > auth
    }' "$1"
  touch "$2" "$3"
}

# dig_status RAW: the status of dig output RAW ("" if none).
dig_status() { sed -n 's/.*status: \([A-Z]*\),.*/\1/p' "$1" | tail -n 1; }

# dig_flags RAW: the flags of the last header in RAW, space separated.
dig_flags() { sed -n 's/^;; flags: \([^;]*\);.*/\1/p' "$1" | tail -n 1; }

# ref NAME TYPE: the answer the lab's authoritative servers give for
# NAME/TYPE, following CNAMEs (and DNAMEs) from zone to zone as a resolver
# would. Sets ref_ans (a file: every answer record of the chain, sorted),
# ref_auth (a file: the authority records of the last hop), ref_raw (dig's
# output for the last hop) and ref_status (the status of the last hop).
# Results are kept in $WORK/ref/, so asking again costs nothing. NAME
# holds only letters, digits, '.', '_' and '-'.
ref() {
  rbase=$WORK/ref/$1_$2
  ref_ans=$rbase.ans ref_auth=$rbase.auth ref_raw=$rbase.raw
  if [ -f "$rbase.status" ]; then
    read -r ref_status <"$rbase.status"
    return
  fi
  mkdir -p "$WORK/ref"
  lower_to "$1"
  rcur=$lc
  : >"$rbase.all"
  hop=0
  while [ $hop -lt 8 ]; do
    dig +norec +time=2 +tries=2 +noclass +noall +comments +answer \
      +authority "@$(holder "$rcur")" "$rcur" "$2" </dev/null >"$ref_raw" 2>&1
    ref_status=$(dig_status "$ref_raw")
    rm -f "$rbase.hop" "$ref_auth"
    split_sections "$ref_raw" "$rbase.hop" "$ref_auth"
    cat "$rbase.hop" >>"$rbase.all"
    [ "$2" = CNAME ] && break
    # The end of the CNAME chain so far; stop when it is where we are,
    # or when the data is already there.
    rnext=$(awk -v cur="$rcur" -v t="$2" '
      { k[$2 " " $3] = 1 }
      $3 == "CNAME" { c[$2] = tolower($4) }
      END {
        for (i = 0; i < 16 && (cur in c); i++) cur = c[cur]
        print ((cur " " t) in k) ? "" : cur
      }' "$rbase.all")
    if [ -z "$rnext" ] || [ "$rnext" = "$rcur" ]; then break; fi
    rcur=$rnext
    hop=$((hop + 1))
  done
  sort -u "$rbase.all" >"$ref_ans"
  echo "$ref_status" >"$rbase.status"
}

# records FILE: the lines of FILE without their TTL, sorted, unique.
records() { cut -d' ' -f2- "$1" | sort -u; }

# verdict EXPECT NAME TYPE RAW: judge curvecache's dig output RAW (dig
# +noall +comments +answer +authority +noclass) for NAME/TYPE against the
# reference of the last ref call. EXPECT is answer, nodata, nxdomain or
# servfail. Prints "ok" or the reason it is not. Checks: flags qr rd ra,
# never aa or ad; the status; for all but servfail: the reference agrees
# with EXPECT (the lab is as described), the answer records equal the
# reference's with TTLs no larger, and a negative answer carries the SOA
# of the last authoritative server (owner and data; TTL no larger).
verdict() {
  if [ "$1" = servfail ]; then
    vans=/dev/null vauth=/dev/null vstatus=
  else
    vans=$ref_ans vauth=$ref_auth vstatus=$ref_status
  fi
  lower_to "$2"
  awk -v expect="$1" -v qname="$lc" -v qtype="$3" \
      -v refstatus="$vstatus" -v fans="$vans" -v fauth="$vauth" '
    function key(line) { sub(/^[^ ]* /, "", line); return line }
    function ttl(line) { sub(/ .*/, "", line); return line + 0 }
    function norm(  o, t) {
      o = tolower($1); t = $2; $1 = ""; $2 = ""; sub(/^ +/, "")
      return t " " o " " $0
    }
    FILENAME == fans { r[key($0)] = ttl($0); nr++
                       if ($3 == "CNAME") cn[$2] = tolower($4); next }
    FILENAME == fauth { if ($3 == "SOA") { rs[key($0)] = ttl($0); nrs++ }
                        next }
    /status: / { st = $0; sub(/.*status: /, "", st); sub(/,.*/, "", st) }
    /^;; flags: / { fl = $0; sub(/^;; flags: /, "", fl); sub(/;.*/, "", fl)
                    fl = " " fl " " }
    /^;; ANSWER SECTION:/ { s = 1; next }
    /^;; AUTHORITY SECTION:/ { s = 2; next }
    /^;/ || NF < 4 { next }
    { l = norm(); k = key(l)
      if (s == 1) { c[k] = ttl(l); nc++ }
      else if (s == 2 && $1 == "SOA") { cs[k] = ttl(l); ncs++ } }
    function fail(why) { print why; failed = 1; exit }
    END {
      if (failed) exit
      want = "NOERROR"
      if (expect == "servfail") want = "SERVFAIL"
      if (expect == "nxdomain") want = "NXDOMAIN"
      if (fl == "") fail("no reply")
      split("qr rd ra", need, " ")
      for (i in need)
        if (index(fl, " " need[i] " ") == 0) fail("flags" fl "lack " need[i])
      if (index(fl, " aa ") || index(fl, " ad "))
        fail("flags" fl "has aa or ad")
      if (expect == "servfail") {
        if (st != want) fail("status " st ", want " want)
        print "ok"; exit
      }
      if (refstatus != want) fail("lab: reference status " refstatus)
      cur = qname
      for (i = 0; i < 16 && (cur in cn); i++) cur = cn[cur]
      nfinal = 0
      for (k in r) { split(k, f, " "); if (f[1] == cur && f[2] == qtype) nfinal++ }
      if (expect == "answer" && nfinal == 0) fail("lab: no " qtype " data")
      if (expect != "answer" && nfinal > 0) fail("lab: " qtype " data there")
      if (st != want) fail("status " st ", want " want)
      for (k in r) if (!(k in c)) fail("missing: " k)
      for (k in c) {
        if (!(k in r)) fail("not in the lab: " k)
        if (c[k] > r[k]) fail("TTL " c[k] " above " r[k] ": " k)
      }
      if (expect != "answer") {
        if (nrs == 0) fail("lab: no SOA in the reference")
        for (k in rs) {
          if (!(k in cs)) fail("authority lacks the SOA " k)
          if (cs[k] > rs[k]) fail("SOA TTL " cs[k] " above " rs[k])
        }
      }
      print "ok"
    }' "$vans" "$vauth" "$4"
}

# e2e_pki DIR NAME [IP]: a test CA (DIR/ca.pem) and a certificate for NAME
# (and IP, when given) signed by it (DIR/srv.pem, DIR/srv.key), EC P-256,
# two days, made with openssl (its output in DIR/openssl.log); 1 if that
# failed.
e2e_pki() {
  ep_dir=$1
  ep_san="DNS:$2${3:+,IP:$3}"
  mkdir -p "$ep_dir"
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
    -keyout "$ep_dir/ca.key" -out "$ep_dir/ca.pem" \
    -subj "/CN=curvecache test CA" -days 2 >>"$ep_dir/openssl.log" 2>&1 &&
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
      -keyout "$ep_dir/srv.key" -out "$ep_dir/srv.pem" -subj "/CN=$2" \
      -CA "$ep_dir/ca.pem" -CAkey "$ep_dir/ca.key" -days 2 \
      -addext "subjectAltName=$ep_san" \
      -addext "basicConstraints=CA:FALSE" >>"$ep_dir/openssl.log" 2>&1 &&
    [ -s "$ep_dir/srv.pem" ]
}

# ---- Checks shared by the labs (dot_lab.sh, dotserve_lab.sh: all;
# resolve_lab.sh: the capture) ----

# expect NAME GOT WANT: a check that GOT is WANT.
expect() {
  if [ "$2" = "$3" ]; then ok "$1"; else bad "$1" "got '$2', want '$3'"; fi
}

# atleast NAME GOT MIN: a check that the number GOT is MIN or more.
atleast() {
  if [ "$2" -ge "$3" ] 2>/dev/null; then ok "$1"; else
    bad "$1" "got '$2', want at least $3"; fi
}

# expect_stat NAME COUNTER WANT [BEFORE]: a check that curvecache's
# COUNTER (cc_stat) is WANT, or has moved by WANT since BEFORE.
expect_stat() {
  es_v=$(cc_stat "$2")
  [ -n "${4:-}" ] && es_v=$((es_v - $4))
  expect "$1" "$es_v" "$3"
}

# tls_conns IP: curvecache's ($CC_IP) established TCP connections to IP
# port 853.
tls_conns() {
  ss -Htn state established "dst $1:853" "src $CC_IP" 2>/dev/null | wc -l
}

# e2e_sniff_start CAP SECONDS [--addr IP,...]: tests/e2e/sniff.py writes
# the packets it sees to CAP for at most SECONDS (its own output in
# $WORK/sniff.out), SNIFF_PID; returns once it is ready, else a failed
# check and exit 1. e2e_sniff_stop CAP: stops it; a failed check unless
# it ended cleanly.
e2e_sniff_start() {
  sn_cap=$1
  sn_secs=$2
  shift 2
  bg_start sniff python3 "$srcdir/tests/e2e/sniff.py" "$@" "$sn_cap" \
    "$sn_secs"
  SNIFF_PID=$bg_pid
  n=0
  until grep -q '^# ready' "$sn_cap" 2>/dev/null; do
    n=$((n + 1))
    [ $n -lt 50 ] || { bad "capture" "sniff.py did not start" \
      "$WORK/sniff.out"; exit 1; }
    sleep 0.1
  done
}
e2e_sniff_stop() {
  bg_stop "$SNIFF_PID"
  grep -q '^# end' "$1" || bad "capture" "sniff.py did not end cleanly" \
    "$WORK/sniff.out"
}
