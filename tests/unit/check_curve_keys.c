/*
 * tests/unit/check_curve_keys.c - TCases "nonce", "sharedkey" and "keyfile":
 * counters, threads, the shared-key table, key files and the nonce mark.
 */
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <ares.h>
#include "curvetest.h"

/* ------------------------------------------------------------------ */
/* nonce                                                               */

START_TEST(test_nonce_counter)
{
	struct curve_client *c = NULL;
	uint8_t a[12], b[12], pk1[32], pk2[32];
	uint64_t i, last = 0;
	int same = 1;

	ck_assert_int_eq(curve_client_new(&c, 0), CURVE_OK);
	for (i = 1; i <= 1000; i++) {
		ck_assert_int_eq(curve_nonce_next(c, a), CURVE_OK);
		ck_assert_uint_eq(counter_of(a), i);
		ck_assert_uint_gt(counter_of(a), last);
		last = counter_of(a);
		if (i > 1 && memcmp(a + 8, b + 8, 4) != 0)
			same = 0;
		memcpy(b, a, 12);
	}
	ck_assert_msg(!same, "random part never changes");
	/* Big-endian, over the whole 8 bytes. */
	curve_client_set_counter(c, 0x0102030405060708ull);
	ck_assert_int_eq(curve_nonce_next(c, a), CURVE_OK);
	ck_assert_int_eq(memcmp(a, "\1\2\3\4\5\6\7\10", 8), 0);
	/* Rotation: new key, counter keeps going up. */
	curve_client_pk(c, pk1);
	ck_assert_int_eq(curve_client_rotate(c), CURVE_OK);
	curve_client_pk(c, pk2);
	ck_assert_int_ne(memcmp(pk1, pk2, 32), 0);
	ck_assert_int_eq(curve_nonce_next(c, b), CURVE_OK);
	ck_assert_uint_eq(counter_of(b), 0x0102030405060709ull);
	/* Exhausted: no nonce. */
	curve_client_set_counter(c, UINT64_MAX - 1);
	ck_assert_int_eq(curve_nonce_next(c, a), CURVE_OK);
	memset(b, 0xee, sizeof b);
	ck_assert_int_eq(curve_nonce_next(c, b), CURVE_EINVAL);
	ck_assert_uint_eq(b[0], 0xee);
	ck_assert_int_eq(curve_nonce_next(c, b), CURVE_EINVAL);
	curve_client_free(c);
}
END_TEST

#define NONCE_THREADS 4
#define NONCE_PER_THREAD 20000

struct nonce_job {
	struct curve_client *c;
	uint64_t got[NONCE_PER_THREAD];
};

