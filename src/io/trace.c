/* Trace reader core: the dialect table, one in-place scan of the buffer
 * (no per-field allocation), header mapping, detection, bad-row handling,
 * ordering and the window/limit filters.  Dialects live in trace_*.c. */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gpuplan/model/catalog.h"
#include "gpuplan/model/dlmodels.h"
#include "gpuplan/io/trace.h"
#include "gpuplan/util/pool.h"
#include "gpuplan/util/util.h"
#include "trace_int.h"

/* The dialect table: adding a dialect is one line here plus its file.
 * Order only breaks detection ties (see detect()). */
static const gp_trace_dialect *const dialects[] = {
	&gp_trace_native,
	&gp_trace_tiresias,
	&gp_trace_muri,
	&gp_trace_philly,
	&gp_trace_pollux,
	&gp_trace_gavel,
	&gp_trace_openb,
};

#define NDIALECTS GP_ARRAY_SIZE(dialects)

const char *const *gp_trace_formats(void)
{
	static const char *names[NDIALECTS + 1];
	size_t i;

	if (!names[0])
		for (i = 0; i < NDIALECTS; i++)
			names[i] = dialects[i]->name;
	return names;
}

const char *gp_trace_format_summary(const char *name)
{
	size_t i;

	for (i = 0; i < NDIALECTS; i++)
		if (name && !strcasecmp(name, dialects[i]->name))
			return dialects[i]->summary;
	return NULL;
}

void gp_trace_opts_init(gp_trace_opts *o)
{
	memset(o, 0, sizeof(*o));
}

/* ---- helpers for dialects ---- */

const char *gp_trace_get(const gp_trace_row *r, int k)
{
	int f;

	if (k < 0)
		return "";
	f = r->map ? r->map[k] : k;
	if (f < 0 || f >= r->nf)
		return "";
	return r->field[f];
}

static int row_col(const gp_trace_row *r, int k)
{
	int f;

	if (k < 0)
		return 0;
	f = r->map ? r->map[k] : k;
	if (f < 0 || f >= r->nf)
		return 0;
	return r->col[f];
}

int gp_trace_bad(const gp_trace_row *r, int k, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	gp_error_setv(r->err, GP_EINPUT, r->path, r->line, row_col(r, k),
		      fmt, ap);
	va_end(ap);
	return GP_EINPUT;
}

static const char *colname(const gp_trace_row *r, int k)
{
	return k >= 0 && r->names ? r->names[k] : "?";
}

int gp_trace_long(const gp_trace_row *r, int k, long min, long max, long *out)
{
	const char *s = gp_trace_get(r, k);
	double d;

	if (!*s)
		return gp_trace_bad(r, k, "missing value for '%s'", colname(r, k));
	if (!gp_parse_long(s, min, max, out))
		return GP_OK;
	if (!gp_parse_double(s, (double)min, (double)max, &d) && d == floor(d)) {
		*out = (long)d;
		return GP_OK;
	}
	return gp_trace_bad(r, k, "'%s' must be a whole number in %ld..%ld, got '%.40s'",
			    colname(r, k), min, max, s);
}

int gp_trace_double(const gp_trace_row *r, int k, double min, double max,
		    double *out)
{
	const char *s = gp_trace_get(r, k);

	if (!*s)
		return gp_trace_bad(r, k, "missing value for '%s'", colname(r, k));
	if (!gp_parse_double(s, min, max, out))
		return GP_OK;
	return gp_trace_bad(r, k, "'%s' must be a number in %g..%g, got '%.40s'",
			    colname(r, k), min, max, s);
}

int gp_trace_strdup(const gp_trace_row *r, int k, char **out)
{
	const char *s = gp_trace_get(r, k);

	if (!*s)
		return gp_trace_bad(r, k, "missing value for '%s'", colname(r, k));
	*out = gp_pool_strdup(r->pool, s);
	return GP_OK;
}

char *gp_trace_intern(const gp_trace_row *r, const char *s)
{
	return gp_pool_intern(r->pool, s);
}

