/*
 * tests/unit/check_persist.c - Suite "persist": the cache file
 * (resolver/store/persist.h): a round trip, TTLs counted down and expired
 * entries dropped, and every reason a file is skipped: missing, foreign,
 * truncated, one byte changed, a bad line under a good checksum, an
 * entry count that differs, too large, writable by others, not a regular
 * file, a symbolic link; the MAC: a forgery with a recomputed plain
 * BLAKE2b sum, a changed key, the key file's mode, size and absence; the
 * stale temporaries of a killed save removed, and nothing else; DNSSEC
 * status and image kept across a save and a load, and a file of the
 * format before them (trailer version 2) skipped.
 */
#include <check.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>
#include <sodium.h>

#include "cache.h"
#include "store/persist.h"

#define T0 1700000000
/** Names stored by fill(). */
#define N_NAMES 50

static char dir[] = "/tmp/check_persist.XXXXXX";
static char path[256];
static char keypath[300];
static char err[PERSIST_ERR_BYTES];

static struct cache *new_cache(void)
{
	struct cache_config cc;
	struct cache *c = NULL;

	cache_config_init(&cc);
	cc.max_bytes = 4 * 1024 * 1024;
	ck_assert_int_eq(cache_create(&cc, &c), CACHE_OK);
	return c;
}

/* hNN.example. A 192.0.2.NN with TTL 100 + NN, plain, rank auth. */
static void fill(struct cache *c)
{
	uint8_t name[32], addr[4] = { 192, 0, 2, 0 };
	struct cache_rdata rd = { addr, sizeof addr };
	struct cache_rrset set;
	int i;

	for (i = 0; i < N_NAMES; i++) {
		name[0] = 3;
		snprintf((char *)name + 1, 4, "h%02d", i);
		memcpy(name + 4, "\007example\000", 9);
		addr[3] = (uint8_t)i;
		memset(&set, 0, sizeof set);
		set.name = name;
		set.name_len = 13;
		set.type = 1;
		set.klass = 1;
		set.ttl = 100 + (uint32_t)i;
		set.rdata = &rd;
		set.count = 1;
		set.rank = CACHE_RANK_AUTH;
		ck_assert_int_eq(cache_rrset_put(c, &set, T0), CACHE_OK);
	}
}

static size_t entries(struct cache *c)
{
	struct cache_stats st;

	cache_stats_get(c, &st);
	return st.entries;
}

static void setup(void)
{
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/cache", dir);
	snprintf(keypath, sizeof keypath, "%s.key", path);
}

static void teardown(void)
{
	char cmd[300];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
	memcpy(dir + strlen(dir) - 6, "XXXXXX", 6);
}

/* Save a filled cache to path. */
static void save(void)
{
	struct cache *c = new_cache();
	struct persist_counts n;
	struct stat sb;

	fill(c);
	ck_assert_int_eq(persist_cache_save(c, path, T0, &n, err, sizeof err),
	                 PERSIST_OK);
	ck_assert_uint_eq(n.entries, N_NAMES);
	ck_assert_uint_eq(n.records, N_NAMES);
	ck_assert_int_eq(stat(path, &sb), 0);
	ck_assert_uint_eq(sb.st_mode & 07777, 0600);
	cache_destroy(c);
}

/* Load path into a fresh cache at time now; the status. */
static int load_at(time_t now, struct persist_counts *n, size_t *held)
{
	struct cache *c = new_cache();
	int rc;

	err[0] = '\0';
	rc = persist_cache_load(c, path, now, 1 << 20, n, err, sizeof err);
	*held = entries(c);
	cache_destroy(c);
	return rc;
}

static char *slurp(size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = malloc(1 << 20);

	ck_assert_ptr_nonnull(f);
	*len = fread(buf, 1, 1 << 20, f);
	fclose(f);
	return buf;
}

static void spit(const char *buf, size_t len)
{
	FILE *f = fopen(path, "wb");

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(buf, 1, len, f), len);
	fclose(f);
	chmod(path, 0600);
}

