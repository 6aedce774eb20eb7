/*
 * resolver/conf/cfg.h - the curvecache configuration file.
 *
 * The file is a list of "option: value" lines; '#' starts a comment; blank
 * lines are ignored. Options that may repeat (listen, access-control,
 * outgoing-interface) build lists; the first occurrence in a file replaces
 * the built-in default list; forward-zone and stub-zone lines (cfg_zone.c)
 * add a zone each, none by default; local-zone lines (cfg_local.c) change
 * or add local zones (resolver/policy/localzone.h). Every option and its
 * default is documented in etc/curvecache.conf.
 *
 * "include: PATH" reads another file in place of the line: PATH may be a
 * glob(3) pattern (its files are read in sorted order; a pattern that
 * matches nothing is no error, a missing plain file is), and a relative
 * PATH is taken from the directory of the file holding the include line
 * (so "include: conf.d/NAME.conf" in /etc/curvecache/curvecache.conf reads
 * /etc/curvecache/conf.d/, whatever the working directory; the daemon
 * works from "/"). Includes nest up to CFG_MAX_INCLUDE_DEPTH deep; a
 * file that includes itself, directly or not, is an error (found by
 * device and inode); an included file must be a regular file. A problem
 * inside an included file is told with that file's name and line.
 *
 * Design notes:
 * - struct cfg holds everything in fixed-size fields: no free, a plain
 *   copy is a full copy (SIGHUP reload parses into a fresh struct and
 *   swaps only if it is valid). The exception: the local-zone and
 *   local-data lines, a list the config points to, read-only once read
 *   and shared by every copy (cfg_local.c).
 * - Any error (unknown option, bad value, unreadable file) is reported as
 *   "FILE:LINE: problem" and the whole load fails: the daemon refuses to
 *   start (or, on reload, keeps the old config).
 */
#ifndef CURVECACHE_RESOLVER_CFG_H
#define CURVECACHE_RESOLVER_CFG_H

#include "base/base.h"
#include "base/log.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <netinet/in.h>

#include "privaddr.h"

#define CFG_MAX_LISTEN 16
#define CFG_MAX_ACL 64
/** Most proxy-protocol-from prefixes. */
#define CFG_MAX_PROXY_FROM 16
#define CFG_MAX_OUTGOING 16
#define CFG_MAX_PATH 256
#define CFG_MAX_USER 64
/** Largest config file (an included block list of a million local-zone
 *  lines is about 50 MB). */
#define CFG_MAX_FILE_BYTES (256u * 1024 * 1024)
#define CFG_ERR_BYTES 512
/** Bytes of the notes on ignored Unbound options (struct cfg). */
#define CFG_NOTES_BYTES 2048
#define CFG_DEFAULT_FILE SYSCONFDIR "/curvecache/curvecache.conf"
/** Files an include may nest below the top one. */
#define CFG_MAX_INCLUDE_DEPTH 8
/** Most files one load reads, the top one and every include counted. */
#define CFG_MAX_INCLUDE_FILES 256
/** Longest curve-key-rotate period: one year, in seconds. */
#define CFG_MAX_ROTATE_S (366u * 24 * 3600)

/** Forward and stub zones, each kind; servers per zone. */
#define CFG_MAX_ZONES 16
#define CFG_ZONE_ADDRS 8
/** Longest wire name (RFC 1035), root label included. */
#define CFG_NAME_MAX 255
/** A uz5 key label (54 characters) and its NUL. */
#define CFG_KEYLABEL_BYTES 55
/** The word of a forward-zone line that asks for forward-first. */
#define CFG_FORWARD_FIRST "forward-first"
/** The word of a forward-zone line asking for TLS to every server. */
#define CFG_FORWARD_TLS "forward-tls-upstream"
/** Default CA bundle for DNS over TLS (Debian's ca-certificates). */
#define CFG_TLS_BUNDLE_DEFAULT "/etc/ssl/certs/ca-certificates.crt"
/** Default and most incoming-num-tcp: TCP, DoT and DoH client
 *  connections per worker (slots allocated at start). */
