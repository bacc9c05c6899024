/* Training and evaluation data of the predictors (predict.h): the
 * GPUMemNet CSV and gpuplan's own predictor CSV, both turned into feature
 * rows here; and the builder of a time CSV from Gavel's and Sia's measured
 * iteration times. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gpuplan/perf/perf.h"
#include "gpuplan/predict/predict.h"
#include "gpuplan/util/util.h"

#define MAX_FIELDS 64

static const char *const target_names[GP_PRED_NTARGETS] = { "util", "memory", "time" };
static const char *const target_units[GP_PRED_NTARGETS] = { "%", "MiB", "s" };

const char *gp_pred_target_name(int t)
{
	return t >= 0 && t < GP_PRED_NTARGETS ? target_names[t] : "?";
}

const char *gp_pred_target_unit(int t)
{
	return t >= 0 && t < GP_PRED_NTARGETS ? target_units[t] : "?";
}

int gp_pred_target_parse(const char *s)
{
	int t;

	for (t = 0; t < GP_PRED_NTARGETS; t++)
		if (!strcmp(s, target_names[t]))
			return t;
	if (!strcmp(s, "mem"))
		return GP_PRED_MEM;
	return -1;
}

void gp_pred_data_init(gp_pred_data *d)
{
	memset(d, 0, sizeof(*d));
}

void gp_pred_data_release(gp_pred_data *d)
{
	if (!d)
		return;
	free(d->rows);
	free(d->path);
	memset(d, 0, sizeof(*d));
}

static gp_pred_row *push_row(gp_pred_data *d)
{
	gp_pred_row *r;
	int t;

	GP_GROW(d->rows, d->cap, d->n + 1);
	r = &d->rows[d->n++];
	memset(r, 0, sizeof(*r));
	for (t = 0; t < GP_PRED_NTARGETS; t++)
		r->y[t] = NAN;
	return r;
}

/* ---- one line of fields (gp_csv_split) ---- */

typedef struct csv_line {
	char *f[MAX_FIELDS];
	int col[MAX_FIELDS];
	int nf;
} csv_line;

/* -1: too many fields, -2: an unterminated quote, -3: text after one. */
static int split_line(char *s, csv_line *out)
{
	int bad;

	out->nf = gp_csv_split(s, strlen(s), ',', 0, out->f, out->col, MAX_FIELDS, &bad);
	return out->nf < 0 ? out->nf : 0;
}

static void trim(char *s)
{
	size_t n = strlen(s), i = 0;

	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	while (isspace((unsigned char)s[i]))
		i++;
	if (i)
		memmove(s, s + i, n - i + 1);
}

/* ---- GPUMemNet ---- */

enum { GM_FILENAME, GM_DEPTH, GM_LAYERS, GM_BATCH, GM_MEM, GM_UTIL, GM_N };
static const char *const gm_cols[GM_N] = {
	"Filename", "Depth", "Activations-Params", "Batch Size", "Max GPU Memory (MiB)",
	"Avg GPUTL",
};

/* The layer list: [('linear', 629, 792540), ('ReLU', 629, 0), ...] of
 * (type, activations per sample, parameters). */
static int gm_layers(const char *s, double input, gp_pred_ops *o)
{
	double prev = input;
	int n = 0;

	for (;;) {
		char name[48], q;
		double acts, params;
		size_t k = 0;
		int op;
		char *end;

		s = strchr(s, '(');
		if (!s)
			break;
		s++;
		while (*s == ' ')
			s++;
		q = *s;
		if (q != '\'' && q != '"')
			return -1;
		s++;
		while (*s && *s != q && k + 1 < sizeof(name))
			name[k++] = *s++;
		name[k] = '\0';
		if (*s != q)
			return -1;
		s++;
		while (*s == ' ' || *s == ',')
			s++;
		acts = strtod(s, &end);
		if (end == s || !(acts >= 0))
			return -1;
		s = end;
		while (*s == ' ' || *s == ',')
			s++;
		params = strtod(s, &end);
		if (end == s || !(params >= 0))
			return -1;
		s = end;
		op = gp_pred_op_parse(name);
		if (op < 0)
			op = GP_OP_ACT; /* Softplus, GELU, Mish, SELU, Tanh, Identity, ... */
		o->count[op] += 1;
		if (prev > o->max_in[op])
			o->max_in[op] = prev;
		if (op == GP_OP_LINEAR) {
			o->depth++;
			if (acts > o->width)
				o->width = acts;
		}
		o->acts += acts;
		o->params += params;
		prev = acts;
		n++;
	}
	return n > 0 ? 0 : -1;
}

