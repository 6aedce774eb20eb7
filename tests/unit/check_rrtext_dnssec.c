/*
 * tests/unit/check_rrtext_dnssec.c - Suite "rrtext_dnssec": the DNSSEC
 * types in presentation format (resolver/wire/rrtext_dnssec.c) and read
 * back from the cache file (resolver/store/cachefile_dnssec.c). The
 * examples of RFC 4034 and RFC 5155 Appendix A (and edge cases) print
 * exactly as dig 9.18 prints them (the RDATA below was made by a separate
 * encoder, the text is dig's output for it); malformed RDATA prints in
 * the RFC 3597 generic form; RRSIG times; every printed record reads back
 * byte for byte; dump_cache and load_cache of signed entries, and dumps
 * from before (RFC 3597 forms) still load.
 */
#include "control_test.h"

#include <stdio.h>

#include "store/cachefile.h"
#include "wire/rrtext.h"

#define HEADER "; curvecache-dump version=1 time=1700000000\n"
/** Bytes of dig's hex groups ("\#" data, DS digests). */
#define HEX_GROUP 28

static size_t unhex(const char *h, uint8_t *out, size_t cap)
{
	size_t n = 0;
	unsigned v;

	while (h[0] != '\0' && h[1] != '\0') {
		ck_assert_uint_lt(n, cap);
		ck_assert_int_eq(sscanf(h, "%2x", &v), 1);
		out[n++] = (uint8_t)v;
		h += 2;
	}
	ck_assert(h[0] == '\0');
	return n;
}

/* The RDATA alone as rrtext prints it (static: valid until next call). */
static const char *render(uint16_t type, const uint8_t *rd, size_t n)
{
	static char out[RRTEXT_RDATA_MAX];
	struct wire_rr rr = { 0, 0, 300, type, WIRE_CLASS_IN, (uint16_t)n, 0 };

	ck_assert_int_eq(rrtext_rdata(out, sizeof out, NULL, rd, n, &rr),
	                 WIRE_OK);
	return out;
}

/* RDATA read from text by the cache file reader. */
static int parse(uint16_t type, const char *text, uint8_t *out, size_t cap,
                 size_t *len)
{
	return cachefile_rdata_parse(type, text, strlen(text), out, cap, len);
}

/* Printed and read back: the same bytes. */
static void roundtrip(uint16_t type, const uint8_t *rd, size_t n)
{
	static uint8_t back[WIRE_MSG_MAX];
	const char *text = render(type, rd, n);
	size_t len = 0;

	ck_assert_msg(parse(type, text, back, sizeof back, &len) ==
	                      CACHEFILE_OK,
	              "type %u: \"%s\" does not read back", (unsigned)type,
	              text);
	ck_assert_uint_eq(len, n);
	ck_assert(n == 0 || memcmp(back, rd, n) == 0);
}

/* The RFC 3597 form as dig prints it. */
static void generic(const uint8_t *rd, size_t n, char *out, size_t cap)
{
	size_t i, k = (size_t)snprintf(out, cap, "\\# %zu", n);

	for (i = 0; i < n; i++)
		k += (size_t)snprintf(out + k, cap - k, "%s%02X",
		                      i % HEX_GROUP == 0 ? " " : "", rd[i]);
}

/* ------------------------------------------------------------------ */
/* Vectors                                                             */

struct vec {
	uint16_t type;
	const char *hex;
	const char *text; /**< dig 9.18's RDATA for hex */
};

/* RFC 4034 2.3, 3.3, 4.3, 5.4; RFC 5155 Appendix A; CDS and CDNSKEY
 * (RFC 7344); an NSEC3 with no salt and no types; every type dig knows
 * in one bitmap. */
