#!/bin/sh
# tests/lab/lab.sh: the loopback test lab of curvecache, a small simulated
# Internet: a root, TLDs and second-level zones on real authoritative
# servers (NSD), some of them behind CurveDNS.
#
# Usage:  tests/lab/lab.sh start|stop|status|env|down|up
#
#   out=$(tests/lab/lab.sh start) || exit 1   # starts every server
#   eval "$out"                                # sets LAB_DIR and LAB_* below
#   ... tests ...
#   tests/lab/lab.sh stop                      # needs LAB_DIR (exported)
#
# (Do not write `eval "$(lab.sh start)"`: eval hides a failed start.)
#
#   tests/lab/lab.sh down   # an outage: every server stopped, LAB_DIR kept
#   tests/lab/lab.sh up     # the same servers again (waits until ready)
#
# Real authoritative servers on loopback addresses of their own, port 53
# (root is needed to bind port 53 and for CurveDNS; `start` refuses
# otherwise). Nothing is written outside $LAB_DIR and nothing in /etc is read
# or changed; each server is started under our control and stopped by the pid
# recorded in $LAB_DIR/*.pid (TERM, a few seconds, then KILL), never by name.
#
# Layout (IPv4 only, UDP and TCP on port 53; every zone is served only by
# the servers its parent names, so a resolver that starts from the lab root
# hints (tests/lab/root.hints, copied to $LAB_DIR/root.hints) really walks
# the delegations):
#
#   127.53.0.1  NSD, zone "."           the lab root (NS a.root.lab.,
#                                       a.root.lab. A 127.53.0.1);
#                                       delegates test., lab. and curve.
#
#   The test. tree (for curvecache-query; a recursive resolver answers the
#   TLD test. locally, RFC 6761, so recursive tests use lab. and curve.):
#   127.53.0.2  NSD, zone "test."       NS ns1.test. (A 127.53.0.2);
#                                       delegates plain.test. (NS
#                                       ns1.plain.test., glue 127.53.0.3) and
#                                       curve.test. (NS KEYNS, glue 127.53.0.5)
#   127.53.0.3  NSD, zone "plain.test." plain DNS only
#   127.53.0.4  NSD, zones "curve.test.", "boxed.lab." and "relay.lab.":
#                                       the back end behind CurveDNS (named
#                                       in DNS only by downgrade_lab.sh's
#                                       stripped lab.zone)
#   127.53.0.5  CurveDNS -> 127.53.0.4  TEST key; the published server of
#                                       curve.test. and boxed.lab.:
#                                       streamlined and TXT DNSCurve queries
#                                       are answered boxed; anything else is
#                                       forwarded as plain DNS, unprotected
#
#   The plain TLD lab. and its cases:
#   127.53.1.1  NSD, zone "lab."        NS ns1.lab.; delegates:
#     example.lab.  NS ns1.example.lab. (glue 127.53.1.2)
#     other.lab.    NS ns.example.lab., NO glue (glueless delegation: the
#                   address 127.53.1.3 is only in the zone example.lab.)
#     dead.lab.     NS ns2.dead.lab. (127.53.1.254: nothing listens there,
#                   a dead address) and ns1.dead.lab. (127.53.1.4)
#     lame.lab.     NS ns2.lame.lab. (127.53.1.2: REFUSED, lame),
#                   ns3.lame.lab. (127.53.1.1, the lab. server itself: not
#                   authoritative, answers with the referral to lame.lab.)
#                   and ns1.lame.lab. (127.53.1.5, authoritative)
#                   (NS sets keep the order of the zone files, bad servers
#                   first: a resolver that breaks ties by order meets them)
#     broken.lab.   NS ns1.broken.lab. (127.53.1.2, REFUSED) only: SERVFAIL
#     gone.lab.     NS ns1.gone.lab. (127.53.1.253, dead) only: SERVFAIL
#     spoof.lab.    NS ns1.spoof.lab. (127.53.1.252): no lab server; the
#                   forger of tests/e2e/forgery_lab.sh listens there and
#                   plays the zone (www.spoof.lab. A 192.0.2.60)
#     boxed.lab.    NS KEYNS-style name uz5jwc7p....ns1.boxed.lab. (TEST
#                   key), glue 127.53.0.5: DNSCurve below a plain TLD
#     flood.lab.    NS ns1.flood.lab. (127.53.1.249): no lab server; the
#                   forger tests/e2e/flood.py of forgery_lab.sh plays it
#     relay.lab.    NS uz5jwc7p....ns1.relay.lab. (TEST key), glue
#                   127.53.1.248: no lab server; tests/e2e/curveproxy.py
#                   relays to 127.53.0.5 (whose back end holds the zone,
#                   with an apex NS set naming another key)
#   127.53.1.2  NSD, zone "example.lab."  (also the lame server above)
#   127.53.1.3  NSD, zone "other.lab."
#   127.53.1.4  NSD, zone "dead.lab."
#   127.53.1.5  NSD, zone "lame.lab."
#
#   The DNSCurve TLD curve. (a chain that is DNSCurve from the root down):
#   127.53.2.1  CurveDNS -> 127.53.2.2  key "curve-tld"; published server of
#                                       "curve." (root: NS
#                                       CURVETLD_KEY.ns1.curve.)
#   127.53.2.2  NSD, zone "curve."      back end; delegates secure.curve. to
#                                       SECURE_KEY.ns1.secure.curve.
#                                       (glue 127.53.2.3)
#   127.53.2.3  CurveDNS -> 127.53.2.4  key "secure"; published server of
#                                       "secure.curve."
#   127.53.2.4  NSD, zone "secure.curve."  back end
#
#   Fault injection (tests/e2e/faults_lab.sh; zones/fault.lab.zone):
#   127.53.3.1  NSD, zone "fault.lab." (delegated from lab.: NS
#                                       ns1.fault.lab.); delegates each
#                                       MODE.fault.lab. to a misbehaving
#                                       server of tests/e2e/faulty.py
#                                       (127.53.3.10-23, started by the
#                                       test, not by the lab), and
#                                       MODE.g.fault.lab. to it and to:
#   127.53.3.2  NSD, zone "g.fault.lab." the good server beside them
#
#   127.53.100.0/24 is never used by the lab: it is for the resolvers
#   under test (tests/e2e use 127.53.100.1).
#
#   KEYNS = uz5jwc7p039nvnbsd1y6wkqzqp5mrt7psuj024538xmqd280z0ynh2.ns1.curve.test.
#
# What each zone holds: the header of its file in tests/lab/zones/. The
# leaf zones plain.test., curve.test., example.lab., secure.curve. and
# boxed.lab. all include tests/lab/zones/leaf.inc, whose header lists the
# records (www A/AAAA/TXT, MX, mail, alias CNAME, many = 20 A + 20 AAAA,
# bigtxt ~3000 bytes, SRV, and the NXDOMAIN / NODATA names). Note: the 20
# A records of many.<zone> make a ~390-byte answer, which fits in 512
# bytes; the 20 AAAA records (~590 bytes) are the ones truncated (TC)
# without EDNS. Every zone outside test. has "id TXT <zone name>". The
# other cases, by zone:
#   example.lab.   short (A and AAAA, TTL 2 s), wildcard *.wild, CNAME chain
#                  chain.example.lab. -> chain.other.lab. ->
#                  chain.secure.curve. -> www.secure.curve. (three zones,
#                  two TLDs, plain then DNSCurve), DNAME dn -> other.lab.,
#                  dangle CNAME to a name that does not exist
#   other.lab.     www A/AAAA, a CNAME loop (loop1 <-> loop2: SERVFAIL)
#   secure.curve.  short (TTL 2 s), wildcard *.wild
#
# Keys: TEST keys only; the secret keys below are test data, published.
#   TEST (server_sk/server_pk of tests/vectors/dnscurve.vec), CurveDNS 127.53.0.5:
#     secret  54513cc5055949401fc46dfe2c666cbcf4fcf43a1dac120944c12b0e8d09fa07
#     public  90af53c14874538559f08647fb6d2df3e653b186409032509f9609043ef0f409
#           = uz5jwc7p039nvnbsd1y6wkqzqp5mrt7psuj024538xmqd280z0ynh2
#   "curve-tld" (made with curvedns-keygen), CurveDNS 127.53.2.1:
#     secret  de01edc70fc0a2c747a6c766551eef9f533a7fc55f1561ad4ed5565da3953f91
#     public  604cce7bcd173299dbc022a4e49da561738827a8981b153cb212571206f2e51b
#           = uz503mwwxptrjdltf3s2199ygqn1vwjsm0psw6b1y8qlsp4138y5z6
#   "secure" (made with curvedns-keygen), CurveDNS 127.53.2.3:
#     secret  42cded16d84e9a1bcdfa69f514c2b8900ba19198d5122cf00991b34d33c47374
#     public  34544ca3c5ee82fd73afb78986b998851828a669d722fb15d78068fc3c19ba0f
#           = uz5n1psnkqsgr0vztxprf2fsw2m546j2m6frq8qzbwu04ushy43ux3
#   a key that no server holds (for "wrong key" tests):
#           uz5ff8w2prur0vr7yut61ykyhdlg730frvc1tz8f5sdqz1tj6yjzy1
#
# `env` prints `export NAME='value'` lines (also printed by `start`):
#   LAB_DIR               state: configs, zone copies, *.pid, *.log
#   LAB_ROOT_HINTS        $LAB_DIR/root.hints
#   LAB_ROOT_IP LAB_TEST_IP LAB_PLAIN_IP LAB_CURVE_BACKEND_IP LAB_CURVE_IP
#   LAB_CURVE_KEY         uz5jwc7p... (the uz5 label of the CurveDNS key)
#   LAB_CURVE_NS          KEYNS (with the final dot)
#   LAB_CURVE_PUBKEY      the public key in hex
#   LAB_WRONG_KEY         uz5ff8w2... (a key no server holds)
#   LAB_FAULT_IP LAB_FAULT_GOOD_IP  the NSD of fault.lab., g.fault.lab.
#   LAB_TLD_IP LAB_EXAMPLE_IP LAB_OTHER_IP LAB_DEAD_NS_IP LAB_LAME_IP
#                         the NSD of lab., example.lab., other.lab.,
#                         dead.lab., lame.lab.
#   LAB_DEAD_IPS          the dead addresses (127.53.1.254 127.53.1.253)
#   LAB_SPOOF_IP          127.53.1.252, the address of spoof.lab.'s server
#   LAB_FLOOD_IP          127.53.1.249, flood.lab.'s server (tests/e2e/flood.py)
#   LAB_RELAY_IP          127.53.1.248, relay.lab.'s published DNSCurve
#                         server (tests/e2e/curveproxy.py -> 127.53.0.5)
#   LAB_CURVETLD_IP LAB_CURVETLD_BACKEND_IP LAB_CURVETLD_KEY
#   LAB_SECURE_IP LAB_SECURE_BACKEND_IP LAB_SECURE_KEY
#                         CurveDNS, its NSD back end and its uz5 label for
#                         curve. and secure.curve.
#   LAB_ZONES             "zone@address ..." for every zone: the NSD that
#                         holds it (the reference for a name is the holder
#                         of its longest matching zone)
#   LAB_BACKENDS          the back-end addresses behind CurveDNS
#   LAB_CURVEDNS_LOGS     the CurveDNS log files
#
# Logs: $LAB_DIR/nsd-NAME.log (NAME = root, test, plain, curveback, tld,
# example, other, dead, lame, curvetldback, secureback) and the CurveDNS
# logs $LAB_DIR/curvedns.log (127.53.0.5), curvedns-tld.log (127.53.2.1),
# curvedns-secure.log (127.53.2.3); CURVEDNS_DEBUG=4: several lines per
# packet that tests may count, e.g.
# "event_udp_ext_cb(): received UDP query",
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

