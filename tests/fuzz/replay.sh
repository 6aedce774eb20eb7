#!/bin/sh
# tests/fuzz/replay.sh: replay every committed fuzz corpus through its
# target tests/fuzz/fuzz_<target> in "make check": built with replay.c's
# main, or with libFuzzer's (./configure --enable-fuzzing), which -runs=0
# keeps to the corpus.
srcdir=${srcdir:-.}
rc=0
for t in streamlined txt keylabel wire exchange query iter cfg control \
    cachefile dnssec validate ubdump tlsaddr tlspad dohhttp cachedb tlsa \
    dotframe dotserve proxy; do
  printf '%s: ' "$t"
  ./tests/fuzz/fuzz_$t -runs=0 "$srcdir/tests/fuzz/corpus/$t" || rc=1
done
exit $rc
