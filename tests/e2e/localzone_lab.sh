#!/bin/sh
# tests/e2e/localzone_lab.sh: every local-zone type of Unbound, inline
# local-data and local-data-ptr lines, and the control commands that
# change local zones at run time, end to end with curvecache resolving in
# the loopback lab (tests/lab/lab.sh; shared code in tests/e2e/e2e_lib.sh).
#
# Run by "make check" (cwd = top build dir, $srcdir = top source dir).
# Exit 0 = every check passed, 1 = a check failed, 77 = SKIP (not root,
# or nsd/curvedns/dig missing).
#
# - types: a zone TYPE.zz. of each type, with local data at its apex
#   (192.0.2.1) and at d.TYPE.zz. (192.0.2.2), written as Unbound does
#   (quoted); dig asks d A, d MX and x A and checks the status, the AA
#   flag and the answer: local answers carry AA, a resolved name is the
#   lab root's NXDOMAIN without AA, deny types send nothing (dig times
#   out); inform types log event=local_inform with the client.
# - local-data-ptr answers the PTR; "test. nodefault" lets the lab
#   resolve names under test.
# - curvecache -t refuses a local-data line with bad RDATA (naming it).
# - control: local_zone / local_zone_remove, local_zones and
#   local_zones_remove with their lines on standard input ("added N
#   zones"), local_data / local_data_remove, local_datas and
#   local_datas_remove; list_local_zones shows them; they survive a
#   SIGHUP; with unbound-control (when installed) local_zones reads its
#   standard input as Unbound's does.

set -u
srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=tests/e2e/e2e_lib.sh
. "$srcdir/tests/e2e/e2e_lib.sh"
e2e_init localzone_lab

CTL=${CURVECACHE_CONTROL:-./curvecache-control}
[ -x "$CTL" ] || { echo "FAIL: $CTL not built"; exit 1; }
SOCK=$WORK/run/control
mkdir -p "$WORK/run"
ctl() { "$CTL" -s "$SOCK" "$@"; }

TYPES="static transparent typetransparent refuse deny redirect inform
inform_deny inform_redirect always_transparent always_refuse
always_nxdomain always_nodata always_deny always_null noview"

set -- "control-socket: $SOCK" "local-zone: test. nodefault" \
  "local-data-ptr: \"192.0.2.77 ptr.host.zz.\"" \
  "local-data: 'txt.host.zz. 60 IN TXT \"hello world\"'"
for t in $TYPES; do
  set -- "$@" "local-zone: \"$t.zz.\" $t" \
    "local-data: \"$t.zz. A 192.0.2.1\"" \
    "local-data: \"d.$t.zz. 300 IN A 192.0.2.2\""
done
cc_start "$@" || { e2e_finish; exit 1; }

# q NAME TYPE TAG: dig through curvecache into $WORK/TAG.out.
q() {
  dig +time=2 +tries=1 +noall +comments +answer +noclass "@$CC_IP" \
    "$1" "$2" >"$WORK/$3.out" 2>&1
}
# want TAG WHAT: what the answer in TAG.out must be:
#   A:ADDR (NOERROR, AA, an A of ADDR), NODATA (NOERROR, AA, none),
#   NXL (NXDOMAIN, AA: local), RES (NXDOMAIN without AA: the lab root's),
#   REF (REFUSED), DROP (no answer at all).
want() {
  f=$WORK/$1.out
  st=$(dig_status "$f")
  fl=" $(dig_flags "$f") "
  recs=$(grep -v '^;' "$f" | grep -c .)
  case $fl in *" aa "*) aa=1 ;; *) aa=0 ;; esac
  case $2 in
    A:*) [ "$st" = NOERROR ] && [ $aa = 1 ] &&
         grep -v '^;' "$f" | grep -q "A[[:space:]]*${2#A:}\$" ;;
    NODATA) [ "$st" = NOERROR ] && [ $aa = 1 ] && [ "$recs" = 0 ] ;;
    NXL) [ "$st" = NXDOMAIN ] && [ $aa = 1 ] && [ "$recs" = 0 ] ;;
    RES) [ "$st" = NXDOMAIN ] && [ $aa = 0 ] ;;
    REF) [ "$st" = REFUSED ] ;;
    DROP) [ -z "$st" ] && grep -q "timed out\|no servers" "$f" ;;
  esac
}
# check NAME TYPE TAG WHAT: ask and judge.
check() {
  q "$1" "$2" "$3"
  if want "$3" "$4"; then ok "$1 $2: $4"
  else bad "$1 $2: $4" "status $(dig_status "$WORK/$3.out")" \
    "$WORK/$3.out"; fi
}

# ---- every type: d A, d MX, x A ----
while read -r t da dmx xa; do
  check "d.$t.zz" A "$t-da" "$da"
  check "d.$t.zz" MX "$t-dmx" "$dmx"
  check "x.$t.zz" A "$t-xa" "$xa"
