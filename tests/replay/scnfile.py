"""tests/replay/scnfile.py: the reader of scenario files (*.scn) for the
replay driver (tests/replay/replay.py). The format is described in
tests/replay/README; this module turns one file into a Scenario object
and says FILE:LINE: why on the first error (ScnError).
"""

import dns.exception
import dns.name
import dns.rdata
import dns.rdataclass
import dns.rdatatype
import dns.rcode

FLAG_BITS = {"QR": 0x8000, "AA": 0x0400, "TC": 0x0200, "RD": 0x0100,
             "RA": 0x0080, "AD": 0x0020, "CD": 0x0010}
SECTIONS = ("answer", "authority", "additional")
ACTIONS = ("drop", "delay", "wrong-id", "wrong-question", "lowercase", "tc",
           "trailing")
QUERY_OPTS = ("DO", "CD", "AD", "NORD", "TCP")
FAULTS = ("expired", "notyet", "unknown-key", "nosig", "badsig", "tamper",
          "signer", "nodenial", "ds-mismatch", "bare-referrals", "origttl",
          "expires", "sigs", "nsec3hash", "times", "tagmates")
KEY_OPTS = ("nopublish", "nods", "nosign")
KEY_WINDOWS = ("publish", "ds", "sign")
DEFAULT_ALG = 13
DEFAULT_DIGEST = 2
OPS = ("==", "!=", ">=", "<=", ">", "<")
PROTOS = ("udp", "tcp", "tls")
SENT_OVER = PROTOS + ("curve",)
TLS_MODES = ("yes", "no", "stall", "drop-after")


class ScnError(Exception):
    """A scenario file that does not follow the format."""


class Record:
    """One resource record: owner (dns.name.Name), ttl, rdtype, and either
    a dnspython rdata or raw rdata bytes (raw is not None)."""

    def __init__(self, owner, ttl, rdtype, rdata=None, raw=None):
        self.owner, self.ttl, self.rdtype = owner, ttl, rdtype
        self.rdata, self.raw = rdata, raw

    def key(self):
        """Owner, type and canonical rdata: what compares two records."""
        data = self.raw if self.raw is not None else \
            self.rdata.to_digestable()
        return (self.owner.canonicalize(), self.rdtype, data)

    def __str__(self):
        data = self.raw.hex() if self.raw is not None else \
            self.rdata.to_text()
        return "%s %d %s %s" % (self.owner, self.ttl,
                                dns.rdatatype.to_text(self.rdtype), data)


class Entry:
    """What a scripted server does with the queries it matches."""

    def __init__(self, below, qname, qtype):
        self.below, self.qname, self.qtype = below, qname, qtype
        self.queries = (1, None)
        self.time = (None, None)
        self.over = None
        self.rd = None
        self.rcode = 0
        self.flags = 0
        self.sections = {s: [] for s in SECTIONS}
        self.actions = []
        self.cont = False
        self.seen = 0
        self.faults = []
        self.deny = []


class Fault:
    """A deliberate DNSSEC fault: kind (one of FAULTS), its argument
    (the zone of "signer"), and the RRset it is limited to (owner and
    type, None for any)."""

    def __init__(self, kind, arg=None, owner=None, rdtype=None):
        self.kind, self.arg, self.owner, self.rdtype = kind, arg, owner, \
            rdtype

    def applies(self, owner, rdtype):
        """Whether the fault touches the RRset owner/rdtype."""
        return (self.owner is None or self.owner == owner) and \
            (self.rdtype is None or self.rdtype == rdtype)


class Zone:
    """A zone of the scenario: its data (rr lines) and, when signed,
    how (algorithm, denial, keys, faults)."""

    def __init__(self, apex):
        self.apex = apex
        self.signed = True
        self.alg = DEFAULT_ALG
        self.denial = "nsec"
        self.optout = False
        self.iterations = 0
        self.salt = b""
        self.digest = DEFAULT_DIGEST
        self.anchor = False
        self.keys = []
        self.faults = []
        self.records = []


class Server:
    """A scripted authoritative server: a name and its addresses; tls
    holds its tls lines: (mode, N of drop-after, time window)."""

    def __init__(self, name, addrs):
        self.name, self.addrs, self.entries = name, addrs, []
        self.serves = []
        self.tls = []

    def tls_listens(self):
        """Whether something listens on the server's port 853."""
        return any(mode != "no" for mode, _, _ in self.tls)

    def tls_mode(self, clock):
        """(mode, N) of the first tls line whose window holds clock
        (scenario seconds); ("no", None) when none does."""
        for mode, after, (lo, hi) in self.tls:
            if (lo is None or clock >= lo) and (hi is None or clock <= hi):
                return mode, after
        return "no", None


