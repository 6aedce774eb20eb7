#!/bin/sh
# tests/e2e/systemd_unit.sh: the installed curvecache.service under a real
# systemd. A Debian 12 system (debootstrap, kept in CURVECACHE_ROOTFS,
# default /var/cache/curvecache-tests/bookworm, made once) boots in a
# container (systemd-nspawn --boot) with a private network namespace
# (only its own loopback) and a throw-away overlay over its root; what
# "make install DESTDIR" wrote is bind-mounted at the install paths, the
# unit as /etc/systemd/system/curvecache.service. The installed config is
# used as installed, plus cache-file and curve-key-file in
# /var/lib/curvecache as the unit's header tells administrators to do.
#
# Checks, all inside the container:
# - systemctl start returns once curvecache said READY=1 (Type=notify),
#   the unit is active with the status text curvecache sent;
# - it answers on 127.0.0.1 and ::1, UDP and TCP; curvecache-control
#   reaches it through /run/curvecache/control (RuntimeDirectory);
# - the hardening took hold: not root (DynamicUser), CapEff only
#   CAP_NET_BIND_SERVICE, no_new_privs, a seccomp filter;
# - systemctl reload (SIGHUP) reloads, same main pid;
# - with a broken config, systemctl reload fails: "curvecache -t" (the
#   first ExecReload) put its FILE:LINE in the journal, no SIGHUP was
#   sent (no reload event), the daemon runs on, same pid;
# - killed with SIGKILL, it is restarted (Restart=on-failure);
# - systemctl stop: exit status 0; the cache file and the key file were
#   written in the StateDirectory (key mode 0600); started again, it loads
#   both (same key id, cache_loaded);
# - no level=error line in its journal.
#
# Run by "make check" (cwd = top build dir, $srcdir = top source dir).
# Exit 0 = every check passed, 1 = a check failed, 77 = SKIP (not root).
# The rootfs needs the Debian mirror once (what etc/setup.sh's apt-get
# uses); a rootfs that cannot be made is a failure, not a skip.

set -u
srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
# ok, bad and e2e_finish only: this test needs no lab.
# shellcheck source=tests/e2e/e2e_lib.sh
. "$srcdir/tests/e2e/e2e_lib.sh"
# ROOTFS, ROOT_PKGS and e2e_rootfs: the rootfs shared with resolved_lab.sh
# shellcheck source=tests/e2e/rootfs_lib.sh
. "$srcdir/tests/e2e/rootfs_lib.sh"
ct_init systemd_unit
[ -f Makefile ] || { echo "FAIL: run from the build directory"; exit 1; }
D=$WORK/dest

# ---- the Debian system (made once, under a lock)
e2e_rootfs "$WORK"
ok "Debian 12 rootfs in $ROOTFS ($(elapsed))"

# ---- make install, with the persistence lines in the installed config
mk() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "${MAKE:-make}" -s "$@"; }
mk print-install-dirs >"$WORK/dirs" || { echo "FAIL: print-install-dirs"; exit 1; }
prefix='' sbindir='' bindir='' sysconfdir='' mandir=''
systemdsystemunitdir=''
# shellcheck disable=SC1091 # written just above
. "$WORK/dirs"
if ! mk install DESTDIR="$D" >"$WORK/install.out" 2>&1; then
  bad "make install DESTDIR" "failed" "$WORK/install.out"
  finish
fi
CONF=$D$sysconfdir/curvecache/curvecache.conf
sed -e 's|^cache-file:.*|cache-file: /var/lib/curvecache/cache|' \
    -e 's|^curve-key-file:.*|curve-key-file: /var/lib/curvecache/key|' \
    "$CONF" >"$WORK/conf" && cat "$WORK/conf" >"$CONF"
# what the daemon needs must be in the rootfs
ldd "$D$sbindir/curvecache" | awk '/=>/ { print $1 }' >"$WORK/libs"
while read -r lib; do
  [ -n "$(find "$ROOTFS/usr/lib" "$ROOTFS/lib" -name "$lib" 2>/dev/null |
    head -1)" ] || bad "library $lib in the rootfs" "missing"
done <"$WORK/libs"

