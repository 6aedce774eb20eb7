# shellcheck shell=sh disable=SC2034 # RRL_NS*: for the callers
# tests/e2e/rrl_lib.sh: the two rate-limited NSDs of rrl.lab. (see
# tests/lab/zones/rrl.lab.zone), shared by tests/e2e/rrl_lab.sh and
# tests/bench/selection.sh; sourced, not run. The callers start and stop the
# servers by pid (nsd -d) and hold the lab lock.

# Addresses of ns1.rrl.lab. and ns2.rrl.lab. (the glue in lab.zone).
RRL_NS1=127.53.4.1
RRL_NS2=127.53.4.2

# rrl_nsd_conf DIR NAME IP ZONEFILE: an NSD config in DIR/nsd-NAME.conf
# serving rrl.lab. on IP with NSD's default response rate limiting
# (written out, so a changed default does not change the test):
# rrl-ratelimit 200 per second per /24 of clients and type of answer
# (every name of the wildcard is one bucket), rrl-slip 2 (every second
# reply past the rate is sent truncated, TC=1, the others are dropped).
rrl_nsd_conf() {
  cat >"$1/nsd-$2.conf" <<EOC
server:
	ip-address: $3
	port: 53
	do-ip4: yes
	do-ip6: no
	reuseport: no
	server-count: 1
	username: ""
	chroot: ""
	zonesdir: "$1"
	database: ""
	zonelistfile: "$1/nsd-$2.zone.list"
	xfrdfile: "$1/nsd-$2.xfrd.state"
	xfrdir: "$1/xfr-$2"
	cookie-secret-file: "$1/nsd-$2.cookiesecrets"
	pidfile: ""
	logfile: "$1/nsd-$2.log"
	verbosity: 1
	rrl-size: 1000000
	rrl-ratelimit: 200
	rrl-slip: 2
	rrl-ipv4-prefix-length: 24
	rrl-whitelist-ratelimit: 2000
remote-control:
	control-enable: no
zone:
	name: "rrl.lab."
	zonefile: "$4"
EOC
}

# rrl_up IP: the server at IP answers rrl.lab. SOA with AA (up to 5 s).
rrl_up() {
  ru=0
  while [ $ru -lt 50 ]; do
    dig +time=1 +tries=1 +norec "@$1" rrl.lab SOA 2>/dev/null |
      grep -q 'flags:[^;]* aa[ ;]' && return 0
    sleep 0.1
    ru=$((ru + 1))
  done
  return 1
}

# rrl_names COUNT PREFIX: COUNT distinct names PREFIX<N>.w.rrl.lab. for
# dnsperf (-d), one "NAME A" a line.
rrl_names() {
  awk -v n="$1" -v p="$2" \
    'BEGIN { for (i = 1; i <= n; i++) printf "%s%d.w.rrl.lab A\n", p, i }'
}

# rrl_perf_field FILE NAME: from dnsperf's output, the count of response
# code NAME ("NOERROR", "SERVFAIL") or of "lost"/"completed"; 0 if none.
rrl_perf_field() {
  case $2 in
    lost) sed -n 's/^ *Queries lost: *\([0-9]*\).*/\1/p' "$1" ;;
    completed) sed -n 's/^ *Queries completed: *\([0-9]*\).*/\1/p' "$1" ;;
    time) sed -n 's/^ *Run time (s): *\([0-9.]*\).*/\1/p' "$1" ;;
    *) sed -n "s/.*Response codes:.* $2 \\([0-9]*\\) .*/\\1/p" "$1" ;;
  esac | awk 'NR == 1 { v = $1 } END { print (v == "" ? 0 : v) }'
}
