#!/bin/sh
# tests/e2e/localdata_lab.sh: local-data-file and block-file end to end,
# with curvecache resolving in the loopback lab (tests/lab/lab.sh; shared
# code in tests/e2e/e2e_lib.sh).
#
# Run by "make check" (cwd = top build dir, $srcdir = top source dir).
# Exit 0 = every check passed, 1 = a check failed, 77 = SKIP (not root,
# or nsd/curvedns/dig missing).
#
# - local data: A, AAAA and PTR from a hosts-like file, answered with AA
#   and TTL 3600, other types NODATA, nothing sent upstream; the PTR of a
#   192.168/16 address wins over the built-in RFC 6303 zone.
# - blocking: a listed name and the names below it are NXDOMAIN (AA), a
#   name beside it still resolves; nothing sent upstream for them.
# - SIGHUP after editing both files: the new data is served (a cached
#   name that is now blocked included); a file with a bad line makes the
#   reload fail with FILE:LINE in the log and the old data stays; a bad
#   file at start-up stops curvecache with FILE:LINE.
# - local-zone (two workers): "test. nodefault" sends names under test.
#   to the lab root (which delegates test.), "corp.example. refuse"
#   answers REFUSED, invalid. stays local; a SIGHUP without those lines
#   brings the built-in test. back in both workers and corp.example. is
#   resolved (NXDOMAIN from the lab root).

set -u
srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=tests/e2e/e2e_lib.sh
. "$srcdir/tests/e2e/e2e_lib.sh"
e2e_init localdata_lab

HOSTS=$WORK/hosts
BLOCK=$WORK/block
cat >"$HOSTS" <<'EOF'
# local names of the test
192.168.1.10   printer.home.arpa printer.lan
fd00::10       printer.home.arpa
10.9.8.7       nas.example.lab
EOF
cat >"$BLOCK" <<'EOF'
ads.example.lab
0.0.0.0 tracker.other.lab
EOF

# q NAME TYPE TAG: dig through curvecache into $WORK/TAG.out.
q() {
  dig +time=4 +tries=1 +noall +comments +answer +noclass "@$CC_IP" \
    "$1" "$2" >"$WORK/$3.out" 2>&1
}
# check TAG NAME STATUS FLAG GREP: status, a flag (aa or -aa: absent),
# and a line of the answer (empty: no answer records at all).
check() {
  st=$(dig_status "$WORK/$1.out")
  fl=" $(dig_flags "$WORK/$1.out") "
  case $4 in
    -aa) case $fl in *" aa "*) bad "$2" "aa set" "$WORK/$1.out"; return;;
         esac ;;
    aa) case $fl in *" aa "*) ;; *) bad "$2" "no aa" "$WORK/$1.out"
                                   return ;; esac ;;
  esac
  if [ "$st" != "$3" ]; then
    bad "$2" "status $st, want $3" "$WORK/$1.out"
    return
  fi
  if [ -z "$5" ]; then
    if grep -v '^;' "$WORK/$1.out" | grep -q .; then
      bad "$2" "answer records" "$WORK/$1.out"
      return
    fi
  elif ! grep -v '^;' "$WORK/$1.out" | grep -q -- "$5"; then
    bad "$2" "no '$5'" "$WORK/$1.out"
    return
  fi
  ok "$2"
}
reloads() { grep -c "event=reload " "$WORK/curvecache.log"; }

cc_start "local-data-file: $HOSTS" "block-file: $BLOCK" || exit 1
u0=$(cc_stat upstream.sends)
q printer.home.arpa A a1
check a1 "local A, AA" NOERROR aa "3600.*A.*192.168.1.10"
q PRINTER.lan A a2
check a2 "local A, second name, any case" NOERROR aa "192.168.1.10"
q printer.home.arpa AAAA a3
check a3 "local AAAA" NOERROR aa "fd00::10"
q printer.home.arpa MX a4
check a4 "local name, other type: NODATA" NOERROR aa ""
dig +time=4 +tries=1 +noall +comments +answer +noclass "@$CC_IP" \
  -x 192.168.1.10 >"$WORK/a5.out" 2>&1
check a5 "PTR of a 192.168/16 address (wins over RFC 6303)" NOERROR aa \
  "PTR.*printer.home.arpa."
dig +time=4 +tries=1 +noall +comments +answer +noclass "@$CC_IP" \
  -x fd00::10 >"$WORK/a6.out" 2>&1
