#!/bin/sh
# tests/e2e/validate_lab.sh: curvecache validates the signed lab
# (tests/lab/signed.sh) as tests/lab/signed/README says a validator must
# (tests/e2e/signed_lab.sh holds Unbound and delv to the same table,
# tests/lab/signed/cases; a fourth column there gives curvecache's verdict
# where it differs).
#
# What each case must give (dig +dnssec through curvecache):
#   secure    NOERROR, AD, the answer and its RRSIGs
#   insecure  NOERROR, no AD, the answer
#   nxsecure, nxchain  NXDOMAIN with AD (nxchain: at the end of a CNAME
#             chain)
#   nodata    NOERROR, no answer, AD
#   nxinsecure, nxoptout  NXDOMAIN without AD
#   bogus     SERVFAIL without AD, an EDE option; with CD set the data
#             is there
#   nxbogus   the same, but with CD set the name is NXDOMAIN
#   synth     NOERROR, AD, a CNAME and the DNAME that synthesizes it
# and a second asking (from the cache) gives the same. Without DO no
# RRSIG is sent and AD only when the query had AD set (RFC 6840 5.7).
# A bogus answer to a CD=1 question is the same fresh and cached: the
# data, no AD, no EDE. Then: aggressive use of cached NSEC/NSEC3 (RFC
# 8198); good names stay secure while a KeyTrap and NSEC3 flood is answered SERVFAIL (the work
# caps, counted); DNSSEC and DNSCurve together; and a second curvecache
# with nsec3-max-iterations: 0 and val-bogus-ttl: 7.
#
# curvecache listens on 127.54.100.2 (the range the signed lab leaves to
# resolvers under test), with the lab's root hints and its trust anchor
# (trust-anchor-file). Run by "make check" (cwd = top build dir, $srcdir
# = top source dir). Exit 0 = every check passed, 1 = a check failed,
# 77 = SKIP (not root, or a program missing). E2E_KEEP=1 keeps the work
# directory.

set -u
srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=tests/e2e/e2e_lib.sh
. "$srcdir/tests/e2e/e2e_lib.sh"
CC_IP=127.54.100.2
CURVECACHE=${CURVECACHE:-./curvecache}
CTL=${CURVECACHE_CONTROL:-./curvecache-control}

# shellcheck disable=SC2086 # a list of programs
e2e_need "the signed lab binds port 53" $SIGNED_NEEDS
e2e_built CURVECACHE CTL
signed_lab_start validate_lab

# cc_up [LINE...]: curvecache on $CC_IP (e2e_lib.sh's cc_start: its lab
# configuration, here with the signed lab's hints), validating with the
# signed lab's anchor, with LINE... added; exit 1 if it does not answer.
cc_up() {
  cc_start "dnssec: yes" "trust-anchor-file: $SIGNED_TA_DS" \
    "control-socket: $WORK/control" "log-queries: yes" "$@" || exit 1
}
cc_up

# expect WANT NAME TYPE: ask twice (resolution, then the cache); judged
# by e2e_lib.sh's dnssec_judge (a failure must carry an EDE) and cd_data.
expect() {
  for round in fresh cached; do
    raw=$WORK/q-$round.out
    dig +dnssec +time=5 +tries=1 "@$CC_IP" "$2" "$3" >"$raw" 2>&1
    why=$(dnssec_judge "$1" "$3" "$raw" ede)
    why="$why$(cd_data "$CC_IP" 5 "$1" "$2" "$3")"
    if [ -z "$why" ]; then ok "$1 ($round): $2 $3"
    else bad "$1 ($round): $2 $3" "${why#; }" "$raw"; fi
  done
}

