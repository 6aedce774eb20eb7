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
#  5. "make distcheck";
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
# distcheck's own build is removed on success and kept on failure.
(cd _build && make -s -j"$jobs" distcheck) || {
  for d in _build/curvecache-*/_build; do
    [ -d "$d" ] && show_failed "$d"
  done
  exit 1
}

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
