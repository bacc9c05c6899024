/* The grid of configurations, their clusters and costs, and the
 * fingerprint that makes stored runs reusable (spec.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/io/cluster_yaml.h"
#include "gpuplan/place/policy.h"
#include "gpuplan/sim/failsim.h"
#include "gpuplan/sim/sim.h"
#include "gpuplan/util/util.h"
#include "gpuplan/whatif/quota.h"
#include "gpuplan/whatif/spec.h"

void gp_whatif_config_of(const gp_whatif_spec *s, size_t i, gp_whatif_config *c)
{
	int a;

	for (a = GP_AX_COUNT - 1; a >= 0; a--) {
		c->v[a] = i % s->nvalues[a];
		i /= s->nvalues[a];
	}
}

size_t gp_whatif_config_index(const gp_whatif_spec *s, const gp_whatif_config *c)
{
	size_t i = 0;
	int a;

	for (a = 0; a < GP_AX_COUNT; a++)
		i = i * s->nvalues[a] + c->v[a];
	return i;
}

const char *gp_whatif_value(const gp_whatif_spec *s, const gp_whatif_config *c, int axis,
			    char *buf, size_t size)
{
	size_t v = c->v[axis];

	switch (axis) {
	case GP_AX_TRACE:
		snprintf(buf, size, "%s", s->trace_names[v]);
		break;
	case GP_AX_ADD:
		snprintf(buf, size, "%ld", s->add.n ? s->add.counts[v] : 0L);
		break;
	case GP_AX_REMOVE:
		snprintf(buf, size, "%ld", s->remove.n ? s->remove.counts[v] : 0L);
		break;
	case GP_AX_FABRIC:
		snprintf(buf, size, "%s", s->fabric.n ? gp_fabric_tech_name(s->fabric.techs[v]) : "-");
		break;
	case GP_AX_QUEUE:
		snprintf(buf, size, "%s", s->queues[v]);
		break;
	case GP_AX_POLICY:
		snprintf(buf, size, "%s", s->policies[v]);
		break;
	case GP_AX_MTBF:
		if (s->mtbf_node[v] > 0)
			snprintf(buf, size, "%.12g", s->mtbf_node[v]);
		else
			snprintf(buf, size, "%s", s->declared[GP_AX_MTBF] ? "0" : "-");
		break;
	case GP_AX_RECOVERY:
		snprintf(buf, size, "%s", gp_whatif_failures_on(s, c) || s->declared[GP_AX_RECOVERY] ?
					  gp_recovery_name(s->recoveries[v]) : "-");
		break;
	case GP_AX_CLUSTER:
		snprintf(buf, size, "%s", s->nclusters ? s->cluster_names[v] : s->cluster);
		break;
	case GP_AX_TENANTS:
		if (s->declared[GP_AX_TENANTS])
			gp_whatif_quota_value(s, v, buf, size);
		else
			snprintf(buf, size, "-");
		break;
	default:
		snprintf(buf, size, "?");
	}
	return buf;
}

int gp_whatif_failures_on(const gp_whatif_spec *s, const gp_whatif_config *c)
{
	return s->mtbf_node[c->v[GP_AX_MTBF]] > 0 || gp_run_failures_on(&s->run.fail);
}

/* What draws from the run's seed: a seeded policy, failures generated
 * (or detected) without a fixed failure_seed, classes drawn by
 * ls_fraction, and the QoS monitor's utilization and time errors. */
int gp_whatif_config_random(const gp_whatif_spec *s, const gp_whatif_config *c)
{
	const gp_policy *p = gp_policy_find(s->policies[c->v[GP_AX_POLICY]]);
	const gp_run_qos *q = &s->run.qos;
	unsigned flags = p ? p->flags : 0;

	if (flags & GP_POLICY_SEEDED)
		return 1;
	if (gp_whatif_failures_on(s, c) && !s->run.fail.seed_set)
		return 1;
	if (q->ls_fraction >= 0)
		return 1;
	return (q->on || (flags & GP_POLICY_PREDICTED)) &&
	       (q->cfg.util_error > 0 || q->cfg.time_error > 0);
}

