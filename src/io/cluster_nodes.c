/* Cluster YAML: the 'fabric' and 'nodes' entries (cluster_yaml.c reads the
 * file, streams these two lists and calls the functions here). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/io/yaml.h"
#include "gpuplan/model/cluster.h"
#include "gpuplan/util/hostlist.h"
#include "gpuplan/util/util.h"
#include "cluster_int.h"

/* -- fabric -- */

static const char *const switch_keys[] = {
	"name", "parent", "tech", "congestion", "adaptive_routing", "load_balancing", "sharp",
	"stack", NULL
};

/* The perf model's fabric keys of one switch (inherited when absent). */
static int load_switch_perf(loader *L, const gp_yaml_node *s, gp_switch *sw)
{
	const gp_yaml_node *x;
	int b;

	x = gp_yaml_get(s, "congestion");
	if (x && gp_yaml_double(&L->doc, x, gp_cy_what(L, "switch '%s' 'congestion'", sw->name),
				0, 100, &sw->congestion, L->err))
		return GP_EINPUT;
	x = gp_yaml_get(s, "adaptive_routing");
	if (x) {
		if (gp_yaml_bool(&L->doc, x, gp_cy_what(L, "switch '%s' 'adaptive_routing'", sw->name),
				 &b, L->err))
			return GP_EINPUT;
		sw->adaptive_routing = b;
	}
	x = gp_yaml_get(s, "load_balancing");
	if (x) {
		const char *v;

		if (gp_yaml_str(&L->doc, x, gp_cy_what(L, "switch '%s' 'load_balancing'", sw->name),
				&v, L->err))
			return GP_EINPUT;
		sw->load_balancing = gp_load_balancing_parse(v);
		if (sw->load_balancing < 0)
			return gp_yaml_error(&L->doc, x, L->err,
					     "switch '%s': unknown load_balancing '%.40s' (one of "
					     "ecmp, flow-aware, adaptive)", sw->name, v);
		/* adaptive routing is one kind of load balancing: the two
		 * keys of one switch must agree */
		if (sw->adaptive_routing >= 0 &&
		    sw->adaptive_routing != (sw->load_balancing == GP_LB_ADAPTIVE))
			return gp_yaml_error(&L->doc, x, L->err,
					     "switch '%s': load_balancing '%s' contradicts "
					     "adaptive_routing: %s", sw->name, v,
					     sw->adaptive_routing ? "true" : "false");
	}
	x = gp_yaml_get(s, "sharp");
	if (x) {
		if (gp_yaml_bool(&L->doc, x, gp_cy_what(L, "switch '%s' 'sharp'", sw->name), &b,
				 L->err))
			return GP_EINPUT;
		sw->sharp = b;
	}
	x = gp_yaml_get(s, "stack");
	if (x) {
		const char *st;

		if (gp_cy_get_name(L, x, "stack name", &st))
			return GP_EINPUT;
		sw->stack = gp_xstrdup(st);
	}
	return GP_OK;
}

static void tech_list(char *buf, size_t size)
{
	size_t len = 0;
	int i;

	buf[0] = '\0';
	for (i = 1; i < GP_TECH_COUNT && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s", i > 1 ? ", " : "",
					gp_fabric_tech_name(i));
}

/* Pass 1 of a fabric entry (index i): name, technology and perf keys; a
 * switch of the cluster. */