static void *nonce_worker(void *arg)
{
	struct nonce_job *j = arg;
	uint8_t n[12];
	size_t i;

	for (i = 0; i < NONCE_PER_THREAD; i++) {
		if (curve_nonce_next(j->c, n) != CURVE_OK)
			return NULL;
		j->got[i] = counter_of(n);
	}
	return j;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

START_TEST(test_nonce_threads)
{
	static struct nonce_job job[NONCE_THREADS];
	static uint64_t all[NONCE_THREADS * NONCE_PER_THREAD];
	pthread_t t[NONCE_THREADS];
	struct curve_client *c = NULL;
	void *ret;
	size_t i;

	ck_assert_int_eq(curve_client_new(&c, 0), CURVE_OK);
	for (i = 0; i < NONCE_THREADS; i++) {
		job[i].c = c;
		ck_assert_int_eq(pthread_create(&t[i], NULL, nonce_worker,
		                                &job[i]),
		                 0);
	}
	for (i = 0; i < NONCE_THREADS; i++) {
		ck_assert_int_eq(pthread_join(t[i], &ret), 0);
		ck_assert_ptr_eq(ret, &job[i]);
		memcpy(all + i * NONCE_PER_THREAD, job[i].got,
		       sizeof job[i].got);
		/* Each thread sees its values strictly increase. */
		for (size_t k = 1; k < NONCE_PER_THREAD; k++)
			if (job[i].got[k] <= job[i].got[k - 1])
				ck_abort_msg("thread %zu went down", i);
	}
	qsort(all, NONCE_THREADS * NONCE_PER_THREAD, sizeof all[0], cmp_u64);
	for (i = 0; i < NONCE_THREADS * NONCE_PER_THREAD; i++)
		if (all[i] != i + 1) /* no repeats, no gaps */
			ck_abort_msg("counter %zu is %llu", i,
			             (unsigned long long)all[i]);
	curve_client_free(c);
}
END_TEST

/* ------------------------------------------------------------------ */
/* sharedkey                                                           */

static void box_to(struct curve_client *c, const uint8_t *pk,
                   const uint8_t *sk)
{
	uint8_t pkt[128], m[64], cpk[32], nonce[12];
	size_t n = 0;

	ck_assert_int_eq(curve_nonce_next(c, nonce), CURVE_OK);
	ck_assert_int_eq(curve_streamlined_box(c, pk, nonce,
	                                       (const uint8_t *)"query", 5,
	                                       pkt, sizeof pkt, &n),
	                 CURVE_OK);
	ck_assert_uint_eq(srv_open_streamlined(pkt, n, m, cpk, sk), 5);
	ck_assert_int_eq(memcmp(m, "query", 5), 0);
}

static void expect_stats(struct curve_client *c, uint64_t hits,
                         uint64_t misses, uint64_t ev, uint64_t entries)
{
	struct curve_stats st;

	curve_client_stats(c, &st);
	ck_assert_uint_eq(st.shared_hits, hits);
	ck_assert_uint_eq(st.shared_misses, misses);
	ck_assert_uint_eq(st.shared_evictions, ev);
	ck_assert_uint_eq(st.shared_entries, entries);
}

START_TEST(test_sharedkey_lru)
{
	struct curve_client *c = NULL;
	uint8_t pk[4][32], sk[4][32];
	size_t i;

	for (i = 0; i < 4; i++)
		ck_assert_int_eq(crypto_box_keypair(pk[i], sk[i]), 0);
	ck_assert_int_eq(curve_client_new(&c, 2), CURVE_OK);
	expect_stats(c, 0, 0, 0, 0);
	box_to(c, pk[0], sk[0]);
	expect_stats(c, 0, 1, 0, 1);
	box_to(c, pk[0], sk[0]);
	expect_stats(c, 1, 1, 0, 1);
	box_to(c, pk[1], sk[1]);
	expect_stats(c, 1, 2, 0, 2);
	box_to(c, pk[0], sk[0]); /* A is now most recent */
	expect_stats(c, 2, 2, 0, 2);
	box_to(c, pk[2], sk[2]); /* full: evicts B */
	expect_stats(c, 2, 3, 1, 2);
	box_to(c, pk[0], sk[0]); /* A survived */
	expect_stats(c, 3, 3, 1, 2);
	box_to(c, pk[2], sk[2]);
	expect_stats(c, 4, 3, 1, 2);
	box_to(c, pk[1], sk[1]); /* B again: evicts A */
	expect_stats(c, 4, 4, 2, 2);
	box_to(c, pk[0], sk[0]); /* evicts C */
	expect_stats(c, 4, 5, 3, 2);
	box_to(c, pk[1], sk[1]);
	expect_stats(c, 5, 5, 3, 2);
	/* Rotation empties the table. */
	ck_assert_int_eq(curve_client_rotate(c), CURVE_OK);
	expect_stats(c, 5, 5, 3, 0);
	box_to(c, pk[1], sk[1]);
	expect_stats(c, 5, 6, 3, 1);
	/* A key with no shared point is not cached. */
	{
		uint8_t zero[32] = { 0 }, pkt[128], nonce[12] = { 1 };
		size_t n;

		ck_assert_int_eq(curve_streamlined_box(c, zero, nonce,
		                                       (const uint8_t *)"q", 1,
		                                       pkt, sizeof pkt, &n),
		                 CURVE_ECRYPTO);
		expect_stats(c, 5, 7, 3, 1);
	}
	{
		struct curve_stats st;

		curve_client_stats(c, &st);
		ck_assert_uint_eq(st.rotations, 1);
	}
	curve_client_free(c);
}
END_TEST

/* Many keys through tables of several sizes: every box opens at the
 * server, and the counters add up. */
START_TEST(test_sharedkey_many)
{
	static const size_t sizes[] = { 1, 3, 16, 0 };
	uint8_t pk[40][32], sk[40][32];
	struct curve_client *c = NULL;
	struct curve_stats st;
	size_t s, i, r, slots;

	for (i = 0; i < 40; i++)
		ck_assert_int_eq(crypto_box_keypair(pk[i], sk[i]), 0);
	for (s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
		ck_assert_int_eq(curve_client_new(&c, sizes[s]), CURVE_OK);
		slots = sizes[s] ? sizes[s] : CURVE_SHARED_SLOTS_DEFAULT;
		for (r = 0; r < 3; r++)
			for (i = 0; i < 40; i++)
				box_to(c, pk[(i * 7 + r) % 40],
				       sk[(i * 7 + r) % 40]);
		curve_client_stats(c, &st);
		ck_assert_uint_eq(st.shared_hits + st.shared_misses, 120);
		ck_assert_uint_eq(st.shared_entries, slots < 40 ? slots : 40);
		ck_assert_uint_eq(st.shared_evictions,
		                  st.shared_misses - st.shared_entries);
		if (slots >= 40)
			ck_assert_uint_eq(st.shared_misses, 40);
		curve_client_free(c);
	}
	ck_assert_int_eq(curve_client_new(&c, CURVE_SHARED_SLOTS_MAX + 1),
	                 CURVE_ENOMEM);
	ck_assert_ptr_null(c);
}
END_TEST

#define SK_THREADS 4
#define SK_KEYS 6

struct sk_job {
	struct curve_client *c;
	uint8_t (*pk)[32];
	uint8_t (*sk)[32];
	int rotate;
	int ok;
};

/* Box to several servers while another thread rotates: the client key in
 * each packet must match the key that boxed it. */
static void *sk_worker(void *arg)
{
	struct sk_job *j = arg;
	uint8_t pkt[128], m[64], cpk[32], nonce[12], n24[24] = { 0 };
	size_t i, n = 0, k;

	j->ok = 1;
	for (i = 0; i < 2000; i++) {
		if (j->rotate) {
			if (curve_client_rotate(j->c) != CURVE_OK)
				j->ok = 0;
			continue;
		}
		k = i % SK_KEYS;
		if (curve_nonce_next(j->c, nonce) != CURVE_OK ||
		    curve_streamlined_box(j->c, j->pk[k], nonce,
		                          (const uint8_t *)"qq", 2, pkt,
		                          sizeof pkt, &n) != CURVE_OK) {
			j->ok = 0;
			continue;
		}
		memcpy(cpk, pkt + 8, 32);
		memcpy(n24, pkt + 40, 12);
		if (crypto_box_open_easy(m, pkt + 52, n - 52, n24, cpk,
		                         j->sk[k]) != 0)
			j->ok = 0;
	}
	return NULL;
}

START_TEST(test_sharedkey_threads)
{
	static uint8_t pk[SK_KEYS][32], sk[SK_KEYS][32];
	struct sk_job job[SK_THREADS];
	pthread_t t[SK_THREADS];
	struct curve_client *c = NULL;
	size_t i;

	for (i = 0; i < SK_KEYS; i++)
		ck_assert_int_eq(crypto_box_keypair(pk[i], sk[i]), 0);
	ck_assert_int_eq(curve_client_new(&c, 4), CURVE_OK);
	for (i = 0; i < SK_THREADS; i++) {
		job[i].c = c;
		job[i].pk = pk;
		job[i].sk = sk;
		job[i].rotate = i == 0;
		ck_assert_int_eq(pthread_create(&t[i], NULL, sk_worker,
		                                &job[i]),
		                 0);
	}
	for (i = 0; i < SK_THREADS; i++) {
		ck_assert_int_eq(pthread_join(t[i], NULL), 0);
		ck_assert_msg(job[i].ok, "thread %zu failed", i);
	}
	curve_client_free(c);
}
END_TEST

/* ------------------------------------------------------------------ */
/* keyfile                                                             */

static char tmpdir[64];

static void keyfile_setup(void)
{
	ck_assert_int_ge(sodium_init(), 0);
	strcpy(tmpdir, TMPL);
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void keyfile_teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
	ck_assert_int_eq(system(cmd), 0);
}

static void path_in(char *out, size_t cap, const char *name)
{
	ck_assert_int_lt(snprintf(out, cap, "%s/%s", tmpdir, name), (int)cap);
}

static void write_file(const char *path, const char *data, mode_t mode)
{
	FILE *f;

	unlink(path);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(data, 1, strlen(data), f), strlen(data));
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_int_eq(chmod(path, mode), 0);
}

