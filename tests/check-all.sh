#!/bin/sh
# tests/check-all.sh: build curvecache and run every test, from a fresh
# Debian 12 machine. This is README's second command and what CI runs.
#  1. etc/setup.sh installs missing Debian packages (needs root);
#  2. a normal build (-Wall -Wextra -Werror) runs "make check": unit
#     suites, lint, fuzz corpus replay, and the loopback lab tests (NSD and
#     CurveDNS on 127.53.0.x, which need root to bind port 53);
#  3. the same under AddressSanitizer + UndefinedBehaviorSanitizer;
#  4. the daemon under ThreadSanitizer with the lab tests that run two
#     worker threads;
#  5. "make distcheck" (the tarball built and tested out of tree: unit
#     tests, source checks, the replay and one lab of each family), and
#     every file git tracks found in the tarball;
#  6. a short libFuzzer run of every target (FUZZ_SECONDS, default 20).
# Build directories: _build, _build-asan, _build-tsan and _build-fuzz in
# the tree.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
jobs=$(nproc 2>/dev/null || echo 2)

step() { printf '\n==== %s\n' "$*"; }

# show_failed DIR: the end of the log of each test under DIR that failed.
show_failed() {
  find "$1" -name '*.trs' | while read -r trs; do
    grep -q -E '^:test-result: (FAIL|ERROR)' "$trs" || continue
    echo "---- ${trs%.trs}.log"
    tail -n 60 "${trs%.trs}.log"
  done
}

run_check() { # dir, configure args...; $only: the tests to run (all if empty)
  dir=$1; shift
  mkdir -p "$dir"
  (cd "$dir" && "$top/configure" -q "$@" && make -s -j"$jobs" &&
    if [ -n "${only:-}" ]; then make -s -j"$jobs" check TESTS="$only"
    else make -s -j"$jobs" check; fi) || { show_failed "$dir"; return 1; }
}

step "setup: packages"
sh "$top/etc/setup.sh"

if [ -f "$top/config.status" ]; then
  echo "check-all: the source tree is configured in place; run 'make distclean' there first" >&2
  exit 1
fi

step "autoreconf"
autoreconf -fi

step "build and make check"
run_check _build

step "build with ASan+UBSan and make check"
run_check _build-asan --enable-sanitizers

# The daemon under ThreadSanitizer, with the tests that run several
# worker threads (reloads, shared rate limiter and pins, stats).
step "build with ThreadSanitizer and run the threaded tests"
only="tests/e2e/threads_lab.sh tests/e2e/threads_reload_lab.sh \
tests/e2e/forward_lab.sh tests/e2e/downgrade_lab.sh" \
  run_check _build-tsan --enable-thread-sanitizer
only=

step "make distcheck"
# The tarball builds out of tree and its tests run: the unit tests, the
# source checks, the scenario replay and one lab of each family (lab.sh,
# signed.sh, CurveDNS); the whole suite ran from the tree above, so
# running it again here proved nothing new in 9 of CI's 40 minutes.
# That every file the tree tracks is in the tarball is checked below,
# by name, which no subset of tests could. distcheck's own build is
# removed on success and kept on failure.
dist_tests="$(cd _build && make -s -pn -f Makefile 2>/dev/null |
  sed -n 's/^UNIT_TESTS = //p' | head -n 1) tests/lint.sh tests/sizes.sh \
tests/format.sh tests/fuzz/replay.sh tests/replay/run.sh \
tests/e2e/resolve_lab.sh tests/e2e/validate_lab.sh tests/e2e/curve_lab.sh"
(cd _build && make -s -j"$jobs" distcheck TESTS="$dist_tests") || {
  for d in _build/curvecache-*/_build; do
    [ -d "$d" ] && show_failed "$d"
  done
  exit 1
}
# Every file git tracks (but .gitignore) is in the tarball.
if [ -d "$top/.git" ] && command -v git >/dev/null 2>&1; then
  for tarball in _build/curvecache-*.tar.gz; do break; done
  tar tzf "$tarball" | sed 's|^[^/]*/||' | sort >_build/dist.files
  git ls-files | grep -vx '.gitignore' | sort >_build/git.files
  missing=$(comm -23 _build/git.files _build/dist.files)
  if [ -n "$missing" ]; then
    echo "check-all: tracked but not in $tarball (EXTRA_DIST):" >&2
    echo "$missing" >&2
    exit 1
  fi
  echo "check-all: $(wc -l <_build/git.files) tracked files, all in $tarball"
fi

step "fuzz: ${FUZZ_SECONDS:-20} s per target"
mkdir -p _build-fuzz
if ! sh "$top/tests/fuzz/run.sh" "${FUZZ_SECONDS:-20}" >_build-fuzz/summary 2>&1
then
  cat _build-fuzz/summary
  exit 1
fi
grep '^fuzz ' _build-fuzz/summary
fuzzed=$(grep -c 'no finding' _build-fuzz/summary || true)

step "all tests passed"
# One closing line for CI: the test programs run in the three builds plus
# the fuzz targets (a failure anywhere has already stopped this script).
passed=0
for log in _build/test-suite.log _build-asan/test-suite.log \
           _build-tsan/test-suite.log; do
  n=$(sed -n 's/^# PASS: *//p' "$log")
  passed=$((passed + ${n:-0}))
done
echo "check-all: $((passed + fuzzed)) passed, 0 failed"