int gp_cy_fabric_item(loader *L, const gp_yaml_node *s, size_t i)
{
	gp_cluster *c = L->c;
	const gp_yaml_node *nm, *tech;
	const char *name, *ts;
	int t = GP_TECH_NONE, k;

	if (gp_yaml_check_keys(&L->doc, s, gp_cy_what(L, "fabric entry %zu", i + 1),
			       switch_keys, L->err))
		return GP_EINPUT;
	nm = gp_cy_need(L, s, "name", gp_cy_what(L, "fabric entry %zu", i + 1));
	if (!nm || gp_cy_get_name(L, nm, "switch name", &name))
		return GP_EINPUT;
	k = gp_cluster_find_switch(c, name);
	if (k >= 0)
		return gp_yaml_error(&L->doc, nm, L->err,
				     "duplicate switch name '%s' (first at line %d)",
				     name, c->switches[k].line);
	tech = gp_yaml_get(s, "tech");
	if (tech) {
		if (gp_yaml_str(&L->doc, tech, gp_cy_what(L, "switch '%s' 'tech'", name),
				&ts, L->err))
			return GP_EINPUT;
		t = gp_fabric_tech_parse(ts);
		if (t < 0) {
			char list[400];

			tech_list(list, sizeof(list));
			return gp_yaml_error(&L->doc, tech, L->err,
					     "switch '%s': unknown tech '%.40s' (one of %s)",
					     name, ts, list);
		}
	}
	k = gp_cluster_add_switch(c, name, -1, t);
	c->switches[k].line = nm->line;
	c->switches[k].col = nm->col;
	return load_switch_perf(L, s, &c->switches[k]);
}

/* Pass 2 of switch i: its 'parent' p (NULL when absent). */
int gp_cy_fabric_parent(loader *L, size_t i, const gp_yaml_node *p)
{
	gp_cluster *c = L->c;
	const char *ps;
	int k;

	if (!p || gp_cy_is_null(p))
		return GP_OK;
	if (gp_yaml_str(&L->doc, p, gp_cy_what(L, "switch '%s' 'parent'", c->switches[i].name),
			&ps, L->err))
		return GP_EINPUT;
	k = gp_cluster_find_switch(c, ps);
	if (k < 0)
		return gp_yaml_error(&L->doc, p, L->err,
				     "switch '%s': parent '%.60s' is not a switch in 'fabric'",
				     c->switches[i].name, ps);
	if (k == (int)i)
		return gp_yaml_error(&L->doc, p, L->err, "switch '%s' is its own parent", ps);
	c->switches[i].parent = k;
	return GP_OK;
}

/* 'fabric' from the tree (a list that was not streamed, or no list). */
int gp_cy_load_fabric(loader *L, const gp_yaml_node *seq)
{
	size_t i;

	if (gp_yaml_expect(&L->doc, seq, GP_YAML_SEQ, "'fabric'", L->err))
		return GP_EINPUT;
	if (seq->n > GP_CLUSTER_MAX_NODES)
		return gp_yaml_error(&L->doc, seq, L->err,
				     "'fabric' has more than %d switches", GP_CLUSTER_MAX_NODES);
	/* Pass 1: names and technologies (parents may come later). */
	for (i = 0; i < seq->n; i++)
		if (gp_cy_fabric_item(L, seq->items[i], i))
			return GP_EINPUT;
	/* Pass 2: parents. */
	for (i = 0; i < seq->n; i++)
		if (gp_cy_fabric_parent(L, i, gp_yaml_get(seq->items[i], "parent")))
			return GP_EINPUT;
	return GP_OK;
}

/* -- nodes -- */

static const char *const node_keys[] = {
	"name", "type", "switch", "count", "labels", "state", "rails", NULL
};

/* 'rails' (v): the leaf switch of each rail, rail 0 first; null for a
 * rail not cabled.  *out is a new array of *n indices (-1 for null). */