START_TEST(test_round_trip)
{
	struct persist_counts n;
	size_t held;

	save();
	ck_assert_msg(load_at(T0 + 10, &n, &held) == PERSIST_OK, "%s", err);
	ck_assert_uint_eq(n.entries, N_NAMES);
	ck_assert_uint_eq(held, N_NAMES);
	ck_assert_uint_eq(n.expired, 0);
	ck_assert_uint_eq(n.bad, 0);
	/* TTLs 100..149: at T0 + 125, 26 have run out (100..125). */
	ck_assert_msg(load_at(T0 + 125, &n, &held) == PERSIST_OK, "%s", err);
	ck_assert_uint_eq(n.expired, 26);
	ck_assert_uint_eq(n.entries, N_NAMES - 26);
	ck_assert_uint_eq(held, N_NAMES - 26);
	ck_assert_int_eq(load_at(T0 + 1000, &n, &held), PERSIST_OK);
	ck_assert_uint_eq(held, 0);
}
END_TEST

START_TEST(test_missing_and_foreign)
{
	struct persist_counts n;
	size_t held;

	ck_assert_int_eq(load_at(T0, &n, &held), PERSIST_ENOENT);
	spit("root:x:0:0:root:/root:/bin/bash\n", 32);
	ck_assert_int_eq(load_at(T0, &n, &held), PERSIST_EFOREIGN);
	ck_assert_uint_eq(held, 0);
	spit("", 0);
	ck_assert_int_eq(load_at(T0, &n, &held), PERSIST_EFOREIGN);
}
END_TEST

START_TEST(test_corrupt)
{
	struct persist_counts n;
	size_t len, held;
	char *buf, *p, *e;

	save();
	buf = slurp(&len);
	/* Truncated: no trailer. */
	spit(buf, len / 2);
	ck_assert_int_eq(load_at(T0, &n, &held), PERSIST_ECORRUPT);
	ck_assert_uint_eq(held, 0);
	/* Trailer cut. */
	spit(buf, len - 1);
	ck_assert_int_eq(load_at(T0, &n, &held), PERSIST_ECORRUPT);
	/* One address changed: the checksum fails. */
	p = strstr(buf, "192.0.2.7\t");
	ck_assert_ptr_nonnull(p);
	p[8] = '8';
	spit(buf, len);
	ck_assert_int_eq(load_at(T0, &n, &held), PERSIST_ECORRUPT);
	ck_assert_ptr_nonnull(strstr(err, "MAC does not match"));
	ck_assert_uint_eq(held, 0);
	p[8] = '7';
	/* A line dropped: length differs from the trailer's. */
	p = strstr(buf, "h07.example.");
	ck_assert_ptr_nonnull(p);
	e = strchr(p, '\n') + 1;
	memmove(p, e, len - (size_t)(e - buf));
	spit(buf, len - (size_t)(e - p));
	ck_assert_int_eq(load_at(T0, &n, &held), PERSIST_ECORRUPT);
	free(buf);
}
END_TEST

/* Write a MAC key file (mode 0600). */
static void write_key(const uint8_t key[crypto_generichash_KEYBYTES])
{
	char hex[2 * crypto_generichash_KEYBYTES + 2];
	FILE *f = fopen(keypath, "wb");

	ck_assert_ptr_nonnull(f);
	sodium_bin2hex(hex, sizeof hex, key, crypto_generichash_KEYBYTES);
	fprintf(f, "%s\n", hex);
	fclose(f);
	chmod(keypath, 0600);
}

/* Write text with a trailer of format version that matches it: length
 * and the MAC under key (NULL: a plain BLAKE2b sum, as a forger would). */
static void spit_mac_version(const char *text, size_t entries_said,
                             const uint8_t *key, int version)
{
	unsigned char mac[crypto_generichash_BYTES];
	char hex[2 * sizeof mac + 1], pre[200], *all;
	crypto_generichash_state h;
	size_t len = strlen(text);

	snprintf(pre, sizeof pre,
	         "; curvecache-dump-end version=%d entries=%zu "
	         "records=%zu bytes=%zu mac=",
	         version, entries_said, entries_said, len);
	crypto_generichash_init(&h, key, key ? crypto_generichash_KEYBYTES : 0,
	                        sizeof mac);
	crypto_generichash_update(&h, (const unsigned char *)text, len);
	crypto_generichash_update(&h, (const unsigned char *)pre, strlen(pre));
	crypto_generichash_final(&h, mac, sizeof mac);
	sodium_bin2hex(hex, sizeof hex, mac, sizeof mac);
	all = malloc(len + 300);
	snprintf(all, len + 300, "%s%s%s\n", text, pre, hex);
	spit(all, strlen(all));
	free(all);
}

