#!/bin/sh
# tests/bench/bench_authtls.sh: curvecache resolving from NSD servers
# that answer DNS over TLS on port 853 (opportunistic DoT to
# authoritative servers, RFC 9539, "auth-tls: opportunistic") beside
# itself in plain ("auth-tls: no") and beside Unbound 1.17 (which cannot
# ask authoritative servers over TLS: the plain peer); prints a markdown
# table with the ratios TLS/plain and curvecache/Unbound. Not part of
# make check (a few minutes, root, packages).
#
# Usage (from the build directory, as root; or `make bench-authtls`):
#   sh ../tests/bench/bench_authtls.sh
# Environment: BENCH_RUNS (rounds, median taken; default 3), BENCH_OUT
# (also write the table there), BENCH_KEEP=1 (keep the work directory),
# CURVECACHE (default ./curvecache).
#
# The setup (every address in 127.53.126.0/24, which no lab uses, so the
# lab lock is let go once taken; each process is stopped by its pid):
# - a certificate from a test CA (bench_lib.sh's bench_cert;
#   opportunistic TLS checks none);
# - NSD servers, one process each, on core 1 with dnsperf:
#   127.53.126.1 the root, plain and TLS (853), delegating the rest;
#   127.53.126.2 tlsb., plain and TLS: n0..n999 A and prime A;
#   127.53.126.3 plainb., plain only (853 refused): the same names;
#   127.53.126.4 tlsu., the same names, but served by Unbound (auth-zone,
#   plain and TLS): NSD 4.6 answers only the first of the DNS messages
#   that come in one TLS record until more bytes arrive (see the README),
#   Unbound all of them;
#   127.53.126.41-48 one NSD with c1. .. c8., each delegated to its own
#   address, plain and TLS (the RSS measure);
# - the peers on core 0, one thread, fresh cache, those root hints:
#   curvecache 127.53.126.11 (bench_lib.sh's start_cc: 64m of cache,
#   dnssec: no) and Unbound 127.53.126.12 (start_ub: "iterator", 32m +
#   32m of cache).
# Measured, in turns within each of BENCH_RUNS rounds (each figure the
# median over the rounds), with bench_lib.sh's cold_once (dnsperf -n 1,
# 100 in flight; wall time; the resolver's CPU time from
# /proc/PID/schedstat, i.e. utime + stime at ns precision):
# - (1) tlsb.'s 1,000 names, each resolver fresh and primed with
#   prime.tlsb. A (then 0.5 s, so that curvecache's probes of the root
#   and of tlsb.'s server are over): curvecache auth-tls: no, curvecache
#   opportunistic, Unbound; plus curvecache opportunistic not primed
#   (the cold start with its probes inside the measure), and TCP
#   connections to tlsb.'s server port 853 from the start of the process
#   to its end (syncount.py: SYNs; each a TLS handshake);
# - (1u) the same for tlsu.;
# - (2) the same for plainb. (no TLS there: the probe is refused);
# - (3) RSS per upstream TLS connection: a fresh curvecache asks three
#   names of c1. (the probe between the first and the second), VmRSS,
#   then three of each of c2. .. c8., VmRSS; the growth divided by 7,
#   minus the same done with auth-tls: no (the cache and server state
#   that grow either way); connections up at the end (ss).
set -u
srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
RUNS=${BENCH_RUNS:-3}
CURVECACHE=${CURVECACHE:-$(pwd)/curvecache}
NAMES=1000
CONNS=8
NET=127.53.126
ROOT_IP=$NET.1
TLS_IP=$NET.2
PLAIN_IP=$NET.3
UAUTH_IP=$NET.4
CC_IP=$NET.11
UB_IP=$NET.12

die() { echo "bench_authtls.sh: $*" >&2; exit 1; }
# shellcheck source=tests/bench/bench_lib.sh
. "$srcdir/tests/bench/bench_lib.sh"
bench_own_start bench_authtls $NET unbound nsd nsd-checkconf dnsperf \
  openssl taskset flock python3 dig ss

# ---------------------------------------------------------------- the setup
P=$WORK/pki
bench_cert "$P" ns ns.authtls.bench
NSD_CERT_DIR=$P NSD_CERT=ns

# zone_file ORIGIN NS-IP [LINE...]: ORIGIN's SOA, NS ns1.ORIGIN (at
# NS-IP) and the LINEs, in $WORK/ORIGIN.zone ("root" for ".").
zone_file() {
  zo=$1 zip=$2; shift 2
  zf=${zo%.}; [ "$zo" = . ] && zf=root
  zns=ns1.$zo; [ "$zo" = . ] && zns=a.root.bench.
  {
    echo "\$TTL 86400"
    echo "$zo SOA $zns hostmaster.$zns 1 3600 600 86400 300"
    echo "$zo NS $zns"
    echo "$zns A $zip"
    for l in "$@"; do echo "$l"; done
  } >"$WORK/$zf.zone"
}
# bulk ORIGIN: the NAMES names and prime. appended to ORIGIN's zone
bulk() {
  awk -v n=$NAMES -v o="$1" 'BEGIN { printf "prime.%s A 192.0.2.1\n", o
    for (i = 0; i < n; i++) printf "n%d.%s A 192.0.2.%d\n", i, o,
      i % 250 + 1 }' >>"$WORK/${1%.}.zone"
}
set -- "tlsb. NS ns1.tlsb." "ns1.tlsb. A $TLS_IP" \
  "tlsu. NS ns1.tlsu." "ns1.tlsu. A $UAUTH_IP" \
  "plainb. NS ns1.plainb." "ns1.plainb. A $PLAIN_IP"