static int gm_num(const gp_pred_data *d, const csv_line *L, const int *map, int c,
		  double lo, double hi, int64_t line, double *v, gp_error *err)
{
	if (gp_parse_double(L->f[map[c]], lo, hi, v))
		return gp_error_set(err, GP_EINPUT, d->path, (int)line, L->col[map[c]],
				    "'%s' must be a number in [%g, %g], got '%.40s'", gm_cols[c], lo, hi,
				    L->f[map[c]]);
	return GP_OK;
}

static int gm_row(gp_pred_data *d, const gp_catalog *cat, csv_line *L, const int *map,
		  int64_t line, gp_error *err)
{
	const gp_gpu_model *g = gp_catalog_find(cat, "A100-SXM4-40GB");
	gp_pred_hw hw;
	gp_pred_ops o;
	gp_pred_row *r;
	const char *p;
	double input, depth, batch, mem, util;
	int k;

	for (k = 0; k < GM_N; k++)
		if (map[k] >= L->nf)
			return gp_error_set(err, GP_EINPUT, d->path, (int)line, 0,
					    "missing value for '%s'", gm_cols[k]);
	if (!g)
		return gp_error_set(err, GP_EIO, NULL, 0, 0, "the GPU catalog has no A100-SXM4-40GB");
	gp_pred_hw_of(g, &hw);
	if (gm_num(d, L, map, GM_DEPTH, 1, 10000, line, &depth, err) ||
	    gm_num(d, L, map, GM_BATCH, 1, 1e9, line, &batch, err) ||
	    gm_num(d, L, map, GM_MEM, 0, 1e9, line, &mem, err) ||
	    gm_num(d, L, map, GM_UTIL, 0, 100, line, &util, err))
		return GP_EINPUT;
	p = strstr(L->f[map[GM_FILENAME]], "input:");
	input = p ? strtod(p + 6, NULL) : 0;
	if (!(input >= 1))
		return gp_error_set(err, GP_EINPUT, d->path, (int)line, L->col[map[GM_FILENAME]],
				    "'Filename' must carry the input width as 'input:N'");
	gp_pred_ops_init(&o);
	o.input = input;
	if (gm_layers(L->f[map[GM_LAYERS]], input, &o))
		return gp_error_set(err, GP_EINPUT, d->path, (int)line, L->col[map[GM_LAYERS]],
				    "'Activations-Params' must be a list of "
				    "('type', activations, parameters)");
	/* Linear layers dominate an MLP: 2 FLOPs per weight and sample
	 * forward, twice that backward. */
	o.flops = 6.0 * o.params;
	r = push_row(d);
	gp_pred_features(&o, batch, &hw, r->x);
	r->y[GP_PRED_UTIL] = util;
	r->y[GP_PRED_MEM] = mem;
	r->depth = (int)depth;
	r->width = o.width > input ? o.width : input;
	snprintf(r->gpu, sizeof(r->gpu), "A100-SXM4-40GB");
	r->line = line;
	return GP_OK;
}

/* ---- gpuplan predictor CSV ---- */

enum { GC_MODEL, GC_BATCH, GC_GPU, GC_H, GC_W, GC_SEQ, GC_UTIL, GC_MEM, GC_ITER, GC_SOURCE,
       GC_N };
static const char *const gc_cols[GC_N] = {
	"model", "batch_size", "gpu", "input_h", "input_w", "seq_len", "util_pct", "mem_mib",
	"iter_s", "source",
};

