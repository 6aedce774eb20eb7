#!/bin/sh
# tests/e2e/curve_lab.sh: end-to-end test of curvecache's DNSCurve client
# (the curvecache-query tool) against a real CurveDNS and NSD, in the
# loopback lab of tests/lab/lab.sh (see the comments at its top for the
# addresses, zones and keys).
#
# Run by "make check" (cwd = top build dir, $srcdir = top source dir).
# Exit 0 = every check passed, 1 = a check failed, 77 = SKIP: only when not
# root or when nsd/curvedns are not installed.
#
# Environment: CURVECACHE_QUERY overrides the tool (default
# ./curvecache-query); CURVE_LAB_VERBOSE=1 shows the tool's output for
# passing checks too.
#
# How each check decides: the reference is dig asking the NSD that holds
# the zone, in plain DNS; the tool's --short output must equal dig +short,
# its exit status must be what the interface promises (0 = answer
# accepted, 2 = nothing accepted), and CurveDNS's log (debug level 4, one
# line per packet) proves which transport and format went over the wire.

set -u

srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
LAB=$srcdir/tests/lab/lab.sh
QUERY=${CURVECACHE_QUERY:-./curvecache-query}

# Names and addresses of the lab (tests/lab/lab.sh, tests/lab/zones/).
CURVE_IP=127.53.0.5
BACKEND_IP=127.53.0.4
PLAIN_IP=127.53.0.3
KEY=uz5jwc7p039nvnbsd1y6wkqzqp5mrt7psuj024538xmqd280z0ynh2
NS=$KEY.ns1.curve.test
WRONG_KEY=uz5ff8w2prur0vr7yut61ykyhdlg730frvc1tz8f5sdqz1tj6yjzy1
CZ=curve.test
PZ=plain.test

# Seconds: the tool's --timeout for queries that should be answered, the
# one for queries that must get nothing accepted, the slack allowed on top
# of it, and a hard limit per run so a hung tool cannot hang the test.
T_OK=5
T_REJECT=2
T_SLACK=2
T_HARD=30

skip() { echo "SKIP: $*"; exit 77; }
[ "$(id -u)" -eq 0 ] || skip "not root (the lab binds port 53 on 127.53.0.x)"
for t in nsd nsd-checkconf nsd-checkzone; do
  command -v "$t" >/dev/null 2>&1 ||
    skip "$t not installed (Debian package nsd)"
done
command -v curvedns >/dev/null 2>&1 ||
  skip "curvedns not installed (Debian package curvedns)"
command -v dig >/dev/null 2>&1 ||
  { echo "FAIL: dig not installed (Debian package bind9-dnsutils)"; exit 1; }