#define CFG_INCOMING_TCP_DEFAULT 256u
#define CFG_INCOMING_TCP_MAX 65536u
/** Default tls-port: DNS over TLS for clients (RFC 7858). */
#define CFG_TLS_PORT_DEFAULT 853
/** Defaults of DNS over HTTPS for clients (RFC 8484; cfg_doh.c). */
#define CFG_HTTPS_PORT_DEFAULT 443
#define CFG_HTTP_ENDPOINT_DEFAULT "/dns-query"
#define CFG_HTTP_STREAMS_DEFAULT 100u
/** Default and most tls-ticket-rotate: an hour, a day. */
#define CFG_TICKET_ROTATE_DEFAULT 3600u
#define CFG_TICKET_ROTATE_MAX 86400u
/** Most http-max-streams (streams at once per connection). */
#define CFG_HTTP_STREAMS_MAX 1000u
#define CFG_HTTP_BUFFER_DEFAULT (4u * 1024u * 1024u)
/** Bytes of http-endpoint, its NUL counted. */
#define CFG_HTTP_PATH_MAX 128
/** local-zone lines, and local-data lines, each (Unbound has no limit:
 *  a block list of a million names is read). */
#define CFG_MAX_LOCAL_ZONES 4000000u
/** curve-require lines (zones that must be reached over DNSCurve). */
#define CFG_MAX_CURVE_REQUIRE 16
/** encrypted-zone lines (zones asked only over DNSCurve or DANE TLS). */
#define CFG_MAX_ENCRYPTED_ZONES 16
/** Serve-stale defaults (RFC 8767). */
#define CFG_STALE_WINDOW_DEFAULT 86400u
#define CFG_STALE_WINDOW_MAX (7u * 86400)
/** trust-anchor-file and auto-trust-anchor-file lines, each. */
#define CFG_MAX_TRUST_FILES 8
/** trust-anchor lines. */
#define CFG_MAX_TRUST_ANCHORS 16
/** Bytes of one trust-anchor record (a config line holds no more). */
#define CFG_TRUST_ANCHOR_BYTES 1024
/** Bytes of "FILE:LINE" telling where a trust-anchor line was. */
#define CFG_TRUST_AT_BYTES (CFG_MAX_PATH + 16)
/** domain-insecure lines. */
#define CFG_MAX_DOMAIN_INSECURE 64
/** DNSSEC defaults: how long bogus data is cached (seconds, Unbound's
 *  val-bogus-ttl), the NSEC3 iteration cap (RFC 9276). */
#define CFG_VAL_BOGUS_TTL_DEFAULT 60u
/** auth-tls-damping: seconds a server whose TLS failed is asked in plain
 *  before a new probe (RFC 9539: one day), and the largest value (30
 *  days). */
#define CFG_AUTH_TLS_DAMPING_DEFAULT 86400u
#define CFG_AUTH_TLS_DAMPING_MAX (30u * 86400u)
/** jostle-timeout default (Unbound's), and its largest value, ms. */
#define CFG_JOSTLE_DEFAULT_MS 200u
#define CFG_JOSTLE_MAX_MS 60000u
#define CFG_NSEC3_ITERATIONS_DEFAULT 50u
/** RFC 5011 (auto-trust-anchor-file): add-holddown and del-holddown
 *  (30 days), keep-missing (366 days), as Unbound; the largest value
 *  taken (10 years). */
#define CFG_HOLDDOWN_DEFAULT 2592000u
#define CFG_KEEP_MISSING_DEFAULT 31622400u
#define CFG_HOLDDOWN_MAX 315360000u
/** The Redis cache tier (cachedb-backend: redis; cfg_cachedb.c): the
 *  server's default port, redis-timeout's default and largest value (ms),
 *  the bytes of a host name or password, the shortest fleet secret and
 *  the bytes of the key derived from it. */
#define CFG_REDIS_PORT_DEFAULT 6379u
#define CFG_REDIS_TIMEOUT_DEFAULT_MS 100u
#define CFG_REDIS_TIMEOUT_MAX_MS 60000u
#define CFG_REDIS_TEXT_BYTES 256
#define CFG_CACHEDB_SECRET_MIN 32u
#define CFG_CACHEDB_SECRET_MAX 4096u
#define CFG_CACHEDB_KEY_BYTES 32

