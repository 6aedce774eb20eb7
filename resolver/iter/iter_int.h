/*
 * resolver/iter/iter_int.h - private header of the iterator (iter*.c).
 *
 * One resolution (struct iter_req) is a stack of frames: frame 0 resolves
 * the client's question; frames 1 .. ITER_MAX_DEPTH resolve the addresses
 * of glueless NS names for the frame below them. Each frame is a small
 * state machine (enum iter_fstate) with one function per state:
 *
 *   LOOKUP  the cache, for the current name (and its CNAME)
 *   CUT     the closest zone cut: cached NS of the longest ancestor with
 *           usable addresses, else the root hints
 *   QUERY   pick the next server of the cut and send (or push a frame for
 *           a glueless NS, or wait for the query in flight)
 *   DONE    answered (positively or negatively)
 *   FAIL    gave up (SERVFAIL for frame 0)
 *
 * Replies are classified (iter_classify.c) and then applied to the frame
 * the query belonged to (iter_reply.c, iter_referral.c, iter_cname.c,
 * iter_qmin.c). A query is tied to its frame by the frame's generation:
 * any change of question or zone cut bumps it, which retires the queries
 * of the old step.
 *
 * Memory: a request is ~2 KB, a query slot ~500 bytes (as many as it
 * had out at once, from malloc), a frame ~1 KB and ~400 bytes a server of
 * its zone cut (iter_zone_add, up to ITER_NS_MAX). Answer and authority
 * images, scratch and the classifier's output are the thread's (iter_buf.c).
 *
 * Files: iter.c (API, token table, the loop), iter_frame.c (frames,
 * LOOKUP, CUT), iter_query.c (QUERY, server choice, targets),
 * iter_classify.c, iter_reply.c, iter_referral.c, iter_cname.c,
 * iter_qmin.c, iter_curve.c (curve-require, curve-pin, where keys may
 * come from), iter_curvesec.c (keys confirmed by DNSSEC), iter_deadzone.c
 * (the failure cache, RFC 9520), iter_util.c (names, RDATA, result
 * image).
 */
#ifndef CURVECACHE_RESOLVER_ITER_INT_H
#define CURVECACHE_RESOLVER_ITER_INT_H

#include "base/base.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "iter.h"
#include "iter_log.h"
#include "validate/dnssec_set.h"
#include "wire/wire.h"

/** NS names kept per zone cut (the rest of a larger set is ignored). */
#define ITER_NS_MAX 16
#define ITER_NS_ROOM_FIRST 2 /**< a cut's first room (iter_util.c) */
/** Addresses kept per NS name. */
#define ITER_NS_ADDRS 4
/** Queries sent to one address for one question (first try + retry). */
#define ITER_TRIES_MAX 2
/** State transitions per iter_next call (always-on guard). */
#define ITER_STEPS_MAX 512
/** The cache type under which the parent's NS set of a referral is kept
 *  beside the zone's own (a private-use type, RFC 6895 section 3.1):
 *  when the child's NS set (which replaces the parent's, RFC 2181
 *  section 5.4.1) fails, the parent's servers and glue are still known. */
#define ITER_TYPE_PARENT_NS 65280
/** The private-use type of a mark cached at a zone cut whose parent
 *  proved (NSEC/NSEC3) that it has no DS: the zone and all below it
 *  are insecure (iter_trust.c). */
#define ITER_TYPE_NODS 65281
/** The private-use type of a note kept beside a BOGUS DNSKEY set: why
 *  (two bytes, enum dnssec_status), for the EDE of later answers. */
#define ITER_TYPE_BOGUS_WHY 65282
/** The private-use type of a mark cached at a name whose parent proved
 *  it has neither DS nor NS (one byte 0), or does not exist (1): no zone
 *  cut there (iter_signer.c). */
#define ITER_TYPE_NOCUT 65283
/** The private-use types under which a referral's glue is kept beside
 *  the A/AAAA RRsets of the same names: the zone's own address records
 *  replace the glue (RFC 2181 section 5.4.1), and when those addresses
 *  fail the parent's are still known (iter_referral.c). */
#define ITER_TYPE_PARENT_A 65290
#define ITER_TYPE_PARENT_AAAA 65291
/** A failed priming (no root NS set from any hint) is not tried again
 *  for this long: the hints are used as they are meanwhile. */
#define ITER_PRIME_RETRY_MS 300000u
/** Falls back of a frame from a failed cut to its parent's delegation. */
#define ITER_FALLBACK_MAX 1
/** QNAME minimisation probes per question before asking the full name
 *  (RFC 9156 MAX_MINIMISE_COUNT). */
#define ITER_QMIN_STEPS_MAX 10
/** NSEC3 hashes computed for one client question (PowerDNS: 600 hash
 *  iterations; with at most 50 iterations each, 64 hashes are ~3,300
 *  SHA-1 runs). */
#define ITER_NSEC3_HASHES_MAX 64
/** Authority records of a reply whose verification is remembered. */
#define ITER_VMEMO_MAX 64
#define ITER_SCRATCH_BYTES 8192 /**< the scratch buffer for cache reads */
/** Bytes of the authority image: the SOA, and for DNSSEC its RRSIGs
 *  and the NSEC/NSEC3 proof with theirs. */
#define ITER_AUTH_MAX 8192
/** NSEC/NSEC3 records of an unproven negative answer kept for DO=1
 *  clients (as many as a proof may use, iter_val.c's ITER_PROOF_MAX) */