[ -x "$QUERY" ] || { echo "FAIL: $QUERY not built"; exit 1; }
case $QUERY in /*) ;; *) QUERY=$(pwd)/$QUERY ;; esac

WORK=$(mktemp -d "${TMPDIR:-/tmp}/curve_lab.XXXXXX") || exit 1
LAB_DIR=
cleanup() {
  # A signal may come between "lab.sh start" and the eval of its output.
  [ -z "${LAB_DIR:-}" ] && [ -n "${labenv:-}" ] && eval "$labenv"
  if [ -n "${LAB_DIR:-}" ]; then
    if [ "${fail:-0}" -ne 0 ] && [ -f "$LAB_DIR/curvedns.out" ]; then
      echo "---- last lines of the CurveDNS log ----"
      tail -n 30 "$LAB_DIR/curvedns.out"
    fi
    LAB_DIR=$LAB_DIR "$LAB" stop || echo "FAIL: lab stop"
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' HUP INT TERM

# One lab at a time on this machine: parallel "make check" runs in
# several build trees would fight over 127.53.0.x:53. The lock fd is not
# passed to the lab's daemons (lab.sh closes fds 3-9 for them).
if command -v flock >/dev/null 2>&1; then
  exec 9>"${TMPDIR:-/tmp}/curvecache-lab.lock"
  flock -w 300 9 || { echo "FAIL: lab lock busy for 300 s"; exit 1; }
fi

unset LAB_DIR
labenv=
labenv=$("$LAB" start) || { labenv=; echo "FAIL: lab start"; exit 1; }
eval "$labenv"
CDLOG=$LAB_DIR/curvedns.out

pass=0
fail=0
name=
args=
: >"$WORK/out"
: >"$WORK/err"
ok() {
  pass=$((pass + 1))
  echo "ok   $name"
  [ "${CURVE_LAB_VERBOSE:-0}" = 1 ] && show
  return 0
}
bad() {
  fail=$((fail + 1))
  echo "FAIL $name: $*"
  show
  return 1
}
show() {
  echo "     \$ $args"
  sed 's/^/     | /' "$WORK/out"
  [ -s "$WORK/err" ] && sed 's/^/     2> /' "$WORK/err"
  return 0
}

# q ARGS...: run the tool; sets out (stdout), rc, secs (wall time).
q() {
  args="curvecache-query $*"
  t0=$(date +%s)
  timeout "$T_HARD" "$QUERY" "$@" >"$WORK/out" 2>"$WORK/err"
  rc=$?
  secs=$(($(date +%s) - t0))
  out=$(cat "$WORK/out")
}

# ref SERVER NAME TYPE [DIG OPTIONS]: the reference answer (dig +short).
ref() {
  s=$1 n=$2 t=$3
  shift 3
  args="(no tool run yet in this check)"
  : >"$WORK/out"
  : >"$WORK/err"
  dig +short +norec +time=2 +tries=2 "$@" "@$s" "$n" "$t"
}

# logcount PATTERN: lines of the CurveDNS log matching PATTERN so far.
logcount() { grep -c "$1" "$CDLOG"; }
UDP_LINE='received UDP query'
TCP_LINE='received TCP DNS request'
# boxed_line FORMAT: the line CurveDNS logs for each reply it boxed.
boxed_line() { echo "dnscurve_reply_$1_query(): done encryption"; }

# boxed_start FORMAT / boxed_check RUNS: CurveDNS boxed at least RUNS
# replies in FORMAT in between (a tool that falls back to plain DNS, or
# uses the other format, fails).
boxed_start() {
  bfmt=$1
  [ "$bfmt" = off ] || boxed0=$(logcount "$(boxed_line "$bfmt")")
}
boxed_check() {
  [ "$bfmt" = off ] && return 0
  nb=$(($(logcount "$(boxed_line "$bfmt")") - boxed0))
  [ "$nb" -ge "$1" ] ||
    { bad "CurveDNS boxed $nb $bfmt replies, want at least $1"; return 1; }
}

# lab_check NAME "DIG ARGS" ERE...: the lab itself (not the tool): dig
# with DIG ARGS prints a line matching each ERE (tabs and spaces of dig's
# output are matched by [[:space:]]+ written as " ").
lab_check() {
  name="lab: $1" dargs=$2
  shift 2
  args="dig $dargs"
  # shellcheck disable=SC2086 # dargs is a list of arguments
  dig +norec +time=2 +tries=2 $dargs >"$WORK/out" 2>"$WORK/err"
  for pat in "$@"; do
    pat=$(printf '%s' "$pat" | sed 's/ /[[:space:]]+/g; s/\./\\./g')
    grep -qE "^$pat\$" "$WORK/out" || { bad "no line matching '$pat'"; return; }
  done
  ok
}

# curve_args FORMAT KEYMODE: --curve, the key (--key or --ns) and, for
# the TXT format, the zone whose name ends the TXT query name.
curve_args() {
  ca="--curve=$1"
  if [ "$2" = ns ]; then ca="$ca --ns $NS"; else ca="$ca --key $KEY"; fi
  [ "$1" = txt ] && ca="$ca --zone $CZ"
  echo "$ca"
}

# expect_dnscurve FORMAT: the output names the format that answered.
expect_dnscurve() {
  case $1 in
    off) pat='^;; DNSCURVE: off \(plain DNS\)$' ;;
    *) pat="^;; DNSCURVE: $1, " ;;
  esac
  printf '%s\n' "$out" | grep -qE "$pat" ||
    { bad "no line matching '$pat'"; return 1; }
}

# expect_status STATUS: the header line gives STATUS.
expect_status() {
  printf '%s\n' "$out" |
    grep -qE "^;; ->>HEADER<<- opcode: QUERY, status: $1, id: [0-9]+\$" ||
    { bad "header line does not say status: $1"; return 1; }
}

# same_as_ref EXPECTED: exit 0 and --short output equal to EXPECTED.
same_as_ref() {
  [ "$rc" -eq 0 ] || { bad "exit $rc, want 0"; return 1; }
  [ "$out" = "$1" ] || {
    bad "--short output differs from dig +short:"
    printf '%s\n' "$1" | sed 's/^/     want | /'
    return 1
  }
}

# check_answer FORMAT KEYMODE SERVER NAME TYPE REFSERVER [TOOL OPTIONS]:
# full output names FORMAT with status NOERROR; --short equals dig +short
# asked in plain DNS of REFSERVER; the answer is not empty.
check_answer() {
  fmt=$1 km=$2 srv=$3 n=$4 t=$5 rs=$6
  shift 6
  name="$fmt/$km $n $t${*:+ $*}"
  want=$(ref "$rs" "$n" "$t")
  [ -n "$want" ] || { bad "reference answer from $rs is empty (lab?)"; return; }
  ca=--curve=off
  [ "$fmt" = off ] || ca=$(curve_args "$fmt" "$km")
  boxed_start "$fmt"
  # shellcheck disable=SC2086 # ca is a list of options
  q $ca --timeout "$T_OK" "$@" -t "$t" "@$srv" "$n"
  [ "$rc" -eq 0 ] || { bad "exit $rc, want 0"; return; }
  expect_dnscurve "$fmt" && expect_status NOERROR || return
  # shellcheck disable=SC2086
  q $ca --timeout "$T_OK" "$@" --short -t "$t" "@$srv" "$n"
  same_as_ref "$want" && boxed_check 2 && ok
}

# check_negative FORMAT SERVER NAME TYPE STATUS: an NXDOMAIN (STATUS
# NXDOMAIN) or NODATA (STATUS NODATA: NOERROR, empty answer) is accepted.
check_negative() {
  fmt=$1 srv=$2 n=$3 t=$4 st=$5
  name="$fmt $n $t: $st"
  ca=--curve=off
  [ "$fmt" = off ] || ca=$(curve_args "$fmt" key)
  boxed_start "$fmt"
  # shellcheck disable=SC2086
  q $ca --timeout "$T_OK" -t "$t" "@$srv" "$n"
  [ "$rc" -eq 0 ] || { bad "exit $rc, want 0"; return; }
  expect_dnscurve "$fmt" || return
  if [ "$st" = NODATA ]; then
    expect_status NOERROR || return
    # shellcheck disable=SC2086
    q $ca --timeout "$T_OK" --short -t "$t" "@$srv" "$n"
    same_as_ref "" && boxed_check 2 && ok
  else
    expect_status "$st" && boxed_check 1 && ok
  fi
}

# check_rejected FORMAT KEY SERVER NAME WHY LOGPATTERN: the server answers
# only in plain DNS (or not at all), so nothing may be accepted: exit 2,
# within the timeout, and no answer printed. When LOGPATTERN is set, the
# CurveDNS log must show that a plain reply was really sent back.
check_rejected() {
  fmt=$1 k=$2 srv=$3 n=$4
  name="$fmt $n at $srv: $5"
  plain_before=$(logcount 'sending DNS response in regular format')
  ca="--curve=$fmt --key $k"
  [ "$fmt" = txt ] && ca="$ca --zone ${n#*.}"
  # shellcheck disable=SC2086
  q $ca --timeout "$T_REJECT" -t A "@$srv" "$n"
  [ "$rc" -eq 2 ] || { bad "exit $rc, want 2"; return; }
  [ "$secs" -le $((T_REJECT + T_SLACK)) ] ||
    { bad "took ${secs}s with --timeout $T_REJECT"; return; }
  case $out in *192.0.2.10*) bad "the answer was printed"; return ;; esac
  if [ -n "$6" ]; then
    [ "$(logcount "$6")" -gt 0 ] || { bad "CurveDNS log has no '$6'"; return; }
    [ "$(logcount 'sending DNS response in regular format')" -gt \
      "$plain_before" ] ||
      { bad "CurveDNS sent no plain reply (nothing was rejected)"; return; }
  fi
  ok
}

# check_many FORMAT TYPE HOW: many.curve.test has 20 A records (plain
# answer without EDNS about 390 bytes) and 20 AAAA (about 590 bytes, TC
# without EDNS). The tool must print all 20, equal to dig +short, and
# CurveDNS's log must show the transports that HOW expects:
#   udp-tc: --no-edns over UDP, TC inside the box, then a TCP retry;
#   udp:    --no-edns over UDP, no TC, so no TCP at all;
#   tcp:    --tcp: TCP only.
check_many() {
  fmt=$1 t=$2 how=$3
  n=many.$CZ
  name="$fmt many.$CZ $t, 20 records, $how"
  want=$(ref "$BACKEND_IP" "$n" "$t" +tcp)
  [ "$(printf '%s\n' "$want" | wc -l)" -eq 20 ] ||
    { bad "reference answer does not have 20 records (lab?)"; return; }
  # The premise: without EDNS the plain answer is truncated, or not.
  tc=no
  dig +norec +noedns +ignore +time=2 +tries=1 "@$BACKEND_IP" "$n" "$t" |
    grep -q '^;; flags:[^;]* tc[ ;]' && tc=yes
  case $how:$tc in
    udp-tc:yes|udp:no|tcp:*) ;;
    *) bad "TC=$tc from the back end for $n $t without EDNS (lab?)"; return ;;
  esac
  boxed_start "$fmt"
  udp0=$(logcount "$UDP_LINE")
  tcp0=$(logcount "$TCP_LINE")
  if [ "$how" = tcp ]; then opt=--tcp; else opt=--no-edns; fi
  # shellcheck disable=SC2046 # a list of options
  q $(curve_args "$fmt" key) --timeout "$T_OK" "$opt" --short -t "$t" \
    "@$CURVE_IP" "$n"
  same_as_ref "$want" || return
  [ "$(printf '%s\n' "$out" | wc -l)" -eq 20 ] ||
    { bad "not 20 records"; return; }
  udp=$(($(logcount "$UDP_LINE") - udp0))
  tcp=$(($(logcount "$TCP_LINE") - tcp0))
  case $how in
    udp-tc) want_boxed=2; [ "$udp" -ge 1 ] && [ "$tcp" -ge 1 ] ;;
    udp) want_boxed=1; [ "$udp" -ge 1 ] && [ "$tcp" -eq 0 ] ;;
    tcp) want_boxed=1; [ "$udp" -eq 0 ] && [ "$tcp" -ge 1 ] ;;
  esac || { bad "CurveDNS saw $udp UDP and $tcp TCP queries ($how)"; return; }
  boxed_check "$want_boxed" && ok
}

echo "# curvecache-query: $QUERY"
echo "# lab: $LAB_DIR"

# 0. The lab: referrals from the root down, keys in the NS names, and
# CurveDNS forwarding plain queries (unprotected) to its back end.
lab_check ". delegates test." "@127.53.0.1 www.$CZ A" \
  ";; flags: qr; QUERY: 1, ANSWER: 0, AUTHORITY: 1, ADDITIONAL: 2" \
  "test. [0-9]+ IN NS ns1.test." "ns1.test. [0-9]+ IN A 127.53.0.2"
lab_check "test. delegates curve.test. to the uz5 NS name" \
  "@127.53.0.2 www.$CZ A" "$CZ. [0-9]+ IN NS $NS." "$NS. [0-9]+ IN A $CURVE_IP"
lab_check "test. delegates plain.test." "@127.53.0.2 www.$PZ A" \
  "$PZ. [0-9]+ IN NS ns1.$PZ." "ns1.$PZ. [0-9]+ IN A $PLAIN_IP"
lab_check "CurveDNS forwards plain DNS" "@$CURVE_IP www.$CZ A" \
  ";; flags: qr aa; QUERY: 1, ANSWER: 1, AUTHORITY: 1, ADDITIONAL: 2" \
  "www.$CZ. 3600 IN A 192.0.2.10"
lab_check "plain.test. answers" "@$PLAIN_IP www.$PZ AAAA" \
  "www.$PZ. 3600 IN AAAA 2001:db8::10"

# 1. Both formats, key given with --key and taken from the NS name.
for fmt in streamlined txt; do
  for km in key ns; do
    check_answer "$fmt" "$km" "$CURVE_IP" "www.$CZ" A "$BACKEND_IP"
    check_answer "$fmt" "$km" "$CURVE_IP" "www.$CZ" AAAA "$BACKEND_IP"
    check_answer "$fmt" "$km" "$CURVE_IP" "www.$CZ" TXT "$BACKEND_IP"
    check_answer "$fmt" "$km" "$CURVE_IP" "$CZ" MX "$BACKEND_IP"
  done
  check_answer "$fmt" key "$CURVE_IP" "alias.$CZ" A "$BACKEND_IP"
  # 3000 bytes of TXT: truncated inside the box at any EDNS size -> TCP.
  check_answer "$fmt" key "$CURVE_IP" "bigtxt.$CZ" TXT "$BACKEND_IP"
done

# 2. Negative answers through both formats.
for fmt in streamlined txt; do
  check_negative "$fmt" "$CURVE_IP" "nosuch.$CZ" A NXDOMAIN
  check_negative "$fmt" "$CURVE_IP" "mail.$CZ" AAAA NODATA
done

# 3. What must not be accepted: CurveDNS cannot open a box made for
# another key and answers it in plain DNS; a plain NSD answers a boxed
# query in plain DNS (an error, or NXDOMAIN for the TXT query name).
check_rejected streamlined "$WRONG_KEY" "$CURVE_IP" "www.$CZ" "wrong key" \
  'streamlined query unable to open cryptobox'
check_rejected txt "$WRONG_KEY" "$CURVE_IP" "www.$CZ" "wrong key" \
  'TXT query unable to open cryptobox'
for fmt in streamlined txt; do
  check_rejected "$fmt" "$KEY" "$PLAIN_IP" "www.$PZ" "not a DNSCurve server" ""
done

# 4. Truncation inside the box and TCP.
for fmt in streamlined txt; do
  check_many "$fmt" AAAA udp-tc
  check_many "$fmt" AAAA tcp
  check_many "$fmt" A udp
done

# 5. Plain DNS against plain NSD, every record type of the zone.
for nt in "www.$PZ A" "www.$PZ AAAA" "www.$PZ TXT" "$PZ MX" "$PZ NS" \
          "$PZ SOA" "alias.$PZ CNAME" "alias.$PZ A" "_dns._udp.$PZ SRV" \
          "mail.$PZ A" "many.$PZ A" "bigtxt.$PZ TXT"; do
  # shellcheck disable=SC2086 # "name type"
  check_answer off plain "$PLAIN_IP" $nt "$PLAIN_IP"
done
check_answer off plain "$PLAIN_IP" "many.$PZ" AAAA "$PLAIN_IP" --no-edns
check_answer off plain "$PLAIN_IP" "many.$PZ" AAAA "$PLAIN_IP" --tcp
check_negative off "$PLAIN_IP" "nosuch.$PZ" A NXDOMAIN
check_negative off "$PLAIN_IP" "www.$PZ" MX NODATA

echo "# $pass passed, $fail failed"
[ "$fail" -eq 0 ]
