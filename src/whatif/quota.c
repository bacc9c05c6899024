/* What-if axes over tenants' quotas and weights, and the tenant SLO
 * (quota.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/model/alloc.h"
#include "gpuplan/report/report.h"
#include "gpuplan/run/metrics.h"
#include "gpuplan/whatif/quota.h"

/* The statistics a tenant SLO may bound, by key. */
static const struct {
	const char *key;
	int metric;
} slo_stats[] = {
	{ "tenant_mean_wait", GP_M_QD_MEAN }, { "tenant_p50_wait", GP_M_QD_P50 },
	{ "tenant_p90_wait", GP_M_QD_P90 },   { "tenant_p99_wait", GP_M_QD_P99 },
	{ "tenant_max_wait", GP_M_QD_MAX },
};
#define NSTATS (sizeof(slo_stats) / sizeof(slo_stats[0]))

int gp_whatif_quota_axis_key(const char *key)
{
	return !strncmp(key, "quota.", 6) || !strncmp(key, "weight.", 7) || !strcmp(key, "split");
}

int gp_whatif_quota_slo_key(const char *key)
{
	size_t i;

	for (i = 0; i < NSTATS; i++)
		if (!strcmp(key, slo_stats[i].key))
			return 1;
	return 0;
}

void gp_whatif_quota_release(gp_whatif_spec *s)
{
	size_t i;

	for (i = 0; i < s->ntaxes; i++) {
		free(s->taxes[i].name);
		free(s->taxes[i].tenants);
		free(s->taxes[i].values);
	}
	free(s->taxes);
	free(s->tslo_bound);
	gp_tenants_release(&s->tenants);
	s->taxes = NULL;
	s->ntaxes = 0;
	s->tslo_bound = NULL;
}

/* ---- loading ---- */

typedef struct qload {
	const gp_yaml_doc *doc;
	gp_whatif_spec *s;
	gp_error *err;
	const char *tpath;      /* where the tenants came from, for messages */
} qload;

static int res_index(const gp_tenants *t, const char *name)
{
	int k;

	for (k = 0; k < t->nres; k++)
		if (!strcmp(t->res[k], name))
			return k;
	return -1;
}

/* The tenant named `name` or a located error at n. */
static int tenant_of(qload *Q, const gp_yaml_node *n, const char *what, const char *name, int *out)
{
	const gp_tenants *t = &Q->s->tenants;
	size_t i, best = 0;
	int d, bestd = 99;

	*out = gp_tenants_find(t, name);
	if (*out >= 0)
		return GP_OK;
	for (i = 0; i < t->n; i++)
		if ((d = gp_edit_distance(name, t->t[i].name, 0)) < bestd) {
			bestd = d;
			best = i;
		}
	if (bestd <= 2 && bestd < (int)strlen(name))
		return gp_yaml_error(Q->doc, n, Q->err, "%s: no tenant '%.64s' in %s (did you mean '%s'?)",
				     what, name, Q->tpath, t->t[best].name);
	return gp_yaml_error(Q->doc, n, Q->err, "%s: no tenant '%.64s' in %s", what, name, Q->tpath);
}

