/*
 * resolver/front/proxy.h - PROXY protocol version 2 header parser.
 *
 * A load balancer (dnsdist with useProxyProtocol=true) puts a PROXY v2
 * header in front of every UDP datagram and at the start of every TCP
 * connection, telling the real client's address. Layout (haproxy's
 * proxy-protocol.txt, section 2.2):
 *
 *   12 bytes  signature \r\n\r\n\0\r\nQUIT\n
 *    1 byte   version (high nibble, must be 2) | command (0 LOCAL, 1 PROXY)
 *    1 byte   family (high nibble: 1 INET, 2 INET6) | protocol (1 STREAM,
 *             2 DGRAM)
 *    2 bytes  length of what follows (network order)
 *   INET:  src addr (4), dst addr (4), src port (2), dst port (2)
 *   INET6: src addr (16), dst addr (16), src port (2), dst port (2)
 *   then TLVs up to the length, which are skipped.
 *
 * A LOCAL header (health checks of the balancer itself) carries no
 * client: the caller keeps the real peer. Sans-I/O: (buf, len) in,
 * never reads past len.
 */
#ifndef CURVECACHE_RESOLVER_PROXY_H
#define CURVECACHE_RESOLVER_PROXY_H

#include "base/base.h"

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

/** Length of the fixed part: signature, version/command, family, length. */
#define PROXY_FIXED_LEN 16u
/** Address block length for INET (two addresses, two ports). */
#define PROXY_INET_LEN 12u
/** Address block length for INET6. */
#define PROXY_INET6_LEN 36u

/** Status codes. */
enum proxy_status {
	PROXY_OK = 0,
	PROXY_ESHORT,   /**< fewer than PROXY_FIXED_LEN bytes */
	PROXY_ESIG,     /**< not the PROXY v2 signature */
	PROXY_EVERSION, /**< version is not 2 */
	PROXY_ECOMMAND, /**< command is neither LOCAL nor PROXY */
	PROXY_EFAMILY,  /**< PROXY command with a family not INET/INET6 */
	PROXY_ELENGTH,  /**< announced length runs past the packet */
	PROXY_EADDR,    /**< address block shorter than the family needs */
	PROXY_ETOOBIG   /**< a stream's header longer than PROXY_STREAM_MAX */
};

/** Most bytes of a header read from a stream before TLS (fixed part,
 *  addresses and TLVs): haproxy's advice of 536 bytes, the least TCP
 *  MSS, with room for a balancer's TLVs. */
#define PROXY_STREAM_MAX 1024u

/** Describe a status code (a static string, never NULL). */
const char *proxy_strerror(int status);

/** Whether buf starts with the PROXY v2 signature (len may be short). */
int proxy_has_signature(const uint8_t *buf, size_t len);

/**
 * Parse a PROXY v2 header at the start of buf.
 * @param buf, len: the packet (or the first bytes of a TCP stream).
 * @param hdr_len: receives the header length (fixed part + announced
 *   length); the DNS message starts at buf + *hdr_len.
 * @param client: receives the source address and port for a PROXY
 *   command; for LOCAL, client->ss_family is set to AF_UNSPEC (the
 *   caller uses the real peer).
 * @return PROXY_OK or a PROXY_E* code (outputs untouched on error).
 */
int proxy_parse(const uint8_t *buf, size_t len, size_t *hdr_len,
                struct sockaddr_storage *client) MUST_CHECK;

/**
 * How many more bytes of a PROXY v2 header a stream reader needs, having
 * read the first have bytes of the stream at buf (the DoT and DoH ports:
 * the header comes before the TLS ClientHello, in plain). Reading no
 * more than *want bytes at a time, the reader never takes a byte past
 * the header: what follows stays for TLS.
 * @param want: receives the bytes to read next (0 when complete).
 * @return PROXY_OK (complete: proxy_parse(buf, have) takes it), PROXY_ESHORT
 * (read *want more), PROXY_ESIG (the bytes so far are not the signature, e.g.
 * a ClientHello), PROXY_EVERSION, PROXY_ECOMMAND, or PROXY_ETOOBIG (announced
 * length beyond PROXY_STREAM_MAX); *want is 0 on error.
 */
int proxy_stream_want(const uint8_t *buf, size_t have, size_t *want)
	MUST_CHECK;

#endif
