/* Failure lists, failure-model files and lifetime tables (failures.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gpuplan/io/failures.h"
#include "gpuplan/io/yaml.h"

static const char *const kind_names[GP_FAIL_KINDS] = { "node", "gpu", "link" };

const char *gp_fail_kind_name(int kind)
{
	return kind >= 0 && kind < GP_FAIL_KINDS ? kind_names[kind] : "?";
}

static int gp_fail_kind_parse(const char *s)
{
	int k;

	for (k = 0; k < GP_FAIL_KINDS; k++)
		if (!strcmp(s, kind_names[k]))
			return k;
	return -1;
}

void gp_fail_list_init(gp_fail_list *l)
{
	memset(l, 0, sizeof(*l));
}

void gp_fail_list_release(gp_fail_list *l)
{
	if (!l)
		return;
	free(l->ev);
	free(l->source);
	memset(l, 0, sizeof(*l));
}

/* ---- a small CSV line splitter ---- */

#define MAX_FIELDS 64

typedef struct csv_line {
	char *f[MAX_FIELDS];    /* fields, NUL-terminated, unquoted in place */
	int col[MAX_FIELDS];    /* 1-based column of each field's start */
	int n;
} csv_line;

/* Split the NUL-terminated line s in place (gp_csv_split); -1 with the
 * column in *bad (l->n says the trouble) when it cannot be split. */
static int split_line(char *s, csv_line *l, int *bad)
{
	l->n = gp_csv_split(s, strlen(s), ',', 0, l->f, l->col, MAX_FIELDS, bad);
	return l->n < 0 ? -1 : 0;
}

/* The message of a line split_line refused. */
static int split_error(gp_error *err, const char *file, int line, int bad, const csv_line *l)
{
	if (l->n == GP_CSV_EAFTER_QUOTE)
		return gp_error_set(err, GP_EINPUT, file, line, bad, "text after a quoted field");
	return gp_error_set(err, GP_EINPUT, file, line, bad,
			    "unterminated quote or more than %d fields", MAX_FIELDS);
}

/* Trim blanks at both ends in place. */
static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		*--e = '\0';
	return s;
}

/* Iterate over the lines of text: returns the next line (NUL-terminated
 * copy in *buf, CR stripped) or NULL at the end. */
typedef struct line_iter {
	const char *p, *end;
	int line;
	char *buf;
	size_t cap;
} line_iter;

static char *next_line(line_iter *it)
{
	const char *nl;
	size_t n;

	if (it->p >= it->end)
		return NULL;
	nl = memchr(it->p, '\n', (size_t)(it->end - it->p));
	n = nl ? (size_t)(nl - it->p) : (size_t)(it->end - it->p);
	if (n + 1 > it->cap) {
		it->cap = n + 64;
		it->buf = gp_xrealloc(it->buf, it->cap);
	}
	memcpy(it->buf, it->p, n);
	if (n && it->buf[n - 1] == '\r')
		n--;
	it->buf[n] = '\0';
	it->p = nl ? nl + 1 : it->end;
	it->line++;
	return it->buf;
}

/* ---- failure lists ---- */

enum { FC_TIME, FC_NODE, FC_GPU, FC_KIND, FC_REPAIR, FC_N };
static const char *const fail_cols[FC_N] = { "time_s", "node", "gpu", "kind", "repair_s" };

static int cmp_event(const void *a, const void *b)
{
	const gp_fail_event *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return (x->line > y->line) - (x->line < y->line);
}

/* The header line: the field index of each column (idx[FC_*], -1 for
 * the optional ones absent). */
static int read_header(const csv_line *l, int line, int *idx, const char *filename,
		       gp_error *err)
{
	int k, j;

	for (k = 0; k < FC_N; k++)
		idx[k] = -1;
	for (k = 0; k < l->n; k++) {
		for (j = 0; j < FC_N; j++)
			if (!strcmp(l->f[k], fail_cols[j]))
				break;
		if (j == FC_N)
			return gp_error_set(err, GP_EINPUT, filename, line, l->col[k],
					    "unknown column '%s' (want time_s,node,gpu,kind,repair_s)",
					    l->f[k]);
		if (idx[j] >= 0)
			return gp_error_set(err, GP_EINPUT, filename, line, l->col[k],
					    "column '%s' appears twice", l->f[k]);
		idx[j] = k;
	}
	for (k = 0; k < FC_N; k++)
		if (idx[k] < 0 && k != FC_KIND && k != FC_REPAIR && k != FC_GPU)
			return gp_error_set(err, GP_EINPUT, filename, line, 1,
					    "the header has no '%s' column (want time_s,node,gpu,kind,repair_s)",
					    fail_cols[k]);
	return GP_OK;
}

