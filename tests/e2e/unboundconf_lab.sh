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
#   stub zone by its server on port 5353, the local zone NXDOMAIN, the
#   local data (when local-data: is there; a TXT in single quotes keeps
#   its double quotes), the pidfile beside the config; a refused client;
# - SIGHUP: the same relative files read again; a reload naming a missing
#   block-file or root-hints fails with the config's FILE:LINE and the old
#   config stays; so does a block-file with a bad line (then the file's
#   own FILE:LINE);
# - the notes of -t are logged at start and once more at each reload
#   (event=config_note file= line= option= note=);
# - a reload naming a missing trust-anchor-file fails with its FILE:LINE;
# - Debian's layout: its unbound.conf (include-toplevel: of conf.d/*.conf),
#   its root-auto-trust-anchor-file.conf and remote-control.conf, and the
#   pi-hole.conf of Pi-hole's unbound guide (port 5335): -t exits 0 with
#   its notes, it runs and answers on port 5335, the control-interface
#   path is the control socket; Debian's root.key missing: -t names the
#   snippet's FILE:LINE, and a bad curve-key-file (relative) its own;
# - an unbalanced quote: -t exits 1 naming FILE:LINE.

set -u
srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=tests/e2e/e2e_lib.sh
. "$srcdir/tests/e2e/e2e_lib.sh"
e2e_init unboundconf_lab

# wait_noerror IP PORT NAME: up to 5 s, until IP port PORT answers NAME
# A with NOERROR (not a check: the checks after it tell).
wait_noerror() {
  n=0
  until dig +time=1 +tries=1 -p "$2" "@$1" "$3" A 2>/dev/null |
    grep -q 'status: NOERROR' || [ $n -ge 50 ]; do
    sleep 0.1
    n=$((n + 1))
  done
}

# private_addresses: the private-address: lines both guides write.
private_addresses() {
  for pa in 192.168.0.0/16 169.254.0.0/16 172.16.0.0/12 10.0.0.0/8 \
    100.64.0.0/10 fd00::/8 fe80::/10; do
    echo "    private-address: $pa"
  done
}

# t_ok T CONFIG OUT ERR: "curvecache -t -c CONFIG" exits 0 (the check
# "T: curvecache -t exits 0"); its output in OUT and ERR.
t_ok() {
  if "$CURVECACHE" -t -c "$2" >"$3" 2>"$4"; then
    ok "$1: curvecache -t exits 0"
  else
    cat "$4" >>"$3"
    bad "$1: curvecache -t exits 0" "exit 1" "$3"
  fi
}

# t_notes T FILE ERR OPTION...: -t's ERR notes each OPTION as ignored,
# at a line of FILE (a check each).
t_notes() {
  tn_t=$1
  tn_file=$2
  tn_err=$3
  shift 3
  for n in "$@"; do
    if grep -q "^$tn_file:[0-9]*: $n: ignored (" "$tn_err"; then
      ok "$tn_t: -t notes that $n is ignored, with FILE:LINE"
    else
      bad "$tn_t: -t notes $n" "no note" "$tn_err"
    fi
  done
}

# t_fails CONFIG OUT LINE OK BAD [WHY]: "curvecache -t -c CONFIG" fails
# and its output (in OUT) has a line that begins with LINE (a grep
# pattern): the check OK, else the check BAD (WHY, default "not so").
t_fails() {
  if ! "$CURVECACHE" -t -c "$1" >"$2" 2>&1 && grep -q "^$3" "$2"; then
    ok "$4"
  else
    bad "$5" "${6:-not so}" "$2"
  fi
}

# logged PATTERN OK BAD WHY: the curvecache log has a line matching
# PATTERN: the check OK, else the check BAD (WHY; the log shown).
logged() {
  if grep -q "$1" "$WORK/curvecache.log"; then
    ok "$2"
  else
    bad "$3" "$4" "$WORK/curvecache.log"
  fi
}

# reload_fails LINE OK BAD: after a SIGHUP, a reload_failed line whose
# error begins with LINE (a grep pattern): the check OK, else BAD.
reload_fails() {
  cc_hup reload_failed
  logged "event=reload_failed .*$1" "$2" "$3" "no such line"
}

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
wait_noerror "$STUB_IP" "$STUB_PORT" www.stubbed.lab

CONF=$CONFDIR/unbound.conf
mkdir -p "$CONFDIR" "$WORK/elsewhere"
cp "$LAB_ROOT_HINTS" "$CONFDIR/root.hints"

# Inline local-data and Unbound's newer local-zone types come with the
# local zones of issue 22 item 4: used when this curvecache has them.
printf 'local-data: "x.lab. IN A 192.0.2.1"\n' >"$WORK/probe.conf"
if "$CURVECACHE" -t -c "$WORK/probe.conf" >/dev/null 2>&1; then
  LOCAL_DATA='local-data: "printer.home.lab. IN A 192.168.1.10"'
  LOCAL_TXT="local-data: 'txt.home.lab. TXT \"hello world\"'"
