#!/bin/sh
# tests/e2e/persist_lab.sh: the cache file and the DNSCurve client key
# across restarts, with curvecache resolving in the loopback lab
# (tests/lab/lab.sh; shared code in tests/e2e/e2e_lib.sh).
#
# Run by "make check" (cwd = top build dir, $srcdir = top source dir).
# Exit 0 = every check passed, 1 = a check failed, 77 = SKIP (not root,
# or nsd/curvedns/dig/stat missing).
#
# How each check decides:
# - save: after resolving plain and DNSCurve names, an NXDOMAIN and a
#   CNAME, SIGTERM writes cache-file (mode 0600, a trailer line of
#   version 3 with its MAC) and logs event=cache_saved; the DNSCurve key
#   file and the cache file's MAC key (cache-file.key) were created with
#   mode 0600.
# - a stale temporary of a killed save (cache.XXXXXX, two minutes old)
#   is removed at the next start (event=cache_tmp_removed); a file of
#   another name beside it stays.
# - restart without upstream: the second start has root hints naming a
#   dead address (nothing listens there), so nothing can be resolved; the
#   same questions get the same answers with TTLs no larger, the log
#   shows event=cache_loaded and not one upstream_send line, and the key
#   (key_id in event=curve_key) is the one of the first run.
# - a corrupt file (one byte changed), a forged one (one byte changed and
#   the plain BLAKE2b sum recomputed: the old trailer, or that sum in
#   place of the MAC), one saved under another MAC key, one whose MAC key
#   file is mode 0644, one of format 2 (from before entries kept their
#   DNSSEC status, under a good MAC), one with a bad record line under a
#   good MAC (the reason names FILE:LINE), a truncated one and a foreign
#   one are each
#   reported (event=cache_file_skipped with the reason) and skipped:
#   curvecache starts with an empty cache and resolves upstream.
# - expiry: a file saved with TTLs of 2 s is loaded 3 s later with those
#   entries dropped (expired=N in event=cache_loaded).
# - a key file of mode 0644 stops start-up (exit 1) with a message that
#   names the mode and chmod 600; so does an empty (truncated) nonce file,
#   with a message that names KEY.nonce and says it is empty.
# - rotation: curve-key-rotate: 1s rotates (event=curve_key_rotated, a
#   new key_id each time, curve.key.rotations over the control socket),
#   and DNSCurve resolution still works after rotations.

set -u
srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=tests/e2e/e2e_lib.sh
. "$srcdir/tests/e2e/e2e_lib.sh"
e2e_init persist_lab stat

CTL=${CURVECACHE_CONTROL:-./curvecache-control}
case $CTL in /*) ;; *) CTL=$(pwd)/$CTL ;; esac
STATE=$WORK/state
mkdir -m 0700 "$STATE"
CF=$STATE/cache
KF=$STATE/key
LOG=$WORK/curvecache.log
# The dead root: an address of the range the lab never uses.
printf '.\t3600000\tNS\tdead-root.\ndead-root.\t3600000\tA\t127.53.100.250\n' \
  >"$WORK/dead.hints"

# Questions asked, and what the answer must keep being.
QS="www.example.lab/A www.secure.curve/A www.secure.curve/TXT \
alias.example.lab/A example.lab/MX nosuch.example.lab/A"

# answers FILE: "status name type rdata..." lines for every question.
answers() {
  : >"$1"
  for nt in $QS; do
    dig +time=3 +tries=1 +noall +comments +answer "@$CC_IP" "${nt%/*}" \
      "${nt#*/}" >"$WORK/one" 2>&1
    {
      printf '%s %s ' "$(dig_status "$WORK/one")" "$nt"
      awk '!/^;/ && NF >= 5 { $2 = ""; printf "%s|", $0 }' "$WORK/one" |
        tr -s ' '
      echo
    } >>"$1"
  done
}
# ttls FILE: the answer TTLs of the last dig runs are in $WORK/ttl.*.
log_mark() { wc -l <"$LOG"; }
since() { tail -n +"$(($1 + 1))" "$LOG"; }

# ------------------------------------------------------------------
# First run: resolve, then SIGTERM saves the cache.

