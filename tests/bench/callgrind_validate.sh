#!/bin/sh
# tests/bench/callgrind_validate.sh: instructions per query of curvecache
# validating, of Unbound validating and of curvecache with "dnssec: no",
# counted by callgrind on the signed lab (exact for a given run, so they
# compare on a busy machine where the timings of bench_validate.sh do
# not; the kernel's share of each query is not in them).
#
# Usage (from the build directory, as root; or `make bench-validate-cg`):
#   sh ../tests/bench/callgrind_validate.sh
# Environment: CG_NAMES (names a zone; default 1000), CG_HITS (rounds of
# all names in each hit phase; default 20), CG_FLOOD (questions of each
# flood phase; default 200), CG_PHASES (the phases to run, default all:
# "cold coldu hits0 hitsu0 hits1 hitsu1 flood floodk floodn"), CG_PEERS
# (default "cc ub ccn"), CURVECACHE, BENCH_KEEP=1 (keep the work
# directory with the profiles, for callgrind_annotate).
#
# Each resolver runs under valgrind --tool=callgrind with collection off
# (start-up is not counted); for each phase collection is zeroed, turned
# on for one dnsperf run and dumped: cold (the names of many.sec., once
# each, 20 outstanding), coldu (manyu.sec., insecure), hits0/hitsu0
# (every name CG_HITS times at 100 outstanding, DO=0; secure, then
# insecure) and hits1/hitsu1 (DO=1), then the KeyTrap + NSEC3 flood of
# bench_validate.sh (4): flood (CG_FLOOD never-asked names, alternately
# of keytrap.sec. and below the 100-label name of hashflood.sec.), floodk
# (keytrap.sec. only) and floodn (hashflood.sec. only), 20 outstanding,
# each after one uncounted question to its zone (its keys cached).
# Prints instructions per answered query for each resolver and phase,
# and the ratios.
set -u
srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
NAMES=${CG_NAMES:-1000}
HITS=${CG_HITS:-20}
CURVECACHE=${CURVECACHE:-$(pwd)/curvecache}
CC_IP=127.54.100.21
UB_IP=127.54.100.22
CN_IP=127.54.100.23
FLOOD=${CG_FLOOD:-200}
PHASES=${CG_PHASES:-cold coldu hits0 hitsu0 hits1 hitsu1 flood floodk floodn}
PEERS=${CG_PEERS:-cc ub ccn}

die() { echo "callgrind_validate.sh: $*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || die "needs root (the lab and port 53)"
for t in valgrind callgrind_control dnsperf unbound flock dig; do
  command -v $t >/dev/null 2>&1 || die "$t not installed"
done
[ -x "$CURVECACHE" ] || die "$CURVECACHE not built"

# shellcheck source=tests/bench/bench_lib.sh
. "$srcdir/tests/bench/bench_lib.sh"
SIGNED_BENCH_NAMES=$NAMES
export SIGNED_BENCH_NAMES
bench_signed_start callgrind_validate
CC_ROOT_HINTS=$SIGNED_ROOT_HINTS
UB_ROOT_HINTS=$SIGNED_ROOT_HINTS
UB_MODULES="validator iterator"
UB_ANCHOR=$SIGNED_TA_DS
for z in many manyu; do
  awk -v n="$NAMES" -v z=$z \
    'BEGIN { for (i = 0; i < n; i++) printf "www%d.%s.sec A\n", i, z }' \
    >"$WORK/$z"
done
# the flood names (bench_validate.sh's flood_names): TAG, COUNT, WHICH
# (k: keytrap.sec., n: below l^100.d100.hashflood.sec., kn: alternately)
flood_names() {
  awk -v t="$1" -v n="$2" -v w="$3" 'BEGIN { d = "d100.hashflood.sec"
    for (i = 0; i < 100; i++) d = "l." d
    for (i = 0; i < n; i++)
      if (w == "k" || (w == "kn" && i % 2)) printf "%s%d.keytrap.sec A\n", t, i
      else printf "%s%d.%s A\n", t, i, d }'
}
flood_names f "$FLOOD" kn >"$WORK/flood"
flood_names fk "$FLOOD" k >"$WORK/floodk"
flood_names fn "$FLOOD" n >"$WORK/floodn"
CPUS=0-$(($(nproc) - 1))
# the wrapper of start_cc and start_ub (bench_lib.sh: CC_RUN, UB_RUN)
CG="valgrind --tool=callgrind --instr-atstart=no"