#define ITER_PROOF_RAW_MAX 32
/** RRSIGs kept per RRset for DO=1 and CD=1 clients (more than the
 *  DNSSEC_SIGS_PER_SET tried: a zone in a rollover signs with several
 *  keys, and a client's own validator may pick another) */
#define ITER_IMG_SIGS_MAX 32
/** Records of one RRset cached at once. */
#define ITER_RRSET_MAX 256
/** Bytes of expanded RDATA for one cached RRset. */
#define ITER_RDATA_BYTES 65535
/** Zone cuts tried while walking up the cached ones (one per label). */
#define ITER_CUT_WALK_MAX 128
#define ITER_IPV6_BYTES 16 /**< bytes of an IPv6 address */
#define ITER_IPV4_BYTES 4  /**< ...and of an IPv4 one */
#define ITER_PORT 53       /**< the DNS port */
/** State functions: run the loop again (not an enum iter_step). */
#define ITER_CONTINUE (-1)
/** Bits in iter_ns.sub: sub-resolutions done for this NS name. */
#define ITER_SUB_A 0x1u
#define ITER_SUB_AAAA 0x2u

/** One server address of an NS name. */
struct iter_addr {
	uint8_t family; /**< AF_INET or AF_INET6 */
	uint8_t ip[ITER_IPV6_BYTES];
	uint8_t tries; /**< queries sent for this step */
	bool dead;     /**< lame/broken: no more tries */
	bool dropped;  /**< a query of this step timed out:
	                    the retry goes over TCP when the
	                    server is alive (sel.h) */
	uint16_t port; /**< 0: ITER_PORT; else a stub-zone server's
	                    own (stub-zone: ADDR@PORT) */
};

/** One NS name of a zone cut. */
struct iter_ns {
	uint8_t name[WIRE_NAME_MAX]; /**< lowercase */
	size_t namelen;
	bool curve; /**< key found (and cfg->curve) */
	uint8_t key[KEY_BYTES];
	bool hints;   /**< from root hints: no localhost
	                   filter */
	unsigned sub; /**< ITER_SUB_* done */
	struct iter_addr addr[ITER_NS_ADDRS];
	size_t naddr;
};

/** A zone cut and its servers. */
struct iter_zone {
	uint8_t name[WIRE_NAME_MAX];
	size_t len;
	size_t nns;
	size_t fwd; /**< 0; or a forward zone's cut (its servers are the
	                 forwarders, asked with RD=1; iter_fwd.c): the
	                 length of that zone's name, a suffix of name */
	struct iter_ns *ns; /**< [0, nns) of cap: iter_zone_add */
	size_t cap;
};

/** The DNSSEC standing of a frame's zone cut (iter_trust.c). */
enum iter_trust {
	ITER_T_UNKNOWN = 0, /**< not looked at yet (iter_trust_eval) */
	ITER_T_INSECURE,    /**< no validation: no anchor above, a
	                         negative anchor, an unsigned
	                         delegation, unsupported algorithms */
	ITER_T_NEED_DS,     /**< DS unknown: a DS frame asks the parent */
	ITER_T_NEED_KEY,    /**< DS/anchor known: DNSKEYs asked, checked */
	ITER_T_SECURE,      /**< keys validated (SECURE): its data verified */
	ITER_T_BOGUS        /**< chain broken: all its data BOGUS */
};

enum iter_fstate {
	ITER_F_LOOKUP = 0,
	ITER_F_CUT,
	ITER_F_QUERY,
	ITER_F_DONE,
	ITER_F_FAIL
};

/** One question being resolved (frame 0: the client's). */
struct iter_frame {
	enum iter_fstate state;
	uint32_t gen;                 /**< bumped at each new step */
	uint8_t sname[WIRE_NAME_MAX]; /**< current name (after CNAMEs) */
	size_t snamelen;
	uint16_t qtype, qclass;
	bool qmin;          /**< minimise this question */
	bool prime;         /**< the cut is the root hints: ask
	                         ". NS" of them first (RFC 8109) */
	size_t qmin_labels; /**< labels of the next name asked */
	unsigned qmin_steps;
	unsigned referrals;
	unsigned cnames;
	uint64_t seen[ITER_MAX_CNAME + 1]; /**< hashes of names visited */
	size_t nseen;
	size_t parent_ns;             /**< sub-frames: NS index below */
	bool retry_set;               /**< resend to retry_ns/addr first */
	unsigned fallbacks;           /**< ITER_FALLBACK_MAX */
	bool parent_side;             /**< the cached parent-side NS set
	                                   was tried (or is not there) */
	bool parent_glue;             /**< the parent's glue addresses
	                                   were added to the zone's */
	uint8_t above[WIRE_NAME_MAX]; /**< the zone a fallback left; CUT
	                                   starts above it once */
	size_t abovelen;
	bool above_pending; /**< CUT has not used `above` yet */
	size_t retry_ns, retry_addr;
	const char *why;       /**< FAIL reason */
	enum iter_trust trust; /**< of zone (iter_trust.c) */
	bool ds_frame;         /**< resolves a DS for the frame
	                            below: nothing to hand down */
	bool ds_asked;         /**< a DS frame ran for this zone */
	bool nofwd;            /**< forward-first: every forwarder
	                            failed, the name is iterated */
	bool cut_walk;         /**< zone is a candidate cut of an
	                            unsigned answer (iter_signer.c) */
	int trust_status;      /**< BOGUS: why (enum dnssec_status) */
	bool curve_ask;        /**< the step asks "ZONE NS" first
	                            (iter_curvesec.c) */
	uint64_t curve_asked;  /**< name hash of the zone it was
	                            asked of (once per cut) */
	uint64_t dz_checked;   /**< deadzone key of the zone that
	                            passed the back-off check */
	struct iter_zone zone; /**< last (iter_frame_init) */
};

