#!/bin/sh
# tests/e2e/faults_lab.sh: curvecache against authoritative servers that
# fail in every way we know of, in the loopback lab (tests/lab/lab.sh):
# tests/e2e/faulty.py plays one misbehaving server per mode (never
# answers, 2 s late, wrong ID, wrong question, REFUSED, SERVFAIL, TC on
# everything with TCP closed midway, garbage, huge answers, referral
# loops through one and two servers, CNAME loop and endless CNAME chain,
# endless chain of glueless delegations), each alone (zone
# MODE.fault.lab.) and beside a good NSD (MODE.g.fault.lab.; see
# tests/lab/zones/fault.lab.zone).
#
# For each case curvecache must give the client the right answer where
# any server can give it (www.MODE.g.fault.lab. A 192.0.2.99, and the
# slow and huge servers' data), else SERVFAIL, within its time bound
# (query-timeout 5 s: T_ANSWER_MS for an answer when a good server is
# there, T_SERVFAIL_MS otherwise); while each case runs, a cached name
# and a fresh name of a good zone must be answered at once (under
# T_SIDE_MS). At the end curvecache must exit 0 on SIGTERM with no
# sanitizer report in its output (with an ASan build, LeakSanitizer
# reports leaks at exit: the test fails on any).
#
# Run by "make check" (cwd = top build dir, $srcdir = top source dir).
# Exit 0 = every check passed, 1 = a check failed, 77 = SKIP. Prints one
# line per case: the answer and dig's time. FAULTS_ONLY=MODE runs the
# cases of one mode only.

# shellcheck disable=SC2119 # cc_start takes optional config lines
set -u
srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=tests/e2e/e2e_lib.sh
. "$srcdir/tests/e2e/e2e_lib.sh"
# shellcheck source=tests/e2e/hard_lib.sh
. "$srcdir/tests/e2e/hard_lib.sh"
e2e_init faults_lab python3
# A mode's lone server, slow: the answer after faulty.py's 2 s.
T_SLOW_MS=$((2000 + T_ANSWER_MS))
WWW=192.0.2.99
# Side queries (cache hit, fresh name of a healthy zone) during a case.
T_SIDE_MS=1500
# The huge answer of faulty.py (HUGE_RECORDS TXT records).
HUGE_RECORDS=210

# mode:last-octet of each faulty.py server (127.53.3.x).
SERVERS="silent:10 slow:11 badid:12 badq:13 refused:14 servfail:15 tc:16
garbage:17 huge:18 refself:19 refping:20 refpong:21 cname:22 glueless:23"
specs=
for sv in $SERVERS; do specs="$specs ${sv%%:*}@127.53.3.${sv#*:}"; done
# shellcheck disable=SC2086 # a list of MODE@ADDR
faulty_start 900 $specs

cc_start || exit 1

# A name in the cache, asked again during every case.
dig +time=3 +tries=1 "@$CC_IP" www.example.lab A >/dev/null 2>&1
side=0

# side_checks: a cached and an uncached name, each answered at once.
side_checks() {
  side=$((side + 1))
  for sq in www.example.lab "s$side-$$.wild.example.lab"; do
    t0=$(now_ms)
    dig +time=3 +tries=1 +short "@$CC_IP" "$sq" A </dev/null \
      >"$WORK/side.out" 2>&1
    ms=$(($(now_ms) - t0))
    if grep -qx '192\.0\.2\.[0-9]*' "$WORK/side.out" &&
       [ "$ms" -le "$T_SIDE_MS" ]; then
      side_ok=$((side_ok + 1))
    else
      bad "meanwhile: $sq A answered in $ms ms" "over $T_SIDE_MS ms" \
        "$WORK/side.out"
    fi
  done
}