/* One failure row into e (e->line set): time, node, GPU, kind, repair. */
static int read_event(const csv_line *l, const int *idx, const gp_cluster *c, gp_fail_event *e,
		      const char *filename, gp_error *err)
{
	const char *v;
	double d;
	long g;

	e->gpu = -1;
	e->repair_s = -1;
	v = l->f[idx[FC_TIME]];
	if (gp_parse_double(v, 0, 1e15, &d))
		return gp_error_set(err, GP_EINPUT, filename, e->line, l->col[idx[FC_TIME]],
				    "time_s must be a finite number of seconds >= 0, not '%s'", v);
	e->time = d;
	v = l->f[idx[FC_NODE]];
	e->node = gp_cluster_find_node(c, v);
	if (e->node < 0)
		return gp_error_set(err, GP_EINPUT, filename, e->line, l->col[idx[FC_NODE]],
				    "unknown node '%s'", v);
	if (idx[FC_GPU] >= 0 && *(v = l->f[idx[FC_GPU]])) {
		if (gp_parse_long(v, 0, c->nodes[e->node].ngpus - 1, &g))
			return gp_error_set(err, GP_EINPUT, filename, e->line, l->col[idx[FC_GPU]],
					    "node '%s' has no GPU '%s' (GPUs 0-%d)",
					    c->nodes[e->node].name, v, c->nodes[e->node].ngpus - 1);
		e->gpu = (int16_t)g;
	}
	e->kind = e->gpu >= 0 ? GP_FAIL_GPU : GP_FAIL_NODE;
	if (idx[FC_KIND] >= 0 && *(v = l->f[idx[FC_KIND]])) {
		int kind = gp_fail_kind_parse(v);

		if (kind < 0)
			return gp_error_set(err, GP_EINPUT, filename, e->line, l->col[idx[FC_KIND]],
					    "kind must be node, gpu or link, not '%s'", v);
		if ((kind == GP_FAIL_GPU) != (e->gpu >= 0))
			return gp_error_set(err, GP_EINPUT, filename, e->line, l->col[idx[FC_KIND]],
					    kind == GP_FAIL_GPU ? "kind gpu needs a GPU in the gpu column"
								: "kind %s takes no GPU (leave gpu empty)",
					    v);
		e->kind = (uint8_t)kind;
	}
	if (idx[FC_REPAIR] >= 0 && *(v = l->f[idx[FC_REPAIR]])) {
		if (gp_parse_double(v, 0, 1e15, &d))
			return gp_error_set(err, GP_EINPUT, filename, e->line, l->col[idx[FC_REPAIR]],
					    "repair_s must be a finite number of seconds >= 0 or empty (never back), not '%s'",
					    v);
		e->repair_s = d;
	}
	return GP_OK;
}

