#!/bin/sh
# tests/lab/signed.sh: the SIGNED loopback lab, a small DNSSEC hierarchy
# for validators: a signed root with a private trust anchor, a signed TLD
# sec. and below it secure, insecure and bogus zones, all signed at start
# time with fresh keys (bind9-utils: dnssec-keygen, dnssec-signzone,
# dnssec-dsfromkey; ldnsutils' ldns-signzone for the one zone whose NSEC3
# iterations dnssec-signzone refuses; python3 for the KeyTrap zone,
# signed/keytrap.py). The zones and what a validator
# must say about each: tests/lab/signed/README.
#
# Usage:  tests/lab/signed.sh start|stop|env|cases
#
#   out=$(tests/lab/signed.sh start) || exit 1  # keys, signing, servers
#   eval "$out"                                  # sets SIGNED_* below
#   ... tests ...
#   tests/lab/signed.sh stop                     # needs SIGNED_DIR
#
# It is separate from tests/lab/lab.sh (127.53.x.y) and may run beside it:
# NSD on 127.54.1.1-4 and .6, CurveDNS on 127.54.1.5 (in front of .6),
# port 53 (root only: `start` refuses otherwise).
# 127.54.100.0/24 is never used by the lab: it is for the resolvers under
# test (tests/e2e/signed_lab.sh puts Unbound on 127.54.100.1). Nothing is
# written outside $SIGNED_DIR and nothing in /etc is read or changed; each
# server is stopped by the pid in $SIGNED_DIR/*.pid (TERM, up to 5 s, then
# KILL), never by name. Logs: $SIGNED_DIR/nsd-NAME.log, curvedns.log
# (CURVEDNS_DEBUG=4: "sending DNS response in regular format" for each
# forwarded plain answer).
#
# `cases` prints the case table (signed/cases) as the tests read it: one
# "WANT NAME TYPE CC" line per case (CC filled in from WANT where the
# table leaves it out; every "L^N" in NAME spelled out as N labels L).
#
# `env` prints `export NAME='value'` lines (also printed by `start`):
#   SIGNED_DIR           state: keys/, zones (ZONE.in unsigned, ZONE.signed
#                        served), NSD configs, *.pid, *.log
#   SIGNED_ROOT_HINTS    $SIGNED_DIR/root.hints (a.root.sec. 127.54.1.1)
#   SIGNED_TA_DS         $SIGNED_DIR/root.ds: the trust anchor as a DS
#                        record in zone-file form
#   SIGNED_TA_DNSKEY     $SIGNED_DIR/root.dnskey: the same anchor as the
#                        root's DNSKEY record in zone-file form
#   SIGNED_ROOT_IP SIGNED_TLD_IP SIGNED_LEAF_IP SIGNED_BELOW_IP
#                        the NSD of ".", of "sec.", of every zone below
#                        sec. and of unsigned.nsec3optout.sec.
#   SIGNED_CURVE_IP SIGNED_CURVE_BACKEND_IP SIGNED_CURVE_KEY
#                        CurveDNS of curve.sec., the NSD behind it, and the
#                        uz5 label of its key (the server of curve.sec. is
#                        SIGNED_CURVE_KEY.ns1.curve.sec.); the NSD also
#                        holds curveup.sec., delegated to it by a plain
#                        name, whose signed apex NS set names
#                        SIGNED_CURVE_KEY.ns1.curveup.sec. (CurveDNS)
#   SIGNED_ZONES         "zone@address ..." for every zone: the NSD that
#                        holds it
#
# SIGNED_DIR: taken from the environment; when unset, `start` makes a
# fresh one with mktemp -d, and `stop` removes a directory `start` made
# (unless SIGNED_KEEP=1). One lab per machine at a time (fixed
# addresses): the caller holds the lab lock (flock on fd 9 opened on
# ${TMPDIR:-/tmp}/curvecache-lab.lock), as tests/e2e/signed_lab.sh does.
# Exit status: 0 = done, 1 = failure (message on stderr).

set -u