size_t gp_whatif_seeds_of(const gp_whatif_spec *s, size_t cfg)
{
	gp_whatif_config c;

	if (s->nseeds <= 1)
		return s->nseeds;
	gp_whatif_config_of(s, cfg, &c);
	return gp_whatif_config_random(s, &c) ? s->nseeds : 1;
}

int gp_whatif_run_needed(const gp_whatif_spec *s, size_t run)
{
	return run % s->nseeds < gp_whatif_seeds_of(s, run / s->nseeds);
}

size_t gp_whatif_choice_of(const gp_whatif_spec *s, size_t cfg)
{
	gp_whatif_config c;
	int a;

	gp_whatif_config_of(s, cfg, &c);
	for (a = 0; a < GP_AX_COUNT; a++)
		if (s->scenario[a])
			c.v[a] = 0;
	return gp_whatif_config_index(s, &c);
}

size_t gp_whatif_nscenarios(const gp_whatif_spec *s)
{
	size_t n = 1;
	int a;

	for (a = 0; a < GP_AX_COUNT; a++)
		if (s->scenario[a])
			n *= s->nvalues[a];
	return n;
}

size_t gp_whatif_scenario_config(const gp_whatif_spec *s, size_t cfg, size_t k)
{
	gp_whatif_config c;
	int a;

	gp_whatif_config_of(s, cfg, &c);
	for (a = GP_AX_COUNT - 1; a >= 0; a--)
		if (s->scenario[a]) {
			c.v[a] = k % s->nvalues[a];
			k /= s->nvalues[a];
		}
	return gp_whatif_config_index(s, &c);
}

void gp_whatif_run_desc(const gp_whatif_spec *s, size_t run, gp_run_desc *d)
{
	gp_whatif_config c;

	gp_whatif_config_of(s, run / s->nseeds, &c);
	*d = s->run;
	d->cluster = gp_whatif_cluster_path(s, &c);
	d->trace = s->traces[c.v[GP_AX_TRACE]];
	d->policy = s->policies[c.v[GP_AX_POLICY]];
	d->queue = gp_sim_queue_parse(s->queues[c.v[GP_AX_QUEUE]]);
	d->seed = s->seeds[run % s->nseeds];
	d->fail.mtbf_node = s->mtbf_node[c.v[GP_AX_MTBF]];
	d->fail.recovery = s->recoveries[c.v[GP_AX_RECOVERY]];
	/* d->tick is the spec's: 0 (a coarse timeline, a sweep reads only
	 * the summary) in a loaded spec, compare's --tick in a built one. */
}

int gp_whatif_cluster_axis(const gp_whatif_spec *s)
{
	return s->declared[GP_AX_CLUSTER] || s->nclusters > 1;
}

const char *gp_whatif_cluster_path(const gp_whatif_spec *s, const gp_whatif_config *c)
{
	return s->nclusters ? s->clusters[c->v[GP_AX_CLUSTER]] : s->cluster;
}

char *gp_whatif_config_key(const gp_whatif_spec *s, const gp_whatif_config *c)
{
	gp_sbuf sb;
	char buf[512];
	int a;

	gp_sbuf_init(&sb);
	for (a = 0; a < GP_AX_COUNT; a++) {
		/* Only when given: the keys of existing databases stay; the
		 * tenants axis by its columns, after this loop. */
		if ((a == GP_AX_CLUSTER && !gp_whatif_cluster_axis(s)) || a == GP_AX_TENANTS)
			continue;
		gp_sbuf_addf(&sb, "%s%s=%s", a ? ";" : "", gp_whatif_axis_names[a],
			     gp_whatif_value(s, c, a, buf, sizeof(buf)));
		/* The file's content, so that an edited trace or cluster is
		 * not reused. */
		if (a == GP_AX_TRACE && s->trace_hash)
			gp_sbuf_addf(&sb, "@%s", s->trace_hash[c->v[a]]);
		if (a == GP_AX_CLUSTER && s->cluster_hashes)
			gp_sbuf_addf(&sb, "@%s", s->cluster_hashes[c->v[a]]);
	}
	/* the later axes by their columns, when given */
	if (s->declared[GP_AX_TENANTS])
		gp_whatif_quota_key(s, c->v[GP_AX_TENANTS], &sb);
	return gp_sbuf_detach(&sb);
}

