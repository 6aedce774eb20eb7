/*
 * resolver/policy/localzone_int.h - what the files of the local zones
 * share: localzone.c (the table and its building), localzone_answer.c
 * (lookups) and localzone_rt.c (changes at run time); nothing else
 * includes it.
 */
#ifndef CURVECACHE_RESOLVER_LOCALZONE_INT_H
#define CURVECACHE_RESOLVER_LOCALZONE_INT_H

#include "localzone.h"

/** Node zone values besides enum cfg_lz_type. */
#define LZ_NONE 0xffu    /**< no zone at this name */
#define LZ_REMOVED 0xfeu /**< runtime table: the zone here is gone */
/** Node kinds: how a built-in zone makes its own records. */
#define LZ_KIND_PLAIN 0u
#define LZ_KIND_LOCALHOST 1u /**< every name: the loopback addresses */
/** Node flags. */
#define LZ_F_PTR 1u     /**< PTR localhost (1.0.0.127, ::1 reverse) */
#define LZ_F_DATASET 2u /**< runtime table: this data replaces the base's */
/** "No record" in the record links. */
#define LZ_NO_RR 0xffffffffu

/** Bits of the filter of last labels (a power of two). */
#define LZ_TLD_BITS 4096u

/** A name that is a zone or owns records. */
struct lz_node {
	uint32_t name;  /**< offset of its wire name in names */
	uint8_t len;    /**< its length */
	uint8_t zone;   /**< enum cfg_lz_type, LZ_NONE or LZ_REMOVED */
	uint8_t kind;   /**< LZ_KIND_ */
	uint8_t flags;  /**< LZ_F_ */
	uint32_t first; /**< first record, LZ_NO_RR: none */
	uint32_t last;  /**< last record */
};

/** A local-data record. */
struct lz_rr {
	uint32_t next; /**< next record of the name, LZ_NO_RR: none */
	uint16_t type;
	uint16_t rdlen;
	uint32_t ttl;
	uint32_t rdata; /**< offset in rdata */
};

/** A growing array. */
struct lz_vec {
	void *p;
	size_t n, cap;
};

struct localzone {
	struct lz_vec nodes; /**< struct lz_node */
	uint32_t *slots;     /**< node index + 1; 0: empty */
	size_t nslots;       /**< a power of two */
	struct lz_vec names; /**< bytes */
	struct lz_vec rrs;   /**< struct lz_rr */
	struct lz_vec rdata; /**< bytes */
	size_t nzones;
	/** The last labels of the names, hashed: a name whose last label
	 *  has no bit here is no local name (most names: one test). */
	uint64_t tld[LZ_TLD_BITS / 64];
};

/** The bit of a name's last label in the filter (off: its offset). */
static inline uint32_t lz_tld_bit(const uint8_t *name, size_t off)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = off; i <= off + name[off]; i++)
		h = (h ^ name[i]) * 16777619u;
	return h & (LZ_TLD_BITS - 1);
}

/** Is the bit of a last label set in a table's filter? */
static inline bool lz_tld_has(const struct localzone *lz, uint32_t bit)
{
	return lz != NULL && (lz->tld[bit / 64] >> (bit % 64)) & 1u;
}

/** The node of a wire name, or NULL. */
const struct lz_node *lz_lookup(const struct localzone *lz,
                                const uint8_t *name, size_t len);

/** The node of a name, added (no zone, no records) if missing; NULL
 *  when out of memory or full. */
struct lz_node *lz_node_get(struct localzone *lz, const uint8_t *name,
                            size_t len);

/** Set a node's zone (keeps the zone count). */
void lz_set_zone(struct localzone *lz, struct lz_node *n, unsigned zone);

/** Append a record to a node (a copy of one it has is skipped);
 *  -1 when out of memory. */
int lz_add_rr(struct localzone *lz, struct lz_node *n, uint16_t type,
              uint32_t ttl, const uint8_t *rdata, size_t rdlen);

/** Parse a record's RDATA text and add it at its owner; -1 with the
 *  problem in err. */
int lz_add_data(struct localzone *lz, const struct cfg_local_data *d,
                char *err, size_t errlen);

/** An empty table; NULL when out of memory. */
struct localzone *lz_alloc(void);

/** The wire name of a node. */
static inline const uint8_t *lz_name(const struct localzone *lz,
                                     const struct lz_node *n)
{
	return (const uint8_t *)lz->names.p + n->name;
}

#endif /* CURVECACHE_RESOLVER_LOCALZONE_INT_H */
