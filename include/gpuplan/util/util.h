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
/* s as one POSIX shell word: as it is when every byte is one of
 * A-Z a-z 0-9 _ @ % + = : , . / - (and s is not empty), else in single
 * quotes (a ' inside as '\''), so that no name can run a command. */
void gp_sbuf_add_shell(gp_sbuf *sb, const char *s);
/* s for a terminal or a comment line: control characters (C0, DEL, C1)
 * and bytes that are not UTF-8 written as \xNN, a backslash as \\, so
 * that a name cannot move the cursor, clear the screen or end a line. */
void gp_sbuf_add_printable(gp_sbuf *sb, const char *s);

/* Strict number parsing: the whole string must be a decimal number within
 * [min, max] (no hexadecimal, no inf or nan); returns 0 on success, -1
 * otherwise (out untouched). */
int gp_parse_long(const char *s, long min, long max, long *out);
int gp_parse_double(const char *s, double min, double max, double *out);
/* "1GiB", "256MB", "4096", "1.5 GB": bytes (binary and decimal suffixes). */
int gp_parse_size(const char *s, double *bytes_out);

/* Read a whole text file (or "-" for stdin) of at most max_bytes,
 * NUL-terminated, without a leading UTF-8 byte order mark.  Errors: GP_EIO
 * when it cannot be read, GP_EINPUT when it is too large or holds a byte no
 * text holds (gp_text_check). */
int gp_read_file(const char *path, size_t max_bytes, char **data, size_t *len,
		 gp_error *err);

/* Text as every reader takes it: no NUL byte and no control byte but tab,
 * line feed and carriage return (nor DEL), which would cut or garble a
 * field.  gp_text_bad_byte: the offset of the first such byte of s[0..n),
 * n when none.  gp_text_check: GP_EINPUT located at that byte (text[0]
 * is at line line0, column 1).  gp_text_byte_error: the error for byte c
 * at line:col.  gp_text_bom: 3 when text starts with a UTF-8 byte order
 * mark (which every reader skips), else 0. */
size_t gp_text_bad_byte(const char *s, size_t n);
int gp_text_check(const char *text, size_t n, const char *file, int line0, gp_error *err);
int gp_text_byte_error(gp_error *err, const char *file, int line, int col, unsigned char c);
size_t gp_text_bom(const char *text, size_t n);
/* A whole file read into buf[0..*n] (NUL-terminated) made text as every
 * reader takes it: its byte order mark dropped in place (*n shrinks), then
 * gp_text_check from line 1. */
int gp_text_take(char *buf, size_t *n, const char *file, gp_error *err);

/* Resolve rel against the directory of base (unless rel is absolute). */
char *gp_path_relative_to(const char *base, const char *rel);

/* FNV-1a hash of a string, for the open-addressing indexes of names. */
size_t gp_hash_str(const char *s);
/* Items 0..n-1 numbered by classes of equality: out[i] the class of item
 * i, classes in the order of their first item; returns how many.  same
 * must imply equal hashes.  Linear expected time (open addressing). */
size_t gp_number_classes(size_t n, uint64_t (*hash)(const void *ud, size_t i),
			 int (*same)(const void *ud, size_t a, size_t b), const void *ud,
			 int32_t *out);

/* Length of the well-formed UTF-8 sequence at s[0..n) (1 for ASCII), 0
 * when the bytes there are not one (overlong, surrogate, past U+10FFFF,
 * cut off). */
size_t gp_utf8_seq(const char *s, size_t n);

/* A time: a number with a unit s, m, h or d ("90s", "30m", "2h", "1d"),
 * or a bare number in `unit` ("s" or "h"), into *out in `unit`, within
 * [min, max]; -1 when it is none. */
int gp_parse_duration(const char *arg, const char *unit, double min, double max, double *out);

/* Edit distance of a and b for "did you mean" hints: an insertion, a
 * deletion, a substitution or a swap of two neighbours ("jsno" for
 * "json") is one edit, each character edited at most once (optimal
 * string alignment); ASCII case ignored when ignore_case; 99 when either
 * has 64 characters or more. */
int gp_edit_distance(const char *a, const char *b, int ignore_case);

/* Safe output (files.c).  A regular file (or a new one) is written to a
 * temporary ".NAME.gptmp-PID-XXXXXX" beside it, fsync'd and renamed over it
 * on commit (then the directory is fsync'd): readers see the old or the new
 * file, never a part, and gp_atomic_abort leaves nothing.  Symbolic links
 * are followed (the link stays, its target is replaced); the replaced
 * file's mode, group and (when allowed) owner are kept.  "-" is stdout;
 * devices, FIFOs, sockets and /dev/stdout-like paths are written in place.
 * Temporary files of killed writers (PID gone) are removed on open, after
 * the output sets they left are completed (gp_atomic_commit_set). */