/** One query handed out and not yet settled. */
struct iter_out {
	bool used;
	bool timed_out; /**< reported; a late MSG is used */
	bool hedged;    /**< its early deadline passed: the
	                     next server is asked too; a
	                     late MSG is used, and the real
	                     timeout still counts */
	uint32_t token;
	size_t frame;    /**< frame index */
	uint32_t gen;    /**< frame generation when sent */
	size_t ns, addr; /**< indexes in the frame's zone */
	struct sockaddr_storage sa;
	socklen_t salen;
	uint8_t qname[WIRE_NAME_MAX]; /**< as asked (lowercase) */
	size_t qnamelen;
	uint16_t qtype;
	bool minimised; /**< a QNAME minimisation probe */
	bool kept;      /**< sent to the zone a fallback left
	                     (frame->above): its late final
	                     answer is still used */
	bool curve;
	uint8_t key[KEY_BYTES];
	uint16_t edns;
	uint64_t sent_ms;
	bool keyq;       /**< the zone's DNSKEY, asked for its trust */
	bool nsq;        /**< the zone's NS, asked for its keys */
	uint64_t dz_key; /**< deadzone key of the zone asked */
};

/** Zones a request watches for the failure cache (iter_deadzone.c). */
#define ITER_DZ_WATCH_MAX 8

/** What one request saw of one zone's servers (iter_deadzone.c). */
struct iter_dz_watch {
	uint64_t key;      /**< deadzone_key of the zone; 0: free */
	uint16_t sent;     /**< queries to its servers */
	uint16_t timeouts; /**< ...that timed out (not hedges) */
	uint16_t unreach;  /**< ...unreachable (ICMP, send error) */
	bool heard;        /**< any reply from one of them */
	bool claimed;      /**< this request holds the zone (a probe,
	                        or its servers fell silent): others
	                        fail at once meanwhile */
};

/** The classifier's reasons that change what is done with a server. */
#define ITER_WHY_MALFORMED "malformed record"
#define ITER_WHY_RECLAME "recursive lame (RA, no AA)"

/** Reply kinds (the classifier's verdict). */
enum iter_kind {
	ITER_K_ANSWER = 0, /**< the RRset asked for (maybe after a chain) */
	ITER_K_CNAME,      /**< a CNAME/DNAME chain leading elsewhere */
	ITER_K_REFERRAL,   /**< delegation to a zone below the one asked */
	ITER_K_NXDOMAIN,
	ITER_K_NODATA,
	ITER_K_LAME, /**< REFUSED, upward/sideways referral, no AA
	                  and nothing usable */
	ITER_K_ERROR /**< SERVFAIL, FORMERR, NOTIMP, TC, other */
};

/** One link of a CNAME/DNAME chain inside a reply. */
struct iter_link {
	size_t rr; /**< the CNAME or DNAME record */
	bool dname;
	uint8_t owner[WIRE_NAME_MAX]; /**< name at this step (lowercase) */
	size_t ownerlen;
	uint8_t target[WIRE_NAME_MAX]; /**< where it leads (lowercase) */
	size_t targetlen;
};

/** The classifier's output. */
struct iter_class {
	enum iter_kind kind;
	const char *why;
	bool aa;        /**< AA set: authoritative data */
	bool ra;        /**< RA set (with no AA: a recursive
	                     server, not the zone's) */
	bool malformed; /**< ERROR: a record did not parse */
	bool reclame;   /**< LAME: recursive lame, the server
	                     stays askable last */
	bool loop;      /**< chain comes back on itself */
	bool synth;     /**< a CNAME question answered by a CNAME that a
	                     DNAME in the answer synthesizes (synth_link) */
	struct iter_link synth_link;
	struct iter_link link[ITER_MAX_CNAME];
	size_t nlink;
	uint8_t final[WIRE_NAME_MAX]; /**< name at the end of the chain */
	size_t finallen;
	uint8_t cut[WIRE_NAME_MAX]; /**< referral: the delegated zone */
	size_t cutlen;
	size_t soa; /**< SOA record index or WIRE_NONE */
};

/** What a reply was about (for the classifier). */
struct iter_ask {
	const uint8_t *zone; /**< bailiwick: the zone asked */
	size_t zonelen;
	const uint8_t *qname; /**< the name asked (lowercase) */
	size_t qnamelen;
	uint16_t qtype, qclass;
	bool fwd; /**< asked of forwarders: answers are final without
	               AA, a referral is a bad reply */
};

