/*
 * resolver/wire/wire.h - the one DNS wire codec of curvecache.
 *
 * Every DNS message that reaches curvecache (from clients, from upstream
 * servers, from inside a DNSCurve box) is parsed here and nowhere else,
 * and every message curvecache sends is written here.
 *
 * Design notes:
 * - Parsers take (buf, len, &pos) and check before every read; none reads
 *   past len. On failure *pos and the outputs are left as they were.
 * - Every loop driven by network data has a named cap: compression pointer
 *   steps (WIRE_PTR_STEPS_MAX), records per message (WIRE_RR_MAX and the
 *   caller's array), the name length (WIRE_NAME_MAX).
 * - Compression pointers must point strictly before the start of the label
 *   run that holds them, so every decompression terminates even before the
 *   step cap; a pointer at or after itself is WIRE_EPTR, one that goes
 *   back into its own run is WIRE_ELOOP.
 * - Nothing here allocates: messages are parsed into caller-provided
 *   arrays of record views (offsets into the caller's buffer), and the
 *   writer writes into a caller-provided buffer with its capacity checked
 *   at every copy.
 * - Names leave the reader uncompressed, in wire format (length-prefixed
 *   labels ending with the root label), optionally lowercased: the
 *   canonical form the cache takes.
 * - Nothing here touches sockets, clocks or random sources: the 0x20
 *   helper takes its random bytes as an argument.
 */
#ifndef CURVECACHE_RESOLVER_WIRE_H
#define CURVECACHE_RESOLVER_WIRE_H

#include "base/base.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** Bytes in a DNS header. */
#define WIRE_HEADER_BYTES 12
/** Longest label, in bytes (RFC 1035 2.3.4). */
#define WIRE_LABEL_MAX 63
/** Longest name in wire format, root label included (RFC 1035 2.3.4). */
#define WIRE_NAME_MAX 255
/**
 * Text buffer that holds any wire name in presentation format with its
 * NUL: 253 label bytes all escaped as \DDD, plus dots and the NUL.
 */
#define WIRE_NAME_TEXT_MAX 1024
/** Most compression pointers followed while reading one name. */
#define WIRE_PTR_STEPS_MAX 128
/** Largest offset a compression pointer can hold (14 bits). */
#define WIRE_PTR_OFFSET_MAX 0x3fff
/** Most resource records (answer + authority + additional) parsed. */
#define WIRE_RR_MAX 2048
/** Fewest bytes a question takes (root name, type, class). */
#define WIRE_QUESTION_MIN_BYTES 5
/** Fewest bytes a resource record takes (root owner, fixed fields). */
#define WIRE_RR_MIN_BYTES 11
/** Largest DNS message (TCP length prefix is 16 bits). */
#define WIRE_MSG_MAX 65535
/** Names remembered by a writer as compression targets (label starts). */
#define WIRE_COMPRESS_MAX 64
/** Random bytes wire_name_0x20 needs: one bit per byte of a name. */
#define WIRE_0X20_RANDOM_BYTES ((WIRE_NAME_MAX + 7) / 8)
/** DNS payload that fits a plain UDP answer without EDNS. */
#define WIRE_UDP_PLAIN_MAX 512
/** Default EDNS0 payload size (DNS flag day 2020). */
#define WIRE_EDNS_PAYLOAD_DEFAULT 1232
/** Index value meaning "no such record" (see wire_msg.opt). */
#define WIRE_NONE ((size_t)-1)

/** Header flag bits (the 16-bit word after the ID). */
#define WIRE_FLAG_QR 0x8000u
#define WIRE_FLAG_AA 0x0400u
#define WIRE_FLAG_TC 0x0200u
#define WIRE_FLAG_RD 0x0100u
#define WIRE_FLAG_RA 0x0080u
#define WIRE_FLAG_Z 0x0040u
#define WIRE_FLAG_AD 0x0020u
#define WIRE_FLAG_CD 0x0010u
/** The opcode field of a flags word. */
#define WIRE_OPCODE(flags) (((flags) >> 11) & 0x0fu)
/** The (4-bit) RCODE field of a flags word. */
#define WIRE_RCODE(flags) ((flags)&0x000fu)
/** The DO bit in the TTL field of an OPT record (RFC 3225). */
#define WIRE_EDNS_DO 0x00008000u