/* ---- axes with named database columns (spec.h) ----
 * Each kind of axis after the first eight contributes its columns, their
 * values and its part of the key in functions of its own; these dispatch
 * over the axes in grid order. */

/* The cluster axis: one text column "cluster", the file as written in
 * the spec, when the axis is given. */
static size_t cluster_ncolumns(const gp_whatif_spec *s)
{
	return gp_whatif_cluster_axis(s) ? 1 : 0;
}

/* The cluster of a stored key: its "cluster=NAME" part (0 without the
 * axis: the one cluster). */
static long cluster_key_find(const gp_whatif_spec *s, const char *key)
{
	size_t i;

	if (!gp_whatif_cluster_axis(s))
		return 0;
	for (i = 0; i < s->nclusters; i++) {
		char *needle = gp_xasprintf(";cluster=%s", s->cluster_names[i]);
		const char *p = strstr(key, needle);
		size_t n = strlen(needle);

		free(needle);
		if (p && (p[n] == '@' || p[n] == ';' || p[n] == '\0'))
			return (long)i;
	}
	return -1;
}

/* The tenants axis' columns (quota.h), when it is given; after the
 * cluster's. */
static size_t tenant_columns(const gp_whatif_spec *s)
{
	return s->declared[GP_AX_TENANTS] ? gp_whatif_quota_ncolumns(s) : 0;
}

size_t gp_whatif_ncolumns(const gp_whatif_spec *s)
{
	return cluster_ncolumns(s) + tenant_columns(s);
}

const char *gp_whatif_column_name(const gp_whatif_spec *s, size_t k, int *numeric, char *buf,
				  size_t size)
{
	*numeric = 0;
	if (k < cluster_ncolumns(s)) {
		snprintf(buf, size, "%s", gp_whatif_axis_names[GP_AX_CLUSTER]);
		return buf;
	}
	k -= cluster_ncolumns(s);
	*numeric = 1;
	if (k < tenant_columns(s))
		return gp_whatif_quota_column(s, k, buf, size);
	*numeric = 0;
	snprintf(buf, size, "?");
	return buf;
}

int gp_whatif_column_value(const gp_whatif_spec *s, size_t k, const gp_whatif_config *c,
			   double *num, char *buf, size_t size)
{
	*num = 0;
	if (k < cluster_ncolumns(s)) {
		gp_whatif_value(s, c, GP_AX_CLUSTER, buf, size);
		return 2;
	}
	k -= cluster_ncolumns(s);
	if (k < tenant_columns(s)) {
		*num = gp_whatif_quota_column_value(s, k, c->v[GP_AX_TENANTS]);
		return 1;
	}
	return 0;
}

long gp_whatif_key_find(const gp_whatif_spec *s, int axis, const char *key)
{
	if (axis == GP_AX_CLUSTER)
		return cluster_key_find(s, key);
	if (axis == GP_AX_TENANTS)
		return s->declared[GP_AX_TENANTS] ? gp_whatif_quota_key_find(s, key) : 0;
	return -1;
}

/* ---- checks against the base cluster ---- */

static int spec_err(const gp_whatif_spec *s, gp_error *err, int line, int col, const char *fmt,
		    const char *a, const char *b)
{
	return gp_error_set(err, GP_EINPUT, s->path, line, col, fmt, a, b);
}