k=1
while [ $k -le $CONNS ]; do
  set -- "$@" "c$k. NS ns1.c$k." "ns1.c$k. A $NET.$((40 + k))"
  k=$((k + 1))
done
zone_file . "$ROOT_IP" "$@"
zone_file tlsb. "$TLS_IP"
bulk tlsb.
zone_file tlsu. "$UAUTH_IP"
bulk tlsu.
zone_file plainb. "$PLAIN_IP"
bulk plainb.
k=1
while [ $k -le $CONNS ]; do
  zone_file "c$k." "$NET.$((40 + k))" "*.c$k. A 192.0.2.9"
  k=$((k + 1))
done
bench_root_hints "$ROOT_IP"

nsd_up root yes "$ROOT_IP" .
nsd_up tlsb yes "$TLS_IP" tlsb.
nsd_up plainb no "$PLAIN_IP" plainb.
set --
k=1
while [ $k -le $CONNS ]; do set -- "$@" "c$k."; k=$((k + 1)); done
nsd_up conn yes "$(seq -f "$NET.%g" 41 $((40 + CONNS)) | tr '\n' ' ')" "$@"
# tlsu.: Unbound as the authoritative server (auth-zone), plain and TLS
mkdir -p "$WORK/uauth"
cat >"$WORK/uauth/unbound.conf" <<EOF
server:
	username: ""
	chroot: ""
	directory: "$WORK/uauth"
	pidfile: ""
	use-syslog: no
	logfile: "$WORK/uauth/unbound.log"
	verbosity: 0
	num-threads: 1
	interface: $UAUTH_IP@53
	interface: $UAUTH_IP@853
	tls-port: 853
	tls-service-key: "$P/ns.key"
	tls-service-pem: "$P/ns.pem"
	incoming-num-tcp: 100
	do-ip6: no
	access-control: 127.0.0.0/8 allow
auth-zone:
	name: "tlsu."
	zonefile: "$WORK/tlsu.zone"
	for-downstream: yes
	for-upstream: no
	fallback-enabled: no
remote-control:
	control-enable: no
EOF
CPUS=1
launch uauth unbound -d -c "$WORK/uauth/unbound.conf"
CPUS=0
for s in "$TLS_IP tlsb" "$UAUTH_IP tlsu"; do
  n=0
  until [ "$(dig +tls +time=1 +tries=1 +short "@${s% *}" "n7.${s#* }." A \
    2>&1)" = 192.0.2.8 ]; do
    n=$((n + 1)); [ $n -lt 50 ] || die "${s#* }.'s server: no DoT"
    sleep 0.1
  done
done
for z in tlsb tlsu plainb; do
  awk -v n=$NAMES -v o=$z 'BEGIN { for (i = 0; i < n; i++)
    printf "n%d.%s. A\n", i, o }' >"$WORK/$z.names"
done

# ---------------------------------------------------------------- the peers
# cc_at MODE [PRIME]: curvecache with "auth-tls: MODE"; PRIME (a name)
# asked, then 0.5 s for the probes it started. ub_at [PRIME]: Unbound.
prime() {
  [ -n "${1:-}" ] || return 0
  dig +time=5 +tries=1 "@$2" "$1" A >/dev/null 2>&1
  sleep 0.5
}
cc_at() { start_cc "$CC_IP" "auth-tls: $1"; prime "${2:-}" "$CC_IP"; }
# shellcheck disable=SC2317 # called through tls_cold
ub_at() { start_ub; prime "${1:-}" "$UB_IP"; }

# ---------------------------------------------------------------- measuring
# tls_cold NAME ZONE SERVER-IP STARTER...: cold_once NAME on ZONE's names
# (wall, cpums files) with syncount.py watching SERVER-IP port 853 from
# before the start to after the stop: its SYNs appended to NAME.hs.
tls_cold() {
  tn=$1 tz=$2 tip=$3; shift 3
  case $1 in ub_at) tcip=$UB_IP ;; *) tcip=$CC_IP ;; esac
  sniff_start syncount.py "$WORK/syn" "$tip" 853 120
  tsyn=$SNIFF
  cold_once "$tn" "$tcip" "$WORK/$tz.names" "$@"
  stop_pid "$tsyn"
  awk '$1 == "syn" { print $2 }' "$WORK/syn" >>"$WORK/$tn.hs"
  rm -f "$WORK/syn"
}
# ask3 K: three names of cK., the probe of its server between the first
# and the second
ask3() {
  dig +time=5 +tries=1 "@$CC_IP" "a.c$1." A >/dev/null 2>&1
  sleep 0.3
  for q in b c; do
    dig +time=5 +tries=1 "@$CC_IP" "$q.c$1." A >/dev/null 2>&1
  done
}
# conn_rss NAME MODE: a fresh curvecache (auth-tls: MODE), ask3 of c1.,
# VmRSS, ask3 of c2. .. c8., VmRSS: the growth per further server (kB)
# appended to NAME.rps, the connections up to 853 at the end to NAME.open.
conn_rss() {
  cc_at "$2"
  for k in $(seq 1 $CONNS); do
    ask3 "$k"
    sleep 0.2
    [ "$k" = 1 ] && r1=$(rss_kb "$PID" VmRSS)
  done
  echo "$r1 $(rss_kb "$PID" VmRSS) $(ss -Htnp state established \
    '( dport = :853 )' 2>/dev/null | grep -c "pid=$PID,")" |
    awk -v n=$CONNS -v o="$WORK/$1" '{ print $3 >> (o ".open")
      printf "%.1f\n", ($2 - $1) / (n - 1) >> (o ".rps") }'
  stop_pid "$PID"
}

