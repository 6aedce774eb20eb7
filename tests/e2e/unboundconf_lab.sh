#!/bin/sh
# tests/e2e/unboundconf_lab.sh: an unbound.conf as Debian's and Pi-hole's
# guides write it, run by curvecache as written (issue 22, "Done when"),
# with the loopback lab (tests/lab/lab.sh) as its Internet.
#
# Run by "make check" (cwd = top build dir, $srcdir = top source dir).
# Exit 0 = every check passed, 1 = a check failed, 77 = SKIP (not root,
# or nsd/curvedns/dig missing).
#
# The file (below, the lab's addresses in it) has a server: clause (interface, port, do-ip4/6, access-control, cache sizes,
# prefetch, hide-*, harden-*, private-address, edns-buffer-size,
# qname-minimisation, num-threads, so-rcvbuf, root-hints and a pidfile by
# relative paths, local-zone and local-data in quotes), a forward-zone:
# clause (name: and forward-addr: in quotes), a stub-zone: clause whose
# server (an NSD of the test) is on port 5353, and remote-control:.
# - curvecache -t: exit 0, and a note for each option ignored here;
# - started from another directory by a relative -c path: recursion
#   through the lab root, the forward zone answered by its forwarder, the
#   stub zone by its server on port 5353, the local zone NXDOMAIN, the local data (when local-data: is there), the
#   pidfile beside the config; a refused client;
# - SIGHUP: the same relative files read again; a reload naming a missing
#   block-file fails with the config's FILE:LINE and the old config stays;
# - an unbalanced quote: -t exits 1 naming FILE:LINE.

set -u
srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=tests/e2e/e2e_lib.sh
. "$srcdir/tests/e2e/e2e_lib.sh"
e2e_init unboundconf_lab

CONFDIR=$WORK/etc/unbound
# The stub zone's server: an NSD of its own on a port that is not 53.
STUB_IP=127.53.100.7
STUB_PORT=5353
mkdir -p "$WORK/nsd"
cat >"$WORK/nsd/stubbed.lab.zone" <<EOF
\$TTL 3600
@	SOA	ns hostmaster 1 3600 600 86400 300
@	NS	ns
ns	A	$STUB_IP
www	A	192.0.2.55
EOF
cat >"$WORK/nsd/nsd.conf" <<EOF
server:
	ip-address: $STUB_IP@$STUB_PORT
	do-ip4: yes
	do-ip6: no
	server-count: 1
	username: ""
	chroot: ""
	zonesdir: "$WORK/nsd"
	database: ""
	zonelistfile: "$WORK/nsd/zone.list"
	xfrdfile: "$WORK/nsd/xfrd.state"
	xfrdir: "$WORK/nsd/xfr"
	cookie-secret-file: "$WORK/nsd/cookiesecrets"
	pidfile: ""
	logfile: "$WORK/nsd/nsd.log"
	rrl-ratelimit: 0
remote-control:
	control-enable: no
zone:
	name: "stubbed.lab."
	zonefile: "stubbed.lab.zone"
EOF
bg_start nsd-stub nsd -d -c "$WORK/nsd/nsd.conf"
n=0
until dig +time=1 +tries=1 -p "$STUB_PORT" "@$STUB_IP" www.stubbed.lab A |
  grep -q 'status: NOERROR' || [ $n -ge 50 ]; do sleep 0.1; n=$((n + 1)); done

CONF=$CONFDIR/unbound.conf
mkdir -p "$CONFDIR" "$WORK/elsewhere"
cp "$LAB_ROOT_HINTS" "$CONFDIR/root.hints"

# Inline local-data and Unbound's newer local-zone types come with the
# local zones of issue 22 item 4: used when this curvecache has them.
printf 'local-data: "x.lab. IN A 192.0.2.1"\n' >"$WORK/probe.conf"
if "$CURVECACHE" -t -c "$WORK/probe.conf" >/dev/null 2>&1; then
  LOCAL_DATA='local-data: "printer.home.lab. IN A 192.168.1.10"'
else
  LOCAL_DATA='# (local-data: not in this curvecache yet)'
fi
printf 'local-zone: "x.lab." always_nxdomain\n' >"$WORK/probe.conf"
if "$CURVECACHE" -t -c "$WORK/probe.conf" >/dev/null 2>&1; then
  ADS_TYPE=always_nxdomain
else
  ADS_TYPE=static
fi

# The server: section of the guides, the lab's addresses in it. The lab
# root is unsigned: module-config "iterator" turns validation off, as in
# Unbound (the anchor file is then read by neither).
cat >"$CONF" <<EOF
# unbound.conf, as Debian's and Pi-hole's guides write it
server:
    verbosity: 1
    use-syslog: yes
    logfile: ""
    interface: $CC_IP
    port: 53
    do-ip4: yes
    do-udp: yes
    do-tcp: yes
    do-ip6: no
    prefer-ip6: no
    outgoing-interface: $CC_IP
    do-not-query-localhost: no
    access-control: 127.0.0.0/8 allow
    access-control: 127.53.100.0/24 refuse
    access-control: 0.0.0.0/0 refuse
    root-hints: "root.hints"
    auto-trust-anchor-file: "root.key"
    module-config: "iterator"
    harden-glue: yes
    harden-dnssec-stripped: yes
    harden-referral-path: no
    harden-below-nxdomain: yes
    use-caps-for-id: no
    edns-buffer-size: 1232
    prefetch: yes
    prefetch-key: yes
    qname-minimisation: yes
    num-threads: 2
    so-rcvbuf: 1m
    so-sndbuf: 1m
    so-reuseport: yes
    msg-cache-size: 32m
    rrset-cache-size: 64m
    cache-min-ttl: 0
    cache-max-ttl: 86400
    hide-identity: yes
    hide-version: yes
    private-address: 192.168.0.0/16
    private-address: 169.254.0.0/16
    private-address: 172.16.0.0/12
    private-address: 10.0.0.0/8
    private-address: fd00::/8
    private-address: fe80::/10
    chroot: ""
    directory: "/etc/unbound"
    pidfile: "unbound.pid"
    local-zone: "ads.example.lab." $ADS_TYPE
    local-zone: "home.lab." static
    # the lab's TLD test. is a built-in local zone in both resolvers
    local-zone: "test." nodefault
    $LOCAL_DATA