typedef struct gp_atomic_file {
	FILE *fp;
	char *path, *tmp_path;
	char *target;           /* path with symbolic links resolved */
	int mode;               /* private: rename, stdout or in place */
	int flushed;            /* private: gp_atomic_flush done */
} gp_atomic_file;
int gp_atomic_open(gp_atomic_file *af, const char *path, gp_error *err);
/* The input files this process read (fp open on one; stdin and other
 * than regular files are not noted), and whether path is one of them
 * (the same file by device and inode, under any name): an output must
 * not replace its own input ("simulate t.csv --json t.csv"). */
void gp_file_note_read(FILE *fp);
int gp_file_was_read(const char *path);
/* Optional before commit: the data written out, synced and closed (all
 * that can fail for want of room), so that a set of files can be made
 * ready before the first is renamed.  On failure af is aborted. */
int gp_atomic_flush(gp_atomic_file *af, gp_error *err);
int gp_atomic_commit(gp_atomic_file *af, gp_error *err);
void gp_atomic_abort(gp_atomic_file *af);
/* A set of n open files (possibly in several folders) committed all or
 * nothing, also when the process is killed: each is written out and
 * synced (gp_atomic_flush), then a journal listing every (temporary,
 * final) pair goes into each folder of the set, then the renames, then
 * the journals are removed.  A writer killed after the journals leaves
 * them, and the next gp_atomic_open in one of those folders (any later
 * gpuplan writing there) completes the set first; one killed before
 * replaced nothing.  On failure before the renames every file is
 * aborted.  af's files are released either way. */
int gp_atomic_commit_set(gp_atomic_file *af, int n, gp_error *err);
/* Tests only: called at each step of gp_atomic_commit_set (each journal
 * copy put in place, each rename, each journal removed). */
extern void (*gp_atomic_set_step)(void);
/* The error of a failed write of path (errno e): a full file system
 * (ENOSPC, EDQUOT) said in words. */
int gp_write_error(gp_error *err, const char *path, int e);

/* All n bytes to / from a pipe or socket (EINTR retried); -1 on an error
 * or an early end. */
int gp_write_all(int fd, const void *buf, size_t n);
int gp_read_all(int fd, void *buf, size_t n);

/* An exclusive advisory lock (flock) on an existing file, for
 * read-modify-write cycles: concurrent holders are serialised, waiting up
 * to timeout_s seconds (GP_EIO after that).  The lock is always on the file
 * path names when it is granted (a writer that renamed a new file over it
 * meanwhile is noticed), so read it through gp_lock_read (gp_read_file's
 * checks), replace it with gp_atomic_* and only then gp_unlock_file. */
typedef struct gp_lock {
	int fd;
} gp_lock;
int gp_lock_file(const char *path, double timeout_s, gp_lock *lk, gp_error *err);
int gp_lock_read(const gp_lock *lk, const char *path, size_t max_bytes, char **data,
		 size_t *len, gp_error *err);
void gp_unlock_file(gp_lock *lk);

/* The one read-modify-write transaction on a shared file (allocation and
 * environment states, every command that commits): gp_txn_begin takes the
 * exclusive lock (gp_lock_file) and, when data is not NULL, reads what path
 * holds under it; gp_txn_commit writes the new contents (write(fp, ud))
 * through gp_atomic_* (temporary file, rename) and only then unlocks;
 * gp_txn_abort unlocks and changes nothing.  With create, a missing path
 * (or the missing target of a dangling symbolic link) is first created
 * empty, and is never removed again: another committer may already wait on
 * its lock, and an empty file reads as an empty state. */
typedef struct gp_txn {
	gp_lock lk;
	char *path;
	int created;            /* begin created the file */
} gp_txn;
int gp_txn_begin(gp_txn *t, const char *path, int create, double timeout_s, size_t max_bytes,
		 char **data, size_t *len, gp_error *err);
int gp_txn_commit(gp_txn *t, int (*write)(FILE *fp, void *ud), void *ud, gp_error *err);
void gp_txn_abort(gp_txn *t);

/* Deterministic PRNG (xoshiro256**), seeded through splitmix64. */
typedef struct gp_rng {
	uint64_t s[4];
} gp_rng;
void gp_rng_seed(gp_rng *r, uint64_t seed);
uint64_t gp_rng_next(gp_rng *r);
uint64_t gp_rng_below(gp_rng *r, uint64_t bound); /* [0, bound), unbiased */