/* The model profile of the row before (rows of one model follow each
 * other): its name, whether it has a profile, the profile at default
 * dimensions.  Saves two catalog lookups per row. */
typedef struct gc_memo {
	char name[sizeof(((gp_model_desc *)0)->name)];
	int valid, rc, known;
	gp_pred_ops o;
} gc_memo;

static int gc_row(gp_pred_data *d, const gp_catalog *cat, csv_line *L, const int *map,
		  int64_t line, gc_memo *memo, gp_error *err)
{
	gp_model_desc desc;
	gp_pred_ops o;
	gp_pred_hw hw;
	gp_pred_row *r;
	const gp_gpu_model *g;
	double batch, v[3] = { 0, 0, 0 }, y[3];
	int k, any = 0;
	const char *f[GC_N];

	for (k = 0; k < GC_N; k++)
		f[k] = map[k] >= 0 && map[k] < L->nf ? L->f[map[k]] : "";
	for (k = 0; k < 3; k++)
		if (!*f[k])
			return gp_error_set(err, GP_EINPUT, d->path, (int)line, 0,
					    "missing value for '%s'", gc_cols[k]);
	memset(&desc, 0, sizeof(desc));
	snprintf(desc.name, sizeof(desc.name), "%s", f[GC_MODEL]);
	if (strlen(f[GC_MODEL]) >= sizeof(memo->name)) {
		memo->valid = 0; /* a name desc.name cuts short: not remembered */
		memo->rc = gp_pred_ops_of_desc(&desc, &memo->o);
		memo->known = gp_pred_ops_known(f[GC_MODEL]);
	} else if (!memo->valid || strcmp(memo->name, f[GC_MODEL])) {
		memo->rc = gp_pred_ops_of_desc(&desc, &memo->o);
		memo->known = gp_pred_ops_known(f[GC_MODEL]);
		snprintf(memo->name, sizeof(memo->name), "%s", f[GC_MODEL]);
		memo->valid = 1;
	}
	o = memo->o;
	if (memo->rc != 0 || !memo->known)
		return gp_error_set(err, GP_EINPUT, d->path, (int)line, L->col[map[GC_MODEL]],
				    "model '%.40s' has no operator profile", f[GC_MODEL]);
	if (gp_parse_double(f[GC_BATCH], 1, 1e9, &batch))
		return gp_error_set(err, GP_EINPUT, d->path, (int)line, L->col[map[GC_BATCH]],
				    "'batch_size' must be a number >= 1, got '%.40s'", f[GC_BATCH]);
	if (!(g = gp_catalog_find(cat, f[GC_GPU])))
		return gp_error_set(err, GP_EINPUT, d->path, (int)line, L->col[map[GC_GPU]],
				    "unknown GPU model '%.40s'", f[GC_GPU]);
	for (k = 0; k < 3; k++) {
		if (!*f[GC_H + k])
			continue;
		if (gp_parse_double(f[GC_H + k], 1, 1e7, &v[k]))
			return gp_error_set(err, GP_EINPUT, d->path, (int)line,
					    L->col[map[GC_H + k]], "'%s' must be a number >= 1",
					    gc_cols[GC_H + k]);
	}
	if (v[0] > 0 || v[1] > 0 || v[2] > 0) {
		desc.input_h = (int)v[0];
		desc.input_w = (int)v[1];
		desc.seq_len = (int)v[2];
		gp_pred_ops_of_desc(&desc, &o);
	}
	for (k = 0; k < 3; k++) {
		y[k] = NAN;
		if (!*f[GC_UTIL + k])
			continue;
		if (gp_parse_double(f[GC_UTIL + k], 0, k == 0 ? 100 : 1e12, &y[k]) ||
		    (k > 0 && !(y[k] > 0)))
			return gp_error_set(err, GP_EINPUT, d->path, (int)line,
					    L->col[map[GC_UTIL + k]], "bad '%s' value '%.40s'",
					    gc_cols[GC_UTIL + k], f[GC_UTIL + k]);
		any = 1;
	}
	if (!any)
		return gp_error_set(err, GP_EINPUT, d->path, (int)line, 0,
				    "a row needs one of util_pct, mem_mib, iter_s");
	gp_pred_hw_of(g, &hw);
	r = push_row(d);
	gp_pred_features(&o, batch, &hw, r->x);
	for (k = 0; k < 3; k++)
		r->y[k] = y[k];
	r->depth = o.depth;
	r->width = o.width;
	snprintf(r->gpu, sizeof(r->gpu), "%s", g->name);
	snprintf(r->model, sizeof(r->model), "%s", f[GC_MODEL]);
	r->line = line;
	return GP_OK;
}

