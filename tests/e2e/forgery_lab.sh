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
# 3. At scale (FLOOD_NAMES resolutions, default 10000). The zone
#    flood.lab. is served by tests/e2e/flood.py on 127.53.1.249: a
#    wildcard (A 192.0.2.78) whose every answer carries out-of-bailiwick
#    poison in the authority and additional sections (lab. and
#    example.lab. NS evil-ns..., ns1/www.example.lab., a.root.lab. A
#    127.66.66.66), and which sends FLOOD_NEAR forged answers before each
#    genuine one, from the right address and port with the exact
#    question, IDs running through all 65536 values. Meanwhile forger.py
#    sprays forged answers spoofed from 127.53.1.249:53 with random IDs
#    over every port of ip_local_port_range. Every one of the
#    FLOOD_NAMES answers must be the genuine one; the counters
#    upstream.ignored and unwanted.replies must have grown by at least
#    the number of forged answers the server sent to questions it was
#    asked once (their socket was open until the genuine answer) and at
#    most all it forged plus the spray; curvecache-control dump_cache must show
#    no forged RRset (no 127.66. address, no evil-ns name) and every
#    flood.lab. name with its genuine address.
# 4. DNSCurve. relay.lab. is delegated by lab. to the TEST key at
#    127.53.1.248, where tests/e2e/curveproxy.py relays to the CurveDNS of
#    127.53.0.5 and, before each genuine boxed response, sends the last
#    RELAY_REPLAYS genuine responses it captured (replays), the genuine
#    one with a bit of its box flipped, and a random box with the right
#    magic and client nonce. Every answer must be the zone's, and
#    curve.responses.bad must have grown by exactly the number of forged
#    and replayed packets. The zone's own NS set names another key
#    (LAB_WRONG_KEY) than the parent's delegation: asked for it, curvecache
#    passes it on, but keeps the parent's key (dump_cache: relay.lab. NS
#    with the TEST key, rank=referral, no NS with the other key) and goes
#    on reaching the zone with the parent's key.

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
FLOOD=$srcdir/tests/e2e/flood.py
CPROXY=$srcdir/tests/e2e/curveproxy.py
RELAY_REPLAYS=4
RELAY_NAMES=30
FLOOD_NAMES=${FLOOD_NAMES:-10000}
FLOOD_NEAR=${FLOOD_NEAR:-7}
FLOOD_CONC=${FLOOD_CONC:-100}
FLOOD_SECS=${FLOOD_SECS:-150}
CTL=${CURVECACHE_CONTROL:-./curvecache-control}
e2e_built CTL
SOCK=$WORK/run/control

cc_start "control-socket: $SOCK" || exit 1

# no_forged FILE: FILE has no 127.66. address (prints the lines if so).
no_forged() { ! grep '127\.66\.' "$1"; }

# wait_line FILE LINE: up to 5 s for LINE at the start of a line of FILE.
wait_line() {
  n=0
  while ! grep -q "^$2" "$1" 2>/dev/null && [ $n -lt 50 ]; do
    sleep 0.1
    n=$((n + 1))
  done
  grep -q "^$2" "$1"
}

# ---- 1. Near misses from the server of spoof.lab. ----
echo "# 1. near misses at spoof.lab. ($(elapsed))"
bg_start forger python3 "$FORGER" server "$LAB_SPOOF_IP" 60
FORGER_PID=$bg_pid
wait_line "$WORK/forger.out" "server ready" ||
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
wait_line "$WORK/spray.out" "spray started" ||
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


# ---- 3. At scale: flood.lab. ----
echo "# 3. $FLOOD_NAMES resolutions under fire ($(elapsed))"
awk -v n="$FLOOD_NAMES" -v seed="$$" 'BEGIN {
  srand(seed)
  for (i = 0; i < n; i++)
    printf "f%d-%06x.flood.lab\n", i, int(rand() * 16777216)
}' >"$WORK/fnames"
bg_start flood python3 "$FLOOD" server "$LAB_FLOOD_IP" flood.lab \
  "$FLOOD_NEAR" "$FLOOD_SECS"
