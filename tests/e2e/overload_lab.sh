#!/bin/sh
# tests/e2e/overload_lab.sh: curvecache under more load than one thread
# can take (issue 21, items 12 and 15), on the signed lab
# (tests/lab/signed.sh): correctness and memory, never time.
#
# One worker thread, cache-size 8m, validating with the lab's anchor.
# tests/e2e/overload.py asks OVERLOAD_NAMES (default 12,000) questions,
# each once, at OVERLOAD_RATE (default 6,000) a second: fresh names
# under the signed wildcards *.w.ZONE of alg8.sec. (RSA, NSEC),
# alg13.sec. (ECDSA, NSEC3), alg15.sec. (Ed25519, NSEC3) and alg16.sec.
# (Ed448, NSEC), cold (the chain of trust is fetched during the burst),
# with a KeyTrap and NSEC3-hash flood mixed in (one in ten: names of
# keytrap.sec. and below the 100-label name of hashflood.sec.). Then:
# - no valid name was answered bogus (SERVFAIL with EDE 6): what the
#   overload cost (a key or DS evicted or timed out mid-validation) is a
#   resolution failure, not a verdict;
# - none was cached bogus: the valid names answered SERVFAIL (and a
#   sample of the others) are asked again, slowly: none may be bogus;
# - no reply, valid name or flood, was TC=1 without a record (and none
#   when the flood asks again without EDNS, 512-byte replies);
# - the daemon's peak RSS (VmHWM) stayed within cache-size + 32 MB.
# How many were answered, shed or SERVFAIL is printed, not asserted
# (that is timing: tests/bench/bench_overload.sh measures it).
#
# Run by "make check" (cwd = top build dir, $srcdir = top source dir).
# Exit 0 = every check passed, 1 = a check failed, 77 = SKIP (not root,
# or a program missing). E2E_KEEP=1 keeps the work directory.

set -u
srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=tests/e2e/e2e_lib.sh
. "$srcdir/tests/e2e/e2e_lib.sh"
CC_IP=127.54.100.4 CACHE_MB=8
NAMES=${OVERLOAD_NAMES:-12000} RATE=${OVERLOAD_RATE:-6000}
CURVECACHE=${CURVECACHE:-./curvecache}
CTL=${CURVECACHE_CONTROL:-./curvecache-control}
RSS_MAX_KB=$(((CACHE_MB + 32) * 1024))

# shellcheck disable=SC2086 # a list of programs
e2e_need "the signed lab binds port 53" $SIGNED_NEEDS python3
e2e_built CURVECACHE CTL
signed_lab_start overload_lab

cc_start "dnssec: yes" "trust-anchor-file: $SIGNED_TA_DS" \
  "control-socket: $WORK/control" "cache-size: ${CACHE_MB}m" \
  "threads: 1" "log-level: warn" || exit 1

# The names: fresh (a tag per run), nine in ten valid, one in ten flood.
awk -v n="$NAMES" -v t="$$" 'BEGIN {
  split("alg8 alg13 alg15 alg16", z, " ")
  d = "d100.hashflood.sec"
  for (i = 0; i < 100; i++) d = "l." d
  for (i = 0; i < n; i++)
    if (i % 20 == 7) printf "f%d-%d.keytrap.sec\n", t, i
    else if (i % 20 == 17) printf "f%d-%d.%s\n", t, i, d
    else printf "o%d-%d.w.%s.sec\n", t, i, z[i % 4 + 1] }' >"$WORK/names"

python3 "$srcdir/tests/e2e/overload.py" "$CC_IP" "$WORK/names" "$RATE" \
  >"$WORK/burst.out" 2>&1 9>&-
tail -n 1 "$WORK/burst.out" | sed 's/^/# burst: /'
grep -q '^done ' "$WORK/burst.out" || { bad "burst" "overload.py" \
  "$WORK/burst.out"; e2e_finish; exit 1; }
if e2e_alive "$CC_PID"; then ok "curvecache alive after the burst"; else
  bad "alive" "curvecache died" "$WORK/curvecache.log"; fi

# valid names answered bogus (keytrap.sec. is bogus: its names may be)
grep '^bogus ' "$WORK/burst.out" | grep -v 'keytrap\.sec' \
  >"$WORK/bogus" || true