int gp_pred_data_load(const char *path, const gp_catalog *cat, gp_pred_data *d,
		      gp_error *err)
{
	char *data = NULL, *p, *next;
	size_t len;
	int64_t line = 0;
	int map[MAX_FIELDS], is_gm = -1, k, rc = GP_OK;
	csv_line L;
	gc_memo memo;

	if ((rc = gp_read_file(path, GP_PRED_MAX_FILE, &data, &len, err)) != GP_OK)
		return rc;
	free(d->path);
	d->path = gp_xstrdup(path);
	memo.valid = 0;
	for (p = data; p && *p && rc == GP_OK; p = next) {
		size_t n;

		next = strchr(p, '\n');
		if (next)
			*next++ = '\0';
		n = strlen(p);
		if (n && p[n - 1] == '\r')
			p[--n] = '\0';
		line++;
		if (!n || p[0] == '#')
			continue;
		k = split_line(p, &L);
		if (k < 0) {
			rc = gp_error_set(err, GP_EINPUT, path, (int)line, 0,
					  k == -1 ? "more than %d fields" :
					  "unterminated or misplaced quote (%d)",
					  k == -1 ? MAX_FIELDS : -k);
			break;
		}
		if (is_gm < 0) {
			/* The header names the dialect. */
			int c, i, ncols;
			const char *const *cols;

			for (i = 0; i < L.nf; i++)
				trim(L.f[i]);
			is_gm = 0;
			for (i = 0; i < L.nf; i++)
				if (!strcmp(L.f[i], "Activations-Params"))
					is_gm = 1;
			cols = is_gm ? gm_cols : gc_cols;
			ncols = is_gm ? GM_N : GC_N;
			for (c = 0; c < ncols; c++) {
				map[c] = -1;
				for (i = 0; i < L.nf; i++)
					if (!strcasecmp(L.f[i], cols[c]))
						map[c] = i;
				if (map[c] < 0 && (is_gm || c < 3)) {
					rc = gp_error_set(err, GP_EINPUT, path, (int)line, 0,
							  "missing column '%s' (a %s file)", cols[c],
							  is_gm ? "GPUMemNet" : "gpuplan predictor");
					break;
				}
			}
			if (rc == GP_OK && !is_gm && map[GC_UTIL] < 0 && map[GC_MEM] < 0 &&
			    map[GC_ITER] < 0)
				rc = gp_error_set(err, GP_EINPUT, path, (int)line, 0,
						  "no target column: want util_pct, mem_mib or iter_s");
			d->format = is_gm ? "gpumemnet" : "gpuplan";
			continue;
		}
		if (d->n >= GP_PRED_MAX_ROWS) {
			rc = gp_error_set(err, GP_EINPUT, path, (int)line, 0,
					  "more than %d rows", GP_PRED_MAX_ROWS);
			break;
		}
		for (k = 0; k < L.nf; k++)
			trim(L.f[k]);
		rc = is_gm ? gm_row(d, cat, &L, map, line, err)
			   : gc_row(d, cat, &L, map, line, &memo, err);
	}
	if (rc == GP_OK && is_gm < 0)
		rc = gp_error_set(err, GP_EINPUT, path, 0, 0, "empty file: no header row");
	free(data);
	return rc;
}
