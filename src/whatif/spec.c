/* The what-if spec loader and the grid of configurations (spec.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/io/yaml.h"
#include "gpuplan/model/memory.h"
#include "gpuplan/place/policy.h"
#include "gpuplan/sim/failsim.h"
#include "gpuplan/sim/sim.h"
#include "gpuplan/util/util.h"
#include "gpuplan/run/metrics.h"
#include "gpuplan/whatif/quota.h"
#include "gpuplan/whatif/spec.h"

const char *const gp_whatif_axis_names[GP_AX_COUNT] = {
	"trace", "add_nodes", "remove_nodes", "fabric", "queue", "policy", "mtbf_node", "recovery",
	"cluster", "tenants",
};

void gp_whatif_spec_init(gp_whatif_spec *s)
{
	memset(s, 0, sizeof(*s));
	gp_run_desc_init(&s->run);
	s->slo_metric = -1;
	s->fabric.subtree = 1;
}

static void free_strv(char **v, size_t n)
{
	size_t i;

	for (i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}

static void nodes_release(gp_whatif_nodes *n)
{
	free(n->type);
	free(n->sw);
	free(n->prefix);
	free(n->counts);
}

void gp_whatif_spec_release(gp_whatif_spec *s)
{
	size_t i;

	if (!s)
		return;
	free(s->path);
	free(s->cluster);
	free_strv(s->clusters, s->nclusters);
	free_strv(s->cluster_names, s->nclusters);
	free(s->cluster_hashes);
	free_strv(s->traces, s->ntraces);
	free_strv(s->trace_names, s->ntraces);
	free(s->trace_hash);
	free(s->format);
	free_strv(s->queues, s->nqueues);
	free_strv(s->policies, s->npolicies);
	free(s->seeds);
	free((char *)s->run.scale_ref);
	free((char *)s->run.scale_model);
	free((char *)s->run.fail.csv);
	free((char *)s->run.fail.model);
	free((char *)s->run.tenants);
	free((char *)s->run.default_tenant);
	free((char *)s->run.qos.models_dir);
	nodes_release(&s->add);
	nodes_release(&s->remove);
	free(s->fabric.sw);
	free(s->fabric.techs);
	free(s->mtbf_node);
	free(s->recoveries);
	for (i = 0; i < s->ncosts; i++)
		free(s->costs[i].key);
	free(s->costs);
	gp_whatif_quota_release(s);
	gp_whatif_spec_init(s);
}

/* ---- loading ---- */

typedef struct loader {
	gp_yaml_doc doc;
	gp_whatif_spec *s;
	gp_error *err;
} loader;

static int is_null(const gp_yaml_node *n)
{
	return n && n->type == GP_YAML_SCALAR && !n->quoted &&
	       (!strcmp(n->scalar, "") || !strcmp(n->scalar, "~") || !strcmp(n->scalar, "null"));
}

/* n is a list of 1 to GP_WHATIF_MAX_VALUES items. */
static int check_list(loader *L, const gp_yaml_node *n, const char *what)
{
	if (gp_yaml_expect(&L->doc, n, GP_YAML_SEQ, what, L->err))
		return GP_EINPUT;
	if (n->n == 0)
		return gp_yaml_error(&L->doc, n, L->err, "%s: the list is empty", what);
	if (n->n > GP_WHATIF_MAX_VALUES)
		return gp_yaml_error(&L->doc, n, L->err, "%s: more than %d values", what,
				     GP_WHATIF_MAX_VALUES);
	return GP_OK;
}

/* A scalar or a list of scalars into a string vector; *axis set when a
 * list was given. */