else
  LOCAL_DATA='# (local-data: not in this curvecache yet)'
  LOCAL_TXT=
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
$(private_addresses)
    chroot: ""
    directory: "/etc/unbound"
    pidfile: "unbound.pid"
    local-zone: "ads.example.lab." $ADS_TYPE
    local-zone: "home.lab." static
    # the lab's TLD test. is a built-in local zone in both resolvers
    local-zone: "test." nodefault
    $LOCAL_DATA
    $LOCAL_TXT

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
t_ok "$t" "$CONF" "$WORK/t.out" "$WORK/t.err"
t_notes "$t" "$CONF" "$WORK/t.err" hide-identity so-rcvbuf \
  harden-referral-path use-syslog

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

# the notes of -t are logged at start too, one structured line each
for n in hide-identity so-rcvbuf; do
  logged "event=config_note file=$CONF line=[0-9]* option=$n note=" \
    "start: a config_note line for $n (file= line= option= note=)" \
    "start logs the note of $n" "no config_note line"
done

ask resolve www.plain.test A NOERROR "192.0.2.10"
ask forward id.example.lab TXT NOERROR '"example.lab"'
ask localzone www.ads.example.lab A NXDOMAIN ""
ask stub www.stubbed.lab A NOERROR "192.0.2.55"
case $LOCAL_DATA in
  local-data:*)
    ask localdata printer.home.lab A NOERROR "192.168.1.10"
    ask localtxt txt.home.lab TXT NOERROR '"hello world"' ;;
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
notes=$(grep -c "event=config_note .*option=so-rcvbuf " "$WORK/curvecache.log")
cc_hup reload
if [ "$(grep -c "event=config_note .*option=so-rcvbuf " \
  "$WORK/curvecache.log")" -eq $((notes + 1)) ]; then
  ok "SIGHUP: the notes are logged again, once"
else
  bad "reload logs the notes once" "not one more so-rcvbuf note" \
    "$WORK/curvecache.log"
fi
logged "event=reload .*root_hints=$CONFDIR/root.hints" \
  "SIGHUP: the relative root-hints read again from the config's folder" \
  "SIGHUP reload" "no reload line with $CONFDIR/root.hints"
echo '  block-file: "blocked.names"' >>"$CONF"
line=$(wc -l <"$CONF")
reload_fails "$CONF:$line: block-file $CONFDIR/blocked.names" \
  "SIGHUP with a missing block-file: fails naming $t:$line" \
  "reload error names FILE:LINE"
# there, with a bad line: the option's FILE:LINE, then the file's
printf 'ads.example.lab\nnot one name\n' >"$CONFDIR/blocked.names"
reload_fails "$CONF:$line: block-file $CONFDIR/blocked.names:2: " \
  "SIGHUP with a bad block-file line: fails naming $t:$line and the file's line" \
  "reload error names block-file's FILE:LINE"
rm -f "$CONFDIR/blocked.names"
sed -i -e '/blocked.names/d' -e 's|root-hints: "root.hints"|root-hints: "gone.hints"|' \
  "$CONF"
line=$(grep -n 'gone.hints' "$CONF" | cut -d: -f1)
reload_fails "$CONF:$line: root-hints $CONFDIR/gone.hints" \
  "SIGHUP with a missing root-hints: fails naming $t:$line" \
  "reload error names root-hints' FILE:LINE"
# a trust-anchor file that is missing: the option's FILE:LINE
sed -i 's|root-hints: "gone.hints"|root-hints: "root.hints"|' "$CONF"
printf '  module-config: "validator iterator"\n  trust-anchor-file: "gone.key"\n' \
  >>"$CONF"
line=$(wc -l <"$CONF")
reload_fails "$CONF:$line: trust-anchor-file $CONFDIR/gone.key" \
  "SIGHUP with a missing trust-anchor-file: fails naming $t:$line" \
  "reload error names trust-anchor-file's FILE:LINE"
sed -i -e '/gone.key/d' -e '/validator iterator/d' "$CONF"
ask afterfail www.plain.test A NOERROR "192.0.2.10"
cc_clean_stop "unbound.conf"

# ---- Debian's layout with Pi-hole's guide, as written ----
# Debian's /etc/unbound/unbound.conf (include-toplevel: of conf.d), the
# root-auto-trust-anchor-file.conf and remote-control.conf it ships, the
# pi-hole.conf of Pi-hole's unbound guide (its lines; the lab's address
# for 127.0.0.1), and one snippet of the lab's own (its root, on
# loopback and unsigned). All under $WORK.
DEB=$WORK/debian
mkdir -p "$DEB/unbound.conf.d" "$DEB/var/lib/unbound"
PIHOLE_IP=127.53.100.35
cat >"$DEB/unbound.conf" <<EOF
# Unbound configuration file for Debian.
#
# See the unbound.conf(5) man page.
#
# The following line includes additional configuration files from the
# /etc/unbound/unbound.conf.d directory.
include-toplevel: "$DEB/unbound.conf.d/*.conf"
EOF
cat >"$DEB/unbound.conf.d/root-auto-trust-anchor-file.conf" <<EOF
server:
    # The following line will configure unbound to perform cryptographic
    # DNSSEC validation using the root trust anchor.
    auto-trust-anchor-file: "$DEB/var/lib/unbound/root.key"