SIGNED_ROOT_IP=127.54.1.1
SIGNED_TLD_IP=127.54.1.2
SIGNED_LEAF_IP=127.54.1.3
SIGNED_BELOW_IP=127.54.1.4
# curve.sec.: CurveDNS (key TEST of tests/vectors/dnscurve.vec,
# the one tests/lab/lab.sh also uses; test data, published) in front of an
# NSD holding the signed zone.
SIGNED_CURVE_IP=127.54.1.5
SIGNED_CURVE_BACKEND_IP=127.54.1.6
CURVE_KEY=uz5jwc7p039nvnbsd1y6wkqzqp5mrt7psuj024538xmqd280z0ynh2
CURVE_SECRET=54513cc5055949401fc46dfe2c666cbcf4fcf43a1dac120944c12b0e8d09fa07

# The zones below sec.: name, how it is signed (see sign_leaf) and the
# key algorithm. Each is served by $SIGNED_LEAF_IP.
LEAVES="alg8.sec:nsec:RSASHA256
alg13.sec:nsec3:ECDSAP256SHA256
alg15.sec:nsec3-0:ED25519
alg16.sec:nsec:ED448
nsec3optout.sec:optout:ECDSAP256SHA256
insecure.sec:unsigned:-
expired.sec:expired:ECDSAP256SHA256
future.sec:future:ECDSAP256SHA256
badsig.sec:badsig:ECDSAP256SHA256
nodnskey.sec:nodnskey:ECDSAP256SHA256
stripped.sec:stripped:ECDSAP256SHA256
hi-iter.sec:hi-iter:ECDSAP256SHA256
unsupported.sec:unsupported:ECDSAP256SHA256
gost.sec:gost:ECDSAP256SHA256
keytrap.sec:keytrap:RSASHA256
hashflood.sec:hashflood:ECDSAP256SHA256"
BELOW=unsigned.nsec3optout.sec
# SIGNED_BENCH_NAMES=N (optional, for tests/bench/bench_validate.sh): two
# more zones on $SIGNED_LEAF_IP, each with the records of leaf.zone and
# N names www0..wwwN-1 A (TTL a day): many.sec. (13, NSEC3) and manyu.sec.
# (unsigned, no DS: insecure). Unset, the lab is as before.
BENCH_N=${SIGNED_BENCH_NAMES:-}
case $BENCH_N in
  '') ;;
  *[!0-9]* | 0*) echo "signed: SIGNED_BENCH_NAMES: not a count" >&2; exit 1 ;;
  *) LEAVES="$LEAVES
many.sec:nsec3:ECDSAP256SHA256
manyu.sec:unsigned:-" ;;
esac
# The NSEC3 salt of every NSEC3 zone but alg15.sec (no salt, 0 iterations)
# and hashflood.sec (the longest salt there is: 255 bytes).
SALT=5ca1ab1e
LONGSALT=$(awk 'BEGIN { for (i = 0; i < 255; i++) printf "%02x", i }')
DAY=86400

SRC=$(cd "$(dirname "$0")/signed" && pwd) || exit 1
MARK=.created-by-signed-start

say() { printf 'signed: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }

# live PID: the process exists and is not a zombie.
live() {
  kill -0 "$1" 2>/dev/null &&
    ! grep -q '^State:[[:space:]]*Z' "/proc/$1/status" 2>/dev/null
}

# ---- keys and signing ----

# newkey ZONE ALG: a fresh key-signing key (also signs the zone: -z) in
# $K; prints its path without .key/.private.
newkey() {
  case $2 in RSA*) bits="-b 2048" ;; *) bits= ;; esac
  # shellcheck disable=SC2086 # bits is empty or two words
  kname=$(dnssec-keygen -q -K "$K" -a "$2" $bits -f KSK "$1") || return 1
  echo "$K/$kname"
}

# ds KEY: the SHA-256 DS record of KEY (owner, IN, DS, tag alg 2 digest).
ds() { dnssec-dsfromkey -2 "$1.key"; }

# signzone ZONE KEY [dnssec-signzone options]: $D/FILE.in (which already
# holds the key) to $D/FILE.signed, one record per line; FILE is ZONE,
# "root" for the root. -d: its dsset-ZONE file goes to $D, not to cwd.
signzone() {
  sz=$1 sk=$2 sf=$1
  [ "$sz" = . ] && sf=root
  shift 2
  dnssec-signzone -q -z -O full -K "$K" -d "$D" -o "$sz" -f "$D/$sf.signed" \
    "$@" "$D/$sf.in" "$sk" >/dev/null
}

