/* Reader for `nvidia-smi topo -m` / `-mp` text.
 *
 * The matrix is found by its header line (first token GPU<n>, then device
 * names, then the affinity column titles); rows are matched to columns by
 * their label, so rows and columns may come in any order.  Cells are read
 * as a stream of link tokens, which copes with tabs, spaces, misaligned
 * columns and cells glued together (PIXPIX).  The affinity fields after
 * the cells are split on tabs when the row has tabs (empty fields count)
 * and by header position otherwise (an empty field leaves a gap). */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/io/snapshot.h"
#include "gpuplan/model/topo.h"
#include "gpuplan/util/util.h"

enum { AFF_CPU, AFF_NUMA, AFF_GPUNUMA, AFF_KINDS };

static const char *const aff_title[AFF_KINDS] = {
	"CPU Affinity", "NUMA Affinity", "GPU NUMA ID",
};

typedef struct line {
	const char *s;
	int len;
	int no;
} line;

typedef struct hdev {
	char name[32];
	int is_gpu;
	int col; /* 1-based column of the title in the header */
} hdev;

typedef struct parser {
	const char *file;
	gp_error *err;
	line *lines;
	int nlines;
	hdev dev[GP_TOPO_MAX_DEVICES];
	int ndev, ngpus;
	int aff_kind[AFF_KINDS], aff_col[AFF_KINDS], naff;
	int perm[GP_TOPO_MAX_DEVICES]; /* header index -> matrix index */
	int row_line[GP_TOPO_MAX_DEVICES];
	int *cell_line, *cell_col; /* by matrix index, ndev*ndev */
	unsigned flags;
	unsigned opts; /* GP_TOPO_STRICT */
} parser;

static int perr(parser *p, int line_no, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int perr(parser *p, int line_no, int col, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	gp_error_setv(p->err, GP_EINPUT, p->file, line_no, col, fmt, ap);
	va_end(ap);
	return GP_EINPUT;
}

static int is_ws(char c)
{
	return c == ' ' || c == '\t';
}

/* ---- link tokens ---- */

/* Length of the link token at s (at most n bytes), 0 if none.  NV counts
 * take all following digits, so glued cells split unambiguously. */
static size_t lex_link(const char *s, size_t n, gp_link *out, unsigned *flags)
{
	static const struct {
		const char *w;
		int level;
	} words[] = {
		{ "PIX", GP_LINK_PIX }, { "PXB", GP_LINK_PXB },
		{ "PHB", GP_LINK_PHB }, { "NODE", GP_LINK_NODE },
		{ "SYS", GP_LINK_SYS }, { "SOC", GP_LINK_SYS },
	};
	size_t i, k;

	if (n >= 1 && s[0] == 'X') {
		out->level = GP_LINK_X;
		out->nvlinks = 0;
		return 1;
	}
	if (n >= 3 && s[0] == 'N' && s[1] == 'V' && isdigit((unsigned char)s[2])) {
		long v = 0;

		for (k = 2; k < n && isdigit((unsigned char)s[k]); k++) {
			v = v * 10 + (s[k] - '0');
			if (v > 99)
				return 0;
		}
		if (v < 1)
			return 0;
		out->level = GP_LINK_NV;
		out->nvlinks = (uint8_t)v;
		return k;
	}
	for (i = 0; i < GP_ARRAY_SIZE(words); i++) {
		size_t wl = strlen(words[i].w);

		if (n >= wl && !memcmp(s, words[i].w, wl)) {
			out->level = (uint8_t)words[i].level;
			out->nvlinks = 0;
			if (flags && !strcmp(words[i].w, "SOC"))
				*flags |= GP_TOPO_F_OLD_SOC;
			return wl;
		}
	}
	return 0;
}

int gp_link_parse(const char *tok, gp_link *out)
{
	gp_link l;
	size_t n = strlen(tok);

	if (n == 0 || lex_link(tok, n, &l, NULL) != n)
		return -1;
	*out = l;
	return 0;
}

/* ---- lists ---- */

int gp_cpulist_parse(const char *s, size_t len, int **out, int *n)
{
	int *v = NULL;
	size_t cap = 0, cnt = 0, i = 0;
	int k, m;

	*out = NULL;
	*n = 0;
	while (i < len) {
		long a = 0, b;
		size_t st = i;

		while (i < len && isdigit((unsigned char)s[i]) && i - st < 6)
			a = a * 10 + (s[i++] - '0');
		if (i == st || a >= GP_TOPO_MAX_CPUS)
			goto bad;
		b = a;
		if (i < len && s[i] == '-') {
			st = ++i;
			b = 0;
			while (i < len && isdigit((unsigned char)s[i]) && i - st < 6)
				b = b * 10 + (s[i++] - '0');
			if (i == st || b >= GP_TOPO_MAX_CPUS || b < a)
				goto bad;
		}
		if (i < len) {
			if (s[i] != ',' || i + 1 == len)
				goto bad;
			i++;
		}
		GP_GROW(v, cap, cnt + (size_t)(b - a + 1));
		for (; a <= b; a++)
			v[cnt++] = (int)a;
		if (cnt > 4 * GP_TOPO_MAX_CPUS)
			goto bad;
	}
	if (cnt) {
		qsort(v, cnt, sizeof(*v), gp_cmp_int);
		for (k = 1, m = 1; k < (int)cnt; k++)
			if (v[k] != v[m - 1])
				v[m++] = v[k];
		cnt = (size_t)m;
	}
	*out = v;
	*n = (int)cnt;
	return 0;
bad:
	free(v);
	return -1;
}

/* ---- header ---- */

/* Length of a known-shaped device name at s: GPU<n>, NIC<n>, mlx5_<n>. */
static size_t lex_known_dev(const char *s, size_t n)
{
	static const char *const pre[] = { "GPU", "NIC", "mlx5_" };
	size_t i, k;

	for (i = 0; i < GP_ARRAY_SIZE(pre); i++) {
		size_t pl = strlen(pre[i]);

		if (n > pl && !memcmp(s, pre[i], pl) && isdigit((unsigned char)s[pl])) {
			for (k = pl; k < n && isdigit((unsigned char)s[k]); k++)
				;
			return k;
		}
	}
	return 0;
}

/* A whole token naming some other RDMA device (bnxt_re0, irdma1, ...):
 * a letter, then letters, digits and _ . -, ending in a digit. */
static int is_generic_dev(const char *s, size_t n)
{
	gp_link l;
	size_t i;

	if (n < 2 || n >= 32 || !isalpha((unsigned char)s[0]) ||
	    !isdigit((unsigned char)s[n - 1]))
		return 0;
	if (lex_link(s, n, &l, NULL) == n)
		return 0;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_' && s[i] != '.' &&
		    s[i] != '-')
			return 0;
	return 1;
}