/** Resource record types used by curvecache. */
#define WIRE_TYPE_A 1
#define WIRE_TYPE_NS 2
#define WIRE_TYPE_CNAME 5
#define WIRE_TYPE_SOA 6
#define WIRE_TYPE_PTR 12
#define WIRE_TYPE_MX 15
#define WIRE_TYPE_TXT 16
#define WIRE_TYPE_AAAA 28
#define WIRE_TYPE_SRV 33
#define WIRE_TYPE_DNAME 39
#define WIRE_TYPE_OPT 41
#define WIRE_TYPE_DS 43
#define WIRE_TYPE_RRSIG 46
#define WIRE_TYPE_NSEC 47
#define WIRE_TYPE_DNSKEY 48
#define WIRE_TYPE_NSEC3 50
#define WIRE_TYPE_ANY 255
/** Classes. */
#define WIRE_CLASS_IN 1
#define WIRE_CLASS_CH 3
#define WIRE_CLASS_HS 4
#define WIRE_CLASS_ANY 255
/** Opcodes and RCODEs. */
#define WIRE_OPCODE_QUERY 0
#define WIRE_RCODE_NOERROR 0
#define WIRE_RCODE_FORMERR 1
#define WIRE_RCODE_SERVFAIL 2
#define WIRE_RCODE_NXDOMAIN 3
#define WIRE_RCODE_NOTIMP 4
#define WIRE_RCODE_REFUSED 5

/** Status codes: 0 is success, every rejection has its own code. */
enum wire_status {
	WIRE_OK = 0,
	WIRE_ESHORT,    /**< data ends before the field being read */
	WIRE_ELABEL,    /**< label longer than 63 or of a reserved type */
	WIRE_ENAME,     /**< name longer than 255 bytes */
	WIRE_EPTR,      /**< compression pointer at or after itself */
	WIRE_ELOOP,     /**< compression loop, or too many pointer steps */
	WIRE_ECOUNT,    /**< section counts exceed the data or the caps */
	WIRE_EQDCOUNT,  /**< QDCOUNT other than 0 or 1 */
	WIRE_EOPT,      /**< misplaced, duplicate or malformed OPT record */
	WIRE_ERDATA,    /**< RDATA does not fit its type or its RDLENGTH */
	WIRE_ESPACE,    /**< output buffer or writer capacity exhausted */
	WIRE_ETEXT,     /**< malformed presentation (text) input */
	WIRE_ENOTRESP,  /**< message is not a response (QR clear) */
	WIRE_EID,       /**< response ID differs from the query's */
	WIRE_EQUESTION, /**< response question differs from the query's */
	WIRE_ECASE,     /**< question matches except for letter case (0x20) */
	WIRE_EINVAL     /**< bad argument */
};

/** Message sections, in wire order. */
enum wire_section {
	WIRE_SECTION_QUESTION = 0,
	WIRE_SECTION_ANSWER,
	WIRE_SECTION_AUTHORITY,
	WIRE_SECTION_ADDITIONAL
};

/** Flags for wire_read_name and friends. */
#define WIRE_NAME_LOWER 0x1u /**< lowercase A-Z while copying */
/** Flags for wire_msg_match. */
#define WIRE_MATCH_CASE 0x1u /**< the question name must match exactly */

/** A DNS header, host byte order. */
struct wire_header {
	uint16_t id;
	uint16_t flags; /**< QR, opcode, AA, TC, RD, RA, Z, AD, CD, RCODE */
	uint16_t qdcount;
	uint16_t ancount;
	uint16_t nscount;
	uint16_t arcount;
};

/** A parsed question; the name is copied out, uncompressed, case kept. */
struct wire_question {
	uint8_t name[WIRE_NAME_MAX];
	size_t namelen;
	uint16_t qtype;
	uint16_t qclass;
};