struct iter_req {
	const struct iter_env *env;
	uint64_t deadline_ms;
	uint32_t next_token;
	bool done;
	struct iter_frame *frame[ITER_MAX_DEPTH + 1];
	size_t depth; /**< index of the top frame */
	size_t nout;  /**< out[0..nout) are allocated (iter_out_alloc) */
	struct iter_out *out[ITER_MAX_OUTSTANDING];
	struct iter_counts counts;
	unsigned subqueries;
	uint8_t via; /**< enum cache_via of the reply fed (iter_feed) */
	const char *cap_why; /**< a cap hit in any frame */
	struct answer result;
	uint8_t *an; /**< NULL, or ITER_RESULT_MAX bytes (iter_buf_an) */
	size_t an_len;
	uint16_t an_count;
	uint8_t *ns; /**< NULL, or ITER_AUTH_MAX bytes (iter_buf_ns) */
	size_t ns_len;
	uint16_t ns_count;
	bool curve_all; /**< every RRset so far was boxed */
	bool any_rrset;
	size_t vfi;                  /**< frame of the reply being applied
	                                  (its zone and trust validate) */
	struct dnssec_work val_work; /**< verifications left, key cache */
	unsigned hashes_left;        /**< NSEC3 hashes left */
	/* What verifying the reply's authority records concluded, so that
	 * the proofs of a chain's links (each wildcard expansion collects
	 * every NSEC/NSEC3 record) verify each record once: the worker's
	 * memo (iter_val.c) while it holds stamp vmemo_stamp at vmemo_at,
	 * for the reply whose buffer is vmemo_buf; cleared as each reply
	 * arrives (iter_reply_apply). */
	const uint8_t *vmemo_buf;
	const void *vmemo_at;
	uint64_t vmemo_stamp;
	struct iter_img *proof; /**< NULL, or where a wildcard
	                             answer's proof goes (iter_cache_as) */
	unsigned bogus_n;       /**< bogus verdicts so far (iter_bogus) */
	unsigned bogus_retries; /**< servers asked again after one */
	uint8_t dname_sec;      /**< status of the last DNAME cached */
	bool val_any;           /**< val_sec holds a status */
	uint8_t val_sec;        /**< enum cache_sec of the answer */
	bool val_ede;           /**< an EDE for the answer */
	uint16_t val_ede_code;
	const char *val_ede_text;
	/* what the failure lines say (iter_log.c) */
	struct iter_log_note lognote;
	uint8_t rcode;
	struct iter_dz_watch dz[ITER_DZ_WATCH_MAX];
	uint16_t dz_ede;         /**< EDE of a failure to reach servers
	                              (0: none; iter_deadzone.c) */
	const char *dz_ede_text; /**< its EXTRA-TEXT */
	uint64_t dz_qkey;        /**< deadzone key of the question */
	struct iter_now now;     /**< time of the current call */
};

/* iter.c */
void iter_out_free(struct iter_req *req, struct iter_out *o);
void iter_frame_retire(struct iter_req *req, size_t fi);
struct iter_out *iter_out_alloc(struct iter_req *req);
bool iter_out_room(const struct iter_req *req);
bool iter_frame_busy(const struct iter_req *req, size_t fi);
bool iter_frame_lingering(const struct iter_req *req, size_t fi);
void iter_finish(struct iter_req *req, uint8_t rcode, const char *why);

/* iter_buf.c: the thread's scratch and classifier output (one call; via
 * calls: GCC 12's UBSan sees a thread-local's address as NULL), answer and
 * authority images from its pool (NULL: none); idle/hold/free: a request;
 * tmp: a buffer from its pool for ITER_RDATA_BYTES, 2 * ITER_AUTH_MAX, a
 * query slot, a cut's first NS room (other sizes: malloc, free) */
uint8_t (*iter_scratch_of(void))[ITER_SCRATCH_BYTES];
struct iter_class *iter_cls_of(void);
#define iter_scratch (*iter_scratch_of()) /* sizeof: the array's */
#define iter_cls (*iter_cls_of())
uint8_t *iter_buf_an(struct iter_req *req);
uint8_t *iter_buf_ns(struct iter_req *req);
void iter_buf_idle(struct iter_req *req);
void iter_buf_hold(void);
void iter_buf_free(struct iter_req *req);
uint8_t *iter_tmp_take(size_t bytes);
void iter_tmp_give(size_t bytes, uint8_t *buf);
/* memo (iter_buf.c): what reads of a name's entries concluded (a zone's
 * trust, a server's IPs, no TLSA, no NXDOMAIN above) while they hold */
enum iter_mk { ITER_MK_KEY, ITER_MK_IP, ITER_MK_DANE, ITER_MK_NX, ITER_MK_N };
struct cache_watch;
bool iter_memo_get(const struct iter_req *req, enum iter_mk k,
                   const uint8_t *name, size_t len, void *val, size_t vlen);
void iter_memo_put(const struct iter_req *req, enum iter_mk k,
                   const uint8_t *n, size_t len, const struct cache_watch *w,
                   time_t exp, const void *v, size_t vl);

/* iter.c: a frame from env->frame_slab or malloc (uninitialised), back */
struct iter_frame *iter_frame_alloc(struct iter_req *req);
void iter_frame_free(struct iter_req *req, struct iter_frame *f);

/* iter_frame.c */
struct iter_frame *iter_frame_top(struct iter_req *req);
void iter_frame_init(struct iter_frame *f, const uint8_t *name, size_t len,
                     uint16_t qtype, uint16_t qclass, bool qmin);
int iter_frame_push(struct iter_req *req, size_t ns, uint16_t qtype);
void iter_frame_pop(struct iter_req *req);
void iter_frame_newstep(struct iter_req *req, size_t fi);
void iter_fail(struct iter_frame *f, const char *why);
void iter_state_lookup(struct iter_req *req, size_t fi);
void iter_state_cut(struct iter_req *req, size_t fi);
bool iter_cut_fallback(struct iter_req *req, size_t fi);
struct cache_rdata;
bool iter_cut_stub(struct iter_req *req, struct iter_frame *f, bool cached);