/* Whether switch sw is under (or is) switch top. */
static int under(const gp_cluster *c, int sw, int top)
{
	for (; sw >= 0; sw = c->switches[sw].parent)
		if (sw == top)
			return 1;
	return 0;
}

/* Nodes remove_nodes may take: of its type and under its switch. */
static int removable(const gp_whatif_spec *s, const gp_cluster *c, int node, int type, int sw)
{
	(void)s;
	return c->nodes[node].type == type && (sw < 0 || under(c, c->nodes[node].sw, sw));
}

int gp_whatif_spec_check(const gp_whatif_spec *s, const gp_cluster *base, gp_error *err)
{
	int t, sw, i, have;

	if (s->add.n) {
		t = gp_cluster_find_type(base, s->add.type);
		if (t < 0)
			return spec_err(s, err, s->add.line, s->add.col,
					"'add_nodes': type '%.60s' is not a node type of '%s'",
					s->add.type, base->path);
		if (s->add.sw && gp_cluster_find_switch(base, s->add.sw) < 0)
			return spec_err(s, err, s->add.line, s->add.col,
					"'add_nodes': switch '%.60s' is not in the fabric of '%s'",
					s->add.sw, base->path);
		if (!s->add.sw) {
			for (i = 0; i < base->nnodes && base->nodes[i].type != t; i++)
				;
			if (i == base->nnodes)
				return spec_err(s, err, s->add.line, s->add.col,
						"'add_nodes': no node of type '%.60s' to copy the switch from; "
						"give 'switch'%s", s->add.type, "");
		}
		if (base->nnodes + s->add.counts[s->add.n - 1] > GP_CLUSTER_MAX_NODES)
			return spec_err(s, err, s->add.line, s->add.col,
					"'add_nodes': more nodes than the cluster limit%s%s", "", "");
	}
	if (s->remove.n) {
		t = gp_cluster_find_type(base, s->remove.type);
		if (t < 0)
			return spec_err(s, err, s->remove.line, s->remove.col,
					"'remove_nodes': type '%.60s' is not a node type of '%s'",
					s->remove.type, base->path);
		sw = -1;
		if (s->remove.sw && (sw = gp_cluster_find_switch(base, s->remove.sw)) < 0)
			return spec_err(s, err, s->remove.line, s->remove.col,
					"'remove_nodes': switch '%.60s' is not in the fabric of '%s'",
					s->remove.sw, base->path);
		for (i = have = 0; i < base->nnodes; i++)
			have += removable(s, base, i, t, sw);
		if (s->remove.counts[s->remove.n - 1] > have) {
			char a[160], b[64];

			snprintf(a, sizeof(a), "%s", s->remove.type);
			snprintf(b, sizeof(b), "%d", have);
			return spec_err(s, err, s->remove.line, s->remove.col,
					"'remove_nodes': the cluster has only %2$s nodes of type '%1$.60s' to remove",
					a, b);
		}
	}
	if (s->fabric.n && gp_cluster_find_switch(base, s->fabric.sw) < 0)
		return spec_err(s, err, s->fabric.line, s->fabric.col,
				"'fabric': switch '%.60s' is not in the fabric of '%s'", s->fabric.sw,
				base->path);
	return GP_OK;
}

/* ---- shape, cost, cluster ---- */

static double cost_of(const gp_whatif_spec *s, const char *key, int *found)
{
	size_t i;

	for (i = 0; i < s->ncosts; i++)
		if (!strcmp(s->costs[i].key, key)) {
			*found = 1;
			return s->costs[i].per_node;
		}
	return 0;
}

/* The switch new nodes attach to. */
static int add_switch(const gp_whatif_spec *s, const gp_cluster *c, int type)
{
	int i;

	if (s->add.sw)
		return gp_cluster_find_switch(c, s->add.sw);
	for (i = 0; i < c->nnodes; i++)
		if (c->nodes[i].type == type)
			return c->nodes[i].sw;
	return -1;
}

