/* Slurm hostlist expansion and compression (see hostlist.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/util/hostlist.h"

#define MAX_DIGITS 18

/* Name storage: blocks of doubling size (256 bytes to 64 KiB), newest
 * first, each holding NUL-terminated names back to back. */
typedef struct gp_hostlist_block {
	struct gp_hostlist_block *next;
	size_t used, cap;
	char data[];
} gp_hostlist_block;

#define BLOCK_MIN 256
#define BLOCK_MAX 65536

void gp_hostlist_init(gp_hostlist *h)
{
	h->names = NULL;
	h->n = h->cap = 0;
	h->blocks = NULL;
}

static void blocks_free(gp_hostlist_block *b)
{
	while (b) {
		gp_hostlist_block *next = b->next;

		free(b);
		b = next;
	}
}

void gp_hostlist_release(gp_hostlist *h)
{
	if (!h)
		return;
	blocks_free(h->blocks);
	free(h->names);
	gp_hostlist_init(h);
}

/* Room for a name of up to len bytes and its NUL in the newest block. */
static char *reserve(gp_hostlist *h, size_t len)
{
	gp_hostlist_block *b = h->blocks;

	if (!b || b->cap - b->used < len + 1) {
		size_t cap = b ? (b->cap < BLOCK_MAX ? 2 * b->cap : BLOCK_MAX) : BLOCK_MIN;

		if (cap < len + 1)
			cap = len + 1;
		b = gp_xmalloc(sizeof(*b) + cap);
		b->used = 0;
		b->cap = cap;
		b->next = h->blocks;
		h->blocks = b;
	}
	return b->data + b->used;
}

/* Append the name written at s (from reserve), len bytes, NUL added. */
static void commit(gp_hostlist *h, char *s, size_t len)
{
	s[len] = '\0';
	h->blocks->used += len + 1;
	GP_GROW(h->names, h->cap, h->n + 1);
	h->names[h->n++] = s;
}

/* Append a copy of name[0..len). */
static void push_n(gp_hostlist *h, const char *name, size_t len)
{
	char *s = reserve(h, len);

	memcpy(s, name, len);
	commit(h, s, len);
}

void gp_hostlist_push(gp_hostlist *h, const char *name)
{
	push_n(h, name, strlen(name));
}

/* ---- expansion ---- */

typedef struct hl_range {
	long long lo, hi;
	int width;
} hl_range;

typedef struct hl_group {
	size_t text_start, text_len; /* literal text before the bracket */
	hl_range *ranges;
	size_t nranges, cap;
	long long count;             /* numbers in the group */
} hl_group;

typedef struct hl_ctx {
	const char *s;
	const char *file;
	int line, col0;
	gp_error *err;
} hl_ctx;

