/*
 * tests/unit/dnssec_test.h - what the DNSSEC suite's files share: the
 * RFC example records (copied from the RFCs' text; dnspython's vectors
 * where noted), helpers that turn their presentation form into RDATA,
 * and one-record RRsets to verify.
 */
#ifndef CURVECACHE_TESTS_UNIT_DNSSEC_TEST_H
#define CURVECACHE_TESTS_UNIT_DNSSEC_TEST_H

#include <check.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "validate/dnssec.h"
#include "wire/wire.h"

/* RFC 4034 section 5.4 (and RFC 4509 section 2.3): the DNSKEY. */
#define DSKEY_KEY \
	"AQOeiiR0GOMYkDshWoSKz9XzfwJr1AYtsmx3TGkJaNXVbfi/" \
	"2pHm822aJ5iI9BMzNXxeYCmZDRD99WYwYqUSdjMmmAphXdvxegXd/M5+X7OrzKBa" \
	"MbCVdFLUUh6DhweJBjEVv5f2wwjM9XzcnOf+EPbtG9DMBmADjFDc2w/rljwvFw=="
/* RFC 5702 section 6.1 (RSA/SHA-256) and 6.2 (RSA/SHA-512). */
#define R5702_KEY8 \
	"AwEAAcFcGsaxxdgiuuGmCkVImy4h99CqT7jwY3pexPGcnUFtR2Fh36" \
	"BponcwtkZ4cAgtvd4Qs8PkxUdp6p/DlUmObdk="
#define R5702_SIG8 \
	"kRCOH6u7l0QGy9qpC9l1sLncJcOKFLJ7GhiUOibu4teYp5VE9Rnc" \
	"riShZNz85mwlMgNEacFYK/lPtPiVYP4bwg=="
#define R5702_KEY10 \
	"AwEAAdHoNTOW+et86KuJOWRDp1pndvwb6Y83nSVXXyLA3DLroROU" \
	"kN6X0O6pnWnjJQujX/AyhqFDxj13tOnD9u/1kTg7cV6rklMrZDtJCQ5PCl/D7QNPsgV" \
	"sMu1J2Q8gpMpztNFLpPBz1bWXjDtaR7ZQBlZ3PFY12ZTSncorffcGmhOL"
#define R5702_SIG10 \
	"tsb4wnjRUDnB1BUi+t6TMTXThjVnG+eCkWqjvvjhzQL1d0YRoOe0" \
	"CbxrVDYd0xDtsuJRaeUw1ep94PzEWzr0iGYgZBWm/zpq+9fOuagYJRfDqfReKBzMweO" \
	"LDiNa8iP5g9vMhpuv6OPlvpXwm9Sa9ZXIbNl1MBGk0fthPgxdDLw="
/* RFC 6605 section 6.1 (P-256) and 6.2 (P-384). */
#define R6605_KEY13 \
	"GojIhhXUN/u4v54ZQqGSnyhWJwaubCvTmeexv7bR6edbkrSqQpF6" \
	"4cYbcB7wNcP+e+MAnLr+Wi9xMWyQLc8NAA=="
#define R6605_SIG13 \
	"qx6wLYqmh+l9oCKTN6qIc+bw6ya+KJ8oMz0YP107epXAyGmt+3SN" \
	"ruPFKG7tZoLBLlUzGGus7ZwmwWep666VCw=="
#define R6605_KEY14 \
	"xKYaNhWdGOfJ+nPrL8/arkwf2EY3MDJ+SErKivBVSum1w/egsXvS" \
	"ADtNJhyem5RCOpgQ6K8X1DRSEkrbYQ+OB+v8/uX45NBwY8rp65F6Glur8I/" \
	"mlVNgF6W/" \
	"qTI37m40"
#define R6605_SIG14 \
	"/L5hDKIvGDyI1fcARX3z65qrmPsVz73QD1Mr5CEqOiLP95hxQouu" \
	"roGCeZOvzFaxsT8Glr74hbavRKayJNuydCuzWTSSPdz7wnqXL5bdcJzusdnI0RSMROx" \
	"xwGipWcJm"
/* RFC 8080 section 6.1 (Ed25519) and 6.2 (Ed448), as corrected by
 * erratum 4935. */
#define R8080_KEY15A "l02Woi0iS8Aa25FQkUd9RMzZHJpBoRQwAQEX1SxZJA4="
#define R8080_SIG15A \
	"oL9krJun7xfBOIWcGHi7mag5/hdZrKWw15jPGrHpjQeRAvTdsza" \
	"PD+QLs3fx8A4M3e23mRZ9VrbpMngwcrqNAg=="
#define R8080_KEY15B "zPnZ/QwEe7S8C5SPz2OfS5RR40ATk2/rYnE9xHIEijs="
#define R8080_SIG15B \
	"zXQ0bkYgQTEFyfLyi9QoiY6D8ZdYo4wyUhVioYZXFdT410QPRIT" \
	"QSqJSnzQoSm5poJ7gD7AQR0O7KuI5k2pcBg=="
#define R8080_KEY16A \
	"3kgROaDjrh0H2iuixWBrc8g2EpBBLCdGzHmn+G2MpTPhpj/OiBV" \
	"HHSfPodx1FYYUcJKm1MDpJtIA"