/* Catalog descriptors already filled in this load, so that a trace naming
 * the same few models thousands of times computes each once. */
typedef struct model_cache {
	const gp_dl_model *m[16];
	gp_model_desc d[16];
	int n;
} model_cache;

int gp_trace_model_name(gp_trace_row *r, int k, const char *s)
{
	gp_model_desc *d = &r->more.model;
	model_cache *c = r->models;
	const gp_dl_model *m;
	size_t n = strlen(s);
	int i;

	if (!n)
		return GP_OK;
	m = gp_model_find(s);
	if (m) {
		for (i = 0; c && i < c->n; i++) {
			if (c->m[i] == m) {
				*d = c->d[i];
				return GP_OK;
			}
		}
		gp_model_fill_desc(m, 0, 0, 0, d);
		if (c && c->n < (int)GP_ARRAY_SIZE(c->m)) {
			c->m[c->n] = m;
			c->d[c->n++] = *d;
		}
		return GP_OK;
	}
	if (n >= sizeof(d->name))
		return gp_trace_bad(r, k, "model name '%.40s...' is longer than %zu characters",
				    s, sizeof(d->name) - 1);
	/* strncpy: the rest of the name zeroed, so that equal records
	 * intern to one */
	strncpy(d->name, s, sizeof(d->name));
	return GP_OK;
}

int gp_trace_gpu_models(const gp_trace_row *r, int k, const char *s, gp_job *j)
{
	gp_sbuf sb;
	const char *p, *bar;

	if (!*s)
		return GP_OK;
	gp_sbuf_init(&sb);
	for (p = s;; p = bar + 1) {
		char name[64];
		size_t n;
		int m;

		bar = strchr(p, '|');
		n = bar ? (size_t)(bar - p) : strlen(p);
		while (n && (*p == ' ' || *p == '\t')) {
			p++;
			n--;
		}
		while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
			n--;
		if (!n || n >= sizeof(name)) {
			gp_sbuf_release(&sb);
			return gp_trace_bad(r, k, n ? "GPU model name '%.40s...' is longer than %zu characters"
					    : "empty GPU model name in '%.40s'",
					    n ? p : s, sizeof(name) - 1);
		}
		memcpy(name, p, n);
		name[n] = '\0';
		m = gp_catalog_index(r->gpus, name);
		gp_sbuf_addf(&sb, "%s%s", sb.len ? "|" : "",
			     m >= 0 ? r->gpus->models[m].name : name);
		if (!bar)
			break;
	}
	j->gpu_models = gp_pool_intern(r->pool, sb.buf);
	gp_sbuf_release(&sb);
	return GP_OK;
}

void gp_trace_index_id(const gp_trace_row *r, gp_job *j)
{
	char buf[24];
	int n = snprintf(buf, sizeof(buf), "%lld", (long long)r->index);

	j->id = gp_pool_strndup(r->pool, buf, (size_t)n);
}

void gp_trace_default_type(gp_job *j)
{
	j->type = j->gpus > 1 ? GP_JOB_RING_ALLREDUCE : GP_JOB_SINGLE_CARD;
}

/* ---- detection and header mapping ---- */

static const gp_trace_dialect *find_dialect(const char *name)
{
	size_t i;

	for (i = 0; i < NDIALECTS; i++)
		if (!strcasecmp(name, dialects[i]->name))
			return dialects[i];
	return NULL;
}

static char *known_formats(void)
{
	gp_sbuf sb;
	size_t i;

	gp_sbuf_init(&sb);
	for (i = 0; i < NDIALECTS; i++)
		gp_sbuf_addf(&sb, "%s%s", i ? ", " : "", dialects[i]->name);
	/* job histories (trace_history.c) */
	gp_sbuf_adds(&sb, ", sacct, kubernetes");
	return gp_sbuf_detach(&sb);
}

static int column_index(const gp_trace_dialect *d, const char *name)
{
	int k;

	for (k = 0; d->columns[k]; k++)
		if (!strcasecmp(d->columns[k], name))
			return k;
	return -1;
}

