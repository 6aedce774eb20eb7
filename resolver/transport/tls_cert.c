/*
 * resolver/transport/tls_cert.c - the server side's certificate and key
 * (see tls.h): checked before a context is made of them, so that a bad
 * pair is refused with its reason and the leaf's expiry is known.
 */
#include "tls.h"

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* No passphrase is ever asked for (a daemon has no terminal). */
static int tls_no_pass(char *buf, int size, int rw, void *arg)
{
	(void)buf;
	(void)size;
	(void)rw;
	(void)arg;
	return 0;
}

/* A failure's reason: what, then libssl's reason if it has one. */
static int tls_cert_why(char *why, size_t cap, const char *what)
{
	unsigned long e = ERR_peek_last_error();
	const char *r = e != 0 ? ERR_reason_error_string(e) : NULL;

	snprintf(why, cap, "%s%s%s", what, r != NULL ? ": " : "",
	         r != NULL ? r : "");
	ERR_clear_error();
	return TLS_ECERT;
}

/* The leaf's key against the private key in a PEM file. */
static int tls_key_check(X509 *leaf, const char *key, char *why, size_t cap)
{
	BIO *b = BIO_new_file(key, "r");
	EVP_PKEY *pk = NULL;
	int rc = TLS_OK;

	if (b == NULL)
		return tls_cert_why(why, cap, "private key not readable");
	pk = PEM_read_bio_PrivateKey(b, NULL, tls_no_pass, NULL);
	BIO_free(b);
	if (pk == NULL)
		return tls_cert_why(why, cap,
		                    "no private key (PEM, unencrypted) read");
	if (X509_check_private_key(leaf, pk) != 1)
		rc = tls_cert_why(why, cap,
		                  "the private key does not match the "
		                  "certificate");
	EVP_PKEY_free(pk);
	return rc;
}

int tls_cert_check(const char *chain, const char *key, int64_t *not_after,
                   char *why, size_t whylen)
{
	SSL_CTX *x;
	X509 *leaf;
	struct tm tm;
	int rc;

	if (chain == NULL || key == NULL || why == NULL || whylen == 0)
		return TLS_EINVAL;
	why[0] = '\0';
	if ((x = SSL_CTX_new(TLS_server_method())) == NULL)
		return TLS_ENOMEM;
	if (SSL_CTX_use_certificate_chain_file(x, chain) != 1 ||
	    (leaf = SSL_CTX_get0_certificate(x)) == NULL) {
		rc = tls_cert_why(why, whylen,
		                  "no certificate chain (PEM) read");
	} else if ((rc = tls_key_check(leaf, key, why, whylen)) == TLS_OK &&
	           not_after != NULL) {
		memset(&tm, 0, sizeof tm);
		*not_after = ASN1_TIME_to_tm(X509_get0_notAfter(leaf), &tm) ==
		                             1 ?
		                     (int64_t)timegm(&tm) :
		                     0;
	}
	SSL_CTX_free(x);
	ERR_clear_error();
	return rc;
}

int tls_ctx_serve(struct tls_ctx **out, const char *chain, const char *key,
                  char *why, size_t whylen)
{
	int rc = tls_cert_check(chain, key, NULL, why, whylen);

	if (rc != TLS_OK)
		return rc;
	if ((rc = tls_ctx_server(out, chain, key)) != TLS_OK) {
		snprintf(why, whylen, "%s", tls_strerror(rc));
		return rc;
	}
	SSL_CTX_set_default_passwd_cb(tls_ctx_libssl(*out), tls_no_pass);
	SSL_CTX_set_options(tls_ctx_libssl(*out),
	                    SSL_OP_NO_RENEGOTIATION |
	                            SSL_OP_CIPHER_SERVER_PREFERENCE);
	return TLS_OK;
}
