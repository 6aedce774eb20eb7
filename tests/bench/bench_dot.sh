#!/bin/sh
# tests/bench/bench_dot.sh: curvecache and Unbound, each forwarding "."
# over DNS over TLS (RFC 7858) to the same Unbound DoT forwarder, side by
# side; prints a markdown table with the ratios curvecache/Unbound. Not
# part of make check (a few minutes, root, packages).
#
# Usage (from the build directory, as root; or `make bench-dot`):
#   sh ../tests/bench/bench_dot.sh
# Environment: BENCH_RUNS (rounds, median taken; default 3),
# BENCH_SECONDS (length of a cache-hit run; default 5), BENCH_OUT (also
# write the table there), BENCH_KEEP=1 (keep the work directory),
# CURVECACHE (default ./curvecache).
#
# What it does (each process started here is stopped by its pid; every
# address is in 127.53.123.0/24, which no lab uses, so the lab lock is
# let go once taken):
# - a test CA and a certificate for dot.lab (bench_lib.sh's bench_cert);
# - NSD 127.53.123.1 (bench_lib.sh's nsd_up): zone dot.bench., names
#   n0..n999 A (unsigned);
# - the forwarder: Unbound (1 thread, core 1) serving DNS over TLS on
#   127.53.123.2-9 port 853 with that certificate, plain DNS on
#   127.53.123.2 port 53, dot.bench. as a stub zone at the NSD, and
#   conn.bench. from local data; warmed with the 1,000 names (plain), so
#   that the runs measure the resolvers and their TLS, not NSD;
# - the peers, each on core 0, one thread, fresh cache, root hints that
#   are never used: curvecache 127.53.123.11 (cache-size 64m, dnssec:
#   no, "forward-zone: . 127.53.123.2@853#dot.lab", tls-cert-bundle the
#   test CA) and Unbound 127.53.123.12 (module-config "iterator", 32m +
#   32m of cache, forward-zone "." forward-addr 127.53.123.2@853#dot.lab,
#   forward-tls-upstream: yes, the same tls-cert-bundle; its defaults
#   otherwise); dnsperf on core 1.
# Measured, the peers in turns within each of BENCH_RUNS rounds (each
# figure the median over the rounds):
# - (1) cold: a fresh process asked the 1,000 names once each (dnsperf
#   -n 1, 100 outstanding; bench_lib.sh's cold_once): wall time, the
#   resolver's CPU time (/proc/PID/schedstat), plain DNS packets from it
#   to any port 53 (upcount.py; 0 expected), and, from the start of the
#   process to its end, the TCP connections opened to the forwarder's
#   port 853 (syncount.py: SYNs; each is a TLS handshake) and the
#   forwarder's CPU time;
# - (1p) the same, primed: one name outside the 1,000 (ns.dot.bench. A,
#   cold_once's COLD_PRIME) asked before the measure, so the TLS context
#   (curvecache makes it at its first TLS connection, Unbound at start)
#   and the connection are up when the 1,000 names come;
# - (2) cache hits: both warmed with the same names, dnsperf at
#   saturation for BENCH_SECONDS: queries/s and the resolver's CPU time
#   (utime + stime) per answered query;
# - (3) RSS per forwarder connection: a fresh process with 8 forward
#   zones cK.conn.bench., each to its own forwarder address
#   (127.53.123.(K+1)@853): VmRSS after three names of c1 (one
#   connection up) and after three names of each of the 8 (8 up, counted
#   with ss), the difference divided by 7.
set -u
srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
RUNS=${BENCH_RUNS:-3}
SECS=${BENCH_SECONDS:-5}
CURVECACHE=${CURVECACHE:-$(pwd)/curvecache}
NAMES=1000
CONNS=8
NET=127.53.123
NSD_IP=$NET.1
FWD_IP=$NET.2
CC_IP=$NET.11
UB_IP=$NET.12
AUTH=dot.lab

die() { echo "bench_dot.sh: $*" >&2; exit 1; }
# shellcheck source=tests/bench/bench_lib.sh
. "$srcdir/tests/bench/bench_lib.sh"
bench_own_start bench_dot $NET unbound nsd nsd-checkconf dnsperf openssl \
  taskset flock python3 dig ss

# ---------------------------------------------------------------- the setup
P=$WORK/pki
bench_cert "$P" fwd $AUTH

# root hints no one asks (everything is forwarded)
bench_root_hints "$NET.99"