/* The trailer of the current format, version 3. */
static void spit_mac(const char *text, size_t entries_said, const uint8_t *key)
{
	spit_mac_version(text, entries_said, key, 3);
}

/* A fresh key in the key file; the text signed with it. */
static void spit_signed(const char *text, size_t entries_said)
{
	uint8_t key[crypto_generichash_KEYBYTES];

	randombytes_buf(key, sizeof key);
	write_key(key);
	spit_mac(text, entries_said, key);
}

/* Write text with the trailer of format 1: a plain BLAKE2b sum. */
static void spit_plain_sum(const char *text, size_t len)
{
	unsigned char sum[crypto_generichash_BYTES];
	char hex[2 * sizeof sum + 1], *all;

	crypto_generichash(sum, sizeof sum, (const unsigned char *)text, len,
	                   NULL, 0);
	sodium_bin2hex(hex, sizeof hex, sum, sizeof sum);
	all = malloc(len + 300);
	memcpy(all, text, len);
	snprintf(all + len, 300,
	         "; curvecache-dump-end entries=%d records=%d "
	         "bytes=%zu blake2b=%s\n",
	         N_NAMES, N_NAMES, len, hex);
	spit(all, strlen(all));
	free(all);
}

/* The saved file without its trailer, one address changed; its length. */
static char *forged_body(size_t *len)
{
	char *buf = slurp(len), *p = strstr(buf, "192.0.2.7\t"), *tail;

	ck_assert_ptr_nonnull(p);
	p[8] = '8';
	buf[*len - 1] = '\0';
	tail = strrchr(buf, '\n');
	ck_assert_ptr_nonnull(tail);
	tail[1] = '\0';
	*len = (size_t)(tail + 1 - buf);
	return buf;
}

/* Regression (issue 13 item 5): an edited file with a recomputed plain
 * BLAKE2b sum loaded, its records keeping their provenance. */
START_TEST(test_forged_plain_sum)
{
	struct persist_counts n;
	size_t len, held;
	char *body;

	save();
	body = forged_body(&len);
	/* The old trailer: refused as another format. */
	spit_plain_sum(body, len);
	ck_assert_int_eq(load_at(T0, &n, &held), PERSIST_EVERSION);
	ck_assert_ptr_nonnull(strstr(err, "format 1"));
	ck_assert_uint_eq(held, 0);
	/* The new trailer with an unkeyed sum in place of the MAC. */
	spit_mac(body, N_NAMES, NULL);
	ck_assert_int_eq(load_at(T0, &n, &held), PERSIST_ECORRUPT);
	ck_assert_ptr_nonnull(strstr(err, "MAC does not match"));
	ck_assert_ptr_nonnull(strstr(err, keypath));
	ck_assert_uint_eq(held, 0);
	free(body);
}
END_TEST

/* A file written under another key (the key file replaced) is refused;
 * the file and its own key load. */
START_TEST(test_key_changed)
{
	uint8_t other[crypto_generichash_KEYBYTES];
	struct persist_counts n;
	size_t held;

	save();
	ck_assert_msg(load_at(T0, &n, &held) == PERSIST_OK, "%s", err);
	ck_assert_uint_eq(held, N_NAMES);
	randombytes_buf(other, sizeof other);
	write_key(other);
	ck_assert_int_eq(load_at(T0, &n, &held), PERSIST_ECORRUPT);
	ck_assert_ptr_nonnull(strstr(err, "MAC does not match"));
	ck_assert_uint_eq(held, 0);
	/* No key at all: the file cannot be verified. */
	ck_assert_int_eq(unlink(keypath), 0);
	ck_assert_int_eq(load_at(T0, &n, &held), PERSIST_EKEY);
	ck_assert_ptr_nonnull(strstr(err, keypath));
	ck_assert_ptr_nonnull(strstr(err, "missing"));
	ck_assert_uint_eq(held, 0);
}
END_TEST

/* The key file: made at the first save with mode 0600, kept by the next
 * saves; one of mode 0644 is refused for load and save (it is no secret:
 * persist_key.c); a symbolic link or a wrong size is refused. */