/** What access control does with a client. */
enum cfg_acl_action {
	CFG_ACL_ALLOW = 0, /**< answer */
	CFG_ACL_REFUSE,    /**< answer REFUSED */
	CFG_ACL_DENY       /**< drop silently */
};

/** One access-control rule: a prefix and what to do. */
struct cfg_acl {
	int family;       /**< AF_INET or AF_INET6 */
	uint8_t addr[16]; /**< network address (4 or 16 bytes used) */
	unsigned prefix;  /**< prefix length in bits */
	enum cfg_acl_action action;
};

/** An address with a port (listen) or without (outgoing: port 0). */
struct cfg_addr {
	struct sockaddr_storage sa;
	socklen_t len;
	bool port_given; /**< written as ADDR@PORT */
};

/** Bytes of an AUTH-NAME (ADDR#NAME), with its NUL. */
#define CFG_TLSNAME_BYTES 254
/** Bytes of an SPKI pin: SHA-256 (RFC 7858 s4.2). */
#define CFG_PIN_BYTES 32

/** The shared second cache tier on Redis (cfg_cachedb.c; issue 26). */
struct cfg_cachedb {
	bool on;                             /**< cachedb-backend: redis */
	char on_at[CFG_TRUST_AT_BYTES];      /**< "FILE:LINE" of that line */
	char host[CFG_REDIS_TEXT_BYTES];     /**< redis-server-host */
	uint32_t port;                       /**< redis-server-port */
	char path[CFG_MAX_PATH];             /**< redis-server-path (unix
	                                          socket); wins over host */
	char password[CFG_REDIS_TEXT_BYTES]; /**< AUTH; empty: none */
	uint32_t timeout_ms;                 /**< redis-timeout */
	bool expire_records;                 /**< SET ... EX ttl */
	bool no_store;                       /**< read only, never SET */
	char secret_file[CFG_MAX_PATH];      /**< cachedb-secret-file */
	uint8_t key[CFG_CACHEDB_KEY_BYTES];  /**< derived from its bytes */
	bool key_set;
};

/** How a forward server is authenticated over TLS (cfg_tlsaddr.c). */
struct cfg_tls {
	char name[CFG_TLSNAME_BYTES]; /**< AUTH-NAME; "" = plain DNS */
	uint8_t pin[CFG_PIN_BYTES];   /**< SHA-256 of the SPKI (DER) */
	bool has_pin;
};

/** A forward zone or a stub zone and its servers. */
struct cfg_zone {
	uint8_t name[CFG_NAME_MAX]; /**< lowercase wire name */
	size_t namelen;
	struct cfg_addr addr[CFG_ZONE_ADDRS]; /**< port 53 unless given */
	size_t naddr;
	/** Stub zones: the uz5 key label of each server ("" if plain). */
	char key[CFG_ZONE_ADDRS][CFG_KEYLABEL_BYTES];
	bool first; /**< forward zones: forward-first (iterate when every
	                 forwarder failed) */
	/** Forward zones: each server's DNS-over-TLS authentication
	 *  (name "": plain DNS). */
	struct cfg_tls tls[CFG_ZONE_ADDRS];
	bool tls_upstream; /**< forward-tls-upstream: every server needs
	                        #AUTH-NAME */
};

/** What a local zone does with the names at or below it (the types of
 *  Unbound's local-zone of the same names; resolver/policy/localzone.h
 *  tells each one's answers). CFG_LZ_NAMES lists their names in this
 *  order. */