/**
 * A view of one resource record: offsets into the message it was parsed
 * from, valid as long as that buffer is. The owner name is read with
 * wire_read_name(msg, len, &off...) from offset owner; RDATA is
 * [rdata, rdata + rdlen). The TTL is the raw 32-bit field.
 */
struct wire_rr {
	size_t owner;
	size_t rdata;
	uint32_t ttl;
	uint16_t type;
	uint16_t rclass;
	uint16_t rdlen;
	uint8_t section; /**< enum wire_section */
};

/**
 * A parsed message. Records are rr[0 .. an) answers, then ns authority
 * records, then ar additional records. All offsets refer to buf.
 */
struct wire_msg {
	const uint8_t *buf;
	size_t len;
	struct wire_header hdr;
	int has_question; /**< 1 if QDCOUNT was 1 */
	struct wire_question q;
	struct wire_rr *rr; /**< the caller's array */
	size_t rrcap;       /**< its capacity */
	size_t an, ns, ar;  /**< records per section */
	size_t opt;         /**< index of the OPT record or WIRE_NONE */
	size_t end;         /**< offset after the last record */
};

/**
 * Describe a status code.
 * @param status: a value of enum wire_status.
 * @return a static string; never NULL.
 */
const char *wire_strerror(int status);

/* ------------------------------------------------------------------ */
/* Bounded reader                                                      */

/**
 * Read one byte at *pos.
 * @param buf, len: the message; nothing at or past len is read.
 * @param pos: position; advanced by 1 on success, unchanged on failure.
 * @param out: receives the value.
 * @return WIRE_OK or WIRE_ESHORT.
 */
int wire_read_u8(const uint8_t *buf, size_t len, size_t *pos, uint8_t *out)
	MUST_CHECK;

/** As wire_read_u8 for a big-endian 16-bit field. */
int wire_read_u16(const uint8_t *buf, size_t len, size_t *pos, uint16_t *out)
	MUST_CHECK;

/** As wire_read_u8 for a big-endian 32-bit field. */
int wire_read_u32(const uint8_t *buf, size_t len, size_t *pos, uint32_t *out)
	MUST_CHECK;

/**
 * Read n bytes at *pos.
 * @param out: receives n bytes, or NULL to skip them.
 * @return WIRE_OK or WIRE_ESHORT (nothing copied, *pos unchanged).
 */
int wire_read_bytes(const uint8_t *buf, size_t len, size_t *pos, uint8_t *out,
                    size_t n) MUST_CHECK;

/**
 * Read the 12-byte header at *pos.
 * @return WIRE_OK or WIRE_ESHORT.
 */
int wire_read_header(const uint8_t *buf, size_t len, size_t *pos,
                     struct wire_header *h) MUST_CHECK;

/**
 * Read a (possibly compressed) name at *pos and output it uncompressed.
 * Pointers are followed at most WIRE_PTR_STEPS_MAX times and must point
 * strictly before the start of the label run holding them.
 * @param buf, len: the whole message (pointers are offsets into it).
 * @param pos: position of the name; on success advanced past the name as
 *   it appears at *pos (past the first pointer, if any).
 * @param out: NULL (validate and skip only) or WIRE_NAME_MAX bytes.
 * @param outlen: NULL, or set to the wire length of the name (1 .. 255).
 * @param flags: 0 or WIRE_NAME_LOWER.
 * @return WIRE_OK, WIRE_ESHORT, WIRE_ELABEL, WIRE_ENAME, WIRE_EPTR or
 *   WIRE_ELOOP; on failure *pos and *outlen are unchanged, out may hold
 *   a partial name.
 */
int wire_read_name(const uint8_t *buf, size_t len, size_t *pos, uint8_t *out,
                   size_t *outlen, unsigned flags) MUST_CHECK;

/**
 * Read a question (name, type, class) at *pos; the name keeps its case.
 * @return as wire_read_name; *pos advanced past the question on success.
 */
