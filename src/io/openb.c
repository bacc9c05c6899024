/* Readers for the openb CSV dialects (Alibaba cluster-trace-gpu-v2023):
 * the node list and the pod list.  Columns are found by header name, so
 * the short five-column pod lists (multigpu50) read like the full ones. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/io/openb.h"
#include "gpuplan/util/util.h"

#define MAX_FIELDS 32

typedef struct field {
	const char *s;   /* not NUL-terminated */
	size_t len;
	int col;         /* 1-based column of its first byte */
} field;

/* Split one line (no quotes in openb; a quoted field is still accepted)
 * through a copy in *buf (the fields point into it): the field count, or
 * a GP_CSV_E* with the column in *bad. */
static int split_line(const char *line, size_t len, field *f, int max, char **buf, size_t *cap,
		      int *bad)
{
	char *fs[MAX_FIELDS];
	int col[MAX_FIELDS], n, k;

	GP_GROW(*buf, *cap, len + 1);
	memcpy(*buf, line, len);
	(*buf)[len] = '\0';
	n = gp_csv_split(*buf, len, ',', 0, fs, col, max < MAX_FIELDS ? max : MAX_FIELDS, bad);
	for (k = 0; k < n; k++) {
		f[k].s = fs[k];
		f[k].len = strlen(fs[k]);
		f[k].col = col[k];
	}
	return n;
}

static int field_eq(const field *f, const char *s)
{
	return f->len == strlen(s) && !memcmp(f->s, s, f->len);
}

/* Parse an integer field; openb writes some as "1000.0". */
static int field_long(const field *f, long min, long max, long *out)
{
	char buf[64];
	double d;

	if (f->len == 0 || f->len >= sizeof(buf))
		return -1;
	memcpy(buf, f->s, f->len);
	buf[f->len] = '\0';
	if (!gp_parse_long(buf, min, max, out))
		return 0;
	if (gp_parse_double(buf, (double)min, (double)max, &d) || d != (double)(long)d)
		return -1;
	*out = (long)d;
	return 0;
}

typedef struct line_iter {
	const char *p, *end;
	int64_t lineno;
} line_iter;

static int next_line(line_iter *it, const char **line, size_t *len)
{
	const char *nl;

	if (it->p >= it->end)
		return 0;
	nl = memchr(it->p, '\n', (size_t)(it->end - it->p));
	*line = it->p;
	*len = nl ? (size_t)(nl - it->p) : (size_t)(it->end - it->p);
	if (*len && (*line)[*len - 1] == '\r')
		(*len)--;
	it->p = nl ? nl + 1 : it->end;
	it->lineno++;
	return 1;
}

static int find_col(const field *hdr, int nh, const char *name)
{
	int i;

	for (i = 0; i < nh; i++)
		if (field_eq(&hdr[i], name))
			return i;
	return -1;
}

void gp_openb_nodes_init(gp_openb_nodes *n)
{
	memset(n, 0, sizeof(*n));
}

void gp_openb_nodes_release(gp_openb_nodes *n)
{
	int i;

	if (!n)
		return;
	for (i = 0; i < n->n; i++)
		free(n->names[i]);
	for (i = 0; i < n->nmodels; i++)
		free(n->models[i]);
	free(n->names);
	free(n->cpu_milli);
	free(n->mem_mib);
	free(n->ngpus);
	free(n->model);
	free(n->models);
	free(n->path);
	memset(n, 0, sizeof(*n));
}

void gp_openb_pods_init(gp_openb_pods *p)
{
	memset(p, 0, sizeof(*p));
}

void gp_openb_pods_release(gp_openb_pods *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < p->n; i++) {
		free(p->names[i]);
		free(p->gpu_spec[i]);
	}
	free(p->names);
	free(p->cpu_milli);
	free(p->mem_mib);
	free(p->ngpus);
	free(p->gpu_milli);
	free(p->gpu_spec);
	free(p->line);
	free(p->path);
	memset(p, 0, sizeof(*p));
}

