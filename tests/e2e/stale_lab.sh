#!/bin/sh
# tests/e2e/stale_lab.sh: serve-stale (RFC 8767) and prefetch end to end,
# with curvecache resolving in the loopback lab (tests/lab/lab.sh; shared
# code in tests/e2e/e2e_lib.sh).
#
# Run by "make check" (cwd = top build dir, $srcdir = top source dir).
# Exit 0 = every check passed, 1 = a check failed, 77 = SKIP (not root,
# or nsd/curvedns/dig missing, or libfaketime not installed).
#
# Time: curvecache runs under libfaketime with its offset in a file the
# test rewrites (FAKETIME_TIMESTAMP_FILE, read at every call), so TTLs of
# an hour run out in no time; the monotonic clock (timeouts, RTTs) stays
# real. Names: www.example.lab. A and id.example.lab. TXT, TTL 3600.
#
# - prefetch: at +3300 s (300 s of 3600 left: the last 10 %) a query is
#   answered from the cache at once (TTL <= 300) and num.prefetch moves
#   by 1 with exactly one new upstream query for the name to the
#   example.lab. server; the next query sees the refreshed TTL, and at
#   +3700 s (past the first expiry) the answer is a cache hit with no
#   upstream query.
# - client response timer (RFC 8767 section 5): with the example.lab.
#   server stopped (SIGSTOP: silent, so the resolution runs to its 5 s
#   deadline), the expired ns.example.lab. A is answered with TTL 30
#   after about 1.8 s (checked: 1.7 to 3 s), num.expired moves.
# - serve-stale: the whole lab goes down (lab.sh down); at +3700 s
#   id.example.lab. TXT (expired 100 s ago) is answered NOERROR with its
#   data and TTL 30, num.expired moves by 1; at +90100 s (past the 1-day
#   window) the answer is SERVFAIL and num.expired stays.
# - serve-stale: no (a restart with it off): SERVFAIL instead.

set -u
srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=tests/e2e/e2e_lib.sh
. "$srcdir/tests/e2e/e2e_lib.sh"
FT_LIB=/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1
[ -f "$FT_LIB" ] || e2e_skip "libfaketime not installed"
e2e_init stale_lab

FT=$WORK/faketime
echo "+0" >"$FT"
REAL=$CURVECACHE
CURVECACHE=$WORK/curvecache-faketime
cat >"$CURVECACHE" <<EOF
#!/bin/sh
# (an --enable-sanitizers build: ASan need not come first)
exec env LD_PRELOAD=$FT_LIB FAKETIME_TIMESTAMP_FILE=$FT \
  FAKETIME_NO_CACHE=1 FAKETIME_DONT_FAKE_MONOTONIC=1 \
  ASAN_OPTIONS="\${ASAN_OPTIONS:-}:verify_asan_link_order=0" "$REAL" "\$@"