static int load_status(const char *path)
{
	struct curve_client *c = (struct curve_client *)&c;
	int st = curve_client_load(&c, 0, path);

	if (st == CURVE_OK)
		ck_assert_ptr_nonnull(c);
	else
		ck_assert_ptr_null(c);
	curve_client_free(c);
	return st;
}

static const char hexkey[] =
	"e264283b6d9ecfc0b2d2c447eaab2f3e3d5f55115c7fde483d5e05bd7f4ff06a";

START_TEST(test_keyfile_generate_load)
{
	char path[128], buf[128];
	struct curve_client *c = NULL;
	struct stat sb;
	uint8_t sk[32], pk[32], pk2[32];
	FILE *f;
	size_t n;

	path_in(path, sizeof path, "key");
	ck_assert_int_eq(curve_keyfile_generate(path), CURVE_OK);
	ck_assert_int_eq(stat(path, &sb), 0);
	ck_assert(S_ISREG(sb.st_mode));
	ck_assert_uint_eq(sb.st_mode & 07777, 0600);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	n = fread(buf, 1, sizeof buf, f);
	fclose(f);
	ck_assert_uint_eq(n, 65);
	ck_assert_uint_eq(buf[64], '\n');
	ck_assert_int_eq(sodium_hex2bin(sk, 32, buf, 64, NULL, &n, NULL), 0);
	ck_assert_int_eq(curve_client_load(&c, 0, path), CURVE_OK);
	ck_assert_int_eq(crypto_scalarmult_base(pk, sk), 0);
	curve_client_pk(c, pk2);
	ck_assert_int_eq(memcmp(pk, pk2, 32), 0);
	curve_client_free(c);
	/* Generating again replaces the key atomically (no temp left). */
	ck_assert_int_eq(curve_keyfile_generate(path), CURVE_OK);
	ck_assert_int_eq(curve_client_load(&c, 0, path), CURVE_OK);
	curve_client_pk(c, pk2);
	ck_assert_int_ne(memcmp(pk, pk2, 32), 0);
	curve_client_free(c);
	snprintf(buf, sizeof buf,
	         "ls '%s' | grep -vx 'key' | "
	         "grep -vx 'key.nonce' | grep -q .",
	         tmpdir);
	ck_assert_int_ne(system(buf), 0);
	/* A missing directory. */
	path_in(path, sizeof path, "no/such/key");
	ck_assert_int_eq(curve_keyfile_generate(path), CURVE_EIO);
	/* The vector key as a file gives the vector public key. */
	path_in(path, sizeof path, "vec");
	snprintf(buf, sizeof buf, "%s\n", hexkey);
	write_file(path, buf, 0600);
	ck_assert_int_eq(curve_client_load(&c, 0, path), CURVE_OK);
	curve_client_pk(c, pk2);
	vec_key("client_pk", pk);
	ck_assert_int_eq(memcmp(pk, pk2, 32), 0);
	curve_client_free(c);
}
END_TEST