cc_start "cache-file: $CF" "curve-key-file: $KF" || { e2e_finish; exit 1; }
answers "$WORK/a1"
t="first run answers every question"
if ! grep -vq '^NOERROR \|^NXDOMAIN ' "$WORK/a1" &&
   [ "$(grep -c '^NXDOMAIN ' "$WORK/a1")" -eq 1 ]; then ok "$t"
else bad "$t" "unexpected status" "$WORK/a1"; fi
t="key file created with mode 0600"
if grep -q "event=curve_key_created file=$KF" "$LOG" &&
   [ "$(stat -c %a "$KF")" = 600 ]; then ok "$t"
else bad "$t" "$(stat -c %a "$KF" 2>&1)" "$LOG"; fi
key1=$(sed -n 's/.*event=curve_key source=file key_id=\([0-9a-f]*\) .*/\1/p' "$LOG" | tail -n 1)
cc_stop
t="cache saved on SIGTERM"
if grep -Eq "event=cache_saved file=$CF entries=[1-9][0-9]* " "$LOG" &&
   [ "$(stat -c %a "$CF")" = 600 ] &&
   tail -n 1 "$CF" | grep -Eq '^; curvecache-dump-end version=3 entries=[0-9]+ records=[0-9]+ bytes=[0-9]+ mac=[0-9a-f]{64}$'
then ok "$t"; else bad "$t" "no cache_saved, mode or trailer" "$LOG"; fi
t="MAC key file created with mode 0600"
if [ "$(stat -c '%a %s %F' "$CF.key" 2>&1)" = "600 65 regular file" ]
then ok "$t"; else bad "$t" "$(stat -c '%a %s %F' "$CF.key" 2>&1)"; fi
cp "$CF" "$WORK/cache.good"
cp "$CF.key" "$WORK/cache.key.good"
# A stale temporary (as a save killed by SIGKILL leaves) and a neighbour.
head -n 3 "$CF" >"$STATE/cache.Kld123"
printf 'notes\n' >"$STATE/cache.notes"
chmod 600 "$STATE/cache.Kld123" "$STATE/cache.notes"
touch -d '2 minutes ago' "$STATE/cache.Kld123" "$STATE/cache.notes"

# ------------------------------------------------------------------
# Second run: the root is dead; everything comes from the file.

mark=$(log_mark)
cc_start "cache-file: $CF" "curve-key-file: $KF" \
  "root-hints: $WORK/dead.hints" || { e2e_finish; exit 1; }
answers "$WORK/a2"
t="restart with a dead root: the same answers from the loaded cache"
if diff "$WORK/a1" "$WORK/a2" >"$WORK/a.diff"; then ok "$t"
else bad "$t" "answers differ" "$WORK/a.diff"; fi
t="cache_loaded logged, no upstream query sent"
if since "$mark" | grep -Eq "event=cache_loaded file=$CF entries=[1-9]" &&
   ! since "$mark" | grep -q 'event=upstream_send '; then ok "$t"
else since "$mark" | grep -E 'cache_|upstream_send' | head >"$WORK/x"
  bad "$t" "see log" "$WORK/x"; fi
t="a stale temporary is removed at start, nothing else"
if [ ! -e "$STATE/cache.Kld123" ] && [ -e "$STATE/cache.notes" ] &&
   since "$mark" | grep -q "event=cache_tmp_removed file=$STATE/cache.Kld123 "
then ok "$t"; else ls -la "$STATE" >"$WORK/x"; bad "$t" "see" "$WORK/x"; fi
t="the key file's key is used again"
key2=$(since "$mark" | sed -n 's/.*event=curve_key source=file key_id=\([0-9a-f]*\) .*/\1/p')
if [ -n "$key1" ] && [ "$key1" = "$key2" ]; then ok "$t"
else bad "$t" "key_id $key1 then $key2"; fi
cc_stop

# ------------------------------------------------------------------
# Bad files are reported and skipped.