# ---- CD=1 and bogus data: the same answer fresh and from the cache ----
# mail.future.sec A (signatures not yet valid, asked nowhere else) with
# CD set: the data without AD and, as Unbound answers CD=1 questions, no
# DNSSEC EDE, whether it comes from the iterator (first) or the cache.
for round in fresh cached; do
  raw=$WORK/cd-$round.out
  dig +cd +dnssec +time=5 +tries=1 "@$CC_IP" mail.future.sec A >"$raw" 2>&1
  why=
  [ "$(dig_status "$raw")" = NOERROR ] &&
    grep -q "^mail.future.sec.*[[:space:]]A[[:space:]]" "$raw" ||
    why="; status $(dig_status "$raw"), no data"
  case " $(dig_flags "$raw") " in *" ad "*) why="$why; AD" ;; esac
  ! grep -q '; EDE: ' "$raw" || why="$why; $(grep '; EDE: ' "$raw")"
  if [ -z "$why" ]; then ok "CD=1 bogus ($round): the data, no AD, no EDE"
  else bad "CD=1 bogus ($round): the data, no AD, no EDE" "${why#; }" "$raw"; fi
done

# every case of the table (tests/lab/signed/cases: WANT NAME TYPE [CC]),
# with curvecache's verdict CC where it differs from the reference
# validators' WANT
"$SIGNED" cases >"$WORK/cases" || { echo "FAIL: signed.sh cases"; exit 1; }
while read -r _ name type cc <&3; do
  expect "$cc" "$name" "$type"
done 3<"$WORK/cases"

# ---- the flags without DO ----
raw=$WORK/plain.out
# (dig sets AD in its queries unless told +noadflag)
dig +noadflag +time=5 +tries=1 "@$CC_IP" www.alg13.sec A >"$raw" 2>&1
fl=" $(dig_flags "$raw") "
if [ "$(dig_status "$raw")" = NOERROR ] && ! grep -q 'RRSIG' "$raw" &&
  case $fl in *" ad "*) false ;; *) true ;; esac; then
  ok "DO=0: no RRSIG, no AD"
else
  bad "DO=0: no RRSIG, no AD" "flags$fl" "$raw"
fi
dig +adflag +time=5 +tries=1 "@$CC_IP" www.alg13.sec A >"$raw" 2>&1
case " $(dig_flags "$raw") " in
  *" ad "*) ok "DO=0 AD=1: AD on a secure answer (RFC 6840 5.7)" ;;
  *) bad "DO=0 AD=1: AD on a secure answer" "no AD" "$raw" ;;
esac
# the reason of a bogus zone stays known while it is cached: EDE 7 for a
# name of the expired zone not asked before
dig +time=5 +tries=1 "@$CC_IP" mail.expired.sec A >"$raw" 2>&1
if grep -q 'EDE: 7' "$raw"; then ok "expired signatures: EDE 7"
else bad "expired signatures: EDE 7" "other EDE" "$raw"; fi
if grep -q 'event=dnssec zone=badsig.sec. name=www.badsig.sec. type=A verdict=bogus why="signature does not verify"' \
  "$WORK/curvecache.log"; then
  ok "a bogus RRset is logged with its reason"
else
  bad "a bogus RRset is logged with its reason" "no line" \
    "$WORK/curvecache.log"