int gp_fail_csv_parse(const char *text, size_t len, const char *filename,
		      const gp_cluster *c, gp_fail_list *out, gp_error *err)
{
	line_iter it = { text, text + len, 0, NULL, 0 };
	csv_line l;
	int idx[FC_N], k, bad, have_header = 0, st = GP_OK;
	char *s;

	gp_fail_list_init(out);
	out->source = gp_xstrdup(filename);
	while (st == GP_OK && (s = next_line(&it))) {
		gp_fail_event *e;
		int eol;

		if (!*trim(s) || *trim(s) == '#')
			continue;
		eol = (int)strlen(s) + 1;
		if (split_line(s, &l, &bad)) {
			st = split_error(err, filename, it.line, bad, &l);
			break;
		}
		for (k = 0; k < l.n; k++)
			l.f[k] = trim(l.f[k]);
		if (!have_header) {
			st = read_header(&l, it.line, idx, filename, err);
			have_header = 1;
			continue;
		}
		if (out->n >= GP_FAIL_MAX_ROWS) {
			st = gp_error_set(err, GP_EINPUT, filename, it.line, 1,
					  "more than %d failures", GP_FAIL_MAX_ROWS);
			break;
		}
		for (k = 0; k < FC_N && st == GP_OK; k++)
			if (idx[k] >= l.n)
				st = gp_error_set(err, GP_EINPUT, filename, it.line, eol,
						  "missing field '%s'", fail_cols[k]);
		if (st != GP_OK)
			break;
		GP_GROW(out->ev, out->cap, out->n + 1);
		e = &out->ev[out->n];
		memset(e, 0, sizeof(*e));
		e->line = it.line;
		if ((st = read_event(&l, idx, c, e, filename, err)) == GP_OK)
			out->n++;
	}
	if (st == GP_OK && !have_header)
		st = gp_error_set(err, GP_EINPUT, filename, it.line ? it.line : 1, 1,
				  "no header line (want time_s,node,gpu,kind,repair_s)");
	free(it.buf);
	if (st != GP_OK) {
		gp_fail_list_release(out);
		return st;
	}
	if (out->n > 1) /* qsort(NULL, 0) is undefined (fuzz finding) */
		qsort(out->ev, out->n, sizeof(*out->ev), cmp_event);
	return GP_OK;
}

int gp_fail_csv_load(const char *path, const gp_cluster *c, gp_fail_list *out, gp_error *err)
{
	char *text;
	size_t len;
	int st;

	gp_fail_list_init(out);
	if ((st = gp_read_file(path, GP_FAIL_MAX_FILE, &text, &len, err)))
		return st;
	st = gp_fail_csv_parse(text, len, path, c, out, err);
	free(text);
	return st;
}

/* ---- failure models ---- */

void gp_fail_model_format(const gp_fail_model *m, gp_sbuf *out)
{
	gp_sbuf_adds(out, "# gpuplan failure model: Weibull time to failure per unit\n"
			  "# (written by `gpuplan failures fit`; read by `simulate --failure-model`)\n");
	gp_sbuf_adds(out, "failure_model:\n");
	gp_sbuf_addf(out, "  unit: %s\n", m->unit == GP_FAIL_NODE ? "node" : "gpu");
	gp_sbuf_adds(out, "  distribution: weibull\n");
	gp_sbuf_addf(out, "  shape: %.6g\n", m->shape);
	gp_sbuf_addf(out, "  scale_hours: %.6g\n", m->scale_h);
	gp_sbuf_addf(out, "  mtbf_hours: %.6g\n", m->mtbf_h);
	if (m->batch[0])
		gp_sbuf_addf(out, "  batch: %s\n", m->batch);
	if (m->source[0])
		gp_sbuf_addf(out, "  source: \"%s\"\n", m->source);
	gp_sbuf_addf(out, "  units: %zu\n  failures: %zu\n", m->units, m->failures);
}

