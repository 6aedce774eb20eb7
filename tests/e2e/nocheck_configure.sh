#!/bin/sh
# tests/e2e/nocheck_configure.sh: configure on a machine without Check.
#
# pkg-config is given a directory holding only the .pc files of libsodium,
# c-ares, libuv, libcrypto and libssl, so Check is "not installed".
# configure must succeed and warn that the tests are off; the Makefile it
# writes builds the
# programs (the same rules as the real build) and "make check" stops with
# a message naming Check instead of failing in a compiler error.
#
# Run by "make check" (cwd = top build dir, $srcdir = top source dir).
# Exit 0 = every check passed, 1 = a check failed.

set -u
srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
srcdir=$(cd "$srcdir" && pwd)
# shellcheck source=tests/e2e/e2e_lib.sh
. "$srcdir/tests/e2e/e2e_lib.sh"

WORK=$(mktemp -d /tmp/curvecache-nocheck.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
trap 'exit 130' HUP INT TERM
mkdir "$WORK/pc" "$WORK/build"
for lib in libsodium libcares libuv libcrypto libssl libnghttp2 hiredis; do
  dir=$(pkg-config --variable=pcfiledir "$lib") ||
    { echo "FAIL: pkg-config does not know $lib"; exit 1; }
  ln -s "$dir/$lib.pc" "$WORK/pc/$lib.pc"
done
mk() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "${MAKE:-make}" -s "$@"; }

t="configure without Check succeeds and says the tests are off"
if (cd "$WORK/build" && PKG_CONFIG_LIBDIR="$WORK/pc" "$srcdir/configure" \
      >"$WORK/configure.out" 2>&1) &&
   grep -q "Check >= 0.15 not found: the daemon and tools build, the tests are off" \
     "$WORK/configure.out" &&
   grep -q "tests: off" "$WORK/configure.out"; then ok "$t"
else bad "$t" "refused or silent" "$WORK/configure.out"; fi

t="the Makefile without Check has the daemon and tools but no tests"
if grep -q '^check-am: tests-off' "$WORK/build/Makefile" &&
   grep -q '^sbin_PROGRAMS = curvecache\$(EXEEXT) curvecache-control' \
     "$WORK/build/Makefile"; then ok "$t"
else bad "$t" "tests-off rule or programs missing"; fi

t="make check without Check stops, naming Check"
if (cd "$WORK/build" && mk tests-off >"$WORK/check.out" 2>&1); then
  bad "$t" "succeeded" "$WORK/check.out"
elif grep -q "Check >= 0.15 was not found" "$WORK/check.out"; then ok "$t"
else bad "$t" "no message" "$WORK/check.out"; fi

t="configure with Check (this build) has the tests on"
if grep -q '^#check-am: tests-off' Makefile 2>/dev/null ||
   ! grep -q '^check-am: tests-off' Makefile; then ok "$t"
else bad "$t" "tests off although Check is installed"; fi

e2e_finish