/* Mark the nodes a configuration removes (the last `count` removable
 * nodes in file order); returns how many were marked. */
static long mark_removed(const gp_whatif_spec *s, const gp_cluster *c, long count,
			 unsigned char *gone)
{
	int t = gp_cluster_find_type(c, s->remove.type), sw = -1, i;
	long k = 0;

	if (s->remove.sw)
		sw = gp_cluster_find_switch(c, s->remove.sw);
	for (i = c->nnodes - 1; i >= 0 && k < count; i--)
		if (removable(s, c, i, t, sw)) {
			gone[i] = 1;
			k++;
		}
	return k;
}

/* Technology of switch sw in configuration cfg. */
static int tech_in(const gp_whatif_spec *s, const gp_cluster *c, const gp_whatif_config *cfg,
		   int sw, int fsw)
{
	if (sw < 0)
		return GP_TECH_NONE;
	if (s->fabric.n && (sw == fsw || (s->fabric.subtree && under(c, sw, fsw))))
		return s->fabric.techs[cfg->v[GP_AX_FABRIC]];
	return c->switches[sw].tech;
}

int gp_whatif_shape_of(const gp_whatif_spec *s, const gp_cluster *bases,
		       const gp_whatif_config *cfg, gp_whatif_shape *out)
{
	const gp_cluster *base = &bases[cfg->v[GP_AX_CLUSTER]];
	unsigned char *gone = gp_xcalloc((size_t)base->nnodes + 1, 1);
	int fsw = s->fabric.n ? gp_cluster_find_switch(base, s->fabric.sw) : -1, i, found;
	long add = s->add.n ? s->add.counts[cfg->v[GP_AX_ADD]] : 0;
	double c;

	memset(out, 0, sizeof(*out));
	if (s->remove.n)
		mark_removed(s, base, s->remove.counts[cfg->v[GP_AX_REMOVE]], gone);
	for (i = 0; i < base->nnodes; i++) {
		const gp_node *n = &base->nodes[i];

		if (gone[i])
			continue;
		out->nodes++;
		out->gpus += n->ngpus;
		if (!s->ncosts) {
			out->cost += 1;
			continue;
		}
		found = 0;
		out->cost += cost_of(s, base->types[n->type].name, &found);
		out->cost += cost_of(s, gp_fabric_tech_name(tech_in(s, base, cfg, n->sw, fsw)), &found);
	}
	if (add) {
		int t = gp_cluster_find_type(base, s->add.type);
		int sw = add_switch(s, base, t);

		out->nodes += (int)add;
		out->gpus += (int)add * base->types[t].topo.ngpus;
		found = 0;
		c = s->ncosts ? cost_of(s, s->add.type, &found) +
				cost_of(s, gp_fabric_tech_name(tech_in(s, base, cfg, sw, fsw)), &found) : 1;
		out->cost += (double)add * c;
	}
	free(gone);
	return GP_OK;
}