fi
# ---- aggressive use of the validated cache (RFC 8198) ----
# The proof of nx.alg8.sec (asked above) holds ns1 -> *.w, which covers
# nx2 too, and the apex's record, which covers *.alg8.sec and lacks TXT;
# that of www.alg8.sec TXT holds www -> alg8.sec (the wrap), which covers
# zzz; that of nx.alg13.sec (NSEC3) matches the apex, which lacks TXT.
# The wildcard answer any.w.alg8.sec A left *.w.alg8.sec A cached and its
# NSEC *.w -> www, which covers zzz.w too: a wildcard answer (RFC 8198
# section 5.4). So these are answered from those records, with AD and
# the NSEC/NSEC3 records, without a query upstream, and counted.
aggr_nx0=$(cc_stat num.query.aggressive.NXDOMAIN)
aggr_nd0=$(cc_stat num.query.aggressive.NOERROR)
aggr_wc0=$(cc_stat num.query.aggressive.wildcard)
for q in nxsecure:nx2.alg8.sec:A nxsecure:zzz.alg8.sec:A nodata:alg8.sec:TXT \
  nodata:alg13.sec:TXT secure:zzz.w.alg8.sec:A; do
  want=${q%%:*}
  qt=${q##*:}
  qn=${q#*:}
  qn=${qn%:*}
  raw=$WORK/aggr.out
  sends0=$(grep -c 'event=upstream_send ' "$WORK/curvecache.log")
  dig +dnssec +time=5 +tries=1 "@$CC_IP" "$qn" "$qt" >"$raw" 2>&1
  why=$(dnssec_judge "$want" "$qt" "$raw" ede)
  sends=$(($(grep -c 'event=upstream_send ' "$WORK/curvecache.log") - sends0))
  [ "$sends" -eq 0 ] || why="$why; $sends queries upstream"
  grep -q "^[^;].*[[:space:]]NSEC3*[[:space:]]" "$raw" || why="$why; no NSEC"
  grep -q "^[^;].*[[:space:]]RRSIG[[:space:]]*NSEC3* " "$raw" ||
    why="$why; no RRSIG over NSEC"
  if [ -z "$why" ]; then ok "aggressive $want: $qn $qt"
  else bad "aggressive $want: $qn $qt" "${why#; }" "$raw"; fi
done
aggr_nx=$(cc_stat num.query.aggressive.NXDOMAIN)
aggr_nd=$(cc_stat num.query.aggressive.NOERROR)
aggr_wc=$(cc_stat num.query.aggressive.wildcard)
if [ $((${aggr_nx:-0} - ${aggr_nx0:-0})) -eq 2 ] &&
  [ $((${aggr_nd:-0} - ${aggr_nd0:-0})) -eq 2 ] &&
  [ $((${aggr_wc:-0} - ${aggr_wc0:-0})) -eq 1 ]; then
  ok "aggressive answers counted (NXDOMAIN $aggr_nx, NOERROR $aggr_nd, wildcard $aggr_wc)"
else
  bad "aggressive answers counted" \
    "NXDOMAIN ${aggr_nx0:-?} -> ${aggr_nx:-?}, NOERROR ${aggr_nd0:-?} -> ${aggr_nd:-?}, wildcard ${aggr_wc0:-?} -> ${aggr_wc:-?}" \
    "$WORK/curvecache.log"
fi
# ---- end of aggressive use ----
# ---- bounded work under a flood (issue 15: KeyTrap, CVE-2023-50387;
# NSEC3, CVE-2023-50868) ----
# 200 questions, 4 at a time (dig +tries=1 in the background), none
# asked before: 100 names of keytrap.sec. (40 keys of one tag, 40 bad
# signatures) and 100 names below the 100-label name of hashflood.sec.
# (NSEC3 of 50 iterations and a 255-byte salt; each proof's closest
# encloser is found by the walk up from the question in a few hashes).
# While it runs, fresh good names (wildcard answers of the NSEC3 zones
# alg13.sec. and alg15.sec., so each needs its proof) must come secure,
# with AD, within dig's timeout. Then: every flood question answered,
# those of keytrap.sec. SERVFAIL (the bogus counter grew by as many),
# those of hashflood.sec. NXDOMAIN with AD.
deep=$("$SIGNED" cases | awk '$2 ~ /^x\.l\.l.*\.d100\./ { print substr($2, 3) }')
awk -v d="$deep" 'BEGIN { for (i = 0; i < 100; i++)
  printf "k%d.keytrap.sec\nh%d.%s\n", i, i, d }' >"$WORK/flood.names"
cap_text='EDE: 0 (Other): (DNSSEC limit reached: verifications or NSEC3 hashes of one question)'
bogus0=$(cc_stat num.answer.bogus)
ede00=$(cc_stat num.answer.ede.0)
bg_start flood xargs -a "$WORK/flood.names" -P 4 -I Q \
  dig +time=5 +tries=1 "@$CC_IP" Q A
flood_pid=$bg_pid
i=0 good=0 why=
while e2e_alive "$flood_pid" || [ $i -lt 4 ]; do
  for z in alg13 alg15; do
    raw=$WORK/good.out
    dig +dnssec +time=5 +tries=1 "@$CC_IP" "g$i.w.$z.sec" A >"$raw" 2>&1
    w=$(dnssec_judge secure A "$raw" ede)
    if [ -z "$w" ]; then good=$((good + 1))
    else why="$why; g$i.w.$z.sec:$w"; cp "$raw" "$WORK/good.bad"; fi
  done
  i=$((i + 1))
done
bg_stop "$flood_pid"
if [ -z "$why" ]; then
  ok "during the flood: $good good names secure, with AD, in time"
else
  bad "during the flood: good names secure, with AD, in time" \
    "${why#; }" "$WORK/good.bad"
fi
nsf=$(grep -c 'status: SERVFAIL' "$WORK/flood.out")
nnx=$(grep -c 'status: NXDOMAIN' "$WORK/flood.out")
nad=$(grep -c '^;; flags:[^;]* ad[ ;]' "$WORK/flood.out")
ncap=$(grep -c "$cap_text" "$WORK/flood.out")
if [ "$nsf" -eq 100 ] && [ "$nnx" -eq 100 ] && [ "$nad" -eq 100 ]; then
  ok "the flood: 200 answers, 100 SERVFAIL ($ncap with the work cap's EDE), 100 NXDOMAIN with AD"
else
  bad "the flood: 200 answers, 100 SERVFAIL, 100 NXDOMAIN with AD" \
    "$nsf SERVFAIL, $nnx NXDOMAIN, $nad AD, of $(grep -c 'status: ' "$WORK/flood.out")"
fi
bogus=$(cc_stat num.answer.bogus)
ede0=$(cc_stat num.answer.ede.0)
if [ $((${bogus:-0} - ${bogus0:-0})) -ge 100 ]; then
  ok "counted: num.answer.bogus $bogus0 -> $bogus, num.answer.ede.0 $ede00 -> $ede0"
else
  bad "counted: num.answer.bogus +100" \
    "bogus ${bogus0:-?} -> ${bogus:-?}, ede.0 ${ede00:-?} -> ${ede0:-?}"
fi
# ---- end of bounded work ----
# ---- DNSSEC and DNSCurve together (resolver/iter/iter_curvesec.c) ----
# curve.sec.: its key is in the referral and in its signed apex NS set,
# which confirms it; www.curve.sec. A (asked above) came secure and boxed.
# curveup.sec.: the referral names a plain server, the signed apex NS set
# the uz5 one: curvecache switches to DNSCurve for the zone.
# together NAME ZONE NOTE TITLE: NAME A was answered secure over DNSCurve
# (query log) and the iterator logged NOTE (event=curve_confirmed) for
# ZONE.
together() {
  if grep 'event=query ' "$WORK/curvecache.log" | grep " name=$1 type=A " |
    grep -q ' curve=yes dnssec=secure' &&
    grep 'event=curve_confirmed ' "$WORK/curvecache.log" |
    grep " zone=$2 " | grep -q "note=\"$3\""; then
    ok "$4"
  else
    bad "$4" "no such query-log or curve_confirmed line" \
      "$WORK/curvecache.log"
  fi
}
together www.curve.sec. curve.sec. "keys confirmed by the signed NS set" \
  "curve.sec.: secure, over DNSCurve, keys confirmed by DNSSEC"
lookup=$WORK/lookup.out
"$CTL" -s "$WORK/control" lookup www.curve.sec >"$lookup" 2>&1
if grep -q '^dnscurve keys: 1 of curve\.sec\. confirmed by DNSSEC until ' \
  "$lookup"; then
  ok "lookup: curve.sec.'s key confirmed by DNSSEC"
else
  bad "lookup: curve.sec.'s key confirmed by DNSSEC" "no such line" "$lookup"
fi
together www.curveup.sec. curveup.sec. "servers switched to its keys" \
  "curveup.sec.: keys only its signed NS set names are used"
if grep -q 'event=curve_downgrade' "$WORK/curvecache.log"; then
  bad "no DNSCurve downgrade refused in the lab" "see the log" \
    "$WORK/curvecache.log"
fi
# ---- delv through curvecache (RFC 4035 section 3.1.3) ----
# A validator downstream of curvecache must be able to validate what it
# sends to a DO=1 client: the RRSIGs, the NSEC/NSEC3 records proving a
# wildcard expansion (authority section), a negative answer's SOA and
# proof, also at the end of a CNAME chain. delv, pointed at curvecache
# with the lab's anchor, asks every case whose verdict (curvecache's)
# is secure, nxsecure, nodata or nxchain, on an empty cache (the fresh
# answer), then again (the answer from the cache); each time it must
# call the answer fully validated (nxchain: the chain, and the name
# "ncache nxdomain"), as it does Unbound's in tests/e2e/signed_lab.sh.
delv_through_cc() {
  awk '$3 == "DNSKEY" { k = $7; for (i = 8; i <= NF; i++) k = k $i
    printf "trust-anchors {\n\t\".\" static-key %s %s %s \"%s\";\n};\n", \
      $4, $5, $6, k }' "$SIGNED_TA_DNSKEY" >"$WORK/delv.anchor"
  "$CTL" -s "$WORK/control" flush_all >/dev/null 2>&1 ||
    bad "flush_all before delv" "curvecache-control failed"
  while read -r _ name type cc <&3; do
    case $cc in
      secure | nxchain) pat='^; fully validated' ;;
      nxsecure | nodata) pat='^; negative response, fully validated' ;;
      *) continue ;;
    esac
    for round in fresh cached; do
      out=$WORK/delv-$round.out
      timeout 30 delv -a "$WORK/delv.anchor" +root=. "@$CC_IP" \
        "$name" "$type" >"$out" 2>&1
      if grep -q "$pat" "$out" && { [ "$cc" != nxchain ] ||
        grep -q '^;; resolution failed: ncache nxdomain' "$out"; }; then
        ok "delv via curvecache, $cc ($round): $name $type"
      else
        bad "delv via curvecache, $cc ($round): $name $type" \
          "delv says: $(grep '^;' "$out" | head -n 3 | tr '\n' ' ')" "$out"
      fi
    done
  done 3<"$WORK/cases"
}
if command -v delv >/dev/null 2>&1; then
  aggr_wc0=$(cc_stat num.query.aggressive.wildcard)
  delv_through_cc
  # fresh.w.alg8.sec A came from the cached wildcard both times (RFC 8198
  # section 5.4): delv validated the synthesized answers too
  aggr_wc=$(cc_stat num.query.aggressive.wildcard)
  if [ $((${aggr_wc:-0} - ${aggr_wc0:-0})) -ge 2 ]; then
    ok "delv validated synthesized wildcard answers"
  else
    bad "delv validated synthesized wildcard answers" \
      "wildcard ${aggr_wc0:-?} -> ${aggr_wc:-?}" "$WORK/curvecache.log"
  fi
