# shellcheck shell=sh disable=SC2154 # srcdir, die, UB_IP...: the caller's
# tests/bench/bench_lib.sh: shared by the side-by-side benchmarks
# (tests/bench/resolvers.sh, selection.sh, bench_validate.sh, bench_dot.sh,
# bench_authtls.sh...); sourced, not run. The caller defines die() and
# srcdir first.
#
#   bench_need PROGRAM...  # root, packages, programs, the build, 2 cores
#   bench_lab_start NAME   # $WORK, the EXIT trap, the lab lock, the lab
#   bench_signed_start NAME # the same with the signed lab (signed.sh;
#                          # SIGNED_BENCH_NAMES passed on), SIGNED_* set
#   launch NAME CMD...     # a pinned background process (PID, in PIDS)
#   wait_answer IP         # until $PID answers on IP (10 s)
#   start_cc IP [LINE...]  # curvecache on IP (log-level $CC_LOG_LEVEL,
#                          # default warn; log curvecache-IP.log; root
#                          # hints $CC_ROOT_HINTS, default the lab's;
#                          # "dnssec: $CC_DNSSEC", default no)
#                          # CC_RUN: a command to run it under
#   start_ub               # Unbound on $UB_IP ($WORK/ub; root hints
#                          # $UB_ROOT_HINTS, default the lab's;
#                          # module-config $UB_MODULES, default
#                          # "iterator"; trust-anchor-file $UB_ANCHOR
#                          # when set; UB_RUN: a command to run it
#                          # under; UB_CACHE: msg and rrset cache size
#                          # each, default 32m; UB_LINES: more lines)
#   stop_pid PID           # TERM, 5 s, KILL
#   bench_own_start NAME NET PROGRAM... # bench_need, bench_work, and the
#                          # lab lock let go: the caller's own NET.x
#   bench_cert DIR STEM CN # DIR/STEM.key, .pem for CN, from DIR's test CA
#   bench_root_hints IP    # $WORK/root.hints: a root at IP, for both
#   nsd_up NAME TLS "IP..." ORIGIN... # an NSD on core 1 (bench_cert's
#                          # NSD_CERT for TLS), once it answers
#   bench_table            # $WORK/table.md out, and to $BENCH_OUT
# and the measuring functions (below "measuring"): dnsperf runs, CPU
# time and RSS from /proc, packet counters (sniff_start), medians, ratios.
#
# Every process started here is recorded in PIDS and stopped by its pid
# in the EXIT trap, with the lab (lab.sh or signed.sh stop). CPUS is the taskset core
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
  [ -z "${SIGNED_DIR:-}" ] && [ -n "${signedenv:-}" ] && eval "$signedenv"
  [ -n "${SIGNED_DIR:-}" ] && "$srcdir/tests/lab/signed.sh" stop
  if [ "${BENCH_KEEP:-0}" = 1 ]; then echo "# kept $WORK"
  else rm -rf "$WORK"; fi
}

# bench_need PROGRAM...: as root, with the bench packages (etc/setup.sh
# --bench), each PROGRAM, $CURVECACHE built and two cores; else die.
bench_need() {
  [ "$(id -u)" -eq 0 ] || die "needs root (the lab and port 53)"
  sh "$srcdir/etc/setup.sh" --bench || die "etc/setup.sh --bench failed"
  for t in "$@"; do
    command -v "$t" >/dev/null 2>&1 || die "$t not installed"
  done
  [ -x "$CURVECACHE" ] || die "$CURVECACHE not built"
  [ "$(nproc)" -ge 2 ] || die "needs 2 cores (resolver and dnsperf apart)"
}