int gp_whatif_cluster_build(const gp_whatif_spec *s, const gp_whatif_config *cfg, gp_cluster *c,
			    gp_error *err)
{
	int st, i, k, fsw;

	st = gp_cluster_load(gp_whatif_cluster_path(s, cfg), c, err);
	if (st)
		return st;
	/* Remove first, so that added nodes of the same type stay. */
	if (s->remove.n && s->remove.counts[cfg->v[GP_AX_REMOVE]] > 0) {
		unsigned char *gone = gp_xcalloc((size_t)c->nnodes + 1, 1);
		long want = s->remove.counts[cfg->v[GP_AX_REMOVE]];

		if (mark_removed(s, c, want, gone) < want) {
			free(gone);
			gp_cluster_release(c);
			return gp_error_set(err, GP_EINPUT, s->path, s->remove.line, s->remove.col,
					    "'remove_nodes': fewer than %ld nodes of type '%s' to remove",
					    want, s->remove.type);
		}
		for (i = k = 0; i < c->nnodes; i++) {
			if (gone[i]) {
				gp_cluster_node_release(&c->nodes[i]);
				continue;
			}
			c->nodes[k++] = c->nodes[i];
		}
		c->nnodes = k;
		free(gone);
	}
	if (s->add.n && s->add.counts[cfg->v[GP_AX_ADD]] > 0) {
		long add = s->add.counts[cfg->v[GP_AX_ADD]], j;
		int t = gp_cluster_find_type(c, s->add.type), sw, tmpl = -1;

		if (t < 0) {
			gp_cluster_release(c);
			return gp_error_set(err, GP_EINPUT, s->path, s->add.line, s->add.col,
					    "'add_nodes': type '%s' is not in '%s'", s->add.type,
					    gp_whatif_cluster_path(s, cfg));
		}
		sw = add_switch(s, c, t);
		/* New nodes copy the labels and capacities of the last node of
		 * their type on their switch (else of their type): more of the
		 * same hardware. */
		for (i = 0; i < c->nnodes; i++)
			if (c->nodes[i].type == t && (tmpl < 0 || c->nodes[tmpl].sw != sw ||
						      c->nodes[i].sw == sw))
				tmpl = i;
		for (j = 0; j < add; j++) {
			char *name = gp_xasprintf("%s-%ld", s->add.prefix ? s->add.prefix : "added", j);
			int id = gp_cluster_add_node(c, name, t, sw);
			gp_node *n = &c->nodes[id];

			free(name);
			n->line = s->add.line;
			n->col = s->add.col;
			if (tmpl >= 0) {
				const gp_node *m = &c->nodes[tmpl];

				n->cpu_milli = m->cpu_milli;
				n->mem_mib = m->mem_mib;
				if (m->nlabels) {
					n->labels = gp_xcalloc((size_t)m->nlabels, sizeof(*n->labels));
					for (k = 0; k < m->nlabels; k++) {
						n->labels[k].key = gp_xstrdup(m->labels[k].key);
						n->labels[k].value = gp_xstrdup(m->labels[k].value);
					}
					n->nlabels = m->nlabels;
				}
			}
		}
	}
	if (s->fabric.n) {
		int tech = s->fabric.techs[cfg->v[GP_AX_FABRIC]];

		fsw = gp_cluster_find_switch(c, s->fabric.sw);
		for (i = 0; i < c->nswitches; i++)
			if (i == fsw || (s->fabric.subtree && under(c, i, fsw)))
				c->switches[i].tech = tech;
	}
	st = gp_cluster_finish(c, err);
	if (st)
		gp_cluster_release(c);
	return st;
}

/* ---- fingerprint ---- */

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ b[i]) * 1099511628211ULL;
	return h;
}

static uint64_t fnv_str(uint64_t h, const char *s)
{
	h = fnv(h, s ? s : "(null)", strlen(s ? s : "(null)"));
	return fnv(h, "", 1);
}

static int hash_file(const char *path, char *out, gp_error *err)
{
	char *data;
	size_t len;
	int st = gp_read_file(path, (size_t)1 << 30, &data, &len, err);

	if (st)
		return st;
	snprintf(out, 17, "%016llx", (unsigned long long)fnv(1469598103934665603ULL, data, len));
	free(data);
	return GP_OK;
}

/* The content of every cluster of the axis into h (and the keys). */
static int cluster_hashes(gp_whatif_spec *s, uint64_t *h, gp_error *err)
{
	size_t i;
	int st;

	if (!s->cluster_hashes) {
		s->cluster_hashes = gp_xcalloc(s->nclusters, sizeof(*s->cluster_hashes));
		for (i = 0; i < s->nclusters; i++)
			if ((st = hash_file(s->clusters[i], s->cluster_hashes[i], err))) {
				free(s->cluster_hashes);
				s->cluster_hashes = NULL;
				return st;
			}
	}
	*h = fnv_str(*h, "clusters");
	for (i = 0; i < s->nclusters; i++)
		*h = fnv_str(*h, s->cluster_hashes[i]);
	return GP_OK;
}