static const struct vec vecs[] = {
	{ 48, /* example.com. */
	  "010003050103d22a6ca77f35b893206fd35e4c506d8378843709b97e"
	  "041647e1bff43d8d64c649af1e371973c9e891fce3df519a8c840a63"
	  "ee42a6d2ebddbb97035d215aa4e417b1fa45fa11a9741ea2098c1dfa"
	  "5fb5feb332fd4bc8152089aef36ba644cce2413b3b72be18cbef8da2"
	  "53f4e93d2103866d9234a2e28df529a67d5468dbefe3",
	  "256 3 5 AQPSKmynfzW4kyBv015MUG2DeIQ3Cbl+BBZH4b/0PY1kxkmv"
	  "HjcZc8no kfzj31GajIQKY+5CptLr3buXA10hWqTkF7H6RfoRqXQeogm"
	  "MHfpftf6z Mv1LyBUgia7za6ZEzOJBOztyvhjL742iU/TpPSEDhm2SNK"
	  "LijfUppn1U aNvv4w==" },
	{ 46, /* host.example.com. */
	  "00010503000151803e7c9dd73e5510d70a52076578616d706c650363"
	  "6f6d00a090755ba58d1affa576f4375831b4310920e481218d18a9f1"
	  "64eb3d81afd3b875d3c75428631e0cf2a28d50875f70c329d7dbfafe"
	  "a807dc1fba1dc34c95d401f23f334ce63bfcf3f1b5b44739e5f0eded"
	  "18d6b33f040a911376d173d757a9f0c1fa1798941bb0b36b2df90627"
	  "90fa7f0166f2737eea907378341fb12dc0a77a",
	  "A 5 3 86400 20030322173103 20030220173103 2642 example.c"
	  "om. oJB1W6WNGv+ldvQ3WDG0MQkg5IEhjRip8WTrPYGv07h108dUKGMe"
	  "DPKi jVCHX3DDKdfb+v6oB9wfuh3DTJXUAfI/M0zmO/zz8bW0Rznl8O3"
	  "tGNaz PwQKkRN20XPXV6nwwfoXmJQbsLNrLfkGJ5D6fwFm8nN+6pBzeD"
	  "QfsS3A p3o=" },
	{ 47, /* alfa.example.com. */
	  "04686f7374076578616d706c6503636f6d000006400100000003041b"
	  "000000000000000000000000000000000000000000000000000020",
	  "host.example.com. A MX RRSIG NSEC TYPE1234" },
	{ 43, /* dskey.example.com. */
	  "ec4505012bb183af5f22588179a53b0a98631fad1a292118",
	  "60485 5 1 2BB183AF5F22588179A53B0A98631FAD1A292118" },
	{ 50, /* 0p9mhaveqvm6t7vbl5lop2u3t2rp3tom.example. */
	  "0101000c04aabbccdd14174eb2409fe28bcb4887a1836f957f0a8425"
	  "e27b000722010000000290",
	  "1 1 12 AABBCCDD 2T7B4G4VSA5SMI47K61MV5BV1A22BOJR NS SOA "
	  "MX RRSIG DNSKEY NSEC3PARAM" },
	{ 51, /* example. */
	  "0100000c04aabbccdd", "1 0 12 AABBCCDD" },
	{ 51, /* example. */
	  "0100000000", "1 0 0 -" },
	{ 59, /* example. */
	  "00010d02000102030405060708090a0b0c0d0e0f1011121314151617"
	  "18191a1b1c1d1e1f",
	  "1 13 2 000102030405060708090A0B0C0D0E0F10111213141516171"
	  "8191A1B 1C1D1E1F" },
	{ 60, /* example. */
	  "0101030d000102030405060708090a0b0c0d0e0f1011121314151617"
	  "18191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f30313233"
	  "3435363738393a3b3c3d3e3f",
	  "257 3 13 AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISI"
	  "jJCUmJygp KissLS4vMDEyMzQ1Njc4OTo7PD0+Pw==" },
	{ 47, /* a.example. */
	  "0162076578616d706c65000006400000000003010180031d00000000"
	  "00000000000000000000000000000000000000000000000001ff2000"
	  "00000000000000000000000000000000000000000000000000000000"
	  "000001",
	  "b.example. A RRSIG NSEC URI TYPE999 TYPE65535" },
	{ 43, /* ds.example. */
	  "00010802000102030405060708090a0b0c0d0e0f1011121314151617"
	  "18191a1b1c1d1e1f",
	  "1 8 2 000102030405060708090A0B0C0D0E0F101112131415161718"
	  "191A1B 1C1D1E1F" },
	{ 50, /* 2t7b4g4vsa5smi47k61mv5bv1a22bojr.example. */
	  "010000000014174eb2409fe28bcb4887a1836f957f0a8425e27b",
	  "1 0 0 - 2T7B4G4VSA5SMI47K61MV5BV1A22BOJR" },
	{ 47, /* a.example. */
	  "0162076578616d706c650000207fffffffffffffffffffffffffffff"
	  "ffffffffffffffffffffffffffffffffff0106fffffffffff08001c0"
	  "ff200000000000000000000000000000000000000000000000000000"
	  "000000000002",
	  "b.example. A NS MD MF CNAME SOA MB MG MR NULL WKS PTR HI"
	  "NFO MINFO MX TXT RP AFSDB X25 ISDN RT NSAP NSAP-PTR SIG "
	  "KEY PX GPOS AAAA LOC NXT EID NIMLOC SRV ATMA NAPTR KX CE"
	  "RT A6 DNAME SINK OPT APL DS SSHFP IPSECKEY RRSIG NSEC DN"
	  "SKEY DHCID NSEC3 NSEC3PARAM TLSA SMIMEA TYPE54 HIP NINFO"
	  " RKEY TALINK CDS CDNSKEY OPENPGPKEY CSYNC ZONEMD SVCB HT"
	  "TPS DSYNC HHIT BRID TYPE69 TYPE70 TYPE71 TYPE72 TYPE73 T"
	  "YPE74 TYPE75 TYPE76 TYPE77 TYPE78 TYPE79 TYPE80 TYPE81 T"
	  "YPE82 TYPE83 TYPE84 TYPE85 TYPE86 TYPE87 TYPE88 TYPE89 T"
	  "YPE90 TYPE91 TYPE92 TYPE93 TYPE94 TYPE95 TYPE96 TYPE97 T"
	  "YPE98 SPF UINFO UID GID UNSPEC NID L32 L64 LP EUI48 EUI6"
	  "4 TYPE110 TYPE111 TYPE112 TYPE113 TYPE114 TYPE115 TYPE11"
	  "6 TYPE117 TYPE118 TYPE119 TYPE120 TYPE121 TYPE122 TYPE12"
	  "3 TYPE124 TYPE125 TYPE126 TYPE127 TYPE128 TYPE129 TYPE13"
	  "0 TYPE131 TYPE132 TYPE133 TYPE134 TYPE135 TYPE136 TYPE13"
	  "7 TYPE138 TYPE139 TYPE140 TYPE141 TYPE142 TYPE143 TYPE14"
	  "4 TYPE145 TYPE146 TYPE147 TYPE148 TYPE149 TYPE150 TYPE15"
	  "1 TYPE152 TYPE153 TYPE154 TYPE155 TYPE156 TYPE157 TYPE15"
	  "8 TYPE159 TYPE160 TYPE161 TYPE162 TYPE163 TYPE164 TYPE16"
	  "5 TYPE166 TYPE167 TYPE168 TYPE169 TYPE170 TYPE171 TYPE17"
	  "2 TYPE173 TYPE174 TYPE175 TYPE176 TYPE177 TYPE178 TYPE17"
	  "9 TYPE180 TYPE181 TYPE182 TYPE183 TYPE184 TYPE185 TYPE18"
	  "6 TYPE187 TYPE188 TYPE189 TYPE190 TYPE191 TYPE192 TYPE19"
	  "3 TYPE194 TYPE195 TYPE196 TYPE197 TYPE198 TYPE199 TYPE20"
	  "0 TYPE201 TYPE202 TYPE203 TYPE204 TYPE205 TYPE206 TYPE20"
	  "7 TYPE208 TYPE209 TYPE210 TYPE211 TYPE212 TYPE213 TYPE21"
	  "4 TYPE215 TYPE216 TYPE217 TYPE218 TYPE219 TYPE220 TYPE22"
	  "1 TYPE222 TYPE223 TYPE224 TYPE225 TYPE226 TYPE227 TYPE22"
	  "8 TYPE229 TYPE230 TYPE231 TYPE232 TYPE233 TYPE234 TYPE23"
	  "5 TYPE236 TYPE237 TYPE238 TYPE239 TYPE240 TYPE241 TYPE24"
	  "2 TYPE243 TYPE244 TYPE245 TYPE246 TYPE247 TYPE248 TKEY T"
	  "SIG IXFR AXFR MAILB MAILA ANY URI CAA AVC DOA AMTRELAY R"
	  "ESINFO WALLET TYPE263 TYPE264 TYPE265 TYPE266 TYPE267 TY"
	  "PE268 TYPE269 TYPE270 TYPE271 TYPE272 TYPE273 TYPE274 TY"
	  "PE275 TYPE276 TYPE277 TYPE278 TYPE279 TYPE280 TYPE281 TY"
	  "PE282 TYPE283 TYPE284 TYPE285 TYPE286 TYPE287 TYPE288 TY"
	  "PE289 TYPE290 TYPE291 TYPE292 TYPE293 TYPE294 TYPE295 TY"
	  "PE296 TYPE297 TYPE298 TYPE299 TA DLV TYPE65534" },
};

