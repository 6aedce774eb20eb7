# shellcheck shell=sh disable=SC2154 # srcdir, WORK: set by e2e_lib.sh
# tests/e2e/hard_lib.sh: helpers of the hardening tests (faults_lab.sh,
# clients_lab.sh, outage_lab.sh, tests/soak.sh); sourced after
# tests/e2e/e2e_lib.sh, not run.

# wait_line FILE REGEX TENTHS: wait up to TENTHS tenths of a second until
# FILE has a line matching REGEX; false if it never came.
wait_line() {
  wl=0
  while ! grep -q "$2" "$1" 2>/dev/null && [ "$wl" -lt "$3" ]; do
    sleep 0.1
    wl=$((wl + 1))
  done
  grep -q "$2" "$1" 2>/dev/null
}

# faulty_start SECONDS MODE@ADDR...: tests/e2e/faulty.py in the
# background (output $WORK/faulty.out); exits the test if it does not
# come up within 5 s.
faulty_start() {
  fsecs=$1
  shift
  bg_start faulty python3 "$srcdir/tests/e2e/faulty.py" "$@" "$fsecs"
  wait_line "$WORK/faulty.out" '^faulty ready' 50 ||
    { bad "faulty.py" "did not start" "$WORK/faulty.out"; exit 1; }
}

# san_check: a check that curvecache's output (its log) holds no
# AddressSanitizer, LeakSanitizer or UBSan report. Call it after cc_stop:
# LeakSanitizer reports at exit.
san_check() {
  if grep -E 'Sanitizer|runtime error:' "$WORK/curvecache.log" \
       >"$WORK/asan"; then
    bad "no sanitizer report from curvecache" "reports:" "$WORK/asan"
  else
    ok "no sanitizer report from curvecache (leaks included, if ASan)"
  fi
}
