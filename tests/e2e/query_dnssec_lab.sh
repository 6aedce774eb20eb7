#!/bin/sh
# tests/e2e/query_dnssec_lab.sh: the DNSSEC records of the signed lab
# (tests/lab/signed.sh) in presentation format (resolver/wire/
# rrtext_dnssec.c), held to dig's text of the same records:
# - curvecache-query +dnssec asks the lab's servers directly (so every
#   TTL is fixed) and prints RRSIG (algorithms 8, 13, 15), NSEC, NSEC3
#   (salted and not), DNSKEY, NSEC3PARAM and DS records exactly as dig
#   does, line for line;
# - through curvecache (127.54.100.3, validating with the lab's trust
#   anchor): +dnssec brings AD and the RRSIGs, the same text as dig's;
# - curvecache-control lookup and dump_cache print the cached RRSIG and
#   NSEC3 records in that form too (no "\#"), with sec=secure; the dump
#   loads back with load_cache (0 bad lines) and dumps again the same.
# Run by "make check" (cwd = top build dir, $srcdir = top source dir).
# Exit 0 = every check passed, 1 = a check failed, 77 = SKIP (not root,
# or a program missing). E2E_KEEP=1 keeps the work directory.

set -u
srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=tests/e2e/e2e_lib.sh
. "$srcdir/tests/e2e/e2e_lib.sh"
CC_IP=127.54.100.3
CURVECACHE=${CURVECACHE:-./curvecache}
CTL=${CURVECACHE_CONTROL:-./curvecache-control}
QUERY=${CURVECACHE_QUERY:-./curvecache-query}

# shellcheck disable=SC2086 # a list of programs
e2e_need "the signed lab binds port 53" $SIGNED_NEEDS
e2e_built CURVECACHE CTL QUERY
signed_lab_start query_dnssec_lab

# rr_lines FILE: the record lines of a dig-style output (no comments).
rr_lines() { grep -v '^;' "$1" | grep -v '^$'; }

# same_as_dig SERVER NAME TYPE WHAT: curvecache-query and dig, both
# without recursion and with DO, print the same record lines, which
# hold WHAT (an extended regular expression).
same_as_dig() {
  q=$WORK/q-$2-$3.out
  g=$WORK/dig-$2-$3.out
  "$QUERY" +dnssec --timeout 5 "@$1" "$2" "$3" >"$q" 2>&1
  dig +norec +dnssec +time=5 +tries=1 "@$1" "$2" "$3" >"$g" 2>&1
  rr_lines "$q" >"$q.rr"
  rr_lines "$g" >"$g.rr"
  t="$2 $3 from $1: curvecache-query prints what dig prints"
  if ! grep -Eq "$4" "$g.rr"; then
    bad "$t" "dig's answer has no $4" "$g"
  elif diff "$g.rr" "$q.rr" >"$WORK/diff" 2>&1; then
    ok "$t ($(wc -l <"$q.rr") records)"
  else
    bad "$t" "the lines differ (< dig, > curvecache-query)" "$WORK/diff"
  fi
}

S='[[:space:]]'
same_as_dig "$SIGNED_LEAF_IP" www.alg13.sec A "${S}RRSIG${S}A 13 3 300 [0-9]{14} "
same_as_dig "$SIGNED_LEAF_IP" nx.alg13.sec A \
  "${S}NSEC3${S}1 [01] 5 5CA1AB1E [0-9A-V]{32}( |\$)"
same_as_dig "$SIGNED_LEAF_IP" nx.alg15.sec A "${S}NSEC3${S}1 0 0 - [0-9A-V]{32}"
same_as_dig "$SIGNED_LEAF_IP" alg13.sec DNSKEY "${S}DNSKEY${S}257 3 13 "
same_as_dig "$SIGNED_LEAF_IP" alg13.sec NSEC3PARAM \
  "${S}NSEC3PARAM${S}1 0 5 5CA1AB1E\$"
same_as_dig "$SIGNED_LEAF_IP" nx.alg8.sec A \
  "${S}NSEC${S}[a-z0-9.*]+ .*RRSIG NSEC"
same_as_dig "$SIGNED_LEAF_IP" www.alg8.sec TXT "${S}RRSIG${S}NSEC 8 3 "
same_as_dig "$SIGNED_TLD_IP" alg13.sec DS \
  "${S}DS${S}[0-9]+ 13 2 [0-9A-F]{56} [0-9A-F]{8}\$"

