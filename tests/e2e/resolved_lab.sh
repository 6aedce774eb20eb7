#!/bin/sh
# tests/e2e/resolved_lab.sh: systemd-resolved (Debian 12, systemd 252)
# with DNSOverTLS=yes as the client of curvecache's DNS over TLS (issue
# 25). The container of systemd_unit.sh (the same rootfs, rootfs_lib.sh,
# which also holds systemd-resolved and ca-certificates) boots with a
# private network namespace and a throw-away overlay; this build's
# curvecache runs in it (nsenter), on 127.0.0.2: plain DNS on 53 and DoT
# on 853 with a certificate for dns.lab from a test CA (e2e_pki), a.lab.
# and b.lab. as local data, no upstream.
#
# resolved.conf.d: DNS=127.0.0.2#dns.lab, DNSOverTLS=yes, Domains=~.
# (and a veth pair inside the container with a default route: resolved
# asks nobody while no link is routable).
# Checks, all in the container:
# - before the test CA is trusted: "resolvectl query a.lab" fails, and no
#   query reached curvecache (num.query.tls did not move, tls.failed
#   did): in strict mode resolved verifies the certificate against the
#   system CA store;
# - the CA in /usr/local/share/ca-certificates, update-ca-certificates,
#   resolved restarted: "resolvectl query a.lab" gives 192.0.2.1 and
#   "getent hosts b.lab" (glibc through the 127.0.0.53 stub) 192.0.2.2;
#   num.query.tls grew, num.query.udp did not and num.query.tcp (which
#   counts TLS too) only by as much (no plain query reached curvecache);
#   resolvectl status shows +DNSOverTLS;
# - curvecache's log has no level=error line.
#
# Run by "make check" (cwd = top build dir, $srcdir = top source dir).
# Exit 0 = every check passed, 1 = a check failed, 77 = SKIP (not root).

set -u
srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=tests/e2e/e2e_lib.sh
. "$srcdir/tests/e2e/e2e_lib.sh"
# shellcheck source=tests/e2e/rootfs_lib.sh
. "$srcdir/tests/e2e/rootfs_lib.sh"
ct_init resolved_lab openssl
[ -x ./curvecache ] || { echo "FAIL: run from the build directory"; exit 1; }
IP=127.0.0.2
NAME=dns.lab
chmod 755 "$WORK"
CCNS=
CCPID=
ct_cleanup_more() {
  [ -n "$CCPID" ] && kill -TERM "$CCPID" 2>/dev/null
  [ -n "$CCNS" ] && e2e_kill "$CCNS" >/dev/null
}

e2e_rootfs "$WORK"
ok "Debian 12 rootfs with systemd-resolved in $ROOTFS ($(elapsed))"

# ---- what the container gets in /lab
e2e_pki "$WORK/pki" "$NAME" "$IP" ||
  { bad "test CA" "openssl failed" "$WORK/pki/openssl.log"; finish; }
chmod 644 "$WORK/pki/srv.key"
cp ./curvecache "$WORK/curvecache"
printf '. 3600000 NS a.root.lab.\na.root.lab. 3600000 A 127.0.0.99\n' \
  >"$WORK/root.hints"
LAB_ROOT_HINTS=/lab/root.hints
cc_conf_at "$IP" "$WORK/cc.conf" "listen: $IP@853" "log-level: info" \
  "tls-service-key: /lab/pki/srv.key" "tls-service-pem: /lab/pki/srv.pem" \
  'local-data: "a.lab. 300 IN A 192.0.2.1"' \
  'local-data: "b.lab. 300 IN A 192.0.2.2"'

# ---- boot
ct_boot "cc-resolved-$$" "$WORK/console.out" --bind="$WORK:/lab"

# ---- curvecache in the container
nsenter -t "$LEADER" -m -u -i -n -p -- /lab/curvecache -f -c /lab/cc.conf \
  </dev/null >"$WORK/curvecache.log" 2>&1 &
CCNS=$!
n=0
while [ $n -lt 50 ]; do
  sleep 0.1
  [ -z "$CCPID" ] && CCPID=$(pgrep -P "$CCNS" | head -1)
  [ -n "$CCPID" ] && grep -q 'event=ready\|event=start' "$WORK/curvecache.log" &&
    in_ct dig +time=1 +tries=1 "@$IP" a.lab A 2>/dev/null |
      grep -q '192\.0\.2\.1' && break
  n=$((n + 1))
done
if [ -n "$CCPID" ] && e2e_alive "$CCPID" && [ $n -lt 50 ]; then
  ok "curvecache answers in the container on $IP (pid $CCPID)"
else
  bad "curvecache in the container" "no answer on $IP" "$WORK/curvecache.log"
  finish
fi
# stat NAME: counter NAME from a fresh SIGUSR1 dump (e2e_lib's cc_stat)
CC_PID=$CCPID
stat() { cc_stat "$1"; }

