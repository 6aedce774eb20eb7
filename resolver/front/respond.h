/*
 * resolver/front/respond.h - client queries in, client responses out.
 *
 * The server hands every client packet to respond_query_parse, answers
 * errors with respond_error, looks the question up with
 * respond_cache_answer (the hot path), and writes answers with
 * respond_build, whether they come from the cache, a local zone or a
 * finished resolution (struct answer of answer.h).
 *
 * Design notes:
 * - Nothing here allocates or touches a socket: the caller passes its
 *   own buffers (a per-worker buffer on the hot path), so every function
 *   is safe on the cache-hit path and in unit tests.
 * - The client's ID and question are echoed exactly as sent, letter case
 *   included; lookups use the lowercased copy.
 * - Flags of a response: QR, RA, RD and CD copied from the query, AA
 *   never set. DNSSEC (RFC 4035 section 3.2, RFC 6840 section 5) is
 *   decided once per response by respond_plan, from the query and the
 *   answer's status (answer.sec, set by the iterator and the cache):
 *   - DO=1: the OPT echoes DO and the images go out whole (RRSIGs after
 *     each RRset, a negative answer's proof after its SOA); DO=0: RRSIG
 *     records leave the answer and authority sections and NSEC/NSEC3
 *     the authority section (unless the question asks for that type),
 *     the counts following what is written;
 *   - AD only for SECURE data, and only to a client that set DO or AD
 *     (RFC 6840 section 5.7); never copied from upstream; never on an
 *     error RCODE (SERVFAIL, REFUSED, FORMERR...: respond_build writes
 *     AD in one place and checks the RCODE there, whatever the plan);
 *   - BOGUS data: SERVFAIL without records to CD=0 clients, with EDE 6
 *     (or the answer's own EDE); CD=1 clients get the data, no AD, and
 *     no DNSSEC EDE (1, 2, 5-12, 25, 27) whether the answer is fresh from
 *     the iterator (a->ede) or from the cache, an EDE of another reason
 *     (3 Stale Answer) kept; an error RCODE keeps the EDE that says why;
 *   - an EDE option (RFC 8914) goes into the OPT record whenever the
 *     answer carries one and the client sent EDNS (no OPT, no EDE).
 * - Records arrive as "images" (answer.h): wire RRs with uncompressed
 *   owners and TTLs already counted down. Owners are compressed on the way
 * out; RDATA is copied as it is.
 * - UDP answers are cut to the client's limit (512, or its EDNS size up
 *   to our own): when the answer section does not fit, the response
 *   carries TC and no records, so the client asks again over TCP; an
 *   authority section that does not fit sets TC too, unless the answer
 *   section is complete and the client did not set DO (then it is just
 *   left out; to a DO=1 client it is the proof, RFC 4035 3.1.3). A
 *   truncated response keeps the question, the RCODE and the EDE. An
 *   error RCODE (SERVFAIL, REFUSED...) never sets TC: records that do
 *   not fit beside it go (over TCP the client would get the same error).
 *   An EDE whose text does not fit beside the header, question and OPT
 *   loses the text, then the option, never the response; nor does an
 *   answer go for its EDE: records that fit beside a bare OPT record
 *   but not beside the EDE keep their room, the text (then the option)
 *   gives way, and TC is set only for what does not fit without it.
 */
#ifndef CURVECACHE_RESOLVER_RESPOND_H
#define CURVECACHE_RESOLVER_RESPOND_H

#include "base/base.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "wire/answer.h"
#include "wire/wire.h"

struct cache;

/** Records parsed from a client query (question + OPT + a few more). */
#define RESPOND_QUERY_RR_MAX 8
/** Bytes of the OPT record we add (root, type, class, TTL, RDLENGTH). */
#define RESPOND_OPT_BYTES 11
/** Longest EXTRA-TEXT of an EDE option we send (longer is cut). */
#define RESPOND_EDE_TEXT_MAX 128
/** RFC 8914 INFO-CODEs used by the front itself (and its DNSSEC ones). */
#define RESPOND_EDE_ALG 1           /**< Unsupported DNSKEY Algorithm */
#define RESPOND_EDE_DIGEST 2        /**< Unsupported DS Digest Type */
#define RESPOND_EDE_STALE 3         /**< Stale Answer */
#define RESPOND_EDE_INDETERMINATE 5 /**< DNSSEC Indeterminate */
#define RESPOND_EDE_BOGUS 6         /**< DNSSEC Bogus */
#define RESPOND_EDE_NSEC_MISSING 12 /**< NSEC Missing (7 to 11 between) */
#define RESPOND_EDE_EXPIRED_BEFORE_VALID 25 /**< Sig. Expired before Valid */
#define RESPOND_EDE_NSEC3_ITERATIONS 27 /**< Unsupported NSEC3 Iterations */
/** Largest UDP payload we ever send to a client. */
#define RESPOND_UDP_MAX 4096
/** Buffer for a response (any TCP response fits). */
#define RESPOND_BUF_BYTES WIRE_MSG_MAX

