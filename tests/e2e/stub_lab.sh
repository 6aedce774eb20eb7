#!/bin/sh
# tests/e2e/stub_lab.sh: end-to-end test of curvecache as the resolver of
# ordinary programs: glibc (getent hosts / ahosts, i.e. gethostbyname and
# getaddrinfo, through a resolv.conf that names curvecache) and c-ares
# (tests/e2e/ares_client), with the loopback lab (tests/lab/lab.sh) as the
# Internet.
#
# Run by "make check" (cwd = top build dir, $srcdir = top source dir).
# Exit 0 = every check passed, 1 = a check failed, 77 = SKIP (not root,
# or nsd/curvedns/dig/unshare/getent missing). Shared code:
# tests/e2e/e2e_lib.sh.
#
# The machine's own /etc/resolv.conf is never touched: getent runs inside
# a private mount namespace (unshare -m) in which our resolv.conf
# ("nameserver 127.53.100.1", curvecache on port 53 since resolv.conf has
# no port) and an nsswitch.conf with "hosts: dns" are bind-mounted over
# the real ones (and an empty tmpfs over /run/nscd, should nscd run, so
# its cache cannot answer instead). The test checks that the real
# resolv.conf is the same before and after.
#
# How each check decides: the reference is the lab itself (ref in
# e2e_lib.sh: dig asking the authoritative servers, following CNAMEs).
# getent ahosts must list exactly the A and AAAA addresses at the end of
# the chain, with the canonical name (the chain's last name) first;
# getent hosts must name the same canonical name; a name that does not
# exist, or whose zone cannot be reached, must fail (exit 2) within the
# bound. The c-ares client resolves every name in one channel, in
# parallel, against a restarted curvecache (cold cache); its output must
# equal the lines built from the reference.

# shellcheck disable=SC2119 # cc_start takes optional config lines
set -u
srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=tests/e2e/e2e_lib.sh
. "$srcdir/tests/e2e/e2e_lib.sh"
e2e_init stub_lab unshare getent mount ss
ARES_CLIENT=${ARES_CLIENT:-./tests/e2e/ares_client}
[ -x "$ARES_CLIENT" ] || { echo "FAIL: $ARES_CLIENT not built"; exit 1; }

# Seconds one getent may take: resolv.conf allows one try of 3 s.
T_GETENT=6

cc_start || exit 1

printf 'nameserver %s\noptions timeout:3 attempts:1\n' "$CC_IP" \
  >"$WORK/resolv.conf"
printf 'hosts: dns\n' >"$WORK/nsswitch.conf"
sum_before=$(cksum </etc/resolv.conf)

# in_ns CMD...: run CMD with our resolv.conf and nsswitch.conf, in a
# private mount namespace (nothing outside it sees the bind mounts).
in_ns() {
  # shellcheck disable=SC2016 # expanded by the inner sh
  unshare -m --propagation private sh -c '
    mount --bind "$1" /etc/resolv.conf &&
    mount --bind "$2" /etc/nsswitch.conf || exit 99
    if [ -d /run/nscd ]; then mount -t tmpfs none /run/nscd || exit 99; fi
    shift 2
    exec "$@"' sh "$WORK/resolv.conf" "$WORK/nsswitch.conf" "$@"
}

# The namespace works: inside, resolv.conf is ours.
in_ns cat /etc/resolv.conf >"$WORK/out" 2>&1
if cmp -s "$WORK/out" "$WORK/resolv.conf"; then
  ok "private mount namespace: resolv.conf names curvecache ($CC_IP)"
else
  bad "private mount namespace: resolv.conf names curvecache" \
    "unshare/mount failed or the file differs" "$WORK/out"
  exit 1
fi

# want_addrs NAME: the A and AAAA addresses at the end of NAME's chain,
# sorted; sets want_canon (the chain's last name, without the dot).
want_addrs() {
  : >"$WORK/want.addrs"
  want_canon=$(lower "$1")
  for t in A AAAA; do
    ref "$1" "$t"
    awk -v t="$t" '$3 == t { print $4 }' "$ref_ans" >>"$WORK/want.addrs"
    c=$(awk '$3 == "A" || $3 == "AAAA" { print $2; exit }' "$ref_ans")
    [ -n "$c" ] && want_canon=$c
  done
  want_canon=${want_canon%.}
  sort -u -o "$WORK/want.addrs" "$WORK/want.addrs"
}

# getent_ok NAME: getent ahosts and getent hosts give NAME's addresses
# and canonical name.
getent_ok() {
  label="getent ahosts/hosts $1"
  want_addrs "$1"
  [ -s "$WORK/want.addrs" ] || { bad "$label" "lab: no addresses"; return; }
  t0=$(now_ms)
  in_ns timeout 20 getent ahosts "$1" >"$WORK/out" 2>&1
  rc=$?
  ms=$(($(now_ms) - t0))
  [ "$rc" -eq 0 ] || { bad "$label" "getent ahosts exit $rc" "$WORK/out"; return; }
  [ "$ms" -le $((T_GETENT * 1000)) ] ||
    { bad "$label" "took $ms ms" "$WORK/out"; return; }
  awk '{ print $1 }' "$WORK/out" | sort -u >"$WORK/got.addrs"
  if ! cmp -s "$WORK/want.addrs" "$WORK/got.addrs"; then
    diff "$WORK/want.addrs" "$WORK/got.addrs" >"$WORK/diff"
    bad "$label" "addresses differ (- lab, + getent)" "$WORK/diff"
    return
  fi
  canon=$(awk '{ print $3; exit }' "$WORK/out")
  [ "$canon" = "$want_canon" ] ||
    { bad "$label" "canonical name '$canon', want '$want_canon'" "$WORK/out"
      return; }
  in_ns timeout 20 getent hosts "$1" >"$WORK/out" 2>&1
  rc=$?
  first=$(awk '{ print $1; exit }' "$WORK/out")
  canon=$(awk '{ print $2; exit }' "$WORK/out")
  if [ "$rc" -ne 0 ] || ! grep -qxF "$first" "$WORK/want.addrs" ||
     [ "$canon" != "$want_canon" ]; then
    bad "$label" \
      "getent hosts: exit $rc, want a lab address and '$want_canon'" \
      "$WORK/out"
    return
  fi
  ok "$label ($(wc -l <"$WORK/want.addrs") addresses, $ms ms)"
}