static const char *find_mem(const char *s, size_t n, const char *w)
{
	size_t wl = strlen(w), i;

	for (i = 0; i + wl <= n; i++)
		if (!memcmp(s + i, w, wl))
			return s + i;
	return NULL;
}

static int add_dev(parser *p, const line *ln, const char *s, size_t n)
{
	hdev *d;
	int i;

	if (p->ndev >= GP_TOPO_MAX_DEVICES)
		return perr(p, ln->no, (int)(s - ln->s) + 1,
			    "more than %d devices in the header", GP_TOPO_MAX_DEVICES);
	if (n >= sizeof(d->name))
		return perr(p, ln->no, (int)(s - ln->s) + 1, "device name too long");
	for (i = 0; i < p->ndev; i++)
		if (strlen(p->dev[i].name) == n && !memcmp(p->dev[i].name, s, n))
			return perr(p, ln->no, (int)(s - ln->s) + 1,
				    "duplicate column '%.*s' in the header", (int)n, s);
	d = &p->dev[p->ndev++];
	memcpy(d->name, s, n);
	d->name[n] = '\0';
	d->col = (int)(s - ln->s) + 1;
	d->is_gpu = !strncmp(d->name, "GPU", 3) && isdigit((unsigned char)d->name[3]);
	if (d->is_gpu && ++p->ngpus > GP_TOPO_MAX_GPUS)
		return perr(p, ln->no, d->col, "more than %d GPUs in the header",
			    GP_TOPO_MAX_GPUS);
	return GP_OK;
}

/* Split a header token into device names; 0 if it is not made of them. */
static int split_devs(const char *s, size_t n, const char **parts, size_t *lens,
		      int *nparts, int max)
{
	size_t i = 0, k;

	*nparts = 0;
	while (i < n) {
		k = lex_known_dev(s + i, n - i);
		if (!k) {
			if (i == 0 && is_generic_dev(s, n))
				k = n;
			else
				return 0;
		}
		if (*nparts >= max)
			return 0;
		parts[*nparts] = s + i;
		lens[(*nparts)++] = k;
		i += k;
	}
	return 1;
}

/* 1 and fills p when ln is the header; 0 when it is not; GP_EINPUT (as -1
 * after perr) on a header with bad trailing titles. */
static int try_header(parser *p, const line *ln)
{
	const char *s = ln->s, *aff = s + ln->len, *q;
	const char *parts[GP_TOPO_MAX_DEVICES + 1];
	size_t lens[GP_TOPO_MAX_DEVICES + 1];
	int i, k, np, first = 1, rc;
	size_t n;

	for (i = 0; i < AFF_KINDS; i++) {
		q = find_mem(s, (size_t)ln->len, aff_title[i]);
		if (q && q < aff)
			aff = q;
	}
	/* Devices: every token before the titles. */
	q = s;
	while (q < aff) {
		while (q < aff && is_ws(*q))
			q++;
		if (q >= aff)
			break;
		for (n = 0; q + n < aff && !is_ws(q[n]); n++)
			;
		if (!split_devs(q, n, parts, lens, &np, GP_TOPO_MAX_DEVICES + 1))
			goto not_header;
		if (first && strncmp(parts[0], "GPU", 3))
			goto not_header;
		first = 0;
		q += n;
	}
	if (first)
		goto not_header;
	/* It is the header: record devices, then the titles. */
	p->ndev = p->ngpus = 0;
	for (q = s; q < aff;) {
		while (q < aff && is_ws(*q))
			q++;
		if (q >= aff)
			break;
		for (n = 0; q + n < aff && !is_ws(q[n]); n++)
			;
		split_devs(q, n, parts, lens, &np, GP_TOPO_MAX_DEVICES + 1);
		if (np > 1)
			p->flags |= GP_TOPO_F_GLUED;
		for (k = 0; k < np; k++)
			if ((rc = add_dev(p, ln, parts[k], lens[k])))
				return -1;
		q += n;
	}
	p->naff = 0;
	for (q = aff; q < s + ln->len;) {
		while (q < s + ln->len && is_ws(*q))
			q++;
		if (q >= s + ln->len)
			break;
		for (i = 0; i < AFF_KINDS; i++) {
			size_t tl = strlen(aff_title[i]);

			if ((size_t)(s + ln->len - q) >= tl && !memcmp(q, aff_title[i], tl))
				break;
		}
		if (i == AFF_KINDS) {
			for (n = 0; q + n < s + ln->len && !is_ws(q[n]); n++)
				;
			perr(p, ln->no, (int)(q - s) + 1, "unknown header column '%.*s'",
			     (int)n, q);
			return -1;
		}
		for (k = 0; k < p->naff; k++)
			if (p->aff_kind[k] == i) {
				perr(p, ln->no, (int)(q - s) + 1,
				     "duplicate header column '%s'", aff_title[i]);
				return -1;
			}
		p->aff_kind[p->naff] = i;
		p->aff_col[p->naff++] = (int)(q - s) + 1;
		q += strlen(aff_title[i]);
	}
	return 1;
not_header:
	return 0;
}