START_TEST(test_key_file)
{
	struct persist_counts n;
	struct stat sb, sb2;
	struct cache *c = new_cache();
	char link[300];
	size_t held;

	save();
	ck_assert_int_eq(lstat(keypath, &sb), 0);
	ck_assert(S_ISREG(sb.st_mode));
	ck_assert_uint_eq(sb.st_mode & 07777, 0600);
	ck_assert_int_eq(sb.st_size, 2 * crypto_generichash_KEYBYTES + 1);
	save();
	ck_assert_int_eq(lstat(keypath, &sb2), 0);
	ck_assert_uint_eq(sb2.st_ino, sb.st_ino);
	chmod(keypath, 0644);
	ck_assert_int_eq(load_at(T0, &n, &held), PERSIST_EKEY);
	ck_assert_ptr_nonnull(strstr(err, keypath));
	ck_assert_ptr_nonnull(strstr(err, "mode 0644"));
	ck_assert_ptr_nonnull(strstr(err, "chmod 600"));
	ck_assert_uint_eq(held, 0);
	ck_assert_int_eq(persist_cache_save(c, path, T0, NULL, err,
	                                    sizeof err),
	                 PERSIST_EKEY);
	ck_assert_ptr_nonnull(strstr(err, "mode 0644"));
	chmod(keypath, 0600);
	ck_assert_msg(load_at(T0, &n, &held) == PERSIST_OK, "%s", err);
	/* Cut short. */
	ck_assert_int_eq(truncate(keypath, 10), 0);
	ck_assert_int_eq(load_at(T0, &n, &held), PERSIST_EKEY);
	ck_assert_ptr_nonnull(strstr(err, "10 bytes"));
	ck_assert_int_eq(persist_cache_save(c, path, T0, NULL, err,
	                                    sizeof err),
	                 PERSIST_EKEY);
	/* Removed: the next save makes a new key. */
	ck_assert_int_eq(unlink(keypath), 0);
	save();
	ck_assert_msg(load_at(T0, &n, &held) == PERSIST_OK, "%s", err);
	/* A symbolic link to a good key. */
	snprintf(link, sizeof link, "%s/elsewhere", dir);
	ck_assert_int_eq(rename(keypath, link), 0);
	ck_assert_int_eq(symlink(link, keypath), 0);
	ck_assert_int_eq(load_at(T0, &n, &held), PERSIST_EKEY);
	ck_assert_ptr_nonnull(strstr(err, "symbolic link"));
	cache_destroy(c);
}
END_TEST

/* Make dir/name with text, mode 0600, last written at when. */
static void make_tmp(const char *name, const char *text, time_t when)
{
	char p[300];
	struct timeval tv[2] = { { when, 0 }, { when, 0 } };
	FILE *f;

	snprintf(p, sizeof p, "%s/%s", dir, name);
	f = fopen(p, "wb");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
	ck_assert_int_eq(chmod(p, 0600), 0);
	ck_assert_int_eq(utimes(p, tv), 0);
}

static bool there(const char *name)
{
	char p[300];
	struct stat sb;

	snprintf(p, sizeof p, "%s/%s", dir, name);
	return lstat(p, &sb) == 0;
}

/* Regression (issue 13 item 5): the temporary of a save killed midway
 * stayed forever. Stale temporaries of ours go at the next load and
 * save; everything else stays. */