LAB_TLD_IP=127.53.1.1
LAB_EXAMPLE_IP=127.53.1.2
LAB_OTHER_IP=127.53.1.3
LAB_DEAD_NS_IP=127.53.1.4
LAB_LAME_IP=127.53.1.5
LAB_DEAD_IPS="127.53.1.254 127.53.1.253"
LAB_SPOOF_IP=127.53.1.252
LAB_FLOOD_IP=127.53.1.249
LAB_RELAY_IP=127.53.1.248

LAB_CURVETLD_IP=127.53.2.1
LAB_CURVETLD_BACKEND_IP=127.53.2.2
LAB_CURVETLD_KEY=uz503mwwxptrjdltf3s2199ygqn1vwjsm0psw6b1y8qlsp4138y5z6
LAB_CURVETLD_SECRET=de01edc70fc0a2c747a6c766551eef9f533a7fc55f1561ad4ed5565da3953f91
LAB_SECURE_IP=127.53.2.3
LAB_SECURE_BACKEND_IP=127.53.2.4
LAB_SECURE_KEY=uz5n1psnkqsgr0vztxprf2fsw2m546j2m6frq8qzbwu04ushy43ux3
LAB_SECURE_SECRET=42cded16d84e9a1bcdfa69f514c2b8900ba19198d5122cf00991b34d33c47374