# tamper ZONE OWNER TYPE: flip the first signature character of the RRSIG
# covering OWNER/TYPE (fields: owner ttl IN RRSIG type alg labels ottl
# expiration inception tag signer signature...).
tamper() {
  awk -v o="$2." -v t="$3" '
    $1 == o && $4 == "RRSIG" && $5 == t {
      c = substr($13, 1, 1); $13 = (c == "A" ? "B" : "A") substr($13, 2)
    } { print }' "$D/$1.signed" >"$D/$1.tmp" && mv "$D/$1.tmp" "$D/$1.signed"
}

# strip ZONE OWNER TYPE: drop the RRSIG covering OWNER/TYPE.
strip() {
  awk -v o="$2." -v t="$3" '!($1 == o && $4 == "RRSIG" && $5 == t)' \
    "$D/$1.signed" >"$D/$1.tmp" && mv "$D/$1.tmp" "$D/$1.signed"
}

# sign_leaf ZONE MODE ALG IP [NS]: write $D/ZONE.in from leaf.zone (its
# server named NS, default ns1, at IP; and ZONE.extra), sign it as MODE
# says, and append the DS the parent is to publish (if any) to $D/sec.ds.
sign_leaf() {
  z=$1 mode=$2 alg=$3
  sed "s/@NSIP@/$4/; s/@NS@/${5:-ns1}/" "$SRC/leaf.zone" >"$D/$z.in" ||
    return 1
  [ -f "$SRC/$z.extra" ] && { cat "$SRC/$z.extra" >>"$D/$z.in" || return 1; }
  [ -f "$D/$z.extra" ] && { cat "$D/$z.extra" >>"$D/$z.in" || return 1; }
  if [ "$mode" = unsigned ]; then
    cp "$D/$z.in" "$D/$z.signed"
    return
  fi
  key=$(newkey "$z" "$alg") && cat "$key.key" >>"$D/$z.in" || return 1
  now=$(date +%s)
  case $mode in
    nsec3) signzone "$z" "$key" -3 "$SALT" -H 5 ;;
    nsec3-0) signzone "$z" "$key" -3 - -H 0 ;;
    optout) signzone "$z" "$key" -3 "$SALT" -H 5 -A ;;
    # -P: no self-check; 10 days off, well beyond any validator's allowed
    # clock skew (Unbound: at most a day)
    expired) signzone "$z" "$key" -P -s $((now - 40 * DAY)) \
               -e $((now - 10 * DAY)) ;;
    future) signzone "$z" "$key" -P -s $((now + 10 * DAY)) \
              -e $((now + 40 * DAY)) ;;
    badsig) signzone "$z" "$key" && tamper "$z" "www.$z" A ;;
    stripped) signzone "$z" "$key" && strip "$z" "www.$z" A ;;
    # KeyTrap: 39 more keys with the tag of the real one (signed into the
    # DNSKEY set), and 40 signatures with that tag over www A, none good
    keytrap) python3 "$SRC/keytrap.py" keys "$key.key" 39 >>"$D/$z.in" &&
      signzone "$z" "$key" &&
      python3 "$SRC/keytrap.py" sigs "$D/$z.signed" "www.$z." A 40 \
        >"$D/$z.tmp" && mv "$D/$z.tmp" "$D/$z.signed" ;;
    # CVE-2023-50868: 50 iterations (the most a validator accepts by
    # default, RFC 9276), a 255-byte salt, deep names (hashflood.sec.extra)
    hashflood) signzone "$z" "$key" -3 "$LONGSALT" -H 50 ;;
    hi-iter) ldns-signzone -n -t 200 -s "$SALT" -o "$z" -f "$D/$z.signed" \
               "$D/$z.in" "$key" 2>/dev/null ;;
    *) signzone "$z" "$key" ;;
  esac || { say "signing $z ($mode) failed"; return 1; }
  case $mode in
    nodnskey) other=$(newkey "$z" "$alg") && ds "$other" ;;
    # the real digest under algorithm 253 (PRIVATEDNS): no validator has it
    unsupported) ds "$key" | awk '{ $5 = 253; print }' ;;
    # digest type 3 (GOST R 34.11-94, RFC 5933; RFC 8624: MUST NOT be
    # validated): the 32 bytes are the SHA-256 digest, as Debian 12 has
    # no GOST tool, so only a validator without GOST calls it insecure
    gost) ds "$key" | awk '{ $6 = 3; print }' ;;
    *) ds "$key" ;;
  esac >>"$D/sec.ds"
}

