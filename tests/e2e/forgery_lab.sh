#!/bin/sh
# tests/e2e/forgery_lab.sh: forged answers against curvecache's plain DNS
# upstream, in the loopback lab (tests/lab/lab.sh): nothing forged may be
# accepted or cached.
#
# Run by "make check" (cwd = top build dir, $srcdir = top source dir).
# Exit 0 = every check passed, 1 = a check failed, 77 = SKIP (not root,
# or nsd/curvedns/dig/python3 missing). Shared code: tests/e2e/e2e_lib.sh;
# the attacker: tests/e2e/forger.py. Only loopback: the forged data points
# at 127.66.66.66 (nothing listens there), so even a poisoned curvecache
# would send nothing off the machine.
#
# 1. Near misses (an attacker that sees the query). The zone spoof.lab.
#    is served by forger.py on 127.53.1.252. For each question about
#    www.spoof.lab. it first sends forged answers that each differ from
#    a genuine one in one respect: 16 wrong IDs, the question's letter
#    case flipped (0x20), another question name, QR clear, another source
#    port, another source address; then the genuine answer, which carries
#    out-of-bailiwick poison (example.lab. NS, and ns1/www.example.lab. A
#    127.66.66.66). curvecache must answer www.spoof.lab. A 192.0.2.60 (not
#    SERVFAIL: near misses must not end the wait), must have dropped the
#    near misses (upstream.ignored), must not have cached the poison
#    (example.lab. data still equal to the lab's, nothing sent to
#    127.66.x.y), and its queries must mix the case of the name (0x20).
# 2. Blind spraying (an off-path attacker). While curvecache resolves 240
#    fresh names under example.lab. (wildcard: A 192.0.2.77) and
#    other.lab. (NXDOMAIN), forger.py sprays forged answers for exactly
#    those names (A 127.66.66.66), spoofed from the zones' real servers
#    127.53.1.2 and 127.53.1.3 port 53, with random IDs, over every port of
#    ip_local_port_range on curvecache's address (bounded: SPRAY_COUNT
#    packets, SPRAY_SECS seconds). Every answer, and the same names asked
#    again from the cache afterwards, must be the lab's.

# shellcheck disable=SC2119 # cc_start takes optional config lines
set -u
srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=tests/e2e/e2e_lib.sh
. "$srcdir/tests/e2e/e2e_lib.sh"
e2e_init forgery_lab python3 ss
FORGER=$srcdir/tests/e2e/forger.py
SPRAY_COUNT=200000
SPRAY_SECS=6
NAMES_EACH=120

cc_start || exit 1

# no_forged FILE: FILE has no 127.66. address (prints the lines if so).
no_forged() { ! grep '127\.66\.' "$1"; }

# ---- 1. Near misses from the server of spoof.lab. ----
echo "# 1. near misses at spoof.lab. ($(elapsed))"
bg_start forger python3 "$FORGER" server "$LAB_SPOOF_IP" 60
FORGER_PID=$bg_pid
n=0
while ! grep -q '^server ready' "$WORK/forger.out" 2>/dev/null &&
      [ $n -lt 50 ]; do
  sleep 0.1
  n=$((n + 1))
done
grep -q '^server ready' "$WORK/forger.out" ||
  { bad "forger.py server" "did not start" "$WORK/forger.out"; exit 1; }

ign0=$(cc_stat upstream.ignored)
dig +time=8 +tries=1 +noall +comments +answer "@$CC_IP" www.spoof.lab A \
  </dev/null >"$WORK/out" 2>&1
status=$(dig_status "$WORK/out")
answer=$(awk '!/^;/ && NF >= 5 { print $4, $5 }' "$WORK/out")
if [ "$status" = NOERROR ] && [ "$answer" = "A 192.0.2.60" ]; then
  ok "www.spoof.lab A: the genuine answer despite the near misses"
else
  bad "www.spoof.lab A: the genuine answer" "status '$status'" "$WORK/out"
