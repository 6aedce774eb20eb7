"""tests/replay/play.py: plays one scenario inside a fresh network
namespace; run by tests/replay/replay.py as

  unshare --net python3 play.py FILE BUILDDIR

It refuses to run anywhere but in a namespace whose only interface is
lo, brings lo up and adds the scenario's addresses to it, starts the
scripted servers and the daemon, plays the steps, stops everything it
started (by pid) and prints its findings, then one last line:
"REPLAY-RESULT pass|fail|skip WHY".
"""

import operator
import os
import shutil
import signal
import ssl
import subprocess
import sys
import tempfile
import time

import dns.edns
import dns.exception
import dns.flags
import dns.message
import dns.query
import dns.rcode
import dns.rdatatype

import authzone
import scnfile
import scripted

FAKETIME_LIB = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1"
DAEMON_IP = "127.0.0.1"
CLIENT_TIMEOUT_SECS = 6.0
READY_SECS = 15.0
STOP_SECS = 10.0
CONTROL_SECS = 5.0
TLS_CERT_DAYS = 60
LOG_TAIL_LINES = 40
QUERY_LOG_LINES = 60
SANITIZER_MARKS = ("Sanitizer", "runtime error:")
OPS = {"==": operator.eq, "!=": operator.ne, ">=": operator.ge,
       "<=": operator.le, ">": operator.gt, "<": operator.lt}
BASE_CONFIG = (
    ("listen", DAEMON_IP + "@53"),
    ("do-not-query-localhost", "no"),
    ("user", ""),
    ("log-level", "debug"),
    ("query-timeout", "3"),
    # the scripted root is unsigned: a scenario that signs its zones
    # names its own trust anchor and says "dnssec: yes"
    ("dnssec", "no"),
)


def finish(status, why):
    """The last line the driver reads; exits 0."""
    print("%s%s %s" % ("REPLAY-RESULT ", status, why), flush=True)
    sys.exit(0)


def namespace_setup(addrs):
    """Check that lo is the only interface, bring it up, add addrs."""
    with open("/proc/self/net/dev", encoding="ascii") as f:
        ifaces = [ln.split(":")[0].strip() for ln in f.readlines()[2:]]
    if ifaces != ["lo"]:
        finish("fail", "not in a fresh network namespace: %s" % ifaces)
    cmds = [["ip", "link", "set", "lo", "up"]]
    for a in sorted(set(addrs)):
        if a.startswith("127.") or a == "::1":
            continue
        if ":" in a:
            cmds.append(["ip", "-6", "addr", "add", a + "/128", "dev", "lo",
                         "nodad"])
        else:
            cmds.append(["ip", "addr", "add", a + "/32", "dev", "lo"])
    for c in cmds:
        res = subprocess.run(c, capture_output=True, check=False,
                             timeout=CONTROL_SECS)
        if res.returncode != 0:
            finish("fail", "%s: %s" % (" ".join(c), res.stderr.decode()))


def write_hints(scn, path):
    """The root hints file: the scenario's hint NS names and addresses."""
    with open(path, "w", encoding="ascii") as f:
        for name, _ in scn.hints:
            f.write(". 3600000 NS %s\n" % name)
        for name, addr in scn.hints:
            f.write("%s 3600000 %s %s\n" % (name, "AAAA" if ":" in addr
                                            else "A", addr))


def anchor_lines(world, work, own):
    """With anchor zones: their DS in work/anchors.key, and the config
    lines "dnssec: yes" (unless the scenario says) and
    trust-anchor-file."""
    text = world.anchors()
    if not text:
        return []
    path = os.path.join(work, "anchors.key")
    with open(path, "w", encoding="ascii") as f:
        f.write(text)
    lines = ["trust-anchor-file: %s" % path]
    return lines if "dnssec" in own else ["dnssec: yes"] + lines


def write_config(scn, work, world):
    """curvecache.conf: the base lines, each replaced by the scenario's
    line for the same option (dnssec: yes when a zone is an anchor),
    then the scenario's other lines."""
    own = {line.split(":", 1)[0].strip() for line in scn.config}
    extra = anchor_lines(world, work, own)
    own |= {line.split(":", 1)[0] for line in extra}
    lines = ["%s: %s" % kv for kv in BASE_CONFIG if kv[0] not in own]
    lines += ["root-hints: %s/root.hints" % work,
              "control-socket: %s/control" % work]
    lines += extra + scn.config
    path = os.path.join(work, "curvecache.conf")
    with open(path, "w", encoding="ascii") as f:
        f.write("# written by tests/replay/play.py\n")
        f.write("\n".join(lines) + "\n")
    return path