int wire_read_question(const uint8_t *buf, size_t len, size_t *pos,
                       struct wire_question *q) MUST_CHECK;

/**
 * Read a resource record at *pos into a view: checks the owner name, the
 * fixed fields and that RDLENGTH bytes are present. RDATA is not looked
 * into (see wire_read_rdata_name). rr->section is left to the caller.
 * @return as wire_read_name; *pos advanced past the RDATA on success.
 */
int wire_read_rr(const uint8_t *buf, size_t len, size_t *pos,
                 struct wire_rr *rr) MUST_CHECK;

/**
 * Read a name embedded in the RDATA of a record (NS, CNAME, MX, SOA...):
 * decompressed against the whole message, and the name's own bytes must
 * end within the RDATA.
 * @param buf, len: the message the record was parsed from.
 * @param rr: the record.
 * @param pos: position inside the RDATA; advanced on success.
 * @param out, outlen, flags: as wire_read_name.
 * @return as wire_read_name, or WIRE_ERDATA if the name runs past the
 *   RDATA or pos is outside it.
 */
int wire_read_rdata_name(const uint8_t *buf, size_t len,
                         const struct wire_rr *rr, size_t *pos, uint8_t *out,
                         size_t *outlen, unsigned flags) MUST_CHECK;

/* ------------------------------------------------------------------ */
/* RDATA of the DNSSEC types (wire_rdata.c)                            */

/**
 * Check the RDATA of a record by its type's layout: RRSIG (RFC 4034
 * s3.1: 18 fixed bytes, an uncompressed signer, a signature that is not
 * empty), DNSKEY and CDNSKEY (4 fixed bytes and a key), DS and CDS (4
 * fixed bytes and a digest of the length its type gives: 20 for SHA-1,
 * 32 for SHA-256 and GOST, 48 for SHA-384, type 0 never but the CDS
 * delete request), NSEC (an uncompressed next name, a canonical bitmap
 * that is not empty), NSEC3 (parameters, salt, a hash that is not
 * empty, a canonical bitmap), NSEC3PARAM (parameters and salt, nothing
 * after). A canonical bitmap has its windows in increasing order, each
 * of 1-32 bytes, the last byte of each not zero (RFC 4034 s4.1.2).
 * @param type: the record type; other types pass.
 * @param p, n: the RDATA.
 * @return WIRE_OK, or WIRE_ERDATA when it does not parse.
 */
int wire_rdata_check(uint16_t type, const uint8_t *p, size_t n) MUST_CHECK;

/**
 * Walk an uncompressed name inside RDATA (labels of at most 63 bytes,
 * at most 255 bytes, ending in the root label before n).
 * @param p, n: the RDATA.
 * @param pos: where the name starts; past it on success.
 * @return true when the name is whole; *pos unchanged otherwise.
 */
bool wire_rdata_plain_name(const uint8_t *p, size_t n, size_t *pos);

/**
 * Whether the type bitmap at [pos, n) is canonical (see
 * wire_rdata_check) and names at most types_max types.
 */
bool wire_rdata_bitmap_ok(const uint8_t *p, size_t n, size_t pos,
                          size_t types_max);

/**
 * The length of the parameters of an NSEC3 or NSEC3PARAM RDATA (hash
 * algorithm, flags, iterations, salt length, salt).
 * @return that length, or 0 when they run past n.
 */
size_t wire_rdata_nsec3_params(const uint8_t *p, size_t n);

/* ------------------------------------------------------------------ */
/* Messages                                                            */

/**
 * Parse a whole message: header, at most one question, and a view of
 * every record. Counts are checked against the data before any record is
 * read (each record needs at least WIRE_RR_MIN_BYTES). The OPT record, if
 * any, must be alone, in the additional section and owned by the root.
 * Bytes after the last record are allowed (query padding) and m->end
 * tells where they start. Nothing is allocated.
 * @param m: receives the parse; refers to buf and rr afterwards.
 * @param buf, len: the message.
 * @param rr, rrcap: caller's array for the record views.
 * @return WIRE_OK, WIRE_ESHORT, WIRE_EQDCOUNT, WIRE_ECOUNT (counts exceed
 *   the data, rrcap or WIRE_RR_MAX), WIRE_EOPT, or a name error. On
 *   failure *m is unspecified.
 */