enum cfg_lz_type {
	CFG_LZ_STATIC = 0,      /**< data, else NXDOMAIN/NODATA + SOA */
	CFG_LZ_TRANSPARENT,     /**< data, else resolved */
	CFG_LZ_REFUSE,          /**< data, else REFUSED */
	CFG_LZ_NODEFAULT,       /**< the built-in zone of that name is gone */
	CFG_LZ_DENY,            /**< data, else dropped */
	CFG_LZ_TYPETRANSPARENT, /**< data of the type, else resolved */
	CFG_LZ_REDIRECT,        /**< the apex's data for every name below */
	CFG_LZ_INFORM,          /**< transparent, and the client is logged */
	CFG_LZ_INFORM_DENY,     /**< deny, and the client is logged */
	CFG_LZ_INFORM_REDIRECT, /**< redirect, and the client is logged */
	CFG_LZ_ALWAYS_TRANSPARENT, /**< resolved, local data or not */
	CFG_LZ_ALWAYS_REFUSE,      /**< REFUSED, local data or not */
	CFG_LZ_ALWAYS_NXDOMAIN,    /**< NXDOMAIN, local data or not */
	CFG_LZ_ALWAYS_NODATA,      /**< NODATA, local data or not */
	CFG_LZ_ALWAYS_DENY,        /**< dropped, local data or not */
	CFG_LZ_ALWAYS_NULL,        /**< A 0.0.0.0, AAAA ::, else NODATA */
	CFG_LZ_NOVIEW,             /**< no views here: transparent */
	CFG_LZ_COUNT               /**< the number of types */
};

/** The names of the types, in enum cfg_lz_type's order. */
#define CFG_LZ_NAMES \
	"static", "transparent", "refuse", "nodefault", "deny", \
		"typetransparent", "redirect", "inform", "inform_deny", \
		"inform_redirect", "always_transparent", "always_refuse", \
		"always_nxdomain", "always_nodata", "always_deny", \
		"always_null", "noview"

/** A local-zone line. */
struct cfg_local_zone {
	uint8_t name[CFG_NAME_MAX]; /**< lowercase wire name */
	size_t namelen;
	enum cfg_lz_type type;
};

/** A local-data or local-data-ptr line, as read back from the list. */
struct cfg_local_data {
	uint8_t name[CFG_NAME_MAX]; /**< owner, lowercase wire name */
	size_t namelen;
	uint16_t type;     /**< record type */
	uint32_t ttl;      /**< CFG_LOCAL_TTL unless given */
	const char *rdata; /**< RDATA text (not NUL-terminated) */
	size_t rdlen;      /**< its length */
};

/** TTL of a local-data record that gives none (Unbound's). */
#define CFG_LOCAL_TTL 3600u

/** The local-zone, local-data and local-data-ptr lines of a config
 *  (cfg_local.c): a list that is never changed once the config is read,
 *  shared by every copy of the config. */
struct cfg_local;

/** DNSCurve formats, in the order they are tried. */
enum cfg_curve_format { CFG_CURVE_STREAMLINED = 0, CFG_CURVE_TXT };

/** auth-tls: DNS over TLS to authoritative servers (RFC 9539). */
enum cfg_auth_tls {
	CFG_AUTH_TLS_NO = 0,       /**< never */
	CFG_AUTH_TLS_OPPORTUNISTIC /**< probe, use where it works (default) */
};

