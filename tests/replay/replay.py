#!/usr/bin/env python3
"""tests/replay/replay.py: the scenario replay driver of curvecache.

  replay.py [--build DIR] [--jobs N]        every tests/replay/scenarios/*.scn
  replay.py --scenario FILE [--build DIR]   one file, with its details

Each scenario (format: tests/replay/README) runs against the real daemon
of the build directory (DIR/curvecache, default the current directory)
in a network namespace of its own: the driver re-executes itself under
"unshare --net" per scenario, brings lo up, puts the scenario's server
addresses on lo, starts the scripted servers (tests/replay/scripted.py)
and "curvecache -f -c CONF" (root hints = the scenario's hints, a
control socket, log-level debug, wall clock under libfaketime, monotonic
clock real), then plays the steps. Nothing can leave the namespace: it
has no interface but lo, which the driver checks before it adds an
address.

Output: one line per scenario (PASS, FAIL, XFAIL, XPASS or SKIP, name,
seconds; XFAIL adds its first failed check), the details of each FAIL
and XPASS (failed checks, the questions the servers saw, the tail of the
daemon's log), and a last line "replay: N passed, N failed[, N
skipped]", with how many passed only when run again alone. XFAIL
counts as passed, XPASS as failed. Exit 0 when nothing
failed, 1 otherwise, 77 when not root, when dnspython, unshare or ip is
missing, or when every scenario was skipped.

Environment: REPLAY_ONLY=NAME runs the scenario NAME (file name without
.scn; a comma-separated list works); REPLAY_JOBS (default 2) how many
run at once; REPLAY_RERUN=0 keeps a failure from being run again alone
(see run_all); ASAN_OPTIONS and UBSAN_OPTIONS pass through to the daemon;
a sanitizer report in the daemon's output fails the scenario, xfail or
not; srcdir (set by make check) finds the scenarios.
"""

import concurrent.futures
import glob
import importlib.util
import os
import shutil
import subprocess
import sys
import time

SCENARIO_TIMEOUT_SECS = 60
DEFAULT_JOBS = 2
RERUN_ALONE = os.environ.get("REPLAY_RERUN", "1") != "0"
HERE = os.path.dirname(os.path.abspath(__file__))
RESULT_TAG = "REPLAY-RESULT "


def skip(why):
    """Exit 77 (SKIP for automake) with the reason."""
    print("SKIP: replay: %s" % why)
    sys.exit(77)


def preflight():
    """The SKIP rules: root, dnspython, unshare (that works) and ip."""
    if os.geteuid() != 0:
        skip("not root (a network namespace per scenario)")
    if importlib.util.find_spec("dns") is None:
        skip("dnspython missing (Debian: python3-dnspython)")
    for tool in ("unshare", "ip"):
        if shutil.which(tool) is None:
            skip("%s missing" % tool)
    res = subprocess.run(["unshare", "--net", "true"], check=False,
                         capture_output=True, timeout=10)
    if res.returncode != 0:
        skip("unshare --net refused: %s" % res.stderr.decode().strip())


def scenario_files(only):
    """The scenario files to run, sorted; only = comma-separated names."""
    src = os.environ.get("srcdir")
    base = os.path.join(src, "tests", "replay") if src else HERE
    files = sorted(glob.glob(os.path.join(base, "scenarios", "*.scn")))
    if only:
        want = set(only.split(","))
        files = [f for f in files if scn_name(f) in want]
    return files


def scn_name(path):
    """A scenario's name: its file name without .scn."""
    return os.path.basename(path)[:-len(".scn")]


def run_inner(path, build):
    """One scenario in a fresh network namespace; (status, secs, out)."""
    cmd = ["unshare", "--net", sys.executable, "-B",
           os.path.join(HERE, "play.py"), path, build]
    t0 = time.monotonic()
    try:
        res = subprocess.run(cmd, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, check=False,
                             timeout=SCENARIO_TIMEOUT_SECS)
        out = res.stdout.decode("utf-8", "replace")
    except subprocess.TimeoutExpired as err:
        out = (err.stdout or b"").decode("utf-8", "replace")
        out += "\nscenario killed after %d s\n" % SCENARIO_TIMEOUT_SECS
    secs = time.monotonic() - t0
    status, why = "fail", "no result from the scenario player"
    for line in out.splitlines():
        if line.startswith(RESULT_TAG):
            status, _, why = line[len(RESULT_TAG):].partition(" ")
    return status, why, secs, out


