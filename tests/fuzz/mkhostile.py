#!/usr/bin/env python3
"""tests/fuzz/mkhostile.py: hostile seeds of the validate fuzz target
(tests/fuzz/fuzz_validate.c), made from its signed seeds (mkvalidate.py):
a reply keeps its valid records and signatures, and gains one record of
a DNSSEC type whose RDATA does not parse (issue 21 item 9). The iterator
must call such a reply bad and ask again; the good reply follows it in
the seed, so the resolution still ends as the original one did.

Usage (dnspython >= 2.3; Debian's /usr/bin/python3):
  mkhostile.py CORPUSDIR [WIREDIR]
      Read the seeds of CORPUSDIR (corpus/validate) and write the
      hostile-* seeds beside them; with WIREDIR (corpus/wire), write each
      hostile reply alone there too, as the wire target reads it.
"""

import struct
import sys

import dns.message
import dns.name
import dns.rdata
import dns.rdataclass
import dns.rdatatype
import dns.rrset

SIG_FIXED = "00010d0300000e10ffffffff000000001234"
CUT_SIGNER = "076578616d706c65"  # "example" and no more
# (name, seed, reply index, section, owner, type, RDATA hex)
CASES = [
    ("hostile-rrsig-answer", "answer", 4, "answer", "www.example.",
     "RRSIG", SIG_FIXED + CUT_SIGNER),
    ("hostile-rrsig-authority", "nxdomain-nsec", 4, "authority",
     "example.", "RRSIG", "002f0d0100000e10ffffffff000000001234"),
    ("hostile-dnskey-answer", "answer", 3, "answer", "example.",
     "DNSKEY", "010103"),
    ("hostile-ds-referral", "answer", 2, "authority", "example.", "DS",
     "30390d02" + "ab" * 31),
    ("hostile-ds-answer", "ds-query-nsec3", 6, "answer", "h.example.",
     "DS", "30390d00aa"),
    ("hostile-nsec-authority", "nxdomain-nsec", 4, "authority",
     "h.example.", "NSEC", "0161076578616d706c6500000140000140"),
    ("hostile-nsec3-authority", "nxdomain-nsec3", 6, "authority",
     "d1b8ebl6avadi23bmagkahpnvq1leo4a.h.example.", "NSEC3",
     "01000000ff00"),
    ("hostile-nsec3-nohash", "nxdomain-nsec3", 6, "authority",
     "d1b8ebl6avadi23bmagkahpnvq1leo4a.h.example.", "NSEC3",
     "010000000000"),
]


def read_seed(path):
    """The header byte and the replies of a seed."""
    data = open(path, "rb").read()
    pos, replies = 1, []
    while pos + 2 <= len(data):
        (n,) = struct.unpack("!H", data[pos:pos + 2])
        replies.append(data[pos + 2:pos + 2 + n])
        pos += 2 + n
    return data[0], replies


def with_record(wire, section, owner, rdtype, hexdata):
    """The reply wire with one more record (RDATA as given, unchecked)."""
    msg = dns.message.from_wire(wire)
    rdt = dns.rdatatype.from_text(rdtype)
    rd = dns.rdata.GenericRdata(dns.rdataclass.IN, rdt,
                                bytes.fromhex(hexdata))
    rrs = dns.rrset.RRset(dns.name.from_text(owner), dns.rdataclass.IN, rdt)
    rrs.ttl = 3600
    rrs.add(rd)
    getattr(msg, section).append(rrs)
    return msg.to_wire()


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    out = sys.argv[1].rstrip("/")
    wire = sys.argv[2].rstrip("/") if len(sys.argv) == 3 else None
    for name, seed, k, section, owner, rdtype, hexdata in CASES:
        head, replies = read_seed("%s/%s" % (out, seed))
        bad = with_record(replies[k], section, owner, rdtype, hexdata)
        seq = replies[:k] + [bad] + replies[k:]
        blob = bytes([head]) + b"".join(struct.pack("!H", len(r)) + r
                                        for r in seq)
        with open("%s/%s" % (out, name), "wb") as f:
            f.write(blob)
        if wire is not None:
            with open("%s/%s" % (wire, name), "wb") as f:
                f.write(bad)
        print("%s: reply %d of %s + %s %s" % (name, k, seed, section, rdtype))


if __name__ == "__main__":
    main()