/* ---- rows ---- */

/* Header index of the device labelling this row, and the label length;
 * -1 if the line does not start with a known label followed by a cell. */
static int row_label(const parser *p, const char *s, size_t n, size_t *lablen)
{
	size_t tl = 0, best = 0;
	int i, hit = -1;
	gp_link l;

	while (tl < n && !is_ws(s[tl]))
		tl++;
	for (i = 0; i < p->ndev; i++) {
		size_t dl = strlen(p->dev[i].name);

		if (dl > tl || memcmp(s, p->dev[i].name, dl) || dl <= best)
			continue;
		/* Exact token, or a label glued to its first cell. */
		if (dl == tl || lex_link(s + dl, tl - dl, &l, NULL)) {
			best = dl;
			hit = i;
		}
	}
	*lablen = best;
	return hit;
}

static int set_field(parser *p, const line *ln, gp_topo_gpu *g, int kind,
		     const char *v, size_t n)
{
	int col = (int)(v - ln->s) + 1, *list = NULL, cnt = 0;
	long num;
	char buf[32];

	if (n == 0 || (n == 3 && !memcmp(v, "N/A", 3))) {
		if (kind != AFF_GPUNUMA)
			p->flags |= GP_TOPO_F_EMPTY_AFFINITY;
		return GP_OK;
	}
	switch (kind) {
	case AFF_CPU:
		if (gp_cpulist_parse(v, n, &list, &cnt))
			return perr(p, ln->no, col,
				    "bad CPU affinity '%.*s' (expected a list such as 0-19,40-59)",
				    (int)(n > 40 ? 40 : n), v);
		free(g->cpus);
		g->cpus = list;
		g->ncpus = cnt;
		return GP_OK;
	case AFF_NUMA:
		if (gp_cpulist_parse(v, n, &list, &cnt))
			return perr(p, ln->no, col,
				    "bad NUMA affinity '%.*s' (expected a node number or list)",
				    (int)(n > 40 ? 40 : n), v);
		free(list);
		if (cnt > 1)
			p->flags |= GP_TOPO_F_NUMA_LIST;
		/* The first node listed is the CPU-attached one ("0,2-17"). */
		for (num = 0; n && isdigit((unsigned char)*v); v++, n--)
			num = num * 10 + (*v - '0');
		g->numa = (int)num;
		return GP_OK;
	default:
		if (n >= sizeof(buf))
			n = sizeof(buf) - 1;
		memcpy(buf, v, n);
		buf[n] = '\0';
		if (gp_parse_long(buf, 0, GP_TOPO_MAX_CPUS - 1, &num))
			return perr(p, ln->no, col, "bad GPU NUMA ID '%s'", buf);
		g->gpu_numa_id = (int)num;
		return GP_OK;
	}
}

static int is_na_or_empty(const char *v, size_t n)
{
	return n == 0 || (n == 3 && !memcmp(v, "N/A", 3));
}

/* Space-aligned output is nvidia-smi's tab output expanded to 8-column
 * stops (counted from the row label), so the gap before each field tells
 * how many tabs, hence how many empty fields, were there.  Rewrites the
 * field list with those empty fields (keeping the first two, dropping
 * later padding as in tab mode); returns -1 when a field is off the tab
 * stops. */
static int reconstruct_tabs(const line *ln, const char *s, int label_off,
			    const char **fv, size_t *fl, int *nf)
{
	const char *nv[16] = { 0 };
	size_t nl[16] = { 0 };
	int i, n = 0, shift = label_off % 8;
	long e = s - ln->s;

	for (i = 0; i < *nf; i++) {
		long st = fv[i] - ln->s, pos = e;
		int tabs = 0, k;

		while (pos < st) {
			pos = ((pos - shift) / 8 + 1) * 8 + shift;
			tabs++;
		}
		if (pos != st || (tabs == 0 && i > 0))
			return -1;
		for (k = 0; k < tabs - 1; k++)
			if (n < 2) {
				nv[n] = fv[i];
				nl[n++] = 0;
			}
		if (n == 16)
			return -1;
		nv[n] = fv[i];
		nl[n++] = fl[i];
		e = st + (long)fl[i];
	}
	memcpy(fv, nv, (size_t)n * sizeof(*fv));
	memcpy(fl, nl, (size_t)n * sizeof(*fl));
	*nf = n;
	return 0;
}