/* iter_fwd.c: forward zones (cfg forward-zone) as zone cuts whose
 * servers are the forwarders. */
/** The deadzone key type of a forward zone (never a zone cut's 0). */
#define ITER_FWD_DZ_TYPE 65281u
bool iter_cut_forward(struct iter_req *req, struct iter_frame *f);
bool iter_fwd_fallback(struct iter_req *req, size_t fi);
void iter_fwd_failed(struct iter_req *req, size_t fi);
bool iter_fwd_stale(const struct iter_req *req, const struct iter_out *o);
bool iter_name_seen(struct iter_frame *f, const uint8_t *name, size_t len);

/* iter_query.c */
uint32_t iter_random(const struct iter_req *req);
int iter_state_query(struct iter_req *req, size_t fi, struct iter_target *t);
bool iter_addr_ok(const struct iter_req *req, const struct iter_ns *ns,
                  const struct iter_addr *a);
void iter_ns_add_addr(struct iter_req *req, struct iter_ns *ns, uint16_t type,
                      const uint8_t *rdata, size_t rdlen);
void iter_ns_set_name(const struct iter_req *req, struct iter_ns *ns,
                      const uint8_t *name, size_t len);
void iter_ns_cache_addrs(struct iter_req *req, struct iter_ns *ns);
/* Addresses of type for an NS name from the entry of type store. */
void iter_ns_cache_type(struct iter_req *req, struct iter_ns *ns,
                        uint16_t type, uint16_t store);
void iter_zone_from_hints(struct iter_req *req, struct iter_zone *z);
bool iter_zone_usable(const struct iter_req *req, const struct iter_zone *z);
void iter_addr_sockaddr(const struct iter_addr *a, struct sockaddr_storage *sa,
                        socklen_t *len);

/* iter_deadzone.c: the failure cache (infra/deadzone.h) */
/* A query to the zone of frame fi is being sent (o is its record). */
void iter_dz_sent(struct iter_req *req, size_t fi, struct iter_out *o);
/* How a query ended: a reply (any), a timeout, unreachable. */
void iter_dz_reply(struct iter_req *req, const struct iter_out *o,
                   enum iter_reply_kind kind, bool hedge);
/* Before frame fi asks its zone: true when the zone is in back-off (or
 * held by another resolution): the frame failed. */
bool iter_dz_blocked(struct iter_req *req, size_t fi);
/* Every server of frame fi's zone was tried: hold it when none answered. */
void iter_dz_silent(struct iter_req *req, size_t fi);
/* At iter_new: true when the question's failure is cached (finished). */
bool iter_dz_question(struct iter_req *req);
/* At iter_finish: record failures, release holds, cache the question's
 * failure (sets req->dz_ede for a SERVFAIL). */
void iter_dz_finish(struct iter_req *req, uint8_t rcode, const char *why);

/* iter_classify.c */
void iter_classify(const struct wire_msg *m, const struct iter_ask *ask,
                   struct iter_class *c);

/* iter_reply.c */
void iter_reply_apply(struct iter_req *req, struct iter_out *o,
                      const struct iter_reply *reply);
/* The cache rank of a reply's data: AUTH with AA, else NONAUTH. */
int iter_data_rank(const struct iter_class *c);
void iter_tally(uint64_t *counter); /* +1 to env->tally's (NULL: none) */
const uint8_t *iter_reply_key(const struct iter_out *o,
                              const struct iter_reply *reply);
/* Returns the set's DNSSEC status (enum cache_sec). */
uint8_t iter_cache_rrset(struct iter_req *req, const struct wire_msg *m,
                         enum wire_section sec, const uint8_t *owner,
                         size_t ownerlen, uint16_t type, int rank,
                         const uint8_t *key, bool append);
/* The NS records of a referral (authority section) also cached under
 * ITER_TYPE_PARENT_NS, rank REFERRAL. */
void iter_cache_parent_ns(struct iter_req *req, const struct wire_msg *m,
                          const uint8_t *zone, size_t zonelen,
                          const uint8_t *key);
/* A referral's glue RRset (owner, type) also cached under
 * ITER_TYPE_PARENT_A/AAAA, rank GLUE. */
void iter_cache_parent_glue(struct iter_req *req, const struct wire_msg *m,
                            const uint8_t *owner, size_t ownerlen,
                            uint16_t type, const uint8_t *key);
/* The zone's own NS answer to frame req->vfi (an apex NS query): checked,
 * cached when its keys agree with the delegation's or it is SECURE. */
void iter_cache_ns_checked(struct iter_req *req, const struct wire_msg *m,
                           const uint8_t *zone, size_t zonelen,
                           const uint8_t *key);

/* iter_referral.c */
void iter_referral_apply(struct iter_req *req, size_t fi,
                         const struct wire_msg *m, const struct iter_out *o,
                         const struct iter_reply *reply, bool answer);
uint32_t iter_zone_names(struct iter_req *req, struct iter_zone *z,
                         const struct wire_msg *m, size_t from, size_t to);
/* The parent's glue kept for each NS name of z (all: also names with
 * addresses; else only those without): true when an address was
 * added (a last resort when the zone's own addresses fail). */