fi
sleep 0.3 # let the forger print its line
grep -i '^query [0-9]* www\.spoof\.lab\. 1 from ' "$WORK/forger.out" \
  >"$WORK/wwwq"
nm=$(awk '{ s += $NF } END { print s + 0 }' "$WORK/wwwq")
if [ -s "$WORK/wwwq" ] && [ "$nm" -ge 20 ] &&
   grep -q "from $CC_IP:" "$WORK/wwwq"; then
  ok "forger.py got curvecache's query and sent $nm near misses"
else
  bad "forger.py got curvecache's query and sent near misses" \
    "$nm near misses" "$WORK/forger.out"
fi
ign1=$(cc_stat upstream.ignored)
if [ -n "$ign0" ] && [ -n "$ign1" ] && [ $((ign1 - ign0)) -ge 16 ]; then
  ok "curvecache dropped the near misses (upstream.ignored +$((ign1 - ign0)))"
else
  bad "curvecache dropped the near misses" \
    "upstream.ignored '$ign0' then '$ign1' (want +16 at least)"
fi
# 0x20: the names curvecache sent mix upper and lower case.
if grep '^query' "$WORK/forger.out" | awk '{ print $3 }' | grep -q '[A-Z]'
then
  ok "curvecache's query names mix case (0x20)"
else
  bad "curvecache's query names mix case (0x20)" "all lower case" \
    "$WORK/forger.out"
fi

# Nothing forged or out of bailiwick was cached.
for nt in "www.spoof.lab A" "www.example.lab A" "ns1.example.lab A" \
          "example.lab NS" "nosuch.example.lab A" "www.other.lab A"; do
  # shellcheck disable=SC2086 # "name type"
  set -- $nt
  if [ "$1" = www.spoof.lab ]; then
    printf '3600 www.spoof.lab. A 192.0.2.60\n' >"$WORK/want.ans"
    ref_ans=$WORK/want.ans ref_auth=/dev/null ref_status=NOERROR
    exp=answer
  else
    ref "$1" "$2"
    exp=answer
    [ "$ref_status" = NXDOMAIN ] && exp=nxdomain
  fi
  dig +time=8 +tries=1 +noclass +noall +comments +answer +authority \
    "@$CC_IP" "$1" "$2" </dev/null >"$WORK/out" 2>&1
  v=$(verdict "$exp" "$1" "$2" "$WORK/out")
  if [ "$v" = ok ] && no_forged "$WORK/out" >/dev/null; then
    ok "after the near misses: $1 $2 as the lab says"
  else
    bad "after the near misses: $1 $2 as the lab says" "$v" "$WORK/out"
  fi
done
if grep 'event=upstream_send server=127\.66\.' "$WORK/curvecache.log" \
     >"$WORK/diff"; then
  bad "no query to the poisoned address 127.66.66.66" "sent:" "$WORK/diff"
else
  ok "no query to the poisoned address 127.66.66.66"
fi
bg_stop "$FORGER_PID"