/* Affinity fields of a GPU row, starting at s (end of the last cell). */
static int parse_affinity(parser *p, const line *ln, gp_topo_gpu *g,
			  const char *s, int label_off)
{
	const char *end = ln->s + ln->len, *fv[16];
	size_t fl[16];
	int nf = 0, i, j, k, rc, tabs = memchr(s, '\t', (size_t)(end - s)) != NULL;
	gp_link l;

	if (tabs) {
		/* Tab fields: one tab separates the last cell from the first
		 * field; empty fields after NUMA Affinity are padding. */
		const char *q = s;

		while (q < end && *q == ' ')
			q++;
		if (q < end && *q == '\t')
			q++;
		for (;;) {
			const char *a = q, *b;

			while (q < end && *q != '\t')
				q++;
			b = q;
			while (a < b && *a == ' ')
				a++;
			while (b > a && b[-1] == ' ')
				b--;
			if (nf < 2 || b > a) {
				if (nf == (int)GP_ARRAY_SIZE(fv))
					return perr(p, ln->no, (int)(a - ln->s) + 1,
						    "too many fields");
				fv[nf] = a;
				fl[nf++] = (size_t)(b - a);
			}
			if (q >= end)
				break;
			q++;
		}
	} else {
		const char *q = s;

		while (q < end) {
			while (q < end && is_ws(*q))
				q++;
			if (q >= end)
				break;
			if (nf == (int)GP_ARRAY_SIZE(fv))
				return perr(p, ln->no, (int)(q - ln->s) + 1,
					    "too many fields");
			fv[nf] = q;
			while (q < end && !is_ws(*q))
				q++;
			fl[nf] = (size_t)(q - fv[nf]);
			nf++;
		}
		if (nf != p->naff && !reconstruct_tabs(ln, s, label_off, fv, fl, &nf))
			tabs = 1;
	}
	/* Trailing empty tab fields and surplus N/A fields are noise. */
	while (nf > p->naff && is_na_or_empty(fv[nf - 1], fl[nf - 1])) {
		if (fl[nf - 1])
			p->flags |= GP_TOPO_F_EXTRA_FIELD;
		nf--;
	}
	if (nf > p->naff) {
		const char *x = fv[p->naff];
		size_t xl = fl[p->naff];

		if (lex_link(x, xl, &l, NULL))
			return perr(p, ln->no, (int)(x - ln->s) + 1,
				    "more cells in this row than the header's %d columns",
				    p->ndev);
		return perr(p, ln->no, (int)(x - ln->s) + 1,
			    "unexpected field '%.*s' after the last header column",
			    (int)(xl > 40 ? 40 : xl), x);
	}
	if (nf == p->naff || tabs) {
		for (i = 0; i < nf; i++)
			if ((rc = set_field(p, ln, g, p->aff_kind[i], fv[i], fl[i])))
				return rc;
		return GP_OK;
	}
	/* Fewer fields than titles (space-aligned output with an empty
	 * field): place each by the nearest title position, in order. */
	for (i = 0, j = 0; i < nf; i++) {
		int col = (int)(fv[i] - ln->s) + 1, bestk = j, bestd = 1 << 30;

		for (k = j; k <= p->naff - (nf - i); k++) {
			int d = abs(col - p->aff_col[k]);

			if (d < bestd) {
				bestd = d;
				bestk = k;
			}
		}
		if ((rc = set_field(p, ln, g, p->aff_kind[bestk], fv[i], fl[i])))
			return rc;
		j = bestk + 1;
	}
	p->flags |= GP_TOPO_F_EMPTY_AFFINITY;
	return GP_OK;
}

static int parse_row(parser *p, const line *ln, int h, size_t lablen,
		     gp_topo *t)
{
	const char *s = ln->s, *end = ln->s + ln->len, *q;
	int n = p->ndev, k = 0, r = p->perm[h];
	int tabbed = memchr(s, '\t', (size_t)ln->len) != NULL;
	gp_link l;

	while (s < end && is_ws(*s))
		s++;
	q = s + lablen;
	while (k < n) {
		const char *chunk;
		size_t len;

		while (q < end && is_ws(*q))
			q++;
		if (q >= end)
			return perr(p, ln->no, (int)(q - ln->s) + 1,
				    "row '%s' ends after %d of %d cells (truncated row?)",
				    p->dev[h].name, k, n);
		chunk = q;
		while (q < end && !is_ws(*q) && k < n) {
			size_t m = lex_link(q, (size_t)(end - q), &l, &p->flags);
			int c = p->perm[k], col = (int)(q - ln->s) + 1;

			if (!m) {
				if (isdigit((unsigned char)*q))
					return perr(p, ln->no, col,
						    "row '%s' has %d cells, expected %d",
						    p->dev[h].name, k, n);
				for (len = 0; chunk + len < end && !is_ws(chunk[len]); len++)
					;
				return perr(p, ln->no, (int)(chunk - ln->s) + 1,
					    "unknown link '%.*s' (expected X, NV#, PIX, PXB, PHB, NODE, SYS or SOC)",
					    (int)(len > 20 ? 20 : len), chunk);
			}
			if (q != chunk)
				p->flags |= GP_TOPO_F_GLUED;
			if (!tabbed && abs(col - p->dev[k].col) > 1)
				p->flags |= GP_TOPO_F_MISALIGNED;
			t->links[(size_t)r * (size_t)n + (size_t)c] = l;
			p->cell_line[r * n + c] = ln->no;
			p->cell_col[r * n + c] = col;
			q += m;
			k++;
		}
	}
	if (!p->dev[h].is_gpu) {
		while (q < end && is_ws(*q))
			q++;
		if (q < end) {
			size_t len;

			for (len = 0; q + len < end && !is_ws(q[len]); len++)
				;
			if (lex_link(q, len, &l, NULL))
				return perr(p, ln->no, (int)(q - ln->s) + 1,
					    "more cells in row '%s' than the header's %d columns",
					    p->dev[h].name, n);
			return perr(p, ln->no, (int)(q - ln->s) + 1,
				    "unexpected text '%.*s' after the cells of NIC row '%s'",
				    (int)(len > 20 ? 20 : len), q, p->dev[h].name);
		}
		return GP_OK;
	}
	return parse_affinity(p, ln, &t->gpus[r], q, (int)(s - ln->s));
}

