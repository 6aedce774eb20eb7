/*
 * tests/bench/bench_cache.c - how fast and how small the answer cache is,
 * next to a plain single-lock hash table of our own, in one run.
 *
 * Reports, for both: ns per lookup on one core for hits (a small cache
 * of 10k entries, all hot, as on one host; 10k hot names spread over a
 * table of a million; every name of the million in a random order) and
 * for misses, ns per insert, hits per second with two threads, and
 * bytes of memory per cached RRset for a one-record A RRset and an
 * 8-record AAAA RRset: the cache's own charge (everything it allocated:
 * handle, shards, buckets, entries, at the allocator's chunk sizes,
 * divided by the entries held when it is full) and, as a check, the
 * growth of the heap that glibc's mallinfo2 reports.
 *
 * One-core rows are the best of REPEAT runs in thread CPU time (the
 * machine is shared); two-thread rates are wall-clock, best of REPEAT.
 *
 * Usage: bench_cache [entries]   (default 1000000)
 */
#include "config.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__GLIBC__) /* defined by the libc headers above */
#include <malloc.h>
#endif

#include "cache.h"

#define T0 ((time_t)1700000000)
#define TYPE_A 1
#define TYPE_AAAA 28
#define CLASS_IN 1
#define NAME_SLOT 32
#define LOOKUPS 1000000
#define REPEAT 5
#define HOT_NAMES 10000
#define SMALL_NAMES 10000
#define BASE_CHAIN_MAX 64

/* ---- the baseline: one mutex, one chained table, no bound -------- */

struct base_entry {
	struct base_entry *next;
	time_t expire;
	uint16_t type, klass, image_len, count;
	uint8_t name_len;
	uint8_t data[]; /* name, then count x (RDLENGTH RDATA) */
};

struct base {
	pthread_mutex_t lock;
	struct base_entry **buckets;
	size_t mask;
	size_t bytes;
};

static size_t chunk_bytes(void *p)
{
#if defined(__GLIBC__)
	return malloc_usable_size(p) + sizeof(size_t);
#else
	(void)p;
	return 0;
#endif
}

static uint64_t fnv1a(const uint8_t *p, size_t n)
{
	uint64_t h = UINT64_C(0xcbf29ce484222325);
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * UINT64_C(0x100000001b3);
	return h;
}

static struct base *base_new(size_t entries)
{
	struct base *b = calloc(1, sizeof(*b));
	size_t n = 1;

	while (n < entries)
		n *= 2;
	b->buckets = calloc(n, sizeof(*b->buckets));
	b->mask = n - 1;
	pthread_mutex_init(&b->lock, NULL);
	b->bytes = chunk_bytes(b) + chunk_bytes(b->buckets);
	return b;
}

static void base_free(struct base *b)
{
	for (size_t i = 0; i <= b->mask; i++)
		while (b->buckets[i]) {
			struct base_entry *e = b->buckets[i];
			b->buckets[i] = e->next;
			free(e);
		}
	pthread_mutex_destroy(&b->lock);
	free(b->buckets);
	free(b);
}

static void base_put(struct base *b, const struct cache_rrset *s, time_t now)
{
	size_t img = 0, pos;
	struct base_entry *e, **pp;

	for (size_t i = 0; i < s->count; i++)
		img += 2 + s->rdata[i].len;
	e = malloc(sizeof(*e) + s->name_len + img);
	e->expire = now + s->ttl;
	e->type = s->type;
	e->klass = s->klass;
	e->image_len = (uint16_t)img;
	e->count = (uint16_t)s->count;
	e->name_len = (uint8_t)s->name_len;
	memcpy(e->data, s->name, s->name_len);
	pos = s->name_len;
	for (size_t i = 0; i < s->count; i++) {
		e->data[pos] = (uint8_t)(s->rdata[i].len >> 8);
		e->data[pos + 1] = (uint8_t)s->rdata[i].len;
		memcpy(e->data + pos + 2, s->rdata[i].data, s->rdata[i].len);
		pos += 2 + s->rdata[i].len;
	}
	pthread_mutex_lock(&b->lock);
	pp = &b->buckets[fnv1a(s->name, s->name_len) & b->mask];
	for (; *pp; pp = &(*pp)->next)
		if ((*pp)->type == e->type && (*pp)->name_len == e->name_len &&
		    memcmp((*pp)->data, e->data, e->name_len) == 0) {
			struct base_entry *old = *pp;
			e->next = old->next;
			b->bytes -= chunk_bytes(old);
			free(old);
			break;
		}
	if (*pp == NULL)
		e->next = NULL;
	*pp = e;
	b->bytes += chunk_bytes(e);
	pthread_mutex_unlock(&b->lock);
}

