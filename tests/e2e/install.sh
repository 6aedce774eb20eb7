#!/bin/sh
# tests/e2e/install.sh: make install into a temporary DESTDIR and check
# what it put where, then run what was installed.
#
# Run by "make check" (cwd = top build dir, $srcdir = top source dir).
# Exit 0 = every check passed, 1 = a check failed, 77 = SKIP (groff, man
# or dig missing).
#
# Checks:
# - the programs in $(sbindir) and $(bindir), the config and the root
#   hints in $(sysconfdir)/curvecache/, the man pages in $(mandir), the
#   systemd unit in $(systemdsystemunitdir);
# - the installed config is the sample with root-hints pointing at the
#   installed root hints; curvecache -h names $(sysconfdir)/curvecache/
#   curvecache.conf as its default (the compiled-in path follows
#   --sysconfdir); the unit's ExecStart uses $(sbindir) and the config,
#   and so does its ExecReload (curvecache -t before the SIGHUP);
# - a second make install keeps an edited config and writes the new one
#   beside it as curvecache.conf.new;
# - every man page renders with groff -man -ww and man --warnings with
#   nothing on stderr, and no @placeholder@ is left;
# - systemd-analyze verify accepts the unit (when systemd-analyze is
#   installed), with ExecStart and ExecReload (curvecache -t) pointed
#   into DESTDIR and MANPATH at the
#   installed man pages (so Documentation= is checked too);
# - the installed curvecache starts with the installed config (-c; only
#   listen, root hints and control socket changed, to a spare loopback
#   address and the lab's hints), answers, and exits 0 on SIGTERM;
# - it tells the service manager READY=1 and STOPPING=1 on NOTIFY_SOCKET
#   (a python3 listener plays systemd);
# - make uninstall removes every file but the edited config.

set -u
srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
# ok, bad and e2e_finish only: this test needs no lab.
# shellcheck source=tests/e2e/e2e_lib.sh
. "$srcdir/tests/e2e/e2e_lib.sh"
for t in groff man dig; do
  command -v "$t" >/dev/null 2>&1 || { echo "SKIP: $t not installed"; exit 77; }
done
[ -f Makefile ] || { echo "FAIL: run from the build directory"; exit 1; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/install.XXXXXX") || exit 1
D=$WORK/dest
PID=
NPID=
cleanup() {
  if [ -n "$PID" ]; then kill -TERM "$PID" 2>/dev/null; wait "$PID"; fi
  if [ -n "$NPID" ]; then kill -TERM "$NPID" 2>/dev/null; wait "$NPID"; fi
  if [ "${E2E_KEEP:-0}" = 1 ]; then echo "# kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' HUP INT TERM

# make without the jobserver of the make check that runs us.
mk() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "${MAKE:-make}" -s "$@"; }

mk print-install-dirs >"$WORK/dirs" || { echo "FAIL: print-install-dirs"; exit 1; }
prefix='' sbindir='' bindir='' sysconfdir='' mandir='' docdir=''
systemdsystemunitdir=''
# shellcheck disable=SC1091 # written just above
. "$WORK/dirs"
echo "# prefix=$prefix sysconfdir=$sysconfdir unit dir=$systemdsystemunitdir"

t="make install DESTDIR"
if mk install DESTDIR="$D" >"$WORK/install.out" 2>&1; then ok "$t"
else bad "$t" "failed" "$WORK/install.out"; exit 1; fi

# ---- files in their places
for f in "$sbindir/curvecache" "$sbindir/curvecache-control" \
         "$bindir/curvecache-query"; do
  t="program $f"
  if [ -x "$D$f" ] && [ -f "$D$f" ]; then ok "$t"; else bad "$t" "missing"; fi
done
CONF=$D$sysconfdir/curvecache/curvecache.conf
for f in "$CONF" "$D$sysconfdir/curvecache/root.hints" \
         "$D$mandir/man8/curvecache.8" "$D$mandir/man8/curvecache-control.8" \
         "$D$mandir/man1/curvecache-query.1" "$D$mandir/man5/curvecache.conf.5" \
         "$D$systemdsystemunitdir/curvecache.service" "$D$docdir/README" \
         "$D$docdir/resolv.conf.example" "$D$docdir/dnsdist.conf"; do
  t="file ${f#"$D"}"
  if [ -f "$f" ] && [ -s "$f" ]; then ok "$t"; else bad "$t" "missing or empty"; fi
done

t="installed config = sample with the installed root hints"
sed "s|^root-hints:.*|root-hints: $sysconfdir/curvecache/root.hints|" \
  "$srcdir/etc/curvecache.conf" >"$WORK/conf.want"
if cmp -s "$WORK/conf.want" "$CONF" &&
   grep -qx "root-hints: $sysconfdir/curvecache/root.hints" "$CONF"; then ok "$t"
else diff "$WORK/conf.want" "$CONF" >"$WORK/conf.diff"; bad "$t" "differs" "$WORK/conf.diff"; fi

t="compiled-in config path follows sysconfdir"
"$D$sbindir/curvecache" -h >"$WORK/usage" 2>&1
if grep -q "(default $sysconfdir/curvecache/curvecache.conf)" "$WORK/usage"; then ok "$t"
else bad "$t" "usage says otherwise" "$WORK/usage"; fi

UNIT=$D$systemdsystemunitdir/curvecache.service
t="unit ExecStart has the installed paths"
if grep -qx "ExecStart=$sbindir/curvecache -f -c $sysconfdir/curvecache/curvecache.conf" "$UNIT"
then ok "$t"; else bad "$t" "wrong ExecStart" "$UNIT"; fi
t="unit ExecReload checks the installed config first (-t)"
if grep -qx "ExecReload=$sbindir/curvecache -t -c $sysconfdir/curvecache/curvecache.conf" "$UNIT"
then ok "$t"; else bad "$t" "no ExecReload with -t" "$UNIT"; fi

t="unit Documentation= names every installed man page and the README"
for m in "$D$mandir"/man*/*; do
  n=${m##*/}
  grep '^Documentation=' "$UNIT" | grep -qF "man:${n%.*}(${n##*.})" ||
    echo "man:${n%.*}(${n##*.}) missing"