static int load_rails(loader *L, const gp_yaml_node *v, const char *owner, int **out, int *n)
{
	size_t i;
	int *r;

	*out = NULL;
	*n = 0;
	if (gp_yaml_expect(&L->doc, v, GP_YAML_SEQ, gp_cy_what(L, "%s 'rails'", owner), L->err))
		return GP_EINPUT;
	if (v->n == 0 || v->n > GP_TOPO_MAX_GPUS)
		return gp_yaml_error(&L->doc, v, L->err, "%s: 'rails' lists 1 to %d leaf switches",
				     owner, GP_TOPO_MAX_GPUS);
	r = gp_xmalloc(v->n * sizeof(*r));
	for (i = 0; i < v->n; i++) {
		const char *s;

		r[i] = -1;
		if (gp_cy_is_null(v->items[i]))
			continue;
		if (gp_yaml_str(&L->doc, v->items[i], gp_cy_what(L, "%s rail %zu", owner, i), &s,
				L->err)) {
			free(r);
			return GP_EINPUT;
		}
		r[i] = gp_cluster_find_switch(L->c, s);
		if (r[i] < 0) {
			free(r);
			return gp_yaml_error(&L->doc, v->items[i], L->err,
					     "%s: rail %zu's switch '%.60s' is not in 'fabric'", owner, i, s);
		}
	}
	*out = r;
	*n = (int)v->n;
	return GP_OK;
}

static int load_labels(loader *L, const gp_yaml_node *v, gp_label **out,
		       int *nout)
{
	size_t i;

	*out = NULL;
	*nout = 0;
	if (gp_yaml_expect(&L->doc, v, GP_YAML_MAP, "'labels'", L->err))
		return GP_EINPUT;
	if (v->n > 256)
		return gp_yaml_error(&L->doc, v, L->err, "more than 256 labels");
	if (v->n == 0)
		return GP_OK;
	*out = gp_xcalloc(v->n, sizeof(**out));
	for (i = 0; i < v->n; i++) {
		const char *val;

		if (gp_yaml_str(&L->doc, v->items[i],
				gp_cy_what(L, "label '%s'", v->keys[i]->scalar), &val, L->err)) {
			for (int k = 0; k < *nout; k++) {
				free((*out)[k].key);
				free((*out)[k].value);
			}
			free(*out);
			*out = NULL;
			*nout = 0;
			return GP_EINPUT;
		}
		(*out)[i].key = gp_xstrdup(v->keys[i]->scalar);
		(*out)[i].value = gp_xstrdup(val);
		(*nout)++;
	}
	return GP_OK;
}

