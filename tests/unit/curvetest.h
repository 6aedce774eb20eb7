/*
 * tests/unit/curvetest.h - shared by the files of the Check suite
 * "curve": the vector file reader (VECTORS_DIR/dnscurve.vec), the client
 * fixture with the vector key, and a test-side DNSCurve server written
 * with libsodium directly, so curve/ is checked by an independent opener.
 */
#ifndef CURVECACHE_TESTS_UNIT_CURVETEST_H
#define CURVECACHE_TESTS_UNIT_CURVETEST_H

#include <check.h>
#include <stddef.h>
#include <stdint.h>
#include "curve.h"
#include "internal.h"

#ifndef VECTORS_DIR
#define VECTORS_DIR SRCDIR "/tests/vectors"
#endif
#define VEC_FILE VECTORS_DIR "/dnscurve.vec"
#define VEC_MAX_LINES 256
#define BIG 70000
#define TMPL "/tmp/check_curve.XXXXXX"

/* The vector file, one record per line (comments dropped). */
extern char *vec_line[VEC_MAX_LINES];
extern size_t vec_count;
void vec_load(void);
size_t vec_fields(const char *line, char **field, size_t max, char *copy,
                  size_t cap);
size_t unhex(uint8_t *out, size_t cap, const char *hex);
size_t vec_bytes(const char *name, uint8_t *out, size_t cap);
void vec_key(const char *name, uint8_t k[CURVE_KEY_BYTES]);
void vec_serverkey(size_t idx, uint8_t pk[CURVE_KEY_BYTES]);
int status_of(const char *name);

/* Fixture: vc has the vector client key; spk/ssk the test server key;
 * cnonce the vector client nonce (built by hand); txq/txr the TXT query
 * and response vectors (txt_setup). */
extern struct curve_client *vc;
extern uint8_t spk[CURVE_KEY_BYTES], ssk[CURVE_SECRET_BYTES];
extern uint8_t cnonce[CURVE_NONCE_BYTES];
extern uint8_t txq[512], txr[1024];
extern size_t txql, txrl;
void vec_setup(void);
void txt_setup(void);
void vec_teardown(void);

/* The test-side server. */
void srv_box(const uint8_t cpk[CURVE_KEY_BYTES], const uint8_t *cn,
             const uint8_t *ext, const uint8_t *m, size_t mlen, uint8_t *box,
             const uint8_t *sk);
size_t srv_streamlined(const uint8_t cpk[CURVE_KEY_BYTES], const uint8_t *cn,
                       const uint8_t *ext, const uint8_t *m, size_t mlen,
                       uint8_t *out, const uint8_t *sk);
size_t srv_open_streamlined(const uint8_t *pkt, size_t len, uint8_t *m,
                            uint8_t cpk_out[CURVE_KEY_BYTES],
                            const uint8_t *sk);
size_t srv_open_txt(const uint8_t *q, size_t qlen, const char *zone_wire,
                    size_t zlen, uint8_t *m, uint8_t cn[CURVE_NONCE_BYTES],
                    uint8_t cpk[CURVE_KEY_BYTES], const uint8_t *sk);
size_t srv_txt(const uint8_t *q, size_t qlen,
               const uint8_t cpk[CURVE_KEY_BYTES], const uint8_t *cn,
               const uint8_t *ext, const uint8_t *m, size_t mlen, size_t chunk,
               int literal, uint8_t *out, const uint8_t *sk);

/* Small helpers. */
int untouched(const uint8_t *out, size_t len);
uint8_t *exact(const uint8_t *src, size_t len);
size_t wire_name(const char *text, uint8_t *out);
uint64_t counter_of(const uint8_t n[CURVE_NONCE_BYTES]);
/* Open with the fixture client; asserts out is untouched on failure. */
int open_sl(const uint8_t *pkt, size_t len, const uint8_t *key,
            const uint8_t *nonce);
int open_txt(const uint8_t *pkt, size_t len);

/* The TCases of each file. */
void check_curve_add_proto(Suite *s); /* vectors, reject */
void check_curve_add_keys(Suite *s);  /* nonce, sharedkey, keyfile */
void check_curve_add_txt(Suite *s);   /* txt, limits */

#endif /* CURVECACHE_TESTS_UNIT_CURVETEST_H */