START_TEST(dig_vectors)
{
	uint8_t rd[1024];
	size_t n;

	n = unhex(vecs[_i].hex, rd, sizeof rd);
	ck_assert_str_eq(render(vecs[_i].type, rd, n), vecs[_i].text);
	roundtrip(vecs[_i].type, rd, n);
}
END_TEST

/* A whole line, dig's columns (RFC 4034 3.3). */
START_TEST(dig_line)
{
	static const uint8_t owner[] = "\004host\007example\003com";
	static char line[RRTEXT_LINE_MAX];
	uint8_t msg[512];
	struct wire_rr rr;
	size_t n = sizeof owner, rdlen;

	memcpy(msg, owner, n);
	rdlen = unhex(vecs[1].hex, msg + n + 10, sizeof msg - n - 10);
	memcpy(msg + n, "\000\056\000\001\000\001\121\200", 8);
	msg[n + 8] = (uint8_t)(rdlen >> 8);
	msg[n + 9] = (uint8_t)rdlen;
	memset(&rr, 0, sizeof rr);
	rr.owner = 0;
	rr.rdata = n + 10;
	rr.rdlen = (uint16_t)rdlen;
	rr.type = WIRE_TYPE_RRSIG;
	rr.rclass = WIRE_CLASS_IN;
	rr.ttl = 86400;
	ck_assert_int_eq(rrtext_rr(line, sizeof line, NULL, msg,
	                           n + 10 + rdlen, &rr),
	                 WIRE_OK);
	ck_assert_str_eq(
		line, "host.example.com.\t86400\tIN\tRRSIG\tA 5 3 86400 "
		      "20030322173103 20030220173103 2642 example.com. "
		      "oJB1W6WNGv+ldvQ3WDG0MQkg5IEhjRip8WTrPYGv07h108dUKGMe"
		      "DPKi jVCHX3DDKdfb+v6oB9wfuh3DTJXUAfI/M0zmO/zz8bW0Rznl"
		      "8O3tGNaz PwQKkRN20XPXV6nwwfoXmJQbsLNrLfkGJ5D6fwFm8nN+"
		      "6pBzeDQfsS3A p3o=");
	/* too small a buffer is an error, not a cut record */
	ck_assert_int_eq(rrtext_rr(line, 100, NULL, msg, n + 10 + rdlen, &rr),
	                 WIRE_ESPACE);
}
END_TEST

/* The RFCs' own text (other grouping, lowercase hex and base32hex, times
 * as seconds) reads as the same bytes. */
START_TEST(rfc_text)
{
	static const struct vec rfc[] = {
		{ WIRE_TYPE_DNSKEY, NULL,
		  "256 3 5 AQPSKmynfzW4kyBv015MUG2DeIQ3 "
		  "Cbl+BBZH4b/0PY1kxkmvHjcZc8no kfzj31GajIQKY+5CptLr3buXA10h "
		  "WqTkF7H6RfoRqXQeogmMHfpftf6z Mv1LyBUgia7za6ZEzOJBOztyvhjL "
		  "742iU/TpPSEDhm2SNKLijfUppn1U aNvv4w==" },
		{ WIRE_TYPE_RRSIG, NULL,
		  "a 5 3 86400 1048354263 20030220173103 2642 example.com. "
		  "oJB1W6WNGv+ldvQ3WDG0MQkg5IEhjRip8WTr "
		  "PYGv07h108dUKGMeDPKijVCHX3DDKdfb+v6o "
		  "B9wfuh3DTJXUAfI/M0zmO/zz8bW0Rznl8O3t "
		  "GNazPwQKkRN20XPXV6nwwfoXmJQbsLNrLfkG "
		  "J5D6fwFm8nN+6pBzeDQfsS3Ap3o=" },
		{ WIRE_TYPE_NSEC, NULL,
		  "host.example.com. A MX RRSIG NSEC TYPE1234 A" },
		{ WIRE_TYPE_DS, NULL,
		  "60485 5 1 2BB183AF5F22588179A53B0A 98631fad1a292118" },
		{ WIRE_TYPE_NSEC3, NULL,
		  "1 1 12 aabbccdd 2t7b4g4vsa5smi47k61mv5bv1a22bojr "
		  "MX DNSKEY NS SOA NSEC3PARAM RRSIG" },
		{ RRTEXT_TYPE_NSEC3PARAM, NULL, "1 0 12 aabbccdd" },
	};
	uint8_t want[1024], got[1024];
	size_t i, n, len;

	for (i = 0; i < sizeof rfc / sizeof rfc[0]; i++) {
		n = unhex(vecs[i].hex, want, sizeof want);
		ck_assert_uint_eq(vecs[i].type, rfc[i].type);
		ck_assert_msg(parse(rfc[i].type, rfc[i].text, got, sizeof got,
		                    &len) == CACHEFILE_OK,
		              "%s", rfc[i].text);
		ck_assert_uint_eq(len, n);
		ck_assert_mem_eq(got, want, n);
	}
}
END_TEST

/* ------------------------------------------------------------------ */
/* Malformed RDATA: the generic form                                   */

#define SIG_FIXED "00010503000151803e7c9dd73e5510d70a52"
#define NAME_EX "076578616d706c6500"
#define P0 "0100000000" /* NSEC3: SHA-1, no flags, 0 iterations, no salt */

