"""tests/replay/proofs.py: the NSEC (RFC 4035 section 3.1.3) and NSEC3
(RFC 5155 section 7.2) records that prove a denial in a zone of the
replay harness (tests/replay/authzone.py ZoneState), built from the
zone's data each time (the zones are small):

- a name that exists: the record at it (NODATA), or for NSEC at an
  empty non-terminal the one that covers it;
- a name that does not exist: the closest encloser proof (NSEC3) or the
  NSEC that covers it, and the proof that the wildcard at the closest
  encloser does not exist, or, when it does, nothing more (an answer
  expanded from it) or the record at it (wildcard NODATA).

A DS question at a delegation left out of an opt-out NSEC3 chain gets
the closest encloser proof with the opt-out record covering it.
Returns (owner, rdtype, rdata) triples; the caller signs them.
"""

import dns.dnssec
import dns.name
import dns.rdata
import dns.rdataclass
import dns.rdatatype

T = dns.rdatatype
NSEC3_SHA1 = 1
OPTOUT_FLAG = 1
WILD = dns.name.Name((b"*",))


def rdata(rdtype, text):
    """An rdata from its text (absolute names)."""
    return dns.rdata.from_text(dns.rdataclass.IN, rdtype, text,
                               origin=dns.name.root, relativize=False)


def types_at(z, name, nsec3):
    """The type bitmap of name: its types, and RRSIG (and NSEC) when
    something there is signed; an insecure delegation has NS (and for
    NSEC, the RRSIG and NSEC of its NSEC record); an empty non-terminal
    nothing."""
    node = z.data.get(name, {})
    types = set(node)
    if name != z.apex and T.NS in node:
        types &= {T.NS, T.DS}
    signed = bool(types - {T.NS}) or name == z.apex
    if not nsec3:
        types |= {T.NSEC, T.RRSIG}
    elif signed:
        types.add(T.RRSIG)
    return sorted(types)


def chain(z):
    """The names of the zone's NSEC or NSEC3 chain: the owners of its
    data (not glue), for NSEC3 with the empty non-terminals and without
    the delegations an opt-out chain skips (those without DS)."""
    names = z.auth_names()
    if z.decl.denial != "nsec3":
        return names
    if z.decl.optout:
        names = {n for n in names if n == z.apex or T.NS not in z.data[n]
                 or T.DS in z.data[n]}
    out = set()
    for n in names:
        while n.is_subdomain(z.apex) and n not in out:
            out.add(n)
            if n == z.apex:
                break
            n = n.parent()
    return out


def nsec_record(z, names, i):
    """The NSEC at names[i] (names sorted)."""
    nxt = names[(i + 1) % len(names)]
    text = "%s %s" % (nxt.to_text(), " ".join(
        T.to_text(t) for t in types_at(z, names[i], False)))
    return (names[i], T.NSEC, rdata(T.NSEC, text))


def nsec_proof(z, qname, qtype):
    """The NSEC records denying qname/qtype."""
    names = sorted(chain(z))

    def at(name):
        return nsec_record(z, names, names.index(name))

    def cover(name):
        below = [i for i, n in enumerate(names) if n < name]
        return nsec_record(z, names, below[-1] if below else -1)
    if qname in names:
        return [at(qname)]
    if z.exists(qname):
        return [cover(qname)]
    wild = WILD.concatenate(z.encloser(qname))
    if wild in names:
        if {qtype, T.CNAME} & set(z.data[wild]):
            return [cover(qname)]
        return unique([cover(qname), at(wild)])
    return unique([cover(qname), cover(wild)])


def nsec3_hash(z, name):
    """The base32hex hash of name (upper case) with the zone's
    parameters."""
    return dns.dnssec.nsec3_hash(name, z.decl.salt, z.decl.iterations,
                                 NSEC3_SHA1).upper()


def nsec3_records(z):
    """{hash: (owner, NSEC3, rdata)} of the zone's chain."""
    names = chain(z)
    hashed = sorted((nsec3_hash(z, n), n) for n in names)
    salt = z.decl.salt.hex() or "-"
    flags = OPTOUT_FLAG if z.decl.optout else 0
    out = {}
    for i, (h, n) in enumerate(hashed):
        nxt = hashed[(i + 1) % len(hashed)][0]
        text = "%d %d %d %s %s %s" % (
            NSEC3_SHA1, flags, z.decl.iterations, salt, nxt, " ".join(
                T.to_text(t) for t in types_at(z, n, True)))
        owner = dns.name.Name((h.lower().encode(),)).concatenate(z.apex)
        out[h] = (owner, T.NSEC3, rdata(T.NSEC3, text))
    return out


def nsec3_proof(z, qname, qtype):
    """The NSEC3 records denying qname/qtype."""
    recs = nsec3_records(z)
    hashes = sorted(recs)

    def at(name):
        return recs[nsec3_hash(z, name)]

    def cover(name):
        h = nsec3_hash(z, name)
        below = [x for x in hashes if x < h]
        return recs[below[-1] if below else hashes[-1]]
    names = chain(z)
    if qname in names:
        return [at(qname)]
    ce = qname.parent()
    while ce not in names and ce != z.apex:
        ce = ce.parent()
    closer = dns.name.Name(qname.labels[-(len(ce) + 1):])
    out = [at(ce), cover(closer)]
    wild = WILD.concatenate(ce)
    if wild in names:
        if {qtype, T.CNAME} & set(z.data[wild]):
            return [cover(closer)]
        return unique(out + [at(wild)])
    if T.DS == qtype and z.exists(qname):
        return unique(out)
    return unique(out + [cover(wild)])


def proof(z, qname, qtype):
    """The denial records of zone z for qname/qtype."""
    if z.decl.denial == "nsec3":
        return nsec3_proof(z, qname, qtype)
    return nsec_proof(z, qname, qtype)


def unique(recs):
    """recs without repeats, in order."""
    out = []
    for r in recs:
        if r not in out:
            out.append(r)
    return out