static int read_header(line_iter *it, const char *path, field *hdr, int *nh, char **buf,
		       size_t *cap, gp_error *err)
{
	const char *line;
	size_t len;
	int bad;

	if (!next_line(it, &line, &len) || len == 0)
		return gp_error_set(err, GP_EINPUT, path, 1, 1, "empty file, expected a CSV header");
	*nh = split_line(line, len, hdr, MAX_FIELDS, buf, cap, &bad);
	if (*nh == GP_CSV_ETOO_MANY)
		return gp_error_set(err, GP_EINPUT, path, 1, 1, "more than %d columns in the header", MAX_FIELDS);
	if (*nh < 0)
		return gp_error_set(err, GP_EINPUT, path, 1, bad, "%s", gp_csv_strerror(*nh));
	return GP_OK;
}

static int need_col(const field *hdr, int nh, const char *name, const char *path,
		    int *col, gp_error *err)
{
	*col = find_col(hdr, nh, name);
	if (*col < 0)
		return gp_error_set(err, GP_EINPUT, path, 1, 1, "missing column '%s' in the header", name);
	return GP_OK;
}

/* What both lists check first in a row: the field count, the row cap, a
 * name and the CPU, memory and GPU count columns (col[0..3]); fills
 * v[0..2] with CPU, memory and GPU count. */
typedef struct row_kind {
	const char *noun;      /* "node", "task" */
	long cap;
	const char *gpu_col;   /* header name of the GPU count */
} row_kind;

static int row_common(const row_kind *kind, const line_iter *it, const char *path,
		      long count, const char *line, size_t llen, field *f, int nh,
		      const int *col, long *v, char **buf, size_t *cap, gp_error *err)
{
	int bad, line_no = (int)it->lineno, nf = split_line(line, llen, f, MAX_FIELDS, buf, cap, &bad);
	const field *name = &f[col[0]], *cpu = &f[col[1]], *mem = &f[col[2]], *gpu = &f[col[3]];

	if (nf < 0 && nf != GP_CSV_ETOO_MANY)
		return gp_error_set(err, GP_EINPUT, path, line_no, bad, "%s", gp_csv_strerror(nf));
	if (nf != nh)
		return gp_error_set(err, GP_EINPUT, path, line_no, 1, "expected %d fields, found %d",
				    nh, nf < 0 ? MAX_FIELDS + 1 : nf);
	if (count >= kind->cap)
		return gp_error_set(err, GP_EINPUT, path, line_no, 1, "more than %ld %ss (cap)",
				    kind->cap, kind->noun);
	if (name->len == 0)
		return gp_error_set(err, GP_EINPUT, path, line_no, name->col, "empty %s name", kind->noun);
	if (field_long(cpu, 0, 1L << 40, &v[0]))
		return gp_error_set(err, GP_EINPUT, path, line_no, cpu->col,
				    "cpu_milli '%.*s' is not a non-negative integer", (int)cpu->len, cpu->s);
	if (field_long(mem, 0, 1L << 40, &v[1]))
		return gp_error_set(err, GP_EINPUT, path, line_no, mem->col,
				    "memory_mib '%.*s' is not a non-negative integer", (int)mem->len, mem->s);
	if (field_long(gpu, 0, GP_OPENB_MAX_NODE_GPUS, &v[2]))
		return gp_error_set(err, GP_EINPUT, path, line_no, gpu->col,
				    "%s '%.*s' is not a GPU count 0..%d", kind->gpu_col, (int)gpu->len,
				    gpu->s, GP_OPENB_MAX_NODE_GPUS);
	return GP_OK;
}