awk -v n=$NAMES \
  'BEGIN { for (i = 0; i < n; i++) printf "n%d.dot.bench A\n", i }' \
  >"$WORK/names"
{
  echo "\$TTL 86400"
  echo "@ SOA ns hostmaster 1 3600 600 86400 86400"
  printf '@ NS ns\nns A %s\n' $NSD_IP
  awk -v n=$NAMES 'BEGIN { for (i = 0; i < n; i++)
    printf "n%d A 192.0.2.%d\n", i, i % 250 + 1 }'
} >"$WORK/dot.bench.zone"
{
  cat <<EOF
server:
	username: ""
	chroot: ""
	directory: "$WORK"
	pidfile: ""
	use-syslog: no
	logfile: "$WORK/fwd.log"
	verbosity: 0
	num-threads: 1
	interface: $FWD_IP@53
	tls-port: 853
	tls-service-key: "$P/fwd.key"
	tls-service-pem: "$P/fwd.pem"
	incoming-num-tcp: 100
	do-ip6: no
	do-not-query-localhost: no
	access-control: 127.0.0.0/8 allow
	root-hints: "$WORK/root.hints"
	module-config: "iterator"
	local-zone: "conn.bench." redirect
	local-data: "conn.bench. 300 IN A 192.0.2.9"
EOF
  k=1
  while [ $k -le $CONNS ]; do
    printf '\tinterface: %s.%d@853\n' $NET $((k + 1)); k=$((k + 1))
  done
  printf 'stub-zone:\n\tname: "dot.bench."\n\tstub-addr: %s\n' $NSD_IP
  printf 'remote-control:\n\tcontrol-enable: no\n'
} >"$WORK/fwd.conf"

nsd_up nsd no "$NSD_IP" dot.bench.
CPUS=1 # the helpers share dnsperf's core; the resolvers get core 0
launch forwarder unbound -d -c "$WORK/fwd.conf"
FWD_PID=$PID
wait_answer $FWD_IP || { cat "$WORK/fwd.log" "$WORK/forwarder.log"; die "forwarder"; }
CPUS=0
warm $FWD_IP "$WORK/names"

# ---------------------------------------------------------------- the peers
# start_ccf / start_ubf dot|conn: curvecache / Unbound forwarding "."
# (dot) or the 8 cK.conn.bench. zones (conn) to the forwarder over TLS;
# PID set.
start_ccf() {
  if [ "$1" = conn ]; then
    set -- "tls-cert-bundle: $P/ca.pem"
    k=1
    while [ $k -le $CONNS ]; do
      set -- "$@" "forward-zone: c$k.conn.bench. $NET.$((k + 1))@853#$AUTH"
      k=$((k + 1))
    done
  else
    set -- "tls-cert-bundle: $P/ca.pem" "forward-zone: . $FWD_IP@853#$AUTH"
  fi
  start_cc $CC_IP "$@"
}
start_ubf() {
  UB_LINES="	tls-cert-bundle: \"$P/ca.pem\""
  if [ "$1" = conn ]; then
    k=1
    while [ $k -le $CONNS ]; do
      UB_LINES="$UB_LINES
forward-zone:
	name: \"c$k.conn.bench.\"
	forward-addr: $NET.$((k + 1))@853#$AUTH
	forward-tls-upstream: yes"
      k=$((k + 1))
    done
  else
    UB_LINES="$UB_LINES
forward-zone:
	name: \".\"
	forward-addr: $FWD_IP@853#$AUTH
	forward-tls-upstream: yes"
  fi
  start_ub
}

# ---------------------------------------------------------------- measuring
# dot_cold NAME STARTER: cold_once NAME (its wall, cpums, up files) with
# syncount.py running from before the start to after the stop: appends
# the connections opened to port 853 to NAME.hs and the forwarder's CPU
# time over it (ms) to NAME.fwdms.
dot_cold() {
  dn=$1; dip=$2; shift 2
  sniff_start syncount.py "$WORK/syn" "$NET." 853 120
  dsyn=$SNIFF
  f0=$(cpu_ns $FWD_PID)
  cold_once "$dn" "$dip" "$WORK/names" "$@"
  f1=$(cpu_ns $FWD_PID)
  stop_pid $dsyn
  awk '$1 == "syn" { print $2 }' "$WORK/syn" >>"$WORK/$dn.hs"
  awk -v a="$f0" -v b="$f1" 'BEGIN { printf "%.1f\n", (b - a) / 1e6 }' \
    >>"$WORK/$dn.fwdms"
  rm -f "$WORK/syn"
}
# conn_ask IP K: three names of cK.conn.bench., one after the other (a
# connection in use: after its first answer libssl holds a record buffer
# it set up for the server's session tickets until the next write).
conn_ask() {
  for q in a b c; do
    dig +time=5 +tries=1 "@$1" "$q.c$2.conn.bench" A >/dev/null 2>&1
  done
}
# dot_conn NAME STARTER: a fresh process (STARTER conn); conn_ask of
# c1.conn.bench., VmRSS; conn_ask of each other zone, VmRSS; appends the
# growth per further connection (kB) to NAME.rpc and the connections up
# to port 853 at the end (ss) to NAME.open.
dot_conn() {
  cn=$1; cip=$2; shift 2
  "$@" conn
  conn_ask "$cip" 1
  sleep 0.2
  r1=$(rss_kb "$PID" VmRSS)
  k=2
  while [ $k -le $CONNS ]; do
    conn_ask "$cip" $k
    k=$((k + 1))
  done
  sleep 0.2
  rn=$(rss_kb "$PID" VmRSS)
  ss -Htnp state established '( dport = :853 )' 2>/dev/null |
    grep -c "pid=$PID," >>"$WORK/$cn.open"
  awk -v a="$r1" -v b="$rn" -v n=$CONNS \
    'BEGIN { printf "%.1f\n", (b - a) / (n - 1) }' >>"$WORK/$cn.rpc"
  stop_pid "$PID"
}

