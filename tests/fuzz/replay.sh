#!/bin/sh
# tests/fuzz/replay.sh: replay every committed fuzz corpus through its
# target (built as tests/fuzz/replay_<target>) in "make check".
srcdir=${srcdir:-.}
rc=0
for t in streamlined txt keylabel wire exchange query iter cfg control \
    cachefile; do
  printf '%s: ' "$t"
  ./tests/fuzz/replay_$t "$srcdir/tests/fuzz/corpus/$t" || rc=1
done
exit $rc
