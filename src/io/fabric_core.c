/* The fabric an import builds (fabric_int.h): switches and the leaf of
 * each node, kept by name; the oddities of a file (a second leaf, a second
 * parent, a cycle, several roots) warned and resolved the same way
 * whatever the file's form. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric_int.h"
#include "gpuplan/util/util.h"

/* ---- names -> indices ---- */

int gp_fsmap_get(const gp_fsmap *m, const char *k)
{
	size_t h;

	if (!m->cap)
		return -1;
	for (h = gp_hash_str(k) & (m->cap - 1); m->key[h]; h = (h + 1) & (m->cap - 1))
		if (!strcmp(m->key[h], k))
			return m->val[h];
	return -1;
}

void gp_fsmap_put(gp_fsmap *m, const char *k, int v)
{
	size_t h, i;

	if (2 * (m->n + 1) > m->cap) {
		gp_fsmap o = *m;

		m->cap = o.cap ? o.cap * 2 : 64;
		m->key = gp_xcalloc(m->cap, sizeof(*m->key));
		m->val = gp_xcalloc(m->cap, sizeof(*m->val));
		m->n = 0;
		for (i = 0; i < o.cap; i++)
			if (o.key[i])
				gp_fsmap_put(m, o.key[i], o.val[i]);
		free(o.key);
		free(o.val);
	}
	for (h = gp_hash_str(k) & (m->cap - 1); m->key[h]; h = (h + 1) & (m->cap - 1))
		if (!strcmp(m->key[h], k)) {
			m->val[h] = v;
			return;
		}
	m->key[h] = k;
	m->val[h] = v;
	m->n++;
}

void gp_fabric_init(gp_fabric *f)
{
	memset(f, 0, sizeof(*f));
	f->index = gp_xcalloc(1, sizeof(gp_fidx));
}

void gp_fabric_release(gp_fabric *f)
{
	gp_fidx *x;
	size_t i;

	if (!f)
		return;
	x = f->index;
	for (i = 0; i < f->nsw; i++) {
		free(f->sw[i].name);
		free(f->sw[i].rails);
	}
	free(f->sw);
	for (i = 0; i < f->nnode; i++)
		free(f->node[i]);
	free(f->node);
	free(f->node_sw);
	free(f->node_line);
	for (i = 0; i < f->nwarn; i++)
		free(f->warnings[i]);
	free(f->warnings);
	free(f->tech);
	free(f->form);
	for (i = 0; i < f->nlevels; i++)
		free(f->levels[i]);
	free(f->levels);
	if (x) {
		free(x->pend);
		free(x->sw.key);
		free(x->sw.val);
		free(x->node.key);
		free(x->node.val);
	}
	free(x);
	memset(f, 0, sizeof(*f));
}

void gp_fabric_warn(gp_fabric *f, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	if (!s)
		return;
	GP_GROW(f->warnings, f->capwarn, f->nwarn + 1);
	f->warnings[f->nwarn++] = gp_xstrdup(s);
	free(s);
}

/* The switch named name (made when new); -1 past the cap. */
int gp_fabric_sw(gp_fabric *f, const char *name, int line)
{
	gp_fidx *x = f->index;
	int i = gp_fsmap_get(&x->sw, name);

	if (i >= 0)
		return i;
	if (f->nsw >= GP_FABRIC_MAX_SWITCHES)
		return -1;
	GP_GROW(f->sw, f->capsw, f->nsw + 1);
	memset(&f->sw[f->nsw], 0, sizeof(f->sw[f->nsw]));
	f->sw[f->nsw].name = gp_xstrdup(name);
	f->sw[f->nsw].parent = -1;
	f->sw[f->nsw].line = line;
	gp_fsmap_put(&x->sw, f->sw[f->nsw].name, (int)f->nsw);
	return (int)f->nsw++;
}

int gp_fabric_node_switch(const gp_fabric *f, const char *node)
{
	const gp_fidx *x = f->index;
	int i = gp_fsmap_get(&x->node, node);

	return i >= 0 ? f->node_sw[i] : -1;
}

