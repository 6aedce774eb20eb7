#!/bin/sh
# etc/setup.sh: install what curvecache needs to build, test and benchmark on
# Debian 12. Daemons pulled in (nsd, curvedns, unbound) must not start with
# their packaged configs and take port 53, so service starts are refused by a
# temporary policy-rc.d for the duration of apt-get.
set -eu

PKGS_BUILD="build-essential autoconf automake pkg-config libsodium-dev \
libc-ares-dev check libuv1-dev libssl-dev libnghttp2-dev libhiredis-dev"
PKGS_TEST="nsd curvedns bind9-dnsutils knot-dnsutils clang libclang-rt-14-dev \
faketime iproute2 python3 perl prometheus groff-base man-db systemd dnsdist \
systemd-container debootstrap python3-dnspython dns-root-data unbound \
clang-format bind9-utils ldnsutils redis-server"
PKGS_BENCH="dqcache dnsperf"

want="$PKGS_BUILD $PKGS_TEST"
case "${1:-}" in
  --bench) want="$want $PKGS_BENCH" ;;
esac

missing=""
for p in $want; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed'; then
    missing="$missing $p"
  fi
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
  echo "setup.sh: missing packages:$missing; run as root to install them" >&2
  exit 1
fi

policy=/usr/sbin/policy-rc.d
saved=""
if [ -e "$policy" ]; then
  saved=$(mktemp)
  cp -p "$policy" "$saved"
fi
restore() {
  if [ -n "$saved" ]; then mv "$saved" "$policy"; else rm -f "$policy"; fi
}
trap restore EXIT INT TERM
printf '#!/bin/sh\nexit 101\n' > "$policy"
chmod 755 "$policy"

export DEBIAN_FRONTEND=noninteractive
apt-get update -qq || true
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing
