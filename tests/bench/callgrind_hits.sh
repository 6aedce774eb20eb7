#!/bin/sh
# tests/bench/callgrind_hits.sh: instructions per cache-hit query of
# curvecache, counted by callgrind (repeatable on a busy machine, unlike a
# wall-clock rate).
#
# Usage (from the build directory, as root):
#   sh ../tests/bench/callgrind_hits.sh [QUERIES]     (default 50000)
#
# Starts the lab (tests/lab/lab.sh, under its lock), curvecache under
# valgrind --tool=callgrind with collection off, warms 10,000 names
# (nN.wild.example.lab, one wildcard of the lab), turns collection on,
# sends QUERIES cached queries with dnsperf at saturation (so the receive
# batches fill as they do under load), turns collection off and stops
# everything by pid. Prints the instructions per answered query and
# leaves the profile in $OUT (default ./callgrind.hits.out) for
# callgrind_annotate. Extra curvecache config lines: CG_CONF="a: b;c: d".
set -u
srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
QUERIES=${1:-50000}
OUT=${OUT:-$(pwd)/callgrind.hits.out}
CURVECACHE=${CURVECACHE:-$(pwd)/curvecache}
IP=127.53.100.21
NAMES=10000
[ "$(id -u)" -eq 0 ] || { echo "callgrind_hits: needs root" >&2; exit 1; }
for t in valgrind callgrind_control dnsperf flock; do
  command -v $t >/dev/null || { echo "callgrind_hits: no $t" >&2; exit 1; }
done
WORK=$(mktemp -d "${TMPDIR:-/tmp}/cg_hits.XXXXXX") || exit 1
VG_PID=
LAB_DIR=
cleanup() {
  if [ -n "$VG_PID" ]; then
    kill -TERM "$VG_PID" 2>/dev/null
    n=0
    while kill -0 "$VG_PID" 2>/dev/null && [ $n -lt 300 ]; do
      sleep 0.1; n=$((n + 1))
    done
    kill -KILL "$VG_PID" 2>/dev/null
  fi
  [ -n "$LAB_DIR" ] && LAB_DIR=$LAB_DIR "$srcdir/tests/lab/lab.sh" stop
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' HUP INT TERM
exec 9>"${TMPDIR:-/tmp}/curvecache-lab.lock"
flock -w 600 9 || { echo "callgrind_hits: lab lock busy" >&2; exit 1; }
labenv=$("$srcdir/tests/lab/lab.sh" start 9>&-) || exit 1
eval "$labenv"
{
  echo "listen: $IP@53"
  echo "outgoing-interface: $IP"
  echo "root-hints: $LAB_ROOT_HINTS"
  echo "dnssec: no"
  echo "do-not-query-localhost: no"
  echo "do-ip6: no"
  echo "user:"
  echo "control-socket:"
  echo "log-level: warn"
  echo "${CG_CONF:-}" | tr ';' '\n'
} >"$WORK/cc.conf"
awk -v n=$NAMES 'BEGIN { for (i = 1; i <= n; i++)
  printf "n%d.wild.example.lab A\n", i }' >"$WORK/names"
valgrind --tool=callgrind --instr-atstart=no \
  --callgrind-out-file="$OUT" "$CURVECACHE" -f -c "$WORK/cc.conf" \
  </dev/null >"$WORK/vg.log" 2>&1 9>&- &
VG_PID=$!
n=0
until dig +time=1 +tries=1 "@$IP" localhost A 2>/dev/null | grep -q NOERROR
do
  n=$((n + 1))
  if [ $n -ge 60 ] || ! kill -0 "$VG_PID" 2>/dev/null; then
    cat "$WORK/vg.log"; exit 1
  fi
  sleep 0.5
done
dnsperf -s $IP -d "$WORK/names" -n 1 -q 20 -t 30 >"$WORK/warm" 2>&1
grep -q "Queries lost: *0 " "$WORK/warm" || { cat "$WORK/warm"; exit 1; }
callgrind_control -i on "$VG_PID" >/dev/null
runs=$(( (QUERIES + NAMES - 1) / NAMES ))
dnsperf -s $IP -d "$WORK/names" -n $runs -q 100 -t 30 >"$WORK/hits" 2>&1
callgrind_control -i off "$VG_PID" >/dev/null
kill -TERM "$VG_PID"
wait "$VG_PID" 2>/dev/null
VG_PID=
done_q=$(awk '/Queries completed:/ { print $3 }' "$WORK/hits")
ir=$(awk '/^totals:/ { print $2; exit }' "$OUT")
echo "queries answered: $done_q"
echo "instructions: $ir"
awk -v i="$ir" -v q="$done_q" \
  'BEGIN { printf "instructions per query: %.0f\n", i / q }'