/** The whole configuration. Plain data: copy freely. */
struct cfg {
	char file[CFG_MAX_PATH]; /**< where it was read from */
	uint64_t load_gen; /**< which cfg_load made it (counted per process,
	                        0: none): a reload is a new value, so that
	                        what caches files it names (the TLS CA bundle)
	                        reads them again */
	/** "FILE:LINE: option: note" lines, one per Unbound option that was
	 *  read but means nothing here (curvecache -t prints them) */
	char notes[CFG_NOTES_BYTES];
	uint16_t port; /**< default listen port */
	struct cfg_addr listen[CFG_MAX_LISTEN];
	size_t n_listen;
	bool ip_freebind; /**< listen on addresses not (yet)
	                       on the host (IP_FREEBIND) */
	struct cfg_acl acl[CFG_MAX_ACL];
	size_t n_acl;
	enum cfg_acl_action acl_default; /**< for clients no rule matches */
	/** Load balancers whose packets carry a PROXY v2 header (their
	    action field is unused). */
	struct cfg_acl proxy_from[CFG_MAX_PROXY_FROM];
	size_t n_proxy_from;
	uint32_t ratelimit;             /**< queries/s per client, 0 = off */
	bool ratelimit_exempt_loopback; /**< loopback never limited */
	char root_hints[CFG_MAX_PATH];  /**< empty: Debian's file if it
	                                     loads, else built-in (hints.h) */
	/** "FILE:LINE" of the root-hints line, for the loader's messages */
	char root_hints_at[CFG_TRUST_AT_BYTES];
	bool do_ip4, do_ip6;
	struct cfg_addr outgoing[CFG_MAX_OUTGOING];
	size_t n_outgoing;
	bool qname_minimisation;
	bool do_not_query_localhost;
	bool harden_glue; /**< glue only for NS names in the
	                       bailiwick of the referring
	                       zone (default); off: any */
	/** private-address and private-domain lines (privaddr.h): address
	 *  records of upstream answers that are stripped; none by default */
	struct privaddr priv;
	uint64_t cache_size; /**< bytes */
	uint32_t min_ttl, max_ttl, neg_max_ttl;
	uint16_t edns_size;        /**< EDNS payload offered upstream */
	uint32_t query_timeout_ms; /**< per client query */
	/** jostle-timeout: under overload, a resolution outside the
	 *  protected half that has run this long may make room for a new
	 *  one (milliseconds) */
	uint32_t jostle_timeout_ms;
	bool curve; /**< DNSCurve upstream at all */
	enum cfg_curve_format curve_order[2];
	size_t n_curve_order;
	bool curve_plain_fallback;
	/** curve-require: zones (lowercase wire names) whose answers are
	 *  accepted only over DNSCurve */
	uint8_t curve_require[CFG_MAX_CURVE_REQUIRE][CFG_NAME_MAX];
	size_t curve_require_len[CFG_MAX_CURVE_REQUIRE];
	size_t n_curve_require;
	/** encrypted-zone: zones (lowercase wire names) whose own servers
	 *  and those below are asked only over DNSCurve or DANE TLS */
	uint8_t encrypted_zone[CFG_MAX_ENCRYPTED_ZONES][CFG_NAME_MAX];
	size_t encrypted_zone_len[CFG_MAX_ENCRYPTED_ZONES];
	size_t n_encrypted_zone;
	bool curve_pin;                    /**< refuse key-less referrals for
	                                        zones seen with keys */
	char curve_key_file[CFG_MAX_PATH]; /**< empty: fresh key per start */
	/** "FILE:LINE" of the curve-key-file line, for its messages */
	char curve_key_file_at[CFG_TRUST_AT_BYTES];
	uint32_t curve_key_rotate_s;   /**< client key rotation period in
	                                    seconds; 0 = never */
	char cache_file[CFG_MAX_PATH]; /**< saved at exit, loaded at start;
	                                    empty: none */
	bool log_queries;              /**< one log line per client query */
	bool serve_stale;              /**< RFC 8767, on failures */
	uint32_t serve_stale_window;   /**< seconds past expiry */
	bool prefetch;                 /**< refresh in the last 10 % */
	char tls_cert_bundle[CFG_MAX_PATH]; /**< CA certificates (PEM) that
	                                         TLS forwarders are checked
	                                         against */
	enum cfg_auth_tls auth_tls;         /**< auth-tls */
	uint32_t auth_tls_damping_s;        /**< auth-tls-damping (a reload:
	                                         failures from then on) */
	/** DNS over TLS for clients (RFC 7858): a listen address on this
	 *  port serves DoT (TCP only) with this key and certificate chain
	 *  (PEM files, read at start and on every reload) */
	uint16_t tls_port;
	/** incoming-num-tcp: TCP/DoT/DoH client connections per worker
	 *  (restart only) */
	uint32_t incoming_num_tcp;
	char tls_service_key[CFG_MAX_PATH];
	char tls_service_pem[CFG_MAX_PATH];
	/** "FILE:LINE" of the tls-service-key and tls-service-pem lines */
	char tls_service_key_at[CFG_TRUST_AT_BYTES];
	char tls_service_pem_at[CFG_TRUST_AT_BYTES];
	/** DNS over HTTPS for clients (RFC 8484, HTTP/2): a listen
	 *  address on https-port serves DoH at http-endpoint with the key
	 *  and certificate of tls-service-key and tls-service-pem; at most
	 *  http-max-streams streams per connection; the query and response
	 *  bytes a worker holds for its DoH streams, at most */
	uint16_t https_port;
	char http_endpoint[CFG_HTTP_PATH_MAX];
	uint32_t http_max_streams;
	uint64_t http_query_buffer_size;
	uint64_t http_response_buffer_size;
	/** tls-ticket-rotate: seconds a session-ticket key of DoT and
	 *  DoH encrypts tickets; the key before it still decrypts, so a
	 *  ticket resumes for two intervals at most (server_ticket.h) */
	uint32_t tls_ticket_rotate;
	struct cfg_zone forward[CFG_MAX_ZONES]; /**< forward-zone lines */
	size_t n_forward;
	struct cfg_zone stub[CFG_MAX_ZONES]; /**< stub-zone lines */
	size_t n_stub;
	char local_data_file[CFG_MAX_PATH]; /**< hosts-like; empty: none */
	char block_file[CFG_MAX_PATH];      /**< names to block; empty: none */
	/** "FILE:LINE" of the local-data-file and block-file lines */
	char local_data_file_at[CFG_TRUST_AT_BYTES];
	char block_file_at[CFG_TRUST_AT_BYTES];
	/** local-zone, local-data, local-data-ptr lines; NULL: none */
	const struct cfg_local *local;
	char user[CFG_MAX_USER];           /**< empty: keep the start user */
	char control_socket[CFG_MAX_PATH]; /**< empty: no control socket */
	char pidfile[CFG_MAX_PATH];        /**< absolute; written after the
	                                        privilege drop, removed at
	                                        exit; empty: none */
	enum cfg_log_level log_level;
	unsigned threads;
	/* DNSSEC (issue 15; the anchors are loaded by
	 * resolver/daemon/trust.h, which conf/ may not see) */
	bool dnssec; /**< validate at all (default yes) */
	/** trust-anchor-file: zone files of DS/DNSKEY records */
	char trust_anchor_file[CFG_MAX_TRUST_FILES][CFG_MAX_PATH];
	/** "FILE:LINE" of each trust-anchor-file line, for the loader's
	 *  messages (start, reload, curvecache -t) */
	char trust_anchor_file_at[CFG_MAX_TRUST_FILES][CFG_TRUST_AT_BYTES];
	size_t n_trust_anchor_file;
	/** auto-trust-anchor-file: RFC 5011 kept anchors, one zone each
	 *  (resolver/daemon/autotrust_run.h) */
	char auto_trust_anchor_file[CFG_MAX_TRUST_FILES][CFG_MAX_PATH];
	/** "FILE:LINE" of each auto-trust-anchor-file line */
	char auto_trust_anchor_file_at[CFG_MAX_TRUST_FILES]
				      [CFG_TRUST_AT_BYTES];
	size_t n_auto_trust_anchor_file;
	/** trust-anchor: one record each, unquoted; checked when loaded */
	char trust_anchor[CFG_MAX_TRUST_ANCHORS][CFG_TRUST_ANCHOR_BYTES];
	/** "FILE:LINE" of each trust-anchor line, for its messages */
	char trust_anchor_at[CFG_MAX_TRUST_ANCHORS][CFG_TRUST_AT_BYTES];
	size_t n_trust_anchor;
	/** domain-insecure: negative trust anchors (lowercase wire) */
	uint8_t domain_insecure[CFG_MAX_DOMAIN_INSECURE][CFG_NAME_MAX];
	size_t domain_insecure_len[CFG_MAX_DOMAIN_INSECURE];
	size_t n_domain_insecure;
	uint32_t val_bogus_ttl;        /**< seconds bogus data is cached */
	uint16_t nsec3_max_iterations; /**< above it: insecure */
	bool aggressive_nsec;          /**< RFC 8198: answers from validated
	                                    NSEC/NSEC3 records and cached
	                                    wildcards without asking */
	uint32_t add_holddown;         /**< seconds (RFC 5011 s2.4.1) */
	uint32_t del_holddown;         /**< seconds a revoked key is kept */
	uint32_t keep_missing;         /**< seconds; 0: for ever */
	bool permit_small_holddown;    /**< hold-downs under 30 days (tests) */
	struct cfg_cachedb cachedb;    /**< the Redis tier (issue 26) */
};

