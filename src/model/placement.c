/* Placements, explanations, and applying a placement to the state. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/model/placement.h"
#include "gpuplan/util/util.h"

void gp_placement_init(gp_placement *p)
{
	memset(p, 0, sizeof(*p));
	p->bottleneck = GP_LINK_X;
}

void gp_placement_clear(gp_placement *p)
{
	int i;

	for (i = 0; i < p->nparts; i++)
		p->parts[i].cpus = NULL;
	p->nparts = 0;
	p->cpu_len = 0;
	p->bottleneck = GP_LINK_X;
	p->ring_bw_gbs = 0;
}

void gp_placement_release(gp_placement *p)
{
	if (!p)
		return;
	gp_placement_clear(p);
	free(p->parts);
	free(p->cpu_pool);
	memset(p, 0, sizeof(*p));
}

gp_place_part *gp_placement_add(gp_placement *p, int node)
{
	gp_place_part *part;

	if (p->nparts == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 4;
		p->parts = gp_xrealloc(p->parts, (size_t)p->cap * sizeof(*p->parts));
	}
	part = &p->parts[p->nparts++];
	memset(part, 0, sizeof(*part));
	part->node = node;
	part->milli = GP_MILLI;
	part->numa = -1;
	part->nic = -1;
	part->vf = -1;
	part->nic_class = -1;
	memset(part->gpu_nic, 0xff, sizeof(part->gpu_nic)); /* all -1 */
	return part;
}

void gp_explain_init(gp_explain *e)
{
	memset(e, 0, sizeof(*e));
}

void gp_explain_release(gp_explain *e)
{
	int i;

	if (!e)
		return;
	for (i = 0; i < e->n; i++)
		free(e->lines[i]);
	free(e->lines);
	memset(e, 0, sizeof(*e));
}

void gp_explain_add(gp_explain *e, const char *fmt, ...)
{
	va_list ap;
	char *line;

	if (!e)
		return;
	va_start(ap, fmt);
	if (vasprintf(&line, fmt, ap) < 0)
		line = NULL;
	va_end(ap);
	if (!line)
		return;
	if (e->n == e->cap) {
		e->cap = e->cap ? 2 * e->cap : 8;
		e->lines = gp_xrealloc(e->lines, (size_t)e->cap * sizeof(*e->lines));
	}
	e->lines[e->n++] = line;
}

static void undo_parts(gp_alloc *a, const gp_placement *p, int nparts, int ngpus_last)
{
	int i, g;

	for (i = 0; i < nparts; i++) {
		const gp_place_part *part = &p->parts[i];
		const gp_node *node = &a->cluster->nodes[part->node];
		int upto = i == nparts - 1 && ngpus_last >= 0 ? ngpus_last : part->ngpus;

		for (g = 0; g < upto; g++)
			gp_alloc_give_gpu(a, node->first_gpu + part->gpus[g],
					  part->milli, part->mem_mib);
		if (upto < part->ngpus)
			continue; /* failed inside the GPU loop: nothing else taken */
		for (g = 0; g < part->ncpus; g++)
			gp_alloc_set_cpu(a, part->node, part->cpus[g], 0);
		a->node_free_cpu_milli[part->node] += part->cpu_milli;
		a->node_free_mem_mib[part->node] += part->host_mem_mib;
		if (part->nic >= 0 && part->vf >= 0)
			a->nic_vfs_used[(size_t)part->node * (size_t)a->max_nics + (size_t)part->nic]--;
	}
}

int gp_placement_apply(gp_alloc *a, const gp_placement *p)
{
	int i, g;

	for (i = 0; i < p->nparts; i++) {
		const gp_place_part *part = &p->parts[i];
		const gp_node *node = &a->cluster->nodes[part->node];

		if (part->cpu_milli > a->node_free_cpu_milli[part->node] ||
		    part->host_mem_mib > a->node_free_mem_mib[part->node]) {
			undo_parts(a, p, i, -1);
			return -1;
		}
		for (g = 0; g < part->ngpus; g++) {
			if (part->gpus[g] < 0 || part->gpus[g] >= node->ngpus ||
			    gp_alloc_take_gpu(a, node->first_gpu + part->gpus[g],
					      part->milli, part->mem_mib)) {
				undo_parts(a, p, i + 1, g);
				return -1;
			}
		}
		for (g = 0; g < part->ncpus; g++)
			gp_alloc_set_cpu(a, part->node, part->cpus[g], 1);
		a->node_free_cpu_milli[part->node] -= part->cpu_milli;
		a->node_free_mem_mib[part->node] -= part->host_mem_mib;
		if (part->nic >= 0 && part->vf >= 0)
			a->nic_vfs_used[(size_t)part->node * (size_t)a->max_nics + (size_t)part->nic]++;
	}
	return 0;
}

void gp_placement_undo(gp_alloc *a, const gp_placement *p)
{
	undo_parts(a, p, p->nparts, -1);
}

int gp_explain_wait(gp_explain *e, const char *fmt, ...)
{
	va_list ap;

	if (!e)
		return GP_WAIT;
	va_start(ap, fmt);
	vsnprintf(e->reason, sizeof(e->reason), fmt, ap);
	va_end(ap);
	return GP_WAIT;
}
