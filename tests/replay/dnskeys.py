"""tests/replay/dnskeys.py: the keys and signatures of the signed zones
of a scenario (tests/replay/README, "Zones and DNSSEC"). Keys are made
at play time with python3-cryptography; DNSKEY and DS records come from
dnspython's dns.dnssec (make_dnskey, make_ds), RRSIGs from sign() here
(dnspython 2.3's sign() gives a wildcard owner's RRSIG the label count
of the "*" name, so it cannot sign an expansion). An algorithm this
module cannot sign with (3 DSA, 12 GOST, 253 PRIVATEDNS...) gets a
DNSKEY of random bytes and RRSIGs of random bytes: a validator that
does not implement it must treat the zone as insecure without looking
at the signature.
"""

import os
import struct

import dns.dnssec
import dns.rdata
import dns.rdataclass
import dns.rdatatype
from dns.rdtypes.ANY.DNSKEY import DNSKEY
from dns.rdtypes.ANY.DS import DS
from dns.rdtypes.ANY.RRSIG import RRSIG

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, ed448, rsa
from cryptography.hazmat.primitives.asymmetric import padding
from cryptography.hazmat.primitives.asymmetric.utils import \
    decode_dss_signature

RSA_BITS = 2048
RSA_EXPONENT = 65537
RSA_ALGS = (5, 7, 8, 10)
FLAGS_ZSK = 256
FLAGS_KSK = 257
PROTOCOL = 3
FAKE_KEY_BYTES = 64
FAKE_DIGEST_BYTES = {1: 20, 2: 32, 3: 32, 4: 48}
SIG_BEFORE_SECS = 3600
SIG_AFTER_SECS = 30 * 86400
FAULT_DAY_SECS = 86400
DIGEST_NAMES = {1: "SHA1", 2: "SHA256", 4: "SHA384"}
RSA_HASHES = {5: hashes.SHA1, 7: hashes.SHA1, 8: hashes.SHA256,
              10: hashes.SHA512}
ECDSA_HASHES = {13: (hashes.SHA256, 32), 14: (hashes.SHA384, 48)}


def new_private(alg):
    """A private key for DNSSEC algorithm alg, or None (cannot sign)."""
    if alg in RSA_ALGS:
        return rsa.generate_private_key(RSA_EXPONENT, RSA_BITS)
    if alg == 13:
        return ec.generate_private_key(ec.SECP256R1())
    if alg == 14:
        return ec.generate_private_key(ec.SECP384R1())
    if alg == 15:
        return ed25519.Ed25519PrivateKey.generate()
    if alg == 16:
        return ed448.Ed448PrivateKey.generate()
    return None


class Key:
    """One key of a zone: its role (ksk or zsk), its DNSKEY rdata and
    what the scenario lets it do: be published in the DNSKEY RRset,
    be named by a DS in the parent, sign."""

    def __init__(self, name, role, alg, opts=()):
        self.name, self.role, self.alg = name, role, alg
        self.publish = "nopublish" not in opts
        self.in_ds = role == "ksk" and "nods" not in opts
        self.signs = "nosign" not in opts
        self.windows = {o[0]: o[1] for o in opts if isinstance(o, tuple)}
        self.private = new_private(alg)
        flags = FLAGS_KSK if role == "ksk" else FLAGS_ZSK
        if self.private is None:
            self.dnskey = DNSKEY(dns.rdataclass.IN, dns.rdatatype.DNSKEY,
                                 flags, PROTOCOL, alg,
                                 os.urandom(FAKE_KEY_BYTES))
        else:
            self.dnskey = dns.dnssec.make_dnskey(self.private.public_key(),
                                                 alg, flags=flags)
        self.tag = dns.dnssec.key_id(self.dnskey)

    def window(self, what):
        """(from, to) in scenario seconds while the key is published,
        named by the DS or signs (what); a side None is open."""
        return self.windows.get(what, (None, None))

    def signs_at(self, clock):
        """Whether the key signs at scenario time clock."""
        return self.signs and within(self.window("sign"), clock)

    def ds(self, owner, digest):
        """This key's DS rdata (digest type digest) for zone owner;
        random bytes for a digest dnspython does not make (3 GOST)."""
        if digest in DIGEST_NAMES:
            return dns.dnssec.make_ds(owner, self.dnskey,
                                      DIGEST_NAMES[digest],
                                      policy=dns.dnssec.allow_all_policy)
        return DS(dns.rdataclass.IN, dns.rdatatype.DS, self.tag, self.alg,
                  digest, os.urandom(FAKE_DIGEST_BYTES.get(digest, 32)))