LAB_FAULT_IP=127.53.3.1
LAB_FAULT_GOOD_IP=127.53.3.2

# The NSD instances: name, address, then zone=file pairs separated by
# commas (one NSD may hold several zones).
NSD_SERVERS="root:$LAB_ROOT_IP:.=root.zone
test:$LAB_TEST_IP:test.=test.zone
plain:$LAB_PLAIN_IP:plain.test.=plain.test.zone
curveback:$LAB_CURVE_BACKEND_IP:curve.test.=curve.test.zone,boxed.lab.=boxed.lab.zone,relay.lab.=relay.lab.zone
tld:$LAB_TLD_IP:lab.=lab.zone
example:$LAB_EXAMPLE_IP:example.lab.=example.lab.zone
other:$LAB_OTHER_IP:other.lab.=other.lab.zone
dead:$LAB_DEAD_NS_IP:dead.lab.=dead.lab.zone
lame:$LAB_LAME_IP:lame.lab.=lame.lab.zone
curvetldback:$LAB_CURVETLD_BACKEND_IP:curve.=curve.zone
secureback:$LAB_SECURE_BACKEND_IP:secure.curve.=secure.curve.zone
fault:$LAB_FAULT_IP:fault.lab.=fault.lab.zone
faultgood:$LAB_FAULT_GOOD_IP:g.fault.lab.=g.fault.lab.zone"