/* Number of required columns present when all are, else -1. */
static int header_score(const gp_trace_dialect *d, char **field, int nf)
{
	uint64_t seen = 0;
	int i, k, n = 0;

	for (i = 0; i < nf; i++) {
		k = column_index(d, field[i]);
		if (k >= 0 && (d->required >> k & 1) && !(seen >> k & 1)) {
			seen |= (uint64_t)1 << k;
			n++;
		}
	}
	return seen == d->required ? n : -1;
}

/* The dialect whose required columns all appear in the header, the most
 * specific (most required columns) first; else a headerless dialect that
 * recognises the first row. */
static const gp_trace_dialect *detect(const char *first, size_t len)
{
	const gp_trace_dialect *best = NULL;
	char *copy, *field[GP_TRACE_MAX_FIELDS];
	int col[GP_TRACE_MAX_FIELDS], nf, score, best_score = -1;
	size_t i;
	gp_error e;

	copy = gp_xmalloc(len + 1);
	for (i = 0; i < NDIALECTS; i++) {
		const gp_trace_dialect *d = dialects[i];

		memcpy(copy, first, len + 1);
		if (gp_trace_split(copy, len, d->sep, field, col, &nf, "", 0, &e))
			continue;
		if (d->header) {
			score = header_score(d, field, nf);
			if (score > best_score) {
				best = d;
				best_score = score;
			}
		}
	}
	for (i = 0; !best && i < NDIALECTS; i++) {
		const gp_trace_dialect *d = dialects[i];

		memcpy(copy, first, len + 1);
		if (d->header || !d->sniff ||
		    gp_trace_split(copy, len, d->sep, field, col, &nf, "", 0, &e))
			continue;
		if (d->sniff(field, nf))
			best = d;
	}
	free(copy);
	return best;
}

/* No dialect fits: name the header dialect the line comes closest to
 * (at least two required columns present) and what it lacks. */
static int detect_failed(const char *first, size_t len, const char *path,
			 int line, gp_error *err)
{
	const gp_trace_dialect *best = NULL;
	char *copy, *field[GP_TRACE_MAX_FIELDS], *known;
	int col[GP_TRACE_MAX_FIELDS], nf, i, k, best_n = 1;
	uint64_t best_missing = 0;
	size_t di;
	gp_error e;

	copy = gp_xmalloc(len + 1);
	for (di = 0; di < NDIALECTS; di++) {
		const gp_trace_dialect *d = dialects[di];
		uint64_t seen = 0;
		int n = 0;

		memcpy(copy, first, len + 1);
		if (!d->header || gp_trace_split(copy, len, d->sep, field, col, &nf, "", 0, &e))
			continue;
		for (i = 0; i < nf; i++) {
			k = column_index(d, field[i]);
			if (k >= 0 && (d->required >> k & 1) && !(seen >> k & 1)) {
				seen |= (uint64_t)1 << k;
				n++;
			}
		}
		if (n > best_n) {
			best = d;
			best_n = n;
			best_missing = d->required & ~seen;
		}
	}
	free(copy);
	known = known_formats();
	if (best) {
		gp_sbuf miss;

		gp_sbuf_init(&miss);
		for (k = 0; best->columns[k]; k++)
			if (best_missing >> k & 1)
				gp_sbuf_addf(&miss, "%s'%s'", miss.len ? ", " : "",
					     best->columns[k]);
		gp_error_set(err, GP_EINPUT, path, line, 0,
			     "cannot tell the trace format: the header looks like '%s' "
			     "but lacks %s; use --format (known: %s)",
			     best->name, miss.buf, known);
		gp_sbuf_release(&miss);
	} else {
		gp_error_set(err, GP_EINPUT, path, line, 0,
			     "cannot tell the trace format from this line; "
			     "use --format (known: %s)", known);
	}
	free(known);
	return GP_EINPUT;
}