/* ---- NIC legend ---- */

static int parse_legend_line(parser *p, const line *ln, gp_topo *t)
{
	const char *s = ln->s, *end = s + ln->len, *name;
	size_t k, nl;
	int j;

	while (s < end && is_ws(*s))
		s++;
	k = lex_known_dev(s, (size_t)(end - s));
	if (!k || strncmp(s, "NIC", 3) || s + k >= end || s[k] != ':')
		return GP_OK;
	name = s + k + 1;
	while (name < end && is_ws(*name))
		name++;
	for (nl = 0; name + nl < end && !is_ws(name[nl]); nl++)
		;
	if (!nl || name + nl != end)
		return GP_OK; /* not a "NICn: device" line */
	for (j = 0; j < t->nnics; j++) {
		gp_topo_nic *nic = &t->nics[j];

		if (strlen(nic->id) != k || memcmp(nic->id, s, k))
			continue;
		if (nl >= sizeof(nic->device))
			return perr(p, ln->no, (int)(name - ln->s) + 1,
				    "NIC device name longer than %zu characters",
				    sizeof(nic->device) - 1);
		if (nic->device[0] && (strlen(nic->device) != nl ||
				       memcmp(nic->device, name, nl)))
			return perr(p, ln->no, (int)(name - ln->s) + 1,
				    "NIC legend names '%s' twice, as '%s' and '%.*s'",
				    nic->id, nic->device, (int)nl, name);
		memcpy(nic->device, name, nl);
		nic->device[nl] = '\0';
	}
	return GP_OK;
}

/* ---- driver ---- */

static int split_lines(parser *p, const char *text, size_t len)
{
	size_t i = 0, cap = 0;
	const char *z = memchr(text, '\0', len);
	int no = 1;

	if (z) {
		const char *ls = text;
		int zl = 1;

		for (const char *c = text; c < z; c++)
			if (*c == '\n') {
				zl++;
				ls = c + 1;
			}
		return perr(p, zl, (int)(z - ls) + 1,
			    "binary data (NUL byte): not an nvidia-smi text snapshot");
	}
	while (i < len) {
		size_t st = i, e;

		while (i < len && text[i] != '\n' && text[i] != '\r')
			i++;
		e = i;
		if (i < len && text[i] == '\r') {
			i++;
			if (i < len && text[i] == '\n') {
				i++;
				p->flags |= GP_TOPO_F_CRLF;
			}
		} else if (i < len) {
			i++;
		}
		if (e - st > GP_TOPO_MAX_LINE)
			return perr(p, no, GP_TOPO_MAX_LINE + 1,
				    "line longer than %d bytes", GP_TOPO_MAX_LINE);
		GP_GROW(p->lines, cap, (size_t)p->nlines + 1);
		p->lines[p->nlines].s = text + st;
		p->lines[p->nlines].len = (int)(e - st);
		p->lines[p->nlines].no = no++;
		p->nlines++;
	}
	return GP_OK;
}

static int blank(const line *ln)
{
	int i;

	for (i = 0; i < ln->len; i++)
		if (!is_ws(ln->s[i]))
			return 0;
	return 1;
}

static int check_ctrl(parser *p, const line *ln)
{
	int i;

	for (i = 0; i < ln->len; i++) {
		unsigned char c = (unsigned char)ln->s[i];

		if ((c < 0x20 && c != '\t') || c == 0x7f)
			return perr(p, ln->no, i + 1,
				    "control character 0x%02x in the matrix", c);
	}
	return GP_OK;
}

static int starts_with_word(const line *ln, const char *w)
{
	int k = 0, wl = (int)strlen(w);

	while (k < ln->len && is_ws(ln->s[k]))
		k++;
	return ln->len - k >= wl && !memcmp(ln->s + k, w, (size_t)wl);
}

/* Keep the matrix indices of the first kg GPUs and first kn NICs (those
 * of a header prefix), dropping the rest from t and the cell locations. */
