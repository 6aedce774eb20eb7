#!/bin/sh
# tests/replay/run.sh: the scenario replay (tests/replay/README) as a
# "make check" test: tests/replay/replay.py against the daemon of the
# build directory (cwd), with the first python3 that has dnspython (a
# pyenv python3 on PATH may lack it; Debian's /usr/bin/python3 has it
# once etc/setup.sh installed python3-dnspython).
#
# Exit 0 = every scenario passed (or failed as its xfail line expects),
# 1 = one failed or passed unexpectedly, 77 = SKIP (not root, or no
# dnspython, unshare or ip). REPLAY_ONLY=NAME runs one scenario.
srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
export srcdir
for py in python3 /usr/bin/python3; do
  if command -v "$py" >/dev/null 2>&1 &&
    "$py" -c 'import dns.message' 2>/dev/null; then
    exec "$py" "$srcdir/tests/replay/replay.py" --build "$(pwd)" "$@"
  fi
done
echo "SKIP: replay: no python3 with dnspython (Debian: python3-dnspython)"
exit 77
