
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gpuplan/util/util.h"

static void oom(size_t n)
{
	fprintf(stderr, "gpuplan: out of memory allocating %zu bytes\n", n);
	abort();
}

void *gp_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		oom(n);
	return p;
}

void *gp_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		oom(n * size);
	return p;
}

void *gp_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q)
		oom(n);
	return q;
}

char *gp_xstrdup(const char *s)
{
	return gp_xstrndup(s, strlen(s));
}

char *gp_xstrndup(const char *s, size_t n)
{
	char *p = gp_xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *gp_xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		oom(strlen(fmt));
	va_end(ap);
	return s;
}

void gp_grow(void **items, size_t esize, size_t *cap, size_t need)
{
	size_t ncap;

	if (need <= *cap)
		return;
	ncap = *cap ? *cap : 8;
	while (ncap < need)
		ncap = ncap + ncap / 2 + 8;
	*items = gp_xrealloc(*items, ncap * esize);
	*cap = ncap;
}

void gp_sbuf_init(gp_sbuf *sb)
{
	sb->cap = 64;
	sb->len = 0;
	sb->buf = gp_xmalloc(sb->cap);
	sb->buf[0] = '\0';
}

void gp_sbuf_release(gp_sbuf *sb)
{
	if (!sb)
		return;
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->cap = 0;
}

void gp_sbuf_add(gp_sbuf *sb, const char *s, size_t n)
{
	GP_GROW(sb->buf, sb->cap, sb->len + n + 1);
	memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void gp_sbuf_adds(gp_sbuf *sb, const char *s)
{
	gp_sbuf_add(sb, s, strlen(s));
}

void gp_sbuf_addf(gp_sbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!sb->buf) /* no arithmetic on the NULL of an empty buffer */
		GP_GROW(sb->buf, sb->cap, 64);
	va_start(ap, fmt);
	n = vsnprintf(sb->buf + sb->len, sb->cap - sb->len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sb->cap - sb->len) {
		GP_GROW(sb->buf, sb->cap, sb->len + (size_t)n + 1);
		va_start(ap, fmt);
		vsnprintf(sb->buf + sb->len, sb->cap - sb->len, fmt, ap);
		va_end(ap);
	}
	sb->len += (size_t)n;
}

char *gp_sbuf_detach(gp_sbuf *sb)
{
	char *s = sb->buf;

	sb->buf = NULL;
	sb->len = sb->cap = 0;
	return s;
}

void gp_sbuf_add_ranges(gp_sbuf *sb, const int *v, int n)
{
	int i = 0, j;

	while (i < n) {
		for (j = i; j + 1 < n && v[j + 1] == v[j] + 1; j++)
			;
		gp_sbuf_addf(sb, "%s%d", i ? "," : "", v[i]);
		if (j > i)
			gp_sbuf_addf(sb, "-%d", v[j]);
		i = j + 1;
	}
}