static void keep_prefix(parser *p, gp_topo *t, int kg, int kn)
{
	int n = t->ngpus + t->nnics, m = kg + kn, a, b;
	int from[GP_TOPO_MAX_DEVICES];
	gp_link *links = gp_xcalloc((size_t)m * (size_t)m, sizeof(*links));
	int *cl = gp_xcalloc((size_t)m * (size_t)m, sizeof(int));
	int *cc = gp_xcalloc((size_t)m * (size_t)m, sizeof(int));

	for (a = 0; a < m; a++)
		from[a] = a < kg ? a : t->ngpus + (a - kg);
	for (a = 0; a < m; a++)
		for (b = 0; b < m; b++) {
			size_t o = (size_t)from[a] * (size_t)n + (size_t)from[b];

			links[a * m + b] = t->links[o];
			cl[a * m + b] = p->cell_line[o];
			cc[a * m + b] = p->cell_col[o];
		}
	for (a = kg; a < t->ngpus; a++) {
		free(t->gpus[a].cpus);
		t->gpus[a].cpus = NULL;
	}
	free(t->links);
	free(p->cell_line);
	free(p->cell_col);
	t->links = links;
	p->cell_line = cl;
	p->cell_col = cc;
	t->ngpus = kg;
	t->nnics = kn; /* the kept NICs are the first kn: no move needed */
}

/* Fewer rows than devices.  stop: index of the line that ended the rows
 * (p->nlines at end of file); last_row: index of the last row's line.
 * A clean cut after a complete row keeps the devices that have a row;
 * anything else (a gap, text right after the last row, strict mode) is
 * an error. */
static int cut_rows(parser *p, gp_topo *t, int stop, int last_row, int hdr,
		    int nrows)
{
	int n = p->ndev, miss, h, i, at, lno, kg = 0, kn = 0;
	const char *last;
	gp_topo_cut *cut = &t->cut;

	for (miss = 0; miss < n && p->row_line[miss]; miss++)
		;
	at = last_row >= 0 ? last_row + 1 : hdr + 1;
	lno = at < p->nlines ? p->lines[at].no : p->lines[p->nlines - 1].no + 1;
	if (nrows == 0)
		return perr(p, lno, 1,
			    "matrix has no rows: no row for '%s' below the header",
			    p->dev[0].name);
	/* A gap: a later device's row is present among the rows... */
	for (h = miss + 1; h < n; h++)
		if (p->row_line[h])
			return perr(p, p->row_line[h], 1,
				    "no row for '%s', but the row for '%s' after it is present (%d of %d rows present)",
				    p->dev[miss].name, p->dev[h].name, nrows, n);
	/* ... or further down, after other text. */
	for (i = stop; i < p->nlines; i++) {
		const line *ln = &p->lines[i];
		size_t lablen;
		int k = 0;

		while (k < ln->len && is_ws(ln->s[k]))
			k++;
		h = row_label(p, ln->s + k, (size_t)(ln->len - k), &lablen);
		if (h >= 0 && !p->row_line[h])
			return perr(p, ln->no, k + 1,
				    "row for '%s' is separated from the matrix above by other text (line %d)",
				    p->dev[h].name, p->lines[stop].no);
	}
	for (h = 0; h < n; h++)
		if (p->row_line[h] == p->lines[last_row].no)
			break;
	last = p->dev[h].name;
	if (p->opts & GP_TOPO_STRICT)
		return perr(p, lno, 1,
			    "matrix truncated after row '%s': no row for '%s' (%d of %d rows present; strict mode refuses a partial view)",
			    last, p->dev[miss].name, nrows, n);
	/* Cut right after a complete row: the file ends, or a blank line or
	 * the legend follows.  Other text there may be the rest of a row. */
	if (stop < p->nlines && stop == last_row + 1 &&
	    !starts_with_word(&p->lines[stop], "Legend") &&
	    !starts_with_word(&p->lines[stop], "NIC Legend"))
		return perr(p, p->lines[stop].no, 1,
			    "matrix stops after row '%s' at text that is not a row: no row for '%s' (%d of %d rows present)",
			    last, p->dev[miss].name, nrows, n);
	memset(cut, 0, sizeof(*cut));
	cut->last_line = p->lines[last_row].no;
	cut->missing_line = lno;
	snprintf(cut->last_row, sizeof(cut->last_row), "%s", last);
	for (h = 0; h < n; h++) {
		char *first, *lastname;
		int *cnt;

		if (p->dev[h].is_gpu) {
			cut->header_gpus++;
			first = cut->gpu_first;
			lastname = cut->gpu_last;
			cnt = &cut->dropped_gpus;
			kg += h < miss;
		} else {
			cut->header_nics++;
			first = cut->nic_first;
			lastname = cut->nic_last;
			cnt = &cut->dropped_nics;
			kn += h < miss;
		}
		if (h < miss)
			continue;
		if (!(*cnt)++)
			snprintf(first, sizeof(cut->gpu_first), "%s", p->dev[h].name);
		snprintf(lastname, sizeof(cut->gpu_last), "%s", p->dev[h].name);
	}
	keep_prefix(p, t, kg, kn);
	p->flags |= GP_TOPO_F_TRUNCATED;
	return GP_OK;
}