START_TEST(test_keyfile_mode_type)
{
	static const mode_t bad[] = { 0644, 0640, 0604,  0700,
		                      0610, 0601, 04600, 0666 };
	char path[128], link[128], line[80];
	size_t i;

	path_in(path, sizeof path, "key");
	snprintf(line, sizeof line, "%s\n", hexkey);
	write_file(path, line, 0600);
	ck_assert_int_eq(load_status(path), CURVE_OK);
	ck_assert_int_eq(chmod(path, 0400), 0);
	ck_assert_int_eq(load_status(path), CURVE_OK);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		ck_assert_int_eq(chmod(path, bad[i]), 0);
		ck_assert_msg(load_status(path) == CURVE_EKEYFILE, "mode %o",
		              (unsigned)bad[i]);
	}
	ck_assert_int_eq(chmod(path, 0600), 0);
	/* A symlink to a good key file is followed (the target is checked). */
	path_in(link, sizeof link, "link");
	ck_assert_int_eq(symlink(path, link), 0);
	ck_assert_int_eq(load_status(link), CURVE_OK);
	/* Not regular files (a directory of mode 0600 too). */
	ck_assert_int_eq(load_status(tmpdir), CURVE_EKEYFILE);
	path_in(path, sizeof path, "dir");
	ck_assert_int_eq(mkdir(path, 0600), 0);
	ck_assert_int_eq(load_status(path), CURVE_EKEYFILE);
	path_in(path, sizeof path, "fifo");
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	ck_assert_int_eq(load_status(path), CURVE_EKEYFILE);
	ck_assert_int_eq(load_status("/dev/null"), CURVE_EKEYFILE);
	/* Missing: EIO with errno. */
	path_in(path, sizeof path, "missing");
	errno = 0;
	ck_assert_int_eq(load_status(path), CURVE_EIO);
	ck_assert_int_eq(errno, ENOENT);
}
END_TEST