def within(window, clock):
    """Whether clock is inside window (from, to), sides None open."""
    lo, hi = window
    return (lo is None or clock >= lo) and (hi is None or clock <= hi)


def spoil_ds(ds):
    """The same DS with its digest changed: it names no key."""
    digest = bytes([ds.digest[0] ^ 0xFF]) + ds.digest[1:]
    return DS(dns.rdataclass.IN, dns.rdatatype.DS, ds.key_tag, ds.algorithm,
              ds.digest_type, digest)


def validity(now, faults, expires=None):
    """(inception, expiration) of a signature made at now: an hour
    before to thirty days after (or expires seconds after), or in the
    past (expired) or the future (notyet) when the faults say so."""
    if expires is not None:
        return now - SIG_BEFORE_SECS, now + expires
    if "expired" in faults:
        return now - SIG_AFTER_SECS, now - FAULT_DAY_SECS
    if "notyet" in faults:
        return now + FAULT_DAY_SECS, now + SIG_AFTER_SECS
    return now - SIG_BEFORE_SECS, now + SIG_AFTER_SECS


def sign(key, signer, sign_owner, ttl, rdatas, times):
    """An RRSIG by key (zone signer) over rdatas at sign_owner with
    original TTL ttl; for a
    wildcard owner (an answer expanded from it) the label count leaves
    out the "*" (RFC 4034 section 3.1.3) and the signed owner is the
    wildcard (section 3.1.8.1)."""
    inception, expiration = int(times[0]), int(times[1])
    labels = len(sign_owner) - 1 - (1 if sign_owner.is_wild() else 0)
    sig = RRSIG(dns.rdataclass.IN, dns.rdatatype.RRSIG, rdatas[0].rdtype,
                key.alg, labels, ttl, expiration, inception, key.tag,
                signer, b"")
    if key.private is None:
        return sig.replace(signature=os.urandom(FAKE_KEY_BYTES))
    data = sig.to_digestable()
    head = sign_owner.canonicalize().to_wire() + struct.pack(
        "!HHI", rdatas[0].rdtype, dns.rdataclass.IN, ttl)
    for wire in sorted(r.to_digestable() for r in rdatas):
        data += head + struct.pack("!H", len(wire)) + wire
    return sig.replace(signature=raw_sign(key, data))


def raw_sign(key, data):
    """The signature of data by key in DNSSEC's form (RFC 3110, RFC
    6605 section 4: r and s, RFC 8080)."""
    if key.alg in RSA_HASHES:
        return key.private.sign(data, padding.PKCS1v15(),
                                RSA_HASHES[key.alg]())
    if key.alg in ECDSA_HASHES:
        algo, size = ECDSA_HASHES[key.alg]
        r, s = decode_dss_signature(key.private.sign(data,
                                                     ec.ECDSA(algo())))
        return r.to_bytes(size, "big") + s.to_bytes(size, "big")
    return key.private.sign(data)


def tamper(rdata):
    """rdata with one bit of its wire form changed (the last byte); an
    rdata that no longer parses is left as it was and None returned."""
    wire = bytearray(rdata.to_digestable())
    wire[-1] ^= 0x01
    try:
        return dns.rdata.from_wire(dns.rdataclass.IN, rdata.rdtype,
                                   bytes(wire), 0, len(wire))
    except Exception:  # pylint: disable=broad-except
        return None


def spoil_sig(sig):
    """The RRSIG with one bit of its signature changed."""
    data = bytes([sig.signature[0] ^ 0x01]) + sig.signature[1:]
    return sig.replace(signature=data)


def tagmates(dnskey, count):
    """count DNSKEY rdatas with the key tag, flags and algorithm of
    dnskey but other public keys (RFC 4034 Appendix B sums the bytes of
    even and of odd offsets apart: two unequal bytes two apart swapped
    keep the tag); none verifies what dnskey signed."""
    key, out = dnskey.key, []
    at = len(key) // 4 - 1  # inside an RSA modulus, past its exponent
    while len(out) < count:
        at += 1
        if at + 2 >= len(key):
            raise ValueError("no more keys with tag %d" % key_tag(dnskey))
        if key[at] == key[at + 2]:
            continue
        mate = bytearray(key)
        mate[at], mate[at + 2] = key[at + 2], key[at]
        out.append(dnskey.replace(key=bytes(mate)))
    return out


def key_tag(dnskey):
    """The key tag of a DNSKEY rdata."""
    return dns.dnssec.key_id(dnskey)