int gp_openb_nodes_parse(const char *text, size_t len, const char *path,
			 gp_openb_nodes *n, gp_error *err)
{
	static const row_kind kind = { "node", GP_OPENB_MAX_NODES, "gpu" };
	line_iter it = { text, text + len, 0 };
	field hdr[MAX_FIELDS], f[MAX_FIELDS];
	char *buf = NULL;       /* the split line */
	size_t bcap = 0;
	int nh, col[4], c_model, rc, i;
	size_t cap = 0;
	const char *line;
	size_t llen;

	gp_openb_nodes_init(n);
	n->path = gp_xstrdup(path);
	if ((rc = read_header(&it, path, hdr, &nh, &buf, &bcap, err)) ||
	    (rc = need_col(hdr, nh, "sn", path, &col[0], err)) ||
	    (rc = need_col(hdr, nh, "cpu_milli", path, &col[1], err)) ||
	    (rc = need_col(hdr, nh, "memory_mib", path, &col[2], err)) ||
	    (rc = need_col(hdr, nh, "gpu", path, &col[3], err)) ||
	    (rc = need_col(hdr, nh, "model", path, &c_model, err)))
		goto fail;
	while (next_line(&it, &line, &llen)) {
		long v[3], cpu, mem, gpu;
		int k = n->n;

		if (llen == 0)
			continue;
		if ((rc = row_common(&kind, &it, path, n->n, line, llen, f, nh, col, v, &buf, &bcap, err)))
			goto fail;
		cpu = v[0];
		mem = v[1];
		gpu = v[2];
		if ((size_t)n->n + 1 > cap) {
			size_t c2 = cap;

			GP_GROW(n->names, c2, (size_t)n->n + 1);
			c2 = cap;
			GP_GROW(n->cpu_milli, c2, (size_t)n->n + 1);
			c2 = cap;
			GP_GROW(n->mem_mib, c2, (size_t)n->n + 1);
			c2 = cap;
			GP_GROW(n->ngpus, c2, (size_t)n->n + 1);
			c2 = cap;
			GP_GROW(n->model, c2, (size_t)n->n + 1);
			cap = c2;
		}
		n->names[k] = gp_xstrndup(f[col[0]].s, f[col[0]].len);
		n->cpu_milli[k] = cpu;
		n->mem_mib[k] = mem;
		n->ngpus[k] = (int)gpu;
		n->model[k] = -1;
		n->n++;
		if (gpu > 0 && f[c_model].len == 0) {
			rc = gp_error_set(err, GP_EINPUT, path, (int)it.lineno, f[c_model].col,
					  "node with %ld GPUs has no GPU model", gpu);
			goto fail;
		}
		if (f[c_model].len && gpu > 0) {
			for (i = 0; i < n->nmodels; i++)
				if (strlen(n->models[i]) == f[c_model].len &&
				    !memcmp(n->models[i], f[c_model].s, f[c_model].len))
					break;
			if (i == n->nmodels) {
				if (n->nmodels == GP_OPENB_MAX_MODELS) {
					rc = gp_error_set(err, GP_EINPUT, path, (int)it.lineno, f[c_model].col,
							  "more than %d GPU models (cap)", GP_OPENB_MAX_MODELS);
					goto fail;
				}
				n->models = gp_xrealloc(n->models, sizeof(char *) * (size_t)(n->nmodels + 1));
				n->models[n->nmodels++] = gp_xstrndup(f[c_model].s, f[c_model].len);
			}
			n->model[k] = i;
		}
	}
	if (n->n == 0) {
		rc = gp_error_set(err, GP_EINPUT, path, (int)it.lineno + 1, 1, "no nodes in the node list");
		goto fail;
	}
	free(buf);
	return GP_OK;
fail:
	free(buf);
	gp_openb_nodes_release(n);
	return rc;
}

int gp_openb_gpu_request(long num_gpu, long *gpu_milli, char *why,
			       size_t whylen)
{
	/* A zero share makes a task CPU-only for the artifact's GPU filter. */
	if (num_gpu == 0)
		*gpu_milli = 0;
	else if (*gpu_milli > 1000)
		*gpu_milli = 1000;
	if (num_gpu > 0 && *gpu_milli == 0) {
		snprintf(why, whylen, "a GPU task needs gpu_milli 1..1000, not 0");
		return -1;
	}
	if (num_gpu > 1 && *gpu_milli < 1000) {
		snprintf(why, whylen, "a %ld-GPU task must take whole GPUs (gpu_milli 1000), not %ld",
			 num_gpu, *gpu_milli);
		return -1;
	}
	return 0;
}

int gp_openb_spec_any(const char *s, size_t len)
{
	return len == 0 || (len == 3 && !memcmp(s, "nan", 3));
}

