"""tests/replay/authzone.py: the zones of a scenario at play time
(tests/replay/README, "Zones and DNSSEC"). A World holds each zone's
data (its rr lines plus what the harness adds: SOA, apex NS, DNSKEY,
the DS of each signed child), the keys of the signed ones
(tests/replay/dnskeys.py), and does two jobs for the scripted servers:

- answer(): the reply of a server that serves zones ("serve" lines) to
  a question no match entry took, as an authoritative server does
  (answer, CNAME, referral with DS or a proof of none, NODATA,
  NXDOMAIN, wildcard expansion);
- decorate(): what a signed zone adds to any reply (scripted or not)
  when the query has DO=1: RRSIGs after each RRset of a signed zone,
  and the NSEC/NSEC3 proofs of denials and wildcard expansions, with
  the scenario's deliberate faults applied.
"""

import dns.name
import dns.rcode
import dns.rdatatype

import dnskeys
import proofs
import scnfile
from proofs import WILD, rdata

T = dns.rdatatype
AA = scnfile.FLAG_BITS["AA"]
DO_BIT = 0x8000
DNSKEY_TTL = 3600
DS_TTL = 86400
SOA_TTL = 3600
SOA_TEXT = "%s %s 1 7200 900 86400 300"
NS_TTL = 3600
SIGNED_WITHOUT_AA = (T.DS, T.NSEC, T.NSEC3)


class ZoneState:
    """One zone of the scenario at play time: data and keys."""

    def __init__(self, decl, live, clock):
        self.decl, self.apex = decl, decl.apex
        self.live, self.clock = live, clock
        self.data = {}
        self.keys = []
        self.rogue_key = None
        if decl.signed:
            specs = decl.keys or [("ksk", "ksk", decl.alg, ()),
                                  ("zsk", "zsk", decl.alg, ())]
            self.keys = [dnskeys.Key(*s) for s in specs]
        for rec in decl.records:
            self.add(rec.owner, rec.rdtype, rec.ttl, rec.rdata)

    def add(self, owner, rdtype, ttl, rd):
        """Add one record to the zone's data."""
        node = self.data.setdefault(owner, {})
        if rdtype not in node:
            node[rdtype] = [ttl, []]
        if rd not in node[rdtype][1]:
            node[rdtype][1].append(rd)

    def rrset(self, owner, rdtype):
        """(ttl, rdatas) or None; a DNSKEY or DS of a key only while the
        scenario clock is in the key's publish or ds window."""
        got = self.data.get(owner, {}).get(rdtype)
        if got is None:
            return None
        now = self.clock()
        rds = [r for r in got[1] if dnskeys.within(self.live.get(
            (rdtype, r.to_digestable()), (None, None)), now)]
        return (got[0], rds) if rds else None

    def rogue(self):
        """A key of the zone's algorithm that no DNSKEY RRset holds."""
        if self.rogue_key is None:
            self.rogue_key = dnskeys.Key("rogue", "zsk", self.decl.alg)
        return self.rogue_key

    def signing_keys(self, rdtype):
        """The keys that sign rdtype: KSKs sign the DNSKEY RRset, ZSKs
        the rest (KSKs too when the zone has no ZSK)."""
        now = self.clock()
        ksk = [k for k in self.keys if k.role == "ksk" and k.signs_at(now)]
        zsk = [k for k in self.keys if k.role == "zsk" and k.signs_at(now)]
        if rdtype == T.DNSKEY:
            return ksk or zsk
        if any(k.role == "zsk" for k in self.keys):
            return zsk
        return ksk

    def ds_rdatas(self):
        """The DS RRset the parent publishes for this zone (each DS
        noted in live with its key's ds window)."""
        out = []
        spoil = any(f.kind == "ds-mismatch" for f in self.decl.faults)
        for k in self.keys:
            if not k.in_ds:
                continue
            d = k.ds(self.apex, self.decl.digest)
            d = dnskeys.spoil_ds(d) if spoil else d
            self.live[(T.DS, d.to_digestable())] = k.window("ds")
            out.append(d)
        return out

    def cuts(self):
        """The delegations of the zone: owners of NS below the apex."""
        return [n for n, node in self.data.items()
                if n != self.apex and T.NS in node]

    def cut_above(self, qname, qtype):
        """The delegation qname is at or below, or None (a DS question
        at the delegation itself is the parent's)."""
        best = None
        for c in self.cuts():
            if not qname.is_subdomain(c):
                continue
            if qname == c and qtype == T.DS:
                continue
            if best is None or c.is_superdomain(best):
                best = c
        return best

    def auth_names(self):
        """The owners of the zone's authoritative data (not glue)."""
        cuts = self.cuts()
        return {n for n in self.data
                if not any(n != c and n.is_subdomain(c) for c in cuts)}

    def exists(self, name):
        """The name has data or is an empty non-terminal."""
        return any(n.is_subdomain(name) for n in self.auth_names())

    def encloser(self, name):
        """The closest encloser of name: its longest existing ancestor
        (or itself)."""
        while not self.exists(name) and name != self.apex:
            name = name.parent()
        return name

    def wildcard_for(self, name):
        """The wildcard that answers name, or None (name exists or no
        wildcard at its closest encloser)."""
        if self.exists(name):
            return None
        wild = WILD.concatenate(self.encloser(name))
        return wild if wild in self.data else None

    def soa_minimum(self):
        """The TTL of NSEC/NSEC3 records (the SOA minimum)."""
        soa = self.rrset(self.apex, T.SOA)
        return min(soa[0], soa[1][0].minimum)