# bench_lab_start NAME: the work directory $WORK (kept with
# BENCH_KEEP=1), the trap, the lab lock on fd 9 and the lab (its LAB_*
# variables set, LAB_DIR exported).
bench_lab_start() {
  bench_work "$1"
  labenv=$("$srcdir/tests/lab/lab.sh" start 9>&-) || die "lab start"
  eval "$labenv"
  export LAB_DIR
  bench_pin_lab "$LAB_DIR"
}
# bench_signed_start NAME: the same with the signed lab (SIGNED_* set).
bench_signed_start() {
  bench_work "$1"
  unset SIGNED_DIR
  signedenv=$("$srcdir/tests/lab/signed.sh" start 9>&-) ||
    die "signed lab start"
  eval "$signedenv"
  bench_pin_lab "$SIGNED_DIR"
}
# bench_pin_lab DIR: each lab server whose pid a DIR/*.pid holds, with
# its threads and every process below it, moved to dnsperf's core
# (DP_CPUS, default 1): the resolver's core then runs the resolver alone,
# and its CPU time is its own, not that of the lab servers it wakes (which
# were preempting it 300-800 times in a cold run of 1,000 names when left
# to run on its core; 10-40 times once moved).
bench_pin_lab() {
  for pf in "$1"/*.pid; do
    [ -f "$pf" ] && pin_tree "$(cat "$pf")"
  done
}
pin_tree() { # PID: it, its threads and its descendants
  taskset -a -c -p "${DP_CPUS:-1}" "$1" >/dev/null 2>&1
  # shellcheck disable=SC2013 # the files are lists of pids
  for k in $(cat /proc/"$1"/task/*/children 2>/dev/null); do
    pin_tree "$k"
  done
}
# bench_work NAME: $WORK, the trap, the lab lock on fd 9.
bench_work() {
  WORK=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX") || exit 1
  PIDS=
  LAB_DIR=
  labenv=
  signedenv=

  trap cleanup EXIT
  trap 'exit 130' HUP INT TERM

  exec 9>"${TMPDIR:-/tmp}/curvecache-lab.lock"
  flock -w 900 9 || die "lab lock busy"
}

# bench_own_start NAME NET PROGRAM...: bench_need PROGRAM..., bench_work
# NAME, then the lab lock let go (every address is in NET.0/24, which no
# lab uses); dies when something listens there already.
bench_own_start() {
  own_name=$1 own_net=$2; shift 2
  bench_need "$@"
  bench_work "$own_name"
  exec 9>&-
  ss -Hlntu | grep -q " $own_net\." &&
    die "something listens on $own_net.x already"
}

# bench_cert DIR STEM CN: DIR/STEM.key and DIR/STEM.pem, a P-256
# certificate for CN (subjectAltName DNS:CN) from the test CA DIR/ca.pem
# (made first when it is not there); openssl's output in
# $WORK/openssl.log.
bench_cert() {
  cd_=$1 cs_=$2 cn_=$3
  mkdir -p "$cd_"
  bench_ossl() {
    openssl "$@" >>"$WORK/openssl.log" 2>&1 ||
      { cat "$WORK/openssl.log"; die "openssl $1 failed"; }
  }
  [ -f "$cd_/ca.pem" ] ||
    bench_ossl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 \
      -nodes -keyout "$cd_/ca.key" -out "$cd_/ca.pem" \
      -subj "/CN=curvecache bench CA" -days 2
  printf 'subjectAltName=DNS:%s\n' "$cn_" >"$cd_/$cs_.ext"
  bench_ossl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
    -keyout "$cd_/$cs_.key" -out "$cd_/$cs_.csr" -subj "/CN=$cn_"
  bench_ossl x509 -req -in "$cd_/$cs_.csr" -CA "$cd_/ca.pem" \
    -CAkey "$cd_/ca.key" -CAcreateserial -days 2 -extfile "$cd_/$cs_.ext" \
    -out "$cd_/$cs_.pem"
}