static void put_be(uint8_t *p, uint32_t v, int bytes)
{
	for (int i = bytes - 1; i >= 0; i--, v >>= 8)
		p[i] = (uint8_t)v;
}

/* Same contract as cache_get: copy wire RRs with the TTL counted down. */
static int base_get(struct base *b, const struct cache_query *q, time_t now,
                    uint8_t *buf, size_t cap, size_t *len)
{
	struct base_entry *e;
	int rc = CACHE_ENOTFOUND;
	int steps = 0;

	pthread_mutex_lock(&b->lock);
	e = b->buckets[fnv1a(q->name, q->name_len) & b->mask];
	for (; e && steps < BASE_CHAIN_MAX; e = e->next, steps++) {
		const uint8_t *img;
		size_t out = 0, pos = 0;
		if (e->type != q->type || e->klass != q->klass ||
		    e->name_len != q->name_len ||
		    memcmp(e->data, q->name, q->name_len) != 0)
			continue;
		if (now >= e->expire)
			break;
		*len = (size_t)e->count * (e->name_len + 8) + e->image_len;
		rc = CACHE_ESPACE;
		if (*len > cap)
			break;
		img = e->data + e->name_len;
		for (size_t i = 0; i < e->count; i++) {
			size_t rr = 2 + ((size_t)img[pos] << 8 | img[pos + 1]);
			memcpy(buf + out, e->data, e->name_len);
			out += e->name_len;
			put_be(buf + out, e->type, 2);
			put_be(buf + out + 2, e->klass, 2);
			put_be(buf + out + 4, (uint32_t)(e->expire - now), 4);
			memcpy(buf + out + 8, img + pos, rr);
			out += 8 + rr;
			pos += rr;
		}
		rc = CACHE_OK;
		break;
	}
	pthread_mutex_unlock(&b->lock);
	return rc;
}

/* ---- workload ---------------------------------------------------- */

/*
 * One-core rows are timed in CPU time of the measuring thread, so that
 * time the thread spends descheduled on a shared machine is not counted;
 * the two-thread rows need wall time.
 */