int gp_fail_model_load(const char *path, gp_fail_model *m, gp_error *err)
{
	static const char *const top[] = { "failure_model", NULL };
	static const char *const keys[] = { "unit", "distribution", "shape", "scale_hours",
					    "mtbf_hours", "batch", "source", "units",
					    "failures", NULL };
	gp_yaml_doc doc;
	const gp_yaml_node *fm, *v;
	const char *s;
	long n;
	int st;

	memset(m, 0, sizeof(*m));
	m->unit = GP_FAIL_GPU;
	gp_yaml_doc_init(&doc);
	if ((st = gp_yaml_load(path, 1u << 20, 0, &doc, err)))
		return st;
	if (!doc.root) {
		st = gp_error_set(err, GP_EINPUT, path, 1, 1, "empty failure model");
		goto out;
	}
	if ((st = gp_yaml_check_keys(&doc, doc.root, "failure model file", top, err)))
		goto out;
	fm = gp_yaml_get(doc.root, "failure_model");
	if (!fm) {
		st = gp_yaml_error(&doc, doc.root, err, "missing 'failure_model'");
		goto out;
	}
	if ((st = gp_yaml_check_keys(&doc, fm, "failure_model", keys, err)))
		goto out;
	if ((v = gp_yaml_get(fm, "unit"))) {
		if ((st = gp_yaml_str(&doc, v, "unit", &s, err)))
			goto out;
		if (strcmp(s, "gpu") && strcmp(s, "node")) {
			st = gp_yaml_error(&doc, v, err, "unit must be gpu or node, not '%s'", s);
			goto out;
		}
		m->unit = strcmp(s, "gpu") ? GP_FAIL_NODE : GP_FAIL_GPU;
	}
	if ((v = gp_yaml_get(fm, "distribution"))) {
		if ((st = gp_yaml_str(&doc, v, "distribution", &s, err)))
			goto out;
		if (strcmp(s, "weibull") && strcmp(s, "exponential")) {
			st = gp_yaml_error(&doc, v, err,
					   "distribution must be weibull or exponential, not '%s'", s);
			goto out;
		}
		if (!strcmp(s, "exponential"))
			m->shape = 1;
	}
	if ((v = gp_yaml_get(fm, "shape")) &&
	    (st = gp_yaml_double(&doc, v, "shape", 0.05, 20, &m->shape, err)))
		goto out;
	if (!(m->shape > 0))
		m->shape = 1;
	if ((v = gp_yaml_get(fm, "scale_hours")) &&
	    (st = gp_yaml_double(&doc, v, "scale_hours", 1e-6, 1e12, &m->scale_h, err)))
		goto out;
	if ((v = gp_yaml_get(fm, "mtbf_hours")) &&
	    (st = gp_yaml_double(&doc, v, "mtbf_hours", 1e-6, 1e12, &m->mtbf_h, err)))
		goto out;
	if (!(m->mtbf_h > 0) && !(m->scale_h > 0)) {
		st = gp_yaml_error(&doc, fm, err, "give mtbf_hours or scale_hours");
		goto out;
	}
	/* The mean is what the generator uses: derive it from the scale when
	 * only the scale is given. */
	if (!(m->mtbf_h > 0))
		m->mtbf_h = m->scale_h * tgamma(1.0 + 1.0 / m->shape);
	if (!(m->scale_h > 0))
		m->scale_h = m->mtbf_h / tgamma(1.0 + 1.0 / m->shape);
	if ((v = gp_yaml_get(fm, "batch"))) {
		if ((st = gp_yaml_str(&doc, v, "batch", &s, err)))
			goto out;
		snprintf(m->batch, sizeof(m->batch), "%s", s);
	}
	if ((v = gp_yaml_get(fm, "source"))) {
		if ((st = gp_yaml_str(&doc, v, "source", &s, err)))
			goto out;
		snprintf(m->source, sizeof(m->source), "%s", s);
	}
	if ((v = gp_yaml_get(fm, "units"))) {
		if ((st = gp_yaml_long(&doc, v, "units", 0, 2000000000L, &n, err)))
			goto out;
		m->units = (size_t)n;
	}
	if ((v = gp_yaml_get(fm, "failures"))) {
		if ((st = gp_yaml_long(&doc, v, "failures", 0, 2000000000L, &n, err)))
			goto out;
		m->failures = (size_t)n;
	}
out:
	gp_yaml_doc_release(&doc);
	return st;
}

/* ---- lifetime tables ---- */

void gp_lifetimes_init(gp_lifetimes *l)
{
	memset(l, 0, sizeof(*l));
}

void gp_lifetimes_release(gp_lifetimes *l)
{
	int i;

	if (!l)
		return;
	free(l->t);
	free(l->failed);
	free(l->group);
	for (i = 0; i < l->ngroups; i++)
		free(l->groups[i]);
	free(l->groups);
	free(l->source);
	memset(l, 0, sizeof(*l));
}

static int parse_flag(const char *s, unsigned char *out)
{
	if (!strcasecmp(s, "true") || !strcmp(s, "1")) {
		*out = 1;
		return 0;
	}
	if (!strcasecmp(s, "false") || !strcmp(s, "0")) {
		*out = 0;
		return 0;
	}
	return -1;
}

#define GP_LIFETIMES_MAX_GROUPS 64

