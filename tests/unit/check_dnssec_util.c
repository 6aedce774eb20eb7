/*
 * tests/unit/check_dnssec_util.c - helpers of the DNSSEC suite
 * (dnssec_test.h): presentation forms to RDATA, one-record RRsets.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "dnssec_test.h"

/* A wire name from text. */
size_t tname(const char *text, uint8_t out[WIRE_NAME_MAX])
{
	size_t len = 0;

	ck_assert_int_eq(wire_name_from_text(text, strlen(text), out, &len),
	                 WIRE_OK);
	return len;
}

/* Base64 (the RFCs' key and signature fields) to bytes. */
size_t b64(const char *text, uint8_t *out, size_t cap)
{
	size_t n = strlen(text), pad = 0;
	int len;

	ck_assert_uint_le(n / 4 * 3, cap);
	len = EVP_DecodeBlock(out, (const unsigned char *)text, (int)n);
	ck_assert_int_ge(len, 0);
	while (n > 0 && text[n - 1] == '=') {
		pad++;
		n--;
	}
	return (size_t)len - pad;
}

/* Hex to bytes. */
size_t hex(const char *text, uint8_t *out)
{
	size_t i, n = strlen(text) / 2;
	unsigned v;

	for (i = 0; i < n; i++) {
		ck_assert_int_eq(sscanf(text + 2 * i, "%2x", &v), 1);
		out[i] = (uint8_t)v;
	}
	return n;
}

/* YYYYMMDDHHmmSS (RFC 4034 section 3.2) to seconds. */
uint32_t rtime(const char *text)
{
	struct tm tm;

	memset(&tm, 0, sizeof tm);
	ck_assert_int_eq(sscanf(text, "%4d%2d%2d%2d%2d%2d", &tm.tm_year,
	                        &tm.tm_mon, &tm.tm_mday, &tm.tm_hour,
	                        &tm.tm_min, &tm.tm_sec),
	                 6);
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	return (uint32_t)timegm(&tm);
}

void put16(uint8_t *p, unsigned v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

void put32(uint8_t *p, uint32_t v)
{
	put16(p, v >> 16);
	put16(p + 2, v & 0xffffu);
}

/* DNSKEY RDATA: flags protocol algorithm base64-key. */
size_t dnskey(uint8_t *out, unsigned flags, unsigned proto, unsigned alg,
              const char *key)
{
	put16(out, flags);
	out[2] = (uint8_t)proto;
	out[3] = (uint8_t)alg;
	return 4 + b64(key, out + 4, 1024);
}

/* RRSIG RDATA: type alg labels ttl expiration inception tag signer sig. */
size_t rrsig(uint8_t *out, const struct sigtext *t)
{
	size_t n;

	put16(out, t->type);
	out[2] = (uint8_t)t->alg;
	out[3] = (uint8_t)t->labels;
	put32(out + 4, t->ttl);
	put32(out + 8, t->exp[0] >= '0' && strlen(t->exp) == 14 ?
	                       rtime(t->exp) :
	                       (uint32_t)strtoul(t->exp, NULL, 10));
	put32(out + 12, t->inc[0] >= '0' && strlen(t->inc) == 14 ?
	                        rtime(t->inc) :
	                        (uint32_t)strtoul(t->inc, NULL, 10));
	put16(out + 16, t->tag);
	n = tname(t->signer, out + 18);
	return 18 + n + b64(t->sig, out + 18 + n, 1024);
}

/* A one-record RRset whose RDATA stands alone. */
void one_init(struct one *o, const char *owner, unsigned type,
              const uint8_t *rdata, size_t len)
{
	memcpy(o->rdata, rdata, len);
	o->rd.msg = o->rdata;
	o->rd.msglen = len;
	o->rd.off = 0;
	o->rd.len = (uint16_t)len;
	o->set.ownerlen = tname(owner, o->owner);
	o->set.owner = o->owner;
	o->set.type = (uint16_t)type;
	o->set.rclass = WIRE_CLASS_IN;
	o->set.rd = &o->rd;
	o->set.count = 1;
}

uint8_t scratch[DNSSEC_SIGNED_MAX];

/* One RRSIG, one DNSKEY, one RRset of one record, verified at now. */
int verify_one(const struct one *o, const char *zone, const uint8_t *sig,
               size_t siglen, const uint8_t *key, size_t keylen, time_t now)
{
	uint8_t z[WIRE_NAME_MAX];
	size_t zl = tname(zone, z);

	return dnssec_rrset_verify(&o->set, sig, siglen, z, zl, key, keylen,
	                           now, scratch, sizeof scratch);
}

const uint8_t a_91[4] = { 192, 0, 2, 91 };
const uint8_t a_1[4] = { 192, 0, 2, 1 };

void ex_5702(struct ex *e)
{
	static const struct sigtext t = { 1,
		                          8,
		                          3,
		                          3600,
		                          "20300101000000",
		                          "20000101000000",
		                          9033,
		                          "example.net.",
		                          R5702_SIG8 };

	one_init(&e->o, "www.example.net.", 1, a_91, sizeof a_91);
	e->keylen = dnskey(e->key, 256, 3, 8, R5702_KEY8);
	e->siglen = rrsig(e->sig, &t);
	e->now = rtime("20000101000000");
}

int ex_verify(const struct ex *e)
{
	return verify_one(&e->o, "example.net.", e->sig, e->siglen, e->key,
	                  e->keylen, e->now);
}