# The CurveDNS instances: name (pid file NAME.pid, log NAME.log), address,
# back-end address, secret key, and one zone it publishes (for probes).
CURVEDNS_SERVERS="curvedns:$LAB_CURVE_IP:$LAB_CURVE_BACKEND_IP:$LAB_CURVE_SECRET:curve.test.
curvedns-tld:$LAB_CURVETLD_IP:$LAB_CURVETLD_BACKEND_IP:$LAB_CURVETLD_SECRET:curve.
curvedns-secure:$LAB_SECURE_IP:$LAB_SECURE_BACKEND_IP:$LAB_SECURE_SECRET:secure.curve."

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
  # a server that died long ago may have left its pid to another
  # process (pid_max is often 32768): signal only NSD or CurveDNS
  exe=$(readlink "/proc/$pid/exe" 2>/dev/null) || exe=
  case ${exe##*/} in
    nsd|curvedns) ;;
    *) say "$pf: pid $pid is now ${exe:-unknown}, not a lab server: left alone"
       rm -f "$pf"; return 0;;
  esac
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

# pid_files: every pid file the lab may have written.
pid_files() {
  for pf in "$LAB_DIR"/curvedns*.pid "$LAB_DIR"/nsd-*.pid; do
    [ -e "$pf" ] && echo "$pf"
  done
}