forward-zone:
    name: "example.lab."
    forward-addr: "$LAB_EXAMPLE_IP@53"

stub-zone:
    name: "stubbed.lab."
    stub-addr: $STUB_IP@$STUB_PORT

remote-control:
    control-enable: no
EOF
printf '. IN DS 20326 8 2 %s\n' \
  E06D44B80B8F1D39A95C0B0D7C65D08458E880409BBC683457104237C7F8EC8D \
  >"$CONFDIR/root.key"

# ---- curvecache -t ----
t=unbound.conf
if "$CURVECACHE" -t -c "$CONF" >"$WORK/t.out" 2>"$WORK/t.err"; then
  ok "$t: curvecache -t exits 0"
else
  cat "$WORK/t.err" >>"$WORK/t.out"
  bad "$t: curvecache -t exits 0" "exit 1" "$WORK/t.out"
fi
for n in hide-identity so-rcvbuf harden-referral-path use-syslog; do
  if grep -q "^$CONF:[0-9]*: $n: ignored (" "$WORK/t.err"; then
    ok "$t: -t notes that $n is ignored, with FILE:LINE"
  else
    bad "$t: -t notes $n" "no note" "$WORK/t.err"
  fi
done

# ---- started from elsewhere, by a relative path ----
cc_port_free || { bad "curvecache start" "$CC_IP:53 is in use"; exit 1; }
(cd "$WORK/elsewhere" &&
  exec "$CURVECACHE" -f -c ../etc/unbound/unbound.conf </dev/null \
    >>"$WORK/curvecache.log" 2>&1 9>&-) &
CC_PID=$!
wait_up curvecache "$CC_IP" "$CC_PID" "$WORK/curvecache.log" || exit 1

# ask TAG NAME TYPE STATUS GREP: one dig; its status and an answer line.
ask() {
  dig +time=4 +tries=1 +noall +comments +answer "@$CC_IP" "$2" "$3" \
    >"$WORK/$1.out" 2>&1
  st=$(dig_status "$WORK/$1.out")
  if [ "$st" != "$4" ]; then
    bad "$1: $2 $3" "status $st, want $4" "$WORK/$1.out"
  elif [ -n "$5" ] && ! grep -v '^;' "$WORK/$1.out" | grep -q -- "$5"; then
    bad "$1: $2 $3" "no answer line matching $5" "$WORK/$1.out"
  else
    ok "$1: $2 $3: $4${5:+ ($5)}"
  fi
}

ask resolve www.plain.test A NOERROR "192.0.2.10"
ask forward id.example.lab TXT NOERROR '"example.lab"'
ask localzone www.ads.example.lab A NXDOMAIN ""
ask stub www.stubbed.lab A NOERROR "192.0.2.55"
case $LOCAL_DATA in
  local-data:*) ask localdata printer.home.lab A NOERROR "192.168.1.10" ;;
  *) echo "# local-data: not in this build: skipped" ;;
esac
if [ "$(cat "$CONFDIR/unbound.pid" 2>/dev/null)" = "$CC_PID" ]; then
  ok "pidfile: \"unbound.pid\" is beside the config, with the pid"
else
  bad "pidfile beside the config" "$(ls "$CONFDIR")"
fi
# access-control: 127.53.100.0/24 refuse, the dig comes from 127.0.0.1
dig +time=2 +tries=1 -b 127.53.100.9 "@$CC_IP" www.plain.test A \
  >"$WORK/acl.out" 2>&1
if grep -q 'status: REFUSED' "$WORK/acl.out"; then
  ok "access-control: a refused prefix gets REFUSED"
else
  bad "access-control refuse" "no REFUSED" "$WORK/acl.out"
fi

# ---- reload: the same relative files; a missing one names FILE:LINE ----
cc_hup reload
if grep -q "event=reload .*root_hints=$CONFDIR/root.hints" \
  "$WORK/curvecache.log"; then
  ok "SIGHUP: the relative root-hints read again from the config's folder"
else
  bad "SIGHUP reload" "no reload line with $CONFDIR/root.hints" \
    "$WORK/curvecache.log"
fi
echo '  block-file: "blocked.names"' >>"$CONF"
line=$(wc -l <"$CONF")
cc_hup reload_failed
if grep -q "event=reload_failed .*$CONF:$line: block-file $CONFDIR/blocked.names" \
  "$WORK/curvecache.log"; then
  ok "SIGHUP with a missing block-file: fails naming $t:$line"
else
  bad "reload error names FILE:LINE" "no such line" "$WORK/curvecache.log"
fi
ask afterfail www.plain.test A NOERROR "192.0.2.10"
cc_clean_stop "unbound.conf"

# ---- an unbalanced quote ----
printf 'server:\n  local-zone: "bad.example. static\n' >"$WORK/bad.conf"
if ! "$CURVECACHE" -t -c "$WORK/bad.conf" >"$WORK/bad.out" 2>&1 &&
  grep -q "^$WORK/bad.conf:2: unbalanced quote" "$WORK/bad.out"; then
  ok "unbalanced quote: -t exits 1 naming FILE:LINE"
else
  bad "unbalanced quote" "not refused with FILE:LINE" "$WORK/bad.out"
fi

e2e_finish
