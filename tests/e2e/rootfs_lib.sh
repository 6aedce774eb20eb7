# shellcheck shell=sh
# tests/e2e/rootfs_lib.sh: the Debian 12 system the container tests boot
# (systemd_unit.sh, resolved_lab.sh), one rootfs for both. Sourced after
# e2e_lib.sh; sets ROOTFS; e2e_rootfs WORKDIR makes it (debootstrap,
# once, under a lock). The package list is written in the rootfs
# (.curvecache-rootfs): a changed list makes it again.
#
#   ct_init NAME [PROGRAM...]    # SKIP/FAIL rules, WORK, the EXIT trap
#   e2e_rootfs "$WORK"           # the rootfs
#   ct_boot MACHINE LOG [OPTION...]   # the container, or FAIL and exit
#   ... checks with in_ct ...
#   e2e_finish
#
# A test that starts more defines ct_cleanup_more (run by the trap before
# the container stops). E2E_KEEP=1 keeps the work directory.

ROOTFS=${CURVECACHE_ROOTFS:-/var/cache/curvecache-tests/bookworm}
ROOTFS_MIRROR=${CURVECACHE_MIRROR:-http://deb.debian.org/debian}
# systemd and what the daemon links (libasan8 and libubsan1 for the
# sanitizer build, libssl3 and libnghttp2-14 for DoT and DoH, libhiredis0.14
# for the Redis tier), dig for the
# checks; systemd-resolved and ca-certificates for resolved_lab.sh.
ROOT_PKGS="systemd,systemd-sysv,dbus,libsodium23,libuv1,libc-ares2,\
bind9-dnsutils,libasan8,libubsan1,libssl3,libnghttp2-14,libhiredis0.14,\
systemd-resolved,\
ca-certificates"

T_BOOT_S=60
TPID=
LEADER=

# ct_init NAME [PROGRAM...]: SKIP unless root; FAIL unless every PROGRAM
# (and what every container test runs) is installed; the work directory
# WORK (NAME.XXXXXX), the EXIT trap (ct_cleanup) and the clock of elapsed.
ct_init() {
  [ "$(id -u)" -eq 0 ] || { echo "SKIP: not root"; exit 77; }
  ci_name=$1
  shift
  for t in systemd-nspawn debootstrap nsenter flock "$@"; do
    command -v "$t" >/dev/null 2>&1 ||
      { echo "FAIL: $t not installed (etc/setup.sh installs it)"; exit 1; }
  done
  WORK=$(mktemp -d "${TMPDIR:-/tmp}/$ci_name.XXXXXX") || exit 1
  trap ct_cleanup EXIT
  trap 'exit 130' HUP INT TERM
  # shellcheck disable=SC2034 # e2e_lib.sh's elapsed reads it
  e2e_t0=$(date +%s)
}

# ct_cleanup_more: what a test started besides the container (it may
# define its own after sourcing this file).
ct_cleanup_more() { :; }

# ct_cleanup: the EXIT trap: ct_cleanup_more, the container, WORK.
ct_cleanup() {
  ct_cleanup_more
  ct_stop
  if [ "${E2E_KEEP:-0}" = 1 ]; then echo "# kept $WORK"; else rm -rf "$WORK"; fi
}

# finish: the summary, and the exit status of the test.
finish() { e2e_finish; exit $?; }

# e2e_rootfs WORKDIR: return when $ROOTFS holds the system of $ROOT_PKGS;
# else a failed check showing debootstrap's output (WORKDIR/
# debootstrap.out), the summary, exit 1.
e2e_rootfs() {
  mkdir -p "$(dirname "$ROOTFS")"
  exec 8>"$ROOTFS.lock"
  if ! flock -w 900 8; then
    bad "Debian 12 rootfs" "$ROOTFS.lock busy for 900 s"
    e2e_finish
    exit 1
  fi
  if [ "$(cat "$ROOTFS/.curvecache-rootfs" 2>/dev/null)" != "$ROOT_PKGS" ]
  then
    echo "# making $ROOTFS with debootstrap (once per package list)"
    rm -rf "$ROOTFS.new" "$ROOTFS"
    if debootstrap --variant=minbase --include="$ROOT_PKGS" bookworm \
        "$ROOTFS.new" "$ROOTFS_MIRROR" >"$1/debootstrap.out" 2>&1; then
      echo "$ROOT_PKGS" >"$ROOTFS.new/.curvecache-rootfs"
      mv "$ROOTFS.new" "$ROOTFS"
    else
      bad "Debian 12 rootfs (debootstrap from $ROOTFS_MIRROR)" "failed" \
        "$1/debootstrap.out"
      e2e_finish
      exit 1
    fi
  fi
  exec 8>&-
}

# ct_boot MACHINE LOG [NSPAWN-OPTION...]: boot $ROOTFS in a container
# (private network, throw-away overlay, not registered) named MACHINE,
# its console in LOG; sets TPID (systemd-nspawn) and LEADER (its PID 1,
# for in_ct); waits up to T_BOOT_S s for systemd: a check that it booted
# (running or degraded), else a failed one showing LOG, the summary, exit.
ct_boot() {
  cb_name=$1
  cb_log=$2
  shift 2
  timeout 600 systemd-nspawn -q -D "$ROOTFS" --boot --private-network \
    --register=no --keep-unit --volatile=overlay --machine="$cb_name" "$@" \
    </dev/null >"$cb_log" 2>&1 &
  TPID=$!
  LEADER=
  n=0
  while [ -z "$LEADER" ] && [ $n -lt 100 ] && e2e_alive "$TPID"; do
    sleep 0.1
    np=$(pgrep -P "$TPID" | head -1)
    [ -n "$np" ] && LEADER=$(pgrep -P "$np" | head -1)
    n=$((n + 1))
  done
  # the system manager's bus comes up a moment after PID 1 starts
  CT_STATE=
  n=0
  while [ -n "$LEADER" ] && [ $n -lt $((T_BOOT_S * 5)) ] &&
    e2e_alive "$TPID"; do
    CT_STATE=$(in_ct systemctl is-system-running 2>&1)
    case $CT_STATE in running|degraded) break ;; esac
    sleep 0.2
    n=$((n + 1))
  done
  case $CT_STATE in
    running|degraded)
      ok "container booted under systemd ($CT_STATE, $(elapsed))" ;;
    *) bad "container booted under systemd" "state '$CT_STATE'" "$cb_log"
       finish ;;
  esac
}

# in_ct CMD...: run CMD in the container's namespaces.
in_ct() { nsenter -t "$LEADER" -m -u -i -n -p -- "$@"; }

# ct_stop: poweroff, then TERM to systemd-nspawn (it halts the guest).
ct_stop() {
  if [ -n "$TPID" ] && e2e_alive "$TPID"; then
    [ -n "${LEADER:-}" ] && in_ct systemctl poweroff >/dev/null 2>&1
    n=0
    while e2e_alive "$TPID" && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
    e2e_kill "$TPID" >/dev/null
  fi
}