# bench_root_hints IP: root hints of a root at IP ($WORK/root.hints;
# a.root.bench.) for curvecache and Unbound.
bench_root_hints() {
  printf '. 3600000 NS a.root.bench.\na.root.bench. 3600000 A %s\n' \
    "$1" >"$WORK/root.hints"
  CC_ROOT_HINTS=$WORK/root.hints
  UB_ROOT_HINTS=$WORK/root.hints
}

# nsd_up NAME TLS(yes|no) "IP..." ORIGIN...: an NSD serving the ORIGINs
# (zone files $WORK/ORIGIN.zone, "root" for ".") on each IP port 53, and
# with TLS on IP@853 too (NSD_CERT: the STEM of bench_cert, its DIR in
# NSD_CERT_DIR), pinned to core 1, once each IP answers for the first
# ORIGIN.
nsd_up() {
  nn=$1 ntls=$2 nips=$3; shift 3
  {
    printf 'server:\n'
    for a in $nips; do
      printf '\tip-address: %s\n' "$a"
      [ "$ntls" = yes ] && printf '\tip-address: %s@853\n' "$a"
    done
    [ "$ntls" = yes ] &&
      printf '\ttls-port: 853\n\ttls-service-key: "%s"\n\ttls-service-pem: "%s"\n' \
        "$NSD_CERT_DIR/$NSD_CERT.key" "$NSD_CERT_DIR/$NSD_CERT.pem"
    printf '\tport: 53\n\tdo-ip6: no\n\treuseport: no\n\tserver-count: 1\n'
    printf '\tusername: ""\n\tchroot: ""\n\tzonesdir: "%s"\n' "$WORK"
    printf '\tdatabase: ""\n\tzonelistfile: "%s/%s.list"\n' "$WORK" "$nn"
    printf '\txfrdfile: "%s/%s.xfrd"\n\txfrdir: "%s"\n' "$WORK" "$nn" "$WORK"
    printf '\tcookie-secret-file: "%s/%s.cookie"\n\tpidfile: ""\n' \
      "$WORK" "$nn"
    printf '\tlogfile: "%s/%s.nsdlog"\n\trrl-ratelimit: 0\n' "$WORK" "$nn"
    printf '\ttcp-count: 200\n\ttcp-timeout: 60\n'
    printf 'remote-control:\n\tcontrol-enable: no\n'
    for z in "$@"; do
      zf=${z%.}; [ "$z" = . ] && zf=root
      printf 'zone:\n\tname: "%s"\n\tzonefile: "%s.zone"\n' "$z" "$zf"
    done
  } >"$WORK/$nn.conf"
  nsd-checkconf "$WORK/$nn.conf" >"$WORK/$nn.check" 2>&1 ||
    { cat "$WORK/$nn.check"; die "nsd $nn config"; }
  nsd_cpus=$CPUS
  CPUS=1
  launch "$nn" nsd -d -c "$WORK/$nn.conf"
  CPUS=$nsd_cpus
  n=0
  for a in $nips; do
    until dig +time=1 +tries=1 +norec "@$a" "$1" SOA 2>/dev/null |
      grep -q 'status: NOERROR'; do
      n=$((n + 1)); [ $n -lt 50 ] || { cat "$WORK/$nn.log"; die "nsd $nn"; }
      sleep 0.1
    done
  done
}