bool iter_zone_parent_glue(struct iter_req *req, struct iter_zone *z,
                           bool all);
/* The sub-resolutions of an NS name ended without an address: the
 * addresses known for it (cached at any rank, the parent's glue). */
void iter_ns_sub_ended(struct iter_req *req, struct iter_ns *ns);
/* An NS RRset answer: the addresses of its additional section for NS
 * names the answering zone may speak for, cached as GLUE. */
void iter_answer_ns_glue(struct iter_req *req, size_t fi,
                         const struct wire_msg *m, const uint8_t *key);

/* iter_curve.c */
bool iter_curve_required(const struct iter_req *req, const uint8_t *name,
                         size_t len);
bool iter_curve_referral_ok(struct iter_req *req, size_t fi,
                            struct iter_zone *z, uint32_t ttl);
bool iter_curve_plain_refused(struct iter_req *req, size_t fi,
                              const struct iter_out *o,
                              const struct iter_reply *reply);
bool iter_curve_ns_agree(struct iter_req *req, size_t fi,
                         const struct wire_msg *m);
/* Count a refused downgrade and fail frame fi (the caller logs). */
void iter_curve_refused(struct iter_req *req, size_t fi, const char *why);
/* Keep only the servers with keys (z has at least one). */
void iter_curve_keyed_only(struct iter_zone *z);

/* iter_enc.c: encrypted-zone (step: true if frame fi failed or pushed a
 * TLSA frame); DANE records into a target (of frame f). */
void iter_dane_fill(const struct iter_req *req, const struct iter_frame *f,
                    const struct iter_ns *ns, struct iter_target *t);
bool iter_enc_step(struct iter_req *req, size_t fi);
/* iter_curvesec.c: DNSCurve keys confirmed by a signed apex NS RRset */
/* A referral into z: false when it drops or changes confirmed keys
 * (frame fi failed, the answer's EDE set); with the confirmed keys,
 * only the keyed servers are kept. */
bool iter_curvesec_referral_ok(struct iter_req *req, size_t fi,
                               struct iter_zone *z);
/* A SECURE NS RRset (owner, in a section of m) is cached or answered:
 * its keys are confirmed for ttl seconds. */
void iter_curvesec_seen(struct iter_req *req, const struct wire_msg *m,
                        enum wire_section sec, const uint8_t *owner,
                        size_t ownerlen, uint32_t ttl);
/* Before frame fi queries its zone: when it is SECURE, take its keys
 * from its cached SECURE apex NS set, or set f->curve_ask. */
void iter_curvesec_step(struct iter_req *req, size_t fi);
/* The reply to a "ZONE NS" query (o->nsq). */
void iter_curvesec_ns_reply(struct iter_req *req, size_t fi,
                            const struct iter_out *o, const struct wire_msg *m,
                            const uint8_t *key);

/* iter_cname.c */
bool iter_chain_apply(struct iter_req *req, size_t fi,
                      const struct wire_msg *m, const uint8_t *key,
                      const struct iter_class *c);
bool iter_cname_step(struct iter_req *req, size_t fi, const uint8_t *target,
                     size_t len, unsigned links);
/* A CNAME question whose answer a DNAME synthesizes (c->synth): the DNAME
 * validated and cached, the CNAME cached with its status, both to the
 * client (RFC 6672 section 3.1). */
void iter_cname_synth_final(struct iter_req *req, size_t fi,
                            const struct wire_msg *m, const uint8_t *key,
                            const struct iter_class *c);

/* iter_qmin.c (iter_prime_done: priming failed: hints as they are) */
void iter_prime_done(struct iter_req *req, size_t fi);
void iter_qmin_name(const struct iter_frame *f, const uint8_t **name,
                    size_t *len, uint16_t *qtype, bool *minimised);
void iter_qmin_reset(struct iter_frame *f);
void iter_qmin_skip(struct iter_req *req, size_t fi);
bool iter_qmin_reply(struct iter_req *req, size_t fi, const struct iter_out *o,
                     const struct wire_msg *m, const struct iter_reply *reply);

/* A run of wire RRs being built (RRSIGs, a denial proof). */
struct iter_img {
	uint8_t *buf;
	size_t len, cap;
	uint16_t count;
};

/* iter_trust.c */
/* Before a frame queries its zone: settle the zone's trust (may push a
 * DS frame: true, run the loop again). */
bool iter_trust_step(struct iter_req *req, size_t fi);
/* The reply to a DNSKEY query (o->keyq) of frame fi. */
void iter_trust_key_reply(struct iter_req *req, size_t fi,
                          const struct wire_msg *m, const uint8_t *key);
/* The zone's own DNSKEY set in an answer, checked as its trust is (a key
 * the DS set or the anchor names signs it): DNSSEC_OK or why not;
 * *ttl lowered to the signature's cap. */
int iter_trust_keys_status(struct iter_req *req, const uint8_t *z, size_t zlen,
                           const struct wire_msg *m, uint32_t *ttl);
/* EFAILCAP with zone z's n keys: if they collide so (KeyTrap), the set
 * is held BOGUS, with its RRSIGs, for the bogus TTL. */
void iter_trust_keys_capped(struct iter_req *req, const uint8_t *z,
                            size_t zlen, const struct dnssec_rdata *keys,
                            size_t n);
