#!/bin/sh
# tests/fuzz/mkcorpus.sh: make the seed corpora of the resolver/ fuzz
# targets (query, iter, cfg, control, cachefile) from the loopback lab,
# and tests/fuzz/fuzz_query_cache.h (the query target's cache). Run by
# hand from a build directory (root, like the lab tests), then commit
# what changed:
#
#   cd _build && sh ../tests/fuzz/mkcorpus.sh
#
# - query: queries as dig sends them (captured on 127.53.100.2@5399);
# - iter: the replies of the lab servers to a walk of each question of
#   fuzz_iter.c (tests/fuzz/mkcorpus.py walk);
# - cachefile and fuzz_query_cache.h: dump_cache of curvecache after it
#   resolved names of every lab zone; the dump's time is set to FUZZ_NOW
#   (tests/fuzz/fuzz_load.h) so the targets see it fresh;
# - control: command lines (reload excepted: it reads files);
# - cfg: etc/curvecache.conf and the config the e2e tests write;
# - validate: signed replies of a small tree with fixed test keys, made
#   by tests/fuzz/mkvalidate.py with ./tests/fuzz/fuzz_validate (no lab
#   needed: `python3 ../tests/fuzz/mkvalidate.py seeds
#   ./tests/fuzz/fuzz_validate ../tests/fuzz/corpus/validate` alone
#   remakes them; ECDSA signatures differ on each run).
# Existing seeds of the same name are replaced; others are kept
# (regression seeds of past findings stay).

# shellcheck disable=SC2119 # cc_start takes optional config lines
set -u
srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=tests/e2e/e2e_lib.sh
. "$srcdir/tests/e2e/e2e_lib.sh"
e2e_init mkcorpus python3
CTL=$(pwd)/curvecache-control
PY=$srcdir/tests/fuzz/mkcorpus.py
C=$srcdir/tests/fuzz/corpus
FUZZ_NOW=1764770000
CAP_IP=127.53.100.2
CAP_PORT=5399
mkdir -p "$C/query" "$C/iter" "$C/cfg" "$C/control" "$C/cachefile"

# ---- iter: walks, header byte = question index (+8: QNAME minimisation)
walk() {
  python3 "$PY" walk "$C/iter/$1" "$2" "$3" "$4" || bad "walk $3" "failed"
}
walk plain-www 0 www.example.lab. A
walk curve-www 1 www.secure.curve. A
walk boxed-www 2 www.boxed.lab. AAAA
walk alias 3 alias.example.lab. A
walk chain 4 chain.example.lab. A
walk nxdomain 5 nosuch.example.lab. A
walk mx 6 example.lab. MX
walk glueless 7 www.other.lab. A
walk qmin-plain-www 8 www.example.lab. A
walk qmin-curve-www 9 www.secure.curve. A

# ---- query: what dig sends (files named by question and flags)
timeout 120 python3 "$PY" capture "$CAP_IP" "$CAP_PORT" "$C/query" 3 \
  >"$WORK/cap.out" &
cap=$!
n=0
until grep -q ready "$WORK/cap.out" 2>/dev/null || [ $n -gt 50 ]; do
  sleep 0.1
  n=$((n + 1))
done
q() { dig +tries=1 +time=1 -p "$CAP_PORT" "@$CAP_IP" "$@" >/dev/null 2>&1; }
q www.example.lab A
q www.example.lab AAAA
q example.lab MX
q +norec www.example.lab A
q nosuch.example.lab A
q alias.example.lab A
q www.secure.curve A
q +dnssec www.boxed.lab A
q +noedns www.other.lab A
q version.bind CH TXT
q localhost A
q -x 127.0.0.1
q WwW.ExAmPlE.LaB A
q +cookie +nsid mail.example.lab A
q many.example.lab AAAA
q _dns._udp.example.lab SRV
q +norec lab NS
q +edns=1 bigtxt.example.lab TXT
q +cd +adflag chain.example.lab A
q +bufsize=512 +noedns dangle.example.lab A
wait "$cap" || bad "query capture" "exit $?" "$WORK/cap.out"

# ---- cachefile and the query target's cache: a dump after resolving
cc_start "control-socket: $WORK/control" || exit 1
for n in www.example.lab www.other.lab alias.example.lab \
    chain.example.lab nosuch.example.lab dangle.example.lab \
    a.wild.example.lab x.dn.example.lab www.secure.curve \
    www.boxed.lab many.example.lab; do
  d=$(dig +time=3 +tries=1 "@$CC_IP" "$n" A) || bad "dig $n" "failed"
  [ -n "$d" ] || bad "dig $n" "no output"
done
for n in "www.example.lab AAAA" "example.lab MX" "mail.example.lab AAAA" \
    "www.secure.curve TXT" "_dns._udp.example.lab SRV" \
    "www.boxed.lab AAAA"; do
  # shellcheck disable=SC2086 # name and type
  dig +time=3 +tries=1 "@$CC_IP" $n >/dev/null || bad "dig $n" "failed"