done >"$WORK/doc.missing"
grep '^Documentation=' "$UNIT" | grep -qF "file:$docdir/README" ||
  echo "file:$docdir/README missing" >>"$WORK/doc.missing"
if [ -s "$WORK/doc.missing" ]; then bad "$t" "incomplete" "$WORK/doc.missing"
else ok "$t"; fi

# ---- reinstall keeps an edited config
echo "# edited by install.sh" >>"$CONF"
cp "$CONF" "$WORK/conf.edited"
t="reinstall keeps the edited config, new one as .conf.new"
if mk install DESTDIR="$D" >"$WORK/install2.out" 2>&1 &&
   cmp -s "$CONF" "$WORK/conf.edited" && cmp -s "$CONF.new" "$WORK/conf.want" &&
   grep -q "keeping" "$WORK/install2.out"; then ok "$t"
else bad "$t" "config replaced or no .new" "$WORK/install2.out"; fi

# ---- man pages
for m in man8/curvecache.8 man8/curvecache-control.8 man1/curvecache-query.1 \
         man5/curvecache.conf.5; do
  f=$D$mandir/$m
  t="man page $m renders without warnings"
  groff -man -ww -z "$f" >"$WORK/groff.err" 2>&1
  rc=$?
  LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$f" >"$WORK/man.out" \
    2>"$WORK/man.err"
  rc2=$?
  cat "$WORK/man.err" >>"$WORK/groff.err"
  if [ $rc -eq 0 ] && [ $rc2 -eq 0 ] && [ ! -s "$WORK/groff.err" ] &&
     [ "$(wc -l <"$WORK/man.out")" -gt 20 ]; then ok "$t"
  else bad "$t" "groff $rc, man $rc2" "$WORK/groff.err"; fi
  t="man page $m: paths filled in"
  if grep -q '@[a-zA-Z]*@' "$f"; then bad "$t" "placeholder left"
  else ok "$t"; fi
done
t="curvecache(8) names the installed config"
if grep -q "$sysconfdir/curvecache/curvecache.conf" "$D$mandir/man8/curvecache.8"
then ok "$t"; else bad "$t" "path missing"; fi

