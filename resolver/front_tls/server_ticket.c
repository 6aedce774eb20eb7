/*
 * resolver/front_tls/server_ticket.c - the session-ticket keys of DoT and DoH
 * for clients (server_ticket.h): the ring's rules, the process's ring
 * behind a mutex (workers' threads issue and take tickets), libssl's
 * ticket-key callback (AES-256-CBC and HMAC-SHA256, as libssl's own
 * keys) and the workers' rotation timers.
 */
#include "server_ticket.h"

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/ssl.h>
#include <pthread.h>
#include <string.h>

#include "base/clock.h"
#include "base/log.h"
#include "front/server_int.h"
#include "transport/tls.h"

/** Bytes of the IV of AES-256-CBC. */
#define TICKET_IV 16
/** Milliseconds per second. */
#define TICKET_MS 1000u
/** The timer looks this many times per interval (a key encrypts for at
 *  most an interval and a look's delay). */
#define TICKET_LOOKS 8
/** Longest wait between looks, seconds. */
#define TICKET_LOOK_MAX 60

bool server_ticket_due(const struct server_ticket_ring *r, int64_t now)
{
	return r->n == 0 || now < r->key[0].born ||
	       now - r->key[0].born >= r->life;
}

void server_ticket_push(struct server_ticket_ring *r,
                        const struct server_ticket_key *k)
{
	OPENSSL_cleanse(&r->key[1], sizeof r->key[1]);
	if (r->n > 0)
		r->key[1] = r->key[0];
	r->key[0] = *k;
	r->n = r->n < 2 ? r->n + 1 : 2;
}

int server_ticket_find(const struct server_ticket_ring *r, const uint8_t *name,
                       int64_t now)
{
	unsigned i;

	for (i = 0; i < r->n; i++)
		if (CRYPTO_memcmp(r->key[i].name, name, SERVER_TICKET_NAME) ==
		            0 &&
		    now >= r->key[i].born &&
		    now - r->key[i].born < 2 * r->life)
			return (int)i;
	return -1;
}

/* ------------------------------------------------------------------ */
/* The process's keys                                                  */

static pthread_mutex_t ticket_lock = PTHREAD_MUTEX_INITIALIZER;
static struct server_ticket_ring ticket_ring = {
	.life = CFG_TICKET_ROTATE_DEFAULT
};

/* Rotate when due; with ticket_lock held. A key libssl cannot make
 * leaves the ring as it is (due again at the next look). */
static void ticket_rotate_locked(int64_t now)
{
	struct server_ticket_key k;

	if (!server_ticket_due(&ticket_ring, now))
		return;
	if (RAND_bytes(k.name, sizeof k.name) != 1 ||
	    RAND_bytes(k.aes, sizeof k.aes) != 1 ||
	    RAND_bytes(k.hmac, sizeof k.hmac) != 1) {
		log_warn("tls_ticket", "rotated=no why=no_random_bytes");
		return;
	}
	k.born = now;
	server_ticket_push(&ticket_ring, &k);
	OPENSSL_cleanse(&k, sizeof k);
	log_info("tls_ticket", "rotated=yes life=%lld",
	         (long long)ticket_ring.life);
}

void server_ticket_tick(int64_t now)
{
	pthread_mutex_lock(&ticket_lock);
	ticket_rotate_locked(now);
	pthread_mutex_unlock(&ticket_lock);
}

/* The key to encrypt with (at 0) or the one of a ticket's name: a copy,
 * wiped by the caller. @return as server_ticket_find. */
static int ticket_key(const uint8_t *name, bool enc,
                      struct server_ticket_key *out)
{
	int64_t now = (int64_t)clock_wall_s();
	int at;

	pthread_mutex_lock(&ticket_lock);
	ticket_rotate_locked(now);
	at = enc ? (ticket_ring.n > 0 ? 0 : -1) :
	           server_ticket_find(&ticket_ring, name, now);
	if (at >= 0)
		*out = ticket_ring.key[at];
	pthread_mutex_unlock(&ticket_lock);
	return at;
}

/* libssl's ticket-key callback: enc, the key, name and IV of a new
 * ticket (1, or 0 for no ticket); else the key of a ticket's name (1;
 * 2: the previous key, renew the ticket; 0: unknown or too old, a full
 * handshake). */
static int ticket_cb(SSL *ssl, unsigned char *name, unsigned char *iv,
                     EVP_CIPHER_CTX *cctx, EVP_MAC_CTX *hctx, int enc)
{
	static char digest[] = "SHA256";
	struct server_ticket_key k;
	OSSL_PARAM p[3];
	int at, ok;

	(void)ssl;
	if ((at = ticket_key(name, enc != 0, &k)) < 0)
		return 0;
	p[0] = OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_KEY, k.hmac,
	                                         sizeof k.hmac);
	p[1] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digest,
	                                        0);
	p[2] = OSSL_PARAM_construct_end();
	if (enc) {
		memcpy(name, k.name, SERVER_TICKET_NAME);
		ok = RAND_bytes(iv, TICKET_IV) == 1 &&
		     EVP_EncryptInit_ex(cctx, EVP_aes_256_cbc(), NULL, k.aes,
		                        iv) == 1;
	} else
		ok = EVP_DecryptInit_ex(cctx, EVP_aes_256_cbc(), NULL, k.aes,
		                        iv) == 1;
	ok = ok && EVP_MAC_CTX_set_params(hctx, p) == 1;
	OPENSSL_cleanse(&k, sizeof k);
	if (!ok)
		return -1;
	return enc || at == 0 ? 1 : 2;
}

int server_ticket_attach(struct tls_ctx *ctx, uint32_t life)
{
	SSL_CTX *x = tls_ctx_libssl(ctx);

	pthread_mutex_lock(&ticket_lock);
	ticket_ring.life = life > 0 ? life : CFG_TICKET_ROTATE_DEFAULT;
	pthread_mutex_unlock(&ticket_lock);
	/* libssl's own check of a session's age: two intervals, as ours */
	SSL_CTX_set_timeout(x, (long)(2 * (uint64_t)life));
	return SSL_CTX_set_tlsext_ticket_key_evp_cb(x, ticket_cb) == 1 ? 0 :
	                                                                 -1;
}

/* ------------------------------------------------------------------ */
/* The workers' timers                                                 */

static void ticket_timer_cb(uv_timer_t *t)
{
	(void)t;
	server_ticket_tick((int64_t)clock_wall_s());
}

void server_ticket_start(struct server *s, uint32_t life)
{
	uint64_t look;

	if (s->ticket_timer_open || s->stopping)
		return;
	if (uv_timer_init(s->loop, &s->ticket_timer) != 0)
		return;
	s->ticket_timer.data = s;
	uv_unref((uv_handle_t *)&s->ticket_timer);
	s->ticket_timer_open = true;
	look = life / TICKET_LOOKS;
	if (look == 0)
		look = 1;
	if (look > TICKET_LOOK_MAX)
		look = TICKET_LOOK_MAX;
	server_ticket_tick((int64_t)clock_wall_s());
	uv_timer_start(&s->ticket_timer, ticket_timer_cb, look * TICKET_MS,
	               look * TICKET_MS);
}

void server_ticket_stop(struct server *s)
{
	if (s->ticket_timer_open)
		uv_close((uv_handle_t *)&s->ticket_timer, NULL);
	s->ticket_timer_open = false;
}