# ---- through curvecache ----
cc_start "dnssec: yes" "trust-anchor-file: $SIGNED_TA_DS" \
  "control-socket: $WORK/control" "log-level: info" || exit 1

# nottl FILE: the record lines without their TTL (the cache counts
# down), blanks squeezed (a TTL of fewer digits may move a column).
nottl() { rr_lines "$1" | awk '{ $2 = ""; print }'; }
# rdata FILE TYPE: the RDATA of the first TYPE record of a dig output.
rdata() {
  rr_lines "$1" | awk -v t="$2" '$4 == t {
    for (i = 5; i <= NF; i++) r = r (i > 5 ? " " : "") $i
    print r; exit }'
}

for qt in "www.alg13.sec A" "nx.alg13.sec A"; do
  # shellcheck disable=SC2086
  set -- $qt
  q=$WORK/rq-$1.out
  g=$WORK/rdig-$1.out
  "$QUERY" +rec +dnssec --timeout 5 "@$CC_IP" "$1" "$2" >"$q" 2>&1
  dig +dnssec +time=5 +tries=1 "@$CC_IP" "$1" "$2" >"$g" 2>&1
  t="$1 $2 through curvecache: AD, and dig's text"
  case " $(dig_flags "$q") " in
    *" ad "*) ;;
    *) bad "$t" "no AD" "$q"; continue ;;
  esac
  nottl "$q" >"$q.rr"
  nottl "$g" >"$g.rr"
  if grep -q "RRSIG" "$q.rr" && diff "$g.rr" "$q.rr" >"$WORK/diff" 2>&1
  then ok "$t"
  else bad "$t" "no RRSIG, or the lines differ" "$WORK/diff"; fi
done

# ---- lookup, dump_cache, load_cache ----
lookup=$WORK/lookup.out
"$CTL" -s "$WORK/control" lookup www.alg13.sec A >"$lookup" 2>&1
TAB=$(printf '\t')
sig=$(rdata "$WORK/dig-www.alg13.sec-A.out" RRSIG)
t="lookup: the A RRset with sec=secure, its RRSIG as dig prints it"
if grep -q "^www\.alg13\.sec\..*${TAB}A${TAB}192\.0\.2\.80${TAB}; .*sec=secure" \
  "$lookup" &&
  grep -F "$sig${TAB}; dnssec" "$lookup" >/dev/null; then ok "$t"
else bad "$t" "no such lines" "$lookup"; fi

dump=$WORK/dump
"$CTL" -s "$WORK/control" dump_cache >"$dump" 2>&1
nsec3=$(rdata "$WORK/dig-nx.alg13.sec-A.out" NSEC3)
t="dump_cache: RRSIG and NSEC3 as dig prints them, no DNSSEC type in \\#"
if [ -n "$sig" ] && [ -n "$nsec3" ] &&
  grep -F "$sig${TAB}; dnssec" "$dump" >/dev/null &&
  grep -F "$nsec3${TAB}; dnssec" "$dump" >/dev/null &&
  ! grep -Eq "${S}(RRSIG|NSEC|NSEC3|DNSKEY|DS|NSEC3PARAM)${S}+\\\\#" "$dump"
then ok "$t"
else bad "$t" "see the dump" "$dump"; fi

"$CTL" -s "$WORK/control" flush_all >/dev/null 2>&1
"$CTL" -s "$WORK/control" load_cache "$dump" >"$WORK/load" 2>&1
rc=$?
"$CTL" -s "$WORK/control" dump_cache >"$dump.2" 2>&1
t="load_cache reads the dump back, and dumps it again the same"
# (TTLs and the header's time move on: compared without them)
nottl "$dump" | sort >"$dump.a"
nottl "$dump.2" | sort >"$dump.b"
if [ $rc -eq 0 ] && grep -q ' 0 bad$' "$WORK/load" &&
  diff "$dump.a" "$dump.b" >"$WORK/diff" 2>&1; then ok "$t"
else
  cat "$WORK/load" >>"$WORK/diff"
  bad "$t" "exit $rc" "$WORK/diff"
fi

echo "# checks done: $(elapsed)"
cc_stop
cc_no_sanitizer
e2e_finish