/* DNSSEC_EFAILCAP if z's keys are held so, else OK (ITER_RDATA_BYTES) */
int iter_trust_keys_held(struct iter_req *req, const uint8_t *z, size_t zlen,
                         uint8_t *buf);
/* Whether validation is on for this request (anchors configured). */
bool iter_val_on(const struct iter_req *req);

/* iter_val.c */
/* The status of an RRset of a reply to frame req->vfi (validated when
 * its zone is SECURE): *ttl lowered to the signature's cap (or the
 * bogus TTL), the RRSIGs over it appended to img. */
uint8_t iter_val_rrset(struct iter_req *req, const struct wire_msg *m,
                       enum wire_section sec, const uint8_t *owner,
                       size_t ownerlen, uint16_t type,
                       const struct cache_rdata *rd, size_t n, uint32_t *ttl,
                       struct iter_img *img, int *status);
/* The status of a negative answer of frame fi; its proof (SOA RRSIGs,
 * NSEC/NSEC3 and their RRSIGs) appended to img. */
uint8_t iter_val_negative(struct iter_req *req, size_t fi,
                          const struct wire_msg *m, bool nx,
                          struct iter_img *img, int *status);
/* A referral's DS RRset or proof of none, validated and cached: the
 * trust of the delegated zone. */
enum iter_trust iter_val_referral(struct iter_req *req, size_t fi,
                                  const struct wire_msg *m, const uint8_t *cut,
                                  size_t cutlen, int *status);
/* A key or DS that validation needs was lost (evicted, a fetch failed
 * or timed out, no memory): SERVFAIL with EDE 0 and why, never bogus,
 * nothing cached as bogus (the work cap's path, DNSSEC_EBUDGET). */
#define ITER_WHY_KEYS_LOST "DNSSEC keys lost before use (overload)"
#define ITER_WHY_DS_LOST "DS not obtained (failed or timed out)"
int iter_val_lost(struct iter_req *req, const char *why);
uint32_t iter_bogus_ttl(const struct iter_req *req); /* BOGUS data's TTL */
/* iter_bogus.c: what a reply may undo when its data is bogus */
struct iter_snap {
	unsigned bogus_n;
	size_t depth;
	enum iter_trust trust;
	size_t an_len, ns_len;
	uint16_t an_count, ns_count;
	bool curve_all, any_rrset, val_any, val_ede;
	uint8_t val_sec, rcode;
	uint16_t val_ede_code;
	const char *val_ede_text;
};
/* iter_signer.c: the cut of an unsigned answer from a server of the
 * parent: start the walk (true: the reply is not used), note a DS
 * denial that denies NS too (not a cut), and settle a candidate after
 * its trust (1: moved a label down, evaluate again; 2: bogus). */
struct dnssec_denial;
bool iter_signer_walk(struct iter_req *req, size_t fi,
                      const struct wire_msg *m, const uint8_t *name,
                      size_t namelen);
void iter_signer_note(struct iter_req *req, const struct iter_frame *f,
                      const struct dnssec_denial *d, bool nx, uint32_t ttl);
int iter_signer_step(struct iter_req *req, size_t fi);
/* iter_util.c: frame f's zone and server sa as text (debug lines) */
void iter_log_where(const struct iter_frame *f, const struct sockaddr *sa,
                    char *zone, size_t zcap, char *addr, size_t acap);
void iter_bogus_snap(const struct iter_req *req, size_t fi,
                     struct iter_snap *s);
/* A reply to o made data of frame fi bogus: undo it and ask another
 * server of the zone (true), within ITER_BOGUS_RETRIES a question. */
bool iter_bogus_retry(struct iter_req *req, size_t fi,
                      const struct iter_out *o, const struct iter_snap *s);
/* Whether another server of frame fi's zone may still be asked. */
bool iter_bogus_can_retry(const struct iter_req *req, size_t fi,
                          const struct iter_out *o);

/* A reply signed by a zone below the frame's and above name (a server
 * of both zones answered from the lower one): the frame moves to that
 * zone with the same servers, to settle its trust and ask again (true:
 * the reply is not used). */
bool iter_val_descend(struct iter_req *req, size_t fi,
                      const struct wire_msg *m, const uint8_t *name,
                      size_t namelen);
/* NXDOMAIN (nx) or NODATA for frame fi's name: validate, cache and
 * answer it (iter_negative.c). */
void iter_negative(struct iter_req *req, size_t fi, const struct wire_msg *m,
                   const uint8_t *key, bool nx);
/* The signer name of an RRSIG record (uncompressed, RFC 4034 s3.1.7),
 * lowercased; false when its RDATA holds none (iter_signer.c). */
bool iter_sig_signer(const struct wire_msg *m, const struct wire_rr *rr,
                     uint8_t *out, size_t *len);
/* Whether the RRset (owner, type) of a reply to a SECURE zone lies
 * outside the zone or is signed only by other zones (the end of a chain
 * that left the zone): it is then asked for where it lives instead. */
bool iter_val_foreign(const struct iter_req *req, size_t fi,
                      const struct wire_msg *m, const uint8_t *owner,
                      size_t ownerlen, uint16_t type);
/* One debug line on a DNSSEC verdict (event=dnssec); a bogus one is
 * noted for the dnssec_failure line (iter_log.c). */
void iter_val_log(struct iter_req *req, const uint8_t *zone, size_t zlen,
                  const uint8_t *name, size_t nlen, uint16_t type, uint8_t sec,
                  int status);
