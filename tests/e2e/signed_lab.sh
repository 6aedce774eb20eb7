#!/bin/sh
# tests/e2e/signed_lab.sh: the signed lab (tests/lab/signed.sh) is what
# tests/lab/signed/README says it is. Two validators that are not ours
# judge every case: Unbound, validating ("validator iterator") from the
# lab's root hints with the lab's trust anchor as a DS record, and BIND's
# delv, which validates on its own (with the anchor as a DNSKEY record)
# from the data Unbound fetches with CD set. The validator tests of
# curvecache that come later trust the lab because this check passes.
#
# What each case must give (dig +dnssec through Unbound):
#   secure    NOERROR, AD, the answer and its RRSIGs (delv: fully validated)
#   insecure  NOERROR, no AD, the answer (delv: unsigned answer)
#   nxsecure  NXDOMAIN with AD (delv: negative, fully validated)
#   nodata    NOERROR, no answer, AD (delv: negative, fully validated)
#   nxinsecure NXDOMAIN without AD (delv: negative, unsigned)
#   nxchain   NXDOMAIN with AD at the end of a CNAME chain (delv: the
#             chain fully validated, the name "ncache nxdomain")
#   nxoptout  NXDOMAIN without AD, proven by an opt-out NSEC3 (RFC 5155
#             section 9.2: no AD) (delv: negative, fully validated)
#   bogus     SERVFAIL without AD; with CD set the data is there (so the
#             failure is validation's, not a broken server) (delv:
#             resolution failed)
#   nxbogus   the same, but with CD set the name is NXDOMAIN (a denial
#             that failed)
# The cases are those of tests/lab/signed/cases (validate_lab.sh holds
# curvecache to the same table).
#
# Unbound listens on 127.54.100.1 (the range the signed lab leaves to the
# resolvers under test), in the foreground, its own config in the work
# directory, no remote control, stopped by pid. Run by "make check" (cwd =
# top build dir, $srcdir = top source dir); curvecache itself is not used.
# Exit 0 = every check passed, 1 = a check failed, 77 = SKIP (not root, or
# a program missing: nsd, curvedns, unbound, dig, delv, bind9-utils,
# ldnsutils, python3). The curve.sec. checks also read CurveDNS's log.
# Environment: E2E_KEEP=1 keeps the work directory (and the lab's).

set -u
srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=tests/e2e/e2e_lib.sh
. "$srcdir/tests/e2e/e2e_lib.sh"
UB_IP=127.54.100.1

# what the EXIT trap shows when a check failed
e2e_diag() {
  [ -f "$WORK/unbound.out" ] || return 0
  echo "---- last lines of the Unbound log ----"
  tail -n 30 "$WORK/unbound.out"
}

# shellcheck disable=SC2086 # a list of programs
e2e_need "the signed lab binds port 53" $SIGNED_NEEDS unbound delv
signed_lab_start signed_lab
# CurveDNS's forwarded answers so far (the lab's readiness probes)
fwd_line='sending DNS response in regular format'
fwd0=$(grep -c "$fwd_line" "$SIGNED_DIR/curvedns.log")

# ---- Unbound, validating ----
port_free "$UB_IP" || { echo "FAIL: $UB_IP:53 is in use"; exit 1; }
ub_valid_conf "$UB_IP" "val-log-level: 2"
# (localhost is one of Unbound's own local zones: no upstream query)
ub_start "$UB_IP" || exit 1

# delv's trust anchor: the lab's root DNSKEY, in delv's own syntax.
awk '$3 == "DNSKEY" { k = $7; for (i = 8; i <= NF; i++) k = k $i
  printf "trust-anchors {\n\t\".\" static-key %s %s %s \"%s\";\n};\n", \
    $4, $5, $6, k }' "$SIGNED_TA_DNSKEY" >"$WORK/delv.anchor"

# ---- the cases ----

# expect WANT NAME TYPE: judge Unbound's answer for NAME/TYPE (and delv's
# verdict) as the header describes.
expect() {
  raw=$WORK/q.out
  dig +dnssec +time=3 +tries=1 "@$UB_IP" "$2" "$3" >"$raw" 2>&1
  why="$(dnssec_judge "$1" "$3" "$raw")$(cd_data "$UB_IP" 3 "$1" "$2" "$3")"
  why="$why$(delv_says "$1" "$2" "$3")"
  if [ -z "$why" ]; then ok "$1: $2 $3"
  else bad "$1: $2 $3" "${why#; }" "$raw"; fi
}

# delv_says WANT NAME TYPE: "" when delv's verdict agrees with WANT (a
# negative answer is also reported as "resolution failed: ncache ...",
# a bogus one only as "resolution failed").
delv_says() {
  delv -a "$WORK/delv.anchor" +root=. "@$UB_IP" "$2" "$3" >"$WORK/delv.out" 2>&1
  case $1 in
    secure) pat='^; fully validated' ;;
    insecure) pat='^; unsigned answer' ;;
    nxsecure | nodata | nxoptout)
      pat='^; negative response, fully validated' ;;
    nxinsecure) pat='^; negative response, unsigned answer' ;;
    # the chain's records "fully validated", the name "ncache nxdomain"
    nxchain) pat='^; fully validated' ;;
    bogus | nxbogus) pat='^;; resolution failed: failure' ;;
  esac
  grep -q "$pat" "$WORK/delv.out" && { [ "$1" != nxchain ] ||
    grep -q '^;; resolution failed: ncache nxdomain' "$WORK/delv.out"; } ||
    echo "; delv says: $(grep '^;' "$WORK/delv.out" | head -n 3 | tr '\n' ' ')"
}

# every case of the table (tests/lab/signed/cases: WANT NAME TYPE [CC];
# CC is curvecache's, judged by tests/e2e/validate_lab.sh)
"$SIGNED" cases >"$WORK/cases" || { echo "FAIL: signed.sh cases"; exit 1; }
while read -r want name type _ <&3; do
  [ "$want" = - ] || expect "$want" "$name" "$type"
done 3<"$WORK/cases"
# curve.sec.'s signed apex NS set (a case of the table) names the server
# by its uz5 key
raw=$WORK/curvens.out
dig +dnssec +time=3 +tries=1 "@$UB_IP" curve.sec NS >"$raw" 2>&1
if grep -q "NS[[:space:]]*$SIGNED_CURVE_KEY\.ns1\.curve\.sec\." "$raw"; then
  ok "curve.sec NS: the signed apex NS set names $SIGNED_CURVE_KEY"
else
  bad "curve.sec NS: the signed apex NS set names the uz5 key" "not so" "$raw"
fi
fwd=$(($(grep -c "$fwd_line" "$SIGNED_DIR/curvedns.log") - fwd0))
if [ "$fwd" -gt 0 ]; then
  ok "curve.sec: $fwd answers came through CurveDNS"
else
  bad "curve.sec: through CurveDNS" "no forwarded answer in its log" \
    "$SIGNED_DIR/curvedns.log"
fi
echo "# checks done: $(elapsed)"

e2e_finish