# bench_zones: with SIGNED_BENCH_NAMES, the names of many.sec. and
# manyu.sec. ($D/ZONE.extra, which sign_leaf appends; the $TTL line also
# covers the key appended after them) and their delegations in sec.
# ($D/sec.extra); without, an empty $D/sec.extra.
bench_zones() {
  : >"$D/sec.extra" || return 1
  [ -n "$BENCH_N" ] || return 0
  for z in many manyu; do
    awk -v n="$BENCH_N" 'BEGIN { print "$TTL 86400"
      for (i = 0; i < n; i++)
        printf "www%d\tA\t198.51.%d.%d\n", i, int(i / 250) % 250, i % 250 + 1
    }' >"$D/$z.sec.extra" &&
      printf '%s\tNS\tns1.%s\nns1.%s\tA\t%s\n' "$z" "$z" "$z" \
        "$SIGNED_LEAF_IP" >>"$D/sec.extra" || return 1
  done
}

# sign_all: every zone, bottom up; the trust anchor files.
sign_all() {
  K=$SIGNED_DIR/keys D=$SIGNED_DIR
  mkdir -p "$K" && : >"$D/sec.ds" && bench_zones || return 1
  for entry in $LEAVES; do
    IFS=: read -r z mode alg <<EOF
$entry
EOF
    sign_leaf "$z" "$mode" "$alg" "$SIGNED_LEAF_IP" || return 1
  done
  sign_leaf "$BELOW" unsigned - "$SIGNED_BELOW_IP" || return 1
  sign_leaf curve.sec nsec ECDSAP256SHA256 "$SIGNED_CURVE_IP" \
    "$CURVE_KEY.ns1" || return 1
  # the same apex records; sec. delegates it to a plain name (sec.zone)
  sign_leaf curveup.sec nsec ECDSAP256SHA256 "$SIGNED_CURVE_IP" \
    "$CURVE_KEY.ns1" || return 1
  tkey=$(newkey sec ECDSAP256SHA256) &&
    cat "$SRC/sec.zone" "$D/sec.extra" "$D/sec.ds" "$tkey.key" \
      >"$D/sec.in" &&
    signzone sec "$tkey" || { say "signing sec. failed"; return 1; }
  rkey=$(newkey . RSASHA256) &&
    { cat "$SRC/root.zone" "$rkey.key"; ds "$tkey"; } >"$D/root.in" &&
    signzone . "$rkey" ||
    { say "signing . failed"; return 1; }
  ds "$rkey" >"$D/root.ds" && grep -v '^;' "$rkey.key" >"$D/root.dnskey"
}

# ---- servers ----

# servers: "name ip zone=file,..." for each NSD.
servers() {
  leaves=$(for entry in $LEAVES; do printf '%s.=%s.signed,' "${entry%%:*}" \
    "${entry%%:*}"; done)
  echo "root $SIGNED_ROOT_IP .=root.signed"
  echo "tld $SIGNED_TLD_IP sec.=sec.signed"
  echo "leaf $SIGNED_LEAF_IP ${leaves%,}"
  echo "below $SIGNED_BELOW_IP $BELOW.=$BELOW.signed"
  echo "curveback $SIGNED_CURVE_BACKEND_IP" \
    "curve.sec.=curve.sec.signed,curveup.sec.=curveup.sec.signed"
}

# nsd_conf NAME IP ZONES: the config of one NSD, in the foreground, no
# database, no remote control, no rate limiting, files in $SIGNED_DIR.
nsd_conf() {
  printf '# NSD %s of the signed lab (tests/lab/signed.sh)\nserver:\n' "$1"
  for kv in "ip-address: $2" "port: 53" "do-ip4: yes" "do-ip6: no" \
      "reuseport: no" "server-count: 1" 'username: ""' 'chroot: ""' \
      "zonesdir: \"$SIGNED_DIR\"" 'database: ""' 'pidfile: ""' \
      "zonelistfile: \"$SIGNED_DIR/nsd-$1.zone.list\"" \
      "xfrdfile: \"$SIGNED_DIR/nsd-$1.xfrd.state\"" \
      "xfrdir: \"$SIGNED_DIR/xfr-$1\"" \
      "cookie-secret-file: \"$SIGNED_DIR/nsd-$1.cookiesecrets\"" \
      "logfile: \"$SIGNED_DIR/nsd-$1.log\"" "verbosity: 1" \
      "rrl-ratelimit: 0" "rrl-whitelist-ratelimit: 0"; do
    printf '\t%s\n' "$kv"
  done
  printf 'remote-control:\n\tcontrol-enable: no\n'
  for zf in $(echo "$3" | tr , ' '); do
    printf 'zone:\n\tname: "%s"\n\tzonefile: "%s"\n' "${zf%%=*}" "${zf#*=}"
  done
}

