/* The switch fabric between nodes: technologies, the derived tree data
 * (depths, IB runs, subtree node ranges) and the source patent's
 * communication weights. */
#include <stdlib.h>
#include <string.h>

#include "gpuplan/model/cluster.h"
#include "gpuplan/util/util.h"
#include "fabric_int.h"

static const struct {
	const char *name;
	double gbps;
	int ib;
} techs[GP_TECH_COUNT] = {
	[GP_TECH_NONE] = { "none", 0, 0 },
	[GP_TECH_IB_FDR] = { "ib-fdr", 56, 1 },
	[GP_TECH_IB_EDR] = { "ib-edr", 100, 1 },
	[GP_TECH_IB_HDR] = { "ib-hdr", 200, 1 },
	[GP_TECH_IB_NDR] = { "ib-ndr", 400, 1 },
	[GP_TECH_IB_XDR] = { "ib-xdr", 800, 1 },
	[GP_TECH_ROCE_25] = { "roce-25", 25, 0 },
	[GP_TECH_ROCE_100] = { "roce-100", 100, 0 },
	[GP_TECH_ROCE_200] = { "roce-200", 200, 0 },
	[GP_TECH_ROCE_400] = { "roce-400", 400, 0 },
	[GP_TECH_ETH_1] = { "eth-1", 1, 0 },
	[GP_TECH_ETH_10] = { "eth-10", 10, 0 },
	[GP_TECH_ETH_25] = { "eth-25", 25, 0 },
	[GP_TECH_ETH_40] = { "eth-40", 40, 0 },
	[GP_TECH_ETH_100] = { "eth-100", 100, 0 },
	[GP_TECH_ETH_200] = { "eth-200", 200, 0 },
	[GP_TECH_ETH_400] = { "eth-400", 400, 0 },
	[GP_TECH_TCPXO_200] = { "tcpxo-200", 200, 0 },
};

const char *gp_fabric_tech_name(int tech)
{
	if (tech < 0 || tech >= GP_TECH_COUNT)
		return "?";
	return techs[tech].name;
}

int gp_fabric_tech_parse(const char *name)
{
	int i;

	for (i = 1; i < GP_TECH_COUNT; i++)
		if (!strcmp(techs[i].name, name))
			return i;
	return -1;
}

double gp_fabric_tech_gbps(int tech)
{
	if (tech < 0 || tech >= GP_TECH_COUNT)
		return 0;
	return techs[tech].gbps;
}

int gp_fabric_tech_is_ib(int tech)
{
	return tech > 0 && tech < GP_TECH_COUNT && techs[tech].ib;
}

static const char *const lb_names[] = { "ecmp", "flow-aware", "adaptive" };

int gp_load_balancing_parse(const char *name)
{
	int i;

	for (i = 0; i < (int)(sizeof(lb_names) / sizeof(lb_names[0])); i++)
		if (!strcmp(lb_names[i], name))
			return i;
	return -1;
}

int gp_cluster_switch_ancestor(const gp_cluster *c, int sw, int up)
{
	while (sw >= 0 && up-- > 0)
		sw = c->switches[sw].parent;
	return sw;
}

static int gp_cluster_switch_lca(const gp_cluster *c, int sa, int sb, int *ha,
				 int *hb)
{
	const gp_switch *s = c->switches;
	int a = 0, b = 0;

	if (sa < 0 || sb < 0)
		return -1;
	while (s[sa].depth > s[sb].depth) {
		sa = s[sa].parent;
		a++;
	}
	while (s[sb].depth > s[sa].depth) {
		sb = s[sb].parent;
		b++;
	}
	/* Members of one stack meet there: the stack is one switch. */
	while (sa != sb && !(s[sa].stack_id >= 0 && s[sa].stack_id == s[sb].stack_id)) {
		sa = s[sa].parent;
		sb = s[sb].parent;
		a++;
		b++;
		if (sa < 0 || sb < 0)
			return -1;
	}
	if (ha)
		*ha = a;
	if (hb)
		*hb = b;
	return sa;
}

int gp_cluster_switch_weight(const gp_cluster *c, int sa, int sb)
{
	int ha, hb, k;

	if (gp_cluster_switch_lca(c, sa, sb, &ha, &hb) < 0)
		return -1;
	k = 1 + (ha > hb ? ha : hb);
	/* ib_up counts the unbroken IB run upwards from each switch; the
	 * path is IB when both runs reach the common switch. */
	if (c->switches[sa].ib_up > ha && c->switches[sb].ib_up > hb)
		return k;
	return 99 + k;
}