START_TEST(test_stale_tmp)
{
	static const char dump[] = "; curvecache-dump version=1 time=1\n"
				   "a.example.\t300\tIN\tA\t192.0.2.1";
	static const char hexkey[] = "0123456789abcdef";
	struct persist_counts n;
	struct cache *c = new_cache();
	char p[300];
	size_t held;
	int fd;

	make_tmp("cache.AbC123", dump, T0 - 120);   /* killed save */
	make_tmp("cache.Empty0", "", T0 - 120);     /* killed at once */
	make_tmp("cache.Key123", hexkey, T0 - 120); /* killed key */
	make_tmp("cache.Fresh1", dump, T0 - 10);    /* saving now */
	make_tmp("cache.Lock12", dump, T0 - 120);   /* saving, locked */
	make_tmp("cache.Notes1", "my notes\n", T0 - 120);
	make_tmp("cache.backup1", dump, T0 - 120); /* 7 characters */
	make_tmp("cache.Ab-123", dump, T0 - 120);
	make_tmp("other.AbC123", dump, T0 - 120);
	make_tmp("cache.Mode12", dump, T0 - 120);
	snprintf(p, sizeof p, "%s/cache.Mode12", dir);
	ck_assert_int_eq(chmod(p, 0644), 0);
	snprintf(p, sizeof p, "%s/cache.AbC123", dir);
	ck_assert_int_eq(symlink(p, strcat(strcpy(p, dir), "/cache.Link12")),
	                 0);
	snprintf(p, sizeof p, "%s/cache.Lock12", dir);
	fd = open(p, O_RDONLY);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(flock(fd, LOCK_EX), 0);

	ck_assert_int_eq(load_at(T0, &n, &held), PERSIST_ENOENT);
	ck_assert(!there("cache.AbC123"));
	ck_assert(!there("cache.Empty0"));
	ck_assert(!there("cache.Key123"));
	ck_assert(there("cache.Fresh1"));
	ck_assert(there("cache.Lock12"));
	ck_assert(there("cache.Notes1"));
	ck_assert(there("cache.backup1"));
	ck_assert(there("cache.Ab-123"));
	ck_assert(there("other.AbC123"));
	ck_assert(there("cache.Mode12"));
	ck_assert(there("cache.Link12"));
	/* The lock released (its saver killed): gone at the next save. */
	close(fd);
	make_tmp("cache.ZZZ999", dump, T0 - 120);
	fill(c);
	ck_assert_msg(persist_cache_save(c, path, T0, NULL, err, sizeof err) ==
	                      PERSIST_OK,
	              "%s", err);
	ck_assert(!there("cache.Lock12"));
	ck_assert(!there("cache.ZZZ999"));
	ck_assert(there("cache.Fresh1"));
	ck_assert(there("cache"));
	cache_destroy(c);
}
END_TEST

START_TEST(test_bad_line_signed)
{
	static const char good[] =
		"; curvecache-dump version=1 time=1700000000\n"
		"a.example.\t300\tIN\tA\t192.0.2.1\t; rank=auth src=plain\n"
		"b.example.\t300\tIN\tA\t192.0.2.2\t; rank=auth src=plain\n";
	static const char bad[] =
		"; curvecache-dump version=1 time=1700000000\n"
		"a.example.\t300\tIN\tA\t192.0.2.1\t; rank=auth src=plain\n"
		"b.example.\t300\tIN\tA\t192.0.2.2.9\t; rank=auth src=plain\n";
	struct persist_counts n;
	char want[sizeof path + 32];
	size_t held;

	spit_signed(good, 2);
	ck_assert_msg(load_at(T0, &n, &held) == PERSIST_OK, "%s", err);
	ck_assert_uint_eq(held, 2);
	/* The count must agree. */
	spit_signed(good, 3);
	ck_assert_int_eq(load_at(T0, &n, &held), PERSIST_ECORRUPT);
	ck_assert_uint_eq(held, 0);
	/* A bad line: the whole file is skipped, the stored one flushed. */
	spit_signed(bad, 2);
	ck_assert_int_eq(load_at(T0, &n, &held), PERSIST_EBADLINE);
	/* named FILE:LINE, as the configuration's errors are */
	snprintf(want, sizeof want, "bad record line: %s:3: ", path);
	ck_assert_msg(strncmp(err, want, strlen(want)) == 0, "%s", err);
	ck_assert_ptr_nonnull(strstr(err, "(1 bad lines in all)"));
	ck_assert_uint_eq(n.bad, 1);
	ck_assert_uint_eq(held, 0);
}
END_TEST

START_TEST(test_unsafe_files)
{
	struct persist_counts n;
	struct cache *c = new_cache();
	char link[300];
	size_t held;

	save();
	chmod(path, 0620);
	ck_assert_int_eq(load_at(T0, &n, &held), PERSIST_EFILE);
	ck_assert_ptr_nonnull(strstr(err, "writable"));
	chmod(path, 0602);
	ck_assert_int_eq(load_at(T0, &n, &held), PERSIST_EFILE);
	chmod(path, 0644);
	ck_assert_int_eq(load_at(T0, &n, &held), PERSIST_OK);
	/* Too large for the limit given. */
	ck_assert_int_eq(persist_cache_load(c, path, T0, 100, &n, err,
	                                    sizeof err),
	                 PERSIST_EFILE);
	ck_assert_uint_eq(entries(c), 0);
	/* A symbolic link, a directory. */
	snprintf(link, sizeof link, "%s/link", dir);
	ck_assert_int_eq(symlink(path, link), 0);
	ck_assert_int_eq(persist_cache_load(c, link, T0, 1 << 20, &n, err,
	                                    sizeof err),
	                 PERSIST_EFILE);
	ck_assert_int_eq(persist_cache_load(c, dir, T0, 1 << 20, &n, err,
	                                    sizeof err),
	                 PERSIST_EFILE);
	cache_destroy(c);
}
END_TEST

