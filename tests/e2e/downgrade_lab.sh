#!/bin/sh
# tests/e2e/downgrade_lab.sh: key stripping (a DNSCurve downgrade) in the
# loopback lab (tests/lab/lab.sh), against curve-require and curve-pin.
#
# Run by "make check" (cwd = top build dir, $srcdir = top source dir).
# Exit 0 = every check passed, 1 = a check failed, 77 = SKIP (not root,
# or nsd/curvedns/dig missing). Shared code: tests/e2e/e2e_lib.sh.
#
# The attack: boxed.lab. is delegated by the plain TLD lab. to
# uz5<TEST key>.ns1.boxed.lab. (127.53.0.5, CurveDNS). The attacker's
# version of lab. (the lab's lab.zone with the delegation rewritten, and
# the TLD server reloaded with SIGHUP) gives the same zone a key-less NS,
# ns1.boxed.lab., at 127.53.0.4: the NSD behind CurveDNS, which serves
# the same data in plain DNS. A resolver that follows it still gets right
# answers, but unprotected: that is the downgrade.
#
# 1. curve-require: boxed.lab.: with the honest lab., www.boxed.lab. is
#    answered over DNSCurve; with the stripped lab. (cache flushed), it is
#    SERVFAIL, the log says event=curve_downgrade, the counter
#    curve.downgrade.refused goes up by one, nothing is sent to
#    127.53.0.4, and other zones are answered as before.
# 2. Without the option, the stripped lab. is followed (plain, to
#    127.53.0.4), as any resolver would: the refusal above is the
#    option's doing.
# 3. curve-pin: yes: www.boxed.lab. with the honest lab. pins boxed.lab.;
#    then the lab. is stripped and boxed.lab. flushed from the cache (the
#    pins are not cache data): the key-less referral within the NS TTL
#    is refused the same way. With curve-pin: no, the same sequence gives
#    a plain answer. With threads: 2, the pin made by one worker holds in
#    the other (the question before the strip and the one after it come
#    from source ports the kernel gives to different workers).

# shellcheck disable=SC2119 # cc_start takes optional config lines
set -u
srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=tests/e2e/e2e_lib.sh
. "$srcdir/tests/e2e/e2e_lib.sh"
e2e_init downgrade_lab ss
CTL=${CURVECACHE_CONTROL:-./curvecache-control}
e2e_built CTL
SOCK=$WORK/run/control
ZONE_FILE=$LAB_DIR/lab.zone
cp "$ZONE_FILE" "$WORK/lab.zone.honest" || exit 1

ctl() { "$CTL" -s "$SOCK" "$@"; }

# tld_reload WANT: reload the lab. server, wait (5 s) until its referral
# for boxed.lab. names an NS matching the regex WANT.
tld_reload() {
  kill -HUP "$(cat "$LAB_DIR/nsd-tld.pid")"
  n=0
  while [ $n -lt 50 ]; do
    dig +norec +time=1 +tries=1 +noall +authority "@$LAB_TLD_IP" \
      www.boxed.lab A 2>/dev/null | grep -q "NS[[:space:]]*$1" && return 0
    sleep 0.1
    n=$((n + 1))
  done
  bad "lab. reloaded" "no NS matching $1 in its referral"
  return 1
}

# strip_lab / honest_lab: the attacker's lab. zone, or the lab's own.
strip_lab() {
  GLUE="ns1.boxed\tA\t$LAB_CURVE_BACKEND_IP"
  sed -e 's/^boxed[[:space:]].*NS.*/boxed\t\tNS\tns1.boxed/' \
      -e "s/^$LAB_CURVE_KEY\\.ns1\\.boxed[[:space:]].*/$GLUE/" \
      "$WORK/lab.zone.honest" >"$ZONE_FILE"
  tld_reload 'ns1\.boxed\.lab\.'
}
honest_lab() {
  cp "$WORK/lab.zone.honest" "$ZONE_FILE"
  tld_reload "$LAB_CURVE_KEY"
}

# q NAME: dig through curvecache; sets st (status) and ans (answer
# records "TYPE DATA", space separated).
# QSRC, when set, is the source ADDR#PORT.
QSRC=
q() {
  # shellcheck disable=SC2086 # "-b ADDR#PORT" or nothing
  dig ${QSRC:+-b $QSRC} +time=8 +tries=1 +noall +comments +answer \
    "@$CC_IP" "$1" A </dev/null >"$WORK/q.out" 2>&1
  st=$(dig_status "$WORK/q.out")
  ans=$(awk '!/^;/ && NF >= 5 { printf "%s %s ", $4, $5 }' "$WORK/q.out")
}

# expect NAME STATUS ANSWER WHAT: one check of q NAME.
expect() {
  q "$1"
  if [ "$st" = "$2" ] && [ "$ans" = "$3" ]; then ok "$4"
  else bad "$4" "status '$st' answer '$ans'" "$WORK/q.out"; fi
}

# downgrades: the counter now; logged: event=curve_downgrade lines.
downgrades() { cc_stat curve.downgrade.refused; }
logged() { grep -c "event=curve_downgrade name=$1 " "$WORK/curvecache.log"; }

WWW="A 192.0.2.10 "

# ---- 1. curve-require ----
echo "# 1. curve-require: boxed.lab. ($(elapsed))"
cc_start "control-socket: $SOCK" "curve-require: boxed.lab." || exit 1
expect www.boxed.lab NOERROR "$WWW" \
  "curve-require, honest lab.: www.boxed.lab. answered"