class Step:
    """One step: kind is query, time, stat, sent, tls-connections, sleep
    or log."""

    def __init__(self, kind, args, where):
        self.kind, self.args, self.where = kind, args, where
        self.expect = []


class Scenario:
    """A parsed scenario file."""

    def __init__(self, path):
        self.path = path
        self.title = None
        self.sources, self.config, self.hints = [], [], []
        self.xfail = None
        self.servers = {}
        self.zones = {}
        self.steps = []

    def needs_time(self):
        """Whether a step moves the clock (libfaketime is needed)."""
        return any(s.kind == "time" for s in self.steps)

    def needs_tls(self):
        """Whether a server handshakes on port 853 (a certificate)."""
        return any(mode in ("yes", "drop-after")
                   for s in self.servers.values() for mode, _, _ in s.tls)


def parse_name(text):
    """An absolute domain name; relative names are errors."""
    if not text.endswith("."):
        raise ScnError("name %r is not absolute (end it with a dot)" % text)
    return dns.name.from_text(text)


def parse_type(text):
    """A type mnemonic, or None for ANY (any type matches)."""
    return None if text.upper() == "ANY" else dns.rdatatype.from_text(text)


def parse_rr(text):
    """A zone-file record: OWNER TTL [IN] TYPE RDATA (absolute names)."""
    words = text.split(None, 3)
    if len(words) < 4:
        raise ScnError("record needs OWNER TTL TYPE RDATA: %r" % text)
    owner, ttl = parse_name(words[0]), int(words[1])
    rest = words[2:]
    if rest[0].upper() == "IN":
        rest = rest[1].split(None, 1)
    if len(rest) < 2:
        raise ScnError("record without rdata: %r" % text)
    rdtype = dns.rdatatype.from_text(rest[0])
    rdata = dns.rdata.from_text(dns.rdataclass.IN, rdtype, rest[1],
                                origin=dns.name.root, relativize=False)
    return Record(owner, ttl, rdtype, rdata=rdata)


def parse_raw(words):
    """raw SECTION OWNER TTL TYPE HEX: a record with rdata bytes as given."""
    if len(words) != 5 or words[0] not in SECTIONS:
        raise ScnError("raw SECTION OWNER TTL TYPE HEX")
    rec = Record(parse_name(words[1]), int(words[2]),
                 dns.rdatatype.from_text(words[3]),
                 raw=bytes.fromhex(words[4]))
    return words[0], rec


def parse_range(text):
    """N-M, N-, -M or N: a closed range, an open side is None."""
    lo, dash, hi = text.partition("-")
    low = int(lo) if lo else None
    if not dash:
        return (low, low)
    return (low, int(hi) if hi else None)


def parse_flags(words):
    """Flag names (AA TC RA ...) to header bits."""
    bits = 0
    for w in words:
        if w.upper() not in FLAG_BITS:
            raise ScnError("unknown flag %r" % w)
        bits |= FLAG_BITS[w.upper()]
    return bits


def parse_match(words):
    """match [below] QNAME QTYPE|ANY [queries N-M] [time T-U] [over P]
    [rd 0|1]."""
    below = bool(words) and words[0] == "below"
    if below:
        words = words[1:]
    if len(words) < 2:
        raise ScnError("match [below] QNAME QTYPE|ANY [conditions]")
    e = Entry(below, parse_name(words[0]), parse_type(words[1]))
    opts = words[2:]
    if len(opts) % 2:
        raise ScnError("match conditions come in pairs: %s" % opts)
    for key, val in zip(opts[::2], opts[1::2]):
        if key == "queries":
            e.queries = parse_range(val)
        elif key == "time":
            e.time = parse_range(val)
        elif key == "over" and val in PROTOS:
            e.over = val
        elif key == "rd" and val in ("0", "1"):
            e.rd = val == "1"
        else:
            raise ScnError("unknown match condition %s %s" % (key, val))
    return e


def parse_action(words):
    """action drop|delay MS|wrong-id|wrong-question|lowercase|tc|trailing HEX."""
    if not words or words[0] not in ACTIONS:
        raise ScnError("action is one of %s" % ", ".join(ACTIONS))
    if words[0] == "delay":
        return ("delay", int(words[1]))
    if words[0] == "trailing":
        return ("trailing", bytes.fromhex(words[1]))
    return (words[0], None)