else echo "# delv not installed: the delv pass skipped"; fi
# ---- end of delv through curvecache ----
# The downgrade: sec.'s server now refers curve.sec. to its NSD by a plain
# name (the key stripped on the way); the cache is flushed, the keys its
# signed NS set confirmed are not: SERVFAIL, EDE 0, logged, counted.
awk -v k="$SIGNED_CURVE_KEY.ns1.curve.sec." -v ip="$SIGNED_CURVE_BACKEND_IP" '
  $1 == "curve.sec." && $4 == "NS" { $5 = "ns1.curve.sec." }
  $1 == k && $4 == "A" { $1 = "ns1.curve.sec."; $5 = ip }
  { print }' "$SIGNED_DIR/sec.signed" >"$WORK/sec.stripped" &&
  cat "$WORK/sec.stripped" >"$SIGNED_DIR/sec.signed" &&
  kill -HUP "$(cat "$SIGNED_DIR/nsd-tld.pid")"
n=0
until dig +norec +time=1 +tries=1 +noall +authority "@$SIGNED_TLD_IP" \
  www.curve.sec A 2>/dev/null | grep -q 'NS[[:space:]]*ns1\.curve\.sec\.'; do
  n=$((n + 1))
  [ $n -ge 50 ] && { bad "sec. reloaded" "the referral still has the key"; break; }
  sleep 0.1