static const struct vec malformed[] = {
	{ WIRE_TYPE_RRSIG, "0001050300015180", NULL },
	{ WIRE_TYPE_RRSIG, SIG_FIXED, NULL },
	{ WIRE_TYPE_RRSIG, SIG_FIXED "076578616d706c65", NULL },
	{ WIRE_TYPE_RRSIG, SIG_FIXED "c00c01", NULL },
	{ WIRE_TYPE_RRSIG, SIG_FIXED "00", NULL },
	{ WIRE_TYPE_RRSIG, SIG_FIXED NAME_EX, NULL },
	{ WIRE_TYPE_RRSIG, SIG_FIXED "40616100", NULL },
	{ WIRE_TYPE_DNSKEY, "01000305", NULL },
	{ WIRE_TYPE_DNSKEY, "010003", NULL },
	{ WIRE_TYPE_DNSKEY, "", NULL },
	{ RRTEXT_TYPE_CDNSKEY, "0101030d", NULL },
	{ WIRE_TYPE_DS, "ec450501", NULL },
	{ WIRE_TYPE_DS, "ec45", NULL },
	{ RRTEXT_TYPE_CDS, "", NULL },
	{ WIRE_TYPE_NSEC, NAME_EX, NULL },
	{ WIRE_TYPE_NSEC, "076578616d706c65", NULL },
	{ WIRE_TYPE_NSEC, "c00c000140", NULL },
	{ WIRE_TYPE_NSEC, NAME_EX "0000", NULL },
	{ WIRE_TYPE_NSEC,
	  NAME_EX "002140000000000000000000000000000000000000000000000000"
	          "0000000000000001",
	  NULL },
	{ WIRE_TYPE_NSEC, NAME_EX "010140000140", NULL },
	{ WIRE_TYPE_NSEC, NAME_EX "000140000140", NULL },
	{ WIRE_TYPE_NSEC, NAME_EX "00024000", NULL },
	{ WIRE_TYPE_NSEC, NAME_EX "000540", NULL },
	{ WIRE_TYPE_NSEC, NAME_EX "00014000", NULL },
	{ WIRE_TYPE_NSEC3, "01000000", NULL },
	{ WIRE_TYPE_NSEC3, P0, NULL },
	{ WIRE_TYPE_NSEC3, "0100000005aabb", NULL },
	{ WIRE_TYPE_NSEC3, P0 "00", NULL },
	{ WIRE_TYPE_NSEC3, P0 "14aabbccddeeff00112233", NULL },
	{ WIRE_TYPE_NSEC3, P0 "01aa0000", NULL },
	{ WIRE_TYPE_NSEC3, P0 "01aa00024000", NULL },
	{ RRTEXT_TYPE_NSEC3PARAM, "0100000000ff", NULL },
	{ RRTEXT_TYPE_NSEC3PARAM, "0100000004aabb", NULL },
	{ RRTEXT_TYPE_NSEC3PARAM, "01000000", NULL },
};

START_TEST(malformed_is_generic)
{
	char want[512];
	uint8_t rd[256];
	size_t n = unhex(malformed[_i].hex, rd, sizeof rd);

	generic(rd, n, want, sizeof want);
	ck_assert_str_eq(render(malformed[_i].type, rd, n), want);
	roundtrip(malformed[_i].type, rd, n);
}
END_TEST

/* The codec's check (wire_rdata_check, which makes an upstream reply
 * bad) refuses every malformed vector and passes every good one. */
START_TEST(malformed_fails_check)
{
	uint8_t rd[256];
	size_t n = unhex(malformed[_i].hex, rd, sizeof rd);

	ck_assert_int_eq(wire_rdata_check(malformed[_i].type, rd, n),
	                 WIRE_ERDATA);
}
END_TEST

START_TEST(vectors_pass_check)
{
	uint8_t rd[1024];
	size_t n = unhex(vecs[_i].hex, rd, sizeof rd);

	ck_assert_int_eq(wire_rdata_check(vecs[_i].type, rd, n), WIRE_OK);
}
END_TEST

/* The hostile cases of the replay scenarios (issue 21 item 9) and the DS
 * digest lengths dnspython holds a DS to. */
START_TEST(rdata_check_hostile)
{
	static const struct vec bad[] = {
		{ WIRE_TYPE_RRSIG,
		  "00010d0300000e10ffffffff000000001234"
		  "076578616d706c6503636f",
		  NULL },
		{ WIRE_TYPE_DNSKEY, "010103", NULL },
		{ WIRE_TYPE_NSEC3, "01000000ff00", NULL },
		{ WIRE_TYPE_DS, "30390d0200", NULL },   /* SHA-256, 1 byte */
		{ WIRE_TYPE_DS, "30390d01aabb", NULL }, /* SHA-1, 2 bytes */
		{ WIRE_TYPE_DS, "30390d00aa", NULL },   /* type 0 */
		{ 51, "0100000001", NULL },             /* salt cut short */
	};
	uint8_t rd[64];
	size_t i, n;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		n = unhex(bad[i].hex, rd, sizeof rd);
		ck_assert_int_eq(wire_rdata_check(bad[i].type, rd, n),
		                 WIRE_ERDATA);
	}
	/* an unknown digest type: any digest that is not empty */
	n = unhex("30390d09aa", rd, sizeof rd);
	ck_assert_int_eq(wire_rdata_check(WIRE_TYPE_DS, rd, n), WIRE_OK);
	/* the CDS delete request (RFC 8078 section 4) */
	n = unhex("0000000000", rd, sizeof rd);
	ck_assert_int_eq(wire_rdata_check(RRTEXT_TYPE_CDS, rd, n), WIRE_OK);
	/* other types pass whatever they hold */
	ck_assert_int_eq(wire_rdata_check(WIRE_TYPE_TXT, rd, 0), WIRE_OK);
}
END_TEST

/* An NSEC naming windows full windows of types: names up to
 * RRTEXT_BITMAP_TYPES_MAX types, the generic form beyond. */
static size_t full_nsec(uint8_t *rd, unsigned windows)
{
	size_t n = 0;
	unsigned w;

	rd[n++] = 0; /* next name: the root */
	for (w = 0; w < windows; w++) {
		rd[n++] = (uint8_t)w;
		rd[n++] = 32;
		memset(rd + n, 0xff, 32);
		n += 32;
	}
	return n;
}

START_TEST(bitmap_cap)
{
	uint8_t rd[1024];
	size_t n;

	n = full_nsec(rd, RRTEXT_BITMAP_TYPES_MAX / 256);
	ck_assert(strncmp(render(WIRE_TYPE_NSEC, rd, n), ". TYPE0 A NS ",
	                  13) == 0);
	roundtrip(WIRE_TYPE_NSEC, rd, n);
	n = full_nsec(rd, RRTEXT_BITMAP_TYPES_MAX / 256 + 1);
	ck_assert(strncmp(render(WIRE_TYPE_NSEC, rd, n), "\\# ", 3) == 0);
	roundtrip(WIRE_TYPE_NSEC, rd, n);
}
END_TEST