def verdict(status, xfail):
    """PASS, FAIL, XFAIL, XPASS or SKIP from the player's status."""
    if status == "skip":
        return "SKIP"
    if status == "pass":
        return "XPASS" if xfail else "PASS"
    if status == "fail" and xfail:
        return "XFAIL"
    return "FAIL"


def has_xfail(path):
    """Whether the file carries an xfail line (read without dnspython)."""
    with open(path, encoding="utf-8") as f:
        return any(line.split(None, 1)[0] in ("xfail", "xfail:")
                   for line in f if line.strip())


def report(path, result, verbose):
    """Print the line of one scenario (and its details when needed)."""
    status, why, secs, out = result
    word = verdict(status, has_xfail(path))
    line = "%-5s %s (%.1f s)" % (word, scn_name(path), secs)
    if why and word != "PASS":
        line += ": " + why
    print(line, flush=True)
    if verbose or word in ("FAIL", "XPASS"):
        for text in out.splitlines():
            if not text.startswith(RESULT_TAG):
                print("    | " + text)
    return word


def run_all(files, build, jobs, verbose):
    """Run files jobs at a time; print as they finish, in order. A
    scenario that failed its checks (not a sanitizer report, not an
    unexpected pass) while others ran beside it is run once more, alone
    (RERUN_ALONE): a pass then counts, as AGAIN in the summary, so a
    stall of the shared machine under a timer of tens of milliseconds
    does not fail the suite; the first run's details stay printed."""
    counts = {"PASS": 0, "FAIL": 0, "XFAIL": 0, "XPASS": 0, "SKIP": 0,
              "AGAIN": 0}
    again = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futs = [pool.submit(run_inner, f, build) for f in files]
        for path, fut in zip(files, futs):
            res = fut.result()
            word = report(path, res, verbose)
            if word == "FAIL" and res[0] == "fail" and jobs > 1 and \
                    RERUN_ALONE:
                again.append(path)
            else:
                counts[word] += 1
    for path in again:
        print("again %s, alone" % scn_name(path), flush=True)
        word = report(path, run_inner(path, build), verbose)
        counts[word] += 1
        if word == "PASS":
            counts["AGAIN"] += 1
    return counts


def summary(counts):
    """The closing line, and the exit status."""
    passed = counts["PASS"] + counts["XFAIL"]
    failed = counts["FAIL"] + counts["XPASS"]
    line = "replay: %d passed, %d failed" % (passed, failed)
    if counts["AGAIN"]:
        line += " (%d passed only when run again alone)" % counts["AGAIN"]
    if counts["SKIP"]:
        line += ", %d skipped" % counts["SKIP"]
    print(line)
    if failed:
        return 1
    return 77 if counts["SKIP"] and not passed else 0


def parse_args(argv):
    """--build DIR, --scenario FILE, --jobs N."""
    opts = {"build": os.getcwd(), "scenario": None,
            "jobs": int(os.environ.get("REPLAY_JOBS", DEFAULT_JOBS))}
    args = list(argv)
    while args:
        key = args.pop(0)
        if key not in ("--build", "--scenario", "--jobs") or not args:
            print(__doc__)
            sys.exit(2)
        opts[key[2:]] = args.pop(0)
    return opts


def main(argv):
    """Run the scenarios; exit status as the docstring says."""
    opts = parse_args(argv)
    preflight()
    build = os.path.abspath(opts["build"])
    if not os.access(os.path.join(build, "curvecache"), os.X_OK):
        print("FAIL: replay: %s/curvecache not built" % build)
        return 1
    if opts["scenario"]:
        files, verbose = [os.path.abspath(opts["scenario"])], True
    else:
        files = scenario_files(os.environ.get("REPLAY_ONLY"))
        verbose = False
    if not files:
        print("FAIL: replay: no scenario found")
        return 1
    return summary(run_all(files, build, max(1, int(opts["jobs"])),
                           verbose))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