c0=$(downgrades)
if [ "$c0" = 0 ] && [ "$(sends_to "$LAB_CURVE_IP")" -gt 0 ]; then
  ok "curve-require, honest lab.: over DNSCurve, nothing refused"
else
  t="curve.downgrade.refused '$c0',"
  bad "curve-require, honest lab.: over DNSCurve, nothing refused" \
    "$t sends to $LAB_CURVE_IP: $(sends_to "$LAB_CURVE_IP")"
fi
strip_lab || exit 1
ctl flush_all >/dev/null 2>&1 || bad "flush_all" "curvecache-control failed"
expect www.boxed.lab SERVFAIL "" \
  "curve-require, stripped lab.: www.boxed.lab. SERVFAIL"
c1=$(downgrades)
if [ "$c1" = 1 ] && [ "$(logged boxed.lab.)" -ge 1 ] &&
   [ "$(sends_to "$LAB_CURVE_BACKEND_IP")" = 0 ]; then
  t="curve-require: refused, logged, counted"
  t="$t (curve.downgrade.refused $c1), nothing sent plain"
  ok "$t"
else
  grep 'event=curve_downgrade' "$WORK/curvecache.log" >"$WORK/why"
  bad "curve-require: refused, logged, counted" \
    "counter '$c1', sends to the plain server $(sends_to \
    "$LAB_CURVE_BACKEND_IP")" "$WORK/why"
fi
expect www.example.lab NOERROR "A 192.0.2.10 " \
  "curve-require: other zones answered as before"
cc_stop

# ---- 2. the same stripped lab. without the option ----
echo "# 2. no curve-require ($(elapsed))"
: >"$WORK/curvecache.log"
cc_start "control-socket: $SOCK" || exit 1
expect www.boxed.lab NOERROR "$WWW" \
  "no curve-require, stripped lab.: answered (downgraded)"
if [ "$(sends_to "$LAB_CURVE_BACKEND_IP")" -gt 0 ] &&
   [ "$(downgrades)" = 0 ]; then
  ok "no curve-require: the key-less referral was followed (plain)"
else
  bad "no curve-require: the key-less referral was followed" \
    "sends to $LAB_CURVE_BACKEND_IP: $(sends_to "$LAB_CURVE_BACKEND_IP")"
fi
cc_stop

# ---- 3. curve-pin ----
# port_of_thread T: a source port (of 127.0.0.1) whose queries the kernel
# gives to worker thread T (SO_REUSEPORT hashes the addresses and ports),
# found by asking for localhost (answered locally) and watching
# threadT.num.queries.
port_of_thread() {
  p=40000
  while [ $p -lt 40200 ]; do
    b=$(ctl stats_noreset | awk -F= -v k="thread$1.num.queries" \
      '$1 == k { print $2 }')
    dig -b "127.0.0.1#$p" +time=1 +tries=1 "@$CC_IP" localhost A \
      </dev/null >/dev/null 2>&1
    a=$(ctl stats_noreset | awk -F= -v k="thread$1.num.queries" \
      '$1 == k { print $2 }')
    [ "${a:-0}" -gt "${b:-0}" ] && { echo "$p"; return 0; }
    p=$((p + 1))
  done
  return 1
}

# pin_case PIN WANT_STATUS WANT_ANSWER [THREADS]: honest lab., resolve,
# strip, flush boxed.lab., resolve again. With THREADS 2 the first
# question goes to one worker and the second to the other.
pin_case() {
  : >"$WORK/curvecache.log"
  honest_lab || return 1
  w=${4:-1}
  cc_start "control-socket: $SOCK" "curve-pin: $1" "threads: $w" || return 1
  QSRC=
  if [ "$w" = 2 ]; then
    pa=$(port_of_thread 0) && pb=$(port_of_thread 1) || {
      bad "curve-pin, 2 threads: a source port for each" "none found"
      cc_stop
      return 1
    }
    echo "# source port $pa goes to thread 0, $pb to thread 1"
    QSRC=127.0.0.1#$pa
  fi
  expect www.boxed.lab NOERROR "$WWW" \
    "curve-pin: $1, threads $w, honest lab.: www.boxed.lab. answered"
  strip_lab || return 1
  ctl flush_zone boxed.lab >/dev/null 2>&1 ||
    bad "flush_zone boxed.lab" "curvecache-control failed"
  [ "$w" = 2 ] && QSRC=127.0.0.1#$pb
  expect www.boxed.lab "$2" "$3" \
    "curve-pin: $1, threads $w, then stripped lab.: www.boxed.lab. $2"
  QSRC=
  c=$(downgrades)
  if [ "$1" = yes ]; then
    if [ "$c" = 1 ] && [ "$(logged boxed.lab.)" -ge 1 ] &&
       [ "$(sends_to "$LAB_CURVE_BACKEND_IP")" = 0 ]; then
      ok "curve-pin: the key-less referral refused, logged, counted ($c)"
    else
      bad "curve-pin: the key-less referral refused, logged, counted" \
        "counter '$c'" "$WORK/curvecache.log"
    fi
  elif [ "$c" = 0 ]; then
    ok "curve-pin: no: nothing refused"
  else
    bad "curve-pin: no: nothing refused" "counter '$c'"
  fi
  cc_stop
}
echo "# 3. curve-pin ($(elapsed))"
pin_case yes SERVFAIL ""
pin_case no NOERROR "$WWW"
pin_case yes SERVFAIL "" 2
honest_lab
e2e_finish
