#!/bin/sh
# tests/bench/bench_cachedb.sh: what the Redis cache tier (issue 26,
# cachedb-backend: redis) costs and saves. Debian's Unbound is built
# without cachedb, so the tier is set beside curvecache's own two other
# paths: an upstream resolution and a local cache hit. Prints a markdown
# table. Not part of make check (root, the lab, half a minute); its
# checks are tests/e2e/cachedb_lab.sh and cachedb_signed_lab.sh.
#
# Usage (from the build directory, as root; or `make bench-cachedb`):
#   sh ../tests/bench/bench_cachedb.sh
# Environment: BENCH_NAMES (default 2000), BENCH_OUT (also write the
# table there), CURVECACHE (./curvecache).
#
# What it does (each process started here is stopped by its pid):
# - the lab (tests/lab/lab.sh), a redis-server on 127.54.101.9 (nothing
#   on disk), curvecache A and B on 127.54.101.11 and .12 sharing it,
#   both pinned to core 0; the client and Redis on core 1.
# - the names: nN.wild.example.lab (a wildcard of the lab: each a fresh
#   name, one NSD query each once the zone cut is cached; warmed with
#   one name first).
# - one question at a time (a small UDP client, tests/bench's own, no
#   EDNS), each timed: A resolves every name upstream (and writes it to
#   Redis); B, fresh, gets each from Redis (a local miss answered from
#   the tier); B again, each a local hit.
# - latency p50 and p99 as the client sees it (microseconds), CPU per
#   answer of the instance asked (schedstat: run time, ns) and of
#   redis-server.
set -u
srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
CURVECACHE=${CURVECACHE:-$(pwd)/curvecache}
N=${BENCH_NAMES:-2000}
A_IP=127.54.101.11 B_IP=127.54.101.12 R_IP=127.54.101.9 R_PORT=6391

die() { echo "bench_cachedb.sh: $*" >&2; exit 1; }
# shellcheck source=tests/bench/bench_lib.sh
. "$srcdir/tests/bench/bench_lib.sh"
[ "$(id -u)" -eq 0 ] || die "needs root (the lab and port 53)"
for t in redis-server redis-cli python3 taskset dig flock nsd; do
  command -v "$t" >/dev/null 2>&1 || die "$t not installed"
done
[ -x "$CURVECACHE" ] || die "$CURVECACHE not built"
bench_lab_start bench_cachedb

head -c 48 /dev/urandom >"$WORK/secret"
chmod 600 "$WORK/secret"
printf 'bind %s\nport %s\nprotected-mode no\nsave ""\nappendonly no\ndir %s\nlogfile ""\n' \
  "$R_IP" "$R_PORT" "$WORK" >"$WORK/redis.conf"
CPUS=1 launch redis redis-server "$WORK/redis.conf"
R_PID=$PID
n=0
until [ "$(redis-cli -h "$R_IP" -p "$R_PORT" PING 2>/dev/null)" = PONG ]; do
  n=$((n + 1)); [ $n -lt 50 ] || die "redis-server"; sleep 0.1
done
set -- "cachedb-backend: redis" "redis-server-host: $R_IP" \
  "redis-server-port: $R_PORT" "cachedb-secret-file: $WORK/secret" \
  "prefetch: no"
CPUS=0 start_cc "$A_IP" "$@"
A_PID=$PID
CPUS=0 start_cc "$B_IP" "$@"
B_PID=$PID
sleep 0.5

# The client: one query at a time, each timed; "p50 p99" in us.
cat >"$WORK/ask.py" <<'EOF'
import socket, struct, sys, time
ip, first, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.connect((ip, 53))
s.settimeout(3)
lat, bad = [], 0
for i in range(first, first + n):
    q = b''.join(bytes([len(l)]) + l for l in
                 (b'n%d' % i, b'wild', b'example', b'lab')) + b'\0'
    pkt = struct.pack('>HHHHHH', i & 0xffff, 0x0100, 1, 0, 0, 0) + q + \
        struct.pack('>HH', 1, 1)
    t0 = time.perf_counter_ns()
    s.send(pkt)
    r = s.recv(4096)
    lat.append(time.perf_counter_ns() - t0)
    if len(r) < 12 or r[3] & 0xf != 0 or struct.unpack('>H', r[6:8])[0] < 1:
        bad += 1
lat.sort()
print('%.0f %.0f %d' % (lat[len(lat) // 2] / 1000,
                        lat[min(len(lat) - 1, len(lat) * 99 // 100)] / 1000,
                        bad))
EOF
ask() { taskset -c 1 python3 "$WORK/ask.py" "$@" 9>&-; }
# row LABEL IP PID: run the client over the N names against IP, with the
# CPU of PID and of redis-server.
row() {
  c0=$(cpu_ns "$3") r0=$(cpu_ns "$R_PID")
  set -- "$1" "$2" "$3" $(ask "$2" 1 "$N")
  c1=$(cpu_ns "$3") r1=$(cpu_ns "$R_PID")
  [ "$6" -eq 0 ] || echo "# $1: $6 answers not NOERROR with an answer" >&2
  awk -v l="$1" -v p50="$4" -v p99="$5" -v c="$((c1 - c0))" \
    -v r="$((r1 - r0))" -v n="$N" 'BEGIN {
    printf "| %s | %s | %s | %.1f | %.1f |\n", l, p50, p99,
      c / n / 1000, r / n / 1000 }'
}
ask "$A_IP" 0 1 >/dev/null # the zone cut of wild.example.lab.
{
  echo "| $N names, one at a time | p50 us | p99 us | CPU us/answer (curvecache) | CPU us/answer (redis-server) |"
  echo "|---|---|---|---|---|"
  row "upstream resolution (A, writes to Redis)" "$A_IP" "$A_PID"
  row "local miss answered from Redis (B)" "$B_IP" "$B_PID"
  row "local hit (B again)" "$B_IP" "$B_PID"
} | tee "$WORK/table"
[ -n "${BENCH_OUT:-}" ] && cp "$WORK/table" "$BENCH_OUT"
hits=$(redis-cli -h "$R_IP" -p "$R_PORT" INFO stats | tr -d '\r' |
  sed -n 's/^keyspace_hits://p')
echo "# redis keyspace_hits=$hits (expected $N)"