static int map_header(const gp_trace_dialect *d, char **field, const int *col,
		      int nf, int *map, const char *path, int line,
		      gp_error *err)
{
	uint64_t seen = 0;
	int i, k;

	for (k = 0; d->columns[k]; k++)
		map[k] = -1;
	for (i = 0; i < nf; i++) {
		k = column_index(d, field[i]);
		if (k < 0) {
			if (d->strict_header)
				return gp_error_set(err, GP_EINPUT, path, line, col[i],
						    "unknown column '%.40s' in a '%s' trace",
						    field[i], d->name);
			continue;
		}
		if (seen >> k & 1)
			return gp_error_set(err, GP_EINPUT, path, line, col[i],
					    "duplicate column '%s' (first at column %d)",
					    d->columns[k], col[map[k]]);
		seen |= (uint64_t)1 << k;
		map[k] = i;
	}
	for (k = 0; d->columns[k]; k++)
		if ((d->required >> k & 1) && map[k] < 0)
			return gp_error_set(err, GP_EINPUT, path, line, 0,
					    "missing column '%s' required by the '%s' format",
					    d->columns[k], d->name);
	return GP_OK;
}

/* ---- after the rows ---- */

static void drop_last(gp_joblist *l)
{
	gp_job_release(&l->jobs[l->n - 1]);
	l->n--;
}

/* ---- the loader ---- */

/* One load's working set. */
typedef struct loader {
	const char *name;
	const gp_trace_opts *o;
	gp_trace_stats *st;
	const gp_trace_dialect *d;
	size_t max_rows;
	gp_trace_scanner sc;
	gp_joblist l;
	char *field[GP_TRACE_MAX_FIELDS];
	int col[GP_TRACE_MAX_FIELDS], map[GP_TRACE_MAX_FIELDS];
	int header_nf;
	gp_trace_row r;
	gp_error rowerr;
	model_cache models;
	gp_catalog gpus;
	void *state;
} loader;

/* The dialect: --format, else detected from the first line that is not
 * blank or a comment (line, NULL when there is none). */
static int pick_dialect(loader *x, const char *line, size_t llen, gp_error *err)
{
	const char *format = x->o->format;

	if (format && *format && strcasecmp(format, "auto")) {
		x->d = find_dialect(format);
		if (!x->d) {
			char *known = known_formats();

			gp_error_set(err, GP_EUSAGE, NULL, 0, 0,
				     "unknown trace format '%s' (known: %s)", format, known);
			free(known);
			return GP_EUSAGE;
		}
		return GP_OK;
	}
	if (!line)
		return gp_error_set(err, GP_EINPUT, x->name, 1, 1,
				    "no header and no rows: cannot tell the trace format");
	x->d = detect(line, llen);
	if (!x->d)
		return detect_failed(line, llen, x->name, x->sc.line, err);
	return GP_OK;
}

/* Job array of the lines left (capped by the row cap; estimated for the
 * unread part of a file, grown when short), and the row the dialect sees. */
static void setup(loader *x)
{
	size_t lines = gp_trace_scan_lines_left(&x->sc);

	gp_joblist_init(&x->l);
	if (lines > x->max_rows)
		lines = x->max_rows;
	x->l.jobs = gp_xmalloc(lines * sizeof(*x->l.jobs));
	x->l.cap = lines;
	x->l.pool = gp_pool_new();
	if (x->d->state_size)
		x->state = gp_xcalloc(1, x->d->state_size);
	memset(&x->r, 0, sizeof(x->r));
	x->r.path = x->name;
	x->r.field = x->field;
	x->r.col = x->col;
	x->r.names = x->d->columns;
	x->r.state = x->state;
	x->r.err = &x->rowerr;
	x->r.map = NULL;
	x->models.n = 0;
	x->r.models = &x->models;
	x->r.pool = x->l.pool;
	gp_catalog_init_builtin(&x->gpus);
	x->r.gpus = &x->gpus;
}