FLOOD_PID=$bg_pid
wait_line "$WORK/flood.out" "server ready" ||
  { bad "flood.py server" "did not start" "$WORK/flood.out"; exit 1; }
ign0=$(cc_stat upstream.ignored)
unw0=$(cc_stat unwanted.replies)
bg_start fspray python3 "$FORGER" spray "$LAB_FLOOD_IP" "$CC_IP" \
  "$port_lo" "$port_hi" "$WORK/fnames" "$SPRAY_COUNT" "$FLOOD_SECS"
FSPRAY_PID=$bg_pid
wait_line "$WORK/fspray.out" "spray started" ||
  bad "forger.py spray" "did not start" "$WORK/fspray.out"
t0=$(now_ms)
python3 "$FLOOD" client "$CC_IP" "$WORK/fnames" "$FLOOD_CONC" \
  "$FLOOD_SECS" >"$WORK/fclient.out" 2>&1
ms=$(($(now_ms) - t0))
bg_stop "$FSPRAY_PID"
bg_stop "$FLOOD_PID"
ign1=$(cc_stat upstream.ignored)
unw1=$(cc_stat unwanted.replies)
good=$(grep -c ' NOERROR 192\.0\.2\.78$' "$WORK/fclient.out")
if [ "$good" -eq "$FLOOD_NAMES" ]; then
  ok "$FLOOD_NAMES resolutions in $ms ms, every answer genuine (A 192.0.2.78)"
else
  grep -v ' NOERROR 192\.0\.2\.78$' "$WORK/fclient.out" | head -20 \
    >"$WORK/fbad"
  bad "$FLOOD_NAMES resolutions, every answer genuine" \
    "$good of $FLOOD_NAMES" "$WORK/fbad"
fi
# "server done Q queries F forged I ids O once"
# shellcheck disable=SC2046 # the words of that one line
set -- $(sed -n 's/^server done //p' "$WORK/flood.out") 0 0 0 0 0 0 0 0
forged=$3 ids=$5 once=$7
sprayed=$(sed -n 's/^spray sent \([0-9]*\) packets.*/\1/p' \
  "$WORK/fspray.out")
forged=${forged:-0} ids=${ids:-0} sprayed=${sprayed:-0}
# every ID once the count allows it (65536 and the skipped own IDs)
want_ids=$((FLOOD_NAMES * FLOOD_NEAR))
[ "$want_ids" -gt 65536 ] && want_ids=65536
if [ "$forged" -ge "$((FLOOD_NAMES * FLOOD_NEAR))" ] &&
   [ "$ids" -eq "$want_ids" ]; then
  t="flood.py sent $forged forged answers before the genuine ones"
  t="$t ($ids distinct IDs); forger.py sprayed $sprayed"
  ok "$t"
else
  bad "flood.py sent a forged answer with every ID" \
    "forged '$forged', IDs '$ids'" "$WORK/flood.out"
fi
dign=$((ign1 - ign0))
dunw=$((unw1 - unw0))
# At least the forged answers to questions asked once (their socket was
# open until the genuine answer came); a question asked again (a retry
# after a timeout on a loaded machine) may have lost its first socket.
if [ "$dign" -ge "$once" ] && [ "$dign" -le $((forged + sprayed)) ] &&
   [ "$dunw" -eq "$dign" ]; then
  t="rejected: upstream.ignored and unwanted.replies +$dign (forged"
  t="$t $forged, $once of them to questions asked once; spray $sprayed)"
  ok "$t"
else
  t="upstream.ignored +$dign, unwanted.replies +$dunw;"
  bad "rejected answers counted" "$t forged $forged, sprayed $sprayed"