int wire_msg_parse(struct wire_msg *m, const uint8_t *buf, size_t len,
                   struct wire_rr *rr, size_t rrcap) MUST_CHECK;

/**
 * Check that a parsed message answers a query: QR set, same ID, and one
 * question with the same type, class and name.
 * @param m: the parsed response.
 * @param id: the query ID.
 * @param qname, qnamelen: the query name as sent (wire format).
 * @param qtype, qclass: as sent.
 * @param flags: WIRE_MATCH_CASE to require the exact case (0x20 check);
 *   without it names compare case-insensitively.
 * @return WIRE_OK, WIRE_ENOTRESP, WIRE_EID, WIRE_EQUESTION or WIRE_ECASE.
 */
int wire_msg_match(const struct wire_msg *m, uint16_t id, const uint8_t *qname,
                   size_t qnamelen, uint16_t qtype, uint16_t qclass,
                   unsigned flags) MUST_CHECK;

/**
 * The RCODE of a message, extended by the OPT record if there is one.
 * @return a 12-bit RCODE.
 */
unsigned wire_msg_rcode(const struct wire_msg *m);

/* ------------------------------------------------------------------ */
/* Writer                                                              */

/**
 * A writer over a caller's buffer. Each wire_write_* call writes a whole
 * element or nothing: on WIRE_ESPACE the writer is as before the call, so
 * a caller can stop and set TC. The compression table remembers label
 * starts of names written so far (up to WIRE_COMPRESS_MAX).
 */
struct wire_writer {
	uint8_t *buf;
	size_t cap;
	size_t len;
	size_t nnames;
	uint16_t names[WIRE_COMPRESS_MAX];
};

/**
 * Start writing into buf.
 * @param buf, cap: the destination; cap above WIRE_MSG_MAX is clamped.
 */
void wire_writer_init(struct wire_writer *w, uint8_t *buf, size_t cap);

/** Append one byte. @return WIRE_OK or WIRE_ESPACE. */
int wire_write_u8(struct wire_writer *w, uint8_t v) MUST_CHECK;
/** Append a big-endian 16-bit value. @return WIRE_OK or WIRE_ESPACE. */
int wire_write_u16(struct wire_writer *w, uint16_t v) MUST_CHECK;
/** Append a big-endian 32-bit value. @return WIRE_OK or WIRE_ESPACE. */
int wire_write_u32(struct wire_writer *w, uint32_t v) MUST_CHECK;
/** Append n raw bytes. @return WIRE_OK or WIRE_ESPACE. */
int wire_write_bytes(struct wire_writer *w, const uint8_t *p, size_t n)
	MUST_CHECK;

/**
 * Write the header; must be the first thing written. Later
 * wire_write_question/rr/opt calls increment its counts.
 * @return WIRE_OK, WIRE_ESPACE, or WIRE_EINVAL if not at offset 0.
 */
int wire_write_header(struct wire_writer *w, const struct wire_header *h)
	MUST_CHECK;

/**
 * Write a name, compressed against names written before (compared
 * case-insensitively, RFC 1035 4.1.4) when compress is non-zero.
 * @param name, namelen: a valid uncompressed wire name.
 * @return WIRE_OK, WIRE_ESPACE, or a name error if name is malformed.
 */
int wire_write_name(struct wire_writer *w, const uint8_t *name, size_t namelen,
                    int compress) MUST_CHECK;

/**
 * Write a question and increment QDCOUNT.
 * @return WIRE_OK, WIRE_ESPACE, WIRE_ECOUNT, WIRE_EINVAL (no header) or
 *   a name error.
 */
int wire_write_question(struct wire_writer *w, const uint8_t *name,
                        size_t namelen, uint16_t qtype, uint16_t qclass)
	MUST_CHECK;