static int parse(parser *p, const char *text, size_t len, gp_topo *t)
{
	int i, h, rc, hdr = -1, n, g, nn, last_row = -1, nrows = 0;
	size_t lablen;

	if ((rc = split_lines(p, text, len)))
		return rc;
	if (p->nlines == 0)
		return perr(p, 1, 1, "empty file: no 'nvidia-smi topo -m' matrix");
	for (i = 0; i < p->nlines && hdr < 0; i++) {
		rc = try_header(p, &p->lines[i]);
		if (rc < 0)
			return GP_EINPUT;
		if (rc > 0)
			hdr = i;
	}
	if (hdr < 0) {
		/* A row without its header is the most likely near miss. */
		for (i = 0; i < p->nlines; i++) {
			const char *s = p->lines[i].s;
			int k = 0;

			while (k < p->lines[i].len && is_ws(s[k]))
				k++;
			/* the text need not end in a NUL: compare within the line */
			if (p->lines[i].len - k >= 4 && !memcmp(s + k, "GPU0", 4))
				return perr(p, p->lines[i].no, k + 1,
					    "matrix row without the header line (GPU0 GPU1 ... CPU Affinity) above it");
		}
		return perr(p, 1, 1,
			    "no 'nvidia-smi topo -m' matrix found (no header line starting with GPU0)");
	}
	if ((rc = check_ctrl(p, &p->lines[hdr])))
		return rc;
	if (hdr > 0)
		for (i = 0; i < hdr; i++)
			if (!blank(&p->lines[i]))
				p->flags |= GP_TOPO_F_TEXT_AROUND;
	n = p->ndev;
	if (p->ngpus == 0)
		return perr(p, p->lines[hdr].no, 1, "no GPU column in the header");
	/* Matrix order: GPUs, then NICs, each in header order. */
	for (h = 0, g = 0, nn = p->ngpus; h < n; h++)
		p->perm[h] = p->dev[h].is_gpu ? g++ : nn++;
	if ((rc = gp_topo_alloc(t, p->ngpus, n - p->ngpus, p->err))) {
		char msg[512];

		snprintf(msg, sizeof(msg), "%s", p->err->msg);
		return perr(p, p->lines[hdr].no, 1, "%s", msg);
	}
	for (h = 0; h < n; h++) {
		if (p->dev[h].is_gpu) {
			snprintf(t->gpus[p->perm[h]].id, sizeof(t->gpus[0].id), "%s",
				 p->dev[h].name);
		} else {
			gp_topo_nic *nic = &t->nics[p->perm[h] - p->ngpus];

			if (!strncmp(p->dev[h].name, "NIC", 3) &&
			    isdigit((unsigned char)p->dev[h].name[3])) {
				snprintf(nic->id, sizeof(nic->id), "%s", p->dev[h].name);
			} else {
				/* Raw device header: NIC<k> by column order. */
				snprintf(nic->id, sizeof(nic->id), "NIC%d",
					 p->perm[h] - p->ngpus);
				snprintf(nic->device, sizeof(nic->device), "%s",
					 p->dev[h].name);
				p->flags |= GP_TOPO_F_RAW_NIC_NAMES;
			}
		}
	}
	{
		int has[AFF_KINDS] = { 0 };

		for (i = 0; i < p->naff; i++)
			has[p->aff_kind[i]] = 1;
		if (!has[AFF_NUMA])
			p->flags |= GP_TOPO_F_NO_NUMA_COLUMN;
		if (!has[AFF_CPU])
			p->flags |= GP_TOPO_F_NO_CPU_COLUMN;
	}
	p->cell_line = gp_xcalloc((size_t)n * (size_t)n, sizeof(int));
	p->cell_col = gp_xcalloc((size_t)n * (size_t)n, sizeof(int));
	/* Rows: until the first non-blank line that is not a row. */
	for (i = hdr + 1; i < p->nlines && nrows < n; i++) {
		const line *ln = &p->lines[i];
		const char *s = ln->s;
		int k = 0;

		if (blank(ln))
			continue;
		while (k < ln->len && is_ws(s[k]))
			k++;
		h = row_label(p, s + k, (size_t)(ln->len - k), &lablen);
		if (h < 0) {
			size_t dl = lex_known_dev(s + k, (size_t)(ln->len - k));
			gp_link l;

			/* GPU9 in a GPU0..GPU7 matrix: a row without a column. */
			if (dl && k + (int)dl < ln->len && is_ws(s[k + dl])) {
				int q = k + (int)dl;

				while (q < ln->len && is_ws(s[q]))
					q++;
				if (lex_link(s + q, (size_t)(ln->len - q), &l, NULL))
					return perr(p, ln->no, k + 1,
						    "row '%.*s' has no column in the header",
						    (int)dl, s + k);
			}
			break;
		}
		if ((rc = check_ctrl(p, ln)))
			return rc;
		if (p->row_line[h])
			return perr(p, ln->no, k + 1,
				    "second row for '%s' (first on line %d)",
				    p->dev[h].name, p->row_line[h]);
		p->row_line[h] = ln->no;
		if ((rc = parse_row(p, ln, h, lablen, t)))
			return rc;
		last_row = i;
		nrows++;
	}
	if (nrows < n) {
		if ((rc = cut_rows(p, t, i, last_row, hdr, nrows)))
			return rc;
		n = t->ngpus + t->nnics;
	}
	{
		int r, c;

		if (gp_topo_check(t, &r, &c, p->err)) {
			char msg[512];

			snprintf(msg, sizeof(msg), "%s", p->err->msg);
			if (r == c || gp_topo_link(t, r, c).level == GP_LINK_X ||
			    p->cell_line[r * n + c] > p->cell_line[c * n + r])
				return perr(p, p->cell_line[r * n + c],
					    p->cell_col[r * n + c], "%s", msg);
			return perr(p, p->cell_line[c * n + r], p->cell_col[c * n + r],
				    "%s", msg);
		}
	}
	for (i = last_row + 1; i < p->nlines; i++)
		if ((rc = parse_legend_line(p, &p->lines[i], t)))
			return rc;
	for (i = 0; i < t->nnics; i++)
		if (!t->nics[i].device[0])
			p->flags |= GP_TOPO_F_NIC_LEGEND_PARTIAL;
	{
		int a, b, nv = 0;

		for (a = 0; a < t->ngpus; a++)
			for (b = 0; b < t->ngpus; b++)
				if (gp_topo_link(t, a, b).level == GP_LINK_NV)
					nv = 1;
		if (!nv)
			p->flags |= GP_TOPO_F_PCIE_ONLY;
	}
	gp_topo_finish(t);
	t->flags = p->flags;
	return GP_OK;
}