/* The reason to give for a cached part of status sec, whose entry noted
 * EDE code ede (cache_bogus_ede; 0: none). */
int iter_cached_status(uint8_t sec, uint8_t ede);
/* Fold one part's status (and a reason) into the answer's. */
void iter_val_note(struct iter_req *req, uint8_t sec, int status);
/* A BOGUS entry just cached for name/type: keep the EDE code of status
 * beside it (cache_bogus_ede), so answers from the cache give it. */
void iter_val_cache_why(struct iter_req *req, const uint8_t *name, size_t len,
                        uint16_t type, uint8_t sec, int status);
/* Cache an RRset validated with status, and its reason when BOGUS. */
struct cache_rrset;
void iter_val_cache_set(struct iter_req *req, const struct cache_rrset *set,
                        int status);
/* Append the RRSIG records at (owner) covering type of a section. */
void iter_img_sigs(struct iter_img *img, const struct wire_msg *m,
                   enum wire_section sec, const uint8_t *owner,
                   size_t ownerlen, uint16_t type);
/* iter_proofimg.c */
/* A negative answer of frame fi that proved nothing (INSECURE, BOGUS):
 * its image becomes the SOA's RRSIGs and the NSEC/NSEC3 records of the
 * authority section under the frame's zone with their RRSIGs, as they
 * came (at most ITER_PROOF_RAW_MAX records looked at). */
void iter_negative_proof(struct iter_req *req, size_t fi,
                         const struct wire_msg *m, struct iter_img *img);
/* Append one record to an image (false: no room). */
bool iter_img_add(struct iter_img *img, const uint8_t *owner, size_t ownerlen,
                  uint16_t type, uint32_t ttl, const uint8_t *rdata,
                  size_t rdlen);

/* iter_wild.c (RFC 8198 section 5.4) */
/* After a set was cached: when it is a SECURE wildcard expansion whose
 * proof (NSEC records and their RRSIGs) is proof, the wildcard's own
 * set (set->dnssec[0..siglen): its RRSIGs) is cached at the wildcard's
 * name and the proof goes to the NSEC index. */
void iter_wild_keep(struct iter_req *req, const struct cache_rrset *set,
                    size_t siglen, const struct iter_img *proof);
/* Whether answers may come from validated NSEC records and cached
 * wildcards (an index, validation on, aggressive-nsec: yes). */
bool iter_aggressive_on(const struct iter_req *req);
/* A cache miss of the client's question answered from a cached wildcard
 * and the NSEC that proves the name absent (true: the frame is DONE,
 * failed, or follows the wildcard's CNAME). */
bool iter_lookup_wild(struct iter_req *req, size_t fi);

/* iter_util.c: a zone's servers. add: one more (uninitialised; NULL at
 * ITER_NS_MAX, out of memory); reset keeps the room; move empties src */
struct iter_ns *iter_zone_add(struct iter_zone *z);
void iter_zone_reset(struct iter_zone *z);
void iter_zone_move(struct iter_zone *dst, struct iter_zone *src);
void iter_zone_drop(struct iter_zone *z);
size_t iter_name_labels(const uint8_t *name, size_t len);
size_t iter_name_suffix(const uint8_t *name, size_t len, size_t labels);
bool iter_name_under(const uint8_t *name, size_t len, const uint8_t *zone,
                     size_t zonelen);
uint64_t iter_name_hash(const uint8_t *name, size_t len);
bool iter_rr_owner(const struct wire_msg *m, const struct wire_rr *rr,
                   uint8_t *out, size_t *outlen);
bool iter_rr_name(const struct wire_msg *m, const struct wire_rr *rr,
                  size_t skip, uint8_t *out, size_t *outlen);
bool iter_rdata_expand(const struct wire_msg *m, const struct wire_rr *rr,
                       uint8_t *out, size_t cap, size_t *outlen);
/* Whether an NS name of the root is one of the root hints' (its
 * addresses are exempt from do-not-query-localhost, as the hints'). */
bool iter_hints_name(const struct iter_req *req, const uint8_t *name,
                     size_t len);
/* Root hint i's addresses, or those of ns's name if a hint's, to ns. */
void iter_hints_addrs(struct iter_req *req, struct iter_ns *ns, size_t i);
void iter_ns_hints_addrs(struct iter_req *req, struct iter_ns *ns);
/* Whether the RDATA parses by its type's layout (A/AAAA sizes, names in
 * NS, CNAME, PTR, DNAME, MX, SRV, SOA ending where the RDATA ends). */
bool iter_rdata_valid(const struct wire_msg *m, const struct wire_rr *rr);
uint32_t iter_ttl(const struct iter_req *req, uint32_t ttl);
bool iter_answer_append(struct iter_req *req, const uint8_t *owner,
                        size_t ownerlen, uint16_t type, uint32_t ttl,
                        const uint8_t *rdata, size_t rdlen);
void iter_answer_curve(struct iter_req *req, bool curve);
/* A proof image's records not yet in the client's authority section go
 * there (iter_cname.c); iter_answer_image appends an image's records to
 * the answer or authority section, each with TTL ttl (0: as in it). */
void iter_authority_add(struct iter_req *req, const struct iter_img *img,
                        uint32_t ttl);
void iter_answer_image(struct iter_req *req, const struct iter_img *img,
                       uint32_t ttl, bool authority);

#endif /* CURVECACHE_RESOLVER_ITER_INT_H */