/* ------------------------------------------------------------------ */
/* RRSIG times                                                         */

struct tvec {
	const char *text;
	int rc;
	uint32_t v;
};

static const struct tvec times[] = {
	{ "20030322173103", WIRE_OK, 1048354263u },
	{ "19700101000000", WIRE_OK, 0 },
	{ "21060207062815", WIRE_OK, 0xffffffffu },
	{ "21060207062816", WIRE_OK, 0 }, /* modulo 2^32 */
	{ "19691231235959", WIRE_OK, 0xffffffffu },
	{ "19011213204552", WIRE_OK, 0x80000000u },
	{ "20000229120000", WIRE_OK, 951825600u },
	{ "21000301000000", WIRE_OK, 4107542400u },
	{ "1048354263", WIRE_OK, 1048354263u },
	{ "4294967295", WIRE_OK, 0xffffffffu },
	{ "0", WIRE_OK, 0 },
	{ "21000229000000", WIRE_ETEXT, 0 },
	{ "20030230000000", WIRE_ETEXT, 0 },
	{ "20031301000000", WIRE_ETEXT, 0 },
	{ "20030001000000", WIRE_ETEXT, 0 },
	{ "20030100000000", WIRE_ETEXT, 0 },
	{ "20030322240000", WIRE_ETEXT, 0 },
	{ "20030322236000", WIRE_ETEXT, 0 },
	{ "20030322235960", WIRE_ETEXT, 0 },
	{ "19001231235959", WIRE_ETEXT, 0 },
	{ "21070101000000", WIRE_ETEXT, 0 },
	{ "2003032217310x", WIRE_ETEXT, 0 },
	{ "4294967296", WIRE_ETEXT, 0 },
	{ "12345678901", WIRE_ETEXT, 0 },
	{ "", WIRE_ETEXT, 0 },
	{ "-1", WIRE_ETEXT, 0 },
	{ "+1", WIRE_ETEXT, 0 },
};

START_TEST(time_parse)
{
	uint32_t v = 7;
	size_t i;

	for (i = 0; i < sizeof times / sizeof times[0]; i++) {
		v = 7;
		ck_assert_msg(rrtext_time_parse(times[i].text,
		                                strlen(times[i].text),
		                                &v) == times[i].rc,
		              "%s", times[i].text);
		if (times[i].rc == WIRE_OK)
			ck_assert_msg(v == times[i].v, "%s: %lu",
			              times[i].text, (unsigned long)v);
	}
	/* nothing at or past n is read */
	ck_assert_int_eq(rrtext_time_parse("20030322173103999", 14, &v),
	                 WIRE_OK);
	ck_assert_uint_eq(v, 1048354263u);
	ck_assert_int_eq(rrtext_time_parse("200303221731", 4, &v), WIRE_OK);
	ck_assert_uint_eq(v, 2003);
	ck_assert_int_eq(rrtext_time_parse(NULL, 0, &v), WIRE_ETEXT);
}
END_TEST