check a6 "PTR of an IPv6 address" NOERROR aa "PTR.*printer.home.arpa."
q nas.example.lab A a7
check a7 "local name inside a lab zone" NOERROR aa "10.9.8.7"
q ads.example.lab A b1
check b1 "blocked name: NXDOMAIN" NXDOMAIN aa ""
q x.y.ads.example.lab TXT b2
check b2 "below a blocked name: NXDOMAIN" NXDOMAIN aa ""
q tracker.other.lab AAAA b3
check b3 "blocked name from a hosts-style line" NXDOMAIN aa ""
u1=$(cc_stat upstream.sends)
if [ "$u1" = "$u0" ]; then ok "local and blocked: nothing sent upstream"
else bad "local and blocked: upstream" "upstream.sends $u0 -> $u1"; fi
q www.example.lab A r1
check r1 "a name beside them resolves" NOERROR -aa "192.0.2"
# expect NAME GOT WANT
expect() {
  if [ "$2" = "$3" ]; then ok "$1"; else bad "$1" "got '$2', want '$3'"; fi
}
expect "num.answer.localdata 7" "$(cc_stat num.answer.localdata)" 7
expect "num.answer.blocked 3" "$(cc_stat num.answer.blocked)" 3

# ---- edit both files, SIGHUP ----
cat >"$HOSTS" <<'EOF'
192.168.1.20   printer.home.arpa
192.168.1.30   new.home.arpa
EOF
cat >"$BLOCK" <<'EOF'
www.example.lab
EOF
r0=$(reloads)
cc_hup reload
if [ "$(reloads)" -gt "$r0" ]; then ok "SIGHUP: reloaded"
else bad "SIGHUP" "no reload line in the log" "$WORK/curvecache.log"; fi
q printer.home.arpa A h1
check h1 "after reload: the new address" NOERROR aa "192.168.1.20"
if grep -q "192.168.1.10" "$WORK/h1.out"; then
  bad "after reload: old address gone" "192.168.1.10 still there"
else ok "after reload: old address gone"; fi
q new.home.arpa A h2
check h2 "after reload: a new name" NOERROR aa "192.168.1.30"
q nas.example.lab A h3
check h3 "after reload: a removed name is not local" NXDOMAIN -aa ""
q www.example.lab A h4
check h4 "after reload: a cached name now blocked" NXDOMAIN aa ""
q ads.example.lab A h5
check h5 "after reload: unblocked name resolves (NXDOMAIN from the lab)" \
  NXDOMAIN -aa ""

# ---- a bad line: the reload fails, the old data stays ----
printf '192.168.1.40 ok.home.arpa\n300.1.1.1 bad.home.arpa\n' >"$HOSTS"
cc_hup reload_failed
if grep "event=reload_failed" "$WORK/curvecache.log" |
  grep -q "$HOSTS:2: bad address"; then
  ok "bad line: reload fails with FILE:LINE"
else
  bad "bad line" "no reload_failed with $HOSTS:2" "$WORK/curvecache.log"
fi
q printer.home.arpa A k1
check k1 "bad line: the old data stays" NOERROR aa "192.168.1.20"
cc_stop

# ---- a bad file at start-up ----
"$CURVECACHE" -f -c "$WORK/curvecache.conf" </dev/null \
  >"$WORK/bad-start.out" 2>&1 9>&-
st=$?
if [ "$st" -ne 0 ] && grep -q "$HOSTS:2: bad address" "$WORK/bad-start.out"
then ok "bad file at start-up: exit $st with FILE:LINE"
else bad "bad file at start-up" "exit $st" "$WORK/bad-start.out"; fi

# ---- local-zone lines, changed by a reload ----
cc_start "threads: 2" "local-zone: test. nodefault" \
  "local-zone: corp.example. refuse" || { e2e_finish; exit 1; }
q www.plain.test A z1
check z1 "local-zone nodefault: test. resolved by the lab" NOERROR -aa \
  "A.*192.0.2.10"
q www.corp.example A z2
check z2 "local-zone refuse: REFUSED" REFUSED -aa ""
q x.invalid A z3
check z3 "other built-in zones stay" NXDOMAIN any ""
cc_conf "threads: 2"
cc_hup reload
# each dig comes from a new port: both workers answer some of them
for i in 1 2 3 4 5 6; do
  q "w$i.plain.test" A "z4$i"
  check "z4$i" "after reload: test. local again ($i)" NXDOMAIN any ""
  q "w$i.corp.example" A "z5$i"
  check "z5$i" "after reload: corp.example. resolved ($i)" NXDOMAIN -aa ""
done
if grep "event=start" "$WORK/curvecache.log" | tail -n 1 |
  grep -q "root_hints=$LAB_ROOT_HINTS"; then
  ok "start log names the root hints file"
else bad "start log" "no root_hints=$LAB_ROOT_HINTS" "$WORK/curvecache.log"; fi
cc_stop
e2e_finish