START_TEST(test_save_fails)
{
	struct cache *c = new_cache();
	char bad[300];

	fill(c);
	snprintf(bad, sizeof bad, "%s/no/such/dir/cache", dir);
	ck_assert_int_eq(persist_cache_save(c, bad, T0, NULL, err, sizeof err),
	                 PERSIST_EIO);
	ck_assert_ptr_nonnull(strstr(err, "No such file"));
	cache_destroy(c);
}
END_TEST

/* ---- DNSSEC status and image ----------------------------------------- */

/** Bytes of RDATA in the RRSIG of sig_image (an ECDSA P-256 size). */
#define SIG_RDLEN 95

/* One RRSIG RR owned by the 13-byte name (TTL 7, RDATA bytes i + seed). */
static size_t sig_image(uint8_t *out, const uint8_t *name, uint8_t seed)
{
	static const uint8_t fixed[] = {
		0, 46, 0, 1, 0, 0, 0, 7, 0, SIG_RDLEN
	};
	size_t i;

	memcpy(out, name, 13);
	memcpy(out + 13, fixed, sizeof fixed);
	for (i = 0; i < SIG_RDLEN; i++)
		out[13 + sizeof fixed + i] = (uint8_t)(i + seed);
	return 13 + sizeof fixed + SIG_RDLEN;
}

/* sNN.example. as a 13-byte wire name. */
static void sname(uint8_t *name, int i)
{
	name[0] = 3;
	snprintf((char *)name + 1, 4, "s%02d", i);
	memcpy(name + 4, "\007example\000", 9);
}

/* s00: SECURE A with an RRSIG; s01: BOGUS NODATA (MX) with one; s02:
 * INSECURE NXDOMAIN without; s03: SECURE A over DNSCurve, image. */
static void fill_signed(struct cache *c)
{
	static const uint8_t soa[] = { 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0,
		                       0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 60 };
	uint8_t name[13], zone[] = "\007example", img[200], key[32] = { 9 };
	uint8_t addr[4] = { 192, 0, 2, 1 };
	struct cache_rdata rd = { addr, sizeof addr };
	struct cache_rrset set = { name, 13,
		                   1,    1,
		                   300,  &rd,
		                   1,    CACHE_RANK_AUTH,
		                   NULL, CACHE_SEC_SECURE,
		                   img,  0 };
	struct cache_neg neg = { CACHE_KIND_NODATA,
		                 name,
		                 13,
		                 15,
		                 1,
		                 zone,
		                 9,
		                 300,
		                 soa,
		                 sizeof soa,
		                 CACHE_RANK_AUTH,
		                 NULL,
		                 CACHE_SEC_BOGUS,
		                 img,
		                 0 };

	sname(name, 0);
	set.dnssec_len = sig_image(img, name, 1);
	ck_assert_int_eq(cache_rrset_put(c, &set, T0), CACHE_OK);
	sname(name, 1);
	neg.dnssec_len = sig_image(img, name, 2);
	ck_assert_int_eq(cache_neg_put(c, &neg, T0), CACHE_OK);
	sname(name, 2);
	neg.kind = CACHE_KIND_NXDOMAIN;
	neg.sec = CACHE_SEC_INSECURE;
	neg.dnssec_len = 0;
	ck_assert_int_eq(cache_neg_put(c, &neg, T0), CACHE_OK);
	sname(name, 3);
	set.server_key = key;
	set.dnssec_len = sig_image(img, name, 3);
	ck_assert_int_eq(cache_rrset_put(c, &set, T0), CACHE_OK);
}

/* Read sNN type with the image; check status and image (TTL ttl). */
static void check_signed(struct cache *c, int i, uint16_t type,
                         enum cache_sec sec, uint8_t seed, uint32_t ttl)
{
	uint8_t name[13], want[200], buf[600];
	struct cache_query q = { name, 13, type, 1, CACHE_GET_DNSSEC };
	struct cache_answer ans;
	size_t len;