done
"$CTL" -s "$WORK/control" flush_all >/dev/null 2>&1 ||
  bad "flush_all" "curvecache-control failed"
raw=$WORK/downgrade.out
dig +dnssec +time=5 +tries=1 "@$CC_IP" www.curve.sec A >"$raw" 2>&1
if [ "$(dig_status "$raw")" = SERVFAIL ] &&
  grep -q 'EDE: 0 (Other): (DNSCurve downgrade' "$raw" &&
  grep -q 'event=curve_downgrade zone=curve.sec. ' "$WORK/curvecache.log" &&
  [ "$(cc_stat curve.downgrade.refused)" = 1 ]; then
  ok "keys dropped from a referral after DNSSEC confirmed them: refused"
else
  why="status $(dig_status "$raw")"
  bad "keys dropped from a referral after DNSSEC confirmed them: refused" \
    "$why, curve.downgrade.refused $(cc_stat curve.downgrade.refused)" \
    "$raw"
fi
echo "# checks done: $(elapsed)"
e2e_kill "$CC_PID"
rc=$?
CC_PID=
if [ $rc -eq 0 ]; then ok "curvecache exits 0 on SIGTERM"
else bad "curvecache exits 0 on SIGTERM" "status $rc"; fi
# ---- the options nsec3-max-iterations and val-bogus-ttl ----
# A second curvecache (empty cache) with nsec3-max-iterations: 0 and
# val-bogus-ttl: 7. alg13.sec. uses 5 NSEC3 iterations: its denials
# become insecure (RFC 9276), no AD, EDE 27; alg15.sec.'s (0 iterations)
# stay secure. A bogus RRset is kept at most 7 s: the TTL a CD=1 client
# sees, lookup's and every sec=bogus line of dump_cache.
BOGUS_TTL=7
cc_up "nsec3-max-iterations: 0" "val-bogus-ttl: $BOGUS_TTL"
for q in NXDOMAIN:nx.alg13.sec:A NOERROR:www.alg13.sec:TXT; do
  st=${q%%:*} qn=${q#*:}
  qt=${qn#*:} qn=${qn%:*}
  raw=$WORK/iter0.out
  dig +dnssec +time=5 +tries=1 "@$CC_IP" "$qn" "$qt" >"$raw" 2>&1
  case " $(dig_flags "$raw") " in *" ad "*) ad=1 ;; *) ad=0 ;; esac
  if [ "$(dig_status "$raw")" = "$st" ] && [ $ad = 0 ] &&
    grep -q '; EDE: 27' "$raw"; then
    ok "nsec3-max-iterations 0: $qn $qt $st, insecure, EDE 27"
  else
    bad "nsec3-max-iterations 0: $qn $qt $st, insecure, EDE 27" \
      "status $(dig_status "$raw"), AD $ad" "$raw"
  fi