EOF
cat >"$DEB/unbound.conf.d/remote-control.conf" <<EOF
remote-control:
  control-enable: yes
  # it is possible to use a unix socket too
  control-interface: $WORK/unbound.ctl
EOF
cat >"$DEB/unbound.conf.d/pi-hole.conf" <<EOF
server:
    # If no logfile is specified, syslog is used
    # logfile: "/var/log/unbound/unbound.log"
    verbosity: 1

    interface: $PIHOLE_IP
    port: 5335
    do-ip4: yes
    do-udp: yes
    do-tcp: yes

    # May be set to no if you don't have IPv6 connectivity
    do-ip6: no

    # You want to leave this to no unless you have *native* IPv6
    prefer-ip6: no

    # Trust glue only if it is within the server's authority
    harden-glue: yes

    # Require DNSSEC data for trust-anchored zones
    harden-dnssec-stripped: yes

    # Don't use Capitalization randomization
    use-caps-for-id: no

    # Reduce EDNS reassembly buffer size.
    edns-buffer-size: 1232

    # Perform prefetching of close to expired message cache entries
    prefetch: yes

    # One thread should be sufficient
    num-threads: 1

    # Ensure kernel buffer is large enough to not lose messages in traffic spikes
    so-rcvbuf: 1m

    # Ensure privacy of local IP ranges
$(private_addresses)
EOF
cat >"$DEB/unbound.conf.d/zz-lab.conf" <<EOF
server:
    root-hints: "$LAB_ROOT_HINTS"
    outgoing-interface: $CC_IP
    do-not-query-localhost: no
    module-config: "iterator"
    local-zone: "test." nodefault
EOF
cp "$CONFDIR/root.key" "$DEB/var/lib/unbound/root.key"
t=debian+pihole
t_ok "$t" "$DEB/unbound.conf" "$WORK/deb.out" "$WORK/deb.err"
t_notes "$t" "$DEB/unbound.conf.d/pi-hole.conf" "$WORK/deb.err" \
  so-rcvbuf use-caps-for-id prefer-ip6
"$CURVECACHE" -f -c "$DEB/unbound.conf" </dev/null \
  >>"$WORK/curvecache.log" 2>&1 9>&- &
CC_PID=$!
wait_noerror "$PIHOLE_IP" 5335 localhost
dig +time=4 +tries=1 -p 5335 "@$PIHOLE_IP" www.plain.test A \
  >"$WORK/pihole.out" 2>&1
if grep -q 'status: NOERROR' "$WORK/pihole.out" &&
  grep -v '^;' "$WORK/pihole.out" | grep -q 192.0.2.10; then
  ok "$t: runs, answers on $PIHOLE_IP port 5335"
else
  bad "$t: answers on port 5335" "no answer" "$WORK/pihole.out"
fi
if [ -S "$WORK/unbound.ctl" ]; then
  ok "$t: control-interface (a path) is the control socket"
else
  bad "$t: control socket" "no $WORK/unbound.ctl" "$WORK/curvecache.log"
fi
logged "event=config_note file=$DEB/unbound.conf.d/pi-hole.conf line=[0-9]* option=use-caps-for-id" \
  "$t: start logs the notes with file= line=" "$t: start logs the notes" \
  "no config_note"
cc_clean_stop "$t"
# Debian's snippet names a root.key that is not there: -t names its line
rm -f "$DEB/var/lib/unbound/root.key"
sed -i '/module-config/d' "$DEB/unbound.conf.d/zz-lab.conf"
t_fails "$DEB/unbound.conf" "$WORK/deb2.out" \
  "$DEB/unbound.conf.d/root-auto-trust-anchor-file.conf:4: auto-trust-anchor-file $DEB/var/lib/unbound/root.key: " \
  "$t: a missing auto-trust-anchor-file: -t names its FILE:LINE" \
  "$t: missing root.key named with FILE:LINE"
# a key file (curve-key-file, relative) that is bad: its FILE:LINE too
cp "$CONFDIR/root.key" "$DEB/var/lib/unbound/root.key"
printf 'server:\n  curve-key-file: "my.key"\n' >"$DEB/unbound.conf.d/zz-key.conf"
printf 'x' >"$DEB/unbound.conf.d/my.key"
chmod 644 "$DEB/unbound.conf.d/my.key"
t_fails "$DEB/unbound.conf" "$WORK/deb3.out" \
  "$DEB/unbound.conf.d/zz-key.conf:2: curve-key-file $DEB/unbound.conf.d/my.key: mode 0644" \
  "$t: a bad curve-key-file (relative): -t names its FILE:LINE" \
  "$t: bad curve-key-file named with FILE:LINE"

# ---- an unbalanced quote ----
printf 'server:\n  local-zone: "bad.example. static\n' >"$WORK/bad.conf"
t_fails "$WORK/bad.conf" "$WORK/bad.out" "$WORK/bad.conf:2: unbalanced quote" \
  "unbalanced quote: -t exits 1 naming FILE:LINE" "unbalanced quote" \
  "not refused with FILE:LINE"

e2e_finish