/**
 * The message of root hints that did not load (the loader's why): with
 * the FILE:LINE of the root-hints line when the config names the file,
 * so that a start, a reload and curvecache -t point at it (cfg_file.c).
 * @param c: the config; why: the loader's message; err, errlen: out.
 */
void cfg_root_hints_error(const struct cfg *c, const char *why, char *err,
                          size_t errlen);

/**
 * A loader's message about the file of local-data-file or block-file
 * (it starts with the file's path): put the FILE:LINE and the name of
 * the option naming that file before it ("conf:3: block-file
 * /x/names:1: ..."), as for root-hints. Unchanged when no option names a
 * file the message starts with (cfg_file.c).
 * @param c: the config; err, errlen: the message, rewritten in place.
 */
void cfg_file_error(const struct cfg *c, char *err, size_t errlen);

/**
 * Fill a config with the built-in defaults.
 * @param c: the config to fill.
 */
void cfg_defaults(struct cfg *c);

/**
 * Read and check a config file into *out (defaults, then the file and
 * the files it includes).
 * @param path: the file.
 * @param out: receives the config; unspecified on failure.
 * @param err: receives "FILE:LINE: problem" on failure.
 * @param errlen: size of err.
 * @return 0 on success, -1 on any error.
 */
int cfg_load(const char *path, struct cfg *out, char *err, size_t errlen)
	MUST_CHECK;