done
expect nxsecure nx.alg15.sec A
raw=$WORK/bogusttl.out
dig +dnssec +time=5 +tries=1 "@$CC_IP" www.badsig.sec A >"$raw" 2>&1
st=$(dig_status "$raw")
dig +cd +time=5 +tries=1 "@$CC_IP" www.badsig.sec A >>"$raw" 2>&1
"$CTL" -s "$WORK/control" lookup www.badsig.sec >>"$raw" 2>&1
"$CTL" -s "$WORK/control" dump_cache >"$WORK/dump.out" 2>&1
# the TTLs: the CD answer's and lookup's A lines, every bogus line
ttls=$(awk '$1 == "www.badsig.sec." && $4 == "A" { print $2 }' "$raw" |
  tr '\n' ' ')
bttls=$(awk '/sec=bogus/ { print $2 }' "$WORK/dump.out" | sort -un |
  tr '\n' ' ')
if [ "$st" = SERVFAIL ] && [ -n "$bttls" ] &&
  [ "$(echo "$ttls" | wc -w)" -eq 2 ] &&
  echo "$ttls $bttls" | tr ' ' '\n' |
  awk -v m="$BOGUS_TTL" '$1 > m { f = 1 } END { exit f }'; then
  ok "val-bogus-ttl $BOGUS_TTL: bogus kept at most $BOGUS_TTL s (TTLs $ttls; dump_cache $bttls)"
else
  bad "val-bogus-ttl $BOGUS_TTL: bogus kept at most $BOGUS_TTL s" \
    "status $st; TTLs ${ttls:-none}; dump_cache's bogus TTLs ${bttls:-none}" \
    "$raw"
fi
e2e_kill "$CC_PID"
CC_PID=
if grep -q 'Sanitizer' "$WORK/curvecache.log"; then
  bad "no sanitizer report" "see the log" "$WORK/curvecache.log"
fi
e2e_finish