/* 64 random bits as a double from their top 53: in [0, 1), or in (0, 1]
 * (the middle of each step: never 0, for a logarithm). */
static inline double gp_unit_of_bits(uint64_t x)
{
	return (double)(x >> 11) * 0x1p-53;
}
static inline double gp_unit_open_of_bits(uint64_t x)
{
	return ((double)(x >> 11) + 0.5) * 0x1p-53;
}
double gp_rng_double(gp_rng *r);        /* [0, 1) */
double gp_rng_double_open(gp_rng *r);   /* (0, 1] */

/* Draws from every seeded generator of this process so far: gp_rng's,
 * and those of the stateless and Go-compatible streams, which note
 * theirs with gp_rng_note_draw.  A run during which the count stays put
 * drew nothing from its seed: any other seed makes the same run. */
uint64_t gp_rng_draws(void);
void gp_rng_note_draw(void);

/* Named sub-streams of one seed: each purpose draws from a generator of
 * its own, so draws added for one purpose never move another's numbers.
 * gp_rng_seed_stream seeds with seed ^ stream; gp_rng_seed_item gives
 * item k of a purpose (a job, an environment) its own generator. */
#define GP_RNG_STREAM_PROBE   0x5eed5eed5eed5eedULL /* simulator: probe placements */
#define GP_RNG_STREAM_CLASSES 0x15c1a55ULL          /* --ls-fraction: job classes */
#define GP_RNG_STREAM_HOLDOUT 0x5eedULL             /* predictor: held-out rows */
void gp_rng_seed_stream(gp_rng *r, uint64_t seed, uint64_t stream);
void gp_rng_seed_item(gp_rng *r, uint64_t seed, uint64_t item);

/* Sort helpers. */
int gp_cmp_int(const void *a, const void *b);
int gp_cmp_double(const void *a, const void *b);
/* Sort v ascending into the order qsort with gp_cmp_double gives, in
 * linear time (radix sort on the bit patterns) for large arrays. */
void gp_sort_doubles(double *v, size_t n);

/* Mean, sample standard deviation (n - 1; 0 for one value), min and max
 * of v[0..n), n >= 1: the spread of a metric over seeds. */
typedef struct gp_stats {
	double mean, sd, min, max;
} gp_stats;
gp_stats gp_stats_of(const double *v, size_t n);

/* p-th percentile (0..100) of sorted values by linear interpolation
 * (numpy's default); 0 when n == 0. */
double gp_percentile_sorted(const double *sorted, size_t n, double p);

/* A distribution as reports give it: mean, p50, p90, p99 and max (all 0
 * for no values).  gp_dist_of sorts v[0..n) in place. */
typedef struct gp_dist {
	double mean, p50, p90, p99, max;
} gp_dist;
void gp_dist_of(double *v, size_t n, gp_dist *d);

/* One CSV line split in place (RFC 4180): a field that starts with '"'
 * is unquoted ("" inside is one quote) and may hold the separator.
 * field[k] points into line (NUL-terminated), col[k] is its 1-based
 * column.  GP_CSV_TRIM: blanks (spaces; tabs unless sep is one) around a
 * field are dropped, and a quote may follow them.  Returns the number of
 * fields, or a negative GP_CSV_E* with *bad the 1-based column. */
#define GP_CSV_TRIM 1
enum {
	GP_CSV_ETOO_MANY = -1,     /* more than max fields */
	GP_CSV_EUNTERMINATED = -2, /* a quoted field runs to the end of the line */
	GP_CSV_EAFTER_QUOTE = -3,  /* text between a closing quote and the separator */
};
int gp_csv_split(char *line, size_t len, char sep, unsigned flags, char **field, int *col,
		 int max, int *bad);
const char *gp_csv_strerror(int code);  /* a GP_CSV_E* in words */

/* Bits set in x.  The popcount instruction when the build targets it
 * (-mpopcnt, -march=native); else a branch-free SWAR sum, never the
 * libgcc call __builtin_popcountll becomes on generic x86-64. */
static inline int gp_popcount64(uint64_t x)
{
#if defined(__POPCNT__)
	return __builtin_popcountll(x);
#else
	x = x - ((x >> 1) & UINT64_C(0x5555555555555555));
	x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
	x = (x + (x >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
	return (int)((x * UINT64_C(0x0101010101010101)) >> 56);
#endif
}

#endif