done <<'EOF'
static A:192.0.2.2 NODATA NXL
transparent A:192.0.2.2 NODATA RES
typetransparent A:192.0.2.2 RES RES
refuse A:192.0.2.2 NODATA REF
deny A:192.0.2.2 NODATA DROP
redirect A:192.0.2.2 NODATA A:192.0.2.1
inform A:192.0.2.2 NODATA RES
inform_deny A:192.0.2.2 NODATA DROP
inform_redirect A:192.0.2.2 NODATA A:192.0.2.1
always_transparent RES RES RES
always_refuse REF REF REF
always_nxdomain NXL NXL NXL
always_nodata NODATA NODATA NODATA
always_deny DROP DROP DROP
always_null A:0.0.0.0 NODATA A:0.0.0.0
noview A:192.0.2.2 NODATA RES
EOF
if grep "event=local_inform" "$WORK/curvecache.log" |
  grep -q "name=x.inform_deny.zz."; then ok "inform types log the client"
else bad "inform log" "no event=local_inform" "$WORK/curvecache.log"; fi

dig +time=2 +tries=1 +noall +comments +answer "@$CC_IP" -x 192.0.2.77 \
  >"$WORK/ptr.out" 2>&1
if grep -q "PTR[[:space:]]*ptr.host.zz.\$" "$WORK/ptr.out"; then
  ok "local-data-ptr"
else bad "local-data-ptr" "no PTR" "$WORK/ptr.out"; fi
q txt.host.zz TXT txt
if grep -q '"hello world"' "$WORK/txt.out"; then ok "local-data TXT, quoted"
else bad "local-data TXT" "no text" "$WORK/txt.out"; fi
q www.plain.test A nd
if [ "$(dig_status "$WORK/nd.out")" = NOERROR ] &&
  grep -q "192.0.2.10" "$WORK/nd.out"; then ok "nodefault: test. resolved"
else bad "nodefault" "not resolved" "$WORK/nd.out"; fi

# ---- curvecache -t: bad RDATA ----
cc_conf_at "$CC_IP" "$WORK/bad.conf" 'local-data: "h.zz. A 10.0.0"'
"$CURVECACHE" -t -c "$WORK/bad.conf" >"$WORK/t.out" 2>&1
st=$?
if [ $st -ne 0 ] && grep -q 'bad RDATA "10.0.0"' "$WORK/t.out"; then
  ok "curvecache -t: bad local-data RDATA refused"
else bad "curvecache -t bad RDATA" "exit $st" "$WORK/t.out"; fi

# ---- control commands ----
ctl local_zone ads.zz. always_nxdomain >"$WORK/c1" 2>&1
check www.ads.zz A c1q NXL
ctl local_zone_remove ads.zz. >>"$WORK/c1" 2>&1
check www.ads.zz A c2q RES
printf 'a1.zz. always_nxdomain\n"a2.zz." always_refuse\nbad..zz static\na3.zz always_null\n' |
  ctl local_zones >"$WORK/c3" 2>&1
st=$?
if [ $st -eq 1 ] && grep -q "^added 3 zones" "$WORK/c3" &&
  grep -q "error for input line: bad..zz static" "$WORK/c3"; then
  ok "local_zones: lines from stdin, a bad one told"
else bad "local_zones" "exit $st" "$WORK/c3"; fi
check x.a1.zz A c3a NXL
check a2.zz A c3b REF
check a3.zz A c3c A:0.0.0.0
ctl list_local_zones >"$WORK/c4" 2>&1
if grep -q "^a2.zz. always_refuse\$" "$WORK/c4" &&
  grep -q "^static.zz. static\$" "$WORK/c4"; then ok "list_local_zones"
else bad "list_local_zones" "lines missing" "$WORK/c4"; fi
cc_hup reload
check x.a1.zz A c5 NXL
printf 'a1.zz.\na2.zz.\n' | ctl local_zones_remove >"$WORK/c6" 2>&1
if grep -q "^removed 2 zones" "$WORK/c6"; then ok "local_zones_remove"
else bad "local_zones_remove" "no count" "$WORK/c6"; fi
check x.a1.zz A c6q RES
ctl local_data "one.zz. 120 IN A 198.51.100.1" >"$WORK/c7" 2>&1
check one.zz A c7q A:198.51.100.1
printf 'two.zz. A 198.51.100.2\n"three.zz. AAAA 2001:db8::3"\n' |
  ctl local_datas >"$WORK/c8" 2>&1
if grep -q "^added 2 datas" "$WORK/c8"; then ok "local_datas"
else bad "local_datas" "no count" "$WORK/c8"; fi
check two.zz A c8q A:198.51.100.2
printf 'two.zz.\nthree.zz.\n' | ctl local_datas_remove >"$WORK/c9" 2>&1
check two.zz A c9q RES
ctl local_data_remove one.zz. >>"$WORK/c9" 2>&1
check one.zz A c10q RES

# ---- unbound-control, when installed ----
if command -v unbound-control >/dev/null 2>&1; then
  UCONF=$WORK/unbound-control.conf
  ubc_conf "$UCONF" "$SOCK"
  printf 'u1.zz. always_nxdomain\nu2.zz. always_refuse\n' |
    unbound-control -c "$UCONF" local_zones >"$WORK/u1" 2>&1
  st=$?
  if [ $st -eq 0 ] && grep -q "added 2 zones" "$WORK/u1"; then
    ok "unbound-control local_zones (stdin)"
  else bad "unbound-control local_zones" "exit $st" "$WORK/u1"; fi
  check x.u1.zz A u1q NXL
  check u2.zz A u2q REF
  unbound-control -c "$UCONF" local_zone_remove u1.zz >"$WORK/u2" 2>&1
  check x.u1.zz A u3q RES
else
  echo "# unbound-control not installed: its checks skipped"
fi
cc_stop
e2e_finish