/**
 * Write a record with raw RDATA (written as given, not compressed) and
 * increment the count of its section. The owner is compressed.
 * @param section: WIRE_SECTION_ANSWER, _AUTHORITY or _ADDITIONAL.
 * @return as wire_write_question, or WIRE_EINVAL for a bad section.
 */
int wire_write_rr(struct wire_writer *w, enum wire_section section,
                  const uint8_t *name, size_t namelen, uint16_t type,
                  uint16_t rclass, uint32_t ttl, const uint8_t *rdata,
                  uint16_t rdlen) MUST_CHECK;

/**
 * Start a record whose RDATA the caller writes next with wire_write_*
 * (e.g. compressed names for NS, CNAME, MX), and increment the count of
 * its section. Finish with wire_write_rr_end, which fills RDLENGTH; to
 * abandon the record, roll back to a mark taken before this call.
 * @param rdlen_pos: receives the position of the RDLENGTH field.
 * @return as wire_write_rr.
 */
int wire_write_rr_begin(struct wire_writer *w, enum wire_section section,
                        const uint8_t *name, size_t namelen, uint16_t type,
                        uint16_t rclass, uint32_t ttl, size_t *rdlen_pos)
	MUST_CHECK;

/**
 * Finish a record started with wire_write_rr_begin: RDLENGTH becomes the
 * number of bytes written since.
 * @param rdlen_pos: as returned by wire_write_rr_begin.
 * @return WIRE_OK, or WIRE_EINVAL if rdlen_pos is not a position
 *   wire_write_rr_begin returned for this writer.
 */
int wire_write_rr_end(struct wire_writer *w, size_t rdlen_pos) MUST_CHECK;

/** A saved writer state: see wire_writer_mark. */
struct wire_mark {
	size_t len;
	size_t nnames;
	uint16_t counts[4];
};

/**
 * Save the writer state (length, compression table, header counts), e.g.
 * before the records of one RRset, to drop them all on WIRE_ESPACE.
 */
void wire_writer_mark(const struct wire_writer *w, struct wire_mark *m);

/**
 * Return to a state saved with wire_writer_mark on this writer: later
 * bytes, compression targets and count increments are undone.
 */
void wire_writer_rollback(struct wire_writer *w, const struct wire_mark *m);

/**
 * Write an EDNS0 OPT record (root owner, no options) in the additional
 * section.
 * @param udp_size: the advertised payload size (values below 512 are
 *   raised to 512, RFC 6891 6.2.5).
 * @param ext_rcode: the upper 8 bits of the extended RCODE (0 in queries).
 * @param do_bit: non-zero to set the DO bit.
 * @return as wire_write_rr.
 */
int wire_write_opt(struct wire_writer *w, uint16_t udp_size, uint8_t ext_rcode,
                   int do_bit) MUST_CHECK;

/** EDNS option code of padding (RFC 7830). */
#define WIRE_OPT_PADDING 12
/** Bytes of an EDNS option's code and length. */
#define WIRE_OPT_HDR 4

/**
 * Pad a whole message (query or answer) with the EDNS(0) padding option
 * (RFC 7830) to a multiple of block bytes (RFC 8467: 128 for queries,
 * 468 for answers): only a message whose last record is an OPT record
 * of the root with no padding option yet, and that ends there. Reads
 * only (msg, len); writes at most up to cap.
 * @return the new length (len when it is not padded).
 */
size_t wire_pad(uint8_t *msg, size_t len, size_t cap, size_t block);

/* ------------------------------------------------------------------ */
/* Query builder                                                       */

/** What wire_query_build puts in a query. */
struct wire_query {
	uint16_t id;
	uint16_t qtype;
	uint16_t qclass;
	uint16_t flags;        /**< header flags, e.g. WIRE_FLAG_RD */
	uint16_t edns_payload; /**< 0: no OPT record; else its UDP size */
	int edns_do;           /**< set the DO bit (needs edns_payload) */
};