#define R8080_SIG16A \
	"3cPAHkmlnxcDHMyg7vFC34l0blBhuG1qpwLmjInI8w1CMB29FkE" \
	"AIJUA0amxWndkmnBZ6SKiwZSAxGILn/NBtOXft0+Gj7FSvOKxE/07+4RQvE581N3Aj/" \
	"J" \
	"tIyaiYVdnYtyMWbSNyGEY2213WKsJlwEA"
#define R8080_KEY16B \
	"kkreGWoccSDmUBGAe7+zsbG6ZAFQp+syPmYUurBRQc3tDjeMCJc" \
	"VMRDmgcNLp5HlHAMy12VoISsA"
#define R8080_SIG16B \
	"E1/oLjSGIbmLny/4fcgM1z4oL6aqo+izT3urCyHyvEp4Sp8Syg1" \
	"eI+lJ57CSnZqjJP41O/" \
	"9l4m0AsQ4f7qI1gVnML8vWWiyW2KXhT9kuAICUSxv5OWbf81R" \
	"q7Yu60npabODB0QFPb/rkW3kUZmQ0YQUA"

/* The RFC 5702 section 6.1 example, ready to verify or to spoil. */
#define DP_KEY \
	"AwEAAdSSghOGjU33IQZgwZM2Hh771VGXX05olJK49FxpSyuEAjDBXY58" \
	"LGU9R2Zgeecnk/b9EAhFu/vCV9oECtiTCvwuVAkt9YEweqYDluQInmgPNGMJCKdSLln" \
	"X93DkjDw8rMYv5dqXCuSGPlKChfTJOLQxIAxGloS7lL+c0CTZydAF"
#define DP_SIG \
	"sDUlltRlFTQw5ITFxOXW3TgmrHeMeNpdqcZ4EXxM9FHhIlte6V9YCnDw" \
	"t6dvM9jAXdIEi03l9H/RAd9xNNW6gvGMHsBGzpvvqFQxIBR2PoiZA1mX/SWHZFdbt4x" \
	"jYTtXqpyYvrMK0Dt7bUYPadyhPFCJ1B+I8Zi7B5WJEOd08vs="
#define WC_KEY \
	"AwEAAecNZbwD2thg3kaRLVqCC7ASP/3F79ZIu7pCu8HvZZ6ZdinffnxT" \
	"npNoVvavjouHKFYTtJyUZAfw3ZMJSsGvEerc7uh6Ex9TgvOJtWPGUtxBNnni2u9Nk+5" \
	"k6nJzMiS3sL3RLvrfZW5d2Bwbl9L5f9Ud+r2Dbm7EG3tYpMY5OE8f"
#define WC_SIG \
	"qevJYhdAHq1VmehXQ5i+Epa32xs4zcd4qmb39pHa3GUKr1V504nxzdzQ" \
	"gsT5mvDkRoY95+HAiysDON6DCDtZc69iBUIHWWuFo/OrcD2q/mWANG4xvyU28Pf0U1g" \
	"N6Gd5iapKC0Ya12flKh//NQiNN2skOQ2MoF2MW2/MaAK2HBc="

/* The SOA of dnspython.org: names in its RDATA are lowercased and, in a
 * message, expanded from compression pointers before signing. */
/* RRSIG RDATA in presentation order (times as YYYYMMDDHHmmSS or as
 * seconds). */
struct sigtext {
	unsigned type, alg, labels;
	uint32_t ttl;
	const char *exp, *inc;
	unsigned tag;
	const char *signer, *sig;
};

/* A one-record RRset whose RDATA stands alone. */
struct one {
	uint8_t owner[WIRE_NAME_MAX];
	uint8_t rdata[512];
	struct dnssec_rdata rd;
	struct dnssec_rrset set;
};

/* The RFC 5702 section 6.1 example, ready to verify or to spoil. */
struct ex {
	struct one o;
	uint8_t key[600], sig[600];
	size_t keylen, siglen;
	time_t now;
};

extern uint8_t scratch[DNSSEC_SIGNED_MAX];
extern const uint8_t a_91[4], a_1[4];

size_t tname(const char *text, uint8_t out[WIRE_NAME_MAX]);
size_t b64(const char *text, uint8_t *out, size_t cap);
size_t hex(const char *text, uint8_t *out);
uint32_t rtime(const char *text);
void put16(uint8_t *p, unsigned v);
void put32(uint8_t *p, uint32_t v);
size_t dnskey(uint8_t *out, unsigned flags, unsigned proto, unsigned alg,
              const char *key);
size_t rrsig(uint8_t *out, const struct sigtext *t);
void one_init(struct one *o, const char *owner, unsigned type,
              const uint8_t *rdata, size_t len);
int verify_one(const struct one *o, const char *zone, const uint8_t *sig,
               size_t siglen, const uint8_t *key, size_t keylen, time_t now);
void ex_5702(struct ex *e);
int ex_verify(const struct ex *e);

/* The rejection cases (check_dnssec_reject.c). */
TCase *dnssec_reject_tcase(void);
/* Whole sets and DNSKEY sets (check_dnssec_set.c). */
TCase *dnssec_set_tcase(void);
/* The memo of verified signatures (check_dnssec_memo.c). */
TCase *dnssec_memo_tcase(void);

#endif /* CURVECACHE_TESTS_UNIT_DNSSEC_TEST_H */