int gp_openb_pods_parse(const char *text, size_t len, const char *path,
			gp_openb_pods *p, gp_error *err)
{
	static const row_kind kind = { "task", GP_OPENB_MAX_PODS, "num_gpu" };
	line_iter it = { text, text + len, 0 };
	field hdr[MAX_FIELDS], f[MAX_FIELDS];
	char *buf = NULL;       /* the split line */
	size_t bcap = 0;
	int nh, col[4], c_milli, c_spec, rc;
	char why[128];
	size_t cap = 0;
	const char *line;
	size_t llen;

	gp_openb_pods_init(p);
	p->path = gp_xstrdup(path);
	if ((rc = read_header(&it, path, hdr, &nh, &buf, &bcap, err)) ||
	    (rc = need_col(hdr, nh, "name", path, &col[0], err)) ||
	    (rc = need_col(hdr, nh, "cpu_milli", path, &col[1], err)) ||
	    (rc = need_col(hdr, nh, "memory_mib", path, &col[2], err)) ||
	    (rc = need_col(hdr, nh, "num_gpu", path, &col[3], err)) ||
	    (rc = need_col(hdr, nh, "gpu_milli", path, &c_milli, err)))
		goto fail;
	c_spec = find_col(hdr, nh, "gpu_spec");
	while (next_line(&it, &line, &llen)) {
		long v[3], cpu, mem, ngpu, milli;
		size_t k = p->n;

		if (llen == 0)
			continue;
		if ((rc = row_common(&kind, &it, path, (long)p->n, line, llen, f, nh, col, v, &buf, &bcap, err)))
			goto fail;
		cpu = v[0];
		mem = v[1];
		ngpu = v[2];
		if (field_long(&f[c_milli], 0, 1L << 30, &milli)) {
			rc = gp_error_set(err, GP_EINPUT, path, (int)it.lineno, f[c_milli].col,
					  "gpu_milli '%.*s' is not a non-negative integer", (int)f[c_milli].len, f[c_milli].s);
			goto fail;
		}
		if (gp_openb_gpu_request(ngpu, &milli, why, sizeof(why))) {
			rc = gp_error_set(err, GP_EINPUT, path, (int)it.lineno, f[c_milli].col,
					  "%s", why);
			goto fail;
		}
		if (k + 1 > cap) {
			size_t c2 = cap;

			GP_GROW(p->names, c2, k + 1);
			c2 = cap;
			GP_GROW(p->cpu_milli, c2, k + 1);
			c2 = cap;
			GP_GROW(p->mem_mib, c2, k + 1);
			c2 = cap;
			GP_GROW(p->ngpus, c2, k + 1);
			c2 = cap;
			GP_GROW(p->gpu_milli, c2, k + 1);
			c2 = cap;
			GP_GROW(p->gpu_spec, c2, k + 1);
			c2 = cap;
			GP_GROW(p->line, c2, k + 1);
			cap = c2;
		}
		p->names[k] = gp_xstrndup(f[col[0]].s, f[col[0]].len);
		p->cpu_milli[k] = cpu;
		p->mem_mib[k] = mem;
		p->ngpus[k] = (int)ngpu;
		p->gpu_milli[k] = (int)milli;
		/* the converter writes a model constraint only for GPU tasks */
		if (c_spec >= 0 && ngpu > 0 && !gp_openb_spec_any(f[c_spec].s, f[c_spec].len))
			p->gpu_spec[k] = gp_xstrndup(f[c_spec].s, f[c_spec].len);
		else
			p->gpu_spec[k] = gp_xstrdup("");
		p->line[k] = it.lineno;
		p->n++;
	}
	if (p->n == 0) {
		rc = gp_error_set(err, GP_EINPUT, path, (int)it.lineno + 1, 1, "no tasks in the pod list");
		goto fail;
	}
	free(buf);
	return GP_OK;
fail:
	free(buf);
	gp_openb_pods_release(p);
	return rc;
}

int gp_openb_nodes_load(const char *path, gp_openb_nodes *n, gp_error *err)
{
	char *data;
	size_t len;
	int rc;

	gp_openb_nodes_init(n);
	if ((rc = gp_read_file(path, GP_OPENB_MAX_FILE, &data, &len, err)))
		return rc;
	rc = gp_openb_nodes_parse(data, len, path, n, err);
	free(data);
	return rc;
}

int gp_openb_pods_load(const char *path, gp_openb_pods *p, gp_error *err)
{
	char *data;
	size_t len;
	int rc;

	gp_openb_pods_init(p);
	if ((rc = gp_read_file(path, GP_OPENB_MAX_FILE, &data, &len, err)))
		return rc;
	rc = gp_openb_pods_parse(data, len, path, p, err);
	free(data);
	return rc;
}