EOF
chmod +x "$CURVECACHE"
lab_down=0
stopped=
# tree PID: PID and every process below it (NSD serves from children).
tree() {
  echo "$1"
  # shellcheck disable=SC2013 # the file is a list of pids
  for kid in $(cat /proc/"$1"/task/*/children 2>/dev/null); do
    tree "$kid"
  done
}
# The lab comes back up for its own stop at exit.
relab() {
  if [ -n "$stopped" ]; then
    # shellcheck disable=SC2086 # a list of pids
    kill -CONT $stopped 2>/dev/null
    stopped=
  fi
  if [ "$lab_down" = 1 ]; then
    LAB_DIR=$LAB_DIR "$LAB" up >/dev/null 2>&1 || echo "# lab up failed"
    lab_down=0
  fi
}
trap 'relab; e2e_cleanup' EXIT

# ask NAME TYPE TAG: dig through curvecache into $WORK/TAG.out.
ask() {
  dig +time=6 +tries=1 +noall +comments +answer +noclass "@$CC_IP" \
    "$1" "$2" >"$WORK/$3.out" 2>&1
}
# ttl_of TAG: the TTL of the first answer record.
ttl_of() { awk '!/^;/ && NF >= 4 { print $2; exit }' "$WORK/$1.out"; }
# expect_num NAME GOT WANT
expect_num() {
  if [ "$2" = "$3" ]; then ok "$1"; else bad "$1" "got '$2', want '$3'"; fi
}

cc_start || exit 1

# ---- prime the cache ----
ask www.example.lab A prime1
ask id.example.lab TXT prime2
ask ns.example.lab A prime3
st=$(dig_status "$WORK/prime2.out")
expect_num "prime: id.example.lab TXT answered" "$st" NOERROR

# ---- prefetch in the last 10 % of the TTL ----
pf0=$(cc_stat num.prefetch)
s0=$(sends_to "$LAB_EXAMPLE_IP" www.example.lab.)
echo "+3300" >"$FT"
ask www.example.lab A pf1
t=$(ttl_of pf1)
if [ -n "$t" ] && [ "$t" -le 300 ]; then
  ok "prefetch: the client gets the cached answer at once (TTL $t)"
else
  bad "prefetch: cached answer" "TTL '$t', want <= 300" "$WORK/pf1.out"
fi
n=0
while [ "$(sends_to "$LAB_EXAMPLE_IP" www.example.lab.)" -le "$s0" ] &&
  [ $n -lt 30 ]; do sleep 0.1; n=$((n + 1)); done
sleep 0.3
expect_num "prefetch: num.prefetch +1" "$(cc_stat num.prefetch)" \
  $((pf0 + 1))
expect_num "prefetch: one upstream query for the name" \
  "$(sends_to "$LAB_EXAMPLE_IP" www.example.lab.)" $((s0 + 1))
ask www.example.lab A pf2
t=$(ttl_of pf2)
if [ -n "$t" ] && [ "$t" -gt 3000 ]; then
  ok "prefetch: the cache holds the refreshed answer (TTL $t)"
else
  bad "prefetch: refreshed" "TTL '$t', want > 3000" "$WORK/pf2.out"
fi
expect_num "prefetch: no second refresh" "$(cc_stat num.prefetch)" \
  $((pf0 + 1))
echo "+3700" >"$FT"
h0=$(cc_stat total.num.cachehits)
s1=$(sends_for www.example.lab.)
ask www.example.lab A pf3
expect_num "prefetch: past the first expiry, still answered" \
  "$(dig_status "$WORK/pf3.out")" NOERROR
expect_num "prefetch: ... from the cache" \
  "$(cc_stat total.num.cachehits)" $((h0 + 1))
expect_num "prefetch: ... without upstream traffic" \
  "$(sends_for www.example.lab.)" "$s1"

# ---- serve-stale client timer: the example.lab. server silent ----
stopped=$(tree "$(cat "$LAB_DIR/nsd-example.pid")" | tr '\n' ' ')
# shellcheck disable=SC2086 # a list of pids
kill -STOP $stopped
e0=$(cc_stat num.expired)
t0=$(now_ms)
ask ns.example.lab A early1
t1=$(now_ms)
expect_num "client timer: answered NOERROR, server silent" \
  "$(dig_status "$WORK/early1.out")" NOERROR
expect_num "client timer: TTL 30" "$(ttl_of early1)" 30
if [ $((t1 - t0)) -ge 1700 ] && [ $((t1 - t0)) -lt 3000 ]; then
  ok "client timer: after $((t1 - t0)) ms (1.8 s timer, 5 s deadline)"
else
  bad "client timer" "answer after $((t1 - t0)) ms, want 1700-2999"
fi
expect_num "client timer: num.expired +1" "$(cc_stat num.expired)" \
  $((e0 + 1))
# shellcheck disable=SC2086 # a list of pids
kill -CONT $stopped
stopped=

# ---- serve-stale: every lab server down ----
LAB_DIR=$LAB_DIR "$LAB" down || bad "lab down" "failed"
lab_down=1
e0=$(cc_stat num.expired)
ask id.example.lab TXT stale1
expect_num "stale: answered NOERROR with the lab down" \
  "$(dig_status "$WORK/stale1.out")" NOERROR
if grep -q 'TXT.*"example.lab"' "$WORK/stale1.out"; then
  ok "stale: the expired data"
else
  bad "stale: data" "no TXT \"example.lab\"" "$WORK/stale1.out"
fi
expect_num "stale: TTL 30" "$(ttl_of stale1)" 30
expect_num "stale: num.expired +1" "$(cc_stat num.expired)" $((e0 + 1))
echo "+90100" >"$FT"
ask id.example.lab TXT stale2
expect_num "stale: past the window, SERVFAIL" \
  "$(dig_status "$WORK/stale2.out")" SERVFAIL
expect_num "stale: past the window, num.expired unchanged" \
  "$(cc_stat num.expired)" $((e0 + 1))
cc_stop

# ---- serve-stale: no ----
echo "+0" >"$FT"
relab
cc_start "serve-stale: no" || exit 1
ask id.example.lab TXT off1
LAB_DIR=$LAB_DIR "$LAB" down || bad "lab down" "failed"
lab_down=1
echo "+3700" >"$FT"
ask id.example.lab TXT off2
expect_num "serve-stale: no gives SERVFAIL" \
  "$(dig_status "$WORK/off2.out")" SERVFAIL
expect_num "serve-stale: no, num.expired 0" "$(cc_stat num.expired)" 0
cc_stop
e2e_finish