/**
 * Parse config text (for cfg_load, tests and the fuzzer).
 * @param name: the file name used in messages; relative include lines
 *   are taken from its directory (the working directory if it has no
 *   '/').
 * @param text, len: the text; need not be NUL-terminated.
 * @param out: defaults are NOT applied here; call cfg_defaults first.
 * @param err, errlen: as for cfg_load.
 * @return 0 on success, -1 on error.
 */
int cfg_parse(const char *name, const char *text, size_t len, struct cfg *out,
              char *err, size_t errlen) MUST_CHECK;

/**
 * Find what access control does with a client address.
 * The longest matching prefix wins; no match gives acl_default.
 * @param c: the config.
 * @param sa: the client address (AF_INET or AF_INET6; v4-mapped v6 is
 *   matched as IPv4).
 */
enum cfg_acl_action cfg_acl_check(const struct cfg *c,
                                  const struct sockaddr *sa);

/**
 * Whether a peer is a load balancer of proxy-protocol-from (its packets
 * must start with a PROXY v2 header).
 * @param c: the config.
 * @param sa: the peer address.
 */
bool cfg_proxy_from(const struct cfg *c, const struct sockaddr *sa);

/**
 * Parse "ADDR" or "ADDR@PORT" (IPv4 or IPv6, no brackets).
 * @param s: NUL-terminated text.
 * @param port: the port when none is given.
 * @param out: receives the address.
 * @return 0 or -1.
 */
int cfg_addr_parse(const char *s, uint16_t port, struct cfg_addr *out);

/** A forward server "ADDR[@PORT][#NAME[^PIN]]" of len bytes (not read
 *  past): the address (port 853 with #NAME, else 53, unless given) and
 *  its TLS authentication (tls->name "" when plain). 0 or -1. */
int cfg_tlsaddr_parse(const char *s, size_t len, struct cfg_addr *addr,
                      struct cfg_tls *tls);

/** 44 characters of base64 into a 32-byte pin. 0 or -1. */
int cfg_pin_parse(const char *s, size_t len, uint8_t pin[CFG_PIN_BYTES]);

/**
 * Parse the value of a forward-zone or stub-zone line (cfg_zone.c):
 * "NAME SERVER...": for a forward zone each SERVER is
 * "ADDR[@PORT][#AUTH-NAME[^PIN]]" (cfg_tlsaddr_parse), for
 * a stub zone "ADDR" or "ADDR/uz5KEYLABEL" (a DNSCurve server; port 53).
 * @param value: NUL-terminated text; changed (split in place).
 * @param keys: uz5 key labels allowed (stub zones).
 * @param out: receives the zone.
 * @param why, whylen: receive the problem on failure.
 * @return 0 or -1.
 */
int cfg_zone_parse(char *value, bool keys, struct cfg_zone *out, char *why,
                   size_t whylen) MUST_CHECK;

