/* Import: the allocation state written beside the cluster YAML: one entry
 * a job on a node, then per-node use no job accounts for. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gpuplan/io/yaml.h"
#include "gpuplan/model/alloc.h"
#include "gpuplan/util/hostlist.h"
#include "import_int.h"

/* ---- the state ---- */

static void put_gpus(gp_sbuf *sb, const int *g, int n)
{
	int i;

	gp_sbuf_adds(sb, "gpus: [");
	for (i = 0; i < n; i++)
		gp_sbuf_addf(sb, "%s%d", i ? ", " : "", g[i]);
	gp_sbuf_adds(sb, "]");
}

static void put_entry(gp_sbuf *st, const char *job, const gp_inv_node *n, const int *gpus,
		      int ng, const int *cpus, int ncpus, int cpu_count, int64_t mem_mib)
{
	int i;

	gp_sbuf_adds(st, "  - {job: ");
	gp_yaml_quote(st, job);
	gp_sbuf_adds(st, ", node: ");
	gp_yaml_quote(st, n->name);
	gp_sbuf_adds(st, ", ");
	put_gpus(st, gpus, ng);
	if (ncpus > 0) {
		gp_sbuf_adds(st, ", cpus: [");
		for (i = 0; i < ncpus; i++)
			gp_sbuf_addf(st, "%s%d", i ? ", " : "", cpus[i]);
		gp_sbuf_adds(st, "]");
	} else if (cpu_count > 0) {
		gp_sbuf_addf(st, ", cpus: %d", cpu_count);
	}
	if (mem_mib > 0)
		gp_sbuf_addf(st, ", memory_gib: %.17g", (double)mem_mib / 1024.0);
	gp_sbuf_adds(st, "}\n");
}

/* Take want GPUs for a job on node k: the given indices when known (those
 * out of range or taken already are dropped with a warning), else the
 * lowest free ones. */
static int take_gpus(gp_inventory *inv, const gp_inv_node *n, uint64_t *used,
		     const gp_inv_alloc *a, int *out, int *guessed)
{
	int i, ng = 0;

	if (a->gpus_known) {
		for (i = 0; i < 64; i++) {
			int g = i;

			if (!(a->gpus >> i & 1))
				continue;

			if (g >= n->ngpus) {
				gp_inv_warn(inv, a->file, a->line,
					    "job '%s': GPU %d is past the %d GPUs of '%s'; dropped",
					    a->job, g, n->ngpus, n->name);
				continue;
			}
			if (*used >> g & 1) {
				gp_inv_warn(inv, a->file, a->line,
					    "job '%s': GPU %d of '%s' is already taken by another "
					    "entry (shared GPU?); dropped", a->job, g, n->name);
				continue;
			}
			*used |= 1ull << g;
			out[ng++] = g;
		}
		return ng;
	}
	for (i = 0; i < n->ngpus && ng < a->ngpus; i++)
		if (!(*used >> i & 1)) {
			*used |= 1ull << i;
			out[ng++] = i;
			*guessed = 1;
		}
	if (ng < a->ngpus)
		gp_inv_warn(inv, a->file, a->line, "job '%s' asks %d GPUs on '%s', only %d free",
			    a->job, a->ngpus, n->name, ng);
	return ng;
}

/* What is left on a node as the state loader will book the entries. */
typedef struct node_left {
	uint64_t *cpu_used;    /* GP_TOPO_MAX_CPUS bits, made on first use */
	int cpus;
	int64_t mem_mib;
} node_left;

/* The CPU list of job a on node n when every CPU is on the node and free
 * (Slurm lets jobs share CPUs when oversubscribing; the state does not),
 * booked; 0 (with a warning) when not. */
static int take_cpus(gp_inventory *inv, const gp_inv_node *n, const gp_inv_alloc *a, int ncap,
		     node_left *left)
{
	int i;

	for (i = 0; i < a->ncpus; i++) {
		int c = a->cpus[i];

		if (c >= ncap) {
			gp_inv_warn(inv, a->file, a->line,
				    "job '%s': CPU %d is past the %d CPUs of '%s'; CPU list dropped",
				    a->job, c, ncap, n->name);
			return 0;
		}
		if (left->cpu_used && (left->cpu_used[c / 64] >> (c % 64) & 1)) {
			gp_inv_warn(inv, a->file, a->line,
				    "job '%s': CPU %d of '%s' is already taken by another entry "
				    "(oversubscribed?); CPU list dropped", a->job, c, n->name);
			return 0;
		}
		if (i && c <= a->cpus[i - 1]) {
			gp_inv_warn(inv, a->file, a->line,
				    "job '%s': CPU list on '%s' is not ascending; dropped",
				    a->job, n->name);
			return 0;
		}
	}
	if (!left->cpu_used)
		left->cpu_used = gp_xcalloc(GP_TOPO_MAX_CPUS / 64, sizeof(uint64_t));
	for (i = 0; i < a->ncpus; i++)
		left->cpu_used[a->cpus[i] / 64] |= 1ull << (a->cpus[i] % 64);
	left->cpus -= a->ncpus;
	return a->ncpus;
}

/* mem MiB of job on node n when they are left there, booked; else 0 with
 * a warning. */
static int64_t take_mem(gp_inventory *inv, const gp_inv_node *n, const char *job, int64_t mem,
			const char *file, int line, node_left *left)
{
	if (mem <= 0)
		return 0;
	if (mem > left->mem_mib) {
		gp_inv_warn(inv, file, line, "job '%s': %lld MiB of memory on '%s', which has %lld "
			    "MiB left; memory left out", job, (long long)mem, n->name,
			    (long long)left->mem_mib);
		return 0;
	}
	left->mem_mib -= mem;
	return mem;
}