do_stop() {
  need_lab_dir
  rc=0
  for pf in $(pid_files); do
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

write_nsd_conf() { # NAME IP ZONE=FILE[,ZONE=FILE...]
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
	# no response rate limiting: every resolver under test (and the
	# benchmarks' thousands of names a second) comes from 127.53.100.x
	rrl-ratelimit: 0
	rrl-whitelist-ratelimit: 0
remote-control:
	control-enable: no
EOF
  for zf in $(printf '%s' "$3" | tr , ' '); do
    printf 'zone:\n\tname: "%s"\n\tzonefile: "%s"\n' "${zf%%=*}" "${zf#*=}" \
      >> "$LAB_DIR/nsd-$1.conf"
  done
}

# prepare_nsd NAME IP ZONE=FILE[,...]: config and zone checks (fail loudly).
prepare_nsd() {
  write_nsd_conf "$@"
  mkdir -p "$LAB_DIR/xfr-$1" || return 1
  nsd-checkconf "$LAB_DIR/nsd-$1.conf" >&2 ||
    { say "nsd-checkconf failed for $LAB_DIR/nsd-$1.conf"; return 1; }
  for zf in $(printf '%s' "$3" | tr , ' '); do
    (cd "$LAB_DIR" && nsd-checkzone "${zf%%=*}" "${zf#*=}") >&2 ||
      { say "nsd-checkzone failed for $zf"; return 1; }
  done
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
    IFS=: read -r name ip zones <<EOF
$entry
EOF
    prepare_nsd "$name" "$ip" "$zones" || return 1
  done
  for entry in $NSD_SERVERS; do
    name=${entry%%:*}
    spawn "nsd-$name" nsd -d -c "$LAB_DIR/nsd-$name.conf"
  done
  mkdir -p "$LAB_DIR/curvedns-root" || return 1
  for entry in $CURVEDNS_SERVERS; do
    IFS=: read -r name ip back secret zone <<EOF
$entry
EOF
    # CurveDNS needs UID and GID (it drops root after binding) and chroots
    # into ROOT; env(1) because UID is read-only in bash.
    spawn "$name" env CURVEDNS_PRIVATE_KEY="$secret" \
      UID="$(id -u nobody)" GID="$(id -g nobody)" \
      ROOT="$LAB_DIR/curvedns-root" CURVEDNS_DEBUG=4 \
      curvedns "$ip" 53 "$back" 53
    # CurveDNS writes its log to stderr.
    ln -sf "$name.out" "$LAB_DIR/$name.log"
  done
}

# probes: "address:zone" for every zone of every server (NSD and CurveDNS).
probes() {
  for entry in $NSD_SERVERS; do
    IFS=: read -r name ip zones <<EOF
$entry
EOF
    for zf in $(printf '%s' "$zones" | tr , ' '); do echo "$ip:${zf%%=*}"; done
  done
  for entry in $CURVEDNS_SERVERS; do
    IFS=: read -r name ip back secret zone <<EOF
$entry
EOF
    echo "$ip:$zone"
  done
}

# lab_zones: "zone@address" of the NSD holding each zone, one line.
lab_zones() {
  for entry in $NSD_SERVERS; do
    IFS=: read -r name ip zones <<EOF
$entry
EOF
    for zf in $(printf '%s' "$zones" | tr , ' '); do
      printf '%s@%s ' "${zf%%=*}" "$ip"
    done
  done | sed 's/ $//'
}

# all_running: every pid file names a live process.
all_running() {
  for pf in $(pid_files); do
    if ! alive "$(cat "$pf")"; then
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
    for p in $(probes); do
      answers "${p%%:*}" "${p#*:}" || pending="$pending $p"
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

# check_free: no server of ours runs in LAB_DIR, and nothing answers on
# any lab address (the dead addresses included: they must stay dead).
check_free() {
  if [ -n "${LAB_DIR:-}" ] && [ -d "$LAB_DIR" ]; then
    for pf in $(pid_files); do
      alive "$(cat "$pf")" &&
        die "a lab is already running in $LAB_DIR ($pf); stop it first"
    done
  fi
  for ip in $(probes | sed 's/:.*//' | sort -u) $LAB_DEAD_IPS $LAB_SPOOF_IP \
            $LAB_FLOOD_IP $LAB_RELAY_IP; do
    if listening_on "$ip" ||
       dig +time=1 +tries=1 +norec "@$ip" . SOA >/dev/null 2>&1; then
      die "port 53 of $ip is already in use (another lab running?)"
    fi
  done
}

do_start() {
  [ "$(id -u)" -eq 0 ] ||
    die "must run as root (binds port 53 on 127.53.x.y)"
  need_tools
  check_free
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

# down: stop every server (an outage), keep LAB_DIR for `up`.
do_down() {
  need_lab_dir
  rc=0
  for pf in $(pid_files); do
    stop_pidfile "$pf" || rc=1
  done
  return $rc
}

# up: start the servers of LAB_DIR again after `down`.
do_up() {
  need_lab_dir
  for pf in $(pid_files); do
    alive "$(cat "$pf")" && die "$pf: still running (up after down only)"
  done
  if start_servers && wait_ready; then
    say "up again in $LAB_DIR"
    return 0
  fi
  say "up failed; logs follow"
  dump_logs
  return 1
}

do_status() {
  need_lab_dir
  rc=0
  for pf in $(pid_files); do
    pid=$(cat "$pf")
    if alive "$pid"; then st=running; else st=dead; rc=1; fi
    printf '%-16s pid %-7s %s\n' "$(basename "$pf" .pid)" "$pid" "$st"
  done
  for p in $(probes); do
    st=answers
    answers "${p%%:*}" "${p#*:}" || { st="NO ANSWER"; rc=1; }
    printf '%-16s %-14s %s\n' "${p%%:*}" "${p#*:}" "$st"
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
export LAB_TLD_IP='$LAB_TLD_IP'
export LAB_EXAMPLE_IP='$LAB_EXAMPLE_IP'
export LAB_OTHER_IP='$LAB_OTHER_IP'
export LAB_DEAD_NS_IP='$LAB_DEAD_NS_IP'
export LAB_LAME_IP='$LAB_LAME_IP'
export LAB_DEAD_IPS='$LAB_DEAD_IPS'
export LAB_SPOOF_IP='$LAB_SPOOF_IP'
export LAB_FLOOD_IP='$LAB_FLOOD_IP'
export LAB_RELAY_IP='$LAB_RELAY_IP'
export LAB_CURVETLD_IP='$LAB_CURVETLD_IP'
export LAB_CURVETLD_BACKEND_IP='$LAB_CURVETLD_BACKEND_IP'
export LAB_CURVETLD_KEY='$LAB_CURVETLD_KEY'
export LAB_SECURE_IP='$LAB_SECURE_IP'
export LAB_SECURE_BACKEND_IP='$LAB_SECURE_BACKEND_IP'
export LAB_SECURE_KEY='$LAB_SECURE_KEY'
export LAB_FAULT_IP='$LAB_FAULT_IP'
export LAB_FAULT_GOOD_IP='$LAB_FAULT_GOOD_IP'
export LAB_ZONES='$(lab_zones)'
export LAB_BACKENDS='$LAB_CURVE_BACKEND_IP $LAB_CURVETLD_BACKEND_IP $LAB_SECURE_BACKEND_IP'
export LAB_CURVEDNS_LOGS='$LAB_DIR/curvedns.log $LAB_DIR/curvedns-tld.log $LAB_DIR/curvedns-secure.log'
EOF
}

case ${1:-} in
  start) do_start ;;
  stop) do_stop ;;
  status) do_status ;;
  env) do_env ;;
  down) do_down ;;
  up) do_up ;;
  *) echo "usage: $0 start|stop|status|env|down|up" >&2; exit 1 ;;
esac