# ---------------------------------------------------------------- the runs
r=0
while [ "$r" -lt "$RUNS" ]; do
  progress "round $((r + 1)) of $RUNS: cold, then RSS per connection;" \
    "curvecache, Unbound"
  dot_cold cc $CC_IP start_ccf dot
  dot_cold ub $UB_IP start_ubf dot
  COLD_PRIME=ns.dot.bench/A
  dot_cold ccp $CC_IP start_ccf dot
  dot_cold ubp $UB_IP start_ubf dot
  COLD_PRIME=
  dot_conn cc $CC_IP start_ccf
  dot_conn ub $UB_IP start_ubf
  r=$((r + 1))
done
for n in cc ub ccp ubp; do
  medians $n.wall $n.cpums $n.up $n.hs $n.fwdms
done
medians cc.rpc cc.open ub.rpc ub.open

progress "cache hits: both up and warmed"
start_ccf dot; CC_PID=$PID
start_ubf dot; UB_PID=$PID
warm $CC_IP "$WORK/names"
warm $UB_IP "$WORK/names"
r=0
while [ "$r" -lt "$RUNS" ]; do
  progress "cache hits, round $((r + 1)) of $RUNS"
  hits_once cc $CC_PID $CC_IP "$WORK/names"
  hits_once ub $UB_PID $UB_IP "$WORK/names"
  r=$((r + 1))
done
for n in cc ub; do medians $n.qps $n.cpu $n.dpbusy; done
stop_pid $CC_PID
stop_pid $UB_PID

# ---------------------------------------------------------------- the table
# per name and per 1,000 names from the medians
for n in cc ub ccp ubp; do
  awk -v n=$NAMES '{ printf "%.1f\n", $1 * 1e6 / n }' "$WORK/$n.wall.m" \
    >"$WORK/$n.wpn.m"
  awk -v n=$NAMES '{ printf "%.1f\n", $1 * 1e3 / n }' "$WORK/$n.cpums.m" \
    >"$WORK/$n.cpn.m"
  awk -v n=$NAMES '{ printf "%.1f\n", $1 * 1000 / n }' "$WORK/$n.hs.m" \
    >"$WORK/$n.hsk.m"
done
row() { # LABEL STEM [p: the primed runs]
  a=$(v "cc${3:-}.$2"); b=$(v "ub${3:-}.$2")
  echo "| $1 | $a | $b | $(ratio "$a" "$b") |"
}
{
  echo "curvecache and Unbound forwarding over TLS to one Unbound," \
    "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores," \
    "$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)"
  echo "(Unbound $(unbound -V 2>/dev/null | awk '/^Version/ { print $2 }')," \
    "OpenSSL $(openssl version | awk '{ print $2 }')," \
    "dnsperf $(dpkg-query -W -f='${Version}' dnsperf 2>/dev/null);" \
    "medians of $RUNS rounds, hit runs of ${SECS} s; resolver on core 0," \
    "dnsperf and the forwarder on core 1; load average at the end:" \
    "$(cut -d' ' -f1-3 /proc/loadavg))"
  echo
  echo "| measure | curvecache | Unbound | cc/Unbound |"
  echo "| --- | ---: | ---: | ---: |"
  row "(1) cold 1,000 names, wall s" wall
  row "(1) cold wall time per name, us" wpn
  row "(1) cold resolver CPU per name, us" cpn
  row "(1) TLS handshakes (connections to 853) per 1,000 names" hsk
  row "(1) forwarder CPU over the run, ms" fwdms
  row "(1) plain DNS packets to port 53 per name" up
  row "(1p) primed: cold 1,000 names, wall s" wall p
  row "(1p) primed: cold wall time per name, us" wpn p
  row "(1p) primed: cold resolver CPU per name, us" cpn p
  row "(1p) primed: TLS handshakes per 1,000 names" hsk p
  row "(1p) primed: forwarder CPU over the run, ms" fwdms p
  row "(2) cache hits, queries/s" qps
  row "(2) CPU per answered query, us" cpu
  row "(2) dnsperf's core busy, %" dpbusy
  row "(3) RSS per forwarder connection (3 queries each), kB" rpc
  row "(3) connections up at the end (of $CONNS)" open
} >"$WORK/table.md"
bench_table
exit 0