int gp_whatif_bases_load(const gp_whatif_spec *s, gp_cluster *bases, gp_error *err)
{
	size_t i, n = s->nclusters ? s->nclusters : 1;
	int st = GP_OK;

	for (i = 0; i < n; i++)
		gp_cluster_init(&bases[i]);
	for (i = 0; i < n && st == GP_OK; i++)
		st = gp_cluster_load(s->nclusters ? s->clusters[i] : s->cluster, &bases[i], err);
	if (st)
		gp_whatif_bases_release(s, bases);
	return st;
}

int gp_whatif_spec_check_bases(const gp_whatif_spec *s, const gp_cluster *bases, gp_error *err)
{
	size_t i;
	int st = GP_OK;

	for (i = 0; i < s->nvalues[GP_AX_CLUSTER] && st == GP_OK; i++)
		st = gp_whatif_spec_check(s, &bases[i], err);
	return st;
}

void gp_whatif_bases_release(const gp_whatif_spec *s, gp_cluster *bases)
{
	size_t i, n = s->nclusters ? s->nclusters : 1;

	for (i = 0; bases && i < n; i++)
		gp_cluster_release(&bases[i]);
}

/* The run settings the first fingerprint did not know, as text. */
static void run_more(const gp_run_desc *r, gp_sbuf *sb)
{
	const gp_run_qos *q = &r->qos;
	const gp_run_failures *f = &r->fail;
	int i;

	gp_sbuf_init(sb);
	gp_sbuf_addf(sb, "las %d", r->las_nthresholds);
	for (i = 0; i < r->las_nthresholds; i++)
		gp_sbuf_addf(sb, ",%.17g", r->las_thresholds[i]);
	gp_sbuf_addf(sb, "|%.17g|hb %.17g,%d|fseed %d,%llu|new %d|%s|%s|mem %.17g", r->las_starvation,
		     f->hb_period, f->hb_misses, f->seed_set, (unsigned long long)f->seed,
		     f->start_new, f->csv ? f->csv : "-", f->model ? f->model : "-", r->mem_margin);
	/* The predictor models' folder is not hashed: the bundled ones go
	 * with the version. */
	gp_sbuf_addf(sb, "|qos %d,%d,%.17g,%.17g,%.17g,%.17g,%d,%.17g,%.17g", q->on, q->exclusive,
		     q->ls_fraction, q->cfg.tick, q->cfg.slack, q->cfg.min_share, q->cfg.step_milli,
		     q->cfg.util_error, q->cfg.time_error);
	/* Added only when set: older fingerprints stay valid. */
	if (r->las_preempted_first || r->las_demoted_yield)
		gp_sbuf_addf(sb, "|las-rules %d,%d", r->las_preempted_first, r->las_demoted_yield);
	if (r->sched_interval > 0)
		gp_sbuf_addf(sb, "|sched %.17g", r->sched_interval);
	if (r->backfill_mode)
		gp_sbuf_addf(sb, "|backfill %s", gp_sim_backfill_name(r->backfill_mode));
	if (r->bf_interval > 0)
		gp_sbuf_addf(sb, "|bf %.17g", r->bf_interval);
	if (r->tenants) {
		char hash[17] = "-";
		gp_error e = GP_ERROR_INIT;

		/* the file's content, so that edited quotas are not reused */
		if (hash_file(r->tenants, hash, &e))
			snprintf(hash, sizeof(hash), "unreadable");
		gp_sbuf_addf(sb, "|tenants %s,%s", hash, r->default_tenant ? r->default_tenant : "-");
		if (r->reclaim_off)
			gp_sbuf_addf(sb, ",reclaim-off");
		if (r->share_within_quota)
			gp_sbuf_addf(sb, ",within-quota-share");
		if (r->tenant_key)
			gp_sbuf_addf(sb, ",column %d", r->tenant_key);
	}
	if (r->fs_halflife > 0 || r->fs_interval > 0 || r->fs_w_set) {
		gp_sbuf_addf(sb, "|fairshare %.17g,%.17g", r->fs_halflife, r->fs_interval);
		if (r->fs_w_set)
			gp_sbuf_addf(sb, ",%.17g,%.17g,%.17g,%.17g", r->fs_w[0], r->fs_w[1], r->fs_w[2],
				     r->fs_w[3]);
	}
}