/* The quota keys of the tenants, "gpus, A100-SXM4-80GB". */
static const char *res_list(const gp_tenants *t, char *buf, size_t size)
{
	size_t len = 0;
	int k;

	buf[0] = 0;
	for (k = 0; k < t->nres && len < size; k++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s", k ? ", " : "", t->res[k]);
	return buf;
}

/* The quota key `name` of the tenants, or a located error at n. */
static int resource_of(qload *Q, const gp_yaml_node *n, const char *what, const char *name,
		       int *out)
{
	char buf[512];

	*out = res_index(&Q->s->tenants, name);
	if (*out >= 0)
		return GP_OK;
	if (!strcmp(name, "gpus"))
		return gp_yaml_error(Q->doc, n, Q->err,
				     "%s: the quotas in %s are per GPU model (%s): name one, as in "
				     "quota.TENANT.MODEL or the split's 'model'",
				     what, Q->tpath, res_list(&Q->s->tenants, buf, sizeof(buf)));
	return gp_yaml_error(Q->doc, n, Q->err, "%s: no quota key '%.64s' in %s (its keys: %s)", what,
			     name, Q->tpath, res_list(&Q->s->tenants, buf, sizeof(buf)));
}

/* "quota.REST": REST is a tenant (its `gpus` quota) or TENANT.KEY. */
static int quota_target(qload *Q, const gp_yaml_node *key, const char *what, const char *rest,
			int *tenant, int *res)
{
	const char *dot;
	char name[512];

	if (gp_tenants_find(&Q->s->tenants, rest) >= 0) {
		*tenant = gp_tenants_find(&Q->s->tenants, rest);
		return resource_of(Q, key, what, "gpus", res);
	}
	/* the longest tenant name before a dot whose rest is a quota key */
	for (dot = strrchr(rest, '.'); dot; ) {
		snprintf(name, sizeof(name), "%.*s", (int)(dot - rest), rest);
		if (gp_tenants_find(&Q->s->tenants, name) >= 0) {
			*tenant = gp_tenants_find(&Q->s->tenants, name);
			return resource_of(Q, key, what, dot + 1, res);
		}
		while (--dot > rest && *dot != '.')
			;
		if (dot <= rest)
			dot = NULL;
	}
	dot = strchr(rest, '.');
	snprintf(name, sizeof(name), "%.*s", dot ? (int)(dot - rest) : (int)strlen(rest), rest);
	return tenant_of(Q, key, what, name, tenant);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Values of a quota (whole GPUs: a list, a number, or FROM..TO[/STEP]) or
 * of a weight (> 0: a list or a number), ascending and distinct. */
static int axis_values(qload *Q, const gp_yaml_node *n, int weight, gp_whatif_taxis *x)
{
	const char *what = x->name;
	size_t i;

	if (n->type == GP_YAML_SCALAR && !weight && strstr(n->scalar, "..")) {
		const char *t = n->scalar, *dots = strstr(t, ".."), *slash = strchr(dots, '/');
		char a[32], b[32];
		long lo, hi, step = 1, v;

		snprintf(a, sizeof(a), "%.*s", (int)(dots - t), t);
		snprintf(b, sizeof(b), "%.*s", (int)(slash ? slash - dots - 2 : (long)strlen(dots + 2)),
			 dots + 2);
		if (gp_parse_long(a, 0, GP_TENANTS_MAX_GPUS, &lo) ||
		    gp_parse_long(b, 0, GP_TENANTS_MAX_GPUS, &hi) ||
		    (slash && gp_parse_long(slash + 1, 1, GP_TENANTS_MAX_GPUS, &step)) || hi < lo)
			return gp_yaml_error(Q->doc, n, Q->err,
					     "'%s': expected a list of GPUs, a number or a range "
					     "'FROM..TO' or 'FROM..TO/STEP', got '%.40s'", what, t);
		if ((hi - lo) / step + 1 > GP_WHATIF_MAX_VALUES)
			return gp_yaml_error(Q->doc, n, Q->err, "'%s': more than %d values", what,
					     GP_WHATIF_MAX_VALUES);
		x->values = gp_xmalloc((size_t)((hi - lo) / step + 1) * sizeof(double));
		for (v = lo; v <= hi; v += step)
			x->values[x->n++] = (double)v;
		return GP_OK;
	}
	if (n->type == GP_YAML_SCALAR) {
		x->values = gp_xmalloc(sizeof(double));
		x->n = 1;
		if (weight)
			return gp_yaml_double(Q->doc, n, "a weight (> 0)", 1e-9, 1e9, &x->values[0], Q->err);
		{
			long v;

			if (gp_yaml_long(Q->doc, n, "a quota (GPUs)", 0, GP_TENANTS_MAX_GPUS, &v, Q->err))
				return GP_EINPUT;
			x->values[0] = (double)v;
		}
		return GP_OK;
	}
	if (gp_yaml_expect(Q->doc, n, GP_YAML_SEQ, what, Q->err))
		return GP_EINPUT;
	if (n->n == 0 || n->n > GP_WHATIF_MAX_VALUES)
		return gp_yaml_error(Q->doc, n, Q->err, "'%s' wants 1 to %d values", what,
				     GP_WHATIF_MAX_VALUES);
	x->values = gp_xmalloc(n->n * sizeof(double));
	for (i = 0; i < n->n; i++) {
		long v;

		if (weight) {
			if (gp_yaml_double(Q->doc, n->items[i], "a weight (> 0)", 1e-9, 1e9, &x->values[i],
					   Q->err))
				return GP_EINPUT;
		} else {
			if (gp_yaml_long(Q->doc, n->items[i], "a quota (GPUs)", 0, GP_TENANTS_MAX_GPUS, &v,
					 Q->err))
				return GP_EINPUT;
			x->values[i] = (double)v;
		}
		x->n = i + 1;
	}
	qsort(x->values, x->n, sizeof(double), cmp_double);
	for (i = 1; i < x->n; i++)
		if (x->values[i] == x->values[i - 1])
			return gp_yaml_error(Q->doc, n, Q->err, "'%s': %.12g is listed twice", what,
					     x->values[i]);
	return GP_OK;
}

/* The ways to give ntenants tenants multiples of step, each >= min,
 * adding up to total: row by row, in lexicographic order of the shares
 * (the first tenant's slowest), the last tenant taking the rest. */
static int split_rows(qload *Q, const gp_yaml_node *n, gp_whatif_taxis *x, long total, long step,
		      long min)
{
	size_t nt = x->ntenants, cap = 0, k, j;
	long *share = gp_xcalloc(nt, sizeof(long));
	long lo = (min + step - 1) / step;       /* in steps */
	long units = total / step;
	int st = GP_OK, more = 1;

	if ((long)nt * lo > units) {
		free(share);
		return gp_yaml_error(Q->doc, n, Q->err,
				     "'split': %zu tenants at 'min' %ld GPUs each need more than the "
				     "'total' %ld", nt, min, total);
	}
	for (k = 0; k + 1 < nt; k++)
		share[k] = lo;
	share[nt - 1] = units - lo * (long)(nt - 1);
	while (more) {
		if (x->n == GP_WHATIF_MAX_VALUES) {
			st = gp_yaml_error(Q->doc, n, Q->err,
					   "'split': more than %d ways to divide %ld GPUs: a larger "
					   "'step' or 'min' gives fewer", GP_WHATIF_MAX_VALUES, total);
			break;
		}
		GP_GROW(x->values, cap, (x->n + 1) * nt);
		for (k = 0; k < nt; k++)
			x->values[x->n * nt + k] = (double)(share[k] * step);
		x->n++;
		/* the next row: raise the rightmost share j (not the last's)
		 * that can take one more step with the shares after it at lo */
		more = 0;
		for (j = nt - 1; j-- > 0 && !more;) {
			long used = 0;

			for (k = 0; k < j; k++)
				used += share[k];
			used += share[j] + 1 + lo * (long)(nt - 2 - j);
			if (units - used >= lo) {
				share[j]++;
				for (k = j + 1; k + 1 < nt; k++)
					share[k] = lo;
				share[nt - 1] = units - used;
				more = 1;
			}
		}
	}
	free(share);
	return st;
}

static const char *const split_keys[] = { "total", "tenants", "step", "min", "model", NULL };

static int load_split(qload *Q, const gp_yaml_node *key, const gp_yaml_node *n, gp_whatif_taxis *x)
{
	const gp_yaml_node *tl, *v;
	long total, step = 1, min = 0;
	const char *model = "gpus";
	size_t i, k;

	if (gp_yaml_expect(Q->doc, n, GP_YAML_MAP, "'split' (total, tenants, step, min)", Q->err) ||
	    gp_yaml_check_keys(Q->doc, n, "'split'", split_keys, Q->err))
		return GP_EINPUT;
	if (!(v = gp_yaml_get(n, "total")))
		return gp_yaml_error(Q->doc, n, Q->err, "'split' needs 'total' (the GPUs to divide)");
	if (gp_yaml_long(Q->doc, v, "'split' 'total' (GPUs)", 1, GP_TENANTS_MAX_GPUS, &total, Q->err))
		return GP_EINPUT;
	if ((v = gp_yaml_get(n, "step")) &&
	    gp_yaml_long(Q->doc, v, "'split' 'step' (GPUs)", 1, GP_TENANTS_MAX_GPUS, &step, Q->err))
		return GP_EINPUT;
	if ((v = gp_yaml_get(n, "min")) &&
	    gp_yaml_long(Q->doc, v, "'split' 'min' (GPUs)", 0, GP_TENANTS_MAX_GPUS, &min, Q->err))
		return GP_EINPUT;
	if (total % step)
		return gp_yaml_error(Q->doc, gp_yaml_get(n, "step"), Q->err,
				     "'split': 'total' %ld is no multiple of 'step' %ld", total, step);
	if ((v = gp_yaml_get(n, "model")) && gp_yaml_str(Q->doc, v, "'split' 'model'", &model, Q->err))
		return GP_EINPUT;
	if (resource_of(Q, v ? v : key, "'split'", model, &x->res))
		return GP_EINPUT;
	if (!(tl = gp_yaml_get(n, "tenants")))
		return gp_yaml_error(Q->doc, n, Q->err, "'split' needs 'tenants' (a list of 2 or more)");
	if (gp_yaml_expect(Q->doc, tl, GP_YAML_SEQ, "'split' 'tenants'", Q->err))
		return GP_EINPUT;
	if (tl->n < 2 || tl->n > GP_WHATIF_MAX_TENANTS)
		return gp_yaml_error(Q->doc, tl, Q->err, "'split' 'tenants' wants 2 to %d tenants",
				     GP_WHATIF_MAX_TENANTS);
	x->tenants = gp_xcalloc(tl->n, sizeof(int));
	for (i = 0; i < tl->n; i++) {
		const char *name;

		if (gp_yaml_str(Q->doc, tl->items[i], "a tenant", &name, Q->err) ||
		    tenant_of(Q, tl->items[i], "'split'", name, &x->tenants[i]))
			return GP_EINPUT;
		for (k = 0; k < i; k++)
			if (x->tenants[k] == x->tenants[i])
				return gp_yaml_error(Q->doc, tl->items[i], Q->err,
						     "'split': tenant '%s' is listed twice", name);
		x->ntenants = i + 1;
	}
	return split_rows(Q, n, x, total, step, min);
}

/* A (tenant, quota key) or a tenant's weight set by two axes. */
static int check_twice(qload *Q, const gp_yaml_node *at, const gp_whatif_taxis *x)
{
	size_t i, a, b;
	const gp_whatif_spec *s = Q->s;

	for (i = 0; i + 1 < s->ntaxes; i++) {
		const gp_whatif_taxis *y = &s->taxes[i];

		if ((y->kind == GP_WT_WEIGHT) != (x->kind == GP_WT_WEIGHT) || y->res != x->res)
			continue;
		for (a = 0; a < x->ntenants; a++)
			for (b = 0; b < y->ntenants; b++)
				if (x->tenants[a] == y->tenants[b])
					return gp_yaml_error(Q->doc, at, Q->err,
							     "'%s' sets what '%s' sets already "
							     "(tenant '%s')", x->name, y->name,
							     s->tenants.t[x->tenants[a]].name);
	}
	return GP_OK;
}

static int load_axis(qload *Q, const gp_yaml_node *key, const gp_yaml_node *n)
{
	gp_whatif_spec *s = Q->s;
	gp_whatif_taxis *x;
	const char *k = key->scalar;
	int t;

	if (s->ntaxes == GP_WHATIF_MAX_TENANTS)
		return gp_yaml_error(Q->doc, key, Q->err, "more than %d axes over tenants",
				     GP_WHATIF_MAX_TENANTS);
	s->taxes = gp_xrealloc(s->taxes, (s->ntaxes + 1) * sizeof(*s->taxes));
	x = &s->taxes[s->ntaxes++];
	memset(x, 0, sizeof(*x));
	x->name = gp_xstrdup(k);
	x->line = (int)key->line;
	x->col = (int)key->col;
	x->res = -1;
	if (!strcmp(k, "split")) {
		x->kind = GP_WT_SPLIT;
		if (load_split(Q, key, n, x))
			return GP_EINPUT;
	} else {
		char what[600];

		snprintf(what, sizeof(what), "'%s'", k);
		x->kind = !strncmp(k, "quota.", 6) ? GP_WT_QUOTA : GP_WT_WEIGHT;
		if (x->kind == GP_WT_QUOTA ? quota_target(Q, key, what, k + 6, &t, &x->res) :
					     tenant_of(Q, key, what, k + 7, &t))
			return GP_EINPUT;
		x->tenants = gp_xmalloc(sizeof(int));
		x->tenants[0] = t;
		x->ntenants = 1;
		if (axis_values(Q, n, x->kind == GP_WT_WEIGHT, x))
			return GP_EINPUT;
	}
	return check_twice(Q, key, x);
}

/* tenant_p90_wait: 1h, or {a: 30m, '*': 1h}. */
static int load_tslo(qload *Q, const gp_yaml_node *key, const gp_yaml_node *n)
{
	gp_whatif_spec *s = Q->s;
	size_t i, t;
	double v;

	for (i = 0; i < NSTATS; i++)
		if (!strcmp(key->scalar, slo_stats[i].key))
			s->tslo_metric = slo_stats[i].metric;
	s->tslo_line = (int)key->line;
	s->tslo_col = (int)key->col;
	s->tslo_on = 1;
	if (n->type == GP_YAML_SCALAR) {
		if (gp_parse_duration(n->scalar, "s", 0, 1e12, &v))
			return gp_yaml_error(Q->doc, n, Q->err,
					     "'%s': expected a time (seconds, or 90m, 1h, 2d)", key->scalar);
		for (t = 0; t < s->tenants.n; t++)
			s->tslo_bound[t] = v;
		return GP_OK;
	}
	if (gp_yaml_expect(Q->doc, n, GP_YAML_MAP, "a time or a map of tenants to times", Q->err))
		return GP_EINPUT;
	/* '*' first: the bound of every tenant not named */
	for (i = 0; i < n->n; i++)
		if (!strcmp(n->keys[i]->scalar, "*")) {
			if (gp_yaml_expect(Q->doc, n->items[i], GP_YAML_SCALAR, "a time", Q->err) ||
			    gp_parse_duration(n->items[i]->scalar, "s", 0, 1e12, &v))
				return gp_yaml_error(Q->doc, n->items[i], Q->err,
						     "'%s': expected a time (seconds, or 90m, 1h, 2d)",
						     key->scalar);
			for (t = 0; t < s->tenants.n; t++)
				s->tslo_bound[t] = v;
		}
	for (i = 0; i < n->n; i++) {
		char what[64];
		int ti;

		if (!strcmp(n->keys[i]->scalar, "*"))
			continue;
		snprintf(what, sizeof(what), "'%s'", key->scalar);
		if (tenant_of(Q, n->keys[i], what, n->keys[i]->scalar, &ti))
			return GP_EINPUT;
		if (n->items[i]->type != GP_YAML_SCALAR ||
		    gp_parse_duration(n->items[i]->scalar, "s", 0, 1e12, &v))
			return gp_yaml_error(Q->doc, n->items[i], Q->err,
					     "'%s': expected a time (seconds, or 90m, 1h, 2d)", key->scalar);
		s->tslo_bound[ti] = v;
	}
	return GP_OK;
}

/* The tenants the axes name: the spec's tenants file, else the cluster
 * file's tenants: section; at names the key that needs them. */
static int load_tenants(qload *Q, const gp_yaml_node *at)
{
	gp_whatif_spec *s = Q->s;
	size_t t;
	int st;

	/* Each listed cluster may have a tenants: section of its own; the
	 * axes would change only one of them. */
	if (!s->run.tenants && s->nclusters > 1)
		return gp_yaml_error(Q->doc, at, Q->err,
				     "'%s' names tenants and the spec lists %zu clusters: give "
				     "'tenants: FILE', the tenants every cluster shares",
				     at->scalar, s->nclusters);
	if (!s->run.tenants) {
		gp_yaml_doc cl;
		gp_error e = GP_ERROR_INIT;
		int has;

		gp_yaml_doc_init(&cl);
		has = gp_yaml_load(s->cluster, 1u << 30, 0, &cl, &e) == GP_OK && cl.root &&
		      gp_yaml_get(cl.root, "tenants");
		gp_yaml_doc_release(&cl);
		if (!has)
			return gp_yaml_error(Q->doc, at, Q->err,
					     "'%s' names tenants, but the spec has none: give "
					     "'tenants: FILE' (or a cluster file with a tenants: section)",
					     at->scalar);
	}
	Q->tpath = s->run.tenants ? s->run.tenants : s->cluster;
	if ((st = gp_tenants_load(Q->tpath, &s->tenants, Q->err)))
		return st;
	s->have_tenants = 1;
	if (s->tenants.n > GP_WHATIF_MAX_TENANTS)
		return gp_yaml_error(Q->doc, at, Q->err,
				     "'%s': %s has %zu tenants; a sweep over tenants handles at most %d",
				     at->scalar, Q->tpath, s->tenants.n, GP_WHATIF_MAX_TENANTS);
	s->tslo_bound = gp_xmalloc(s->tenants.n * sizeof(double));
	for (t = 0; t < s->tenants.n; t++)
		s->tslo_bound[t] = -1;
	return GP_OK;
}

int gp_whatif_quota_load(const gp_yaml_doc *doc, const gp_yaml_node *axes, const gp_yaml_node *slo,
			 gp_whatif_spec *s, gp_error *err)
{
	qload Q = { doc, s, err, NULL };
	const gp_yaml_node *first = NULL, *tslo = NULL;
	size_t i;
	int st;

	s->tslo_metric = GP_M_QD_P90;
	for (i = 0; axes && axes->type == GP_YAML_MAP && i < axes->n; i++)
		if (gp_whatif_quota_axis_key(axes->keys[i]->scalar) && !first)
			first = axes->keys[i];
	for (i = 0; slo && slo->type == GP_YAML_MAP && i < slo->n; i++)
		if (gp_whatif_quota_slo_key(slo->keys[i]->scalar)) {
			if (tslo)
				return gp_yaml_error(doc, slo->keys[i], err,
						     "'slo': one tenant statistic (%s is given already)",
						     tslo->scalar);
			tslo = slo->keys[i];
		}
	if (!first && !tslo)
		return GP_OK;
	if ((st = load_tenants(&Q, first ? first : tslo)))
		return st;
	for (i = 0; axes && i < axes->n; i++)
		if (gp_whatif_quota_axis_key(axes->keys[i]->scalar) &&
		    load_axis(&Q, axes->keys[i], axes->items[i]))
			return GP_EINPUT;
	if (tslo && load_tslo(&Q, tslo, gp_yaml_get(slo, tslo->scalar)))
		return GP_EINPUT;
	s->declared[GP_AX_TENANTS] = s->ntaxes > 0;
	return GP_OK;
}

size_t gp_whatif_quota_nvalues(const gp_whatif_spec *s)
{
	size_t i, n = 1;

	for (i = 0; i < s->ntaxes; i++) {
		if (n * s->taxes[i].n > GP_WHATIF_MAX_RUNS)
			return GP_WHATIF_MAX_RUNS + 1;
		n *= s->taxes[i].n;
	}
	return n;
}

/* ---- values and columns ---- */

/* Index of each axis' value in value v of the tenants axis. */
static void sub_values(const gp_whatif_spec *s, size_t v, size_t *sub)
{
	size_t i = s->ntaxes;

	while (i-- > 0) {
		sub[i] = v % s->taxes[i].n;
		v /= s->taxes[i].n;
	}
}

/* Column k: its axis and tenant (the split's column of one tenant). */
static const gp_whatif_taxis *column_of(const gp_whatif_spec *s, size_t k, size_t *ti)
{
	size_t i;

	for (i = 0; i < s->ntaxes; i++) {
		size_t nc = s->taxes[i].kind == GP_WT_SPLIT ? s->taxes[i].ntenants : 1;

		if (k < nc) {
			*ti = k;
			return &s->taxes[i];
		}
		k -= nc;
	}
	*ti = 0;
	return NULL;
}

size_t gp_whatif_quota_ncolumns(const gp_whatif_spec *s)
{
	size_t i, n = 0;

	for (i = 0; i < s->ntaxes; i++)
		n += s->taxes[i].kind == GP_WT_SPLIT ? s->taxes[i].ntenants : 1;
	return n;
}

const char *gp_whatif_quota_column(const gp_whatif_spec *s, size_t k, char *buf, size_t size)
{
	size_t ti;
	const gp_whatif_taxis *x = column_of(s, k, &ti);

	if (!x)
		snprintf(buf, size, "?");
	else if (x->kind != GP_WT_SPLIT)
		snprintf(buf, size, "%s", x->name);
	else if (!strcmp(s->tenants.res[x->res], "gpus"))
		snprintf(buf, size, "quota.%s", s->tenants.t[x->tenants[ti]].name);
	else
		snprintf(buf, size, "quota.%s.%s", s->tenants.t[x->tenants[ti]].name,
			 s->tenants.res[x->res]);
	return buf;
}

double gp_whatif_quota_column_value(const gp_whatif_spec *s, size_t k, size_t v)
{
	size_t sub[GP_WHATIF_MAX_TENANTS], i, ti;
	const gp_whatif_taxis *x = column_of(s, k, &ti);

	if (!x)
		return 0;
	sub_values(s, v, sub);
	i = (size_t)(x - s->taxes);
	return x->kind == GP_WT_SPLIT ? x->values[sub[i] * x->ntenants + ti] : x->values[sub[i]];
}

const char *gp_whatif_quota_value(const gp_whatif_spec *s, size_t v, char *buf, size_t size)
{
	size_t k, n = gp_whatif_quota_ncolumns(s), len = 0;
	char name[512];

	buf[0] = 0;
	if (n == 1) {
		snprintf(buf, size, "%.12g", gp_whatif_quota_column_value(s, 0, v));
		return buf;
	}
	for (k = 0; k < n && len < size; k++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s=%.12g", k ? " " : "",
					gp_whatif_quota_column(s, k, name, sizeof(name)),
					gp_whatif_quota_column_value(s, k, v));
	if (!n)
		snprintf(buf, size, "-");
	return buf;
}

void gp_whatif_quota_key(const gp_whatif_spec *s, size_t v, gp_sbuf *out)
{
	size_t k, n = gp_whatif_quota_ncolumns(s);
	char name[512];

	for (k = 0; k < n; k++)
		gp_sbuf_addf(out, ";%s=%.12g", gp_whatif_quota_column(s, k, name, sizeof(name)),
			     gp_whatif_quota_column_value(s, k, v));
}

/* The number after ";NAME=" in key; -1 when absent. */
static int key_number(const char *key, const char *name, double *out)
{
	size_t len = strlen(name);
	const char *p;
	char num[64], *end;

	for (p = strchr(key, ';'); p; p = strchr(p + 1, ';'))
		if (!strncmp(p + 1, name, len) && p[1 + len] == '=') {
			const char *v = p + 2 + len, *e = strchr(v, ';');

			snprintf(num, sizeof(num), "%.*s", e ? (int)(e - v) : (int)strlen(v), v);
			*out = strtod(num, &end);
			return end != num && !*end ? 0 : -1;
		}
	return -1;
}

long gp_whatif_quota_key_find(const gp_whatif_spec *s, const char *key)
{
	size_t i, j, t, k = 0, v = 0;
	char name[512];

	for (i = 0; i < s->ntaxes; i++) {
		const gp_whatif_taxis *x = &s->taxes[i];
		size_t nc = x->kind == GP_WT_SPLIT ? x->ntenants : 1;
		double got[GP_WHATIF_MAX_TENANTS];
		long found = -1;

		for (t = 0; t < nc; t++)
			if (key_number(key, gp_whatif_quota_column(s, k + t, name, sizeof(name)), &got[t]))
				return -1;
		for (j = 0; j < x->n && found < 0; j++) {
			for (t = 0; t < nc && x->values[j * nc + t] == got[t]; t++)
				;
			if (t == nc)
				found = (long)j;
		}
		if (found < 0)
			return -1;
		v = v * x->n + (size_t)found;
		k += nc;
	}
	return (long)v;
}

/* ---- runs ---- */

void gp_whatif_quota_apply(const gp_whatif_spec *s, size_t v, gp_tenants *t)
{
	size_t sub[GP_WHATIF_MAX_TENANTS], i, k;

	sub_values(s, v, sub);
	for (i = 0; i < s->ntaxes; i++) {
		const gp_whatif_taxis *x = &s->taxes[i];

		for (k = 0; k < x->ntenants; k++) {
			gp_tenant *te = &t->t[x->tenants[k]];
			double val = x->kind == GP_WT_SPLIT ? x->values[sub[i] * x->ntenants + k] :
							      x->values[sub[i]];

			if (x->kind == GP_WT_WEIGHT)
				te->weight = val;
			else
				te->nominal[x->res] = (int64_t)llround(val) * GP_MILLI;
		}
	}
}

int gp_whatif_quota_none(const gp_whatif_spec *s, size_t v, size_t t)
{
	gp_tenants c = s->tenants;
	int k, r = 0;

	if (t >= s->tenants.n)
		return 0;
	c.t = gp_xmalloc(c.n * sizeof(gp_tenant));
	memcpy(c.t, s->tenants.t, c.n * sizeof(gp_tenant));
	gp_whatif_quota_apply(s, v, &c);
	for (k = 0; k < c.nres && !c.t[t].nominal[k]; k++)
		;
	if (k == c.nres)
		r = c.t[t].cohort < 0 || c.t[t].borrow_limit == 0 ? 1 : 2;
	free(c.t);
	return r;
}

void gp_whatif_quota_figures(const gp_whatif_spec *s, const gp_joblist *jobs,
			     const gp_sim_result *res, gp_whatif_result *out)
{
	size_t t;

	for (t = 0; t < s->tenants.n && t < GP_WHATIF_MAX_TENANTS; t++) {
		gp_sim_summary sum;
		const gp_dist *d = &sum.queue_delay;

		if (!res->tenant_use || t >= res->ntenants) {
			out->tenant[t] = NAN;
			continue;
		}
		gp_sim_summarize_tenant(jobs, res, (int)t, &sum);
		if (!sum.total)
			out->tenant[t] = NAN;
		else if (!sum.completed)
			out->tenant[t] = INFINITY;
		else
			out->tenant[t] = s->tslo_metric == GP_M_QD_MEAN ? d->mean :
					 s->tslo_metric == GP_M_QD_P50 ? d->p50 :
					 s->tslo_metric == GP_M_QD_P99 ? d->p99 :
					 s->tslo_metric == GP_M_QD_MAX ? d->max : d->p90;
	}
}

/* ---- the tenant SLO ---- */

int gp_whatif_quota_worst(const gp_whatif_spec *s, const gp_whatif_result *r, double *ratio)
{
	size_t t;
	int worst = -1;

	*ratio = 0;
	if (!s->tslo_on || !r)
		return -1;
	for (t = 0; t < s->tenants.n && t < GP_WHATIF_MAX_TENANTS; t++) {
		double b = s->tslo_bound[t], v = r->tenant[t], q;

		if (b < 0 || isnan(v))
			continue;
		q = b > 0 ? v / b : v > 0 ? INFINITY : 0;
		if (worst < 0 || q > *ratio) {
			worst = (int)t;
			*ratio = q;
		}
	}
	return worst;
}

int gp_whatif_quota_meets(const gp_whatif_spec *s, const gp_whatif_result *r)
{
	size_t t;

	if (!s->tslo_on || !r)
		return -1;
	for (t = 0; t < s->tenants.n && t < GP_WHATIF_MAX_TENANTS; t++)
		if (s->tslo_bound[t] >= 0 && r->tenant[t] > s->tslo_bound[t])
			return 0;
	return 1;
}

const char *gp_whatif_quota_slo_text(const gp_whatif_spec *s, char *buf, size_t size)
{
	size_t t, len, bounded = 0, same = 1;
	double b0 = -1;
	char v[64];

	for (t = 0; t < s->tenants.n; t++)
		if (s->tslo_bound[t] >= 0) {
			if (bounded++ && s->tslo_bound[t] != b0)
				same = 0;
			b0 = s->tslo_bound[t];
		}
	if (bounded == s->tenants.n && same) {
		snprintf(buf, size, "every tenant's %s <= %s", gp_metrics[s->tslo_metric].path,
			 gp_report_duration_exact(v, sizeof(v), b0));
		return buf;
	}
	len = (size_t)snprintf(buf, size, "tenant %s <=", gp_metrics[s->tslo_metric].path);
	for (t = 0, bounded = 0; t < s->tenants.n && len < size; t++)
		if (s->tslo_bound[t] >= 0)
			len += (size_t)snprintf(buf + len, size - len, "%s %s %s", bounded++ ? "," : "",
						s->tenants.t[t].name,
						gp_report_duration_exact(v, sizeof(v), s->tslo_bound[t]));
	return buf;
}

const char *gp_whatif_quota_figure_column(const gp_whatif_spec *s, size_t t, char *buf,
					  size_t size)
{
	snprintf(buf, size, "tenant.%s.%s", s->tenants.t[t].name, gp_metrics[s->tslo_metric].column);
	return buf;
}
