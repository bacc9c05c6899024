/* Small utilities shared by every module: checked allocation, growable
 * arrays, strict number parsing, capped file reading, atomic file writes
 * and a seeded random generator. */
#ifndef GPUPLAN_UTIL_H
#define GPUPLAN_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gpuplan/util/error.h"

#define GP_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Allocation failure is not recoverable in a CLI tool; these abort with a
 * message instead of returning NULL. */
void *gp_xmalloc(size_t n);
void *gp_xcalloc(size_t n, size_t size);
void *gp_xrealloc(void *p, size_t n);
char *gp_xstrdup(const char *s);
char *gp_xstrndup(const char *s, size_t n);
char *gp_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Grow *items (element size esize) so that it can hold need elements. */
void gp_grow(void **items, size_t esize, size_t *cap, size_t need);
#define GP_GROW(arr, cap, need) \
	gp_grow((void **)&(arr), sizeof(*(arr)), &(cap), (need))

/* Growable string buffer (git's strbuf in miniature); buf is never NULL
 * after gp_sbuf_init. */
typedef struct gp_sbuf {
	char *buf;
	size_t len, cap;
} gp_sbuf;
void gp_sbuf_init(gp_sbuf *sb);
void gp_sbuf_release(gp_sbuf *sb);
void gp_sbuf_add(gp_sbuf *sb, const char *s, size_t n);
void gp_sbuf_adds(gp_sbuf *sb, const char *s);
void gp_sbuf_addf(gp_sbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
char *gp_sbuf_detach(gp_sbuf *sb);
/* Append v[0..n) with runs of consecutive numbers folded: "0-3,8,10-11"
 * (a Linux CPU list); nothing when n == 0. */
void gp_sbuf_add_ranges(gp_sbuf *sb, const int *v, int n);

/* Strict number parsing: the whole string must be a number within
 * [min, max]; returns 0 on success, -1 otherwise (out untouched). */
int gp_parse_long(const char *s, long min, long max, long *out);
int gp_parse_double(const char *s, double min, double max, double *out);
/* "1GiB", "256MB", "4096", "1.5 GB": bytes (binary and decimal suffixes). */
int gp_parse_size(const char *s, double *bytes_out);

/* Read a whole file (or "-" for stdin) of at most max_bytes, NUL-terminated.
 * Errors: GP_EIO when it cannot be read, GP_EINPUT when it is too large. */
int gp_read_file(const char *path, size_t max_bytes, char **data, size_t *len,
		 gp_error *err);

/* Resolve rel against the directory of base (unless rel is absolute). */
char *gp_path_relative_to(const char *base, const char *rel);

/* Atomic output: write to PATH.tmpXXXXXX, then rename onto PATH on commit.
 * A failed command calls gp_atomic_abort and leaves no partial file. */
typedef struct gp_atomic_file {
	FILE *fp;
	char *path, *tmp_path;
} gp_atomic_file;
int gp_atomic_open(gp_atomic_file *af, const char *path, gp_error *err);
int gp_atomic_commit(gp_atomic_file *af, gp_error *err);
void gp_atomic_abort(gp_atomic_file *af);

/* Deterministic PRNG (xoshiro256**), seeded through splitmix64. */
typedef struct gp_rng {
	uint64_t s[4];
} gp_rng;
void gp_rng_seed(gp_rng *r, uint64_t seed);
uint64_t gp_rng_next(gp_rng *r);
uint64_t gp_rng_below(gp_rng *r, uint64_t bound); /* [0, bound), unbiased */

/* Sort helpers. */
int gp_cmp_int(const void *a, const void *b);
int gp_cmp_double(const void *a, const void *b);

/* Mean, sample standard deviation (n - 1; 0 for one value), min and max
 * of v[0..n), n >= 1: the spread of a metric over seeds. */
typedef struct gp_stats {
	double mean, sd, min, max;
} gp_stats;
gp_stats gp_stats_of(const double *v, size_t n);

/* p-th percentile (0..100) of sorted values by linear interpolation
 * (numpy's default); 0 when n == 0. */
double gp_percentile_sorted(const double *sorted, size_t n, double p);

#endif