# A prefix under /tmp (make distcheck's) would be hidden from the service
# by PrivateTmp=yes: there the install tree goes to /opt/curvecache-test
# in the container, and the unit's and config's paths with it.
UNIT=$D$systemdsystemunitdir/curvecache.service
CT_PREFIX=$prefix
case $prefix in
  /tmp/*|/var/tmp/*)
    CT_PREFIX=/opt/curvecache-test
    sed "s|$prefix|$CT_PREFIX|g" "$UNIT" >"$WORK/unit"
    UNIT=$WORK/unit
    sed "s|$prefix|$CT_PREFIX|g" "$CONF" >"$WORK/conf" && cat "$WORK/conf" >"$CONF"
    sbindir=$CT_PREFIX${sbindir#"$prefix"}
    sysconfdir=$CT_PREFIX${sysconfdir#"$prefix"}
    echo "# prefix $prefix is under /tmp: $CT_PREFIX in the container" ;;
esac

# ---- boot
set -- --bind-ro="$D$prefix:$CT_PREFIX" \
  --bind-ro="$UNIT:/etc/systemd/system/curvecache.service"
# A sanitizer build: LeakSanitizer's exit check needs ptrace, which the
# unit's system call filter forbids (the lab tests check leaks instead).
if grep -q 'libasan' "$WORK/libs"; then
  mkdir -p "$WORK/dropin"
  printf '[Service]\nEnvironment=ASAN_OPTIONS=detect_leaks=0\n' \
    >"$WORK/dropin/asan.conf"
  set -- "$@" --bind-ro="$WORK/dropin:/etc/systemd/system/curvecache.service.d"
  echo "# sanitizer build: ASAN_OPTIONS=detect_leaks=0 in a drop-in"
fi
case $sysconfdir in
  "$CT_PREFIX"/*) ;;
  *) set -- "$@" --bind-ro="$D$sysconfdir/curvecache:$sysconfdir/curvecache" ;;
esac
case $sbindir in
  "$CT_PREFIX"/*) ;;
  *) set -- "$@" --bind-ro="$D$sbindir/curvecache:$sbindir/curvecache" \
       --bind-ro="$D$sbindir/curvecache-control:$sbindir/curvecache-control" ;;
esac
ct_boot "cc-unit-$$" "$WORK/console.out" "$@"

# show PROP: one property of the unit.
show() { in_ct systemctl show -P "$1" curvecache.service; }
journal() { in_ct journalctl -q -o cat -u curvecache.service >"$WORK/journal"; }

# ---- start: Type=notify
if in_ct systemctl start curvecache.service >"$WORK/start.out" 2>&1; then
  ok "systemctl start returned (READY=1 came)"
else
  in_ct systemctl status --no-pager curvecache.service >>"$WORK/start.out" 2>&1
  bad "systemctl start" "failed" "$WORK/start.out"
  finish
fi
a=$(show ActiveState)/$(show SubState)
txt=$(show StatusText)
if [ "$a" = active/running ] && [ -n "$txt" ]; then
  ok "active/running, status text \"$txt\""
else
  bad "active/running with a status text" "$a, '$txt'"
fi
PID1=$(show MainPID)

# ---- answers
for args in "@127.0.0.1" "@::1" "+tcp @127.0.0.1" "+tcp @::1"; do
  # shellcheck disable=SC2086 # options and server as words
  in_ct dig +time=2 +tries=1 $args localhost A >"$WORK/dig.out" 2>&1
  if grep -q 'status: NOERROR' "$WORK/dig.out" &&
     grep -q '^localhost\..*127\.0\.0\.1' "$WORK/dig.out"; then
    ok "answers ($args)"
  else
    bad "answers ($args)" "no answer" "$WORK/dig.out"
  fi
done
in_ct "$sbindir/curvecache-control" status >"$WORK/status.out" 2>&1
if grep -qx "pid: $PID1" "$WORK/status.out"; then
  ok "curvecache-control status through /run/curvecache/control"
else
  bad "curvecache-control status" "no pid $PID1" "$WORK/status.out"
fi

# ---- hardening
in_ct cat "/proc/$PID1/status" >"$WORK/proc.status" 2>&1
uid=$(awk '$1 == "Uid:" { print $2 }' "$WORK/proc.status")
cap=$(awk '$1 == "CapEff:" { print $2 }' "$WORK/proc.status")
nnp=$(awk '$1 == "NoNewPrivs:" { print $2 }' "$WORK/proc.status")
sec=$(awk '$1 == "Seccomp:" { print $2 }' "$WORK/proc.status")
if [ -n "$uid" ] && [ "$uid" != 0 ] && [ "$cap" = 0000000000000400 ] &&
   [ "$nnp" = 1 ] && [ "$sec" = 2 ]; then
  ok "hardened: uid $uid, CapEff $cap (CAP_NET_BIND_SERVICE), no_new_privs, seccomp"
else
  bad "hardened" "uid '$uid' CapEff '$cap' NoNewPrivs '$nnp' Seccomp '$sec'" \
    "$WORK/proc.status"
fi

# ---- reload
in_ct systemctl reload curvecache.service >"$WORK/reload.out" 2>&1
n=0
while [ $n -lt 30 ]; do
  journal
  grep -q 'event=reload ' "$WORK/journal" && break
  sleep 0.1
  n=$((n + 1))
done
if grep -q 'event=reload ' "$WORK/journal" && [ "$(show MainPID)" = "$PID1" ]
then
  ok "systemctl reload: reloaded, same pid"
else
  bad "systemctl reload" "no event=reload or a new pid" "$WORK/journal"
fi

# ---- reload with a broken config: "curvecache -t" stops it
cp "$CONF" "$WORK/conf.good"
echo "bogus-option: yes" >>"$CONF"
nl=$(wc -l <"$CONF")
journal
nr=$(grep -c 'event=reload ' "$WORK/journal")
rrc=0
in_ct systemctl reload curvecache.service >"$WORK/reload2.out" 2>&1 || rrc=$?
sleep 0.5
journal
if [ $rrc -ne 0 ] &&
   grep -q "curvecache.conf:$nl: unknown option \"bogus-option\"" \
     "$WORK/journal" &&
   [ "$(grep -c 'event=reload ' "$WORK/journal")" = "$nr" ] &&
   [ "$(show MainPID)" = "$PID1" ] && [ "$(show ActiveState)" = active ]
then
  ok "systemctl reload, broken config: refused by curvecache -t (FILE:LINE), not signalled"
else
  cat "$WORK/reload2.out" >>"$WORK/journal"
  bad "systemctl reload with a broken config" "exit $rrc" "$WORK/journal"
fi
cat "$WORK/conf.good" >"$CONF"

# ---- Restart=on-failure
in_ct /bin/sh -c "kill -KILL $PID1"
n=0
PID2=
while [ $n -lt 100 ]; do
  sleep 0.1
  p=$(show MainPID)
  if [ "$(show ActiveState)" = active ] && [ "$p" != 0 ] && [ "$p" != "$PID1" ]
  then PID2=$p; break; fi
  n=$((n + 1))
done
if [ -n "$PID2" ] && [ "$(show NRestarts)" = 1 ]; then
  ok "killed with SIGKILL: restarted (pid $PID1 -> $PID2, NRestarts 1)"
else
  bad "restarted after SIGKILL" "ActiveState $(show ActiveState), NRestarts $(show NRestarts)"
fi

# ---- stop, the state files, start again
key1=$(journal; sed -n 's/.*event=curve_key source=file key_id=\([0-9a-f]*\).*/\1/p' \
  "$WORK/journal" | tail -1)