# bench_table: $WORK/table.md on stdout, and copied to $BENCH_OUT when set.
bench_table() {
  cat "$WORK/table.md"
  if [ -n "${BENCH_OUT:-}" ]; then cp "$WORK/table.md" "$BENCH_OUT"; fi
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
    echo "root-hints: ${CC_ROOT_HINTS:-$LAB_ROOT_HINTS}"
    echo "dnssec: ${CC_DNSSEC:-no}"
    echo "do-not-query-localhost: no"
    echo "do-ip6: no"
    echo "cache-size: 64m"
    echo "user:"
    echo "control-socket:"
    echo "log-level: ${CC_LOG_LEVEL:-warn}"
    for l in "$@"; do echo "$l"; done
  } >"$WORK/cc-$cip_.conf"
  # shellcheck disable=SC2086 # CC_RUN: a wrapper and its options
  launch "curvecache-$cip_" ${CC_RUN:-} "$CURVECACHE" -f \
    -c "$WORK/cc-$cip_.conf"
  wait_answer "$cip_" ||
    { cat "$WORK/curvecache-$cip_.log"; die "curvecache"; }
}
start_ub() {
  mkdir -p "$WORK/ub"
  ub_anchor=
  [ -n "${UB_ANCHOR:-}" ] && ub_anchor="trust-anchor-file: \"$UB_ANCHOR\""
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
	root-hints: "${UB_ROOT_HINTS:-$LAB_ROOT_HINTS}"
	module-config: "${UB_MODULES:-iterator}"
	$ub_anchor
	msg-cache-size: ${UB_CACHE:-32m}
	rrset-cache-size: ${UB_CACHE:-32m}
	access-control: 127.0.0.0/8 allow
${UB_LINES:-}
remote-control:
	control-enable: no
EOF
  # shellcheck disable=SC2086 # UB_RUN: a wrapper and its options
  launch unbound ${UB_RUN:-} unbound -d -c "$WORK/ub/unbound.conf"
  wait_answer "$UB_IP" || { cat "$WORK/ub/unbound.log"; die "unbound"; }
}

CLK=${CLK:-$(getconf CLK_TCK)}
# ---------------------------------------------------------------- measuring
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
usr_ticks() { awk '{ print $14 }' "/proc/$1/stat"; }
# CPU time on the run queue, nanoseconds (precise, unlike the ticks)
cpu_ns() { awk '{ print $1 }' "/proc/$1/schedstat"; }
# page faults that needed no I/O (each a fresh page zeroed, or a copy)
minflt() { awk '{ print $10 }' "/proc/$1/stat"; }
preempted() { awk '/^nonvoluntary_ctxt_switches:/ { print $2 }' "/proc/$1/status"; }
rss_kb() { awk -v f="$2:" '$1 == f { print $2 }' "/proc/$1/status"; }
core_busy() { awk -v c="cpu$1" '$1 == c { print $2 + $3 + $4 + $7 + $8,
  $2 + $3 + $4 + $5 + $6 + $7 + $8 }' /proc/stat; }