start_servers() {
  servers | while read -r name ip zones; do
    mkdir -p "$SIGNED_DIR/xfr-$name" &&
      nsd_conf "$name" "$ip" "$zones" >"$SIGNED_DIR/nsd-$name.conf" &&
      nsd-checkconf "$SIGNED_DIR/nsd-$name.conf" >&2 || exit 1
    for zf in $(echo "$zones" | tr , ' '); do
      (cd "$SIGNED_DIR" && nsd-checkzone "${zf%%=*}" "${zf#*=}" >/dev/null) ||
        { say "nsd-checkzone failed for $zf"; exit 1; }
    done
    nsd -d -c "$SIGNED_DIR/nsd-$name.conf" </dev/null \
      >"$SIGNED_DIR/nsd-$name.out" 2>&1 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&- &
    echo $! >"$SIGNED_DIR/nsd-$name.pid"
  done || return 1
  # CurveDNS needs UID and GID (it drops root after binding) and chroots
  # into ROOT; env(1) because UID is read-only in bash. Its log: stderr.
  mkdir -p "$SIGNED_DIR/curvedns-root" || return 1
  env CURVEDNS_PRIVATE_KEY="$CURVE_SECRET" UID="$(id -u nobody)" \
    GID="$(id -g nobody)" ROOT="$SIGNED_DIR/curvedns-root" CURVEDNS_DEBUG=4 \
    curvedns "$SIGNED_CURVE_IP" 53 "$SIGNED_CURVE_BACKEND_IP" 53 </dev/null \
    >"$SIGNED_DIR/curvedns.log" 2>&1 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&- &
  echo $! >"$SIGNED_DIR/curvedns.pid"
}

# zones_at: "zone@ip" for every zone, one per line.
zones_at() {
  servers | while read -r name ip zones; do
    for zf in $(echo "$zones" | tr , ' '); do echo "${zf%%=*}@$ip"; done
  done
}

# ready ZONE@IP: the server gives an authoritative answer to ZONE SOA.
ready() {
  dig +time=1 +tries=1 +norec "@${1#*@}" "${1%@*}" SOA 2>/dev/null |
    grep -q '^;; flags:[^;]* aa[ ;]'
}