# fcase LABEL EXPECT MAXMS DIGARGS...: one dig through curvecache (in the
# background, with side checks while it runs); EXPECT is "servfail",
# "a ADDR" (that A record only) or "txt N" (N TXT records). Prints
# "case LABEL: status, answer, time".
fcase() {
  label=$1 expect=$2 maxms=$3
  shift 3
  t0=$(now_ms)
  dig +time=10 +tries=1 +noall +comments +answer "@$CC_IP" "$@" \
    </dev/null >"$WORK/case.out" 2>&1 &
  dpid=$!
  sleep 0.3
  side_checks
  wait "$dpid"
  ms=$(($(now_ms) - t0))
  st=$(dig_status "$WORK/case.out")
  qt=$(sed -n 's/^;; Query time: \([0-9]*\) msec.*/\1/p' "$WORK/case.out")
  case $expect in
    servfail) want=SERVFAIL got=$st ;;
    a\ *) want="NOERROR A ${expect#a }"
          got="$st $(awk '!/^;/ && NF >= 5 { print $4, $5 }' \
            "$WORK/case.out" | sort -u | tr '\n' ' ' | sed 's/ $//')" ;;
    txt\ *) want="NOERROR ${expect#txt } TXT"
            got="$st $(awk '!/^;/ && $4 == "TXT"' "$WORK/case.out" |
              wc -l) TXT" ;;
  esac
  printf '# case %-34s %-10s %6s ms  %s\n' "$label" "${st:-none}" "$ms" \
    "$(awk '!/^;/ && NF >= 5 { print $4, $5 }' "$WORK/case.out" |
       head -n 1)"
  if [ "$got" = "$want" ] && [ "$ms" -le "$maxms" ]; then
    ok "$label: $want in $ms ms (dig: ${qt:-?} ms)"
  else
    bad "$label" "got '$got' in $ms ms; want '$want' within $maxms ms" \
      "$WORK/case.out"
  fi
}

# mode_cases MODE: the cases of one mode.
mode_cases() {
  m=$1
  case $m in
    slow)
      fcase "slow alone: www" "a $WWW" "$T_SLOW_MS" "www.slow.fault.lab" A ;;
    huge)
      fcase "huge: www (UDP TC, then TCP)" "a $WWW" "$T_ANSWER_MS" \
        "www.huge.fault.lab" A
      fcase "huge: ~60 KB TXT over TCP" "txt $HUGE_RECORDS" \
        "$T_ANSWER_MS" +tcp "big.huge.fault.lab" TXT
      fcase "huge: ~60 KB TXT again, cached" "txt $HUGE_RECORDS" 500 \
        +tcp "big.huge.fault.lab" TXT
      dig +time=5 +tries=1 +notcp +ignore "@$CC_IP" big.huge.fault.lab \
        TXT </dev/null >"$WORK/tc.out" 2>&1
      if dig_flags "$WORK/tc.out" | grep -qw tc; then
        ok "huge: over UDP the client gets TC=1"
      else
        bad "huge: over UDP the client gets TC=1" "no TC" "$WORK/tc.out"
      fi ;;
    refping)
      fcase "refping/refpong loop: www" servfail "$T_SERVFAIL_MS" \
        "www.refping.fault.lab" A ;;
    refpong) ;;
    cname)
      fcase "cname loop a <-> b" servfail "$T_SERVFAIL_MS" \
        "a.cname.fault.lab" A
      fcase "endless CNAME chain n0 -> n1 ..." servfail "$T_SERVFAIL_MS" \
        "n0.cname.fault.lab" A
      fcase "cname zone: www" "a $WWW" "$T_ANSWER_MS" \
        "www.cname.fault.lab" A ;;
    glueless)
      fcase "endless glueless chain from fault.lab." servfail \
        "$T_SERVFAIL_MS" "www.chain.fault.lab" A
      fcase "endless glueless chain inside the zone" servfail \
        "$T_SERVFAIL_MS" "www.c1.glueless.fault.lab" A ;;
    *)
      fcase "$m alone: www" servfail "$T_SERVFAIL_MS" \
        "www.$m.fault.lab" A ;;
  esac
  case $m in
    huge|refping|refpong|glueless) ;;
    *) fcase "$m beside a good server: www" "a $WWW" "$T_SERVFAIL_MS" \
         "www.$m.g.fault.lab" A ;;
  esac
}

side_ok=0
for sv in $SERVERS; do
  m=${sv%%:*}
  [ -n "${FAULTS_ONLY:-}" ] && [ "$m" != "$FAULTS_ONLY" ] && continue
  echo "# mode $m ($(elapsed))"
  mode_cases "$m"
  e2e_alive "$CC_PID" || { bad "curvecache alive after $m" "it died"; break; }
done
ok "meanwhile: $side_ok side queries answered under $T_SIDE_MS ms"

# Each faulty server was really asked (the cases went where they should).
for sv in $SERVERS; do
  m=${sv%%:*}
  [ -n "${FAULTS_ONLY:-}" ] && [ "$m" != "$FAULTS_ONLY" ] && continue
  [ "$m" = refpong ] && [ "${FAULTS_ONLY:-}" = refping ] && continue
  if grep -q "^$m " "$WORK/faulty.out"; then
    ok "faulty.py $m got queries ($(grep -c "^$m " "$WORK/faulty.out"))"
  else
    bad "faulty.py $m got queries" "none" "$WORK/faulty.out"
  fi
done

cc_stop
san_check
e2e_finish