int gp_parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	if (!s || !*s || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int gp_parse_double(const char *s, double min, double max, double *out)
{
	char *end;
	double v;
	const char *d;

	if (!s || !*s || isspace((unsigned char)*s))
		return -1;
	/* strtod also reads C99 hexadecimal ("0x1p4" is 16): decimal only */
	d = s + (*s == '+' || *s == '-');
	if (d[0] == '0' && (d[1] == 'x' || d[1] == 'X'))
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !isfinite(v) || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int gp_parse_size(const char *s, double *bytes_out)
{
	static const struct {
		const char *suffix;
		double mult;
	} units[] = {
		{ "", 1 }, { "b", 1 },
		{ "k", 1e3 }, { "kb", 1e3 }, { "kib", 1024.0 },
		{ "m", 1e6 }, { "mb", 1e6 }, { "mib", 1048576.0 },
		{ "g", 1e9 }, { "gb", 1e9 }, { "gib", 1073741824.0 },
		{ "t", 1e12 }, { "tb", 1e12 }, { "tib", 1099511627776.0 },
	};
	char *end;
	double v;
	size_t i;

	if (!s || !*s || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || !isfinite(v) || v < 0)
		return -1;
	while (*end == ' ')
		end++;
	for (i = 0; i < GP_ARRAY_SIZE(units); i++) {
		if (!strcasecmp(end, units[i].suffix)) {
			if (v * units[i].mult > 1e18)
				return -1;
			*bytes_out = v * units[i].mult;
			return 0;
		}
	}
	return -1;
}

int gp_read_file(const char *path, size_t max_bytes, char **data, size_t *len,
		 gp_error *err)
{
	FILE *fp;
	char *buf = NULL;
	size_t cap = 0, n = 0, got, step = 65536;
	int is_stdin = !strcmp(path, "-");
	struct stat st;

	fp = is_stdin ? stdin : fopen(path, "rb");
	if (!fp)
		return gp_error_set(err, GP_EIO, path, 0, 0, "cannot open: %s",
				    strerror(errno));
	gp_file_note_read(fp);
	/* A regular file is read into a buffer of its size (and one byte to
	 * see the end, and the NUL) instead of one grown 64 KiB at a time. */
	if (!is_stdin && !fstat(fileno(fp), &st) && S_ISREG(st.st_mode) && st.st_size >= 0 &&
	    (uintmax_t)st.st_size <= max_bytes)
		step = (size_t)st.st_size + 1;
	for (;;) {
		if (cap < n + 2)
			GP_GROW(buf, cap, n + step + 1);
		step = 65536; /* a file that grew since the fstat */
		got = fread(buf + n, 1, cap - n - 1, fp);
		n += got;
		if (n > max_bytes) {
			free(buf);
			if (!is_stdin)
				fclose(fp);
			return gp_error_set(err, GP_EINPUT, path, 0, 0,
					    "file is larger than the %zu-byte limit",
					    max_bytes);
		}
		if (got == 0)
			break;
	}
	if (ferror(fp)) {
		int e = errno; /* EISDIR: a folder given for a file */

		free(buf);
		if (!is_stdin)
			fclose(fp);
		return gp_error_set(err, GP_EIO, path, 0, 0, "read error: %s", strerror(e));
	}
	if (!is_stdin)
		fclose(fp);
	buf[n] = '\0';
	if (gp_text_take(buf, &n, path, err)) {
		free(buf);
		return GP_EINPUT;
	}
	*data = buf;
	*len = n;
	return GP_OK;
}

size_t gp_text_bad_byte(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i;

	for (i = 0; i < n; i++)
		if ((u[i] < 0x20 && u[i] != '\t' && u[i] != '\n' && u[i] != '\r') || u[i] == 0x7f)
			return i;
	return n;
}

int gp_text_byte_error(gp_error *err, const char *file, int line, int col, unsigned char c)
{
	if (!c)
		return gp_error_set(err, GP_EINPUT, file, line, col,
				    "a NUL byte: binary data, not text");
	return gp_error_set(err, GP_EINPUT, file, line, col,
			    "a control byte (0x%02x) in the text", c);
}

int gp_text_check(const char *text, size_t n, const char *file, int line0, gp_error *err)
{
	size_t at = gp_text_bad_byte(text, n), i, bol = 0;
	int line = line0;

	if (at == n)
		return GP_OK;
	for (i = 0; i < at; i++)
		if (text[i] == '\n') {
			line++;
			bol = i + 1;
		}
	return gp_text_byte_error(err, file, line, (int)(at - bol) + 1, (unsigned char)text[at]);
}

size_t gp_text_bom(const char *text, size_t n)
{
	return n >= 3 && !memcmp(text, "\xef\xbb\xbf", 3) ? 3 : 0;
}

int gp_text_take(char *buf, size_t *n, const char *file, gp_error *err)
{
	size_t bom = gp_text_bom(buf, *n);

	if (bom) {
		*n -= bom;
		memmove(buf, buf + bom, *n + 1);
	}
	return gp_text_check(buf, *n, file, 1, err);
}

size_t gp_hash_str(const char *s)
{
	size_t h = 1469598103934665603u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211u;
	return h;
}

size_t gp_number_classes(size_t n, uint64_t (*hash)(const void *ud, size_t i),
			 int (*same)(const void *ud, size_t a, size_t b), const void *ud,
			 int32_t *out)
{
	size_t size = 16, i, nc = 0;
	int32_t *table, *rep;

	while (size < 2 * n)
		size *= 2;
	table = gp_xmalloc(size * sizeof(*table));
	memset(table, 0xff, size * sizeof(*table));
	rep = gp_xmalloc((n ? n : 1) * sizeof(*rep));
	for (i = 0; i < n; i++) {
		size_t h = (size_t)hash(ud, i) & (size - 1);

		while (table[h] >= 0 && !same(ud, (size_t)rep[table[h]], i))
			h = (h + 1) & (size - 1);
		if (table[h] < 0) {
			rep[nc] = (int32_t)i;
			table[h] = (int32_t)nc++;
		}
		out[i] = table[h];
	}
	free(table);
	free(rep);
	return nc;
}

size_t gp_utf8_seq(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t len, i;
	unsigned lo = 0x80, hi = 0xBF;

	if (n == 0)
		return 0;
	if (u[0] < 0x80)
		return 1;
	if (u[0] < 0xC2 || u[0] > 0xF4)
		return 0;
	len = u[0] < 0xE0 ? 2 : u[0] < 0xF0 ? 3 : 4;
	/* the second byte's range rules out overlongs, surrogates and
	 * code points past U+10FFFF (RFC 3629, section 4) */
	if (u[0] == 0xE0)
		lo = 0xA0;
	else if (u[0] == 0xED)
		hi = 0x9F;
	else if (u[0] == 0xF0)
		lo = 0x90;
	else if (u[0] == 0xF4)
		hi = 0x8F;
	if (n < len || u[1] < lo || u[1] > hi)
		return 0;
	for (i = 2; i < len; i++)
		if ((u[i] & 0xC0) != 0x80)
			return 0;
	return len;
}

int gp_edit_distance(const char *a, const char *b, int ignore_case)
{
	/* row k of the table in rows[(k + 1) % 3]: rows i - 2, i - 1, i */
	int rows[3][64], *pp, *p, *r;
	size_t la = strlen(a), lb = strlen(b), i, j;

	if (la >= GP_ARRAY_SIZE(rows[0]) || lb >= GP_ARRAY_SIZE(rows[0]))
		return 99;
	for (j = 0; j <= lb; j++)
		rows[1][j] = (int)j;
	for (i = 1; i <= la; i++) {
		pp = rows[(i + 2) % 3];
		p = rows[i % 3];
		r = rows[(i + 1) % 3];
		r[0] = (int)i;
		for (j = 1; j <= lb; j++) {
			int ca = (unsigned char)a[i - 1], cb = (unsigned char)b[j - 1];
			int best;

			if (ignore_case) {
				ca = tolower(ca);
				cb = tolower(cb);
			}
			best = p[j - 1] + (ca != cb);
			if (p[j] + 1 < best)
				best = p[j] + 1;
			if (r[j - 1] + 1 < best)
				best = r[j - 1] + 1;
			/* two neighbours swapped ("jsno" for "json"): one edit */
			if (i > 1 && j > 1 && ca != cb) {
				int pa = (unsigned char)a[i - 2], pb = (unsigned char)b[j - 2];

				if (ignore_case) {
					pa = tolower(pa);
					pb = tolower(pb);
				}
				if (ca == pb && pa == cb && pp[j - 2] + 1 < best)
					best = pp[j - 2] + 1;
			}
			r[j] = best;
		}
	}
	return rows[(la + 1) % 3][lb];
}

char *gp_path_relative_to(const char *base, const char *rel)
{
	const char *slash;

	if (rel[0] == '/' || !base)
		return gp_xstrdup(rel);
	slash = strrchr(base, '/');
	if (!slash)
		return gp_xstrdup(rel);
	return gp_xasprintf("%.*s/%s", (int)(slash - base), base, rel);
}

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void gp_rng_seed(gp_rng *r, uint64_t seed)
{
	int i;

	for (i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/* One process runs one simulation at a time (worker processes each their
 * own), so a plain counter says what a run drew. */
static uint64_t rng_draws;

uint64_t gp_rng_draws(void)
{
	return rng_draws;
}

void gp_rng_note_draw(void)
{
	rng_draws++;
}

uint64_t gp_rng_next(gp_rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	rng_draws++;
	return result;
}

uint64_t gp_rng_below(gp_rng *r, uint64_t bound)
{
	uint64_t threshold, x;

	if (bound <= 1)
		return 0;
	threshold = -bound % bound;
	do
		x = gp_rng_next(r);
	while (x < threshold);
	return x % bound;
}

/* Seconds in a unit letter of a duration; 0 when c is none. */
static double unit_seconds(char c)
{
	switch (c) {
	case 's': return 1;
	case 'm': return 60;
	case 'h': return 3600;
	case 'd': return 86400;
	default: return 0;
	}
}

int gp_parse_duration(const char *arg, const char *unit, double min, double max, double *out)
{
	size_t n = strlen(arg);
	double per = unit_seconds(unit && *unit ? unit[0] : 's'), v, k = 1;
	char num[64];

	if (n == 0 || n >= sizeof(num) || per == 0)
		return -1;
	memcpy(num, arg, n + 1);
	if (n > 1 && unit_seconds(num[n - 1]) > 0) {
		k = unit_seconds(num[n - 1]) / per;
		num[n - 1] = '\0';
	}
	if (gp_parse_double(num, 0, INFINITY, &v) || !isfinite(v * k))
		return -1;
	v *= k;
	if (v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

double gp_rng_double(gp_rng *r)
{
	return gp_unit_of_bits(gp_rng_next(r));
}

double gp_rng_double_open(gp_rng *r)
{
	return gp_unit_open_of_bits(gp_rng_next(r));
}

void gp_rng_seed_stream(gp_rng *r, uint64_t seed, uint64_t stream)
{
	gp_rng_seed(r, seed ^ stream);
}

void gp_rng_seed_item(gp_rng *r, uint64_t seed, uint64_t item)
{
	gp_rng_seed(r, seed * 0x9e3779b97f4a7c15ULL + item);
}

int gp_cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

int gp_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Order-preserving key of a double: flip the sign bit of positives and
 * every bit of negatives, so that unsigned order is numeric order. */
static uint64_t dkey(double d)
{
	uint64_t u;

	memcpy(&u, &d, sizeof(u));
	return (u >> 63) ? ~u : u | (UINT64_C(1) << 63);
}

static double dval(uint64_t k)
{
	double d;

	k = (k >> 63) ? k & ~(UINT64_C(1) << 63) : ~k;
	memcpy(&d, &k, sizeof(d));
	return d;
}

#define RADIX_BITS 11
#define RADIX_SIZE (1u << RADIX_BITS)

void gp_sort_doubles(double *v, size_t n)
{
	uint64_t *a, *b, *t;
	size_t i, *cnt;
	unsigned shift;

	if (n < 256) {
		qsort(v, n, sizeof(*v), gp_cmp_double);
		return;
	}
	/* NaN and -0 have no place of their own in the radix order (the
	 * comparator calls -0 == 0): leave them to qsort. */
	for (i = 0; i < n; i++)
		if (isnan(v[i]) || (v[i] == 0 && signbit(v[i]))) {
			qsort(v, n, sizeof(*v), gp_cmp_double);
			return;
		}
	a = gp_xmalloc(n * sizeof(*a));
	b = gp_xmalloc(n * sizeof(*b));
	cnt = gp_xmalloc(RADIX_SIZE * sizeof(*cnt));
	for (i = 0; i < n; i++)
		a[i] = dkey(v[i]);
	for (shift = 0; shift < 64; shift += RADIX_BITS) {
		size_t sum = 0, c;

		memset(cnt, 0, RADIX_SIZE * sizeof(*cnt));
		for (i = 0; i < n; i++)
			cnt[(a[i] >> shift) & (RADIX_SIZE - 1)]++;
		if (cnt[(a[0] >> shift) & (RADIX_SIZE - 1)] == n)
			continue;       /* one digit everywhere: nothing moves */
		for (i = 0; i < RADIX_SIZE; i++) {
			c = cnt[i];
			cnt[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			b[cnt[(a[i] >> shift) & (RADIX_SIZE - 1)]++] = a[i];
		t = a;
		a = b;
		b = t;
	}
	for (i = 0; i < n; i++)
		v[i] = dval(a[i]);
	free(a);
	free(b);
	free(cnt);
}

gp_stats gp_stats_of(const double *v, size_t n)
{
	gp_stats s = { 0, 0, INFINITY, -INFINITY };
	double ss = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		s.mean += v[i];
		s.min = fmin(s.min, v[i]);
		s.max = fmax(s.max, v[i]);
	}
	s.mean /= (double)n;
	for (i = 0; i < n; i++)
		ss += (v[i] - s.mean) * (v[i] - s.mean);
	s.sd = n > 1 ? sqrt(ss / (double)(n - 1)) : 0;
	return s;
}

void gp_dist_of(double *v, size_t n, gp_dist *d)
{
	double sum = 0;
	size_t i;

	memset(d, 0, sizeof(*d));
	if (!n)
		return;
	gp_sort_doubles(v, n);
	for (i = 0; i < n; i++)
		sum += v[i];
	d->mean = sum / (double)n;
	d->p50 = gp_percentile_sorted(v, n, 50);
	d->p90 = gp_percentile_sorted(v, n, 90);
	d->p99 = gp_percentile_sorted(v, n, 99);
	d->max = v[n - 1];
}

double gp_percentile_sorted(const double *sorted, size_t n, double p)
{
	double rank, frac;
	size_t lo;

	if (n == 0)
		return 0;
	if (p <= 0)
		return sorted[0];
	if (p >= 100)
		return sorted[n - 1];
	rank = p / 100.0 * (double)(n - 1);
	lo = (size_t)rank;
	frac = rank - (double)lo;
	if (lo + 1 >= n)
		return sorted[n - 1];
	return sorted[lo] + frac * (sorted[lo + 1] - sorted[lo]);
}

void gp_sbuf_add_shell(gp_sbuf *sb, const char *s)
{
	const char *p;

	for (p = s; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		      strchr("_@%+=:,./-", *p)))
			break;
	if (*s && !*p) {
		gp_sbuf_adds(sb, s);
		return;
	}
	gp_sbuf_add(sb, "'", 1);
	for (p = s; *p; p++) {
		if (*p == '\'')
			gp_sbuf_adds(sb, "'\\''");
		else
			gp_sbuf_add(sb, p, 1);
	}
	gp_sbuf_add(sb, "'", 1);
}

void gp_sbuf_add_printable(gp_sbuf *sb, const char *s)
{
	size_t left = strlen(s), k;

	while (left) {
		unsigned char c = (unsigned char)*s;

		k = gp_utf8_seq(s, left);
		if (c == '\\') {
			gp_sbuf_adds(sb, "\\\\");
			k = 1;
		} else if (k == 0 || c < 0x20 || c == 0x7f ||
			   (k == 2 && c == 0xc2 && (unsigned char)s[1] < 0xa0)) {
			/* not UTF-8, C0, DEL, or C1 (U+0080..U+009F): byte by byte */
			size_t n = k ? k : 1, i;

			for (i = 0; i < n; i++)
				gp_sbuf_addf(sb, "\\x%02x", (unsigned char)s[i]);
			k = n;
		} else {
			gp_sbuf_add(sb, s, k);
		}
		s += k;
		left -= k;
	}
}