/* The header line of a dialect that has one: its columns mapped. */
static int read_header(loader *x, char *line, size_t llen, gp_error *err)
{
	const gp_trace_dialect *d = x->d;
	int rc;

	if (!line)
		return gp_error_set(err, GP_EINPUT, x->name, 1, 1,
				    "empty file: a '%s' trace starts with a header line", d->name);
	rc = gp_trace_split(line, llen, d->sep, x->field, x->col, &x->header_nf, x->name, x->sc.line, err);
	if (!rc)
		rc = map_header(d, x->field, x->col, x->header_nf, x->map, x->name, x->sc.line, err);
	if (!rc && d->check_header)
		rc = d->check_header(x->map, x->name, x->sc.line, err);
	if (!rc)
		x->r.map = x->map;
	return rc;
}

/* One data row: a job, a row left out, or a bad row (fatal unless
 * skip_bad). */
static int read_row(loader *x, char *line, size_t llen, gp_error *err)
{
	const gp_trace_dialect *d = x->d;
	gp_trace_stats *st = x->st;
	int rc, nf = 0;

	if (st->rows >= x->max_rows)
		return gp_error_set(err, GP_EINPUT, x->name, x->sc.line, 0,
				    "more than %zu data rows (the row cap)", x->max_rows);
	x->r.index = (int64_t)st->rows++;
	x->r.line = x->sc.line;
	gp_error_clear(&x->rowerr);
	rc = gp_trace_split(line, llen, d->sep, x->field, x->col, &nf, x->name, x->sc.line, &x->rowerr);
	x->r.nf = nf;
	/* Too many: the first extra field.  Too few (a row cut short): the
	 * end of the row, where the next field should begin. */
	if (!rc && d->header && nf > x->header_nf)
		rc = gp_error_set(&x->rowerr, GP_EINPUT, x->name, x->sc.line,
				  x->col[x->header_nf],
				  "%d fields where the header has %d", nf, x->header_nf);
	else if (!rc && d->header && nf < x->header_nf)
		rc = gp_error_set(&x->rowerr, GP_EINPUT, x->name, x->sc.line,
				  llen < INT_MAX ? (int)llen + 1 : 0,
				  "%d field%s where the header has %d: the row ends here "
				  "(a line cut short?)", nf, nf == 1 ? "" : "s", x->header_nf);
	if (!rc) {
		gp_job *j = gp_joblist_push(&x->l);
		const gp_job_more *none = j->more;

		j->own = 0;
		j->line = x->sc.line;
		x->r.more = *none;
		x->r.has_hist = 0;
		rc = d->row(&x->r, j);
		if (!rc && memcmp(&x->r.more, none, sizeof(*none)))
			j->more = gp_pool_intern_mem(x->l.pool, &x->r.more, sizeof(x->r.more));
		if (!rc && x->r.has_hist) {
			gp_job_hist *h = gp_pool_alloc(x->l.pool, sizeof(*h));

			*h = x->r.hist;
			j->hist = h;
		}
		if (rc)
			drop_last(&x->l);
		if (rc == GP_TRACE_LEAVE_OUT) {
			st->left_out++;
			return GP_OK;
		}
	}
	if (!rc)
		return GP_OK;
	if (!x->o->skip_bad) {
		if (err)
			*err = x->rowerr;
		return rc;
	}
	if (st->first_bad.status == GP_OK)
		st->first_bad = x->rowerr;
	st->skipped++;
	return GP_OK;
}

/* sc: the text (a whole buffer, or a window on a file, closed here).
 * own: the caller's buffer, freed once every row is read (memory: the
 * jobs then no longer sit beside the text). */