int gp_cluster_comm_weight(const gp_cluster *c, int node_a, int node_b)
{
	if (node_a == node_b)
		return 0;
	return gp_cluster_switch_weight(c, c->nodes[node_a].sw, c->nodes[node_b].sw);
}

const int *gp_cluster_nodes_under(const gp_cluster *c, int sw, int *count)
{
	if (sw < 0 || sw >= c->nswitches) {
		*count = 0;
		return c->node_order;
	}
	*count = c->switches[sw].count;
	return c->node_order + c->switches[sw].first;
}

/* ---- derivation (called from gp_cluster_finish) ---- */

typedef struct tree {
	int *child_first, *child_next; /* children lists, sorted by name */
	int *node_first, *node_next;   /* attached nodes, in file order */
} tree;

static int cmp_switch_name(const void *a, const void *b, void *arg)
{
	const gp_cluster *c = arg;

	return strcmp(c->switches[*(const int *)a].name,
		      c->switches[*(const int *)b].name);
}

static int cmp_switch_stack(const void *a, const void *b, void *arg)
{
	const gp_cluster *c = arg;
	int x = *(const int *)a, y = *(const int *)b, r;

	r = strcmp(c->switches[x].stack, c->switches[y].stack);
	return r ? r : (x > y) - (x < y);
}

/* Stacks: stack_id, the lowest index of the members; the members share a
 * parent (one level) and are Ethernet. */
static int derive_stacks(gp_cluster *c, int *order, gp_error *err)
{
	int i, n = 0, first = -1;

	for (i = 0; i < c->nswitches; i++) {
		c->switches[i].stack_id = -1;
		if (c->switches[i].stack)
			order[n++] = i;
	}
	qsort_r(order, (size_t)n, sizeof(int), cmp_switch_stack, c);
	for (i = 0; i < n; i++) {
		gp_switch *sw = &c->switches[order[i]];

		if (i == 0 || strcmp(sw->stack, c->switches[first].stack))
			first = order[i];
		if (gp_fabric_tech_is_ib(sw->tech))
			return gp_error_set(err, GP_EINPUT, c->path, sw->line, sw->col,
					    "switch '%s': 'stack' is for Ethernet switches, not %s",
					    sw->name, gp_fabric_tech_name(sw->tech));
		if (sw->parent != c->switches[first].parent)
			return gp_error_set(err, GP_EINPUT, c->path, sw->line, sw->col,
					    "switch '%s': stack '%s' spans levels (its parent differs "
					    "from that of switch '%s')",
					    sw->name, sw->stack, c->switches[first].name);
		sw->stack_id = first;
	}
	return GP_OK;
}

/* Iterative DFS (trees may be as deep as the switch count): assigns each
 * switch's [first, first+count) range of node_order. */
static void dfs_order(gp_cluster *c, tree *t, int root, int *pos, int *stack)
{
	int sp = 0, s, n, ch;

	stack[sp++] = root;
	while (sp > 0) {
		s = stack[sp - 1];
		if (s >= 0) {
			/* first visit: emit own nodes, push marker + children */
			c->switches[s].first = *pos;
			for (n = t->node_first[s]; n >= 0; n = t->node_next[n])
				c->node_order[(*pos)++] = n;
			stack[sp - 1] = -2 - s;
			for (ch = t->child_first[s]; ch >= 0; ch = t->child_next[ch])
				stack[sp++] = ch;
		} else {
			s = -2 - s;
			c->switches[s].count = *pos - c->switches[s].first;
			sp--;
		}
	}
}