void gp_import_write_state(gp_inventory *inv, const int *keep, int nkeep,
			   const gp_import_cap *cap, gp_sbuf *st)
{
	node_left *left = gp_xcalloc((size_t)inv->n + 1, sizeof(*left));
	uint64_t *used = gp_xcalloc((size_t)inv->n + 1, sizeof(*used));
	int *covered = gp_xcalloc((size_t)inv->n + 1, sizeof(*covered));
	int *guessed = gp_xcalloc((size_t)inv->n + 1, sizeof(*guessed));
	int *kept = gp_xcalloc((size_t)inv->n + 1, sizeof(*kept));
	const char **skipped = gp_xcalloc(inv->nalloc + 1, sizeof(*skipped));
	size_t nskipped = 0, i;
	int k, s, any = 0;
	gp_sbuf body;

	gp_sbuf_init(&body);
	for (k = 0; k < nkeep; k++) {
		kept[keep[k]] = 1;
		left[keep[k]].cpus = cap[keep[k]].cpus;
		left[keep[k]].mem_mib = cap[keep[k]].mem_mib;
	}
	for (i = 0; i < inv->nalloc; i++) {
		const gp_inv_alloc *a = &inv->allocs[i];
		gp_inv_node *n = gp_inv_node_find(inv, a->node);
		int gpus[GP_TOPO_MAX_GPUS], ng, idx, g = 0, ncpus;
		int64_t mem;

		idx = n ? (int)(n - inv->nodes) : -1;
		if (idx < 0 || !kept[idx]) {
			skipped[nskipped++] = a->node;
			continue;
		}
		covered[idx] = 1;
		ng = take_gpus(inv, n, &used[idx], a, gpus, &g);
		guessed[idx] |= g;
		ncpus = a->ncpus > 0 ? take_cpus(inv, n, a, cap[idx].cpus, &left[idx]) : 0;
		mem = take_mem(inv, n, a->job, a->mem_mib, a->file, a->line, &left[idx]);
		if (ng == 0 && ncpus == 0 && mem == 0)
			continue;
		put_entry(&body, a->job, n, gpus, ng, a->cpus, ncpus, 0, mem);
		any = 1;
	}
	/* per-node use that no job accounts for */
	for (k = 0; k < nkeep; k++) {
		gp_inv_node *n = &inv->nodes[keep[k]];
		int gpus[GP_TOPO_MAX_GPUS], ng = 0, g;
		char *job;

		if (n->used <= 0)
			continue;
		if (n->used_idx) {
			for (g = 0; g < n->ngpus; g++)
				if ((n->used_mask >> g & 1) && !(used[keep[k]] >> g & 1))
					gpus[ng++] = g;
		} else {
			int have = __builtin_popcountll(used[keep[k]]);

			for (g = 0; g < n->ngpus && have + ng < n->used; g++)
				if (!(used[keep[k]] >> g & 1))
					gpus[ng++] = g;
			if (ng)
				guessed[keep[k]] = 1;
		}
		if (!ng)
			continue;
		for (g = 0; g < ng; g++)
			used[keep[k]] |= 1ull << gpus[g];
		job = gp_xasprintf("in-use@%s", n->name);
		{
			node_left *l = &left[keep[k]];
			int ncpu = covered[keep[k]] || n->cpu_alloc <= 0 ? 0 : n->cpu_alloc;

			/* counts the scheduler gives for the whole node, held to
			 * what the cluster has */
			if (ncpu > l->cpus) {
				gp_inv_warn(inv, n->file, n->line, "node '%s' has %d CPUs allocated "
					    "and %d left; the state holds %d", n->name, ncpu,
					    l->cpus > 0 ? l->cpus : 0, l->cpus > 0 ? l->cpus : 0);
				ncpu = l->cpus > 0 ? l->cpus : 0;
			}
			l->cpus -= ncpu;
			put_entry(&body, job, n, gpus, ng, NULL, 0, ncpu,
				  covered[keep[k]] ? 0 : take_mem(inv, n, job, n->mem_alloc_mib,
								n->file, n->line, l));
		}
		free(job);
		any = 1;
	}
	{
		const char **names = gp_xcalloc((size_t)nkeep + 1, sizeof(*names));
		size_t nn = 0;

		for (k = 0; k < nkeep; k++)
			if (guessed[keep[k]])
				names[nn++] = inv->nodes[keep[k]].name;
		gp_inv_warn_hosts(inv, names, nn,
				     "report GPU counts without indices; the state takes the lowest "
				     "free indices there");
		free(names);
	}
	gp_inv_warn_hosts(inv, skipped, nskipped,
			     "with jobs are not in the cluster (no GPUs, or unknown); their jobs "
			     "are left out of the state");
	gp_sbuf_adds(st, "# gpuplan allocation state (see gpuplan(1), \"Allocation state\")\n");
	for (s = GP_NODE_DOWN; s <= GP_NODE_DRAINING; s++) {
		int first = 1;

		for (k = 0; k < nkeep; k++) {
			if (inv->nodes[keep[k]].state != s)
				continue;
			gp_sbuf_adds(st, first ? (s == GP_NODE_DOWN ? "down: [" : "draining: [") : ", ");
			gp_yaml_quote(st, inv->nodes[keep[k]].name);
			first = 0;
		}
		if (!first)
			gp_sbuf_adds(st, "]\n");
	}
	gp_sbuf_adds(st, any ? "allocations:\n" : "allocations: []\n");
	gp_sbuf_add(st, body.buf, body.len);
	gp_sbuf_release(&body);
	for (i = 0; i < inv->n; i++)
		free(left[i].cpu_used);
	free(left);
	free(used);
	free(covered);
	free(guessed);
	free(kept);
	free(skipped);
}