# ---- 2. Blind spraying ----
echo "# 2. blind spraying ($(elapsed))"
# (through cat: dash's read gets only the first byte of a /proc file)
range=$(cat /proc/sys/net/ipv4/ip_local_port_range)
port_lo=${range%%[!0-9]*}
port_hi=${range##*[!0-9]}
: >"$WORK/names"
: >"$WORK/batch"
i=0
while [ $i -lt $NAMES_EACH ]; do
  r=$(od -An -N4 -tx4 /dev/urandom | tr -d ' ')
  echo "r$r.wild.example.lab" >>"$WORK/names"
  echo "r$r.other.lab" >>"$WORK/names"
  i=$((i + 1))
done
sed 's/$/ A/' "$WORK/names" >"$WORK/batch"
bg_start spray python3 "$FORGER" spray "$LAB_EXAMPLE_IP,$LAB_OTHER_IP" \
  "$CC_IP" "$port_lo" "$port_hi" "$WORK/names" "$SPRAY_COUNT" "$SPRAY_SECS"
SPRAY_PID=$bg_pid
n=0
while ! grep -q '^spray started' "$WORK/spray.out" 2>/dev/null &&
      [ $n -lt 50 ]; do
  sleep 0.1
  n=$((n + 1))
done
grep -q '^spray started' "$WORK/spray.out" ||
  { bad "forger.py spray" "did not start" "$WORK/spray.out"; exit 1; }
sleep 0.2 # the spray is in full swing

# judge_batch FILE: dig -f output; every wild name answers A 192.0.2.77
# and nothing else, every other.lab name NXDOMAIN; prints the offenders
# and a count line "checked N".
judge_batch() {
  awk '
    /^;; ->>HEADER<<-/ { st = $0; sub(/.*status: /, "", st); sub(/,.*/, "", st) }
    /^;[^;]/ && $NF == "A" && $(NF - 1) == "IN" {
      q = tolower(substr($1, 2)); qs[q] = st; seen[q] = 1
    }
    !/^;/ && NF >= 5 { a[tolower($1)] = a[tolower($1)] " " $4 "=" $5 }
    END {
      n = 0
      for (q in seen) {
        n++
        if (q ~ /\.wild\.example\.lab\.$/) {
          if (qs[q] != "NOERROR" || a[q] != " A=192.0.2.77")
            print "bad: " q " " qs[q] a[q]
        } else if (qs[q] != "NXDOMAIN" || a[q] != "") {
          print "bad: " q " " qs[q] a[q]
        }
      }
      print "checked " n
    }' "$1"
}

t0=$(now_ms)
dig +time=8 +tries=1 +noall +comments +question +answer "@$CC_IP" \
  -f "$WORK/batch" </dev/null >"$WORK/batch1.out" 2>&1
ms=$(($(now_ms) - t0))
spray_running=no
e2e_alive "$SPRAY_PID" && spray_running=yes
wait "$SPRAY_PID"
e2e_bg_pids=$(echo "$e2e_bg_pids" | tr ' ' '\n' | grep -vx "$SPRAY_PID" |
  tr '\n' ' ')
sent=$(sed -n 's/^spray sent \([0-9]*\) packets.*/\1/p' "$WORK/spray.out")
if [ "$spray_running" = yes ] && [ "${sent:-0}" -ge 10000 ]; then
  ok "the spray ran during all $((NAMES_EACH * 2)) resolutions ($ms ms): ${sent} forged packets"
else
  bad "the spray ran during all resolutions" \
    "still running at the end: $spray_running; sent '${sent:-}' (at least 10000)" \
    "$WORK/spray.out"
fi
judge_batch "$WORK/batch1.out" >"$WORK/judge"
if [ "$(cat "$WORK/judge")" = "checked $((NAMES_EACH * 2))" ]; then
  ok "under the spray: $((NAMES_EACH * 2)) answers as the lab says"
else
  bad "under the spray: every answer as the lab says" "" "$WORK/judge"
fi
dig +time=8 +tries=1 +noall +comments +question +answer "@$CC_IP" \
  -f "$WORK/batch" </dev/null >"$WORK/batch2.out" 2>&1
judge_batch "$WORK/batch2.out" >"$WORK/judge"
if [ "$(cat "$WORK/judge")" = "checked $((NAMES_EACH * 2))" ]; then
  ok "after the spray, from the cache: $((NAMES_EACH * 2)) answers as the lab says"
else
  bad "after the spray, from the cache: every answer as the lab says" "" \
    "$WORK/judge"
fi
if grep 'event=upstream_send server=127\.66\.' "$WORK/curvecache.log" \
     >"$WORK/diff"; then
  bad "no query to 127.66.66.66 after the spray" "sent:" "$WORK/diff"
else
  ok "no query to 127.66.66.66 after the spray"
fi

cc_stop
e2e_finish