static int str_list(loader *L, const gp_yaml_node *n, const char *what, char ***out,
		    size_t *nout, int *axis)
{
	size_t i;
	const char *v;

	if (n->type == GP_YAML_SCALAR) {
		if (gp_yaml_str(&L->doc, n, what, &v, L->err))
			return GP_EINPUT;
		if (!*v)
			return gp_yaml_error(&L->doc, n, L->err, "%s is empty", what);
		*out = gp_xcalloc(1, sizeof(char *));
		(*out)[0] = gp_xstrdup(v);
		*nout = 1;
		return GP_OK;
	}
	if (check_list(L, n, what))
		return GP_EINPUT;
	*out = gp_xcalloc(n->n, sizeof(char *));
	for (i = 0; i < n->n; i++) {
		size_t k;

		if (gp_yaml_str(&L->doc, n->items[i], what, &v, L->err))
			return GP_EINPUT;
		for (k = 0; k < i; k++)
			if (!strcmp((*out)[k], v))
				return gp_yaml_error(&L->doc, n->items[i], L->err,
						     "%s: '%s' is listed twice", what, v);
		(*out)[i] = gp_xstrdup(v);
		*nout = i + 1;
	}
	*axis = 1;
	return GP_OK;
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

/* counts: [0, 8, 16] or "0..32" or "0..32/4" (every 4th). */
static int counts_of(loader *L, const gp_yaml_node *n, const char *what, gp_whatif_nodes *out)
{
	size_t i;
	long v;

	if (n->type == GP_YAML_SCALAR) {
		const char *t = n->scalar, *dots = strstr(t, "..");
		char a[32], b[32];
		long lo, hi, step = 1;
		const char *slash;

		if (!dots) {
			if (gp_yaml_long(&L->doc, n, what, 0, 100000, &v, L->err))
				return GP_EINPUT;
			out->counts = gp_xmalloc(sizeof(long));
			out->counts[0] = v;
			out->n = 1;
			return GP_OK;
		}
		slash = strchr(dots, '/');
		snprintf(a, sizeof(a), "%.*s", (int)(dots - t), t);
		snprintf(b, sizeof(b), "%.*s", (int)(slash ? slash - dots - 2 : (long)strlen(dots + 2)),
			 dots + 2);
		if (gp_parse_long(a, 0, 100000, &lo) || gp_parse_long(b, 0, 100000, &hi) ||
		    (slash && gp_parse_long(slash + 1, 1, 100000, &step)) || hi < lo)
			return gp_yaml_error(&L->doc, n, L->err,
					     "%s: expected a list of counts, a count or a range "
					     "'FROM..TO' or 'FROM..TO/STEP' (0 <= FROM <= TO <= 100000), got '%.40s'",
					     what, t);
		if ((hi - lo) / step + 1 > GP_WHATIF_MAX_VALUES)
			return gp_yaml_error(&L->doc, n, L->err, "%s: more than %d values", what,
					     GP_WHATIF_MAX_VALUES);
		out->counts = gp_xmalloc((size_t)((hi - lo) / step + 1) * sizeof(long));
		for (v = lo; v <= hi; v += step)
			out->counts[out->n++] = v;
		return GP_OK;
	}
	if (check_list(L, n, what))
		return GP_EINPUT;
	out->counts = gp_xmalloc(n->n * sizeof(long));
	for (i = 0; i < n->n; i++) {
		if (gp_yaml_long(&L->doc, n->items[i], what, 0, 100000, &v, L->err))
			return GP_EINPUT;
		out->counts[out->n++] = v;
	}
	qsort(out->counts, out->n, sizeof(long), cmp_long);
	for (i = 1; i < out->n; i++)
		if (out->counts[i] == out->counts[i - 1])
			return gp_yaml_error(&L->doc, n, L->err, "%s: %ld is listed twice", what,
					     out->counts[i]);
	return GP_OK;
}

static int opt_str(loader *L, const gp_yaml_node *map, const char *key, const char *what,
		   char **out)
{
	const gp_yaml_node *x = gp_yaml_get(map, key);
	const char *v;

	if (!x || is_null(x))
		return GP_OK;
	if (gp_yaml_str(&L->doc, x, what, &v, L->err))
		return GP_EINPUT;
	if (!*v)
		return gp_yaml_error(&L->doc, x, L->err, "%s is empty", what);
	*out = gp_xstrdup(v);
	return GP_OK;
}

/* A top-level key that is one of two words: *out = 1 for the second. */
static int opt_choice(loader *L, const char *key, const char *a, const char *b, int *out)
{
	const gp_yaml_node *x = gp_yaml_get(L->doc.root, key);
	const char *v;

	if (!x)
		return GP_OK;
	if (gp_yaml_str(&L->doc, x, key, &v, L->err))
		return GP_EINPUT;
	if (strcmp(v, a) && strcmp(v, b))
		return gp_yaml_error(&L->doc, x, L->err, "'%s' is %s or %s, not '%.40s'", key, a, b, v);
	*out = !strcmp(v, b);
	return GP_OK;
}

static const char *const nodes_keys[] = { "type", "switch", "name", "counts", NULL };

static int load_nodes_axis(loader *L, const gp_yaml_node *n, int add, gp_whatif_nodes *out)
{
	const char *what = add ? "'add_nodes'" : "'remove_nodes'";
	const gp_yaml_node *x;

	if (gp_yaml_check_keys(&L->doc, n, what, nodes_keys, L->err))
		return GP_EINPUT;
	out->line = n->line;
	out->col = n->col;
	x = gp_yaml_get(n, "type");
	if (!x)
		return gp_yaml_error(&L->doc, n, L->err, "%s needs 'type' (a node type of the cluster)",
				     what);
	if (opt_str(L, n, "type", "'type'", &out->type) || opt_str(L, n, "switch", "'switch'", &out->sw))
		return GP_EINPUT;
	if (!add && gp_yaml_get(n, "name"))
		return gp_yaml_error(&L->doc, gp_yaml_get(n, "name"), L->err,
				     "'remove_nodes' takes no 'name' (it removes the last nodes of the type)");
	if (opt_str(L, n, "name", "'name'", &out->prefix))
		return GP_EINPUT;
	x = gp_yaml_get(n, "counts");
	if (!x)
		return gp_yaml_error(&L->doc, n, L->err, "%s needs 'counts' (a list or FROM..TO)", what);
	return counts_of(L, x, add ? "'add_nodes' 'counts'" : "'remove_nodes' 'counts'", out);
}

static const char *const fabric_keys[] = { "switch", "techs", "subtree", NULL };

static int load_fabric_axis(loader *L, const gp_yaml_node *n)
{
	gp_whatif_fabric *f = &L->s->fabric;
	const gp_yaml_node *x;
	char **names = NULL;
	size_t nn = 0, i;
	int axis = 0, st = GP_OK;

	if (gp_yaml_check_keys(&L->doc, n, "'fabric'", fabric_keys, L->err))
		return GP_EINPUT;
	f->line = n->line;
	f->col = n->col;
	if (!gp_yaml_get(n, "switch"))
		return gp_yaml_error(&L->doc, n, L->err, "'fabric' needs 'switch' (a switch of the cluster)");
	if (opt_str(L, n, "switch", "'fabric' 'switch'", &f->sw))
		return GP_EINPUT;
	x = gp_yaml_get(n, "subtree");
	if (x && gp_yaml_bool(&L->doc, x, "'fabric' 'subtree'", &f->subtree, L->err))
		return GP_EINPUT;
	x = gp_yaml_get(n, "techs");
	if (!x)
		return gp_yaml_error(&L->doc, n, L->err, "'fabric' needs 'techs' (a list such as [eth-10, ib-hdr])");
	if (str_list(L, x, "'fabric' 'techs'", &names, &nn, &axis))
		st = GP_EINPUT;
	if (st == GP_OK)
		f->techs = gp_xcalloc(nn, sizeof(int));
	for (i = 0; i < nn && st == GP_OK; i++) {
		int t = gp_fabric_tech_parse(names[i]);

		if (t <= 0)
			st = gp_yaml_error(&L->doc, x->type == GP_YAML_SEQ ? x->items[i] : x, L->err,
					   "'fabric': unknown tech '%.40s' (ib-edr, ib-hdr, ib-ndr, "
					   "roce-100, eth-10, eth-25, eth-100, ...)", names[i]);
		else
			f->techs[f->n++] = t;
	}
	free_strv(names, nn);
	return st;
}

static int load_seeds(loader *L, const gp_yaml_node *n)
{
	gp_whatif_spec *s = L->s;
	size_t i, k;
	long v;

	if (n->type == GP_YAML_SCALAR) {
		if (gp_yaml_long(&L->doc, n, "'seeds' (a count N for seeds 1..N, or a list)", 1,
				 GP_WHATIF_MAX_SEEDS, &v, L->err))
			return GP_EINPUT;
		s->seeds = gp_xmalloc((size_t)v * sizeof(*s->seeds));
		for (s->nseeds = 0; s->nseeds < (size_t)v; s->nseeds++)
			s->seeds[s->nseeds] = s->nseeds + 1;
		return GP_OK;
	}
	if (gp_yaml_expect(&L->doc, n, GP_YAML_SEQ, "'seeds'", L->err))
		return GP_EINPUT;
	if (n->n == 0 || n->n > GP_WHATIF_MAX_SEEDS)
		return gp_yaml_error(&L->doc, n, L->err, "'seeds' wants 1 to %d seeds",
				     GP_WHATIF_MAX_SEEDS);
	s->seeds = gp_xmalloc(n->n * sizeof(*s->seeds));
	for (i = 0; i < n->n; i++) {
		if (gp_yaml_long(&L->doc, n->items[i], "a seed", 0, 2147483647L, &v, L->err))
			return GP_EINPUT;
		for (k = 0; k < i; k++)
			if (s->seeds[k] == (uint64_t)v)
				return gp_yaml_error(&L->doc, n->items[i], L->err,
						     "seed %ld is listed twice", v);
		s->seeds[s->nseeds++] = (uint64_t)v;
	}
	return GP_OK;
}

static const char *const slo_keys[] = {
	"metric", "max", "min", "tenant_mean_wait", "tenant_p50_wait", "tenant_p90_wait",
	"tenant_p99_wait", "tenant_max_wait", NULL
};

static int load_slo(loader *L, const gp_yaml_node *n)
{
	gp_whatif_spec *s = L->s;
	const gp_yaml_node *m, *mx, *mn;
	const char *name;
	size_t i;

	if (gp_yaml_check_keys(&L->doc, n, "'slo'", slo_keys, L->err))
		return GP_EINPUT;
	m = gp_yaml_get(n, "metric");
	/* a tenant SLO alone (quota.h loads it) */
	for (i = 0; !m && !gp_yaml_get(n, "max") && !gp_yaml_get(n, "min") && i < n->n; i++)
		if (gp_whatif_quota_slo_key(n->keys[i]->scalar))
			return GP_OK;
	if (!m)
		return gp_yaml_error(&L->doc, n, L->err, "'slo' needs 'metric' (e.g. queue_delay.p90)");
	if (gp_yaml_str(&L->doc, m, "'slo' 'metric'", &name, L->err))
		return GP_EINPUT;
	s->slo_metric = gp_metric_find(name);
	if (s->slo_metric < 0)
		return gp_yaml_error(&L->doc, m, L->err, "'slo': unknown metric '%.60s' (one of %s)",
				     name, gp_metric_names());
	mx = gp_yaml_get(n, "max");
	mn = gp_yaml_get(n, "min");
	if (!!mx == !!mn)
		return gp_yaml_error(&L->doc, n, L->err,
				     "'slo' needs exactly one of 'max' (metric <= bound) and 'min' (metric >= bound)");
	s->slo_max = mx != NULL;
	/* Durations may carry a unit: 3600, 1h, 60m. */
	if ((mx ? mx : mn)->type == GP_YAML_SCALAR) {
		const char *t = (mx ? mx : mn)->scalar;
		size_t len = strlen(t);
		double mult = 1, v;
		char num[64];

		if (len && gp_metrics[s->slo_metric].kind == GP_MK_SECONDS &&
		    strchr("smhd", t[len - 1])) {
			mult = t[len - 1] == 's' ? 1 : t[len - 1] == 'm' ? 60 : t[len - 1] == 'h' ? 3600 : 86400;
			len--;
		} else if (len && gp_metrics[s->slo_metric].kind == GP_MK_RATIO && t[len - 1] == '%') {
			mult = 0.01;
			len--;
		}
		snprintf(num, sizeof(num), "%.*s", (int)len, t);
		/* every metric is a count, a time, a share or a factor: never
		 * below 0, a share never above 1 (a negative bound met nothing
		 * and printed as "<= -3600.0s") */
		if (len < sizeof(num) &&
		    gp_parse_double(num, 0, gp_metrics[s->slo_metric].kind == GP_MK_RATIO ? 1 / mult : 1e15,
				    &v) == 0) {
			s->slo_bound = v * mult;
			return GP_OK;
		}
	}
	{
		const gp_yaml_node *b = mx ? mx : mn;
		int scalar = b->type == GP_YAML_SCALAR;

		return gp_yaml_error(&L->doc, b, L->err, "'slo' bound: expected a number%s%s%.60s%s",
				     gp_metrics[s->slo_metric].kind == GP_MK_SECONDS ?
				     " of seconds >= 0, or with a unit: 90m, 1h, 2d" :
				     gp_metrics[s->slo_metric].kind == GP_MK_RATIO ?
				     " in 0..1, or a percentage: 80%" : " >= 0",
				     scalar ? ", not '" : "", scalar ? b->scalar : "", scalar ? "'" : "");
	}
}

static int load_cost(loader *L, const gp_yaml_node *n)
{
	gp_whatif_spec *s = L->s;
	size_t i;

	if (gp_yaml_expect(&L->doc, n, GP_YAML_MAP, "'cost' (node type or tech: cost per node)", L->err))
		return GP_EINPUT;
	s->costs = gp_xcalloc(n->n ? n->n : 1, sizeof(*s->costs));
	for (i = 0; i < n->n; i++) {
		double v;

		if (gp_yaml_double(&L->doc, n->items[i], "a cost per node", 0, 1e15, &v, L->err))
			return GP_EINPUT;
		s->costs[i].key = gp_xstrdup(n->keys[i]->scalar);
		s->costs[i].per_node = v;
		s->ncosts = i + 1;
	}
	return GP_OK;
}

static const char *const scale_keys[] = { "ref", "model", NULL };

static int load_scale(loader *L, const gp_yaml_node *n)
{
	gp_whatif_spec *s = L->s;
	char *ref = NULL, *model = NULL;

	if (n->type == GP_YAML_SCALAR) {
		const char *v;

		if (gp_yaml_str(&L->doc, n, "'scale_durations'", &v, L->err))
			return GP_EINPUT;
		s->run.scale_ref = gp_xstrdup(v);
		return GP_OK;
	}
	if (gp_yaml_check_keys(&L->doc, n, "'scale_durations'", scale_keys, L->err))
		return GP_EINPUT;
	if (!gp_yaml_get(n, "ref"))
		return gp_yaml_error(&L->doc, n, L->err,
				     "'scale_durations' needs 'ref' (GPU model or node type, ':tech' optional)");
	if (opt_str(L, n, "ref", "'scale_durations' 'ref'", &ref) ||
	    opt_str(L, n, "model", "'scale_durations' 'model'", &model)) {
		free(ref);
		free(model);
		return GP_EINPUT;
	}
	s->run.scale_ref = ref;
	s->run.scale_model = model;
	return GP_OK;
}

static const char *const top_keys[] = {
	"name", "description", "cluster", "trace", "format", "limit", "start", "end",
	"skip_bad", "queue", "policy", "seeds", "backfill_depth", "backfill", "sched_interval",
	"bf_interval",
	"scale_durations",
	"mtbf_node", "recovery", "mtbf_gpu", "weibull_shape", "repair", "restart_cost",
	"preempt", "preempt_cost", "checkpoint_interval", "checkpoint_cost", "axes", "slo", "cost",
	"las_thresholds", "las_starvation", "las_preempted", "las_demoted", "tenants", "default_tenant", "reclaim", "tenant_column",
	"within_quota",
	"fairshare_halflife", "priority_interval", "priority_weights",
	"heartbeat_period", "heartbeat_misses", "failures",
	"failure_model", "failure_seed", "failure_start", "memory_margin", "qos", "scenario", NULL
};
static const char *const axes_keys[] = {
	"trace", "add_nodes", "remove_nodes", "fabric", "queue", "policy", "mtbf_node", "recovery",
	"cluster", NULL
};

/* The axes' keys: those above and the tenant axes (quota.h). */
static int check_axes_keys(loader *L, const gp_yaml_node *axes)
{
	const char **allowed = gp_xcalloc(GP_ARRAY_SIZE(axes_keys) + axes->n, sizeof(char *));
	size_t i, n = 0;
	int st;

	for (i = 0; axes_keys[i]; i++)
		allowed[n++] = axes_keys[i];
	for (i = 0; i < axes->n; i++)
		if (gp_whatif_quota_axis_key(axes->keys[i]->scalar))
			allowed[n++] = axes->keys[i]->scalar;
	allowed[n] = NULL;
	st = gp_yaml_check_keys(&L->doc, axes, "'axes'", allowed, L->err);
	free(allowed);
	return st;
}

/* A key given both at the top level and under axes. */
static const gp_yaml_node *either(loader *L, const gp_yaml_node *root, const gp_yaml_node *axes,
				  const char *key, int *bad)
{
	const gp_yaml_node *a = gp_yaml_get(root, key), *b = axes ? gp_yaml_get(axes, key) : NULL;

	if (a && b) {
		gp_yaml_error(&L->doc, b, L->err, "'%s' is given twice (at the top and under 'axes')", key);
		*bad = 1;
		return NULL;
	}
	return a ? a : b;
}

/* The root map and its 'axes' map (NULL when absent or null). */
static int root_and_axes(loader *L, const gp_yaml_node **axes)
{
	const gp_yaml_node *root = L->doc.root;

	if (!root)
		return gp_error_set(L->err, GP_EINPUT, L->s->path, 1, 1,
				    "empty spec (expected 'cluster', 'trace' and 'axes')");
	if (gp_yaml_expect(&L->doc, root, GP_YAML_MAP, "a what-if spec", L->err) ||
	    gp_yaml_check_keys(&L->doc, root, "the what-if spec", top_keys, L->err))
		return GP_EINPUT;
	*axes = gp_yaml_get(root, "axes");
	if (*axes && is_null(*axes))
		*axes = NULL;
	if (*axes && gp_yaml_expect(&L->doc, *axes, GP_YAML_MAP, "'axes'", L->err))
		return GP_EINPUT;
	return *axes ? check_axes_keys(L, *axes) : GP_OK;
}

/* The base cluster: a cluster YAML, or a list of them (an axis: each
 * configuration runs on one, with the node and fabric axes applied to
 * it), at the top or under 'axes'. */
static int load_clusters(loader *L, const gp_yaml_node *axes)
{
	gp_whatif_spec *s = L->s;
	const gp_yaml_node *x;
	size_t i;
	int bad = 0;

	x = either(L, L->doc.root, axes, "cluster", &bad);
	if (bad)
		return GP_EINPUT;
	if (!x)
		return gp_yaml_error(&L->doc, L->doc.root, L->err,
				     "the spec needs 'cluster' (a cluster YAML or a list)");
	if (str_list(L, x, "'cluster'", &s->cluster_names, &s->nclusters,
		     &s->declared[GP_AX_CLUSTER]))
		return GP_EINPUT;
	s->clusters = gp_xcalloc(s->nclusters, sizeof(char *));
	for (i = 0; i < s->nclusters; i++)
		s->clusters[i] = gp_path_relative_to(s->path, s->cluster_names[i]);
	s->cluster = gp_xstrdup(s->clusters[0]);
	return GP_OK;
}

/* The cluster, the traces (an axis) and how they are read. */
static int load_inputs(loader *L, const gp_yaml_node *axes)
{
	gp_whatif_spec *s = L->s;
	const gp_yaml_node *root = L->doc.root, *x;
	const char *v;
	size_t i;
	int bad = 0;
	long l;
	double d;

	if (load_clusters(L, axes))
		return GP_EINPUT;

	x = either(L, root, axes, "trace", &bad);
	if (bad)
		return GP_EINPUT;
	if (!x)
		return gp_yaml_error(&L->doc, root, L->err, "the spec needs 'trace' (a trace file or a list)");
	if (str_list(L, x, "'trace'", &s->trace_names, &s->ntraces, &s->declared[GP_AX_TRACE]))
		return GP_EINPUT;
	s->traces = gp_xcalloc(s->ntraces, sizeof(char *));
	for (i = 0; i < s->ntraces; i++)
		s->traces[i] = gp_path_relative_to(s->path, s->trace_names[i]);
	if (opt_str(L, root, "format", "'format'", &s->format))
		return GP_EINPUT;
	s->run.topts.format = s->format;
	if ((x = gp_yaml_get(root, "limit"))) {
		if (gp_yaml_long(&L->doc, x, "'limit'", 1, 100000000L, &l, L->err))
			return GP_EINPUT;
		s->run.topts.limit = (size_t)l;
	}
	if ((x = gp_yaml_get(root, "start"))) {
		if (gp_yaml_double(&L->doc, x, "'start' (seconds from trace start)", 0, 1e12, &d, L->err))
			return GP_EINPUT;
		s->run.topts.start = d;
	}
	if ((x = gp_yaml_get(root, "end"))) {
		if (gp_yaml_double(&L->doc, x, "'end' (seconds from trace start)", 0, 1e12, &d, L->err))
			return GP_EINPUT;
		s->run.topts.end = d;
	}
	if ((x = gp_yaml_get(root, "skip_bad")) &&
	    gp_yaml_bool(&L->doc, x, "'skip_bad'", &s->run.topts.skip_bad, L->err))
		return GP_EINPUT;
	if ((x = gp_yaml_get(root, "backfill_depth"))) {
		if (gp_yaml_long(&L->doc, x, "'backfill_depth'", 0, 100000000L, &l, L->err))
			return GP_EINPUT;
		s->run.backfill_depth = (size_t)l;
	}
	if ((x = gp_yaml_get(root, "backfill"))) {
		if (gp_yaml_str(&L->doc, x, "'backfill'", &v, L->err))
			return GP_EINPUT;
		if ((s->run.backfill_mode = gp_sim_backfill_parse(v)) < 0)
			return gp_yaml_error(&L->doc, x, L->err, "unknown backfill '%s' (easy, slurm)", v);
	}
	if ((x = gp_yaml_get(root, "bf_interval")) &&
	    gp_yaml_double(&L->doc, x, "'bf_interval' (seconds between backfill cycles)", 0, 1e12,
			   &s->run.bf_interval, L->err))
		return GP_EINPUT;
	if ((x = gp_yaml_get(root, "sched_interval")) &&
	    gp_yaml_double(&L->doc, x, "'sched_interval' (seconds between scheduling passes)", 0, 1e12,
			   &s->run.sched_interval, L->err))
		return GP_EINPUT;
	return GP_OK;
}

static int queue_known(const char *name)
{
	return gp_sim_queue_parse(name) >= 0;
}

static int policy_known(const char *name)
{
	return gp_policy_find(name) != NULL;
}

static int recovery_known(const char *name)
{
	return gp_recovery_parse(name) >= 0;
}

/* An axis of names (queue, policy, recovery): one name or a list, at the
 * top or under 'axes'; each name must be known; one default when absent. */
typedef struct name_axis {
	const char *key;
	int ax;                         /* GP_AX_* */
	int (*known)(const char *name);
	const char *hint;               /* after "unknown KEY 'NAME'" */
	const char *dflt;
} name_axis;

static const name_axis queue_axis = {
	"queue", GP_AX_QUEUE, queue_known, " (fifo, sjf, backfill, priority, las, fifo-skip, fairshare, dominant-share)", "fifo"
};
static const name_axis policy_axis = { "policy", GP_AX_POLICY, policy_known, "", "bestfit" };
static const name_axis recovery_axis = {
	"recovery", GP_AX_RECOVERY, recovery_known, " (restart, replace, shrink, fail)", "restart"
};

static int load_names(loader *L, const gp_yaml_node *axes, const name_axis *a, char ***out,
		      size_t *n)
{
	const gp_yaml_node *x;
	char what[32];
	size_t i;
	int bad = 0;

	x = either(L, L->doc.root, axes, a->key, &bad);
	if (bad)
		return GP_EINPUT;
	if (!x) {
		*out = gp_xcalloc(1, sizeof(char *));
		(*out)[0] = gp_xstrdup(a->dflt);
		*n = 1;
		return GP_OK;
	}
	snprintf(what, sizeof(what), "'%s'", a->key);
	if (str_list(L, x, what, out, n, &L->s->declared[a->ax]))
		return GP_EINPUT;
	for (i = 0; i < *n; i++)
		if (!a->known((*out)[i]))
			return gp_yaml_error(&L->doc, x->type == GP_YAML_SEQ ? x->items[i] : x, L->err,
					     "unknown %s '%.40s'%s", a->key, (*out)[i], a->hint);
	return GP_OK;
}

/* The recovery axis, as recovery kinds. */
static int load_recoveries(loader *L, const gp_yaml_node *axes)
{
	gp_whatif_spec *s = L->s;
	char **names = NULL;
	size_t i, nn = 0;
	int st = load_names(L, axes, &recovery_axis, &names, &nn);

	if (st == GP_OK) {
		s->recoveries = gp_xmalloc(nn * sizeof(int));
		for (i = 0; i < nn; i++)
			s->recoveries[i] = gp_recovery_parse(names[i]);
		s->nrecoveries = nn;
	}
	free_strv(names, nn);
	return st;
}

/* The node MTBF axis: hours (0 = no failures), one or a list; 0 when
 * absent. */
static int load_mtbf(loader *L, const gp_yaml_node *axes)
{
	gp_whatif_spec *s = L->s;
	const gp_yaml_node *x;
	size_t i;
	int bad = 0;

	x = either(L, L->doc.root, axes, "mtbf_node", &bad);
	if (bad)
		return GP_EINPUT;
	if (!x) {
		s->mtbf_node = gp_xcalloc(1, sizeof(double));
		s->nmtbf = 1;
		return GP_OK;
	}
	if (x->type != GP_YAML_SEQ) {
		s->mtbf_node = gp_xmalloc(sizeof(double));
		if (gp_yaml_double(&L->doc, x, "'mtbf_node' (hours, 0 = no failures)", 0, 1e9,
				   &s->mtbf_node[0], L->err))
			return GP_EINPUT;
		s->nmtbf = 1;
		return GP_OK;
	}
	if (x->n == 0 || x->n > GP_WHATIF_MAX_VALUES)
		return gp_yaml_error(&L->doc, x, L->err, "'mtbf_node' wants 1 to %d values",
				     GP_WHATIF_MAX_VALUES);
	s->declared[GP_AX_MTBF] = 1;
	s->mtbf_node = gp_xmalloc(x->n * sizeof(double));
	for (i = 0; i < x->n; i++) {
		if (gp_yaml_double(&L->doc, x->items[i], "'mtbf_node' (hours, 0 = no failures)",
				   0, 1e9, &s->mtbf_node[i], L->err))
			return GP_EINPUT;
		s->nmtbf = i + 1;
	}
	return GP_OK;
}

/* The failure, repair and preemption settings that are no axis. */
static int load_failure_opts(loader *L)
{
	gp_whatif_spec *s = L->s;
	const gp_yaml_node *root = L->doc.root, *x;
	const char *v;

	if ((x = gp_yaml_get(root, "mtbf_gpu")) &&
	    gp_yaml_double(&L->doc, x, "'mtbf_gpu' (hours, 0 = none)", 0, 1e9, &s->run.fail.mtbf_gpu, L->err))
		return GP_EINPUT;
	if ((x = gp_yaml_get(root, "weibull_shape"))) {
		if (gp_yaml_double(&L->doc, x, "'weibull_shape'", 0.01, 100, &s->run.fail.shape, L->err))
			return GP_EINPUT;
		s->run.fail.shape_set = 1;
	}
	if ((x = gp_yaml_get(root, "repair"))) {
		if (x->type == GP_YAML_SCALAR && !strcmp(x->scalar, "never"))
			s->run.fail.repair = -1;
		else if (gp_yaml_double(&L->doc, x, "'repair' (mean hours, or never)", 0, 1e9,
					&s->run.fail.repair, L->err))
			return GP_EINPUT;
	}
	if ((x = gp_yaml_get(root, "preempt"))) {
		if (gp_yaml_str(&L->doc, x, "'preempt'", &v, L->err))
			return GP_EINPUT;
		s->run.preempt = gp_sim_preempt_parse(v);
		if (s->run.preempt < 0)
			return gp_yaml_error(&L->doc, x, L->err, "unknown preempt '%.40s' (off, class, priority)",
					     v);
	}
	if ((x = gp_yaml_get(root, "preempt_cost")) &&
	    gp_yaml_double(&L->doc, x, "'preempt_cost' (seconds)", 0, 1e12, &s->run.preempt_cost, L->err))
		return GP_EINPUT;
	if ((x = gp_yaml_get(root, "checkpoint_interval")) &&
	    gp_yaml_double(&L->doc, x, "'checkpoint_interval' (seconds)", 0, 1e12,
			   &s->run.checkpoint_interval, L->err))
		return GP_EINPUT;
	if ((x = gp_yaml_get(root, "checkpoint_cost")) &&
	    gp_yaml_double(&L->doc, x, "'checkpoint_cost' (seconds)", 0, 1e12, &s->run.checkpoint_cost,
			   L->err))
		return GP_EINPUT;
	if ((x = gp_yaml_get(root, "restart_cost")) &&
	    gp_yaml_double(&L->doc, x, "'restart_cost' (seconds)", 0, 1e9, &s->run.fail.restart_cost, L->err))
		return GP_EINPUT;
	return GP_OK;
}

/* A path key, resolved against the spec's folder, into *out (owned). */
static int opt_path(loader *L, const gp_yaml_node *map, const char *key, const char *what,
		    const char **out)
{
	char *v = NULL;

	if (opt_str(L, map, key, what, &v))
		return GP_EINPUT;
	if (v) {
		*out = gp_path_relative_to(L->s->path, v);
		free(v);
	}
	return GP_OK;
}

static int load_las(loader *L)
{
	gp_run_desc *d = &L->s->run;
	const gp_yaml_node *x;
	size_t i;

	if ((x = gp_yaml_get(L->doc.root, "las_thresholds"))) {
		if (x->type != GP_YAML_SEQ || x->n == 0 || x->n > GP_SIM_LAS_MAX_QUEUES - 1)
			return gp_yaml_error(&L->doc, x, L->err, "'las_thresholds' wants a list of 1 to %d "
					     "ascending GPU-seconds > 0", GP_SIM_LAS_MAX_QUEUES - 1);
		for (i = 0; i < x->n; i++) {
			if (gp_yaml_double(&L->doc, x->items[i], "'las_thresholds' (GPU-seconds)", 1e-9,
					   1e15, &d->las_thresholds[i], L->err))
				return GP_EINPUT;
			if (i && !(d->las_thresholds[i] > d->las_thresholds[i - 1]))
				return gp_yaml_error(&L->doc, x->items[i], L->err,
						     "'las_thresholds' must ascend");
		}
		d->las_nthresholds = (int)x->n;
	}
	if ((x = gp_yaml_get(L->doc.root, "las_starvation")) &&
	    gp_yaml_double(&L->doc, x, "'las_starvation'", 0, 1e12, &d->las_starvation, L->err))
		return GP_EINPUT;
	if (opt_choice(L, "las_preempted", "entry", "first", &d->las_preempted_first) ||
	    opt_choice(L, "las_demoted", "keep", "yield", &d->las_demoted_yield))
		return GP_EINPUT;
	{
		char *dt = NULL;

		if (opt_path(L, L->doc.root, "tenants", "'tenants' (a tenants file)", &d->tenants) ||
		    opt_str(L, L->doc.root, "default_tenant", "'default_tenant'", &dt))
			return GP_EINPUT;
		if (dt)
			d->default_tenant = dt;
	}
	if (opt_choice(L, "reclaim", "on", "off", &d->reclaim_off) ||
	    opt_choice(L, "within_quota", "reclaim", "share", &d->share_within_quota))
		return GP_EINPUT;
	if ((x = gp_yaml_get(L->doc.root, "tenant_column"))) {
		const char *v;

		if (gp_yaml_str(&L->doc, x, "'tenant_column'", &v, L->err))
			return GP_EINPUT;
		d->tenant_key = gp_sim_tenant_key_parse(v);
		if (d->tenant_key < 0)
			return gp_yaml_error(&L->doc, x, L->err,
					     "'tenant_column' is tenant, vc, account or partition, not '%.40s'", v);
	}
	if ((x = gp_yaml_get(L->doc.root, "fairshare_halflife")) &&
	    gp_yaml_double(&L->doc, x, "'fairshare_halflife' (seconds)", 1e-3, 1e12, &d->fs_halflife, L->err))
		return GP_EINPUT;
	if ((x = gp_yaml_get(L->doc.root, "priority_interval")) &&
	    gp_yaml_double(&L->doc, x, "'priority_interval' (seconds)", 1e-3, 1e12, &d->fs_interval, L->err))
		return GP_EINPUT;
	if ((x = gp_yaml_get(L->doc.root, "priority_weights"))) {
		static const char *const wk[] = { "age", "fairshare", "jobsize", "qos", NULL };
		size_t w_i;

		if (gp_yaml_expect(&L->doc, x, GP_YAML_MAP, "'priority_weights' (a mapping)", L->err) ||
		    gp_yaml_check_keys(&L->doc, x, "'priority_weights'", wk, L->err))
			return GP_EINPUT;
		memset(d->fs_w, 0, sizeof(d->fs_w));
		for (w_i = 0; wk[w_i]; w_i++) {
			const gp_yaml_node *w = gp_yaml_get(x, wk[w_i]);

			if (w && gp_yaml_double(&L->doc, w, "a priority weight", 0, 1e9, &d->fs_w[w_i], L->err))
				return GP_EINPUT;
		}
		d->fs_w_set = 1;
	}
	return GP_OK;
}

/* Failure sources and detection that are no axis. */
static int load_failure_more(loader *L)
{
	gp_run_failures *f = &L->s->run.fail;
	const gp_yaml_node *root = L->doc.root, *x;
	const char *v;
	long l;

	if ((x = gp_yaml_get(root, "heartbeat_period")) &&
	    gp_yaml_double(&L->doc, x, "'heartbeat_period' (seconds)", 1e-3, 1e6, &f->hb_period, L->err))
		return GP_EINPUT;
	if ((x = gp_yaml_get(root, "heartbeat_misses"))) {
		if (gp_yaml_long(&L->doc, x, "'heartbeat_misses'", 1, 1000, &l, L->err))
			return GP_EINPUT;
		f->hb_misses = (int)l;
	}
	if ((x = gp_yaml_get(root, "failure_seed"))) {
		if (gp_yaml_long(&L->doc, x, "'failure_seed'", 0, 2147483647L, &l, L->err))
			return GP_EINPUT;
		f->seed = (uint64_t)l;
		f->seed_set = 1;
	}
	if ((x = gp_yaml_get(root, "failure_start"))) {
		if (gp_yaml_str(&L->doc, x, "'failure_start'", &v, L->err))
			return GP_EINPUT;
		if (strcmp(v, "steady") && strcmp(v, "new"))
			return gp_yaml_error(&L->doc, x, L->err, "'failure_start' is steady or new, not '%.40s'",
					     v);
		f->start_new = !strcmp(v, "new");
	}
	if (opt_path(L, root, "failures", "'failures' (a failure list)", &f->csv) ||
	    opt_path(L, root, "failure_model", "'failure_model' (a `failures fit` model)", &f->model))
		return GP_EINPUT;
	return GP_OK;
}

static const char *const qos_keys[] = {
	"tick", "slack", "min_share", "step", "util_error", "time_error", "interference",
	"exclusive", "ls_fraction", "predict_models", NULL
};

/* qos: {tick, slack, ...}: simulate's predicted sharing and QoS options. */
static int load_qos(loader *L, const gp_yaml_node *n)
{
	gp_whatif_spec *s = L->s;
	gp_run_qos *q = &s->run.qos;
	const gp_yaml_node *x;
	double v;
	size_t i;

	if (gp_yaml_expect(&L->doc, n, GP_YAML_MAP, "'qos'", L->err) ||
	    gp_yaml_check_keys(&L->doc, n, "'qos'", qos_keys, L->err))
		return GP_EINPUT;
	if ((x = gp_yaml_get(n, "tick"))) {
		if (gp_yaml_double(&L->doc, x, "'qos' 'tick' (seconds)", 1e-3, 1e9, &q->cfg.tick, L->err))
			return GP_EINPUT;
		q->on = 1;
		for (i = 0; i < s->nqueues; i++)
			if (gp_sim_queue_parse(s->queues[i]) == GP_SIM_LAS)
				return gp_yaml_error(&L->doc, x, L->err, "the QoS monitor ('qos' 'tick') does "
						     "not go with queue las");
	}
	if (((x = gp_yaml_get(n, "slack")) &&
	     gp_yaml_double(&L->doc, x, "'qos' 'slack'", 1, 1e6, &q->cfg.slack, L->err)) ||
	    ((x = gp_yaml_get(n, "min_share")) &&
	     gp_yaml_double(&L->doc, x, "'qos' 'min_share'", 0, 1, &q->cfg.min_share, L->err)) ||
	    ((x = gp_yaml_get(n, "util_error")) &&
	     gp_yaml_double(&L->doc, x, "'qos' 'util_error' (pp)", 0, 100, &q->cfg.util_error, L->err)) ||
	    ((x = gp_yaml_get(n, "time_error")) &&
	     gp_yaml_double(&L->doc, x, "'qos' 'time_error'", 0, 10, &q->cfg.time_error, L->err)) ||
	    ((x = gp_yaml_get(n, "ls_fraction")) &&
	     gp_yaml_double(&L->doc, x, "'qos' 'ls_fraction'", 0, 1, &q->ls_fraction, L->err)))
		return GP_EINPUT;
	if ((x = gp_yaml_get(n, "step"))) {
		if (gp_yaml_double(&L->doc, x, "'qos' 'step' (milli-GPU)", 1, 1000, &v, L->err))
			return GP_EINPUT;
		q->cfg.step_milli = (int)v;
	}
	if ((x = gp_yaml_get(n, "interference"))) {
		int on;

		if (gp_yaml_bool(&L->doc, x, "'qos' 'interference'", &on, L->err))
			return GP_EINPUT;
		q->on |= on;
	}
	if ((x = gp_yaml_get(n, "exclusive")) &&
	    gp_yaml_bool(&L->doc, x, "'qos' 'exclusive'", &q->exclusive, L->err))
		return GP_EINPUT;
	return opt_path(L, n, "predict_models", "'qos' 'predict_models' (a folder)", &q->models_dir);
}

/* The run settings simulate has and the axes do not: las, heartbeat
 * detection, failure files, memory margin, QoS. */
static int load_run_more(loader *L)
{
	gp_whatif_spec *s = L->s;
	const gp_yaml_node *x;

	if (load_las(L) || load_failure_more(L))
		return GP_EINPUT;
	if ((x = gp_yaml_get(L->doc.root, "memory_margin"))) {
		if (gp_yaml_double(&L->doc, x, "'memory_margin' (percent)", 0, GP_MEM_MARGIN_MAX * 100,
				   &s->run.mem_margin, L->err))
			return GP_EINPUT;
		s->run.mem_margin /= 100;
	}
	if ((x = gp_yaml_get(L->doc.root, "qos")) && !is_null(x) && load_qos(L, x))
		return GP_EINPUT;
	return GP_OK;
}

/* Seeds, duration scaling, the node and fabric axes, SLOs and cost. */
static int load_rest(loader *L, const gp_yaml_node *axes)
{
	gp_whatif_spec *s = L->s;
	const gp_yaml_node *root = L->doc.root, *x;

	if ((x = gp_yaml_get(root, "seeds"))) {
		if (load_seeds(L, x))
			return GP_EINPUT;
	} else {
		s->seeds = gp_xmalloc(sizeof(*s->seeds));
		s->seeds[0] = 1;
		s->nseeds = 1;
	}
	if ((x = gp_yaml_get(root, "scale_durations")) && !is_null(x) && load_scale(L, x))
		return GP_EINPUT;
	if (axes && (x = gp_yaml_get(axes, "add_nodes"))) {
		if (load_nodes_axis(L, x, 1, &s->add))
			return GP_EINPUT;
		s->declared[GP_AX_ADD] = 1;
	}
	if (axes && (x = gp_yaml_get(axes, "remove_nodes"))) {
		if (load_nodes_axis(L, x, 0, &s->remove))
			return GP_EINPUT;
		s->declared[GP_AX_REMOVE] = 1;
	}
	if (axes && (x = gp_yaml_get(axes, "fabric"))) {
		if (load_fabric_axis(L, x))
			return GP_EINPUT;
		s->declared[GP_AX_FABRIC] = 1;
	}
	if ((x = gp_yaml_get(root, "slo")) && load_slo(L, x))
		return GP_EINPUT;
	if ((x = gp_yaml_get(root, "cost")) && load_cost(L, x))
		return GP_EINPUT;
	return GP_OK;
}

/* Values per axis, configurations and runs, within GP_WHATIF_MAX_RUNS. */
static int grid_size(loader *L)
{
	char why[128];

	if (gp_whatif_spec_grid(L->s, why, sizeof(why)))
		return gp_yaml_error(&L->doc, L->doc.root, L->err, "%s", why);
	return GP_OK;
}

int gp_whatif_spec_grid(gp_whatif_spec *s, char *why, size_t size)
{
	size_t i, p, m;

	s->nvalues[GP_AX_TRACE] = s->ntraces;
	s->nvalues[GP_AX_ADD] = s->add.n ? s->add.n : 1;
	s->nvalues[GP_AX_REMOVE] = s->remove.n ? s->remove.n : 1;
	s->nvalues[GP_AX_FABRIC] = s->fabric.n ? s->fabric.n : 1;
	s->nvalues[GP_AX_QUEUE] = s->nqueues;
	s->nvalues[GP_AX_POLICY] = s->npolicies;
	s->nvalues[GP_AX_MTBF] = s->nmtbf;
	s->nvalues[GP_AX_RECOVERY] = s->nrecoveries;
	s->nvalues[GP_AX_CLUSTER] = s->nclusters ? s->nclusters : 1;
	s->nvalues[GP_AX_TENANTS] = gp_whatif_quota_nvalues(s);
	s->nconfigs = 1;
	for (i = 0; i < GP_AX_COUNT; i++) {
		if (s->nconfigs * s->nvalues[i] > GP_WHATIF_MAX_RUNS) {
			snprintf(why, size, "the grid has more than %d configurations", GP_WHATIF_MAX_RUNS);
			return -1;
		}
		s->nconfigs *= s->nvalues[i];
	}
	if (s->nconfigs * s->nseeds > GP_WHATIF_MAX_RUNS) {
		snprintf(why, size, "the grid has more than %d runs (configurations x seeds)",
			 GP_WHATIF_MAX_RUNS);
		return -1;
	}
	s->nruns = s->nconfigs * s->nseeds;
	/* Randomness depends on the policy and the node MTBF only. */
	s->nrandom = 0;
	for (p = 0; p < s->npolicies; p++)
		for (m = 0; m < s->nmtbf; m++) {
			gp_whatif_config c;

			memset(&c, 0, sizeof(c));
			c.v[GP_AX_POLICY] = p;
			c.v[GP_AX_MTBF] = m;
			if (gp_whatif_config_random(s, &c))
				s->nrandom += s->nconfigs / (s->npolicies * s->nmtbf);
		}
	s->nruns_needed = s->nrandom * s->nseeds + (s->nconfigs - s->nrandom);
	return GP_OK;
}

/* scenario: an axis name or a list of them. */
static int load_scenario(loader *L)
{
	gp_whatif_spec *s = L->s;
	const gp_yaml_node *x = gp_yaml_get(L->doc.root, "scenario");
	char **names = NULL;
	size_t n = 0, i;
	int dummy = 0, st = GP_OK, a;

	s->scenario[GP_AX_TRACE] = 1;
	if (!x || is_null(x))
		return GP_OK;
	if (str_list(L, x, "'scenario'", &names, &n, &dummy))
		st = GP_EINPUT;
	for (i = 0; i < n && st == GP_OK; i++) {
		const gp_yaml_node *at = x->type == GP_YAML_SEQ ? x->items[i] : x;

		for (a = 0; a < GP_AX_COUNT && strcmp(names[i], gp_whatif_axis_names[a]); a++)
			;
		if (a == GP_AX_COUNT)
			st = gp_yaml_error(&L->doc, at, L->err,
					   "'scenario': unknown axis '%.40s' (trace, remove_nodes, fabric, "
					   "queue, policy, mtbf_node, recovery)", names[i]);
		else if (a == GP_AX_ADD)
			st = gp_yaml_error(&L->doc, at, L->err,
					   "'scenario': add_nodes is what the answer chooses (the nodes to "
					   "buy), not a condition to withstand");
		else if (a == GP_AX_CLUSTER)
			st = gp_yaml_error(&L->doc, at, L->err,
					   "'scenario': cluster is what the answer chooses (the cluster to "
					   "build), not a condition to withstand");
		else if (a == GP_AX_TENANTS)
			st = gp_yaml_error(&L->doc, at, L->err,
					   "'scenario': the tenants' quotas and weights are what the answer "
					   "chooses, not a condition to withstand");
		else if (s->nvalues[a] < 2)
			st = gp_yaml_error(&L->doc, at, L->err,
					   "'scenario': '%s' has one value; a scenario axis lists the values "
					   "the answer must withstand (under 'axes' or at the top)",
					   gp_whatif_axis_names[a]);
		else {
			s->scenario[a] = 1;
			s->scenario_named = 1;
		}
	}
	free_strv(names, n);
	return st;
}

static int load_root(loader *L)
{
	gp_whatif_spec *s = L->s;
	const gp_yaml_node *axes = NULL;
	int st;

	if ((st = root_and_axes(L, &axes)) || (st = load_inputs(L, axes)) ||
	    (st = load_names(L, axes, &queue_axis, &s->queues, &s->nqueues)) ||
	    (st = load_names(L, axes, &policy_axis, &s->policies, &s->npolicies)) ||
	    (st = load_mtbf(L, axes)) || (st = load_recoveries(L, axes)) ||
	    (st = load_failure_opts(L)) || (st = load_run_more(L)) ||
	    (st = load_rest(L, axes)) ||
	    (st = gp_whatif_quota_load(&L->doc, axes, gp_yaml_get(L->doc.root, "slo"), s, L->err)))
		return st;
	if ((st = grid_size(L)))
		return st;
	return load_scenario(L);
}

int gp_whatif_spec_load(const char *path, gp_whatif_spec *s, gp_error *err)
{
	loader L;
	int st;

	gp_whatif_spec_init(s);
	s->path = gp_xstrdup(path);
	L.s = s;
	L.err = err;
	gp_yaml_doc_init(&L.doc);
	st = gp_yaml_load(path, 1u << 20, 32, &L.doc, err);
	if (st == GP_OK)
		st = load_root(&L);
	gp_yaml_doc_release(&L.doc);
	if (st)
		gp_whatif_spec_release(s);
	return st;
}