# skipped NAME REASON-REGEX: start with $CF as it is; the log must say
# the file was skipped for REASON, and www.example.lab must be resolved
# upstream (the cache started empty).
skipped() {
  mark=$(log_mark)
  cc_start "cache-file: $CF" || return
  dig +time=3 +tries=1 +short "@$CC_IP" www.example.lab A >"$WORK/one" 2>&1
  t="$1 file reported and skipped"
  if since "$mark" | grep -Eq "event=cache_file_skipped file=$CF error=\"$2" &&
     ! since "$mark" | grep -q 'event=cache_loaded' &&
     [ "$(since "$mark" | grep -c 'event=upstream_send ')" -gt 0 ] &&
     grep -qx 192.0.2.10 "$WORK/one"; then ok "$t"
  else since "$mark" | grep -v 'event=upstream_' | head -n 20 >"$WORK/x"
    bad "$t" "not skipped as expected" "$WORK/x"; fi
  e2e_kill "$CC_PID"
  CC_PID=
}
# One digit of an address changed.
sed 's/192\.0\.2\.10\t/192.0.2.11\t/' "$WORK/cache.good" >"$CF"
chmod 600 "$CF"
skipped "altered" "corrupt.*MAC does not match"
# forge OLD|NEW|V2: one address changed, a plain BLAKE2b-256 sum
# recomputed, in the trailer of version 1 (OLD) or in place of the MAC
# (NEW); or (V2) the file unchanged under a trailer of format 2 with a
# good MAC (the key of cache.key.good), as curvecache wrote it before
# entries kept their DNSSEC status; or (BAD) one address made a bad one
# (192.0.2.10.9) under a trailer of format 3 with a good MAC.
forge() {
  python3 - "$WORK/cache.good" "$CF" "$1" "$WORK/cache.key.good" <<'PY'
import hashlib, sys
src, dst, kind, keyfile = sys.argv[1:5]
lines = open(src, 'rb').read().split(b'\n')[:-2]
body = b'\n'.join(lines) + b'\n'
if kind == 'BAD':
    body = body.replace(b'192.0.2.10\t', b'192.0.2.10.9\t', 1)
elif kind != 'V2':
    body = body.replace(b'192.0.2.10\t', b'192.0.2.11\t')
n = sum(1 for l in lines if l and not l.startswith(b';'))
if kind in ('V2', 'BAD'):
    key = bytes.fromhex(open(keyfile).read().strip())
    tail = b'; curvecache-dump-end version=%d entries=%d records=%d bytes=%d mac=' % (2 if kind == 'V2' else 3, n, n, len(body))
    tail += hashlib.blake2b(body + tail, digest_size=32, key=key).hexdigest().encode()
elif kind == 'OLD':
    tail = b'; curvecache-dump-end entries=%d records=%d bytes=%d blake2b=' % (n, n, len(body))
    tail += hashlib.blake2b(body, digest_size=32).hexdigest().encode()
else:
    tail = b'; curvecache-dump-end version=3 entries=%d records=%d bytes=%d mac=' % (n, n, len(body))
    tail += hashlib.blake2b(body + tail, digest_size=32).hexdigest().encode()
open(dst, 'wb').write(body + tail + b'\n')
PY
  chmod 600 "$CF"
}
forge OLD
skipped "forged (plain sum, old trailer)" "format of another version: format 1"
forge NEW
skipped "forged (plain sum for the MAC)" "corrupt.*MAC does not match"
forge V2
skipped "format 2 (no DNSSEC status)" "format of another version: format 2.*format changed.*cache starts empty"
cp "$WORK/cache.good" "$CF"
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$CF.key"
echo >>"$CF.key"
skipped "saved under another MAC key" "corrupt.*MAC does not match.*$CF.key"
cp "$WORK/cache.key.good" "$CF.key"
cp "$WORK/cache.good" "$CF"
chmod 644 "$CF.key"
skipped "MAC key file of mode 0644" "MAC key file unusable: $CF.key: mode 0644.*chmod 600"
chmod 600 "$CF.key"
# a bad record line under a good MAC: named FILE:LINE (issue 22)
forge BAD
line=$(grep -n '192\.0\.2\.10\.9' "$CF" | cut -d: -f1)
skipped "bad record line" "bad record line: $CF:$line: .*\(1 bad lines in all\)"
head -c "$(($(wc -c <"$WORK/cache.good") / 2))" "$WORK/cache.good" >"$CF"
skipped "truncated" "corrupt"
printf 'nameserver 127.0.0.1\n' >"$CF"
skipped "foreign" "not a curvecache cache file"
cp "$WORK/cache.good" "$CF"
chmod 666 "$CF"
skipped "world-writable" "unsafe.*writable"