/**
 * Build a query for a wire name.
 * @param out, cap: destination.
 * @param outlen: set to the message length on success.
 * @param name, namelen: the query name (uncompressed wire format).
 * @param q: ID, type, class, flags and EDNS settings.
 * @return WIRE_OK, WIRE_ESPACE or a name error.
 */
int wire_query_build(uint8_t *out, size_t cap, size_t *outlen,
                     const uint8_t *name, size_t namelen,
                     const struct wire_query *q) MUST_CHECK;

/**
 * Build a query for a text name (see wire_name_from_text).
 * @return as wire_query_build, or WIRE_ETEXT.
 */
int wire_query_build_text(uint8_t *out, size_t cap, size_t *outlen,
                          const char *name, const struct wire_query *q)
	MUST_CHECK;

/* ------------------------------------------------------------------ */
/* Names                                                               */

/**
 * Check an uncompressed wire name: labels of at most 63 bytes, the root
 * label exactly at the end of len, at most 255 bytes.
 * @return WIRE_OK, WIRE_ESHORT, WIRE_ELABEL, WIRE_ENAME or WIRE_EINVAL
 *   (bytes after the root label).
 */
int wire_name_check(const uint8_t *name, size_t len) MUST_CHECK;

/** Lowercase the letters A-Z of a wire name in place (len bytes). */
void wire_name_lower(uint8_t *name, size_t len);

/**
 * Compare two wire names, ignoring ASCII letter case.
 * @return 1 if equal, 0 if not.
 */
int wire_name_equal(const uint8_t *a, size_t alen, const uint8_t *b,
                    size_t blen);

/**
 * Compare two wire names byte for byte (the 0x20 check).
 * @return 1 if equal, 0 if not.
 */
int wire_name_equal_case(const uint8_t *a, size_t alen, const uint8_t *b,
                         size_t blen);

/**
 * Randomise the case of the letters of a wire name (0x20 encoding): the
 * letter at byte i becomes upper case if bit i of rnd is set.
 * @param name, len: a valid wire name; length bytes are never changed.
 * @param rnd: random bytes (e.g. from randombytes_buf).
 */
void wire_name_0x20(uint8_t *name, size_t len,
                    const uint8_t rnd[WIRE_0X20_RANDOM_BYTES]);

/**
 * The offset of the parent of a wire name (the name less its first label).
 * @return WIRE_OK, or WIRE_EINVAL for the root name or a malformed name.
 */
int wire_name_parent(const uint8_t *name, size_t len, size_t *off) MUST_CHECK;

/**
 * Convert a presentation name to wire format. "a.b", "a.b." and "." are
 * accepted (every name is taken as absolute); "\." and "\\" (any "\X")
 * stand for the character, "\DDD" for a byte (000-255).
 * @param text, textlen: the name (need not be NUL-terminated).
 * @param out: receives the wire name (WIRE_NAME_MAX bytes).
 * @param outlen: set to its length.
 * @return WIRE_OK, WIRE_ETEXT (empty label, bad escape, empty input),
 *   WIRE_ELABEL or WIRE_ENAME.
 */
int wire_name_from_text(const char *text, size_t textlen,
                        uint8_t out[WIRE_NAME_MAX], size_t *outlen) MUST_CHECK;

/**
 * Convert a wire name to presentation format, dig style: absolute with a
 * final dot ("." for the root), '.', '\', '"', '(', ')', ';', '@', '$'
 * escaped with a backslash, bytes outside 0x21-0x7e as \DDD.
 * @param name, len: an uncompressed wire name (checked).
 * @param out, outcap: destination, NUL-terminated on success
 *   (WIRE_NAME_TEXT_MAX always suffices).
 * @param outlen: NULL, or set to the length without the NUL.
 * @return WIRE_OK, WIRE_ESPACE or a wire_name_check error.
 */
int wire_name_to_text(const uint8_t *name, size_t len, char *out,
                      size_t outcap, size_t *outlen) MUST_CHECK;

#endif /* CURVECACHE_RESOLVER_WIRE_H */