/** Status codes: 0 is success, every rejection has its own code. */
enum respond_status {
	RESPOND_OK = 0,
	RESPOND_EDROP,    /**< not to be answered: no full header, or QR */
	RESPOND_EFORMERR, /**< malformed: answer FORMERR */
	RESPOND_ENOTIMP,  /**< opcode other than QUERY: answer NOTIMP */
	RESPOND_EBADVERS, /**< EDNS version other than 0: answer BADVERS */
	RESPOND_EMISS,    /**< the cache cannot answer */
	RESPOND_ESPACE,   /**< caller's buffer too small */
	RESPOND_EINVAL    /**< bad argument, malformed record image */
};

/** A client query as parsed; what a response must echo. */
struct respond_query {
	uint16_t id;
	uint16_t flags; /**< the query's flags word */
	bool has_question;
	uint8_t qname[WIRE_NAME_MAX]; /**< as sent, case kept */
	uint8_t lname[WIRE_NAME_MAX]; /**< lowercased, for lookups */
	size_t qnamelen;
	uint16_t qtype;
	uint16_t qclass;
	bool edns;          /**< the query had an OPT record */
	uint16_t edns_size; /**< its UDP payload (>= 512) */
	bool edns_do;       /**< its DO bit (false without EDNS) */
	uint8_t edns_version;
};

/** What a response to a query says, decided by respond_plan. */
struct respond_plan {
	unsigned rcode;       /**< the RCODE sent */
	bool records;         /**< the answer's records go out */
	bool dnssec;          /**< DO=1: DNSSEC records go out too */
	bool ad;              /**< the AD flag is set */
	bool bogus;           /**< the data failed validation (answer.sec
	                           BOGUS), sent or not */
	bool ede;             /**< an EDE option goes out */
	uint16_t ede_code;    /**< its INFO-CODE, if ede */
	const char *ede_text; /**< its EXTRA-TEXT, or NULL */
};

/**
 * Describe a status code.
 * @return a static string; never NULL.
 */
const char *respond_strerror(int status);

/**
 * Name a DNSSEC status (enum cache_sec) as the query log and the control
 * commands print it.
 * @return "secure", "insecure", "bogus" or "unchecked" (also for any
 *   other value); never NULL.
 */
const char *respond_sec_name(uint8_t sec);

/**
 * Parse a client query. Checks: a full header with QR clear (else
 * EDROP), opcode QUERY (else ENOTIMP), exactly one question, no answer
 * or authority records, a well-formed message (else EFORMERR), EDNS
 * version 0 (else EBADVERS). On every status but EDROP, q holds the ID
 * and flags, and the question when it could be read, so the error can be
 * answered with respond_error.
 * @param pkt, len: the packet.
 * @param q: receives the query.
 * @return RESPOND_OK, RESPOND_EDROP, RESPOND_EFORMERR, RESPOND_ENOTIMP or
 *   RESPOND_EBADVERS.
 */
int respond_query_parse(const uint8_t *pkt, size_t len,
                        struct respond_query *q) MUST_CHECK;

/**
 * The largest response to send to this client over UDP: 512 without
 * EDNS, else its EDNS size, never above our_max (and never below 512).
 * @param q: the parsed query.
 * @param our_max: our own limit (e.g. the configured EDNS size).
 */
size_t respond_udp_limit(const struct respond_query *q, size_t our_max);

/**
 * Write a response without records: header, the question if the query
 * had one, an OPT record if the query had one (BADVERS goes there).
 * @param q: the query (from respond_query_parse, any status but EDROP).
 * @param rcode: the RCODE (up to 12 bits; the upper 8 need EDNS).
 * @param out, cap: destination.
 * @param outlen: receives the length.
 * @return RESPOND_OK or RESPOND_ESPACE.
 */
int respond_error(const struct respond_query *q, unsigned rcode, uint8_t *out,
                  size_t cap, size_t *outlen) MUST_CHECK;