START_TEST(test_keyfile_malformed)
{
	char path[128], line[160];
	const char *bad[] = { "",      "\n",     "%.63s\n", "%.63s",
		              "%s0\n", "%s\n\n", "%s\r\n",  " %s\n",
		              "%s \n", "%s0",    "x%.63s\n" };
	size_t i;

	path_in(path, sizeof path, "key");
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
		snprintf(line, sizeof line, bad[i], hexkey);
#pragma GCC diagnostic pop
		write_file(path, line, 0600);
		ck_assert_msg(load_status(path) == CURVE_EKEYFILE, "case %zu",
		              i);
	}
	/* Not hex. */
	snprintf(line, sizeof line, "%s\n", hexkey);
	line[10] = 'g';
	write_file(path, line, 0600);
	ck_assert_int_eq(load_status(path), CURVE_EKEYFILE);
	/* Upper-case hex and no final newline are fine. */
	snprintf(line, sizeof line, "%s", hexkey);
	for (i = 0; line[i]; i++)
		if (line[i] >= 'a')
			line[i] = (char)(line[i] - 32);
	write_file(path, line, 0600);
	ck_assert_int_eq(load_status(path), CURVE_OK);
}
END_TEST

static uint64_t read_mark(const char *keypath)
{
	char path[160], buf[64];
	FILE *f;
	size_t n;

	snprintf(path, sizeof path, "%s.nonce", keypath);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	return strtoull(buf, NULL, 10);
}

START_TEST(test_keyfile_nonce_persist)
{
	char path[128], npath[160];
	struct curve_client *c = NULL;
	uint8_t n[12];
	uint64_t max1 = 0, v, i, mark;

	path_in(path, sizeof path, "key");
	snprintf(npath, sizeof npath, "%s.nonce", path);
	ck_assert_int_eq(curve_keyfile_generate(path), CURVE_OK);
	ck_assert_int_ne(access(npath, F_OK), 0);
	/* First run: the mark is written before the first nonce. */
	ck_assert_int_eq(curve_client_load(&c, 0, path), CURVE_OK);
	mark = read_mark(path);
	ck_assert_uint_eq(mark, 1 + CURVE_NONCE_BLOCK);
	for (i = 0; i < 100; i++) {
		ck_assert_int_eq(curve_nonce_next(c, n), CURVE_OK);
		v = counter_of(n);
		ck_assert_uint_lt(v, mark);
		if (v > max1)
			max1 = v;
	}
	/* Crossing the block reserves the next one first. */
	curve_client_set_counter(c, mark - 1);
	ck_assert_int_eq(curve_nonce_next(c, n), CURVE_OK);
	ck_assert_uint_eq(counter_of(n), mark - 1);
	ck_assert_uint_eq(read_mark(path), mark);
	ck_assert_int_eq(curve_nonce_next(c, n), CURVE_OK);
	ck_assert_uint_eq(counter_of(n), mark);
	ck_assert_uint_eq(read_mark(path), mark + CURVE_NONCE_BLOCK);
	max1 = counter_of(n);
	curve_client_free(c);
	/* Second run never reuses a counter value of the first. */
	ck_assert_int_eq(curve_client_load(&c, 0, path), CURVE_OK);
	for (i = 0; i < 100; i++) {
		ck_assert_int_eq(curve_nonce_next(c, n), CURVE_OK);
		ck_assert_uint_gt(counter_of(n), max1);
	}
	ck_assert_uint_eq(read_mark(path), mark + 2 * CURVE_NONCE_BLOCK);
	/* Rotation stops using the file. */
	ck_assert_int_eq(curve_client_rotate(c), CURVE_OK);
	curve_client_set_counter(c, mark + 5 * CURVE_NONCE_BLOCK);
	ck_assert_int_eq(curve_nonce_next(c, n), CURVE_OK);
	ck_assert_uint_eq(read_mark(path), mark + 2 * CURVE_NONCE_BLOCK);
	curve_client_free(c);
}
END_TEST