# ---- the unit, checked by systemd
if command -v systemd-analyze >/dev/null 2>&1; then
  t="systemd-analyze verify accepts the unit"
  mkdir -p "$WORK/unit"
  sed "s|^\(Exec[A-Za-z]*\)=$sbindir/|\1=$D$sbindir/|" "$UNIT" \
    >"$WORK/unit/curvecache.service"
  MANPATH=$D$mandir systemd-analyze verify "$WORK/unit/curvecache.service" \
    >"$WORK/verify.out" 2>&1
  rc=$?
  if [ $rc -eq 0 ] && [ ! -s "$WORK/verify.out" ]; then ok "$t"
  else bad "$t" "exit $rc" "$WORK/verify.out"; fi
else
  echo "# systemd-analyze not installed: unit not verified"
fi

# ---- run the installed daemon with the installed config
IP=127.53.102.1
PORT=5353
cp "$CONF" "$WORK/run.conf"
# absolute: a relative path is taken from the config's directory
abs_srcdir=$(cd "$srcdir" && pwd)
sed -i -e "s|^listen: 127.0.0.1\$|listen: $IP@$PORT|" -e '/^listen: ::1$/d' \
  -e "s|^root-hints:.*|root-hints: $abs_srcdir/tests/lab/root.hints|" \
  -e "s|^control-socket:.*|control-socket: $WORK/control|" "$WORK/run.conf"
# the lab's root is unsigned: no trust anchor holds for it
echo "dnssec: no" >>"$WORK/run.conf"
cp "$WORK/run.conf" "$CONF"
# The service manager's notify socket (Type=notify), played by python3.
NPID=
if command -v python3 >/dev/null 2>&1; then
  python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
out = open(sys.argv[2], "a")
while True:
    out.write(s.recv(4096).decode() + "\n---\n")
    out.flush()
' "$WORK/notify" "$WORK/notify.out" </dev/null >/dev/null 2>&1 &
  NPID=$!
  n=0
  while [ ! -S "$WORK/notify" ] && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
fi
NOTIFY_SOCKET=$WORK/notify "$D$sbindir/curvecache" -f -c "$CONF" \
  >"$WORK/daemon.log" 2>&1 </dev/null &
PID=$!
n=0
up=no
while [ $n -lt 50 ]; do
  kill -0 "$PID" 2>/dev/null || break
  if dig +time=1 +tries=1 -p "$PORT" "@$IP" localhost A 2>/dev/null |
     grep -q 'status: NOERROR'; then up=yes; break; fi
  sleep 0.1
  n=$((n + 1))
done
t="installed curvecache starts with the installed config"
if [ $up = yes ] && grep -q "event=start" "$WORK/daemon.log"; then ok "$t"
else bad "$t" "no answer on $IP@$PORT" "$WORK/daemon.log"; fi
t="installed curvecache-control talks to it"
if "$D$sbindir/curvecache-control" -c "$CONF" status >"$WORK/status" 2>&1 &&
   grep -qx "pid: $PID" "$WORK/status"; then ok "$t"
else bad "$t" "no status" "$WORK/status"; fi
kill -TERM "$PID" 2>/dev/null
wait "$PID"
rc=$?
PID=
t="installed curvecache exits 0 on SIGTERM"
if [ $rc -eq 0 ]; then ok "$t"; else bad "$t" "exit $rc" "$WORK/daemon.log"; fi
if [ -n "$NPID" ]; then
  # the datagram is queued before the daemon exits; give the reader up
  # to 2 s to write it out before it is stopped
  n=0
  while ! grep -qx 'STOPPING=1' "$WORK/notify.out" 2>/dev/null &&
        [ $n -lt 20 ]; do sleep 0.1; n=$((n + 1)); done
  kill -TERM "$NPID" 2>/dev/null
  wait "$NPID" 2>/dev/null
  NPID=
  t="READY=1, then STOPPING=1, sent to NOTIFY_SOCKET"
  if [ "$(grep -E '^(READY|STOPPING)=1$' "$WORK/notify.out" | tr '\n' ' ')" = \
     "READY=1 STOPPING=1 " ]; then ok "$t"
  else bad "$t" "not as expected" "$WORK/notify.out"; fi
fi

# ---- uninstall
cp "$WORK/conf.edited" "$CONF"
t="make uninstall leaves only the edited config"
mk uninstall DESTDIR="$D" >"$WORK/uninstall.out" 2>&1
left=$(cd "$D" && find . -type f | sort)
if [ "$left" = "./${sysconfdir#/}/curvecache/curvecache.conf" ]; then ok "$t"
else echo "$left" >"$WORK/left"; bad "$t" "files left" "$WORK/left"; fi

e2e_finish
