/*
 * tests/fuzz/replay.c - run a fuzz target over files, without libFuzzer.
 *
 * Linked with each fuzz_<target>.c into tests/fuzz/fuzz_<target> when the
 * build is not a libFuzzer one; "make check" runs it over
 * tests/fuzz/corpus/<target>/ so every committed seed and every
 * past finding keeps being checked in the ordinary (and sanitizer) build.
 * Arguments are files or directories (read one level deep).
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REPLAY_MAX_INPUT (1024 * 1024)

static int replay_file(const char *path)
{
	static uint8_t buf[REPLAY_MAX_INPUT];
	FILE *f = fopen(path, "rb");
	size_t n;
	uint8_t *copy;

	if (f == NULL) {
		perror(path);
		return 1;
	}
	n = fread(buf, 1, sizeof buf, f);
	fclose(f);
	/* A fresh heap copy of exactly n bytes lets ASan see overreads. */
	copy = malloc(n ? n : 1);
	if (copy == NULL)
		return 1;
	memcpy(copy, buf, n);
	LLVMFuzzerTestOneInput(copy, n);
	free(copy);
	return 0;
}

static int replay_dir(const char *dir, unsigned *count)
{
	char path[4096];
	struct dirent *de;
	DIR *d = opendir(dir);
	int rc = 0;

	if (d == NULL) {
		perror(dir);
		return 1;
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		if (snprintf(path, sizeof path, "%s/%s", dir, de->d_name) >=
		    (int)sizeof path)
			continue;
		rc |= replay_file(path);
		(*count)++;
	}
	closedir(d);
	return rc;
}

int main(int argc, char **argv)
{
	struct stat st;
	unsigned count = 0;
	int i, rc = 0;

	for (i = 1; i < argc; i++) {
		/* libFuzzer's options (replay.sh passes -runs=0) mean nothing
		 * here: the same command replays with either main. */
		if (argv[i][0] == '-')
			continue;
		if (stat(argv[i], &st) != 0) {
			perror(argv[i]);
			return 1;
		}
		if (S_ISDIR(st.st_mode)) {
			rc |= replay_dir(argv[i], &count);
		} else {
			rc |= replay_file(argv[i]);
			count++;
		}
	}
	printf("replayed %u inputs\n", count);
	return rc || count == 0;
}