# phase TAG NAME FILE [dnsperf options]: one counted dnsperf run.
phase() {
  ptag=$1 pname=$2 pfile=$3; shift 3
  callgrind_control -z "$PID" >/dev/null 2>&1
  callgrind_control -i on "$PID" >/dev/null 2>&1
  dnsperf -s "$IP" -d "$pfile" -t 30 "$@" >"$WORK/$ptag.$pname.perf" 2>&1
  callgrind_control -i off "$PID" >/dev/null 2>&1
  callgrind_control -d "$pname" "$PID" >/dev/null 2>&1
  field "$WORK/$ptag.$pname.perf" "Queries completed" >"$WORK/$ptag.$pname.q"
  awk '/Average packet size:/ { print $NF + 0 }' "$WORK/$ptag.$pname.perf" \
    >"$WORK/$ptag.$pname.bytes.m"
}
# profile TAG: the phases of PHASES against $PID on $IP, then stop it.
profile() {
  for p in $PHASES; do
    case $p in
    cold) phase "$1" cold "$WORK/many" -n 1 -q 20 ;;
    coldu) phase "$1" coldu "$WORK/manyu" -n 1 -q 20 ;;
    hits0) phase "$1" hits0 "$WORK/many" -n "$HITS" -q 100 ;;
    hitsu0) phase "$1" hitsu0 "$WORK/manyu" -n "$HITS" -q 100 ;;
    hits1) phase "$1" hits1 "$WORK/many" -n "$HITS" -q 100 -D ;;
    hitsu1) phase "$1" hitsu1 "$WORK/manyu" -n "$HITS" -q 100 -D ;;
    flood*)
      for q in warm.keytrap.sec "warm.$(sed -n '1s/^f[kn]*0\.//p' \
        "$WORK/floodn" | cut -d' ' -f1)"; do
        dig +time=10 +tries=1 "@$IP" "$q" A >/dev/null 2>&1
      done
      phase "$1" "$p" "$WORK/$p" -n 1 -q 20 ;;
    *) die "CG_PHASES: no phase $p" ;;
    esac
  done
  stop_pid "$PID"
  for f in "$WORK/cg.$1".*; do
    p=$(awk '/^desc: Trigger: dump/ { print $4; exit }' "$f")
    awk -v q="$(cat "$WORK/$1.$p.q")" '/^totals:/ && q > 0 {
      printf "%.0f\n", $2 / q; exit }' "$f" >"$WORK/$1.$p.m"
  done
}

for peer in $PEERS; do
  case $peer in
  cc)
    progress "curvecache validating"
    CC_DNSSEC=yes IP=$CC_IP CC_RUN="$CG --callgrind-out-file=$WORK/cg.cc"
    start_cc $CC_IP "trust-anchor-file: $SIGNED_TA_DS"
    ;;
  ub)
    progress "Unbound validating"
    IP=$UB_IP UB_RUN="$CG --callgrind-out-file=$WORK/cg.ub"
    start_ub
    ;;
  ccn)
    progress "curvecache with dnssec: no"
    CC_DNSSEC=no IP=$CN_IP CC_RUN="$CG --callgrind-out-file=$WORK/cg.ccn"
    start_cc $CN_IP
    ;;
  *) die "CG_PEERS: $peer: cc, ub or ccn" ;;
  esac
  profile "$peer"
done

{
  echo "instructions per answered query (callgrind), $(date -u \
    '+%Y-%m-%d %H:%M UTC'); $NAMES names a zone, hits: $HITS rounds;" \
    "flood: $FLOOD questions"
  echo
  echo "| phase | curvecache | Unbound | cc/Unbound | cc dnssec: no |" \
    "reply bytes cc, ub, off |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: |"
  for p in $PHASES; do
    a=$(v "cc.$p"); b=$(v "ub.$p")
    echo "| $p | $a | $b | $(ratio "$a" "$b") | $(v "ccn.$p") |" \
      "$(v "cc.$p.bytes"), $(v "ub.$p.bytes"), $(v "ccn.$p.bytes") |"
  done
  echo
  echo "secure/insecure: curvecache DO=0 $(ratio "$(v cc.hits0)" \
    "$(v cc.hitsu0)"), DO=1 $(ratio "$(v cc.hits1)" "$(v cc.hitsu1)");" \
    "Unbound DO=0 $(ratio "$(v ub.hits0)" "$(v ub.hitsu0)"), DO=1" \
    "$(ratio "$(v ub.hits1)" "$(v ub.hitsu1)"); curvecache secure/off" \
    "DO=0 $(ratio "$(v cc.hits0)" "$(v ccn.hits0)"), DO=1" \
    "$(ratio "$(v cc.hits1)" "$(v ccn.hits1)")"
} >"$WORK/table.md"
cat "$WORK/table.md"
exit 0