static double clock_ns(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static double now_ns(void)
{
	return clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

static double wall_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

static void print_load(void)
{
	FILE *f = fopen("/proc/loadavg", "r");
	char line[128];

	if (f && fgets(line, sizeof(line), f))
		printf("load average at start: %s", line);
	if (f)
		fclose(f);
}

static size_t heap_in_use(void)
{
#if defined(__GLIBC__)
	struct mallinfo2 mi = mallinfo2();
	return mi.uordblks + mi.hblkhd;
#else
	return 0;
#endif
}

/* "www.example<i>.com" (or "www.missing<i>.com") in wire form. */
static size_t make_name(uint8_t *out, size_t i, const char *what)
{
	char label[24];
	int l = snprintf(label, sizeof(label), "%s%zu", what, i);
	size_t n = 0;

	memcpy(out, "\003www", 4);
	n = 4;
	out[n++] = (uint8_t)l;
	memcpy(out + n, label, (size_t)l);
	n += (size_t)l;
	memcpy(out + n, "\003com", 5);
	return n + 5;
}

struct names {
	uint8_t (*name)[NAME_SLOT];
	uint8_t *len;
	size_t n;
};

static void names_make(struct names *nm, size_t n, const char *what)
{
	nm->name = malloc(n * NAME_SLOT);
	nm->len = malloc(n);
	nm->n = n;
	for (size_t i = 0; i < n; i++)
		nm->len[i] = (uint8_t)make_name(nm->name[i], i, what);
}

static void names_free(struct names *nm)
{
	free(nm->name);
	free(nm->len);
}

static uint64_t rng_next(uint64_t *s)
{
	uint64_t x = *s;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *s = x;
}

/*
 * count random indices: out of `range` names spread evenly over all n
 * (so that a hot set is not simply the names inserted first).
 */
static uint32_t *make_order(size_t count, size_t range, size_t n,
                            uint64_t seed)
{
	uint32_t *o = malloc(count * sizeof(*o));
	for (size_t i = 0; i < count; i++)
		o[i] = (uint32_t)(rng_next(&seed) % range * (n / range));
	return o;
}

/* One A or AAAA RRset of `count` records for a name. */
struct rrset_buf {
	uint8_t rd[8][16];
	struct cache_rdata rdata[8];
	struct cache_rrset set;
};

static void rrset_init(struct rrset_buf *r, uint16_t type, size_t count)
{
	size_t len = type == TYPE_A ? 4 : 16;

	memset(r, 0, sizeof(*r));
	for (size_t i = 0; i < count; i++) {
		memset(r->rd[i], (int)(0x10 + i), len);
		r->rdata[i].data = r->rd[i];
		r->rdata[i].len = len;
	}
	r->set.type = type;
	r->set.klass = CLASS_IN;
	r->set.ttl = 3600;
	r->set.rdata = r->rdata;
	r->set.count = count;
	r->set.rank = CACHE_RANK_AUTH;
}

static struct cache *cache_new(size_t bytes)
{
	struct cache_config cfg;
	struct cache *c = NULL;

	cache_config_init(&cfg);
	cfg.max_bytes = bytes;
	for (int i = 0; i < CACHE_HASH_KEY_BYTES; i++)
		cfg.hash_key[i] = (uint8_t)(rand() & 0xff);
	if (cache_create(&cfg, &c) != CACHE_OK) {
		fprintf(stderr, "bench_cache: cache_create failed\n");
		exit(1);
	}
	return c;
}

/* ---- measurements ------------------------------------------------ */

static size_t insert_cache(struct cache *c, struct rrset_buf *r,
                           const struct names *nm)
{
	size_t ok = 0;

	for (size_t i = 0; i < nm->n; i++) {
		r->set.name = nm->name[i];
		r->set.name_len = nm->len[i];
		ok += cache_rrset_put(c, &r->set, T0) == CACHE_OK;
	}
	return ok;
}

static void insert_base(struct base *b, struct rrset_buf *r,
                        const struct names *nm)
{
	for (size_t i = 0; i < nm->n; i++) {
		r->set.name = nm->name[i];
		r->set.name_len = nm->len[i];
		base_put(b, &r->set, T0);
	}
}

struct run {
	struct cache *c; /* one of c and b */
	struct base *b;
	const struct names *nm;
	const uint32_t *order;
	size_t n;
	size_t found;
	double ns;
};

static void *run_gets(void *arg)
{
	struct run *r = arg;
	uint8_t out[1024];
	struct cache_answer ans;
	size_t len, found = 0;
	double t = now_ns();

	for (size_t i = 0; i < r->n; i++) {
		uint32_t k = r->order[i];
		struct cache_query q = { r->nm->name[k], r->nm->len[k], TYPE_A,
			                 CLASS_IN, 0 };
		if (r->c)
			found += cache_get(r->c, &q, T0 + 1, &ans, out,
			                   sizeof(out)) == CACHE_OK;
		else
			found += base_get(r->b, &q, T0 + 1, out, sizeof(out),
			                  &len) == CACHE_OK;
	}
	r->ns = (now_ns() - t) / (double)r->n;
	r->found = found;
	return NULL;
}

/*
 * ns per lookup on this thread, the best of REPEAT runs (the machine is
 * shared: the minimum is the cost, the rest is other people's load);
 * checks that all hit or all missed.
 */
static double lookups(struct cache *c, struct base *b, const struct names *nm,
                      const uint32_t *order, size_t n, int hits)
{
	double best = 1e30;

	for (int i = 0; i < REPEAT; i++) {
		struct run r = { c, b, nm, order, n, 0, 0 };
		run_gets(&r);
		if (r.found != (hits ? n : 0)) {
			fprintf(stderr, "bench_cache: %zu of %zu found\n",
			        r.found, n);
			exit(1);
		}
		best = r.ns < best ? r.ns : best;
	}
	return best;
}

/* Two threads: the best wall-clock rate, and CPU ns per lookup then. */
struct rate2 {
	double rate;
	double cpu_ns;
};

/* Lookups per second with two threads, each on its own order (best). */
static struct rate2 lookups_2t(struct cache *c, struct base *b,
                               const struct names *nm,
                               uint32_t *const order[2], size_t n)
{
	struct rate2 best = { 0, 0 };

	for (int k = 0; k < REPEAT; k++) {
		struct run r[2] = { { c, b, nm, order[0], n, 0, 0 },
			            { c, b, nm, order[1], n, 0, 0 } };
		pthread_t th[2];
		double t = wall_ns(), rate;
		for (int i = 0; i < 2; i++)
			pthread_create(&th[i], NULL, run_gets, &r[i]);
		for (int i = 0; i < 2; i++)
			pthread_join(th[i], NULL);
		t = wall_ns() - t;
		rate = 2.0 * (double)n / (t / 1e9);
		if (rate > best.rate) {
			best.rate = rate;
			best.cpu_ns = (r[0].ns + r[1].ns) / 2;
		}
	}
	return best;
}

/* ns per insert into an empty table (best of REPEAT fresh tables). */
static double inserts(struct rrset_buf *r, const struct names *nm,
                      int baseline)
{
	double best = 1e30;

	for (int k = 0; k < REPEAT; k++) {
		struct cache *c = NULL;
		struct base *b = NULL;
		double t;
		if (baseline)
			b = base_new(nm->n);
		else
			c = cache_new((size_t)256 << 20);
		t = now_ns();
		if (baseline)
			insert_base(b, r, nm);
		else if (insert_cache(c, r, nm) != nm->n)
			exit(1);
		t = (now_ns() - t) / (double)nm->n;
		best = t < best ? t : best;
		cache_destroy(c);
		if (b)
			base_free(b);
	}
	return best;
}

struct mem {
	double charged; /* the cache's (or baseline's) own count */
	double heap;    /* growth of the heap, by mallinfo2 */
	size_t entries;
};

/* Fill a cache of `bytes` until it evicts steadily; bytes per entry. */
static struct mem mem_cache(uint16_t type, size_t count, size_t bytes)
{
	size_t before = heap_in_use();
	struct cache *c = cache_new(bytes);
	struct rrset_buf r;
	struct cache_stats st;
	uint8_t n[NAME_SLOT];
	struct mem m;

	rrset_init(&r, type, count);
	r.set.name = n;
	for (size_t i = 0;; i++) {
		r.set.name_len = make_name(n, i, "example");
		if (cache_rrset_put(c, &r.set, T0) != CACHE_OK)
			exit(1);
		if (i % 4096 != 0)
			continue;
		cache_stats_get(c, &st);
		if (st.evictions > st.entries / 10)
			break;
	}
	cache_stats_get(c, &st);
	m.charged = (double)st.bytes / (double)st.entries;
	m.heap = (double)(heap_in_use() - before) / (double)st.entries;
	m.entries = st.entries;
	cache_destroy(c);
	return m;
}

static struct mem mem_base(uint16_t type, size_t count, size_t entries)
{
	size_t before = heap_in_use();
	struct base *b = base_new(entries);
	struct rrset_buf r;
	uint8_t n[NAME_SLOT];
	struct mem m;

	rrset_init(&r, type, count);
	r.set.name = n;
	for (size_t i = 0; i < entries; i++) {
		r.set.name_len = make_name(n, i, "example");
		base_put(b, &r.set, T0);
	}
	m.charged = (double)b->bytes / (double)entries;
	m.heap = (double)(heap_in_use() - before) / (double)entries;
	m.entries = entries;
	base_free(b);
	return m;
}

static void row(const char *what, double cache_ns, double base_ns)
{
	printf("%-34s %9.1f ns %11.0f/s   %9.1f ns %11.0f/s   %5.2f\n", what,
	       cache_ns, 1e9 / cache_ns, base_ns, 1e9 / base_ns,
	       cache_ns / base_ns);
}

static void mem_row(const char *what, struct mem mc, struct mem mb)
{
	printf("%-34s %7.1f B (heap %6.1f B)   %7.1f B (heap %6.1f B)\n", what,
	       mc.charged, mc.heap, mb.charged, mb.heap);
}

/* The speed rows: lookups, inserts, two threads, inserts that evict. */
static void row_2t(const char *what, struct rate2 c2, struct rate2 b2)
{
	printf("%-34s %9.1f ns %11.0f/s   %9.1f ns %11.0f/s   %5.2f\n", what,
	       c2.cpu_ns, c2.rate, b2.cpu_ns, b2.rate, b2.rate / c2.rate);
}

/*
 * A small cache, as on one host: SMALL_NAMES entries in a 4 MiB cache,
 * all of them hot (they stay in the CPU caches), on one and two threads.
 */
static void bench_small(const struct names *nm)
{
	struct names few = *nm;
	uint32_t *o[2];
	struct rrset_buf r;
	struct cache *c = cache_new((size_t)4 << 20);
	struct base *b;

	few.n = SMALL_NAMES;
	b = base_new(few.n);
	rrset_init(&r, TYPE_A, 1);
	if (insert_cache(c, &r, &few) != few.n)
		exit(1);
	insert_base(b, &r, &few);
	o[0] = make_order(LOOKUPS, few.n, few.n, 5);
	o[1] = make_order(LOOKUPS, few.n, few.n, 6);
	row("hit, 10k-entry cache, 1 core",
	    lookups(c, NULL, &few, o[0], LOOKUPS, 1),
	    lookups(NULL, b, &few, o[0], LOOKUPS, 1));
	row_2t("hit, 10k-entry cache, 2 threads",
	       lookups_2t(c, NULL, &few, o, LOOKUPS),
	       lookups_2t(NULL, b, &few, o, LOOKUPS));
	cache_destroy(c);
	base_free(b);
	free(o[0]);
	free(o[1]);
}

/* The big table: all names in a 256 MiB cache (and in the baseline). */
static void bench_big(const struct names *nm, const struct names *miss)
{
	uint32_t *hot[2], *cold, *mo;
	struct rrset_buf r;
	struct cache *c;
	struct base *b;
	double ci, bi;

	hot[0] = make_order(LOOKUPS, HOT_NAMES, nm->n, 1);
	hot[1] = make_order(LOOKUPS, HOT_NAMES, nm->n, 2);
	cold = make_order(LOOKUPS, nm->n, nm->n, 3);
	mo = make_order(LOOKUPS, nm->n, nm->n, 4);
	rrset_init(&r, TYPE_A, 1);
	ci = inserts(&r, nm, 0);
	bi = inserts(&r, nm, 1);
	c = cache_new((size_t)256 << 20);
	b = base_new(nm->n);
	(void)insert_cache(c, &r, nm);
	insert_base(b, &r, nm);
	row("hit, 10k hot of all, 1 core",
	    lookups(c, NULL, nm, hot[0], LOOKUPS, 1),
	    lookups(NULL, b, nm, hot[0], LOOKUPS, 1));
	row_2t("hit, 10k hot of all, 2 threads",
	       lookups_2t(c, NULL, nm, hot, LOOKUPS),
	       lookups_2t(NULL, b, nm, hot, LOOKUPS));
	row("hit, all names random, 1 core",
	    lookups(c, NULL, nm, cold, LOOKUPS, 1),
	    lookups(NULL, b, nm, cold, LOOKUPS, 1));
	row("miss, 1 core", lookups(c, NULL, miss, mo, LOOKUPS, 0),
	    lookups(NULL, b, miss, mo, LOOKUPS, 0));
	row("insert, empty table, 1 core", ci, bi);
	cache_destroy(c);
	base_free(b);
	free(hot[0]);
	free(hot[1]);
	free(cold);
	free(mo);
}

/* ns per insert into a full 16 MiB cache: every insert evicts. */
static void bench_evicting(const struct names *nm, const struct names *miss)
{
	struct cache *c = cache_new((size_t)16 << 20);
	struct rrset_buf r;
	double ce = 1e30;

	rrset_init(&r, TYPE_A, 1);
	(void)insert_cache(c, &r, miss); /* fill it first */
	for (int k = 0; k < REPEAT; k++) {
		double t = now_ns();
		(void)insert_cache(c, &r, k % 2 ? miss : nm);
		t = (now_ns() - t) / (double)nm->n;
		ce = t < ce ? t : ce;
	}
	cache_destroy(c);
	printf("%-34s %9.1f ns %11.0f/s   (baseline has no bound)\n",
	       "insert, full 16 MiB cache (evicts)", ce, 1e9 / ce);
}

static void bench_memory(void)
{
	struct mem mc1 = mem_cache(TYPE_A, 1, (size_t)64 << 20);
	struct mem mb1 = mem_base(TYPE_A, 1, mc1.entries);
	struct mem mc8 = mem_cache(TYPE_AAAA, 8, (size_t)64 << 20);
	struct mem mb8 = mem_base(TYPE_AAAA, 8, mc8.entries);

	printf("\nmemory per RRset (full 64 MiB cache; baseline with as many"
	       " entries)\n");
	printf("%-34s %26s   %26s\n", "", "cache", "baseline");
	mem_row("A, 1 record", mc1, mb1);
	mem_row("AAAA, 8 records", mc8, mb8);
	printf("(%zu A and %zu AAAA RRsets fit in 64 MiB)\n", mc1.entries,
	       mc8.entries);
}

int main(int argc, char **argv)
{
	size_t n = argc > 1 ? (size_t)strtoull(argv[1], NULL, 10) : 1000000;
	struct names nm, miss;

	if (n < HOT_NAMES)
		n = HOT_NAMES;
#if defined(__GLIBC__)
	/* Keep freed memory in the process: a table built after another
	 * was freed would otherwise pay page faults (several us each on a
	 * VM) that the other did not. Best-of runs then all reuse it. */
	mallopt(M_TRIM_THRESHOLD, 1 << 30);
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
#endif
	srand((unsigned)time(NULL));
	names_make(&nm, n, "example");
	names_make(&miss, n, "missing");
	print_load();
	printf("bench_cache: %zu A RRsets (1 record, names like "
	       "www.example123.com), %d lookups per run, best of %d runs\n",
	       n, LOOKUPS, REPEAT);
	printf("%-34s %26s   %26s   %5s\n", "", "cache (64 shards, CLOCK)",
	       "baseline (1 lock)", "ratio");
	bench_small(&nm);
	printf("-- %zu entries (256 MiB cache):\n", n);
	bench_big(&nm, &miss);
	bench_evicting(&nm, &miss);
	bench_memory();
	printf("ratio = cache cost / baseline cost: below 1 the cache is"
	       " faster. One-core rows: CPU time\nof the thread per operation"
	       " and its inverse. 2-thread rows: CPU ns per lookup of each\n"
	       "thread, then lookups per second of both together (wall"
	       " clock); ratio = baseline rate\n/ cache rate. \"10k hot of"
	       " all\": %d names spread evenly over all.\n",
	       HOT_NAMES);
	names_free(&nm);
	names_free(&miss);
	return 0;
}