if [ -s "$WORK/bogus" ]; then
  bad "no valid name bogus under overload" \
    "$(wc -l <"$WORK/bogus") answered SERVFAIL EDE 6" "$WORK/bogus"
else
  ok "no valid name answered bogus under overload"
fi
if grep -q '^tcempty ' "$WORK/burst.out"; then
  grep '^tcempty ' "$WORK/burst.out" | head -20 >"$WORK/tc"
  bad "no empty TC=1 reply" \
    "$(grep -c '^tcempty ' "$WORK/burst.out") empty TC=1 replies" "$WORK/tc"
else
  ok "no empty TC=1 reply (valid names and the flood)"
fi

# The flood again without EDNS (512-byte replies, as dnsperf asks):
# still no empty TC=1 reply.
grep -v '\.w\.alg' "$WORK/names" | head -n 600 | sed 's/^f/g/' >"$WORK/flood"
python3 "$srcdir/tests/e2e/overload.py" "$CC_IP" "$WORK/flood" 200 \
  --noedns >"$WORK/flood.out" 2>&1 9>&-
tail -n 1 "$WORK/flood.out" | sed 's/^/# flood without EDNS: /'
if grep -q '^tcempty ' "$WORK/flood.out" ||
  ! grep -q '^done ' "$WORK/flood.out"; then
  bad "no empty TC=1 reply without EDNS" "see below" "$WORK/flood.out"
else
  ok "no empty TC=1 reply to the flood without EDNS"
fi

# Nothing cached bogus: the valid names answered SERVFAIL (or bogus, or
# shed: not answered at all), asked again one at a time, are NOERROR.
awk '$1 == "servfail" || $1 == "bogus" { print $2 }' "$WORK/burst.out" |
  grep '\.w\.alg' >"$WORK/again.names" || true
python3 - "$WORK/names" "$WORK/burst.out" >>"$WORK/again.names" <<'EOF'
import sys
answered = set()
for line in open(sys.argv[2]):
    f = line.split()
    if f and f[0] in ("servfail", "bogus", "tcempty"):
        answered.add(f[1])
# shed names are those without any line: overload.py prints only the
# notable replies, so take a sample of the valid names not listed
names = [n.strip() for n in open(sys.argv[1]) if ".w.alg" in n]
for n in names[::97]:
    if n not in answered:
        print(n)
EOF
sort -u "$WORK/again.names" | head -n 400 >"$WORK/again"
python3 "$srcdir/tests/e2e/overload.py" "$CC_IP" "$WORK/again" 100 \
  >"$WORK/again.out" 2>&1 9>&-
sed -n 's/^done \(.*\)/# asked again: \1/p' "$WORK/again.out"
# (a bogus verdict in the cache answers SERVFAIL EDE 6 at once; a name
# still slow under the machine's load may time out: that is timing)
if grep -q '^bogus ' "$WORK/again.out" || ! grep -q '^done ' "$WORK/again.out"
then
  bad "valid names asked again are not bogus (nothing cached bogus)" \
    "see below" "$WORK/again.out"
else
  nsf=$(grep -c '^servfail ' "$WORK/again.out")
  ok "$(wc -l <"$WORK/again") valid names asked again: none bogus ($nsf SERVFAIL without EDE 6)"
fi

hwm=$(awk '$1 == "VmHWM:" { print $2 }' "/proc/$CC_PID/status")
echo "# peak RSS ${hwm} kB (bound ${RSS_MAX_KB} kB)"
if grep -qa -e __asan_init -e __tsan_init "$CURVECACHE"; then
  # a sanitizer's shadow memory and quarantine are not the daemon's
  ok "peak RSS not judged: a sanitizer build (${hwm} kB)"
elif [ "${hwm:-999999999}" -le "$RSS_MAX_KB" ]; then
  ok "peak RSS within cache-size + 32 MB"
else
  bad "peak RSS within cache-size + 32 MB" "${hwm} kB > ${RSS_MAX_KB} kB"
fi
"$CTL" -s "$WORK/control" stats_noreset 2>/dev/null | grep -E \
  '^(total\.requestlist\.(overwritten|exceeded|max)|resolutions\.servfail|num\.rrset\.bogus)=' |
  sed 's/^/# /'

e2e_finish
