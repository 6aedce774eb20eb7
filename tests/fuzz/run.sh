#!/bin/sh
# tests/fuzz/run.sh [SECONDS] [TARGET...]: build the libFuzzer targets with
# clang (ASan+UBSan) in a build directory of their own and run each for
# SECONDS (default 20) on a copy of its committed corpus. Prints the number
# of executions, executions per second and the corpus size at the end per
# target; exits non-zero on any finding, leaving the crashing input in the
# work directory. FUZZ_WORK overrides the work directory.
set -eu
secs=${1:-20}
[ $# -gt 0 ] && shift
all="streamlined txt keylabel wire exchange query iter cfg control cachefile dnssec
  validate ubdump tlsaddr tlspad dohhttp cachedb tlsa dotframe
  dotserve proxy"
targets=${*:-$all}
top=$(cd "$(dirname "$0")/../.." && pwd)
work=${FUZZ_WORK:-$top/_build-fuzz}
mkdir -p "$work"
cd "$work"
if [ ! -f Makefile ]; then
  "$top/configure" -q CC=clang --enable-fuzzing
fi
progs=""
for t in $targets; do progs="$progs tests/fuzz/fuzz_$t"; done
# shellcheck disable=SC2086
make -s -j2 $progs
rc=0
for t in $targets; do
  corpus="$work/corpus-$t"
  mkdir -p "$corpus"
  cp "$top/tests/fuzz/corpus/$t/"* "$corpus/"
  log="$work/fuzz-$t.log"
  if "./tests/fuzz/fuzz_$t" -max_total_time="$secs" -max_len=4096 \
       -artifact_prefix="$work/$t-" -print_final_stats=1 "$corpus" \
       >"$log" 2>&1; then
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
    n=$(find "$corpus" -type f | wc -l)
    echo "fuzz $t: ${secs}s, $execs executions ($rate/s)," \
      "corpus $n inputs, no finding"
  else
    echo "fuzz $t: FINDING (see $log)"
    tail -n 40 "$log"
    rc=1
  fi
done
exit $rc
