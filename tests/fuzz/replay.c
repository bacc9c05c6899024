/* Replays inputs through a harness without libFuzzer (make check, under
 * ASan+UBSan): each argument is a file or a directory of files. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static long runs;

static int run_file(const char *path)
{
	FILE *fp = fopen(path, "rb");
	unsigned char *buf;
	long n;

	if (!fp) {
		perror(path);
		return 1;
	}
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	fseek(fp, 0, SEEK_SET);
	/* exactly n bytes: reading past the input is an ASan error */
	buf = malloc(n > 0 ? (size_t)n : 1);
	if (!buf || fread(buf, 1, (size_t)n, fp) != (size_t)n) {
		fprintf(stderr, "%s: read error\n", path);
		fclose(fp);
		free(buf);
		return 1;
	}
	fclose(fp);
	LLVMFuzzerTestOneInput(buf, (size_t)n);
	free(buf);
	runs++;
	return 0;
}

static int run_path(const char *path)
{
	struct stat st;
	DIR *d;
	struct dirent *e;
	int bad = 0;

	if (stat(path, &st)) {
		perror(path);
		return 1;
	}
	if (!S_ISDIR(st.st_mode))
		return run_file(path);
	if (!(d = opendir(path))) {
		perror(path);
		return 1;
	}
	while ((e = readdir(d))) {
		char *p;

		if (e->d_name[0] == '.')
			continue;
		if (!(p = malloc(strlen(path) + strlen(e->d_name) + 2)))
			abort();
		sprintf(p, "%s/%s", path, e->d_name);
		bad |= run_path(p);
		free(p);
	}
	closedir(d);
	return bad;
}

int main(int argc, char **argv)
{
	int i, bad = 0;

	for (i = 1; i < argc; i++)
		bad |= run_path(argv[i]);
	fprintf(stderr, "%s: %ld input(s) replayed\n", argv[0], runs);
	return bad;
}