	sname(name, i);
	ck_assert_int_eq(cache_get(c, &q, T0 + 10, &ans, buf, sizeof buf),
	                 CACHE_OK);
	ck_assert_int_eq(ans.sec, sec);
	ck_assert_uint_eq(ans.ttl, ttl);
	if (seed == 0) {
		ck_assert_uint_eq(ans.dnssec_len, 0);
		return;
	}
	len = sig_image(want, name, seed);
	want[17] = (uint8_t)(ttl >> 24); /* after owner, type, class */
	want[18] = (uint8_t)(ttl >> 16);
	want[19] = (uint8_t)(ttl >> 8);
	want[20] = (uint8_t)ttl;
	ck_assert_uint_eq(ans.dnssec_count, 1);
	ck_assert_uint_eq(ans.dnssec_len, len);
	ck_assert_mem_eq(buf + ans.len, want, len);
}

START_TEST(test_round_trip_dnssec)
{
	struct persist_counts n;
	struct cache *c = new_cache();
	char *text;
	size_t len;

	fill_signed(c);
	ck_assert_msg(persist_cache_save(c, path, T0, &n, err, sizeof err) ==
	                      PERSIST_OK,
	              "%s", err);
	ck_assert_uint_eq(n.entries, 4);
	cache_destroy(c);
	text = slurp(&len);
	ck_assert_ptr_nonnull(strstr(text, "sec=secure"));
	ck_assert_ptr_nonnull(strstr(text, "; dnssec\n"));
	ck_assert_ptr_nonnull(strstr(text,
	                             "\n; curvecache-dump-end version=3 "));
	free(text);
	c = new_cache();
	ck_assert_msg(persist_cache_load(c, path, T0 + 10, 1 << 20, &n, err,
	                                 sizeof err) == PERSIST_OK,
	              "%s", err);
	ck_assert_uint_eq(n.entries, 4);
	ck_assert_uint_eq(n.bad, 0);
	check_signed(c, 0, 1, CACHE_SEC_SECURE, 1, 290);
	check_signed(c, 1, 15, CACHE_SEC_BOGUS, 2, 50);
	check_signed(c, 2, 1, CACHE_SEC_INSECURE, 0, 50);
	check_signed(c, 3, 1, CACHE_SEC_SECURE, 3, 290);
	cache_destroy(c);
}
END_TEST

/* A file of format 2 (entries without DNSSEC status), under a good MAC:
 * skipped with a message saying why, nothing stored. */
START_TEST(test_old_version_skipped)
{
	static const char old[] =
		"; curvecache-dump version=1 time=1700000000\n"
		"a.example.\t300\tIN\tA\t192.0.2.1\t; rank=auth src=plain\n";
	uint8_t key[crypto_generichash_KEYBYTES];
	struct persist_counts n;
	size_t held;

	randombytes_buf(key, sizeof key);
	write_key(key);
	spit_mac_version(old, 1, key, 2);
	ck_assert_int_eq(load_at(T0, &n, &held), PERSIST_EVERSION);
	ck_assert_ptr_nonnull(strstr(err, "format 2"));
	ck_assert_ptr_nonnull(strstr(err, "format changed"));
	ck_assert_ptr_nonnull(strstr(err, "cache starts empty"));
	ck_assert_uint_eq(held, 0);
	ck_assert_uint_eq(n.entries, 0);
	/* The same body under the current trailer loads. */
	spit_mac_version(old, 1, key, 3);
	ck_assert_msg(load_at(T0, &n, &held) == PERSIST_OK, "%s", err);
	ck_assert_uint_eq(held, 1);
}
END_TEST

static Suite *persist_suite(void)
{
	Suite *s = suite_create("persist");
	TCase *tc = tcase_create("round_trip");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_round_trip);
	tcase_add_test(tc, test_round_trip_dnssec);
	suite_add_tcase(s, tc);
	tc = tcase_create("reject");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_missing_and_foreign);
	tcase_add_test(tc, test_corrupt);
	tcase_add_test(tc, test_bad_line_signed);
	tcase_add_test(tc, test_old_version_skipped);
	tcase_add_test(tc, test_unsafe_files);
	tcase_add_test(tc, test_save_fails);
	suite_add_tcase(s, tc);
	tc = tcase_create("mac");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_forged_plain_sum);
	tcase_add_test(tc, test_key_changed);
	tcase_add_test(tc, test_key_file);
	suite_add_tcase(s, tc);
	tc = tcase_create("tidy");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_stale_tmp);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(persist_suite());
	int failed;

	if (sodium_init() < 0)
		return 1;
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? 0 : 1;
}