/**
 * Add the value of a local-zone line (cfg_local.c): "NAME TYPE", TYPE one
 * of CFG_LZ_NAMES; NAME may be in double quotes. The root "." is no local
 * zone; a later line for the same name wins.
 * @param c: the config being read.
 * @param value: NUL-terminated text; changed (split in place).
 * @param why, whylen: receive the problem on failure.
 * @return 0 or -1 (c unchanged).
 */
int cfg_local_zone_add(struct cfg *c, char *value, char *why, size_t whylen)
	MUST_CHECK;

/**
 * Add the value of a local-data line, "NAME [TTL] [IN] TYPE RDATA", or of
 * a local-data-ptr line, "ADDRESS [TTL] NAME" (cfg_local.c); the value may
 * be in one pair of quotes. The RDATA text is checked when the local zones
 * are built (localzone_build), which curvecache -t does too.
 * @param ptr: a local-data-ptr line.
 * @return 0 or -1 (c unchanged).
 */
int cfg_local_data_add(struct cfg *c, char *value, bool ptr, char *why,
                       size_t whylen) MUST_CHECK;

/** Parse a local-zone type name; -1 when it is none. */
int cfg_lz_type_parse(const char *s);

/** The name of a local-zone type ("static", ...). */
const char *cfg_lz_type_name(enum cfg_lz_type t);

/**
 * Parse one local-data record text into *out (what cfg_local_data_add
 * keeps; for the control commands too).
 * @param text: "NAME [TTL] [IN] TYPE RDATA" (not quoted); out->rdata
 *   points into it.
 * @return 0 or -1 with the problem in why.
 */
int cfg_local_data_parse(const char *text, struct cfg_local_data *out,
                         char *why, size_t whylen) MUST_CHECK;

/**
 * Parse a local-data-ptr text "ADDRESS [TTL] NAME" into *out, a PTR
 * record; out->rdata points into text.
 * @return 0 or -1 with the problem in why.
 */
int cfg_local_ptr_parse(const char *text, struct cfg_local_data *out,
                        char *why, size_t whylen) MUST_CHECK;

/** Counts of the local-zone and local-data lines of a config. */
void cfg_local_counts(const struct cfg *c, size_t *zones, size_t *data);

/**
 * Read the local-zone lines in order: *pos starts at 0.
 * @return true with *out filled, false after the last.
 */
bool cfg_local_zone_next(const struct cfg_local *l, size_t *pos,
                         struct cfg_local_zone *out);

/** Read the local-data lines (PTR ones included) in order, as above. */
bool cfg_local_data_next(const struct cfg_local *l, size_t *pos,
                         struct cfg_local_data *out);

/**
 * Make the lines of a config read-only (cfg_end_check does it): an equal
 * list read before is shared instead, so reloads of one file keep one
 * copy. Lists are kept until the process ends (a copy of a config may
 * point at them at any time).
 */
void cfg_local_seal(struct cfg *c);

/**
 * Add the value of a private-address line (an IPv4 or IPv6 address or
 * ADDR/BITS) or a private-domain line (a name) to c->priv (cfg_zone.c);
 * the value may be in double quotes, as Unbound's configs write it.
 * @param c: the config being read.
 * @param domain: true for private-domain.
 * @param value: NUL-terminated text; changed (unquoted in place).
 * @param why, whylen: receive the problem on failure.
 * @return 0 or -1 (c unchanged).
 */
int cfg_private_add(struct cfg *c, bool domain, char *value, char *why,
                    size_t whylen) MUST_CHECK;

/**
 * Parse a zone name ("corp.example.", "corp.example" or ".") into
 * lowercase wire form (cfg_zone.c).
 * @param text: NUL-terminated name.
 * @param out: CFG_NAME_MAX bytes.
 * @param outlen: receives the length.
 * @return 0 or -1 (empty label, label too long, name too long, space or
 *   control character).
 */
int cfg_name_parse(const char *text, uint8_t *out, size_t *outlen) MUST_CHECK;

/**
 * The longest forward or stub zone (of n) at or above a name.
 * @param z, n: the zones.
 * @param name, len: lowercase wire name.
 * @return the zone's index, or -1 when none holds the name.
 */
int cfg_zone_find(const struct cfg_zone *z, size_t n, const uint8_t *name,
                  size_t len);

#endif /* CURVECACHE_RESOLVER_CFG_H */