int gp_whatif_fingerprint(const gp_whatif_spec *cs, const char *version, char *buf, gp_error *err)
{
	gp_whatif_spec *s = (gp_whatif_spec *)cs; /* caches the content hashes */
	const gp_run_desc *r = &s->run;
	gp_run_desc def;
	gp_sbuf more, base;
	uint64_t h = 1469598103934665603ULL;
	char num[64];
	size_t i;
	int st;

	if (!s->cluster_hash[0] && (st = hash_file(s->cluster, s->cluster_hash, err)))
		return st;
	if (!s->trace_hash) {
		s->trace_hash = gp_xcalloc(s->ntraces, sizeof(*s->trace_hash));
		for (i = 0; i < s->ntraces; i++)
			if ((st = hash_file(s->traces[i], s->trace_hash[i], err)))
				return st;
	}
	h = fnv_str(h, "gpuplan-whatif-1");
	h = fnv_str(h, version);
	h = fnv_str(h, s->cluster_hash);
	h = fnv_str(h, s->format);
	snprintf(num, sizeof(num), "%zu|%.17g|%.17g|%d|%zu", r->topts.limit, r->topts.start,
		 r->topts.end, r->topts.skip_bad, r->backfill_depth);
	h = fnv_str(h, num);
	snprintf(num, sizeof(num), "%.17g|%.17g|%.17g|%.17g", r->fail.mtbf_gpu, r->fail.shape,
		 r->fail.repair, r->fail.restart_cost);
	h = fnv_str(h, num);
	snprintf(num, sizeof(num), "%d|%.17g|%.17g|%.17g", r->preempt, r->preempt_cost,
		 r->checkpoint_interval, r->checkpoint_cost);
	h = fnv_str(h, num);
	h = fnv_str(h, s->add.type);
	h = fnv_str(h, s->add.sw);
	h = fnv_str(h, s->add.prefix);
	h = fnv_str(h, s->remove.type);
	h = fnv_str(h, s->remove.sw);
	h = fnv_str(h, s->fabric.sw);
	h = fnv_str(h, s->fabric.subtree ? "subtree" : "switch");
	h = fnv_str(h, r->scale_ref);
	h = fnv_str(h, r->scale_model);
	/* Every cluster of the axis, only when given (existing databases
	 * keep their fingerprint). */
	if (gp_whatif_cluster_axis(s) && (st = cluster_hashes(s, &h, err)))
		return st;
	/* The settings added since: hashed only when one differs from its
	 * default, so that a spec without them keeps its fingerprint (and
	 * its database). */
	/* runs of a spec with tenant axes or a tenant SLO record each
	 * tenant's figure; the tenants may come from the cluster file */
	if (s->have_tenants)
		h = fnv_str(h, gp_metrics[s->tslo_metric].path);
	run_more(r, &more);
	gp_run_desc_init(&def);
	run_more(&def, &base);
	if (strcmp(more.buf, base.buf))
		h = fnv_str(h, more.buf);
	gp_sbuf_release(&more);
	gp_sbuf_release(&base);
	snprintf(buf, 17, "%016llx", (unsigned long long)h);
	return GP_OK;
}