# ---------------------------------------------------------------- the runs
r=0
while [ "$r" -lt "$RUNS" ]; do
  progress "round $((r + 1)) of $RUNS: tlsb., tlsu., plainb., RSS"
  for z in tlsb tlsu plainb; do
    case $z in tlsb) sip=$TLS_IP ;; tlsu) sip=$UAUTH_IP ;; *) sip=$PLAIN_IP ;;
    esac
    tls_cold "$z-no" $z "$sip" cc_at no "prime.$z."
    tls_cold "$z-op" $z "$sip" cc_at opportunistic "prime.$z."
    tls_cold "$z-opc" $z "$sip" cc_at opportunistic
    tls_cold "$z-ub" $z "$sip" ub_at "prime.$z."
  done
  conn_rss rss-op opportunistic
  conn_rss rss-no no
  r=$((r + 1))
done
for z in tlsb tlsu plainb; do
  for m in no op opc ub; do medians "$z-$m.wall" "$z-$m.cpums" "$z-$m.hs"; done
done
medians rss-op.rps rss-no.rps rss-op.open rss-no.open

# ---------------------------------------------------------------- the table
for z in tlsb tlsu plainb; do
  for m in no op opc ub; do
    awk -v n=$NAMES '{ printf "%.1f\n", $1 * 1e3 / n }' \
      "$WORK/$z-$m.cpums.m" >"$WORK/$z-$m.cpn.m"
  done
done
awk -v a="$(v rss-op.rps)" -v b="$(v rss-no.rps)" \
  'BEGIN { printf "%.1f\n", a - b }' >"$WORK/rss.m"
# (v STEM reads STEM.m)
# row LABEL ZONE STEM: opportunistic primed, cold, plain, Unbound, ratios
row() {
  no=$(v "$2-no.$3"); op=$(v "$2-op.$3"); oc=$(v "$2-opc.$3")
  ub=$(v "$2-ub.$3")
  echo "| $1 | $no | $op | $oc | $ub | $(ratio "$op" "$no")" \
    "| $(ratio "$oc" "$no") | $(ratio "$no" "$ub") | $(ratio "$op" "$ub") |"
}
{
  echo "curvecache auth-tls: opportunistic and no, and Unbound, from NSD," \
    "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores," \
    "$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)"
  echo "(Unbound $(unbound -V 2>/dev/null | awk '/^Version/ { print $2 }')," \
    "NSD $(nsd -v 2>&1 | awk '/^NSD version/ { print $3; exit }')," \
    "OpenSSL $(openssl version | awk '{ print $2 }')," \
    "dnsperf $(dpkg-query -W -f='${Version}' dnsperf 2>/dev/null);" \
    "medians of $RUNS rounds; resolver on core 0, dnsperf and NSD on" \
    "core 1; load average at the end: $(cut -d' ' -f1-3 /proc/loadavg))"
  echo
  echo "| measure | cc plain | cc TLS primed | cc TLS cold | Unbound" \
    "| TLS/plain | cold/plain | cc plain/Unbound | cc TLS/Unbound |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
  row "(1) tlsb. 1,000 names, wall s" tlsb wall
  row "(1) tlsb. resolver CPU per name, us" tlsb cpn
  row "(1) tlsb. connections to its server's 853" tlsb hs
  row "(1u) tlsu. (Unbound auth) 1,000 names, wall s" tlsu wall
  row "(1u) tlsu. resolver CPU per name, us" tlsu cpn
  row "(1u) tlsu. connections to its server's 853" tlsu hs
  row "(2) plainb. (no TLS) 1,000 names, wall s" plainb wall
  row "(2) plainb. resolver CPU per name, us" plainb cpn
  row "(2) plainb. connections to its server's 853" plainb hs
  echo
  echo "(3) RSS per upstream TLS connection: $(v rss) kB" \
    "($(v rss-op.rps) kB per further server with TLS, $(v rss-no.rps)" \
    "kB in plain; $(v rss-op.open) connections to 853 up at the end:" \
    "the $CONNS servers' and the root's)"
} >"$WORK/table.md"
bench_table
exit 0