wait_ready() {
  n=0
  while [ $n -lt 50 ]; do
    for pf in "$SIGNED_DIR"/*.pid; do
      live "$(cat "$pf")" || { say "$pf: server exited"; return 1; }
    done
    pending=
    for za in $(zones_at) "curve.sec.@$SIGNED_CURVE_IP"; do
      ready "$za" || pending="$pending $za"
    done
    [ -z "$pending" ] && return 0
    sleep 0.2
    n=$((n + 1))
  done
  say "no answer within 10 s from:$pending"
  return 1
}

# stop_pid FILE: TERM the NSD or CurveDNS whose pid FILE holds (and its
# children), up to 5 s, then KILL; a pid that is no longer one of them
# (the server died long ago, the pid was reused) is left alone.
stop_pid() {
  pid=$(cat "$1")
  rm -f "$1"
  case $pid in '' | *[!0-9]*) return 1 ;; esac
  live "$pid" || return 0
  exe=$(readlink "/proc/$pid/exe" 2>/dev/null) || exe=
  case ${exe##*/} in
    nsd | curvedns) ;;
    *) say "pid $pid is ${exe:-gone}, not a lab server: left alone"; return 0 ;;
  esac
  kids=$(cat /proc/"$pid"/task/*/children 2>/dev/null)
  # shellcheck disable=SC2086 # lists of pids
  kill -TERM "$pid" $kids 2>/dev/null
  n=0
  while live "$pid" && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
  for p in $pid $kids; do live "$p" && kill -KILL "$p" 2>/dev/null; done
  sleep 0.1
  ! live "$pid"
}

do_stop() {
  [ -n "${SIGNED_DIR:-}" ] && [ -d "$SIGNED_DIR" ] ||
    die "SIGNED_DIR is not set or not a directory"
  rc=0
  for pf in "$SIGNED_DIR"/*.pid; do
    [ -f "$pf" ] || continue
    stop_pid "$pf" || rc=1
  done
  if [ $rc -eq 0 ] && [ -f "$SIGNED_DIR/$MARK" ] &&
    [ "${SIGNED_KEEP:-0}" != 1 ]; then
    rm -rf "$SIGNED_DIR"
  fi
  return $rc
}

do_env() {
  [ -n "${SIGNED_DIR:-}" ] || die "SIGNED_DIR is not set"
  cat <<EOF
export SIGNED_DIR='$SIGNED_DIR'
export SIGNED_ROOT_HINTS='$SIGNED_DIR/root.hints'
export SIGNED_TA_DS='$SIGNED_DIR/root.ds'
export SIGNED_TA_DNSKEY='$SIGNED_DIR/root.dnskey'
export SIGNED_ROOT_IP='$SIGNED_ROOT_IP'
export SIGNED_TLD_IP='$SIGNED_TLD_IP'
export SIGNED_LEAF_IP='$SIGNED_LEAF_IP'
export SIGNED_BELOW_IP='$SIGNED_BELOW_IP'
export SIGNED_CURVE_IP='$SIGNED_CURVE_IP'
export SIGNED_CURVE_BACKEND_IP='$SIGNED_CURVE_BACKEND_IP'
export SIGNED_CURVE_KEY='$CURVE_KEY'
export SIGNED_ZONES='$(zones_at | tr '\n' ' ' | sed 's/ $//')'
EOF
}

do_start() {
  [ "$(id -u)" -eq 0 ] || die "must run as root (binds port 53 on 127.54.1.x)"
  for t in nsd nsd-checkconf nsd-checkzone dig dnssec-keygen \
      dnssec-signzone dnssec-dsfromkey ldns-signzone python3 curvedns; do
    command -v "$t" >/dev/null 2>&1 || die "'$t' not found in PATH"
  done
  for ip in $SIGNED_ROOT_IP $SIGNED_TLD_IP $SIGNED_LEAF_IP $SIGNED_BELOW_IP \
    $SIGNED_CURVE_IP $SIGNED_CURVE_BACKEND_IP; do
    if ss -Hlnut 2>/dev/null | awk '{print $5}' | grep -qxF "$ip:53"; then
      die "port 53 of $ip is in use (another signed lab running?)"
    fi
  done
  if [ -z "${SIGNED_DIR:-}" ]; then
    SIGNED_DIR=$(mktemp -d "${TMPDIR:-/tmp}/curvecache-signed.XXXXXX") ||
      die "mktemp failed"
    : >"$SIGNED_DIR/$MARK"
  fi
  mkdir -p "$SIGNED_DIR" && SIGNED_DIR=$(cd "$SIGNED_DIR" && pwd) ||
    die "cannot use $SIGNED_DIR"
  # every tool runs in SIGNED_DIR: nothing strays into the caller's cwd
  cd "$SIGNED_DIR" || die "cannot enter $SIGNED_DIR"
  if cp "$SRC/root.hints" "$SIGNED_DIR/" && sign_all && start_servers &&
    wait_ready; then
    say "started in $SIGNED_DIR"
    do_env
    return 0
  fi
  say "start failed; logs follow"
  for f in "$SIGNED_DIR"/nsd-*.log "$SIGNED_DIR"/nsd-*.out; do
    [ -f "$f" ] && { printf '==== %s ====\n' "$f"; tail -n 20 "$f"; } >&2
  done
  do_stop
  exit 1
}

# do_cases: signed/cases, comments dropped, CC filled in, L^N expanded.
do_cases() {
  awk '/^#/ || NF < 3 { next }
    { n = $2
      while (match(n, /[a-z0-9-]+\^[0-9]+/)) {
        t = substr(n, RSTART, RLENGTH); k = index(t, "^")
        l = substr(t, 1, k - 1); s = l
        for (i = 1; i < substr(t, k + 1) + 0; i++) s = s "." l
        n = substr(n, 1, RSTART - 1) s substr(n, RSTART + RLENGTH)
      }
      print $1, n, $3, (NF > 3 ? $4 : $1) }' "$SRC/cases"
}

case ${1:-} in
  start) do_start ;;
  stop) do_stop ;;
  env) do_env ;;
  cases) do_cases ;;
  *) echo "usage: $0 start|stop|env|cases" >&2; exit 1 ;;
esac
