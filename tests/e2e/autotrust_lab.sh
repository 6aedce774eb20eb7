#!/bin/sh
# tests/e2e/autotrust_lab.sh: RFC 5011 rollover of the signed lab's root
# (tests/lab/signed.sh) through auto-trust-anchor-file:
#
#   1. the root is signed again with DNSKEY TTL 2 s; curvecache starts
#      with the file holding the root's key (a fresh file: one plain
#      DNSKEY line), add-holddown and del-holddown 3 s,
#      permit-small-holddown: yes; answers validate (AD);
#   2. a new KSK is published, signed by the old one: the file lists it
#      ADDPEND, then VALID after the hold-down;
#   3. the old key is revoked (REVOKE bit, signing the set itself) and the
#      zone signed by the new key and the revoked one: the file lists the
#      old key REVOKED, the workers take the new anchors
#      (event=autotrust_anchors trusted=1), and answers still validate,
#      now with the new key alone; the file is written through a
#      temporary and rename (no temporary is left); a reload in between
#      goes on from the file, curvecache-control status shows the keys
#      by state, and a restart trusts the new key alone;
#   4. run as a user who may not write the file's directory, the start
#      says so (event=autotrust_file_unwritable).
#
# curvecache listens on 127.54.100.3 (the range the signed lab leaves to
# resolvers under test), threads: 2 (both workers get the new anchors).
# Exit 0 = every check passed, 1 = a check failed, 77 = SKIP (not root, a
# program missing). E2E_KEEP=1 keeps the work directory.

set -u
srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=tests/e2e/e2e_lib.sh
. "$srcdir/tests/e2e/e2e_lib.sh"
CC_IP=127.54.100.3
CURVECACHE=${CURVECACHE:-./curvecache}
CTL=${CURVECACHE_CONTROL:-./curvecache-control}

# what the EXIT trap shows when a check failed
e2e_diag() {
  [ -f "$WORK/curvecache.log" ] || return 0
  echo "---- the file, then the autotrust lines of the log ----"
  cat "$WORK/at/root.key" 2>/dev/null
  grep -E 'autotrust|error|warn' "$WORK/curvecache.log" | tail -n 40
}

# shellcheck disable=SC2086 # a list of programs
e2e_need "the signed lab binds port 53" $SIGNED_NEEDS dnssec-revoke
e2e_built CURVECACHE CTL
signed_lab_start autotrust_lab

# The root's key (dnssec-keygen's name: K.+008+TAG) and a new one.
for f in "$SIGNED_DIR"/keys/K.+008+*.key; do OLD=${f%.key}; break; done
mkdir -p "$WORK/k2" "$WORK/at"
NEW=$WORK/k2/$(dnssec-keygen -q -K "$WORK/k2" -a RSASHA256 -b 2048 \
  -f KSK .) || { echo "FAIL: dnssec-keygen"; exit 1; }
tag_of() { echo "${1##*+}" | sed 's/^0*//'; }

# publish KEYFILE... -- SIGNER...: the root with these DNSKEYs (TTL 2 s,
# as every record), signed by the signers, served by the root's NSD.
publish() {
  keys=
  while [ "$1" != -- ]; do keys="$keys $1.key"; shift; done
  shift
  # shellcheck disable=SC2086 # lists of files
  # shellcheck disable=SC2016 # a literal $TTL
  { grep -v DNSKEY "$SIGNED_DIR/root.in" | sed 's/^[$]TTL 86400/$TTL 2/'
    cat $keys; } >"$WORK/root.in"
  # shellcheck disable=SC2068 # the signers, one word each
  dnssec-signzone -q -z -O full -d "$WORK" -o . \
    -f "$SIGNED_DIR/root.signed" "$WORK/root.in" $@ >/dev/null 2>&1 ||
    { bad "publish" "dnssec-signzone failed"; exit 1; }
  kill -HUP "$(cat "$SIGNED_DIR/nsd-root.pid")"
}

# wait_for WHAT SECONDS COMMAND...: until COMMAND succeeds.
wait_for() {
  what=$1 n=$(($2 * 10))
  shift 2
  while [ $n -gt 0 ]; do
    "$@" && { ok "$what"; return 0; }
    sleep 0.1
    n=$((n - 1))
  done
  bad "$what" "not within the time" "$WORK/at/root.key"
}

# in_file TAG STATE: the file lists key TAG in STATE.
in_file() {
  grep -q "{id = $1 (ksk)} ;;state=$2 " "$WORK/at/root.key"
}