def parse_zone(words):
    """zone NAME [unsigned] [alg N] [nsec|nsec3] [optout] [iterations N]
    [salt HEX] [digest N] [anchor|anchor-dnskey]."""
    if not words:
        raise ScnError("zone NAME [options]")
    z = Zone(parse_name(words[0]))
    opts = list(words[1:])
    while opts:
        w = opts.pop(0)
        if w in ("alg", "iterations", "salt", "digest") and not opts:
            raise ScnError("zone option %s needs a value" % w)
        if w == "unsigned":
            z.signed = False
        elif w in ("nsec", "nsec3"):
            z.denial = w
        elif w == "optout":
            z.denial, z.optout = "nsec3", True
        elif w in ("anchor", "anchor-dnskey"):
            z.anchor = "ds" if w == "anchor" else "dnskey"
        elif w == "alg":
            z.alg = int(opts.pop(0))
        elif w == "iterations":
            z.iterations = int(opts.pop(0))
        elif w == "salt":
            z.salt = bytes.fromhex(opts.pop(0))
        elif w == "digest":
            z.digest = int(opts.pop(0))
        else:
            raise ScnError("unknown zone option %r" % w)
    return z


def parse_key(words, zone):
    """key NAME ksk|zsk [alg N] [nopublish] [nods] [nosign]
    [publish T-U] [ds T-U] [sign T-U]."""
    if len(words) < 2 or words[1] not in ("ksk", "zsk"):
        raise ScnError("key NAME ksk|zsk [alg N] [%s]" % " ".join(KEY_OPTS))
    alg, opts, rest = zone.alg, [], words[2:]
    while rest:
        w = rest.pop(0)
        if w == "alg" and rest:
            alg = int(rest.pop(0))
        elif w in KEY_WINDOWS and rest:
            opts.append((w, parse_range(rest.pop(0))))
        elif w in KEY_OPTS:
            opts.append(w)
        else:
            raise ScnError("unknown key option %r" % w)
    return (words[0], words[1], alg, tuple(opts))


def parse_fault(words):
    """fault KIND [ARG] [on OWNER [TYPE]] (ARG: the ZONE of signer,
    the seconds of origttl and expires, the count of sigs)."""
    if not words or words[0] not in FAULTS:
        raise ScnError("fault is one of %s" % ", ".join(FAULTS))
    kind, rest = words[0], words[1:]
    arg = None
    if kind in ("signer", "origttl", "expires", "sigs", "nsec3hash",
                "tagmates"):
        if not rest:
            raise ScnError("fault %s needs its argument" % kind)
        arg = rest.pop(0)
        arg = parse_name(arg) if kind == "signer" else int(arg)
    if kind == "times":
        if len(rest) < 2:
            raise ScnError("fault times INCEPTION EXPIRATION")
        arg = (int(rest.pop(0)), int(rest.pop(0)))
    owner = rdtype = None
    if rest:
        if rest[0] != "on" or len(rest) not in (2, 3):
            raise ScnError("fault %s ... on OWNER [TYPE]" % kind)
        owner = parse_name(rest[1])
        rdtype = dns.rdatatype.from_text(rest[2]) if len(rest) == 3 \
            else None
    return Fault(kind, arg, owner, rdtype)


def parse_deny(words):
    """deny [NAME TYPE]: the proof for the question (None), or for
    another name and type."""
    if not words:
        return None
    if len(words) != 2:
        raise ScnError("deny [NAME TYPE]")
    return (parse_name(words[0]), dns.rdatatype.from_text(words[1]))


def parse_tls(srv, words):
    """tls yes|no|stall|drop-after N [time T-U]: what srv's port 853
    does (while the scenario clock is within T-U)."""
    window = (None, None)
    if len(words) > 2 and words[-2] == "time":
        window = parse_range(words[-1])
        words = words[:-2]
    if not words or words[0] not in TLS_MODES or \
            len(words) != (2 if words[0] == "drop-after" else 1):
        raise ScnError("tls yes|no|stall|drop-after N [time T-U]")
    after = int(words[1]) if words[0] == "drop-after" else None
    if after is not None and after < 0:
        raise ScnError("tls drop-after N: N >= 0")
    srv.tls.append((words[0], after, window))