int gp_lifetimes_load(const char *path, gp_lifetimes *out, gp_error *err)
{
	line_iter it;
	csv_line l;
	char *text, *s;
	size_t len;
	int ct = -1, cf = -1, cg = -1, k, bad, have_header = 0, st;

	gp_lifetimes_init(out);
	if ((st = gp_read_file(path, GP_FAIL_MAX_FILE, &text, &len, err)))
		return st;
	out->source = gp_xstrdup(path);
	it = (line_iter){ text, text + len, 0, NULL, 0 };
	while ((s = next_line(&it))) {
		double t;
		unsigned char f;
		int g = -1;

		if (!*trim(s) || *trim(s) == '#')
			continue;
		if (split_line(s, &l, &bad)) {
			st = split_error(err, path, it.line, bad, &l);
			break;
		}
		if (!have_header) {
			for (k = 0; k < l.n; k++) {
				const char *h = trim(l.f[k]);

				if (!strcmp(h, "time") || !strcmp(h, "time_s"))
					ct = k;
				else if (!strcmp(h, "dead") || !strcmp(h, "failed"))
					cf = k;
				else if (!strcmp(h, "batch") || !strcmp(h, "group"))
					cg = k;
			}
			if (ct < 0 || cf < 0) {
				st = gp_error_set(err, GP_EINPUT, path, it.line, 1,
						  "the header needs a lifetime column (time or time_s, seconds) "
						  "and a failure column (dead or failed)");
				break;
			}
			have_header = 1;
			continue;
		}
		if (ct >= l.n || cf >= l.n || (cg >= 0 && cg >= l.n)) {
			st = gp_error_set(err, GP_EINPUT, path, it.line, (int)strlen(s) + 1,
					  "row has %d fields, fewer than the header", l.n);
			break;
		}
		if (out->n >= GP_FAIL_MAX_ROWS) {
			st = gp_error_set(err, GP_EINPUT, path, it.line, 1, "more than %d lifetimes",
					  GP_FAIL_MAX_ROWS);
			break;
		}
		if (gp_parse_double(trim(l.f[ct]), 0, 1e15, &t)) {
			st = gp_error_set(err, GP_EINPUT, path, it.line, l.col[ct],
					  "lifetime must be a finite number of seconds >= 0, not '%s'",
					  l.f[ct]);
			break;
		}
		if (parse_flag(trim(l.f[cf]), &f)) {
			st = gp_error_set(err, GP_EINPUT, path, it.line, l.col[cf],
					  "failure flag must be TRUE or FALSE, not '%s'", l.f[cf]);
			break;
		}
		if (cg >= 0) {
			const char *name = trim(l.f[cg]);

			for (g = 0; g < out->ngroups; g++)
				if (!strcmp(out->groups[g], name))
					break;
			if (g == out->ngroups) {
				if (g == GP_LIFETIMES_MAX_GROUPS) {
					st = gp_error_set(err, GP_EINPUT, path, it.line, l.col[cg],
							  "more than %d groups", GP_LIFETIMES_MAX_GROUPS);
					break;
				}
				out->groups = gp_xrealloc(out->groups,
							  (size_t)(g + 1) * sizeof(*out->groups));
				out->groups[g] = gp_xstrdup(name);
				out->ngroups++;
			}
		}
		if (!(t > 0)) {
			/* No time in service: no exposure and no information. */
			out->skipped++;
			continue;
		}
		if (out->n == out->cap) {
			out->cap = out->cap ? 2 * out->cap : 1024;
			out->t = gp_xrealloc(out->t, out->cap * sizeof(*out->t));
			out->failed = gp_xrealloc(out->failed, out->cap * sizeof(*out->failed));
			out->group = gp_xrealloc(out->group, out->cap * sizeof(*out->group));
		}
		out->t[out->n] = t;
		out->failed[out->n] = f;
		out->group[out->n] = g;
		out->n++;
	}
	if (st == GP_OK && !have_header)
		st = gp_error_set(err, GP_EINPUT, path, 1, 1, "empty file: no header line");
	free(it.buf);
	free(text);
	if (st != GP_OK)
		gp_lifetimes_release(out);
	return st;
}