static uint32_t prng(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/* Expiration v, inception ~v: printed as the RRSIG text's fields, the
 * dates of times[] where it has them, and read back. */
START_TEST(time_render)
{
	uint8_t rd[64];
	char want[16];
	const char *text;
	uint32_t s = 99, v;
	size_t i, k, n = unhex(SIG_FIXED NAME_EX "01", rd, sizeof rd);

	for (i = 0; i < 20000; i++) {
		v = i < 3 ? (uint32_t[]){ 0, 0xffffffffu, 951825600u }[i] :
		            prng(&s);
		rd[8] = (uint8_t)(v >> 24);
		rd[9] = (uint8_t)(v >> 16);
		rd[10] = (uint8_t)(v >> 8);
		rd[11] = (uint8_t)v;
		memcpy(rd + 12, rd + 8, 4);
		for (k = 12; k < 16; k++)
			rd[k] ^= 0xff;
		text = render(WIRE_TYPE_RRSIG, rd, n);
		if (i == 0)
			ck_assert_str_eq(text, "A 5 3 86400 19700101000000 "
			                       "21060207062815 2642 example. "
			                       "AQ==");
		if (i == 2) {
			snprintf(want, sizeof want, "%s ", times[6].text);
			ck_assert(strstr(text, want) != NULL);
		}
		roundtrip(WIRE_TYPE_RRSIG, rd, n);
	}
}
END_TEST

/* ------------------------------------------------------------------ */
/* Every printed record reads back                                     */

/* A name of 0-3 labels of any bytes. */
static size_t rand_name(uint32_t *s, uint8_t *p)
{
	size_t n = 0, k, len;

	for (k = prng(s) % 4; k > 0; k--) {
		len = 1 + prng(s) % 8;
		p[n++] = (uint8_t)len;
		while (len-- > 0)
			p[n++] = (uint8_t)prng(s);
	}
	p[n++] = 0;
	return n;
}

/* A type bitmap of 0-4 windows, mostly canonical. */
static size_t rand_bitmap(uint32_t *s, uint8_t *p)
{
	size_t n = 0, k, len, i;
	unsigned w = prng(s) % 3;

	for (k = prng(s) % 5; k > 0 && w < 256; k--) {
		len = 1 + prng(s) % 32;
		p[n++] = (uint8_t)w;
		p[n++] = (uint8_t)len;
		for (i = 0; i < len; i++)
			p[n++] = (uint8_t)(prng(s) & prng(s));
		if (prng(s) % 8 != 0)
			p[n - 1] |= 1;
		w += 1 + prng(s) % 90;
	}
	return n;
}

static void fill(uint32_t *s, uint8_t *p, size_t n)
{
	while (n-- > 0)
		*p++ = (uint8_t)prng(s);
}

/* 0 to max random bytes. */
static size_t rand_bytes(uint32_t *s, uint8_t *p, size_t max)
{
	size_t n = prng(s) % (max + 1);

	fill(s, p, n);
	return n;
}

/* The parameters and salt of NSEC3 and NSEC3PARAM. */
static size_t rand_nsec3_params(uint32_t *s, uint8_t *p)
{
	fill(s, p, 4);
	p[4] = (uint8_t)rand_bytes(s, p + 5, 12);
	return 5 + (size_t)p[4];
}

/* A record of a DNSSEC type, well formed most of the time. */
static size_t rand_rdata(uint32_t *s, uint16_t type, uint8_t *p)
{
	size_t n;

	switch (type) {
	case WIRE_TYPE_RRSIG:
		fill(s, p, 18);
		n = 18 + rand_name(s, p + 18);
		return n + rand_bytes(s, p + n, 90);
	case WIRE_TYPE_NSEC:
		n = rand_name(s, p);
		return n + rand_bitmap(s, p + n);
	case RRTEXT_TYPE_NSEC3PARAM: return rand_nsec3_params(s, p);
	case WIRE_TYPE_NSEC3:
		n = rand_nsec3_params(s, p);
		p[n] = (uint8_t)rand_bytes(s, p + n + 1, 40);
		n += 1 + (size_t)p[n];
		return n + rand_bitmap(s, p + n);
	default: /* DS, DNSKEY, CDS, CDNSKEY */
		fill(s, p, 4);
		return 4 + rand_bytes(s, p + 4, 70);
	}
}

START_TEST(every_print_reads_back)
{
	static const uint16_t types[] = {
		WIRE_TYPE_RRSIG,     WIRE_TYPE_NSEC,         WIRE_TYPE_NSEC3,
		WIRE_TYPE_DS,        WIRE_TYPE_DNSKEY,       RRTEXT_TYPE_CDS,
		RRTEXT_TYPE_CDNSKEY, RRTEXT_TYPE_NSEC3PARAM,
	};
	uint8_t rd[2048];
	uint32_t s = 4242;
	size_t i, n, shown = 0;
	uint16_t type;

	for (i = 0; i < 40000; i++) {
		type = types[i % (sizeof types / sizeof types[0])];
		n = rand_rdata(&s, type, rd);
		if (prng(&s) % 8 == 0 && n > 0)
			rd[prng(&s) % n] = (uint8_t)prng(&s); /* damage */
		if (prng(&s) % 16 == 0 && n > 0)
			n = prng(&s) % n; /* cut */
		if (strncmp(render(type, rd, n), "\\# ", 3) != 0)
			shown++;
		roundtrip(type, rd, n);
	}
	/* most are printed in their own form, not all generic */
	ck_assert_uint_gt(shown, i / 2);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Text the reader refuses                                             */

#define SIG_HEAD "A 5 3 86400 20030322173103 20030220173103 2642 example. "
#define HASH "2T7B4G4VSA5SMI47K61MV5BV1A22BOJR"

static const struct vec bad_text[] = {
	{ WIRE_TYPE_RRSIG, NULL, SIG_HEAD },
	{ WIRE_TYPE_RRSIG, NULL, "FOO 5 3 86400 0 0 1 . AQ==" },
	{ WIRE_TYPE_RRSIG, NULL, "A 256 3 86400 0 0 1 . AQ==" },
	{ WIRE_TYPE_RRSIG, NULL, "A 5 3 4294967296 0 0 1 . AQ==" },
	{ WIRE_TYPE_RRSIG, NULL, "A 5 3 86400 20031322173103 0 1 . AQ==" },
	{ WIRE_TYPE_RRSIG, NULL, "A 5 3 86400 0 0 65536 . AQ==" },
	{ WIRE_TYPE_RRSIG, NULL, "A 5 3 86400 0 0 1 a..b. AQ==" },
	{ WIRE_TYPE_RRSIG, NULL, SIG_HEAD "AQI" },
	{ WIRE_TYPE_RRSIG, NULL, SIG_HEAD "A=B=" },
	{ WIRE_TYPE_RRSIG, NULL, SIG_HEAD "AQ=I" },
	{ WIRE_TYPE_RRSIG, NULL, SIG_HEAD "AR==" },
	{ WIRE_TYPE_RRSIG, NULL, SIG_HEAD "AQ== AQ==" },
	{ WIRE_TYPE_RRSIG, NULL, SIG_HEAD "====" },
	{ WIRE_TYPE_RRSIG, NULL, SIG_HEAD "\"AQ==\"" },
	{ WIRE_TYPE_RRSIG, NULL, SIG_HEAD "AQ-=" },
	{ WIRE_TYPE_DNSKEY, NULL, "256 3 5" },
	{ WIRE_TYPE_DNSKEY, NULL, "256 3 5 -" },
	{ WIRE_TYPE_DNSKEY, NULL, "65536 3 5 AQ==" },
	{ RRTEXT_TYPE_CDNSKEY, NULL, "256 3 AQ==" },
	{ WIRE_TYPE_DS, NULL, "60485 5 1" },
	{ WIRE_TYPE_DS, NULL, "60485 5 1 ABC" },
	{ WIRE_TYPE_DS, NULL, "60485 5 1 XY" },
	{ RRTEXT_TYPE_CDS, NULL, "60485 5 1 \"AB\"" },
	{ WIRE_TYPE_NSEC, NULL, "host.example." },
	{ WIRE_TYPE_NSEC, NULL, "host.example. A FOO" },
	{ WIRE_TYPE_NSEC, NULL, "host.example. TYPE65536" },
	{ WIRE_TYPE_NSEC, NULL, "" },
	{ WIRE_TYPE_NSEC, NULL, "\"x\" A" },
	{ WIRE_TYPE_NSEC3, NULL, "1 1 12 aabbccdd" },
	{ WIRE_TYPE_NSEC3, NULL, "1 1 12 abc " HASH },
	{ WIRE_TYPE_NSEC3, NULL, "1 1 12 zz " HASH },
	{ WIRE_TYPE_NSEC3, NULL, "1 1 12 \"aa\" " HASH },
	{ WIRE_TYPE_NSEC3, NULL, "1 1 12 - 01" },
	{ WIRE_TYPE_NSEC3, NULL, "1 1 12 - 0" },
	{ WIRE_TYPE_NSEC3, NULL, "1 1 12 - W0" },
	{ WIRE_TYPE_NSEC3, NULL, "1 1 12 - \"" HASH "\"" },
	{ WIRE_TYPE_NSEC3, NULL, "256 1 12 - " HASH },
	{ WIRE_TYPE_NSEC3, NULL, "1 1 65536 - " HASH },
	{ WIRE_TYPE_NSEC3, NULL, "1 1 12 - " HASH " A FOO" },
	{ RRTEXT_TYPE_NSEC3PARAM, NULL, "1 0 12" },
	{ RRTEXT_TYPE_NSEC3PARAM, NULL, "1 0 12 aabbccdd extra" },
	{ RRTEXT_TYPE_NSEC3PARAM, NULL, "1 0 12 \"aa\"" },
	{ RRTEXT_TYPE_NSEC3PARAM, NULL, "1 0 12 -a" },
};

START_TEST(reader_refuses)
{
	uint8_t out[1024];
	size_t n = 0;

	ck_assert_msg(parse(bad_text[_i].type, bad_text[_i].text, out,
	                    sizeof out, &n) != CACHEFILE_OK,
	              "type %u \"%s\" was read", (unsigned)bad_text[_i].type,
	              bad_text[_i].text);
}
END_TEST

/* Salts and hashes of more than 255 bytes are refused; 255 are read. */
START_TEST(reader_limits)
{
	static char text[1200];
	uint8_t out[1024];
	size_t n, k;

	k = (size_t)snprintf(text, sizeof text, "1 0 0 ");
	memset(text + k, 'a', 2 * 255);
	text[k + 2 * 255] = '\0';
	ck_assert_int_eq(parse(RRTEXT_TYPE_NSEC3PARAM, text, out, sizeof out,
	                       &n),
	                 CACHEFILE_OK);
	ck_assert_uint_eq(n, 5 + 255);
	strcat(text, "aa");
	ck_assert_int_eq(parse(RRTEXT_TYPE_NSEC3PARAM, text, out, sizeof out,
	                       &n),
	                 CACHEFILE_ERDATA);
	/* 408 base32hex digits hold 255 bytes, 410 hold 256 */
	k = (size_t)snprintf(text, sizeof text, "1 0 0 - ");
	memset(text + k, '0', 408);
	text[k + 408] = '\0';
	ck_assert_int_eq(parse(WIRE_TYPE_NSEC3, text, out, sizeof out, &n),
	                 CACHEFILE_OK);
	ck_assert_uint_eq(n, 5 + 1 + 255);
	strcat(text, "00");
	ck_assert_int_eq(parse(WIRE_TYPE_NSEC3, text, out, sizeof out, &n),
	                 CACHEFILE_ERDATA);
	/* a destination too small is an error, not a cut record */
	ck_assert_int_eq(parse(WIRE_TYPE_DNSKEY, "256 3 5 AQIDBA==", out, 6,
	                       &n),
	                 CACHEFILE_ERDATA);
	ck_assert_int_eq(parse(WIRE_TYPE_DNSKEY, "256 3 5 AQIDBA==", out, 8,
	                       &n),
	                 CACHEFILE_OK);
}
END_TEST

/* ------------------------------------------------------------------ */
/* dump_cache and load_cache                                           */

#define IN_DUMP(t, s) \
	ck_assert_msg(strstr((t), (s)) != NULL, "no \"%s\" in:\n%s", (s), (t))
#define NOT_IN_DUMP(t, s) \
	ck_assert_msg(strstr((t), (s)) == NULL, "\"%s\" in:\n%s", (s), (t))

static int put_out(void *arg, const char *text, size_t len)
{
	control_out_put(arg, text, len);
	return 0;
}

/* The dump of c, NUL-terminated (free it). */
static char *dump_of(struct cache *c)
{
	struct control_out o = { NULL, 0, 0, false };

	ck_assert_int_eq(cachefile_dump(c, CT_NOW, put_out, &o, NULL),
	                 CACHEFILE_OK);
	control_out_put(&o, "", 1);
	ck_assert(!o.full);
	return o.p;
}

/* Load text into c; the counts. */
static struct cachefile_load_counts load_into(struct cache *c,
                                              const char *text)
{
	struct cachefile_load_counts n;
	struct cachefile_load *ld = NULL;
	const char *p = text, *nl;

	ck_assert_int_eq(cachefile_load_new(c, CT_NOW, &ld), CACHEFILE_OK);
	for (; *p != '\0'; p = nl + 1) {
		nl = strchr(p, '\n');
		ck_assert(nl != NULL);
		ck_assert_int_eq(cachefile_load_line(ld, p, (size_t)(nl - p)),
		                 CACHEFILE_OK);
	}
	cachefile_load_finish(ld);
	cachefile_load_counts(ld, &n);
	cachefile_load_free(ld);
	return n;
}

static int by_text(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The lines of two dumps are the same, in any order (frees both). */
static void same_dump(char *a, char *b)
{
	char *la[32], *lb[32], *save;
	size_t na = 0, nb = 0, i;

	for (la[0] = strtok_r(a, "\n", &save); la[na] != NULL && na < 31;)
		la[++na] = strtok_r(NULL, "\n", &save);
	for (lb[0] = strtok_r(b, "\n", &save); lb[nb] != NULL && nb < 31;)
		lb[++nb] = strtok_r(NULL, "\n", &save);
	ck_assert_uint_eq(na, nb);
	qsort(la, na, sizeof la[0], by_text);
	qsort(lb, nb, sizeof lb[0], by_text);
	for (i = 0; i < na; i++)
		ck_assert_str_eq(la[i], lb[i]);
	free(a);
	free(b);
}

/* Entries with DNSSEC data; each %s is the RDATA of vecs[k], k from
 * signed_rdata[]: DNSKEY, DS and NSEC3PARAM RRsets, an RRSIG, an NSEC3
 * and an NSEC in the DNSSEC images of an RRset and of negative entries. */
static const char signed_fmt[] = HEADER
	"host.example.com.\t86400\tIN\tA\t192.0.2.1\t; rank=auth src=plain "
	"sec=secure\n"
	"host.example.com.\t86400\tIN\tRRSIG\t%s\t; dnssec\n"
	"example.com.\t86400\tIN\tDNSKEY\t%s\t; rank=auth src=plain "
	"sec=secure\n"
	"dskey.example.com.\t86400\tIN\tDS\t%s\t; rank=auth src=plain "
	"sec=secure\n"
	"example.\t3600\tIN\tNSEC3PARAM\t%s\t; rank=auth src=plain "
	"sec=insecure\n"
	"example.\t3600\tIN\tSOA\tns1.example. hostmaster.example. 1 3600 "
	"600 86400 300\t; nxdomain name=nx.example. rank=auth src=plain "
	"sec=secure\n"
	"0p9mhaveqvm6t7vbl5lop2u3t2rp3tom.example.\t3600\tIN\tNSEC3\t%s\t; "
	"dnssec\n"
	"example.com.\t3600\tIN\tSOA\tns1.example.com. "
	"hostmaster.example.com. "
	"1 3600 600 86400 300\t; nodata name=alfa.example.com. type=AAAA "
	"rank=auth src=plain sec=bogus\n"
	"alfa.example.com.\t3600\tIN\tNSEC\t%s\t; dnssec\n";
static const size_t signed_rdata[] = { 1, 0, 3, 5, 4, 2 };
#define SIGNED_ENTRIES 6

/* The signed text with each RDATA in dig's form, or in the RFC 3597
 * form that dumps had before (free it). */
static char *signed_text(bool old)
{
	char rd[6][1024];
	uint8_t b[1024];
	size_t i, n, cap = sizeof signed_fmt + sizeof rd;
	char *out = malloc(cap);

	ck_assert(out != NULL);
	for (i = 0; i < 6; i++) {
		n = unhex(vecs[signed_rdata[i]].hex, b, sizeof b);
		if (old)
			generic(b, n, rd[i], sizeof rd[i]);
		else
			snprintf(rd[i], sizeof rd[i], "%s",
			         vecs[signed_rdata[i]].text);
	}
	snprintf(out, cap, signed_fmt, rd[0], rd[1], rd[2], rd[3], rd[4],
	         rd[5]);
	return out;
}

/* The A RRset of host.example.com. with its image, as the cache gives
 * it to a DO query. */
static size_t signed_answer(struct cache *c, uint8_t *buf, size_t cap)
{
	uint8_t n[WIRE_NAME_MAX];
	struct cache_query q = { n, ct_name("host.example.com.", n),
		                 WIRE_TYPE_A, WIRE_CLASS_IN,
		                 CACHE_GET_DNSSEC };
	struct cache_answer ans;

	ck_assert_int_eq(cache_get(c, &q, CT_NOW + 1, &ans, buf, cap),
	                 CACHE_OK);
	ck_assert_int_eq(ans.sec, CACHE_SEC_SECURE);
	ck_assert_uint_eq(ans.dnssec_count, 1);
	return ans.len + ans.dnssec_len;
}

START_TEST(dump_load_signed)
{
	struct cache *c1 = ct_cache(), *c2 = ct_cache(), *c3 = ct_cache();
	struct cachefile_load_counts n;
	char *text = signed_text(false), *old = signed_text(true), *t1;
	uint8_t a1[2048], a3[2048];
	size_t l1, l3;

	n = load_into(c1, text);
	ck_assert_uint_eq(n.bad, 0);
	ck_assert_uint_eq(n.entries, SIGNED_ENTRIES);
	ck_assert_uint_eq(n.dnssec, 3);
	t1 = dump_of(c1);
	IN_DUMP(t1,
	        "\tRRSIG\tA 5 3 86400 20030322173103 20030220173103 2642 "
	        "example.com. oJB1W6WNGv+ldvQ3WDG0MQkg5IEhjRip8WTrPYGv07h108d"
	        "UKGMeDPKi jVCHX3DDKdfb+v6oB9wfuh3DTJXUAfI/M0zmO/zz8bW0Rznl8O"
	        "3tGNaz PwQKkRN20XPXV6nwwfoXmJQbsLNrLfkGJ5D6fwFm8nN+6pBzeDQfs"
	        "S3A p3o=\t; dnssec\n");
	IN_DUMP(t1,
	        "\tDNSKEY\t256 3 5 AQPSKmynfzW4kyBv015MUG2DeIQ3Cbl+BBZH4b/");
	IN_DUMP(t1,
	        "\tDS\t60485 5 1 2BB183AF5F22588179A53B0A98631FAD1A292118\t");
	IN_DUMP(t1, "\tNSEC3PARAM 1 0 12 AABBCCDD\t; rank=auth src=plain "
	            "sec=insecure\n");
	IN_DUMP(t1,
	        " NSEC3 1 1 12 AABBCCDD 2T7B4G4VSA5SMI47K61MV5BV1A22BOJR NS "
	        "SOA MX RRSIG DNSKEY NSEC3PARAM\t; dnssec\n");
	IN_DUMP(t1, "\tNSEC\thost.example.com. A MX RRSIG NSEC TYPE1234\t; "
	            "dnssec\n");
	NOT_IN_DUMP(t1, "\\#");
	/* dump_cache output loads back as it was */
	n = load_into(c2, t1);
	ck_assert_uint_eq(n.bad, 0);
	ck_assert_uint_eq(n.entries, SIGNED_ENTRIES);
	same_dump(dump_of(c2), t1);
	/* a dump from before, in "\#" forms, loads to the same cache */
	n = load_into(c3, old);
	ck_assert_uint_eq(n.bad, 0);
	ck_assert_uint_eq(n.entries, SIGNED_ENTRIES);
	same_dump(dump_of(c3), dump_of(c1));
	l1 = signed_answer(c1, a1, sizeof a1);
	l3 = signed_answer(c3, a3, sizeof a3);
	ck_assert_uint_eq(l1, l3);
	ck_assert_mem_eq(a1, a3, l1);
	free(text);
	free(old);
	cache_destroy(c1);
	cache_destroy(c2);
	cache_destroy(c3);
}
END_TEST

static Suite *rrtext_dnssec_suite(void)
{
	Suite *s = suite_create("rrtext_dnssec");
	TCase *tc;

	tc = tcase_create("vectors");
	tcase_add_loop_test(tc, dig_vectors, 0,
	                    (int)(sizeof vecs / sizeof vecs[0]));
	tcase_add_test(tc, dig_line);
	tcase_add_test(tc, rfc_text);
	tcase_add_test(tc, time_parse);
	tcase_add_test(tc, time_render);
	suite_add_tcase(s, tc);
	tc = tcase_create("reject");
	tcase_add_loop_test(tc, malformed_is_generic, 0,
	                    (int)(sizeof malformed / sizeof malformed[0]));
	tcase_add_test(tc, bitmap_cap);
	tcase_add_loop_test(tc, malformed_fails_check, 0,
	                    (int)(sizeof malformed / sizeof malformed[0]));
	tcase_add_loop_test(tc, vectors_pass_check, 0,
	                    (int)(sizeof vecs / sizeof vecs[0]));
	tcase_add_test(tc, rdata_check_hostile);
	tcase_add_loop_test(tc, reader_refuses, 0,
	                    (int)(sizeof bad_text / sizeof bad_text[0]));
	tcase_add_test(tc, reader_limits);
	suite_add_tcase(s, tc);
	tc = tcase_create("roundtrip");
	tcase_add_test(tc, every_print_reads_back);
	tcase_add_test(tc, dump_load_signed);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(rrtext_dnssec_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