int gp_topo_parse_ex(const char *text, size_t len, const char *filename,
		     unsigned opts, gp_topo *t, gp_error *err)
{
	parser *p = gp_xcalloc(1, sizeof(*p));
	gp_error local = GP_ERROR_INIT;
	int rc;

	p->file = filename ? filename : "<input>";
	p->err = err ? err : &local;
	p->opts = opts;
	gp_topo_init(t);
	if (len > GP_TOPO_MAX_FILE) {
		rc = perr(p, 1, 1, "snapshot larger than the %d-byte limit",
			  GP_TOPO_MAX_FILE);
	} else {
		rc = parse(p, text, len, t);
	}
	if (rc)
		gp_topo_release(t);
	else
		t->source = gp_xstrdup(p->file);
	free(p->lines);
	free(p->cell_line);
	free(p->cell_col);
	free(p);
	return rc;
}

int gp_topo_parse(const char *text, size_t len, const char *filename,
		  gp_topo *t, gp_error *err)
{
	return gp_topo_parse_ex(text, len, filename, 0, t, err);
}

int gp_topo_load(const char *path, gp_topo *t, gp_error *err)
{
	return gp_topo_load_ex(path, 0, t, err);
}

int gp_topo_load_ex(const char *path, unsigned opts, gp_topo *t, gp_error *err)
{
	FILE *fp;
	char *buf;
	size_t n = 0, got;
	int is_stdin = !strcmp(path, "-"), rc;

	gp_topo_init(t);
	fp = is_stdin ? stdin : fopen(path, "rb");
	if (!fp)
		return gp_error_set(err, GP_EIO, path, 0, 0, "cannot open: %s",
				    strerror(errno));
	buf = gp_xmalloc(GP_TOPO_MAX_FILE + 2);
	while (n <= GP_TOPO_MAX_FILE &&
	       (got = fread(buf + n, 1, GP_TOPO_MAX_FILE + 1 - n, fp)) > 0)
		n += got;
	if (ferror(fp)) {
		if (!is_stdin)
			fclose(fp);
		free(buf);
		return gp_error_set(err, GP_EIO, path, 0, 0, "read error");
	}
	if (!is_stdin)
		fclose(fp);
	if (n > GP_TOPO_MAX_FILE) {
		/* Locate the first byte past the limit. */
		size_t i, ls = 0;
		int lno = 1;

		for (i = 0; i < GP_TOPO_MAX_FILE; i++)
			if (buf[i] == '\n') {
				lno++;
				ls = i + 1;
			}
		free(buf);
		return gp_error_set(err, GP_EINPUT, path, lno,
				    (int)(GP_TOPO_MAX_FILE - ls) + 1,
				    "snapshot larger than the %d-byte limit",
				    GP_TOPO_MAX_FILE);
	}
	buf[n] = '\0';
	rc = gp_topo_parse_ex(buf, n, path, opts, t, err);
	free(buf);
	return rc;
}

/* "GPU4..GPU15", "NIC6, NIC7" or "NIC8" for count dropped names. */
static void name_range(gp_sbuf *sb, int count, const char *first,
		       const char *last)
{
	if (count == 1)
		gp_sbuf_adds(sb, first);
	else
		gp_sbuf_addf(sb, "%s%s%s", first, count == 2 ? ", " : "..", last);
}

const char *gp_topo_cut_describe(const gp_topo *t, char *buf, size_t size)
{
	const gp_topo_cut *c = &t->cut;
	gp_sbuf sb;

	if (!size)
		return buf;
	buf[0] = '\0';
	if (!(t->flags & GP_TOPO_F_TRUNCATED))
		return buf;
	gp_sbuf_init(&sb);
	gp_sbuf_addf(&sb, "matrix truncated after row %s; imported %d of %d GPU%s",
		     c->last_row, t->ngpus, c->header_gpus, c->header_gpus == 1 ? "" : "s");
	if (c->header_nics)
		gp_sbuf_addf(&sb, " and %d of %d NIC%s", t->nnics, c->header_nics,
			     c->header_nics == 1 ? "" : "s");
	gp_sbuf_adds(&sb, " (dropped ");
	if (c->dropped_gpus)
		name_range(&sb, c->dropped_gpus, c->gpu_first, c->gpu_last);
	if (c->dropped_gpus && c->dropped_nics)
		gp_sbuf_adds(&sb, ", ");
	if (c->dropped_nics)
		name_range(&sb, c->dropped_nics, c->nic_first, c->nic_last);
	gp_sbuf_adds(&sb, ")");
	snprintf(buf, size, "%s", sb.buf);
	gp_sbuf_release(&sb);
	return buf;
}