static int load(const char *name, const gp_trace_scanner *sc, char **own,
		const gp_trace_opts *opts, gp_joblist *out, gp_error *err)
{
	gp_trace_opts dflt;
	gp_trace_stats st_local;
	loader x;
	char *line;
	size_t llen;
	int rc;

	memset(&x, 0, sizeof(x));
	if (!opts) {
		gp_trace_opts_init(&dflt);
		opts = &dflt;
	}
	x.name = name;
	x.o = opts;
	/* cppcheck-suppress uninitvar ; cleared by the memset below */
	x.st = opts->stats ? opts->stats : &st_local;
	memset(x.st, 0, sizeof(*x.st));
	gp_error_clear(&x.st->first_bad);
	x.max_rows = opts->max_rows ? opts->max_rows : GP_TRACE_MAX_ROWS;
	x.sc = *sc;
	if (x.sc.end - x.sc.p >= 3 && !memcmp(x.sc.p, "\xef\xbb\xbf", 3))
		x.sc.p += 3;
	while ((line = gp_trace_scan_line(&x.sc, &llen)) && gp_trace_skip_line(line))
		;
	if (x.sc.failed) {
		/* as when gp_read_file fails: out left empty */
		rc = gp_trace_scan_error(&x.sc, err);
		gp_trace_scan_close(&x.sc);
		gp_joblist_release(out);
		gp_joblist_init(out);
		return rc;
	}
	if ((rc = pick_dialect(&x, line, llen, err))) {
		gp_trace_scan_close(&x.sc);
		return rc;
	}
	setup(&x);
	if (x.d->header) {
		if ((rc = read_header(&x, line, llen, err)))
			goto fail;
		line = gp_trace_scan_line(&x.sc, &llen);
	}
	for (; line; line = gp_trace_scan_line(&x.sc, &llen))
		if (!gp_trace_skip_line(line) && (rc = read_row(&x, line, llen, err)))
			goto fail;
	if (x.sc.failed) {
		rc = gp_trace_scan_error(&x.sc, err);
		goto fail;
	}
	gp_trace_scan_close(&x.sc);
	if (x.d->finish)
		x.d->finish(x.state, &x.l, x.st);
	if (own) {
		free(*own);
		*own = NULL;
	}
	if (x.d->own_ids && (rc = gp_trace_check_ids(&x.l, name, opts->skip_bad, x.st, err)))
		goto fail;
	gp_trace_sort(&x.l);
	gp_trace_filter(&x.l, opts, x.st);
	free(x.state);
	gp_catalog_release(&x.gpus);
	x.l.source = gp_xstrdup(name);
	x.l.format = gp_xstrdup(x.d->name);
	x.l.skipped = x.st->skipped;
	x.l.left_out = x.st->left_out;
	gp_joblist_release(out);
	*out = x.l;
	return GP_OK;

fail:
	gp_trace_scan_close(&x.sc);
	free(x.state);
	gp_catalog_release(&x.gpus);
	gp_joblist_release(&x.l);
	gp_joblist_release(out);
	gp_joblist_init(out);
	return rc;
}

int gp_trace_load_buffer(const char *name, char *buf, size_t len,
			 const gp_trace_opts *opts, gp_joblist *out,
			 gp_error *err)
{
	gp_trace_scanner sc;

	if (gp_trace_history_kind(opts ? opts->format : NULL, buf, len))
		return gp_trace_history_load(name, NULL, buf, len, opts, out, err);
	gp_trace_scan_buffer(&sc, name, buf, len);
	return load(name, &sc, NULL, opts, out, err);
}

int gp_trace_load(const char *path, const gp_trace_opts *opts,
		  gp_joblist *out, gp_error *err)
{
	size_t cap = opts && opts->max_bytes ? opts->max_bytes : GP_TRACE_MAX_BYTES;
	gp_trace_scanner sc;
	char *buf;
	size_t len;
	int rc;

	if (strcmp(path, "-") && gp_trace_history_kind_file(opts ? opts->format : NULL, path))
		return gp_trace_history_load(path, path, NULL, 0, opts, out, err);
	if (gp_trace_scan_file(&sc, path, cap))
		return load(path, &sc, NULL, opts, out, err);
	rc = gp_read_file(path, cap, &buf, &len, err);
	if (rc) {
		gp_joblist_release(out);
		gp_joblist_init(out);
		return rc;
	}
	if (gp_trace_history_kind(opts ? opts->format : NULL, buf, len)) {
		rc = gp_trace_history_load(path, NULL, buf, len, opts, out, err);
		free(buf);
		return rc;
	}
	gp_trace_scan_buffer(&sc, path, buf, len);
	rc = load(path, &sc, &buf, opts, out, err);
	free(buf);
	return rc;
}
