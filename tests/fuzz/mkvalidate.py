#!/usr/bin/env python3
"""tests/fuzz/mkvalidate.py: the seed corpus of the validate fuzz target
(tests/fuzz/fuzz_validate.c): real signed replies from a small signed
tree, made with fixed test keys (never use them anywhere else).

Usage (dnspython >= 2.3 and cryptography; Debian's /usr/bin/python3):
  mkvalidate.py anchor
      Print the trust anchors of the root (DS and DNSKEY) as
      fuzz_validate.c has them.
  mkvalidate.py seeds TARGET OUTDIR
      Write the seeds of SEEDS below to OUTDIR (questions of
      fuzz_validate.c; two with a signature spoilt, two whose referrals
      lack DS and its denial, so DS is asked for) and print the result
      of each (RCODE, status, EDE, reason). TARGET is a built
      tests/fuzz/fuzz_validate (either build): it runs the seed so far
      with FUZZ_TRACE set, and the first query it sent that had no reply
      yet gets one from the tree below, until every query it sends has
      its reply.

The tree (each zone answers as an authoritative server would, with
DNSSEC records as to a DO query):
  .                  Ed25519 (one key, the anchor), NSEC; the lab root
                     server a.root.lab. is in it
  example.           ECDSA P-256, a KSK and a ZSK, NSEC; a wildcard
                     *.wild.example.
  h.example.         RSA/SHA-256, NSEC3 (2 iterations, salt c0ffee);
                     a wildcard *.wild.h.example.
  unsigned.example.  not signed (the delegation has an NSEC, no DS)
Signatures are valid around FUZZ_NOW (tests/fuzz/fuzz_load.h).
"""

import os
import random
import struct
import subprocess
import sys
import tempfile

import dns.dnssec
import dns.flags
import dns.message
import dns.name
import dns.rdata
import dns.rdataclass
import dns.rdatatype
import dns.rdtypes.ANY.RRSIG
import dns.rrset
import dns.zone
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa
from cryptography.hazmat.primitives.asymmetric.padding import PKCS1v15
from cryptography.hazmat.primitives.asymmetric.utils import \
    decode_dss_signature
from cryptography.hazmat.primitives.hashes import SHA256

FUZZ_NOW = 1764770000
INCEPTION = FUZZ_NOW - 30 * 86400
EXPIRATION = FUZZ_NOW + 3650 * 86400
NSEC3_SALT = "c0ffee"
NSEC3_ITERATIONS = 2
MAX_REPLIES = 64
SEC_NAMES = {"0": "unchecked", "1": "insecure", "2": "secure", "3": "bogus"}
RRSIG = dns.rdatatype.RRSIG
IN = dns.rdataclass.IN

# Bits of the header byte, as fuzz_validate.c reads them.
QMIN_BIT = 0x08
KEY_ANCHOR_BIT = 0x10
AAAA_BIT = 0x20
QUESTIONS = ["www.example.", "nosuch.example.", "www.example.",
             "a.wild.example.", "www.h.example.", "nosuch.h.example.",
             "a.wild.h.example.", "www.unsigned.example."]
# name, header byte (question index and bits)
SEEDS = [
    ("answer", 0), ("nxdomain-nsec", 1), ("nodata-nsec", 2 | AAAA_BIT),
    ("wildcard-nsec", 3), ("wildcard-nodata-nsec", 3 | AAAA_BIT),
    ("answer-nsec3", 4), ("nodata-nsec3", 4 | AAAA_BIT),
    ("nxdomain-nsec3", 5), ("wildcard-nsec3", 6),
    ("insecure", 7), ("answer-key-anchor", KEY_ANCHOR_BIT),
    ("qmin-answer", QMIN_BIT), ("qmin-answer-nsec3", 4 | QMIN_BIT),
    ("qmin-nxdomain-nsec3", 5 | QMIN_BIT),
    ("qmin-insecure", 7 | QMIN_BIT),
    # the last reply's first signature spoilt: bogus, with an EDE
    ("bogus-answer", 0, "spoil"), ("bogus-nxdomain-nsec3", 5, "spoil"),
    # referrals without DS or NSEC: the iterator asks the parent for DS
    ("ds-query-nsec3", 4, "strip-ds"), ("ds-query-insecure", 7, "strip-ds"),
]