/**
 * Decide what respond_build sends for an answer (see the design notes):
 * the RCODE (SERVFAIL for BOGUS data to a CD=0 client), whether records
 * and DNSSEC records go out, AD, and the EDE. The statistics and the
 * query log read the same decision.
 * @param q: the query.
 * @param a: the answer.
 * @param p: receives the decision.
 */
void respond_plan(const struct respond_query *q, const struct answer *a,
                  struct respond_plan *p);

/**
 * Write a response with records, as respond_plan decides.
 * @param q: the query.
 * @param a: the answer; its authority section is written as given (but
 *   for the DNSSEC records a DO=0 client does not get).
 * @param limit: the largest message allowed (respond_udp_limit for UDP,
 *   WIRE_MSG_MAX for TCP); above cap it is lowered to cap.
 * @param out, cap: destination.
 * @param outlen: receives the length.
 * @param truncated: NULL, or set to whether TC was set.
 * @return RESPOND_OK, RESPOND_ESPACE (not even the header, question and
 *   bare OPT fit: the caller answers SERVFAIL with the question,
 *   respond_error) or RESPOND_EINVAL (malformed image).
 */
int respond_build(const struct respond_query *q, const struct answer *a,
                  size_t limit, uint8_t *out, size_t cap, size_t *outlen,
                  bool *truncated) MUST_CHECK;

struct sockaddr;

/**
 * A response that respond_build sent with TC (out, len): when it holds no
 * record at all (the answer section, or the authority section the client
 * needs, does not fit its size even without the EDE), one debug line
 * "udp_truncated_empty" with the client, the question and the sizes of
 * the answer's sections (issue 21 item 12: the place to look). Nothing
 * below log-level debug.
 */
void respond_tc_note(const struct respond_query *q, const struct answer *a,
                     const uint8_t *out, size_t len,
                     const struct sockaddr *client);

/**
 * The RCODE for a parsed question that is never looked up or resolved:
 * REFUSED for classes other than IN and for zone transfers, FORMERR for
 * type 0 and OPT, NOTIMP for TKEY, TSIG, MAILB and MAILA; 0 for every
 * other question.
 */
unsigned respond_policy(const struct respond_query *q);

/**
 * Answer a question from the cache alone, following CNAMEs (and the
 * DNAMEs that synthesize them) inside the cache: answer_chase with fresh
 * data only and no DNSSEC image (see answer.h). Never allocates.
 * @param c: the cache.
 * @param lname, lnamelen: the question name, lowercase.
 * @param qtype, qclass: the question.
 * @param now: wall-clock seconds.
 * @param a: receives the answer, pointing into buf.
 * @param buf, cap: space for the record images.
 * @return RESPOND_OK, RESPOND_EMISS (anything missing along the chain,
 *   or the buffer too small for it), RESPOND_EINVAL (bad argument).
 */
int respond_cache_answer(struct cache *c, const uint8_t *lname,
                         size_t lnamelen, uint16_t qtype, uint16_t qclass,
                         time_t now, struct answer *a, uint8_t *buf,
                         size_t cap) MUST_CHECK;

/**
 * The chase flags for a query's cache read: ANSWER_CHASE_DNSSEC when
 * the client set DO (its answer carries the DNSSEC images), else 0 (the
 * hot path reads no image).
 */
unsigned respond_chase_flags(const struct respond_query *q);

/**
 * respond_cache_answer with chase flags: ANSWER_CHASE_DNSSEC (from
 * respond_chase_flags) makes each RRset's RRSIGs follow it and a
 * negative answer's proof follow its SOA; other flags are ignored.
 * @return as respond_cache_answer; an answer whose images do not fit
 *   the buffer is RESPOND_EMISS.
 */
int respond_cache_answer_flags(struct cache *c, const uint8_t *lname,
                               size_t lnamelen, uint16_t qtype,
                               uint16_t qclass, time_t now, unsigned flags,
                               struct answer *a, uint8_t *buf, size_t cap)
	MUST_CHECK;

/**
 * A referral from the cache for a non-recursive (RD=0) query that the
 * cache cannot answer: the NS RRset of the closest cached zone cut, in
 * the authority section, RCODE NOERROR.
 * @return RESPOND_OK or RESPOND_EMISS (no zone cut cached).
 */
int respond_cache_referral(struct cache *c, const uint8_t *lname,
                           size_t lnamelen, uint16_t qclass, time_t now,
                           struct answer *a, uint8_t *buf, size_t cap)
	MUST_CHECK;

#endif /* CURVECACHE_RESOLVER_RESPOND_H */