fi
if "$CTL" -s "$SOCK" dump_cache >"$WORK/dump" 2>"$WORK/dump.err"; then
  grep -E '127\.66\.|evil' "$WORK/dump" >"$WORK/dumpbad"
  re='^f[0-9]+-[0-9a-f]+\.flood\.lab\.[[:space:]].*[[:space:]]A'
  cached=$(grep -Ec "${re}[[:space:]]+192\\.0\\.2\\.78[[:space:]]*(;|\$)" \
    "$WORK/dump")
  rrsets=$(grep -vc '^;' "$WORK/dump")
  if [ ! -s "$WORK/dumpbad" ] && [ "$cached" -eq "$FLOOD_NAMES" ]; then
    t="dump_cache: 0 forged RRsets in $rrsets records;"
    t="$t all $cached flood.lab. names genuine"
    ok "$t"
  else
    bad "dump_cache: no forged RRset, every name genuine" \
      "$cached of $FLOOD_NAMES genuine; forged lines:" "$WORK/dumpbad"
  fi
else
  bad "dump_cache" "curvecache-control failed" "$WORK/dump.err"
fi
if grep 'event=upstream_send server=127\.66\.' "$WORK/curvecache.log" \
     >"$WORK/diff"; then
  bad "no query to 127.66.66.66 after the flood" "sent:" "$WORK/diff"
else
  ok "no query to 127.66.66.66 after the flood"
fi

# ---- 4. DNSCurve: forged and replayed boxes; keys from the parent ----
echo "# 4. DNSCurve: forged and replayed boxes, keys from the parent" \
  "($(elapsed))"
bg_start cproxy python3 "$CPROXY" "$LAB_RELAY_IP" "$LAB_CURVE_IP" \
  "$RELAY_REPLAYS" 60
CPROXY_PID=$bg_pid
wait_line "$WORK/cproxy.out" "proxy ready" ||
  { bad "curveproxy.py" "did not start" "$WORK/cproxy.out"; exit 1; }
cbad0=$(cc_stat curve.responses.bad)
cok0=$(cc_stat curve.responses.ok)
# relay_batch FIRST LAST: ask rFIRST..rLAST.wild.relay.lab. A; prints
# the names not answered A 192.0.2.91 (with what came instead).
relay_batch() {
  i=$1
  : >"$WORK/rbatch"
  while [ "$i" -le "$2" ]; do
    echo "r$i.wild.relay.lab A" >>"$WORK/rbatch"
    i=$((i + 1))
  done
  dig +time=8 +tries=1 +noall +comments +question +answer "@$CC_IP" \
    -f "$WORK/rbatch" </dev/null >"$WORK/rbatch.out" 2>&1
  awk '
    /status: / { st = $0; sub(/.*status: /, "", st); sub(/,.*/, "", st) }
    /^;r[0-9]/ { q = tolower(substr($1, 2)); qs[q] = st; seen[q] = 1 }
    !/^;/ && NF >= 5 { a[tolower($1)] = a[tolower($1)] " " $4 "=" $5 }
    END {
      for (q in seen)
        if (qs[q] != "NOERROR" || a[q] != " A=192.0.2.91")
          print q, qs[q], a[q]
    }' "$WORK/rbatch.out"
}
dig +time=8 +tries=1 +short "@$CC_IP" www.relay.lab A >"$WORK/rwww" 2>&1
relay_batch 1 "$RELAY_NAMES" >"$WORK/rbad"
if [ "$(cat "$WORK/rwww")" = 192.0.2.90 ] && [ ! -s "$WORK/rbad" ]; then
  ok "relay.lab.: $((RELAY_NAMES + 1)) answers through the forger, all genuine"
else
  cat "$WORK/rwww" >>"$WORK/rbad"
  bad "relay.lab.: every answer genuine" "" "$WORK/rbad"