# getent_fails NAME WHY: getent ahosts NAME finds nothing (exit 2) in time.
getent_fails() {
  label="getent ahosts $1 fails ($2)"
  t0=$(now_ms)
  in_ns timeout 20 getent ahosts "$1" >"$WORK/out" 2>&1
  rc=$?
  ms=$(($(now_ms) - t0))
  if [ "$rc" -eq 2 ] && [ ! -s "$WORK/out" ] &&
     [ "$ms" -le $((T_GETENT * 1000)) ]; then
    ok "$label"
  else
    bad "$label" "exit $rc (want 2) after $ms ms" "$WORK/out"
  fi
}

echo "# glibc: getent through resolv.conf ($(elapsed))"
for n in www.example.lab www.secure.curve www.boxed.lab chain.example.lab \
         www.dn.example.lab www.other.lab www.dead.lab www.lame.lab \
         foo.wild.example.lab many.example.lab many.secure.curve \
         short.example.lab; do
  getent_ok "$n"
done
getent_fails nosuch.example.lab NXDOMAIN
getent_fails nosuch.secure.curve "NXDOMAIN, DNSCurve"
getent_fails id.curve "no address, NODATA"
getent_fails www.broken.lab SERVFAIL
getent_fails www.gone.lab "SERVFAIL, dead server"

# ---- c-ares, with a cold cache (a new curvecache) ----
cc_stop
cc_start || exit 1
echo "# c-ares: $ARES_CLIENT, cold cache ($(elapsed))"
# Queries (ares_client syntax) and, for each, how the answer is built.
ARES_QUERIES="www.example.lab www.secure.curve chain.example.lab
many.example.lab www.boxed.lab www.other.lab www.dead.lab www.lame.lab
nosuch.example.lab www.example.lab/TXT example.lab/MX
www.secure.curve/TXT secure.curve/MX mail.example.lab/AAAA
chain.example.lab/A many.secure.curve/AAAA foo.wild.secure.curve/A
bigtxt.example.lab/TXT bigtxt.secure.curve/TXT www.broken.lab/A
nosuch.boxed.lab/A"

# ares_want QUERY: the lines ares_client must print for QUERY.
ares_want() {
  case $1 in
    */*) an=${1%/*} at=${1#*/} ;;
    *) an=$1 at= ;;
  esac
  if [ -z "$at" ]; then
    want_addrs "$an"
    if [ ! -s "$WORK/want.addrs" ]; then
      echo "$an addr error ENOTFOUND"
      return
    fi
    [ "$want_canon" = "$an" ] || echo "$an cname $want_canon"
    sed "s/^/$an addr /" "$WORK/want.addrs"
    return
  fi
  case $an in
    # The cases built to fail: c-ares 1.18 reports a SERVFAIL from its
    # last server as ECONNREFUSED (normalized to ESERVFAIL below).
    www.broken.lab) echo "$an $at error ESERVFAIL"; return ;;
  esac
  ref "$an" "$at"
  if [ "$ref_status" = NXDOMAIN ]; then
    echo "$an $at error ENOTFOUND"
    return
  fi
  awk -v n="$an" -v t="$at" '$3 == t {
      d = $0; sub(/^[^ ]* [^ ]* [^ ]* /, "", d); print n " " t " " d
    }' "$ref_ans" >"$WORK/want.one"
  if [ -s "$WORK/want.one" ]; then cat "$WORK/want.one"
  else echo "$an $at error ENODATA"; fi
}

: >"$WORK/ares.want"
for q in $ARES_QUERIES; do ares_want "$q" >>"$WORK/ares.want"; done
sort -o "$WORK/ares.want" "$WORK/ares.want"
t0=$(now_ms)
# shellcheck disable=SC2086 # a list of queries
timeout 30 "$ARES_CLIENT" "$CC_IP" $ARES_QUERIES >"$WORK/ares.out" \
  2>"$WORK/ares.err"
rc=$?
ms=$(($(now_ms) - t0))
sed 's/ error ECONNREFUSED$/ error ESERVFAIL/' "$WORK/ares.out" | sort \
  >"$WORK/ares.got"
nq=$(printf '%s\n' "$ARES_QUERIES" | wc -w)
if [ "$rc" -ne 0 ]; then
  bad "c-ares: $nq queries in one channel" "exit $rc" "$WORK/ares.err"
elif ! cmp -s "$WORK/ares.want" "$WORK/ares.got"; then
  diff "$WORK/ares.want" "$WORK/ares.got" | cut -c1-160 >"$WORK/diff"
  bad "c-ares: $nq queries in one channel" \
    "output differs (- lab, + ares_client)" "$WORK/diff"
else
  ok "c-ares: $nq queries in one channel, $(wc -l <"$WORK/ares.got") lines as the lab says ($ms ms)"
fi

# The machine's resolv.conf was never touched.
if [ "$(cksum </etc/resolv.conf)" = "$sum_before" ]; then
  ok "/etc/resolv.conf unchanged"
else
  bad "/etc/resolv.conf unchanged" "its checksum changed"
fi

cc_stop
e2e_finish