int gp_fabric_derive(gp_cluster *c, gp_error *err)
{
	int ns = c->nswitches, i, s, steps, pos = 0;
	int *state, *order, *stack;
	tree t;
	int d;

	/* Depths, cycle check: follow parents from each switch; a walk longer
	 * than ns steps is a cycle.  Resolved switches end a walk early. */
	state = gp_xcalloc((size_t)ns + 1, sizeof(int)); /* 0 new, 1 done */
	for (i = 0; i < ns; i++) {
		for (s = i, steps = 0; s >= 0 && !state[s]; s = c->switches[s].parent)
			if (++steps > ns) {
				/* after ns steps the walk is inside the cycle */
				gp_switch *sw = &c->switches[s];

				free(state);
				return gp_error_set(err, GP_EINPUT, c->path, sw->line,
						    sw->col,
						    "switch '%s' is its own ancestor (a cycle of 'parent' links)",
						    sw->name);
			}
		d = s >= 0 ? c->switches[s].depth + steps : steps - 1;
		/* assign depths along the walk, top down */
		for (s = i; s >= 0 && !state[s]; s = c->switches[s].parent) {
			c->switches[s].depth = d--;
			state[s] = 1;
		}
	}
	free(state);

	/* Technology inheritance and IB runs, in order of depth. */
	order = gp_xmalloc(((size_t)ns + 1) * sizeof(int));
	c->max_depth = 0;
	for (i = 0; i < ns; i++)
		if (c->switches[i].depth > c->max_depth)
			c->max_depth = c->switches[i].depth;
	/* Counting sort by depth (stable): linear even for a 100,000-deep chain. */
	{
		int *start = gp_xcalloc((size_t)c->max_depth + 2, sizeof(int));

		for (i = 0; i < ns; i++)
			start[c->switches[i].depth + 1]++;
		for (d = 0; d < c->max_depth; d++)
			start[d + 1] += start[d];
		for (i = 0; i < ns; i++)
			order[start[c->switches[i].depth]++] = i;
		free(start);
	}
	for (i = 0; i < ns; i++) {
		gp_switch *sw = &c->switches[order[i]];
		const gp_switch *p = sw->parent >= 0 ? &c->switches[sw->parent] : NULL;

		if (sw->tech == GP_TECH_NONE && p)
			sw->tech = p->tech;
		if (sw->tech == GP_TECH_NONE) {
			free(order);
			return gp_error_set(err, GP_EINPUT, c->path, sw->line, sw->col,
					    "switch '%s' has no 'tech' and no parent to inherit it from",
					    sw->name);
		}
		sw->ib_up = gp_fabric_tech_is_ib(sw->tech) ? 1 + (p ? p->ib_up : 0) : 0;
		sw->nchildren = 0;
		sw->nodes_direct = 0;
	}
	if (derive_stacks(c, order, err) != GP_OK) {
		free(order);
		return GP_EINPUT;
	}

	/* Children (sorted by name) and attached nodes, then the DFS order. */
	t.child_first = gp_xmalloc(((size_t)ns + 1) * sizeof(int));
	t.child_next = gp_xmalloc(((size_t)ns + 1) * sizeof(int));
	t.node_first = gp_xmalloc(((size_t)ns + 1) * sizeof(int));
	t.node_next = gp_xmalloc(((size_t)c->nnodes + 1) * sizeof(int));
	for (i = 0; i < ns; i++)
		t.child_first[i] = t.node_first[i] = -1;
	/* Prepending in name order gives descending child lists; the DFS
	 * stack then pops them in ascending name order. */
	for (i = 0; i < ns; i++)
		order[i] = i;
	qsort_r(order, (size_t)ns, sizeof(int), cmp_switch_name, c);
	for (i = 0; i < ns; i++) {
		int p;

		s = order[i];
		p = c->switches[s].parent;
		if (p >= 0) {
			t.child_next[s] = t.child_first[p];
			t.child_first[p] = s;
			c->switches[p].nchildren++;
		}
	}
	for (i = c->nnodes - 1; i >= 0; i--) {
		s = c->nodes[i].sw;
		if (s >= 0) {
			t.node_next[i] = t.node_first[s];
			t.node_first[s] = i;
			c->switches[s].nodes_direct++;
		}
	}
	free(c->node_order);
	c->node_order = gp_xmalloc(((size_t)c->nnodes + 1) * sizeof(int));
	stack = gp_xmalloc(((size_t)ns * 2 + 1) * sizeof(int));
	pos = 0;
	for (i = 0; i < ns; i++) /* roots in name order */
		if (c->switches[order[i]].parent < 0)
			dfs_order(c, &t, order[i], &pos, stack);
	c->nattached = pos;
	for (i = 0; i < c->nnodes; i++)
		if (c->nodes[i].sw < 0)
			c->node_order[pos++] = i;
	for (i = 0; i < c->nnodes; i++)
		c->nodes[i].tech = c->nodes[i].sw >= 0 ?
			c->switches[c->nodes[i].sw].tech : GP_TECH_NONE;
	free(stack);
	free(order);
	free(t.child_first);
	free(t.child_next);
	free(t.node_first);
	free(t.node_next);
	return GP_OK;
}