class Daemon:
    """The curvecache under test: its process, log and control socket."""

    def __init__(self, build, work):
        self.build, self.work = build, work
        self.log = os.path.join(work, "curvecache.log")
        self.clockfile = os.path.join(work, "faketime")
        self.proc = None

    def env(self):
        """The daemon's environment: libfaketime when there is one."""
        env = dict(os.environ)
        if os.path.exists(FAKETIME_LIB):
            env.update(LD_PRELOAD=FAKETIME_LIB,
                       FAKETIME_TIMESTAMP_FILE=self.clockfile,
                       FAKETIME_NO_CACHE="1",
                       FAKETIME_DONT_FAKE_MONOTONIC="1")
            env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + \
                ":verify_asan_link_order=0"
        return env

    def start(self, conf):
        """Start curvecache -f -c conf (clock offset 0); wait until it
        answers; an error text, or None."""
        set_clock(self.clockfile, 0)
        with open(self.log, "ab") as logf:
            self.proc = subprocess.Popen(
                [os.path.join(self.build, "curvecache"), "-f", "-c", conf],
                stdin=subprocess.DEVNULL, stdout=logf, stderr=logf,
                env=self.env())
        deadline = time.monotonic() + READY_SECS
        probe = dns.message.make_query("localhost.", "A")
        while time.monotonic() < deadline and self.proc.poll() is None:
            try:
                dns.query.udp(probe, DAEMON_IP, timeout=0.3)
                return None
            except (dns.exception.DNSException, OSError):
                time.sleep(0.1)
        return "curvecache did not come up (status %s)" % self.proc.poll()

    def stats(self):
        """Every counter (stats_noreset), as a dict of ints."""
        res = subprocess.run(
            [os.path.join(self.build, "curvecache-control"), "-s",
             os.path.join(self.work, "control"), "stats_noreset"],
            capture_output=True, check=False, timeout=CONTROL_SECS)
        out = {}
        for line in res.stdout.decode().splitlines():
            key, eq, val = line.partition("=")
            if eq and val.strip().lstrip("-").isdigit():
                out[key.strip()] = int(val)
        return out

    def stop(self):
        """SIGTERM, then SIGKILL after STOP_SECS; the exit status."""
        if self.proc is None or self.proc.poll() is not None:
            return None if self.proc is None else self.proc.returncode
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout=STOP_SECS)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=STOP_SECS)
            return "killed"

    def log_lines(self):
        """The daemon's output so far."""
        try:
            with open(self.log, encoding="utf-8", errors="replace") as f:
                return f.read().splitlines()
        except OSError:
            return []


def tls_context(work):
    """A server TLS context with a self-signed certificate made now in
    work (openssl), ALPN dot; None when openssl is missing or fails."""
    cert, key = os.path.join(work, "tls.crt"), os.path.join(work, "tls.key")
    if shutil.which("openssl") is None:
        return None
    res = subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
         "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key, "-out",
         cert, "-days", str(TLS_CERT_DAYS), "-subj", "/CN=replay.test"],
        capture_output=True, check=False, timeout=CONTROL_SECS)
    if res.returncode != 0:
        return None
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(cert, key)
    ctx.set_alpn_protocols(["dot"])
    return ctx


def set_clock(path, offset):
    """Move the daemon's wall clock to offset seconds from the real one."""
    tmp = path + ".new"
    with open(tmp, "w", encoding="ascii") as f:
        f.write("+%d\n" % offset)
    os.replace(tmp, path)


def client_message(qname, qtype, opts, edns):
    """The client's query: RD unless NORD, DO, CD and AD as asked,
    with EDNS when edns or DO."""
    q = dns.message.make_query(qname, qtype, want_dnssec="DO" in opts,
                               use_edns=0 if edns or "DO" in opts
                               else None)
    if "NORD" in opts:
        q.flags &= ~dns.flags.RD
    if "CD" in opts:
        q.flags |= dns.flags.CD
    if "AD" in opts:
        q.flags |= dns.flags.AD
    return q


def ask(step):
    """Send the step's query; (reply or None, milliseconds, error)."""
    qname, qtype, opts = step.args
    q = client_message(qname, qtype, opts,
                       any(x[0] in ("ede", "ede-text")
                           for x in step.expect))
    send = dns.query.tcp if "TCP" in opts else dns.query.udp
    t0 = time.monotonic()
    try:
        r = send(q, DAEMON_IP, timeout=CLIENT_TIMEOUT_SECS)
        err = None
    except (dns.exception.DNSException, OSError) as e:
        r, err = None, "%s: %s" % (type(e).__name__, e)
    return r, (time.monotonic() - t0) * 1000.0, err