# secure NAME: an answer with AD.
secure() {
  dig +dnssec +time=5 +tries=1 "@$CC_IP" "$1" A >"$WORK/q.out" 2>&1
  [ "$(dig_status "$WORK/q.out")" = NOERROR ] &&
    case " $(dig_flags "$WORK/q.out") " in *" ad "*) true ;; *) false ;; esac
}

# cc_run [LINE...]: start curvecache (cc_start) with the file as its
# auto-trust-anchor-file and LINE... added; exit 1 if it does not answer.
cc_run() {
  cc_start "dnssec: yes" "auto-trust-anchor-file: \"$WORK/at/root.key\"" \
    "add-holddown: 3" "del-holddown: 3" "permit-small-holddown: yes" \
    "control-socket: $WORK/control" "threads: 2" "log-level: info" "$@" ||
    exit 1
}

publish "$OLD" -- "$OLD"
grep -v '^;' "$OLD.key" >"$WORK/at/root.key"
cc_run
T_OLD=$(tag_of "$OLD") T_NEW=$(tag_of "$NEW")
wait_for "the first probe rewrites the fresh file: key $T_OLD VALID" 10 \
  in_file "$T_OLD" 2
if secure www.alg8.sec; then ok "answers validate with the old key"
else bad "answers validate with the old key" "no AD" "$WORK/q.out"; fi

publish "$OLD" "$NEW" -- "$OLD"
wait_for "new key $T_NEW seen: ADDPEND" 10 in_file "$T_NEW" 1
wait_for "new key $T_NEW VALID after the hold-down" 15 in_file "$T_NEW" 2
if grep -q "event=autotrust_key zone=. tag=$T_NEW ds=no from=ADDPEND \
to=VALID why=add-holddown" "$WORK/curvecache.log"; then
  ok "logged: ADDPEND to VALID"
else bad "logged: ADDPEND to VALID" "no autotrust_key line"; fi

# a reload in the middle reads the file again and goes on from it
kill -HUP "$CC_PID"
wait_for "reloaded" 5 grep -q 'event=reload ' "$WORK/curvecache.log"

(cd "$SIGNED_DIR/keys" && dnssec-revoke "${OLD##*/}" >/dev/null 2>&1) ||
  { bad "dnssec-revoke" "failed"; exit 1; }
for f in "$SIGNED_DIR"/keys/K.+008+*.key; do
  [ "$f" = "$OLD.key" ] || { REV=${f%.key}; break; }
done
publish "$REV" "$NEW" -- "$REV" "$NEW"
T_REV=$(tag_of "$REV")
wait_for "old key revoked (self-signed): REVOKED, tag $T_REV" 10 \
  in_file "$T_REV" 4
wait_for "the workers take the new anchors (trusted=1)" 5 \
  grep -q 'event=autotrust_anchors zone=. trusted=1' "$WORK/curvecache.log"
"$CTL" -s "$WORK/control" status >"$WORK/status" 2>&1
if grep -q "^autotrust: $WORK/at/root.key zone \. valid 1 missing 0 \
addpend 0 revoked 1 last_success [0-9]* next_probe [0-9]* failed 0$" \
  "$WORK/status"; then
  ok "curvecache-control status shows the rollover"
else bad "curvecache-control status shows the rollover" "" "$WORK/status"; fi
# from the root again: the sec. keys cached as secure are dropped
"$CTL" -s "$WORK/control" flush_all >/dev/null 2>&1 ||
  bad "flush_all" "curvecache-control failed"
# several names (each dig from its own port: both workers are asked)
for z in alg13 alg15 alg16 nsec3optout; do
  if secure www.$z.sec; then ok "www.$z.sec validates with the new key alone"
  else bad "www.$z.sec validates with the new key alone" "no AD" "$WORK/q.out"
  fi
done
# a restart trusts what the file says: the new key only
e2e_kill "$CC_PID"
CC_PID=
cc_run
if secure www.alg8.sec; then ok "after a restart: validates from the file"
else bad "after a restart: validates from the file" "no AD" "$WORK/q.out"; fi
left=$(cd "$WORK/at" && echo ./*)
if [ "$left" = ./root.key ]; then ok "no temporary left"
else bad "no temporary left" "$left"; fi
# run as a user who may not write the file's directory: said at start
e2e_kill "$CC_PID"
CC_PID=
chmod 755 "$WORK" "$WORK/at"
cp "$SIGNED_ROOT_HINTS" "$WORK/root.hints"
cc_run "user: nobody" "root-hints: $WORK/root.hints"
wait_for "unwritable directory: a warning naming the file" 5 grep -q \
  "event=autotrust_file_unwritable file=$WORK/at/root.key " \
  "$WORK/curvecache.log"
echo "# checks done: $(elapsed)"
cc_stop
cc_no_sanitizer
e2e_finish