/* Node entry v (index i): one node, or several (count, hostlist). */
int gp_cy_node_item(loader *L, const gp_yaml_node *v, size_t i)
{
	gp_cluster *c = L->c;
	const gp_yaml_node *nm, *ty, *sw, *x;
	const char *name, *s;
	char owner[200];
	long count = 1, k;
	int type, swi = -1, state = 0, expand, *rails = NULL, nrails = 0, rc = GP_OK;
	gp_hostlist hl;

	snprintf(owner, sizeof(owner), "node entry %zu", i + 1);
	if (gp_yaml_check_keys(&L->doc, v, owner, node_keys, L->err))
		return GP_EINPUT;
	nm = gp_cy_need(L, v, "name", owner);
	if (!nm || gp_cy_get_name(L, nm, "node name", &name))
		return GP_EINPUT;
	snprintf(owner, sizeof(owner), "node '%s'", name);
	ty = gp_cy_need(L, v, "type", owner);
	if (!ty || gp_yaml_str(&L->doc, ty, gp_cy_what(L, "%s 'type'", owner), &s, L->err))
		return GP_EINPUT;
	type = gp_cluster_find_type(c, s);
	if (type < 0)
		return gp_yaml_error(&L->doc, ty, L->err,
				     "%s: type '%.60s' is not in 'node_types'", owner, s);
	sw = gp_yaml_get(v, "switch");
	if (sw && !gp_cy_is_null(sw)) {
		if (gp_yaml_str(&L->doc, sw, gp_cy_what(L, "%s 'switch'", owner), &s, L->err))
			return GP_EINPUT;
		swi = gp_cluster_find_switch(c, s);
		if (swi < 0)
			return gp_yaml_error(&L->doc, sw, L->err,
					     "%s: switch '%.60s' is not in 'fabric'", owner, s);
	}
	x = gp_yaml_get(v, "count");
	expand = x != NULL;
	if (x && gp_yaml_long(&L->doc, x, gp_cy_what(L, "%s 'count'", owner), 1,
			      GP_CLUSTER_MAX_NODES, &count, L->err))
		return GP_EINPUT;
	if (c->nnodes + count > GP_CLUSTER_MAX_NODES)
		return gp_yaml_error(&L->doc, x ? x : nm, L->err,
				     "more than %d nodes in the cluster",
				     GP_CLUSTER_MAX_NODES);
	x = gp_yaml_get(v, "state");
	if (x) {
		if (gp_yaml_str(&L->doc, x, gp_cy_what(L, "%s 'state'", owner), &s, L->err))
			return GP_EINPUT;
		if (!strcmp(s, "up"))
			state = 0;
		else if (!strcmp(s, "down"))
			state = 1;
		else if (!strcmp(s, "draining"))
			state = 2;
		else
			return gp_yaml_error(&L->doc, x, L->err,
					     "%s: state '%.40s' is not up, down or draining",
					     owner, s);
	}
	/* a Slurm hostlist as the name ("gpu-[001-016]"): one node each */
	gp_hostlist_init(&hl);
	if (strchr(name, '[')) {
		gp_error herr = GP_ERROR_INIT;

		if (expand) {
			gp_hostlist_release(&hl);
			return gp_yaml_error(&L->doc, nm, L->err,
					     "%s: a hostlist name and 'count' exclude each other",
					     owner);
		}
		if (gp_hostlist_expand(name, strlen(name), &hl, L->doc.path, nm->line,
				       nm->col + (nm->quoted ? 1 : 0), &herr)) {
			*L->err = herr;
			gp_hostlist_release(&hl);
			return GP_EINPUT;
		}
		count = (long)hl.n;
		if (c->nnodes + count > GP_CLUSTER_MAX_NODES) {
			gp_hostlist_release(&hl);
			return gp_yaml_error(&L->doc, nm, L->err,
					     "more than %d nodes in the cluster",
					     GP_CLUSTER_MAX_NODES);
		}
	}
	x = gp_yaml_get(v, "rails");
	if (x && !gp_cy_is_null(x)) {
		if (load_rails(L, x, owner, &rails, &nrails)) {
			gp_hostlist_release(&hl);
			return GP_EINPUT;
		}
		/* the node's own switch, without one: its first cabled rail's
		 * leaf (as Slurm sees a rail-optimized node) */
		for (k = 0; swi < 0 && k < nrails; k++)
			swi = rails[k];
	}
	for (k = 0; k < count && rc == GP_OK; k++) {
		char *nname = expand ? gp_xasprintf("%s-%ld", name, k) : NULL;
		int id = gp_cluster_add_node(c, nname ? nname : hl.n ? hl.names[k] : name, type,
					     swi);
		gp_node *n = &c->nodes[id];

		free(nname);
		n->line = nm->line;
		n->col = nm->col;
		n->state = state;
		if (nrails) {
			n->rails = gp_xmalloc((size_t)nrails * sizeof(*n->rails));
			memcpy(n->rails, rails, (size_t)nrails * sizeof(*n->rails));
			n->nrails = nrails;
		}
		x = gp_yaml_get(v, "labels");
		if (x && load_labels(L, x, &n->labels, &n->nlabels))
			rc = GP_EINPUT;
	}
	free(rails);
	gp_hostlist_release(&hl);
	return rc;
}

/* 'nodes' from the tree (a list that was not streamed, or no list). */
int gp_cy_load_nodes(loader *L, const gp_yaml_node *seq)
{
	size_t i;

	if (gp_yaml_expect(&L->doc, seq, GP_YAML_SEQ, "'nodes'", L->err))
		return GP_EINPUT;
	if (seq->n == 0)
		return gp_yaml_error(&L->doc, seq, L->err, "'nodes' is empty");
	for (i = 0; i < seq->n; i++)
		if (gp_cy_node_item(L, seq->items[i], i))
			return GP_EINPUT;
	return GP_OK;
}
