/*
 * resolver/transport/tls_peer.c - the checks of a server's certificates
 * after a client handshake (tls_peer.h): an SPKI pin, or DANE.
 */
#include "tls_peer.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/x509.h>

#include "validate/tlsa.h"

/* Is the SHA-256 of a certificate's SubjectPublicKeyInfo the pin? */
static bool tls_pin_of(X509 *x, const uint8_t pin[TLS_PIN_BYTES])
{
	unsigned char *der = NULL;
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;
	int len = i2d_X509_PUBKEY(X509_get_X509_PUBKEY(x), &der);
	bool ok = false;

	if (len > 0 &&
	    EVP_Digest(der, (size_t)len, md, &mdlen, EVP_sha256(), NULL) == 1)
		ok = mdlen == TLS_PIN_BYTES &&
		     CRYPTO_memcmp(md, pin, TLS_PIN_BYTES) == 0;
	OPENSSL_free(der);
	return ok;
}

bool tls_peer_pin_ok(SSL *ssl, const uint8_t pin[TLS_PIN_BYTES],
                     bool leaf_only)
{
	X509 *leaf = SSL_get0_peer_certificate(ssl);
	STACK_OF(X509) *chain = SSL_get0_verified_chain(ssl);
	int i;

	if (leaf != NULL && tls_pin_of(leaf, pin))
		return true;
	/* no chain is verified on an opportunistic connection: only the
	 * leaf, whose key the handshake proved, may match */
	if (leaf_only)
		return false;
	for (i = 0; chain != NULL && i < sk_X509_num(chain); i++)
		if (tls_pin_of(sk_X509_value(chain, i), pin))
			return true;
	return false;
}

bool tls_peer_dane_ok(SSL *ssl, const struct tlsa_set *dane, const char *host)
{
	X509 *leaf = SSL_get0_peer_certificate(ssl);
	STACK_OF(X509) *sent = SSL_get_peer_cert_chain(ssl);
	unsigned char *der[TLSA_CHAIN_MAX] = { NULL };
	const uint8_t *in[TLSA_CHAIN_MAX];
	size_t len[TLSA_CHAIN_MAX], n = 0, i;
	bool ok = false;
	int k;

	if (leaf == NULL || dane == NULL)
		return false;
	if ((k = i2d_X509(leaf, &der[n])) > 0)
		len[n++] = (size_t)k;
	/* a client's chain starts with the leaf: the rest as sent */
	for (i = 0; n > 0 && n < TLSA_CHAIN_MAX && sent != NULL &&
	            i < (size_t)sk_X509_num(sent);
	     i++) {
		X509 *x = sk_X509_value(sent, (int)i);

		if (i == 0 && X509_cmp(x, leaf) == 0)
			continue;
		if ((k = i2d_X509(x, &der[n])) <= 0)
			break;
		len[n++] = (size_t)k;
	}
	for (i = 0; i < n; i++)
		in[i] = der[i];
	if (n > 0)
		ok = tlsa_set_check(dane, in, len, n, host) == 1;
	for (i = 0; i < n; i++)
		OPENSSL_free(der[i]);
	return ok;
}
