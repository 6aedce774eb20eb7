#!/bin/sh
# tests/cache_tsan.sh: the cache's race test. Runs the "threads" case of
# the cache suite built with ThreadSanitizer (tests/unit/check_cache_tsan:
# writers, readers, flushes, iteration and counters on six threads over
# one small cache that evicts all the time) and fails on any race report.
# CACHE_STRESS_OPS sets the operations per thread (default 60000 here).
set -u
bin=./tests/unit/check_cache_tsan
[ -x "$bin" ] || { echo "cache_tsan: $bin not built" >&2; exit 99; }
log=${TMPDIR:-/tmp}/cache_tsan.$$.log
trap 'rm -f "$log"' EXIT INT TERM
CK_RUN_CASE=threads CK_FORK=no \
CACHE_STRESS_OPS=${CACHE_STRESS_OPS:-100000} \
TSAN_OPTIONS="halt_on_error=1 exitcode=66 ${TSAN_OPTIONS:-}" \
  "$bin" >"$log" 2>&1
rc=$?
cat "$log"
if grep -q 'ThreadSanitizer' "$log"; then
  echo "cache_tsan: ThreadSanitizer reported a problem (exit $rc)"
  exit 1
fi
if [ $rc -ne 0 ]; then
  echo "cache_tsan: the threads case failed (exit $rc)"
  exit 1
fi
grep -q '100%: Checks: 1,' "$log" || {
  echo "cache_tsan: the threads case did not run"; exit 1; }
echo "cache_tsan: no race found"
exit 0