def entry_line(e, key, words, rest):
    """One line of a match block (rcode, flags, a record, action...)."""
    if key == "rcode":
        e.rcode = dns.rcode.from_text(words[0])
    elif key == "flags":
        e.flags = parse_flags(words)
    elif key in SECTIONS:
        e.sections[key].append(parse_rr(rest))
    elif key == "raw":
        sec, rec = parse_raw(words)
        e.sections[sec].append(rec)
    elif key == "action":
        e.actions.append(parse_action(words))
    elif key == "continue":
        e.cont = True
    elif key == "fault":
        e.faults.append(parse_fault(words))
    elif key == "deny":
        e.deny.append(parse_deny(words))
    else:
        return False
    return True


def parse_expect(words, rest):
    """expect rcode|flags|noflags|within|SECTION[-contains|-empty] ..."""
    if not words:
        raise ScnError("expect what?")
    what = words[0]
    if what == "rcode":
        return ("rcode", dns.rcode.from_text(words[1]))
    if what in ("flags", "noflags"):
        return (what, parse_flags(words[1:]))
    if what == "within":
        return ("within", int(words[1]))
    if what == "ede":
        return ("ede", None if words[1] == "none" else int(words[1]))
    if what == "ede-text":
        return ("ede-text", rest.split(None, 1)[1])
    sec, _, mode = what.partition("-")
    if sec not in SECTIONS or mode not in ("", "contains", "empty", "has",
                                           "count"):
        raise ScnError("unknown expectation %r" % what)
    if mode == "empty":
        return (sec, "empty", None)
    if mode == "has":
        owner = parse_name(words[2]) if len(words) > 2 else None
        return (sec, "has", (dns.rdatatype.from_text(words[1]), owner))
    if mode == "count":
        owner = parse_name(words[3]) if len(words) > 3 else None
        return (sec, "count", (dns.rdatatype.from_text(words[1]),
                               int(words[2]), owner))
    return (sec, mode or "exact", parse_rr(rest.split(None, 1)[1]))


def parse_step(key, words, where):
    """A step line: query, time, stat, sent, tls-connections, sleep or
    log."""
    if key == "query":
        if len(words) < 2 or any(o not in QUERY_OPTS for o in words[2:]):
            raise ScnError("query QNAME QTYPE [%s]" % " ".join(QUERY_OPTS))
        return Step("query", (parse_name(words[0]),
                              dns.rdatatype.from_text(words[1]),
                              set(words[2:])), where)
    if key == "time":
        if not words or not words[0].startswith("+"):
            raise ScnError("time +SECONDS")
        return Step("time", int(words[0][1:]), where)
    if key == "stat":
        if len(words) != 3 or words[1] not in OPS:
            raise ScnError("stat COUNTER OP VALUE")
        return Step("stat", (words[0], words[1], int(words[2])), where)
    if key == "sent":
        over = None
        if len(words) > 4 and words[-2] == "over":
            over = words[-1]
            words = words[:-2]
        if len(words) < 3 or words[1] not in OPS or len(words) > 5 or \
                (over is not None and over not in SENT_OVER):
            raise ScnError("sent SERVER OP N [QNAME [QTYPE]] [over %s]" %
                           "|".join(SENT_OVER))
        qn = parse_name(words[3]) if len(words) > 3 else None
        qt = parse_type(words[4]) if len(words) > 4 else None
        return Step("sent", (words[0], words[1], int(words[2]), qn, qt,
                             over), where)
    if key == "tls-connections":
        if len(words) != 3 or words[1] not in OPS:
            raise ScnError("tls-connections SERVER OP N")
        return Step(key, (words[0], words[1], int(words[2])), where)
    if key == "sleep":
        return Step("sleep", int(words[0]), where)
    if key == "log":
        if not words:
            raise ScnError("log TEXT")
        return Step("log", " ".join(words), where)
    return None