def rsa_key(seed, bits):
    """An RSA key from a fixed seed (Fermat test: good enough here)."""
    rnd = random.Random(seed)
    e = 65537

    def prime():
        while True:
            c = rnd.getrandbits(bits // 2) | 1 << (bits // 2 - 1) | 1
            if (c - 1) % e and all(pow(a, c - 1, c) == 1
                                   for a in (2, 3, 5, 7, 11, 13, 17)):
                return c
    p, q = prime(), prime()
    d = pow(e, -1, (p - 1) * (q - 1))
    return rsa.RSAPrivateNumbers(
        p, q, d, d % (p - 1), d % (q - 1), pow(q, -1, p),
        rsa.RSAPublicNumbers(e, p * q)).private_key()


def ec_key(scalar):
    return ec.derive_private_key(scalar, ec.SECP256R1())


# (private key, algorithm, flags) per zone; the first signs the DNSKEY
# set, the last everything else.
KEYS = {
    ".": [(ed25519.Ed25519PrivateKey.from_private_bytes(bytes(range(32))),
           15, 257)],
    "example.": [(ec_key(0x5eed1), 13, 257), (ec_key(0x5eed2), 13, 256)],
    "h.example.": [(rsa_key("curvecache h.example", 1024), 8, 257)],
    "unsigned.example.": [],
}

ZONES = {
    ".": """
. 86400 SOA a.root.lab. hostmaster.root.lab. 1 1800 900 604800 86400
. 518400 NS a.root.lab.
a.root.lab. 518400 A 127.53.0.1
example. 172800 NS ns.example.
ns.example. 172800 A 127.53.1.1
""",
    "example.": """
example. 3600 SOA ns.example. hostmaster.example. 1 1800 900 604800 300
example. 3600 NS ns.example.
ns.example. 3600 A 127.53.1.1
www.example. 3600 A 192.0.2.1
wild.example. 3600 TXT "the wildcard's parent"
*.wild.example. 3600 A 192.0.2.2
h.example. 3600 NS ns.h.example.
ns.h.example. 3600 A 127.53.2.1
unsigned.example. 3600 NS ns.unsigned.example.
ns.unsigned.example. 3600 A 127.53.3.1
""",
    "h.example.": """
h.example. 3600 SOA ns.h.example. hostmaster.h.example. 1 1800 900 604800 300
h.example. 3600 NS ns.h.example.
ns.h.example. 3600 A 127.53.2.1
www.h.example. 3600 A 192.0.2.3
wild.h.example. 3600 TXT "the wildcard's parent"
*.wild.h.example. 3600 A 192.0.2.4
""",
    "unsigned.example.": """
unsigned.example. 3600 SOA ns.unsigned.example. h.unsigned.example. 1 2 3 4 5
unsigned.example. 3600 NS ns.unsigned.example.
ns.unsigned.example. 3600 A 127.53.3.1
www.unsigned.example. 3600 A 192.0.2.5
""",
}
NSEC3_ZONES = {"h.example."}


def dnskey_of(entry):
    priv, alg, flags = entry
    return dns.dnssec.make_dnskey(priv.public_key(), alg, flags)


class Zone:
    """One signed zone and the records of its answers."""

    def __init__(self, origin):
        self.origin = dns.name.from_text(origin)
        self.keys = KEYS[origin]
        self.nsec3 = origin in NSEC3_ZONES
        z = dns.zone.from_text(ZONES[origin], self.origin,
                               relativize=False)
        self.rrsets = {}  # (name, type): RRset
        for name, node in z.nodes.items():
            for rds in node.rdatasets:
                self.rrsets[(name, rds.rdtype)] = \
                    dns.rrset.from_rdata_list(name, rds.ttl, list(rds))
        self.cuts = {n for (n, t) in self.rrsets
                     if t == dns.rdatatype.NS and n != self.origin}
        if self.keys:
            self.add_rrset(self.origin, dns.rdatatype.DNSKEY, 3600,
                           [dnskey_of(k) for k in self.keys])
        self.sigs = {}

    def add_rrset(self, name, rdtype, ttl, rdatas):
        self.rrsets[(name, rdtype)] = dns.rrset.from_rdata_list(
            name, ttl, rdatas)

    def below_cut(self, name):
        return any(name.is_subdomain(c) and name != c for c in self.cuts)

    def names(self):
        """Authoritative names (cut names included), canonical order."""
        return sorted({n for (n, t) in self.rrsets if not self.below_cut(n)})

    def exists(self, name):
        """The name has records or names below it (empty non-terminal)."""
        return any(n.is_subdomain(name) for n in self.names())

    def signed_type(self, name, rdtype):
        return not ((name in self.cuts and rdtype not in (
            dns.rdatatype.DS, dns.rdatatype.NSEC)) or self.below_cut(name))

    def finish(self, children):
        """DS records of the signed children, the NSEC or NSEC3 chain,
        then every signature."""
        if not self.keys:
            return
        for c in self.cuts:
            child = children.get(c.to_text())
            if child is not None and child.keys:
                ds = dns.dnssec.make_ds(c, dnskey_of(child.keys[0]),
                                        "SHA256")
                self.add_rrset(c, dns.rdatatype.DS, 3600, [ds])
        if self.nsec3:
            self.make_nsec3()
        else:
            self.make_nsec()
        for (name, rdtype), rrset in self.rrsets.items():
            if self.signed_type(name, rdtype):
                self.sigs[(name, rdtype)] = self.sign(rrset, rdtype)

    def sign(self, rrset, rdtype):
        """The RRSIG of an RRset (dnspython 2.3's sign() counts the "*"
        of a wildcard owner in the labels field: done here instead)."""
        priv, alg, flags = self.keys[0 if rdtype == dns.rdatatype.DNSKEY
                                     else -1]
        key = dnskey_of((priv, alg, flags))
        labels = len(rrset.name) - 1 - int(rrset.name.is_wild())
        tmpl = dns.rdtypes.ANY.RRSIG.RRSIG(
            IN, RRSIG, rdtype, alg, labels, rrset.ttl, EXPIRATION,
            INCEPTION, dns.dnssec.key_id(key), self.origin, b"")
        data = dns.dnssec._make_rrsig_signature_data(rrset, tmpl)
        if alg == 15:
            sig = priv.sign(data)
        elif alg == 13:
            r, s = decode_dss_signature(priv.sign(data, ec.ECDSA(SHA256())))
            sig = r.to_bytes(32, "big") + s.to_bytes(32, "big")
        else:
            sig = priv.sign(data, PKCS1v15(), SHA256())
        return tmpl.replace(signature=sig)

    def types_at(self, name):
        return sorted(t for (n, t) in self.rrsets if n == name)

    def make_nsec(self):
        names = self.names()
        for i, name in enumerate(names):
            nxt = names[(i + 1) % len(names)]
            types = set(self.types_at(name)) | {RRSIG, dns.rdatatype.NSEC}
            text = "%s %s" % (nxt, " ".join(
                dns.rdatatype.to_text(t) for t in sorted(types)))
            self.add_rrset(name, dns.rdatatype.NSEC, 300,
                           [dns.rdata.from_text(IN, dns.rdatatype.NSEC,
                                                text)])

    def hash_of(self, name):
        return dns.dnssec.nsec3_hash(name, NSEC3_SALT, NSEC3_ITERATIONS, 1)

    def make_nsec3(self):
        names = set()
        for n in self.names():
            while n.is_subdomain(self.origin):
                names.add(n)
                if n == self.origin:
                    break
                n = n.parent()
        hashed = sorted((self.hash_of(n), n) for n in names)
        self.hashed = hashed
        for i, (h, name) in enumerate(hashed):
            nxt = hashed[(i + 1) % len(hashed)][0]
            types = self.types_at(name)
            if any(self.signed_type(name, t) for t in types):
                types = sorted(set(types) | {RRSIG})
            text = "1 0 %d %s %s %s" % (
                NSEC3_ITERATIONS, NSEC3_SALT, nxt,
                " ".join(dns.rdatatype.to_text(t) for t in types))
            owner = dns.name.from_text(h.lower(), self.origin)
            self.add_rrset(owner, dns.rdatatype.NSEC3, 300,
                           [dns.rdata.from_text(IN, dns.rdatatype.NSEC3,
                                                text)])
        self.add_rrset(self.origin, dns.rdatatype.NSEC3PARAM, 300,
                       [dns.rdata.from_text(
                           IN, dns.rdatatype.NSEC3PARAM,
                           "1 0 %d %s" % (NSEC3_ITERATIONS, NSEC3_SALT))])


class Reply:
    """A reply being built: sections of RRsets with their RRSIGs."""

    def __init__(self, zone, qname, qtype):
        self.zone = zone
        self.msg = dns.message.make_response(
            dns.message.make_query(qname, qtype, want_dnssec=True))
        self.msg.flags &= ~dns.flags.RD

    def add(self, section, name, rdtype, owner=None):
        z = self.zone
        rrset = z.rrsets.get((name, rdtype))
        if rrset is None:
            return
        owner = owner or name
        out = self.msg.find_rrset(section, owner, IN, rdtype, create=True)
        out.update_ttl(rrset.ttl)
        for rd in rrset:
            out.add(rd)
        sig = z.sigs.get((name, rdtype))
        if sig is not None:
            s = self.msg.find_rrset(section, owner, IN, RRSIG, rdtype,
                                    create=True)
            s.update_ttl(rrset.ttl)
            s.add(sig)

    def nsec_covering(self, name):
        """Add the NSEC whose span holds name (or whose owner is it)."""
        names = self.zone.names()
        best = names[-1]
        for n in names:
            if n <= name:
                best = n
        self.add(self.msg.authority, best, dns.rdatatype.NSEC)

    def nsec3_for(self, name):
        """Add the NSEC3 matching name or covering its hash."""
        z = self.zone
        h = z.hash_of(name)
        hashes = [x for x, _ in z.hashed]
        best = hashes[-1]
        for x in hashes:
            if x <= h:
                best = x
        owner = dns.name.from_text(best.lower(), z.origin)
        self.add(self.msg.authority, owner, dns.rdatatype.NSEC3)

    def deny(self, name):
        if self.zone.nsec3:
            self.nsec3_for(name)
        elif self.zone.keys:
            self.nsec_covering(name)

    def soa(self):
        self.add(self.msg.authority, self.zone.origin, dns.rdatatype.SOA)


def closest_encloser(zone, qname):
    n = qname
    while not zone.exists(n):
        n = n.parent()
    return n


def referral(r, cut):
    z = r.zone
    r.add(r.msg.authority, cut, dns.rdatatype.NS)
    if (cut, dns.rdatatype.DS) in z.rrsets:
        r.add(r.msg.authority, cut, dns.rdatatype.DS)
    else:
        r.deny(cut)
    for ns in z.rrsets[(cut, dns.rdatatype.NS)]:
        r.add(r.msg.additional, ns.target, dns.rdatatype.A)


def below_apex(r, qname, qtype):
    """An answer from the zone's own data: the RRset, a wildcard
    expansion, NODATA or NXDOMAIN with their proofs."""
    z = r.zone
    r.msg.flags |= dns.flags.AA
    if z.exists(qname):
        if (qname, qtype) in z.rrsets:
            r.add(r.msg.answer, qname, qtype)
            if qtype == dns.rdatatype.NS:
                for ns in z.rrsets[(qname, qtype)]:
                    r.add(r.msg.additional, ns.target, dns.rdatatype.A)
            return
        r.soa()
        r.deny(qname)
        return
    ce = closest_encloser(z, qname)
    nc = dns.name.Name(qname.labels[-(len(ce.labels) + 1):])
    wild = dns.name.Name((b"*",) + ce.labels)
    if (wild, qtype) in z.rrsets:
        r.add(r.msg.answer, wild, qtype, owner=qname)
        r.deny(nc if z.nsec3 else qname)
        return
    # no such name: the wildcard has no such type (NODATA) or does not
    # exist (NXDOMAIN); either way qname is denied, and the wildcard's
    # type or existence
    if not z.exists(wild):
        r.msg.set_rcode(dns.rcode.NXDOMAIN)
    r.soa()
    for name in ([ce, nc] if z.nsec3 else [qname]) + [wild]:
        r.deny(name)


def answer(zones, qname, qtype, zone_name):
    """The reply of the server of zone_name to (qname, qtype)."""
    z = zones.get(zone_name.to_text())
    if z is None or not qname.is_subdomain(z.origin):
        z = zones[max((o for o in zones
                       if qname.is_subdomain(dns.name.from_text(o))),
                      key=lambda o: len(dns.name.from_text(o).labels))]
    r = Reply(z, qname, qtype)
    for cut in z.cuts:
        if qname.is_subdomain(cut) and not (
                qname == cut and qtype == dns.rdatatype.DS):
            referral(r, cut)
            break
    else:
        below_apex(r, qname, qtype)
    return r.msg.to_wire()


def make_zones():
    zones = {o: Zone(o) for o in ZONES}
    for o in sorted(zones, key=lambda o: -len(o)):
        zones[o].finish(zones)
    return zones


def wire_name_from_hex(text):
    b = bytes.fromhex(text)
    return dns.name.from_wire(b, 0)[0]


def trace(target, data):
    """The queries the target sends fed with data, in order, and its
    result line (RCODE, status, EDE, reason)."""
    with tempfile.TemporaryDirectory() as d:
        seed = os.path.join(d, "seed")
        log = os.path.join(d, "trace")
        with open(seed, "wb") as f:
            f.write(data)
        env = dict(os.environ, FUZZ_TRACE=log)
        subprocess.run([target, seed], env=env, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        out, result = [], ""
        with open(log) as f:
            for line in f:
                w = line.split()
                if len(w) == 4 and w[0] == "query":
                    out.append((wire_name_from_hex(w[1]), int(w[2]),
                                wire_name_from_hex(w[3])))
                elif w and w[0] == "result":
                    result = line[len("result "):].strip()
        return out, result


def frame(header, replies):
    return bytes([header]) + b"".join(
        struct.pack(">H", len(r)) + r for r in replies)


def spoil(reply):
    """The reply with the last byte of its first signature flipped."""
    m = dns.message.from_wire(reply)
    for rrset in m.answer + m.authority:
        if rrset.rdtype == RRSIG:
            sig = rrset[0]
            rrset.remove(sig)
            rrset.add(sig.replace(signature=sig.signature[:-1] + bytes(
                [sig.signature[-1] ^ 1])))
            return m.to_wire()
    raise ValueError("no signature to spoil")


def strip_ds(reply):
    """A referral without its DS records or their denial."""
    m = dns.message.from_wire(reply)
    if not m.flags & dns.flags.AA:
        m.authority = [r for r in m.authority
                       if r.rdtype in (dns.rdatatype.NS, dns.rdatatype.SOA)]
    return m.to_wire()


def make_seed(zones, target, header, mode=None):
    replies = []
    while len(replies) < MAX_REPLIES:
        queries, result = trace(target, frame(header, replies))
        if len(queries) <= len(replies) and mode == "spoil":
            replies[-1] = spoil(replies[-1])
            mode = None
            continue
        if len(queries) <= len(replies):
            return frame(header, replies), len(replies), result
        qname, qtype, zone = queries[len(replies)]
        reply = answer(zones, qname, qtype, zone)
        replies.append(strip_ds(reply) if mode == "strip-ds" else reply)
    raise RuntimeError("no end after %d replies" % MAX_REPLIES)


def cmd_anchor():
    root = dns.name.root
    key = dnskey_of(KEYS["."][0])
    print(". DS %s" % dns.dnssec.make_ds(root, key, "SHA256"))
    print(". DNSKEY %s" % key)


def cmd_seeds(target, outdir):
    zones = make_zones()
    os.makedirs(outdir, exist_ok=True)
    for name, header, *mode in SEEDS:
        data, n, result = make_seed(zones, target, header, *mode)
        sec = result.split()
        if len(sec) > 1:
            sec[1] = SEC_NAMES.get(sec[1], sec[1])
        print("%-22s %2d replies, %5d bytes: rcode %s" % (
            name, n, len(data), " ".join(sec)))
        with open(os.path.join(outdir, name), "wb") as f:
            f.write(data)


COMMANDS = {("anchor", 0): cmd_anchor, ("seeds", 2): cmd_seeds}


def main(argv):
    cmd = COMMANDS.get((argv[1] if len(argv) > 1 else "", len(argv) - 2))
    if cmd is None:
        print(__doc__, file=sys.stderr)
        return 2
    cmd(*argv[2:])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