class World:
    """Every zone of a scenario, with the clock its signatures follow."""

    def __init__(self, scn, now, clock):
        self.now = now
        live = {}
        self.zones = {a: ZoneState(z, live, clock)
                      for a, z in scn.zones.items()}
        for z in self.zones.values():
            self.defaults(z, scn)
        for z in self.zones.values():
            parent = self.zone_of(z.apex.parent(), T.A) \
                if z.apex != dns.name.root else None
            if parent is not None and z.decl.signed:
                for d in z.ds_rdatas():
                    parent.add(z.apex, T.DS, DS_TTL, d)

    def defaults(self, z, scn):
        """The SOA, the apex NS (the parent's delegation, or the hints
        at the root), the NSEC3PARAM (NSEC3 zones) and the DNSKEY RRset
        a zone's rr lines lack."""
        apex = z.apex
        if z.rrset(apex, T.SOA) is None:
            z.add(apex, T.SOA, SOA_TTL, rdata(T.SOA, SOA_TEXT % tuple(
                dns.name.Name((w,)).concatenate(apex).to_text()
                for w in (b"ns", b"hostmaster"))))
        if z.rrset(apex, T.NS) is None:
            for ns in self.parent_ns(apex, scn):
                z.add(apex, T.NS, NS_TTL, ns)
        if z.decl.signed and z.decl.denial == "nsec3":
            z.add(apex, T.NSEC3PARAM, 0, rdata(T.NSEC3PARAM, "1 0 %d %s" % (
                z.decl.iterations, z.decl.salt.hex() or "-")))
        mates = sum(f.arg for f in z.decl.faults if f.kind == "tagmates")
        for k in z.keys:
            if k.publish and mates and k.role == "zsk":
                for rd in dnskeys.tagmates(k.dnskey, mates):
                    z.add(apex, T.DNSKEY, DNSKEY_TTL, rd)
                mates = 0
            if k.publish:
                z.add(apex, T.DNSKEY, DNSKEY_TTL, k.dnskey)
                z.live[(T.DNSKEY, k.dnskey.to_digestable())] = \
                    k.window("publish")

    def parent_ns(self, apex, scn):
        """The NS rdatas of the delegation to apex in a parent zone."""
        if apex == dns.name.root:
            return [rdata(T.NS, h.to_text()) for h, _ in scn.hints]
        for z in self.zones.values():
            if z.apex != apex and apex.is_subdomain(z.apex):
                got = z.rrset(apex, T.NS)
                if got:
                    return got[1]
        return []

    def zone_of(self, owner, rdtype):
        """The deepest zone holding owner (a DS: the parent side)."""
        if rdtype == T.DS and owner != dns.name.root:
            owner = owner.parent()
        best = None
        for z in self.zones.values():
            if owner.is_subdomain(z.apex) and (
                    best is None or z.apex.is_subdomain(best.apex)):
                best = z
        return best

    def anchors(self):
        """The trust anchor file's text: the DS of each anchor zone, or
        its KSKs' DNSKEY records (anchor-dnskey)."""
        lines = []
        for z in self.zones.values():
            if not z.decl.anchor or not z.decl.signed:
                continue
            if z.decl.anchor == "ds":
                rds = [("DS", d) for d in z.ds_rdatas()]
            else:
                rds = [("DNSKEY", k.dnskey) for k in z.keys
                       if k.role == "ksk" and k.in_ds]
            lines += ["%s %d IN %s %s" % (z.apex.to_text(), DS_TTL, t,
                                          rd.to_text()) for t, rd in rds]
        return "".join(line + "\n" for line in lines)

    def answer(self, srv, query):
        """The reply (an Entry) of server srv to query from the zones it
        serves, or None (it serves none holding the name)."""
        q = query.question[0]
        qname, qtype = q.name.canonicalize(), q.rdtype
        cands = [self.zones[a] for a in srv.serves
                 if qname.is_subdomain(a)]
        if not cands:
            return None
        cands.sort(key=lambda z: len(z.apex))
        z = cands[-1]
        if qtype == T.DS and qname == z.apex and len(cands) > 1:
            z = cands[-2]
        e = scnfile.Entry(False, qname, qtype)
        e.flags = AA
        cut = z.cut_above(qname, qtype)
        if cut is not None:
            self.referral(z, cut, e)
        else:
            self.lookup(z, qname, qtype, e)
        return e

    def referral(self, z, cut, e):
        """The delegation to cut: NS, the DS RRset or the proof there is
        none (not with the fault bare-referrals), glue."""
        e.flags = 0
        ttl, nss = z.rrset(cut, T.NS)
        put(e, "authority", cut, T.NS, ttl, nss)
        bare = any(f.kind == "bare-referrals" for f in z.decl.faults)
        ds = z.rrset(cut, T.DS)
        if ds and not bare:
            put(e, "authority", cut, T.DS, *ds)
        elif z.decl.signed and not bare:
            e.deny.append((cut, T.DS))
        glue(z, nss, e)

    def lookup(self, z, qname, qtype, e):
        """An answer from z's own data: the RRset, a CNAME, a wildcard
        expansion, NODATA or NXDOMAIN (these two with the SOA and,
        at decoration, their proof)."""
        owner = qname
        wild = z.wildcard_for(qname)
        if wild is not None:
            owner = wild
        for rdtype in (qtype, T.CNAME):
            got = z.rrset(owner, rdtype)
            if got:
                put(e, "answer", qname, rdtype, *got)
                if rdtype == T.NS:
                    glue(z, got[1], e)
                return
        if wild is None and not z.exists(qname):
            e.rcode = dns.rcode.NXDOMAIN
        put(e, "authority", z.apex, T.SOA, *z.rrset(z.apex, T.SOA))
        e.deny.append(None)

    def decorate(self, e, query, sections):
        """sections (lists of Records) with what signed zones add for a
        DO=1 query: the RRSIGs of each RRset (in a reply without AA only
        of DS, NSEC and NSEC3: a referral's NS and glue are not signed),
        and the denial proofs of e's deny lines and of each wildcard
        expansion."""
        if not query.ednsflags & DO_BIT or not self.zones:
            return sections
        q = query.question[0]
        want = []
        out = {}
        for sec in scnfile.SECTIONS:
            out[sec] = []
            for rrset in group(sections[sec]):
                out[sec] += self.signed_rrset(e, rrset, want)
        for d in e.deny:
            name, rdtype = d if d is not None else (q.name.canonicalize(),
                                                    q.rdtype)
            want.append((self.zone_of(name, rdtype), name, rdtype))
        for z, name, rdtype in proofs.unique(want):
            out["authority"] += self.denial(e, z, name, rdtype)
        return out

    def signed_rrset(self, e, rrset, want):
        """The records of rrset and, when its zone is signed, their
        RRSIGs (wildcard expansions noted in want for their proof)."""
        first = rrset[0]
        owner, rdtype = first.owner.canonicalize(), first.rdtype
        if first.raw is not None or rdtype == T.RRSIG or (
                not e.flags & AA and rdtype not in SIGNED_WITHOUT_AA):
            return rrset
        z = self.zone_of(owner, rdtype)
        if z is None or not z.decl.signed:
            return rrset
        sign_owner = owner
        wild = z.wildcard_for(owner) if rdtype != T.DS else None
        if wild is not None:
            sign_owner = wild
            want.append((z, owner, rdtype))
        rdatas, sigs = self.sign(z, e, (owner, sign_owner, rdtype),
                                 first.ttl, [r.rdata for r in rrset])
        return [scnfile.Record(first.owner, first.ttl, rdtype, rdata=rd)
                for rd in rdatas] + [
                    scnfile.Record(first.owner, first.ttl, T.RRSIG, rdata=s)
                    for s in sigs]

    def sign(self, z, e, what, ttl, rdatas):
        """(rdatas, RRSIGs) of one RRset of zone z with the faults of the
        zone and of entry e that apply to it; what = (owner, the owner
        signed (a wildcard for an expansion), type)."""
        owner, sign_owner, rdtype = what
        faults = [f for f in z.decl.faults + e.faults
                  if f.applies(owner, rdtype)]
        kinds = {f.kind for f in faults}
        if "nosig" in kinds:
            return rdatas, []
        args = {f.kind: f.arg for f in faults}
        signer = self.zones[args["signer"]] if "signer" in args else z
        keys = signer.signing_keys(rdtype)
        if "unknown-key" in kinds:
            keys = [z.rogue()]
        ttl = args.get("origttl", ttl)
        times = dnskeys.validity(self.now(), kinds, args.get("expires"))
        if "times" in args:
            times = tuple((int(self.now()) + d) % 2**32
                          for d in args["times"])
        sigs = [dnskeys.sign(k, signer.apex, sign_owner, ttl, rdatas, times)
                for k in keys for _ in range(args.get("sigs", 1))]
        if "badsig" in kinds:
            sigs = [dnskeys.spoil_sig(s) for s in sigs]
        if "tamper" in kinds:
            rdatas = [dnskeys.tamper(r) or r for r in rdatas]
        return rdatas, sigs

    def denial(self, e, z, name, rdtype):
        """The signed proof records of zone z for name/rdtype (none
        when z is unsigned or a nodenial fault applies)."""
        if z is None or not z.decl.signed:
            return []
        if any(f.kind == "nodenial" and f.applies(name, rdtype)
               for f in z.decl.faults + e.faults):
            return []
        ttl = z.soa_minimum()
        out = []
        hashalg = [f.arg for f in z.decl.faults + e.faults
                   if f.kind == "nsec3hash" and f.applies(name, rdtype)]
        for owner, rdtype2, rd in proofs.proof(z, name, rdtype):
            if hashalg and rdtype2 == T.NSEC3:
                rd = rd.replace(algorithm=hashalg[0])
            rdatas, sigs = self.sign(z, e, (owner, owner, rdtype2), ttl, [rd])
            out += [scnfile.Record(owner, ttl, rdtype2, rdata=r)
                    for r in rdatas]
            out += [scnfile.Record(owner, ttl, T.RRSIG, rdata=s)
                    for s in sigs]
        return out


def glue(z, nss, e):
    """The addresses z holds for the NS targets nss, in additional."""
    for ns in nss:
        for rdtype in (T.A, T.AAAA):
            got = z.rrset(ns.target, rdtype)
            if got:
                put(e, "additional", ns.target, rdtype, *got)


def put(e, sec, owner, rdtype, ttl, rdatas):
    """Append an RRset to a section of entry e."""
    for rd in rdatas:
        e.sections[sec].append(scnfile.Record(owner, ttl, rdtype, rdata=rd))


def group(records):
    """records as RRsets (lists with one owner and type), in the order
    of their first record."""
    sets = {}
    for r in records:
        key = (r.owner.canonicalize(), r.rdtype, r.raw is not None)
        sets.setdefault(key, []).append(r)
    return list(sets.values())