static int hl_fail(const hl_ctx *x, size_t pos, const char *fmt, const char *arg)
{
	char msg[256];

	snprintf(msg, sizeof(msg), fmt, arg);
	return gp_error_set(x->err, GP_EINPUT, x->file, x->line, x->col0 + (int)pos,
			    "hostlist: %s", msg);
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* One number at s[*pos..end): its value and digit count. */
static int hl_number(const hl_ctx *x, size_t *pos, size_t end, long long *v, int *width)
{
	size_t p = *pos;
	long long val = 0;
	int nd = 0;

	while (p < end && is_digit(x->s[p])) {
		if (++nd > MAX_DIGITS)
			return hl_fail(x, *pos, "%s", "number too long in brackets");
		val = val * 10 + (x->s[p] - '0');
		p++;
	}
	if (nd == 0) {
		char c[2] = { p < end ? x->s[p] : ']', 0 };

		return hl_fail(x, p, "expected a number in brackets, found '%s'", c);
	}
	*v = val;
	*width = nd;
	*pos = p;
	return GP_OK;
}

static void groups_free(hl_group *g, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(g[i].ranges);
	free(g);
}

/* Parse the bracket body s[pos..close) into g. */
static int hl_bracket(const hl_ctx *x, size_t pos, size_t close, hl_group *g)
{
	size_t open = pos - 1;

	if (pos == close)
		return hl_fail(x, pos, "%s", "empty brackets");
	while (pos < close) {
		hl_range r;
		int st;

		if ((st = hl_number(x, &pos, close, &r.lo, &r.width)))
			return st;
		r.hi = r.lo;
		if (pos < close && x->s[pos] == '-') {
			int w2;
			size_t at = ++pos;

			if ((st = hl_number(x, &pos, close, &r.hi, &w2)))
				return st;
			if (r.hi < r.lo)
				return hl_fail(x, at, "%s", "range runs backwards");
		}
		if (pos < close) {
			if (x->s[pos] != ',') {
				char c[2] = { x->s[pos], 0 };

				return hl_fail(x, pos, "unexpected '%s' in brackets", c);
			}
			if (++pos == close)
				return hl_fail(x, pos, "%s", "empty item in brackets");
		}
		GP_GROW(g->ranges, g->cap, g->nranges + 1);
		g->ranges[g->nranges++] = r;
		g->count += r.hi - r.lo + 1;
		if (g->count > GP_HOSTLIST_MAX)
			return hl_fail(x, open, "%s", "expands to too many names");
	}
	return GP_OK;
}

/* Where a group's odometer stands: range ri, its number v, printed at
 * at (nd digits) in the name being built. */
typedef struct hl_pos {
	size_t ri;
	long long v;
	size_t at, nd;
} hl_pos;

/* Write v printed with at least width digits ("%0*lld"; v >= 0) at out;
 * the end of what was written. */
static char *put_number(char *out, long long v, int width)
{
	char buf[MAX_DIGITS + 2];
	int n = 0;

	do {
		buf[sizeof(buf) - 1 - n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n < width && n < (int)sizeof(buf))
		buf[sizeof(buf) - 1 - n++] = '0';
	memcpy(out, buf + sizeof(buf) - n, (size_t)n);
	return out + n;
}

/* Print groups from..ng-1 (each after its literal text) and the text
 * after the last, lit..end, into cur; the name's length. */
static size_t hl_render(const hl_ctx *x, const hl_group *g, hl_pos *pos, size_t ng,
			size_t from, size_t lit, size_t end, char *cur)
{
	size_t i, w = from ? pos[from - 1].at + pos[from - 1].nd : 0;

	for (i = from; i < ng; i++) {
		memcpy(cur + w, x->s + g[i].text_start, g[i].text_len);
		w += g[i].text_len;
		pos[i].at = w;
		pos[i].nd = (size_t)(put_number(cur + w, pos[i].v,
						g[i].ranges[pos[i].ri].width) - (cur + w));
		w += pos[i].nd;
	}
	memcpy(cur + w, x->s + lit, end - lit);
	return w + (end - lit);
}

/* Add one to the number of n digits at s in place; 0 when it had only
 * nines (then it needs a digit more: printed again). */
static int bump(char *s, size_t n)
{
	while (n-- > 0) {
		if (s[n] != '9') {
			s[n]++;
			return 1;
		}
		s[n] = '0';
	}
	return 0;
}

/* Append the total names of the item whose groups are g[0..ng), the
 * odometer's last group turning fastest, each group stepping through its
 * ranges in order.  The name is built once and changed where the odometer
 * turned: mostly one digit in place (a range keeps its width, so adding
 * one changes the printed digits alone unless they were all nines). */
static void hl_emit(const hl_ctx *x, const hl_group *g, size_t ng, size_t lit, size_t end,
		    long long total, gp_hostlist *h)
{
	hl_pos *pos = gp_xcalloc(ng, sizeof(*pos));
	size_t maxlen = end - lit, len, i, redraw;
	long long k;
	char *cur;

	/* the longest name: every literal and MAX_DIGITS per number */
	for (i = 0; i < ng; i++) {
		pos[i].v = g[i].ranges[0].lo;
		maxlen += g[i].text_len + MAX_DIGITS;
	}
	cur = gp_xmalloc(maxlen + 1);
	len = hl_render(x, g, pos, ng, 0, lit, end, cur);
	GP_GROW(h->names, h->cap, h->n + (size_t)total);
	for (k = 0; k < total; k++) {
		char *name = reserve(h, len);

		memcpy(name, cur, len);
		commit(h, name, len);
		if (k + 1 == total)
			break;
		redraw = ng;
		for (i = ng; i-- > 0;) {
			hl_pos *q = &pos[i];

			if (q->v < g[i].ranges[q->ri].hi) {
				q->v++;
				if (!bump(cur + q->at, q->nd))
					redraw = i;
				break;
			}
			redraw = i;
			if (++q->ri < g[i].nranges) {
				q->v = g[i].ranges[q->ri].lo;
				break;
			}
			q->ri = 0; /* wraps: the group before turns */
			q->v = g[i].ranges[0].lo;
		}
		if (redraw < ng)
			len = hl_render(x, g, pos, ng, redraw, lit, end, cur);
	}
	free(cur);
	free(pos);
}

/* Expand item s[start..end) into h. */
static int hl_item(const hl_ctx *x, size_t start, size_t end, gp_hostlist *h)
{
	hl_group *g = NULL;
	size_t ng = 0, capg = 0, p = start, lit = start;
	long long total = 1;
	int st = GP_OK;

	if (start == end)
		return hl_fail(x, start, "%s", "empty name");
	while (p < end) {
		if (x->s[p] == ']')
			return groups_free(g, ng), hl_fail(x, p, "%s", "']' without '['");
		if (x->s[p] != '[') {
			p++;
			continue;
		}
		{
			size_t close = p + 1;

			while (close < end && x->s[close] != ']' && x->s[close] != '[')
				close++;
			if (close >= end || x->s[close] != ']') {
				groups_free(g, ng);
				return hl_fail(x, p, "%s", "'[' without ']'");
			}
			GP_GROW(g, capg, ng + 1);
			memset(&g[ng], 0, sizeof(g[ng]));
			g[ng].text_start = lit;
			g[ng].text_len = p - lit;
			ng++;
			if ((st = hl_bracket(x, p + 1, close, &g[ng - 1]))) {
				groups_free(g, ng);
				return st;
			}
			total *= g[ng - 1].count;
			if (total > GP_HOSTLIST_MAX || (long long)h->n + total > GP_HOSTLIST_MAX) {
				groups_free(g, ng);
				return hl_fail(x, p, "%s", "expands to too many names");
			}
			p = lit = close + 1;
		}
	}
	if (ng == 0) {
		/* a plain name counts toward the cap too (fuzz finding:
		 * 'n[1-1000000],x' named 1,000,001) */
		if (h->n + 1 > GP_HOSTLIST_MAX)
			return hl_fail(x, start, "%s", "expands to too many names");
		push_n(h, x->s + start, end - start);
		return GP_OK;
	}
	hl_emit(x, g, ng, lit, end, total, h);
	groups_free(g, ng);
	return GP_OK;
}

int gp_hostlist_expand(const char *expr, size_t len, gp_hostlist *h,
		       const char *file, int line, int col0, gp_error *err)
{
	hl_ctx x = { expr, file, line, col0, err };
	size_t p = 0, start = 0, before = h->n;
	int depth = 0, st;

	/* A NUL or control byte would end or garble a name (fuzz finding). */
	for (p = 0; p < len; p++)
		if ((unsigned char)expr[p] < 0x20 || expr[p] == 0x7f)
			return hl_fail(&x, p, "%s", "control character in a hostlist");
	for (p = 0; p <= len; p++) {
		if (p < len && expr[p] == '[')
			depth++;
		else if (p < len && expr[p] == ']')
			depth--;
		if (p == len || (expr[p] == ',' && depth == 0)) {
			if ((st = hl_item(&x, start, p, h))) {
				/* the names' bytes stay in the blocks until the
				 * release */
				h->n = before;
				if (before == 0) {
					/* nothing held before: callers may skip the release
					 * on error (fuzz finding: a leak in gres.conf) */
					gp_hostlist_release(h);
				}
				return st;
			}
			start = p + 1;
		}
	}
	return GP_OK;
}

/* ---- compression ---- */

typedef struct hl_key {
	const char *name;
	size_t ds, de;          /* last digit run [ds, de); ds == de: none */
	long long value;
} hl_key;

static int key_cmp(const void *pa, const void *pb)
{
	const hl_key *a = pa, *b = pb;
	size_t la = a->ds, lb = b->ds, n = la < lb ? la : lb;
	int c = memcmp(a->name, b->name, n);

	if (c)
		return c;
	if (la != lb)
		return la < lb ? -1 : 1;
	c = strcmp(a->name + a->de, b->name + b->de);
	if (c)
		return c;
	if ((a->ds == a->de) != (b->ds == b->de))
		return a->ds == a->de ? -1 : 1;
	if (a->value != b->value)
		return a->value < b->value ? -1 : 1;
	if (a->de - a->ds != b->de - b->ds)
		return a->de - a->ds < b->de - b->ds ? -1 : 1;
	return 0;
}

static int same_group(const hl_key *a, const hl_key *b)
{
	return a->ds == b->ds && !memcmp(a->name, b->name, a->ds) &&
	       !strcmp(a->name + a->de, b->name + b->de) && a->ds != a->de && b->ds != b->de;
}

/* Whether printing v with minimum width w gives exactly the digits of k. */
static int formats_as(long long v, int w, const hl_key *k)
{
	char buf[MAX_DIGITS + 2];
	size_t n = (size_t)snprintf(buf, sizeof(buf), "%0*lld", w, v);

	return n == k->de - k->ds && !memcmp(buf, k->name + k->ds, n);
}

void gp_hostlist_compress(const char *const *names, size_t n, gp_sbuf *sb)
{
	hl_key *k = gp_xcalloc(n ? n : 1, sizeof(*k));
	size_t i, m = 0, first = 1;

	for (i = 0; i < n; i++) {
		const char *s = names[i];
		size_t len = strlen(s), de = len, ds;

		while (de > 0 && !is_digit(s[de - 1]))
			de--;
		ds = de;
		while (ds > 0 && is_digit(s[ds - 1]))
			ds--;
		if (ds == de || de - ds > MAX_DIGITS || strpbrk(s, "[],"))
			ds = de = len; /* not foldable: kept as it is */
		k[m].name = s;
		k[m].ds = ds;
		k[m].de = de;
		k[m].value = 0;
		for (size_t p = ds; p < de; p++)
			k[m].value = k[m].value * 10 + (s[p] - '0');
		m++;
	}
	qsort(k, m, sizeof(*k), key_cmp);
	i = 0;
	while (i < m) {
		size_t j = i + 1, r;
		int ranges = 0;

		while (j < m && same_group(&k[i], &k[j]))
			j++;
		if (!first)
			gp_sbuf_adds(sb, ",");
		first = 0;
		if (j == i + 1 || k[i].ds == k[i].de) {
			/* one name, or names without a number (exact duplicates
			 * only): print it once */
			gp_sbuf_adds(sb, k[i].name);
			while (j < m && !key_cmp(&k[i], &k[j]))
				j++;
			i = j;
			continue;
		}
		/* count the distinct names: one of them alone needs no brackets */
		{
			size_t distinct = 1;

			for (r = i + 1; r < j; r++)
				distinct += key_cmp(&k[r - 1], &k[r]) != 0;
			if (distinct == 1) {
				gp_sbuf_adds(sb, k[i].name);
				i = j;
				continue;
			}
		}
		gp_sbuf_add(sb, k[i].name, k[i].ds);
		gp_sbuf_adds(sb, "[");
		r = i;
		while (r < j) {
			size_t e = r;
			int w = (int)(k[r].de - k[r].ds);

			while (e + 1 < j && !key_cmp(&k[e], &k[e + 1]))
				e++; /* duplicates */
			while (e + 1 < j && k[e + 1].value == k[e].value + 1 &&
			       formats_as(k[e + 1].value, w, &k[e + 1])) {
				e++;
				while (e + 1 < j && !key_cmp(&k[e], &k[e + 1]))
					e++;
			}
			if (ranges++)
				gp_sbuf_adds(sb, ",");
			gp_sbuf_add(sb, k[r].name + k[r].ds, k[r].de - k[r].ds);
			if (k[e].value != k[r].value) {
				gp_sbuf_adds(sb, "-");
				gp_sbuf_add(sb, k[e].name + k[e].ds, k[e].de - k[e].ds);
			}
			r = e + 1;
		}
		gp_sbuf_adds(sb, "]");
		gp_sbuf_adds(sb, k[i].name + k[i].de);
		i = j;
	}
	free(k);
}