START_TEST(test_keyfile_nonce_errors)
{
	char path[128], npath[160], cmd[256];
	struct curve_client *c = NULL;
	uint8_t n[12];

	path_in(path, sizeof path, "key");
	snprintf(npath, sizeof npath, "%s.nonce", path);
	ck_assert_int_eq(curve_keyfile_generate(path), CURVE_OK);
	/* Malformed marks. */
	write_file(npath, "12x\n", 0600);
	ck_assert_int_eq(load_status(path), CURVE_EKEYFILE);
	write_file(npath, "\n", 0600);
	ck_assert_int_eq(load_status(path), CURVE_EKEYFILE);
	write_file(npath, "99999999999999999999\n", 0600);
	ck_assert_int_eq(load_status(path), CURVE_EKEYFILE);
	write_file(npath, "123456789012345678901234\n", 0600);
	ck_assert_int_eq(load_status(path), CURVE_EKEYFILE);
	write_file(npath, "4096", 0600);
	ck_assert_int_eq(load_status(path), CURVE_OK);
	ck_assert_uint_eq(read_mark(path), 4096 + CURVE_NONCE_BLOCK);
	/* The mark cannot be read: EIO. */
	unlink(npath);
	ck_assert_int_eq(mkdir(npath, 0700), 0);
	ck_assert_int_eq(load_status(path), CURVE_EIO);
	ck_assert_int_eq(rmdir(npath), 0);
	/* The mark cannot be written later: no nonce, EIO. */
	ck_assert_int_eq(curve_client_load(&c, 0, path), CURVE_OK);
	unlink(npath);
	ck_assert_int_eq(mkdir(npath, 0700), 0);
	snprintf(cmd, sizeof cmd, "touch '%s/x'", npath);
	ck_assert_int_eq(system(cmd), 0);
	curve_client_set_counter(c, UINT64_MAX / 2);
	memset(n, 0xee, sizeof n);
	ck_assert_int_eq(curve_nonce_next(c, n), CURVE_EIO);
	ck_assert_uint_eq(n[0], 0xee);
	ck_assert_int_eq(curve_nonce_next(c, n), CURVE_EIO);
	curve_client_free(c);
	/* Near the end of the counter space the mark saturates. */
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", npath);
	ck_assert_int_eq(system(cmd), 0);
	snprintf(cmd, sizeof cmd, "%llu\n",
	         (unsigned long long)(UINT64_MAX - 2));
	write_file(npath, cmd, 0600);
	ck_assert_int_eq(curve_client_load(&c, 0, path), CURVE_OK);
	ck_assert_int_eq(curve_nonce_next(c, n), CURVE_OK);
	ck_assert_uint_eq(counter_of(n), UINT64_MAX - 2);
	ck_assert_int_eq(curve_nonce_next(c, n), CURVE_OK);
	ck_assert_int_ne(curve_nonce_next(c, n), CURVE_OK);
	curve_client_free(c);
}
END_TEST

/* ------------------------------------------------------------------ */

/** Add the TCases "nonce", "sharedkey" and "keyfile". */
void check_curve_add_keys(Suite *s)
{
	TCase *tc;

	tc = tcase_create("nonce");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_nonce_counter);
	tcase_add_test(tc, test_nonce_threads);
	suite_add_tcase(s, tc);

	tc = tcase_create("sharedkey");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_sharedkey_lru);
	tcase_add_test(tc, test_sharedkey_many);
	tcase_add_test(tc, test_sharedkey_threads);
	suite_add_tcase(s, tc);

	tc = tcase_create("keyfile");
	tcase_add_checked_fixture(tc, keyfile_setup, keyfile_teardown);
	tcase_add_test(tc, test_keyfile_generate_load);
	tcase_add_test(tc, test_keyfile_mode_type);
	tcase_add_test(tc, test_keyfile_malformed);
	tcase_add_test(tc, test_keyfile_nonce_persist);
	tcase_add_test(tc, test_keyfile_nonce_errors);
	suite_add_tcase(s, tc);
}