median() { sort -g | awk '{ v[NR] = $1 } END {
  if (NR == 0) print "nan"; else if (NR % 2) print v[(NR + 1) / 2];
  else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# medians STEM...: STEM.m from the values appended to STEM.
medians() { for m in "$@"; do median <"$WORK/$m" >"$WORK/$m.m"; done; }
perf() { # IP FILE OUT [dnsperf options]: dnsperf on core(s) DP_CPUS
  pip=$1; pfile=$2; pout=$3; shift 3
  taskset -c "${DP_CPUS:-1}" dnsperf -s "$pip" -d "$pfile" -c 4 -q 100 \
    -t 2 -O suppress=timeouts,congestion "$@" >"$pout" 2>&1 9>&-
}
field() { # FILE LABEL: the first number after "LABEL:"
  awk -v l="$2:" 'i = index($0, l) { $0 = substr($0, i + length(l));
    print $1 + 0; exit }' "$1"
}
noerror() { # FILE: how many answers were NOERROR
  awk '/Response codes:/ { for (i = 1; i < NF; i++)
    if ($i == "NOERROR") { print $(i + 1) + 0; exit } }' "$1"
}
# warm IP FILE: every name resolved (50 at a time), then checked: every
# one must be answered NOERROR.
warm() {
  perf "$1" "$2" "$WORK/warm.out" -n 1 -t 5 -c 1 -q 50 || true
  perf "$1" "$2" "$WORK/warm.out" -n 1 -t 5 -c 1 -q 50 || true
  noerror "$WORK/warm.out" >"$WORK/warm.n"
  [ "$(cat "$WORK/warm.n")" = "$(wc -l <"$2")" ] ||
    { cat "$WORK/warm.out"; die "warm-up of $1: not every name answered"; }
}
# hits_once NAME PID IP FILE [dnsperf options]: one saturation run;
# appends to NAME.qps, NAME.cpu, NAME.usr, NAME.sys (us per answered
# query) and NAME.dpbusy (busy % of dnsperf's core).
hits_once() {
  hn=$1; hpid=$2; hip=$3; hfile=$4; shift 4
  t0=$(cpu_ticks "$hpid"); u0=$(usr_ticks "$hpid")
  c0=$(core_busy "${DP_CPUS:-1}")
  perf "$hip" "$hfile" "$WORK/run.out" -l "$SECS" "$@"
  t1=$(cpu_ticks "$hpid"); u1=$(usr_ticks "$hpid")
  c1=$(core_busy "${DP_CPUS:-1}")
  q=$(field "$WORK/run.out" "Queries completed")
  field "$WORK/run.out" "Queries per second" >>"$WORK/$hn.qps"
  awk -v a="$t0" -v b="$t1" -v ua="$u0" -v ub="$u1" -v q="$q" \
    -v hz="$CLK" -v o="$WORK/$hn" 'BEGIN { if (q > 0) {
      printf "%.4f\n", (b - a) / hz / q * 1e6 >> (o ".cpu")
      printf "%.4f\n", (ub - ua) / hz / q * 1e6 >> (o ".usr")
      printf "%.4f\n", ((b - a) - (ub - ua)) / hz / q * 1e6 >> (o ".sys")
    } }'
  echo "$c0 $c1" | awk '{ if ($4 > $2) printf "%.1f\n",
    100 * ($3 - $1) / ($4 - $2) }' >>"$WORK/$hn.dpbusy"
}
# lat_once NAME IP FILE TAG [options]: one -v run; appends p50/p99 (us)
# to NAME.TAG.p50 / .p99.
lat_once() {
  lname=$1; lip=$2; lfile=$3; tag=$4; shift 4
  perf "$lip" "$lfile" "$WORK/lat.out" -l "$SECS" -v "$@"
  awk '$1 == ">" && $2 == "NOERROR" {
      us = int($NF * 1e6 + 0.5); h[us]++; n++ }
    END { c = 0; p50 = p99 = -1
      for (u = 0; c < n; u++) { c += h[u]
        if (p50 < 0 && c >= n * 0.50) p50 = u
        if (p99 < 0 && c >= n * 0.99) p99 = u }
      print p50 >> "'"$WORK/$lname.$tag.p50"'"
      print p99 >> "'"$WORK/$lname.$tag.p99"'" }' "$WORK/lat.out"
}
# sniff_start SCRIPT FILE [ARG...]: python3 tests/bench/SCRIPT FILE ARG...
# in the background (its pid SNIFF, in PIDS), once it wrote "# ready" to
# FILE (upcount.py, syncount.py).
sniff_start() {
  sscript=$1; sfile=$2; shift 2
  taskset -c "${DP_CPUS:-1}" python3 "$srcdir/tests/bench/$sscript" \
    "$sfile" "$@" \
    </dev/null >/dev/null 2>&1 9>&- &
  SNIFF=$!
  PIDS="$PIDS $SNIFF"
  n=0
  until grep -q '^# ready' "$sfile" 2>/dev/null; do
    n=$((n + 1)); [ $n -lt 100 ] || die "$sscript did not start"
    sleep 0.05
  done
}
# cold_once NAME IP FILE STARTER [args]: a fresh start (then each
# NAME/TYPE of COLD_PRIME asked, outside the measure); appends wall time
# (s) to NAME.wall, upstream queries per name to NAME.up, the resolver's
# CPU time (ms) to NAME.cpums, its RSS growth over the run (kB) to
# NAME.rss, the growth of its peak RSS (VmHWM, kB) to NAME.hwm, its
# minor page faults to NAME.flt and the times it was preempted
# (nonvoluntary context switches) to NAME.ncs. With BENCH_TRACE=DIR the
# run is traced (strace -c: the system calls it made) into DIR/NAME.N;
# with BENCH_PERF=DIR profiled (perf record -g, software clock) into
# DIR/NAME.N.perf. Either slows the resolver: its CPU figures are then
# not to be quoted.
cold_once() {
  cname=$1; cip=$2; cfile=$3; shift 3
  "$@"
  for q in ${COLD_PRIME:-}; do # NAME/TYPE: asked before the measure
    dig +time=5 +tries=1 "@$cip" "${q%/*}" "${q#*/}" >/dev/null 2>&1
  done
  sniff_start upcount.py "$WORK/cap" "$cip" 120
  sniff=$SNIFF
  t0=$(cpu_ns "$PID"); m0=$(rss_kb "$PID" VmRSS); f0=$(minflt "$PID")
  c0=$(preempted "$PID")
  trace_start "$cname"
  perf "$cip" "$cfile" "$WORK/cold.out" -n 1 -q 100 -t 5
  sleep 0.5
  t1=$(cpu_ns "$PID")
  trace_stop
  echo $(($(preempted "$PID") - c0)) >>"$WORK/$cname.ncs"
  echo $(($(rss_kb "$PID" VmRSS) - m0)) >>"$WORK/$cname.rss"
  echo $(($(rss_kb "$PID" VmHWM) - m0)) >>"$WORK/$cname.hwm"
  echo $(($(minflt "$PID") - f0)) >>"$WORK/$cname.flt"
  stop_pid "$sniff"
  stop_pid "$PID"
  ok=$(noerror "$WORK/cold.out")
  [ "$ok" = "$(wc -l <"$cfile")" ] ||
    echo "# warning: $cname cold run: $ok NOERROR of $(wc -l <"$cfile")"
  field "$WORK/cold.out" "Run time (s)" >>"$WORK/$cname.wall"
  awk -v n="$(wc -l <"$cfile")" \
    '$1 == "udp" { printf "%.3f\n", ($2 + $4) / n }' \
    "$WORK/cap" >>"$WORK/$cname.up"
  awk -v a="$t0" -v b="$t1" \
    'BEGIN { printf "%.1f\n", (b - a) / 1e6 }' >>"$WORK/$cname.cpums"
  rm -f "$WORK/cap"
}
# trace_start NAME: BENCH_TRACE's strace or BENCH_PERF's perf attached
# to PID (TPID) for one cold run; trace_stop ends it.
trace_start() {
  TPID=
  tn="$1.$(date +%s%N)"
  if [ -n "${BENCH_PERF:-}" ]; then
    command perf record -q -g -e cpu-clock -F 10000 -p "$PID" \
      -o "$BENCH_PERF/$tn.perf" 2>/dev/null &
    TPID=$!
  elif [ -n "${BENCH_TRACE:-}" ]; then
    strace -c -f -p "$PID" -o "$BENCH_TRACE/$tn" 2>/dev/null &
    TPID=$!
  fi
  [ -n "$TPID" ] && sleep 0.5
  return 0
}
trace_stop() {
  [ -n "$TPID" ] || return 0
  kill -INT "$TPID" 2>/dev/null # background jobs of sh ignore INT:
  kill -TERM "$TPID" 2>/dev/null # strace and perf both end on TERM too
  wait "$TPID" 2>/dev/null
  TPID=
}
progress() { echo "# $(date -u +%H:%M:%S) $*" >&2; }
v() { cat "$WORK/$1.m" 2>/dev/null || echo nan; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {
  if (a == "nan" || b == "nan" || b + 0 == 0) print "-";
  else printf "%.2f\n", a / b }'; }