# ---- systemd-resolved, DNSOverTLS=yes
# resolved asks its global servers only when some link is routable (not
# the loopback): a veth pair with both ends in the container's own
# namespace, an address of the benchmarking range and a default route,
# reaching nothing (the host's ip, in that network namespace only).
nsenter -t "$LEADER" -n -- sh -c 'ip link add cc0 type veth peer name cc1 &&
  ip link set cc1 up && ip addr add 198.18.53.1/24 dev cc0 &&
  ip link set cc0 up && ip route add default dev cc0' >"$WORK/ip.out" 2>&1 ||
  { bad "a link in the container" "ip failed" "$WORK/ip.out"; finish; }
in_ct mkdir -p /etc/systemd/resolved.conf.d
printf '[Resolve]\nDNS=%s#%s\nDNSOverTLS=yes\nDomains=~.\nLLMNR=no\nMulticastDNS=no\nCache=no\n' \
  "$IP" "$NAME" >"$WORK/lab.conf"
in_ct cp /lab/lab.conf /etc/systemd/resolved.conf.d/lab.conf
in_ct ln -sf /run/systemd/resolve/stub-resolv.conf /etc/resolv.conf
in_ct systemctl restart systemd-resolved >"$WORK/restart.out" 2>&1
if [ "$(in_ct systemctl is-active systemd-resolved)" = active ]; then
  ok "systemd-resolved $(in_ct resolvectl --version | head -1 |
    cut -d' ' -f2) runs with DNSOverTLS=yes, DNS=$IP#$NAME"
else
  bad "systemd-resolved runs" "not active" "$WORK/restart.out"
  finish
fi

# 1. the test CA not trusted yet: refused by resolved, nothing answered
q0=$(stat num.query.tls)
f0=$(stat tls.failed)
in_ct timeout 20 resolvectl query --cache=no a.lab >"$WORK/q0.out" 2>&1
rc=$?
q1=$(stat num.query.tls)
f1=$(stat tls.failed)
if [ $rc -ne 0 ] && [ "$q1" = "$q0" ] && [ "$f1" -gt "$f0" ]; then
  ok "CA not trusted: resolvectl query fails, num.query.tls stays $q1, tls.failed $f0 -> $f1"
else
  bad "an untrusted certificate is refused" \
    "rc $rc, num.query.tls $q0 -> $q1, tls.failed $f0 -> $f1" "$WORK/q0.out"
fi

# 2. the test CA in the container's trust store
in_ct cp /lab/pki/ca.pem /usr/local/share/ca-certificates/curvecache-test.crt
in_ct update-ca-certificates >"$WORK/ca.out" 2>&1
in_ct systemctl restart systemd-resolved >>"$WORK/restart.out" 2>&1
u0=$(stat num.query.udp)
t0=$(stat num.query.tcp)
q0=$(stat num.query.tls)
in_ct timeout 20 resolvectl query --cache=no a.lab >"$WORK/q1.out" 2>&1
in_ct timeout 20 getent hosts b.lab >"$WORK/q2.out" 2>&1
u1=$(stat num.query.udp)
t1=$(stat num.query.tcp)
q1=$(stat num.query.tls)
echo "# num.query.tls $q0 -> $q1, udp $u0 -> $u1, tcp $t0 -> $t1"
if grep -q '192\.0\.2\.1' "$WORK/q1.out"; then
  ok "resolvectl query a.lab: 192.0.2.1 ($(grep -o 'Data was acquired via [a-z ]*' \
    "$WORK/q1.out" | head -1))"
else bad "resolvectl query a.lab" "no 192.0.2.1" "$WORK/q1.out"; fi
if grep -q '^192\.0\.2\.2[[:space:]]*b\.lab' "$WORK/q2.out"; then
  ok "getent hosts b.lab (glibc, the 127.0.0.53 stub): 192.0.2.2"
else bad "getent hosts b.lab" "no 192.0.2.2" "$WORK/q2.out"; fi
# num.query.tcp counts the queries over TLS too (TLS runs on TCP)
if [ "$q1" -gt "$q0" ] && [ "$u1" = "$u0" ] &&
   [ $((t1 - t0)) -eq $((q1 - q0)) ]; then
  ok "curvecache got them over TLS only (num.query.tls +$((q1 - q0)), no plain UDP or TCP query)"
else
  bad "queries over TLS only" \
    "tls $q0 -> $q1, udp $u0 -> $u1, tcp (with tls) $t0 -> $t1"
fi
in_ct resolvectl status >"$WORK/status.out" 2>&1
if grep -q '+DNSOverTLS' "$WORK/status.out"; then
  ok "resolvectl status: +DNSOverTLS"
else bad "resolvectl status" "no +DNSOverTLS" "$WORK/status.out"; fi

if grep -q 'level=error' "$WORK/curvecache.log"; then
  bad "no error in curvecache's log" "level=error" "$WORK/curvecache.log"
else
  ok "no error in curvecache's log"
fi
kill -TERM "$CCPID"
e2e_kill "$CCNS" >/dev/null
CCNS=
CCPID=
e2e_finish