/* node under leaf s; a second leaf is warned and ignored. */
int gp_fabric_attach(gp_fabric *f, const char *file, int line, const char *node, int s)
{
	gp_fidx *x = f->index;
	int i = gp_fsmap_get(&x->node, node);

	if (i >= 0) {
		if (f->node_sw[i] != s) {
			GP_GROW(x->pend, x->cappend, x->npend + 1);
			x->pend[x->npend] = (gp_fpend){ i, s, x->npend, f->nwarn };
			x->npend++;
			gp_fabric_warn(f, "%s:%d: node '%s' is under '%s' (line %d) and '%s': kept under '%s'",
			     file, line, node, f->sw[f->node_sw[i]].name, f->node_line[i], f->sw[s].name,
			     f->sw[f->node_sw[i]].name);
		}
		return GP_OK;
	}
	if (f->nnode >= GP_FABRIC_MAX_NODES)
		return -1;
	if (f->nnode == f->capnode) {
		f->capnode = f->capnode ? 2 * f->capnode : 256;
		f->node = gp_xrealloc(f->node, f->capnode * sizeof(*f->node));
		f->node_sw = gp_xrealloc(f->node_sw, f->capnode * sizeof(*f->node_sw));
		f->node_line = gp_xrealloc(f->node_line, f->capnode * sizeof(*f->node_line));
	}
	f->node[f->nnode] = gp_xstrdup(node);
	f->node_sw[f->nnode] = s;
	f->node_line[f->nnode] = line;
	gp_fsmap_put(&x->node, f->node[f->nnode], (int)f->nnode);
	f->nnode++;
	return GP_OK;
}

/* child's parent is p, unless it has one already. */
void gp_fabric_link(gp_fabric *f, const char *file, int line, int child, int p)
{
	if (child == p) {
		gp_fabric_warn(f, "%s:%d: switch '%s' lists itself among its switches: ignored", file, line,
		     f->sw[p].name);
		return;
	}
	if (f->sw[child].parent >= 0) {
		if (f->sw[child].parent != p)
			gp_fabric_warn(f, "%s:%d: switch '%s' is under '%s' and '%s': kept under '%s'", file, line,
			     f->sw[child].name, f->sw[f->sw[child].parent].name, f->sw[p].name,
			     f->sw[f->sw[child].parent].name);
		return;
	}
	f->sw[child].parent = p;
}

/* ---- after a file: rails, cycles and roots ---- */

static int cmp_pend(const void *a, const void *b, void *arg)
{
	const gp_fabric *f = arg;
	const gp_fpend *p = a, *q = b;
	int la = f->node_sw[p->node], lb = f->node_sw[q->node];

	if (la != lb)
		return la < lb ? -1 : 1;
	if (p->node != q->node)
		return p->node < q->node ? -1 : 1;
	return p->seq < q->seq ? -1 : p->seq > q->seq;
}

/* The nodes under leaf l0 (m of them) at pend[a..b), sorted by node: each
 * lists the same other leaves in the same order, which serve no node as
 * its first and are listed for no other node.  Returns the count of other
 * leaves (0: not rails). */
static size_t rail_group(const gp_fpend *pend, size_t a, size_t b, size_t m, const size_t *under,
			 const size_t *listed)
{
	size_t k = 0, i, j, nodes = 0;

	while (a + k < b && pend[a + k].node == pend[a].node)
		k++;
	if (k + 1 > 64)
		return 0;
	for (i = a; i < b; i += k) {
		nodes++;
		for (j = 0; j < k; j++)
			if (i + j >= b || pend[i + j].node != pend[i].node ||
			    pend[i + j].leaf != pend[a + j].leaf)
				return 0;
		if (i + k < b && pend[i + k].node == pend[i].node)
			return 0;
	}
	if (nodes != m)
		return 0;
	for (j = 0; j < k; j++)
		if (under[pend[a + j].leaf] || listed[pend[a + j].leaf] != m)
			return 0;
	for (j = 0; j < k; j++)
		for (i = j + 1; i < k; i++)
			if (pend[a + j].leaf == pend[a + i].leaf)
				return 0;
	return k;
}