def reply_records(r, sec):
    """The records of one section of a reply, as scnfile.Record."""
    out = []
    for rrset in getattr(r, sec):
        for rd in rrset:
            out.append(scnfile.Record(rrset.name, rrset.ttl, rrset.rdtype,
                                      rdata=rd))
    return out


def check_section(r, sec, rules):
    """The expectations on one section; a list of failure texts."""
    have = reply_records(r, sec)
    keys = {rec.key(): rec for rec in have}
    fails = []
    exact = [rec for mode, rec in rules if mode == "exact"]
    if any(mode == "empty" for mode, _ in rules) and have:
        fails.append("%s not empty: %s" % (sec, "; ".join(map(str, have))))
    for rec in [rec for mode, rec in rules if mode in ("exact",
                                                         "contains")]:
        got = keys.get(rec.key())
        if got is None:
            fails.append("%s lacks %s" % (sec, rec))
        elif got.ttl > rec.ttl:
            fails.append("%s: TTL %d above %d: %s" % (sec, got.ttl,
                                                      rec.ttl, rec))
    for rdtype, owner in [rec for mode, rec in rules if mode == "has"]:
        if not any(rec.rdtype == rdtype and (owner is None or
                                             rec.owner == owner)
                   for rec in have):
            fails.append("%s has no %s%s" % (
                sec, dns.rdatatype.to_text(rdtype),
                "" if owner is None else " at %s" % owner))
    for rdtype, n, owner in [rec for mode, rec in rules if mode == "count"]:
        got = sum(1 for rec in have if rec.rdtype == rdtype and (
            owner is None or rec.owner == owner))
        if got != n:
            fails.append("%s has %d %s%s, want %d" % (
                sec, got, dns.rdatatype.to_text(rdtype),
                "" if owner is None else " at %s" % owner, n))
    if exact:
        want = {rec.key() for rec in exact}
        for rec in have:
            if rec.key() not in want:
                fails.append("%s has more: %s" % (sec, rec))
    return fails


def flag_text(bits):
    """Header bits as flag names."""
    return " ".join(n for n, b in scnfile.FLAG_BITS.items() if bits & b) \
        or "none"


def check_header(r, exp, ms):
    """One rcode/flags/noflags/within expectation; failure text or None."""
    kind, val = exp[0], exp[1]
    if kind == "rcode" and r.rcode() != val:
        return "rcode %s, want %s" % (dns.rcode.to_text(r.rcode()),
                                      dns.rcode.to_text(val))
    if kind == "flags" and r.flags & val != val:
        return "flags %s lack %s" % (flag_text(r.flags), flag_text(val))
    if kind == "noflags" and r.flags & val:
        return "flags %s have %s" % (flag_text(r.flags),
                                     flag_text(r.flags & val))
    if kind == "within" and ms > val:
        return "answered after %.0f ms, want within %d ms" % (ms, val)
    if kind == "ede":
        codes = [o.code for o in r.options
                 if isinstance(o, dns.edns.EDEOption)]
        if (val is None and codes) or (val is not None and
                                       val not in codes):
            return "EDE %s, want %s" % (codes or "none",
                                         "none" if val is None else val)
    if kind == "ede-text":
        texts = [o.text or "" for o in r.options
                 if isinstance(o, dns.edns.EDEOption)]
        if not any(val in t for t in texts):
            return "EDE texts %r, want one with %r" % (texts, val)
    return None


def check_query(step):
    """Play a query step and judge the reply; failure texts."""
    r, ms, err = ask(step)
    if r is None:
        return ["no reply (%s) after %.0f ms" % (err, ms)]
    fails = []
    bysec = {}
    for exp in step.expect:
        if exp[0] in scnfile.SECTIONS:
            bysec.setdefault(exp[0], []).append((exp[1], exp[2]))
            continue
        why = check_header(r, exp, ms)
        if why:
            fails.append(why)
    for sec, rules in bysec.items():
        fails += check_section(r, sec, rules)
    if fails:
        fails.append("reply (%.0f ms): %s" % (
            ms, r.to_text().replace("\n", " | ")))
    return fails


def check_stat(step, daemon):
    """stat COUNTER OP VALUE."""
    name, op, want = step.args
    have = daemon.stats().get(name)
    if have is None:
        return ["counter %s not in the stats" % name]
    if not OPS[op](have, want):
        return ["counter %s = %d, want %s %d" % (name, have, op, want)]
    return []