# ------------------------------------------------------------------
# Expired entries are dropped at load.

rm -f "$CF"
cc_start "cache-file: $CF" || { e2e_finish; exit 1; }
dig +time=3 +tries=1 +short "@$CC_IP" www.example.lab A >/dev/null 2>&1
# short.example.lab has a TTL of 2 s in the lab.
dig +time=3 +tries=1 +short "@$CC_IP" short.example.lab A >"$WORK/short" 2>&1
cc_stop
sleep 3
mark=$(log_mark)
cc_start "cache-file: $CF" "root-hints: $WORK/dead.hints" ||
  { e2e_finish; exit 1; }
t="entries past their TTL are dropped at load"
if [ -s "$WORK/short" ] &&
   since "$mark" | grep -Eq "event=cache_loaded .* expired=[1-9]"; then ok "$t"
else since "$mark" | grep 'cache_' >"$WORK/x"; bad "$t" "no expired" "$WORK/x"; fi
cc_stop

# ------------------------------------------------------------------
# A key file readable by others stops start-up.

# refused OUT: start with badkey.conf, output to OUT; its exit status
# (killed after 5 s if it keeps running).
refused() {
  "$CURVECACHE" -f -c "$WORK/badkey.conf" >"$1" 2>&1 </dev/null 9>&- &
  bk=$!
  n=0
  while e2e_alive "$bk" && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
  if e2e_alive "$bk"; then kill -KILL "$bk"; fi
  wait "$bk"
}

chmod 644 "$KF"
cp "$WORK/curvecache.conf" "$WORK/badkey.conf"
echo "curve-key-file: $KF" >>"$WORK/badkey.conf"
refused "$WORK/badkey.out"
rc=$?
t="key file of mode 0644 refuses start-up"
if [ $rc -eq 1 ] && grep -q "curve-key-file $KF: mode 0644" "$WORK/badkey.out" &&
   grep -q "chmod 600" "$WORK/badkey.out"; then ok "$t"
else bad "$t" "exit $rc" "$WORK/badkey.out"; fi
chmod 600 "$KF"

# A truncated nonce file stops start-up, named as such.
cp "$KF.nonce" "$WORK/nonce.good"
: >"$KF.nonce"
refused "$WORK/badnonce.out"
rc=$?
t="an empty nonce file refuses start-up, naming the nonce file"
if [ $rc -eq 1 ] && grep -q "$KF.nonce: empty" "$WORK/badnonce.out"; then ok "$t"
else bad "$t" "exit $rc" "$WORK/badnonce.out"; fi
cp "$WORK/nonce.good" "$KF.nonce"

# ------------------------------------------------------------------
# Rotation.

mark=$(log_mark)
cc_start "curve-key-file: $KF" "curve-key-rotate: 1s" \
  "control-socket: $WORK/control" || { e2e_finish; exit 1; }
sleep 3.5
dig +time=3 +tries=1 +short "@$CC_IP" mail.secure.curve A >"$WORK/mail" 2>&1
"$CTL" -s "$WORK/control" stats_noreset >"$WORK/stats" 2>&1
rot=$(sed -n 's/^curve\.key\.rotations=//p' "$WORK/stats")
okr=$(sed -n 's/^curve\.responses\.ok=//p' "$WORK/stats")
ids=$(since "$mark" | sed -n 's/.*event=curve_key_rotated key_id=\([0-9a-f]*\) .*/\1/p' | sort -u | wc -l)
t="the key rotates every second"
if [ "${rot:-0}" -ge 3 ] && [ "$ids" -ge 3 ] &&
   ! since "$mark" | grep -q "curve_key_rotated key_id=$key1 "; then ok "$t"
else bad "$t" "rotations=${rot:-none}, $ids distinct key_ids" "$WORK/stats"; fi
t="DNSCurve resolution works after rotations"
if grep -qx 192.0.2.25 "$WORK/mail" && [ "${okr:-0}" -gt 0 ]; then ok "$t"
else bad "$t" "answer $(cat "$WORK/mail"), curve.responses.ok=${okr:-none}"; fi
cc_stop

e2e_finish