/* A rail-optimized file lists every node under each of its rails' leaves:
 * leaves that serve exactly the nodes of another become their rails. */
static void find_rails(gp_fabric *f, const char *file)
{
	gp_fidx *x = f->index;
	size_t *under, *listed, a, b, i, k, nw, ngroups = 0;
	unsigned char *drop;
	int *groups;

	if (!x->npend)
		return;
	under = gp_xcalloc(f->nsw + 1, sizeof(*under));
	listed = gp_xcalloc(f->nsw + 1, sizeof(*listed));
	drop = gp_xcalloc(f->nwarn + 1, 1);
	groups = gp_xmalloc(f->nsw * sizeof(*groups) + 1);
	for (i = 0; i < f->nnode; i++)
		under[f->node_sw[i]]++;
	for (i = 0; i < x->npend; i++)
		listed[x->pend[i].leaf]++;
	qsort_r(x->pend, x->npend, sizeof(*x->pend), cmp_pend, f);
	for (a = 0; a < x->npend; a = b) {
		int l0 = f->node_sw[x->pend[a].node];
		gp_fabric_switch *g = &f->sw[l0];

		for (b = a; b < x->npend && f->node_sw[x->pend[b].node] == l0; b++)
			;
		k = rail_group(x->pend, a, b, under[l0], under, listed);
		if (!k || g->nrails)
			continue;
		g->rails = gp_xmalloc((k + 1) * sizeof(*g->rails));
		g->rails[g->nrails++] = l0;
		for (i = 0; i < k; i++)
			g->rails[g->nrails++] = x->pend[a + i].leaf;
		for (i = a; i < b; i++)
			drop[x->pend[i].warn] = 1;
		groups[ngroups++] = l0;
	}
	for (i = nw = 0; i < f->nwarn; i++) {
		if (drop[i])
			free(f->warnings[i]);
		else
			f->warnings[nw++] = f->warnings[i];
	}
	f->nwarn = nw;
	for (i = 0; i < ngroups; i++)
		for (k = 1; k < (size_t)f->sw[groups[i]].nrails; k++) {
			const gp_fabric_switch *g = &f->sw[groups[i]], *e = &f->sw[g->rails[k]];

			gp_fabric_warn(f, "%s:%d: leaf '%s' serves the same nodes as '%s': a rail of "
			     "those nodes (their switch stays '%s')", file, e->line, e->name, g->name,
			     g->name);
		}
	x->npend = 0;
	free(groups);
	free(under);
	free(listed);
	free(drop);
}

void gp_fabric_resolve(gp_fabric *f, const char *file)
{
	size_t i, roots = 0;

	find_rails(f, file);

	for (i = 0; i < f->nsw; i++) {
		size_t steps = 0;
		int s = (int)i;

		while (f->sw[s].parent >= 0 && steps <= f->nsw) {
			s = f->sw[s].parent;
			steps++;
		}
		if (steps > f->nsw) {
			/* a cycle through i's ancestors: cut at the switch that closes it */
			int a = (int)i, b;

			for (steps = 0; steps < f->nsw; steps++)
				a = f->sw[a].parent;
			b = a;
			gp_fabric_warn(f, "%s:%d: the switches above '%s' form a cycle: its link to '%s' is "
			     "dropped", file, f->sw[b].line, f->sw[b].name, f->sw[f->sw[b].parent].name);
			f->sw[b].parent = -1;
		}
	}
	for (i = 0; i < f->nsw; i++)
		roots += f->sw[i].parent < 0;
	if (roots > 1) {
		int r0 = -1;

		for (i = 0; i < f->nsw && r0 < 0; i++)
			if (f->sw[i].parent < 0)
				r0 = (int)i;
		gp_fabric_warn(f, "%s: %zu switches have no parent ('%s' and others): %zu separate trees, and no "
		     "job spans two of them", file, roots, f->sw[r0].name, roots);
	}
}