in_ct dig +time=2 +tries=1 @127.0.0.1 localhost A >/dev/null 2>&1
in_ct systemctl stop curvecache.service
res=$(show Result)
code=$(show ExecMainStatus)
if [ "$(show ActiveState)" = inactive ] && [ "$res" = success ] &&
   [ "$code" = 0 ]; then
  ok "systemctl stop: inactive, exit status 0"
else
  bad "systemctl stop" "$(show ActiveState), Result $res, status $code"
fi
in_ct stat -L -c '%a %U %n' /var/lib/curvecache/key /var/lib/curvecache/cache \
  >"$WORK/state.out" 2>&1
if grep -q '^600 .* /var/lib/curvecache/key$' "$WORK/state.out" &&
   grep -q ' /var/lib/curvecache/cache$' "$WORK/state.out"; then
  ok "StateDirectory holds the key (0600) and the saved cache"
else
  bad "key and cache in the StateDirectory" "missing" "$WORK/state.out"
fi
in_ct systemctl start curvecache.service
journal
key2=$(sed -n 's/.*event=curve_key source=file key_id=\([0-9a-f]*\).*/\1/p' \
  "$WORK/journal" | tail -1)
if [ -n "$key1" ] && [ "$key1" = "$key2" ] &&
   grep -q 'event=cache_loaded ' "$WORK/journal"; then
  ok "started again: same key ($key2), cache loaded"
else
  bad "started again with the saved key and cache" \
    "key '$key1' -> '$key2'" "$WORK/journal"
fi
in_ct systemctl stop curvecache.service

journal
if grep -q 'level=error' "$WORK/journal"; then
  grep 'level=error' "$WORK/journal" >"$WORK/errors"
  bad "no error in the journal" "errors logged" "$WORK/errors"
else
  ok "no error in the journal ($(wc -l <"$WORK/journal") lines)"
fi
e2e_finish