class Reader:
    """Line by line state: the scenario, the server and match open."""

    def __init__(self, path):
        self.scn = Scenario(path)
        self.server = None
        self.entry = None
        self.zone = None

    def header_line(self, key, words, rest):
        """title, source, xfail, config and hint lines."""
        scn = self.scn
        if key == "title":
            scn.title = rest
        elif key == "source":
            scn.sources.append(rest)
        elif key == "xfail":
            scn.xfail = rest
        elif key == "config":
            scn.config.append(rest)
        elif key == "hint":
            scn.hints.append((parse_name(words[0]), words[1]))
        elif key == "zone" and self.server is None:
            self.zone = parse_zone(words)
            if self.zone.apex in scn.zones:
                raise ScnError("zone %s twice" % self.zone.apex)
            scn.zones[self.zone.apex] = self.zone
        else:
            return False
        return True

    def zone_line(self, key, words, rest):
        """rr, key and fault lines of a zone block."""
        z = self.zone
        if z is None or self.server is not None:
            return False
        if key == "rr":
            z.records.append(parse_rr(rest))
        elif key == "key":
            z.keys.append(parse_key(words, z))
        elif key == "fault":
            z.faults.append(parse_fault(words))
        else:
            return False
        return True

    def server_line(self, key, words, rest):
        """server and match lines, and the lines of a match block."""
        if key == "server":
            if len(words) < 2 or words[0] in self.scn.servers:
                raise ScnError("server NAME ADDR... (a new NAME)")
            self.server = Server(words[0], words[1:])
            self.scn.servers[words[0]] = self.server
            self.entry = None
            return True
        if key == "serve" and self.server is not None and words:
            self.server.serves += [parse_name(w) for w in words]
            return True
        if key == "tls" and self.server is not None:
            parse_tls(self.server, words)
            return True
        if key == "match":
            if self.server is None:
                raise ScnError("match outside a server block")
            self.entry = parse_match(words)
            self.server.entries.append(self.entry)
            return True
        if self.entry is not None and not self.scn.steps:
            return entry_line(self.entry, key, words, rest)
        return False

    def line(self, text, where):
        """Dispatch one non-empty, non-comment line."""
        key, _, rest = text.partition(" ")
        key = key.rstrip(":")
        rest = rest.strip()
        words = rest.split()
        if self.header_line(key, words, rest):
            return
        if self.zone_line(key, words, rest):
            return
        if not self.scn.steps and self.server_line(key, words, rest):
            return
        if key == "expect":
            if not self.scn.steps or self.scn.steps[-1].kind != "query":
                raise ScnError("expect must follow a query step")
            self.scn.steps[-1].expect.append(parse_expect(words, rest))
            return
        step = parse_step(key, words, where)
        if step is None:
            raise ScnError("unknown line %r" % key)
        self.scn.steps.append(step)


def read_scenario(path):
    """Parse the file at path; raises ScnError("FILE:LINE: why")."""
    rd = Reader(path)
    with open(path, encoding="utf-8") as f:
        for num, raw in enumerate(f, 1):
            text = raw.strip()
            if not text or text.startswith("#"):
                continue
            try:
                rd.line(text, num)
            except (ScnError, ValueError, IndexError,
                    dns.exception.DNSException) as err:
                raise ScnError("%s:%d: %s" % (path, num, err)) from err
    if rd.scn.title is None or not rd.scn.hints or not rd.scn.steps:
        raise ScnError("%s: a scenario needs title, hint and steps" % path)
    check_zones(rd.scn)
    return rd.scn


def check_zones(scn):
    """Every served zone, and the zone of every signer fault, is a zone
    of the scenario."""
    faults = [f for z in scn.zones.values() for f in z.faults]
    faults += [f for s in scn.servers.values() for e in s.entries
               for f in e.faults]
    names = [n for s in scn.servers.values() for n in s.serves]
    names += [f.arg for f in faults if f.kind == "signer"]
    for n in names:
        if n not in scn.zones:
            raise ScnError("%s: no zone %s in the scenario" % (scn.path, n))
    for z in scn.zones.values():
        for f in z.faults:
            if f.owner is not None and z.apex not in owner_zones(scn, f):
                raise ScnError("%s: fault %s on %s%s: not zone %s's data" % (
                    scn.path, f.kind, f.owner, "" if f.rdtype is None else
                    " " + dns.rdatatype.to_text(f.rdtype), z.apex))


def owner_zones(scn, fault):
    """The zones whose data the fault's RRset can be: the deepest zone
    of the scenario holding its owner, and for the apex of a child zone
    (unless the type is not DS) the parent's side of the cut."""
    def holder(name):
        found = [a for a in scn.zones if name.is_subdomain(a)]
        return max(found, key=len) if found else None
    owner, out = fault.owner, []
    if fault.rdtype != dns.rdatatype.DS:
        out.append(holder(owner))
    if fault.rdtype in (None, dns.rdatatype.DS) and owner in scn.zones \
            and owner != dns.name.root:
        out.append(holder(owner.parent()))
    return out
