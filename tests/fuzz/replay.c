/*
 * replay.c - a main() for a fuzz target without libFuzzer: run the target
 * once on every file named on the command line, or on every file of every
 * directory named (sorted, not recursive).  CTest runs each target over its
 * seed corpus (tests/fuzz/corpora/<target>/) this way on every build, with
 * gcc and ASan+UBSan when the build has them; a corpus that is missing or
 * empty is a failure, so a renamed directory cannot make the test pass.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

/* Optional in a target; the replay calls it when the target defines it. */
__attribute__((weak)) int LLVMFuzzerInitialize(int *argc, char ***argv);

static int run_file(const char *path)
{
	FILE *fp = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t len = 0, alloc = 0, got;

	if (!fp) {
		fprintf(stderr, "replay: cannot open '%s': %s\n", path, strerror(errno));
		return -1;
	}
	do {
		if (len == alloc) {
			alloc = alloc ? 2 * alloc : 65536;
			buf = realloc(buf, alloc);
			if (!buf)
				abort();
		}
		got = fread(buf + len, 1, alloc - len, fp);
		len += got;
	} while (got);
	if (ferror(fp)) {
		fprintf(stderr, "replay: cannot read '%s'\n", path);
		fclose(fp);
		free(buf);
		return -1;
	}
	fclose(fp);
	/* a copy of exactly len bytes, so ASan sees any read past the input */
	{
		unsigned char *exact = malloc(len ? len : 1);
		if (!exact)
			abort();
		memcpy(exact, buf, len);
		free(buf);
		fprintf(stderr, "replay: %s (%zu bytes)\n", path, len);
		LLVMFuzzerTestOneInput(exact, len);
		free(exact);
	}
	return 0;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

int main(int argc, char **argv)
{
	size_t inputs = 0;
	int i, failed = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s CORPUS-DIR|FILE...\n", argv[0]);
		return 64;
	}
	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	for (i = 1; i < argc; i++) {
		struct stat st;
		struct dirent **names;
		int n, j;

		if (stat(argv[i], &st) < 0) {
			fprintf(stderr, "replay: no such corpus '%s'\n", argv[i]);
			failed = 1;
			continue;
		}
		if (!S_ISDIR(st.st_mode)) {
			failed |= run_file(argv[i]) != 0;
			inputs++;
			continue;
		}
		n = scandir(argv[i], &names, NULL, by_name);
		if (n < 0) {
			fprintf(stderr, "replay: cannot list '%s': %s\n", argv[i], strerror(errno));
			failed = 1;
			continue;
		}
		for (j = 0; j < n; j++) {
			char path[4096];

			snprintf(path, sizeof(path), "%s/%s", argv[i], names[j]->d_name);
			if (names[j]->d_name[0] != '.' && stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
				failed |= run_file(path) != 0;
				inputs++;
			}
			free(names[j]);
		}
		free(names);
	}
	if (!inputs) {
		fprintf(stderr, "replay: no inputs found (an empty corpus tests nothing)\n");
		return 1;
	}
	fprintf(stderr, "replay: %zu input%s, all passed\n", inputs, inputs == 1 ? "" : "s");
	return failed;
}