done
"$CTL" -s "$WORK/control" dump_cache >"$WORK/dump.raw" ||
  bad "dump_cache" "exit $?"
grep -v '^ok$' "$WORK/dump.raw" |
  sed "1s/time=[0-9]*/time=$FUZZ_NOW/" >"$WORK/dump"
python3 "$PY" cheader "$WORK/dump" "$srcdir/tests/fuzz/fuzz_query_cache.h"
head -n 1 "$WORK/dump" >"$WORK/header"
# One seed per zone (each small), the negative entries, and the whole
# dump without the big TXT record.
for z in example.lab other.lab secure.curve boxed.lab lab curve; do
  { cat "$WORK/header"
    grep -v '^;' "$WORK/dump" | grep -i "^[^ 	]*\.$z\.[ 	]" |
      grep -v bigtxt | head -n 40
  } >"$C/cachefile/zone-$z"
done
{ cat "$WORK/header"; grep -E 'nxdomain|nodata' "$WORK/dump"; } \
  >"$C/cachefile/negative"
{ cat "$WORK/header"; grep 'src=uz5' "$WORK/dump" | head -n 20; } \
  >"$C/cachefile/curve"
grep -v bigtxt "$WORK/dump" | head -c 4000 >"$C/cachefile/whole"
cc_stop

# ---- control: command lines, and a load_cache with a small dump
ctl() { printf '%s\n' "$2" >"$C/control/$1"; }
ctl status status
ctl stats stats
ctl stats-prom "stats prometheus"
ctl stats-json "stats_noreset json"
ctl stats-text "stats_noreset text"
ctl flush "flush www.example.lab"
ctl flush-zone "flush_zone example.lab."
ctl flush-all flush_all
ctl flush-neg flush_negative
ctl dump dump_cache
ctl lookup "lookup www.example.lab A"
ctl lookup-curve "lookup www.secure.curve."
ctl lookup-any "lookup example.lab"
ctl servers servers
ctl help help
ctl unknown "frobnicate now"
ctl usage "flush"
printf 'status\nstats_noreset\nlookup www.example.lab AAAA\nhelp\n' \
  >"$C/control/several"
{ echo load_cache; cat "$C/cachefile/zone-example.lab"; } \
  >"$C/control/load"
{ echo load_cache; cat "$C/cachefile/negative"; } >"$C/control/load-neg"
printf 'load_cache\n; curvecache-dump version=1 time=%s\n' "$FUZZ_NOW" \
  >"$C/control/load-empty"
{ echo load_cache; cat "$C/cachefile/curve"; echo; echo dump_cache; } \
  >"$C/control/load-then-dump"

# ---- cfg: the sample config and the e2e one
grep -v '^#' "$srcdir/etc/curvecache.conf" | grep -v '^$' \
  >"$C/cfg/sample-bare"
head -c 4000 "$srcdir/etc/curvecache.conf" >"$C/cfg/sample-head"
cp "$WORK/curvecache.conf" "$C/cfg/e2e"
printf 'listen: ::1@5353\nlisten: 127.0.0.1@53\naccess-control: %s\n' \
  "::/0 deny" >"$C/cfg/listen-acl"
printf 'cache-size: 1g\nmin-ttl: 5\nmax-ttl: 3600\nthreads: 4\n' \
  >"$C/cfg/sizes"
printf 'curve-formats: txt\ncurve-plain-fallback: yes\n' >"$C/cfg/curve"
printf 'local-zone: %s\n' "test. nodefault" "lab.test. transparent" \
  "corp.example refuse" "home.example. static" >"$C/cfg/local-zone"
printf 'harden-glue: no\n' >>"$C/cfg/local-zone"
printf 'private-address: %s\n' 10.0.0.0/8 '"fd00::/8"' ::ffff:0:0/96 \
  192.168.1.1 >"$C/cfg/private"
printf 'private-domain: %s\n' home.arpa '"corp.example."' >>"$C/cfg/private"

# ---- validate: the signed tree of mkvalidate.py, answered as the
# target asks (needs dnspython, Debian's python3-dnspython)
PYDNS=python3
python3 -c 'import dns.dnssec' 2>/dev/null || PYDNS=/usr/bin/python3
[ -x tests/fuzz/fuzz_validate ] || make -s tests/fuzz/fuzz_validate
"$PYDNS" "$srcdir/tests/fuzz/mkvalidate.py" seeds tests/fuzz/fuzz_validate \
  "$C/validate" || bad "validate seeds" "failed"
# hostile replies: a malformed RRSIG, DNSKEY, DS, NSEC or NSEC3 beside
# valid signatures (tests/fuzz/mkhostile.py, from the seeds above)
"$PYDNS" "$srcdir/tests/fuzz/mkhostile.py" "$C/validate" "$C/wire" >/dev/null ||
  bad "hostile seeds" "failed"

ok "corpora written to $C"
for t in query iter cfg control cachefile validate; do
  echo "# $t: $(find "$C/$t" -type f | wc -l) seeds," \
    "$(cat "$C/$t"/* | wc -c) bytes"
done
e2e_finish