fi
# The child's own NS set (another key) goes to the client... (the
# address of its NS name is asked first, so that a resolver that took
# the child's NS set for the cut would have a usable server to box to)
dig +time=8 +tries=1 +short "@$CC_IP" "$LAB_WRONG_KEY.ns1.relay.lab" A \
  >"$WORK/rnsa" 2>&1
dig +time=8 +tries=1 +noall +answer "@$CC_IP" relay.lab NS \
  >"$WORK/rns" 2>&1
if grep -q "NS[[:space:]]*$LAB_WRONG_KEY\\.ns1\\.relay\\.lab\\.$" "$WORK/rns" &&
   [ "$(cat "$WORK/rnsa")" = "$LAB_RELAY_IP" ]; then
  ok "relay.lab. NS: the zone's own NS set (another key) passed on"
else
  bad "relay.lab. NS: the zone's own NS set passed on" "" "$WORK/rns"
fi
# ...but the resolver keeps reaching it with the parent's key.
relay_batch $((RELAY_NAMES + 1)) $((RELAY_NAMES + 10)) >"$WORK/rbad"
if [ ! -s "$WORK/rbad" ]; then
  ok "after the child's NS answer: 10 new names answered with the parent's key"
else
  bad "after the child's NS answer: new names answered" "" "$WORK/rbad"
fi
bg_stop "$CPROXY_PID"
cbad1=$(cc_stat curve.responses.bad)
cok1=$(cc_stat curve.responses.ok)
line=$(grep '^proxy done' "$WORK/cproxy.out")
nforged=$(echo "$line" | sed -n 's/.* \([0-9]*\) forged .*/\1/p')
nreplay=$(echo "$line" | sed -n 's/.*(\([0-9]*\) replayed).*/\1/p')
nstream=$(echo "$line" | sed -n 's/.* \([0-9]*\) streamlined .*/\1/p')
nforged=${nforged:-0} nreplay=${nreplay:-0} nstream=${nstream:-0}
if [ "$nforged" -gt 0 ] && [ "$nreplay" -gt 0 ] &&
   [ $((cbad1 - cbad0)) -eq "$nforged" ] &&
   [ $((cok1 - cok0)) -ge "$nstream" ]; then
  t="curve.responses.bad +$((cbad1 - cbad0)) = the $nforged forged"
  t="$t boxes ($nreplay replays); curve.responses.ok +$((cok1 - cok0))"
  t="$t for $nstream exchanges"
  ok "$t"
else
  t="curve.responses.bad +$((cbad1 - cbad0)), ok +$((cok1 - cok0));"
  bad "every forged or replayed box refused and counted" "$t proxy: $line"
fi
if "$CTL" -s "$SOCK" dump_cache >"$WORK/dump2" 2>"$WORK/dump.err"; then
  grep -E "^relay\.lab\.[[:space:]].*[[:space:]]NS[[:space:]]" \
    "$WORK/dump2" >"$WORK/rnsdump"
  grep -E '^r[0-9]+\.wild\.relay\.lab\.[[:space:]]' "$WORK/dump2" \
    >"$WORK/rdata"
  if grep -q "$LAB_CURVE_KEY\\.ns1\\.relay\\.lab\\..*rank=referral" \
       "$WORK/rnsdump" &&
     ! grep -Eq "[[:space:]]NS[[:space:]]+$LAB_WRONG_KEY" "$WORK/dump2" &&
     [ "$(grep -c "src=$LAB_CURVE_KEY" "$WORK/rdata")" -eq \
       $((RELAY_NAMES + 10)) ]; then
    t="dump_cache: relay.lab. NS keeps the parent's key;"
    t="$t $((RELAY_NAMES + 10)) names cached from the TEST key's boxes"
    ok "$t"
  else
    cat "$WORK/rdata" >>"$WORK/rnsdump"
    bad "dump_cache: the parent's key kept, data from the boxes" "" \
      "$WORK/rnsdump"
  fi
else
  bad "dump_cache" "curvecache-control failed" "$WORK/dump.err"
fi

cc_stop
e2e_finish