def check_sent(step, net):
    """sent SERVER OP N [QNAME [QTYPE]] [over PROTO]."""
    server, op, want, qname, qtype, over = step.args
    if server not in net.servers:
        return ["no server %s in the scenario" % server]
    have = net.count(server, qname, qtype, over)
    if not OPS[op](have, want):
        what = "" if qname is None else " for %s" % qname
        if qtype is not None:
            what += " " + dns.rdatatype.to_text(qtype)
        if over is not None:
            what += " over " + over
        return ["server %s got %d queries%s, want %s %d" % (
            server, have, what, op, want)]
    return []


def check_tls_connections(step, net):
    """tls-connections SERVER OP N."""
    server, op, want = step.args
    if server not in net.servers:
        return ["no server %s in the scenario" % server]
    have = net.connections(server)
    if not OPS[op](have, want):
        return ["server %s took %d connections on port 853, want %s %d"
                % (server, have, op, want)]
    return []


def check_log(step, daemon):
    """log TEXT: a line of the daemon's log holds TEXT."""
    if any(step.args in line for line in daemon.log_lines()):
        return []
    return ["no line of the log holds %r" % step.args]


def play_step(step, daemon, net):
    """One step; a list of failure texts."""
    if step.kind == "query":
        return check_query(step)
    if step.kind == "time":
        net.clock += step.args
        set_clock(daemon.clockfile, net.clock)
        return []
    if step.kind == "sleep":
        time.sleep(step.args / 1000.0)
        return []
    if step.kind == "stat":
        return check_stat(step, daemon)
    if step.kind == "log":
        return check_log(step, daemon)
    if step.kind == "tls-connections":
        return check_tls_connections(step, net)
    return check_sent(step, net)


def play(scn, daemon, net):
    """Every step; the failures, each with its line number."""
    fails = []
    for step in scn.steps:
        for why in play_step(step, daemon, net):
            fails.append("line %d (%s): %s" % (step.where, step.kind, why))
    return fails


def print_details(fails, daemon, net):
    """What a reader of a failure needs: checks, questions, log tail."""
    for f in fails:
        print("check failed: " + f)
    print("questions the scripted servers saw:")
    for q in net.log[:QUERY_LOG_LINES]:
        print("  " + str(q))
    if net.tls_conns:
        print("connections to port 853: " + ", ".join(
            "%s %d" % kv for kv in sorted(net.tls_conns.items())))
    print("last lines of the curvecache log:")
    lines = [ln for ln in daemon.log_lines() if "event=stats" not in ln]
    for ln in lines[-LOG_TAIL_LINES:]:
        print("  " + ln)


def sanitizer_report(daemon):
    """The first line of a sanitizer report in the log, or None."""
    for ln in daemon.log_lines():
        if any(m in ln for m in SANITIZER_MARKS):
            return ln.strip()
    return None


def run(scn, build, work):
    """Keys, servers, daemon, steps, stop; (status, why)."""
    net = scripted.Net(scn.servers)
    net.world = authzone.World(scn, lambda: time.time() + net.clock,
                               lambda: net.clock)
    world = net.world
    if scn.needs_tls():
        net.tls_ctx = tls_context(work)
        if net.tls_ctx is None:
            return "skip", "openssl missing or failed (a tls server)"
    try:
        net.start()
    except OSError as err:
        net.shutdown()
        return "fail", "scripted servers: %s" % err
    daemon = Daemon(build, work)
    try:
        err = daemon.start(write_config(scn, work, world))
        fails = [err] if err else play(scn, daemon, net)
    finally:
        rc = daemon.stop()
        net.shutdown()
    san = sanitizer_report(daemon)
    fails += ["scripted server error: " + e for e in net.errors]
    if rc != 0:
        fails.append("curvecache exit status %s (want 0)" % rc)
    print_details(fails, daemon, net)
    if san:
        return "sanitizer", san
    return ("fail", fails[0]) if fails else ("pass", "")


def main(path, build):
    """Parse, set up the namespace, run; prints the result line."""
    try:
        scn = scnfile.read_scenario(path)
    except (scnfile.ScnError, OSError) as err:
        finish("fail", str(err))
    if scn.needs_time() and not os.path.exists(FAKETIME_LIB):
        finish("skip", "libfaketime not installed (time steps)")
    addrs = [a for s in scn.servers.values() for a in s.addrs]
    namespace_setup(addrs + [a for _, a in scn.hints])
    work = tempfile.mkdtemp(prefix="replay.")
    try:
        write_hints(scn, os.path.join(work, "root.hints"))
        status, why = run(scn, build, work)
    finally:
        if os.environ.get("REPLAY_KEEP") == "1":
            print("kept " + work)
        else:
            shutil.rmtree(work, ignore_errors=True)
    finish(status, why)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
