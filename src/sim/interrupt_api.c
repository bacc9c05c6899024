/* Interruptions, the outer part (sim.h, "Interruptions"): nodes and GPUs
 * down and up, events of interruption sources, read access for the
 * sources.  Progress and stopping jobs: interrupt.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim_int.h"

/* ---- nodes and GPUs ---- */

static void capacity_back(sim *s)
{
	s->wait_epoch++;
	s->version++;
	s->freed = 1;
	s->dirty = 1;
}

int gp_sim_node_down(gp_sim *s, int node)
{
	if (node < 0 || node >= s->cl->nnodes)
		return gp_error_set(s->err, GP_EUSAGE, NULL, 0, 0, "no node %d", node);
	gp_alloc_set_state(&s->alloc, node, GP_NODE_DOWN);
	s->version++;
	return GP_OK;
}

int gp_sim_node_up(gp_sim *s, int node)
{
	if (node < 0 || node >= s->cl->nnodes)
		return gp_error_set(s->err, GP_EUSAGE, NULL, 0, 0, "no node %d", node);
	if (s->alloc.node_state[node] != GP_NODE_UP) {
		gp_alloc_set_state(&s->alloc, node, GP_NODE_UP);
		capacity_back(s);
	}
	return GP_OK;
}

int gp_sim_gpu_down(gp_sim *s, int gpu)
{
	if (gpu < 0 || gpu >= s->cl->ngpus)
		return gp_error_set(s->err, GP_EUSAGE, NULL, 0, 0, "no GPU %d", gpu);
	if (!s->ix.gpu_down)
		s->ix.gpu_down = gp_xcalloc((size_t)s->cl->ngpus, sizeof(*s->ix.gpu_down));
	if (s->ix.gpu_down[gpu])
		return GP_OK;
	if (s->alloc.gpu_tasks[gpu] == 0) {
		gp_alloc_take_gpu(&s->alloc, gpu, s->alloc.gpu_free_milli[gpu], s->alloc.gpu_free_mem_mib[gpu]);
		s->ix.gpu_down[gpu] = 1;
	} else {
		s->ix.gpu_down[gpu] = 2;
		s->ix.ngpu_pending++;
	}
	s->version++;
	return GP_OK;
}

int gp_sim_gpu_up(gp_sim *s, int gpu)
{
	if (gpu < 0 || gpu >= s->cl->ngpus)
		return gp_error_set(s->err, GP_EUSAGE, NULL, 0, 0, "no GPU %d", gpu);
	if (!s->ix.gpu_down || !s->ix.gpu_down[gpu])
		return GP_OK;
	if (s->ix.gpu_down[gpu] == 1)
		gp_alloc_give_gpu(&s->alloc, gpu, GP_MILLI - s->alloc.gpu_free_milli[gpu],
				  gp_alloc_gpu_mem_cap(&s->alloc, gpu) - s->alloc.gpu_free_mem_mib[gpu]);
	else
		s->ix.ngpu_pending--;
	s->ix.gpu_down[gpu] = 0;
	capacity_back(s);
	return GP_OK;
}

/* ---- events of sources ---- */

int gp_sim_at(gp_sim *s, const gp_sim_hooks *src, double t, int64_t arg, int weak)
{
	int k;
	size_t idx;

	for (k = 0; k < s->ix.nhooks && s->ix.hooks[k] != src; k++)
		;
	if (k == s->ix.nhooks)
		return gp_error_set(s->err, GP_EUSAGE, NULL, 0, 0, "gp_sim_at: unknown source");
	if (!isfinite(t) || t < s->last_t)
		return gp_error_set(s->err, GP_EUSAGE, NULL, 0, 0,
				    "gp_sim_at: time %g is not finite or in the past (now %g)", t,
				    s->last_t);
	if (s->ix.nsev_free) {
		idx = (size_t)s->ix.sev_free[--s->ix.nsev_free];
	} else {
		if (s->ix.nsev == s->ix.sev_cap) {
			size_t cap = s->ix.sev_cap ? 2 * s->ix.sev_cap : 64;

			s->ix.sev_arg = gp_xrealloc(s->ix.sev_arg, cap * sizeof(*s->ix.sev_arg));
			s->ix.sev_src = gp_xrealloc(s->ix.sev_src, cap * sizeof(*s->ix.sev_src));
			s->ix.sev_weak = gp_xrealloc(s->ix.sev_weak, cap * sizeof(*s->ix.sev_weak));
			s->ix.sev_free = gp_xrealloc(s->ix.sev_free, cap * sizeof(*s->ix.sev_free));
			s->ix.sev_cap = cap;
		}
		idx = s->ix.nsev++;
	}
	s->ix.sev_arg[idx] = arg;
	s->ix.sev_src[idx] = (int8_t)k;
	s->ix.sev_weak[idx] = weak != 0;
	if (weak)
		s->ix.nweak++;
	else
		s->ix.nstrong++;
	gp_sim_heap_push(s, t, EV_CODE(EV_SOURCE, idx));
	return GP_OK;
}

int gp_sim_ix_stale(const sim *s, const ev *e)
{
	if (e->job >= 0)
		return s->ix.jst[e->job] != GP_SIM_JOB_RUNNING || s->ix.fin_seq[e->job] != e->seq;
	if (e->job <= -2 && EV_KIND(e->job) == EV_DISC) {
		int32_t j = EV_IDX(e->job);

		return !s->ix.has_aux[j] || s->ix.aux_seq[j] != e->seq;
	}
	return 0;
}

void gp_sim_ix_event(sim *s, const ev *e)
{
	int32_t idx = EV_IDX(e->job);

	if (EV_KIND(e->job) == EV_DISC) {
		if (gp_sim_ix_stale(s, e)) {
			s->ix.nstale--;
			return;
		}
		s->ix.has_aux[idx] = 0;
		s->disc->on_event(s, idx);
		return;
	}
	{
		const gp_sim_hooks *h = s->ix.hooks[s->ix.sev_src[idx]];
		int64_t arg = s->ix.sev_arg[idx];
		int rc;

		if (s->ix.sev_weak[idx])
			s->ix.nweak--;
		else
			s->ix.nstrong--;
		s->ix.sev_free[s->ix.nsev_free++] = idx;
		rc = h->event ? h->event(h->ud, s, arg) : GP_OK;
		if (rc != GP_OK && s->status == GP_OK) {
			if (s->err && s->err->status == GP_OK)
				gp_error_set(s->err, rc, NULL, 0, 0, "interruption source '%s' failed",
					     h->name ? h->name : "?");
			s->status = rc;
		}
	}
}

/* ---- read access ---- */

double gp_sim_now(const gp_sim *s)
{
	return s->last_t;
}

const gp_cluster *gp_sim_cluster(const gp_sim *s)
{
	return s->cl;
}

const gp_alloc *gp_sim_alloc(const gp_sim *s)
{
	return &s->alloc;
}

const gp_joblist *gp_sim_joblist(const gp_sim *s)
{
	return s->jl;
}

const gp_sim_config *gp_sim_config_of(const gp_sim *s)
{
	return s->cfg;
}

const gp_sim_job *gp_sim_record(const gp_sim *s, int32_t job)
{
	return job >= 0 && (size_t)job < s->n ? &s->res->jobs[job] : NULL;
}

const int32_t *gp_sim_running(const gp_sim *s, size_t *n)
{
	*n = s->ix.nrun;
	return s->ix.run_list;
}

int gp_sim_job_status(const gp_sim *s, int32_t job)
{
	if (job < 0 || (size_t)job >= s->n)
		return GP_SIM_JOB_ENDED;
	return s->ix.jst[job];
}

const gp_placement *gp_sim_placement(const gp_sim *s, int32_t job)
{
	if (job < 0 || (size_t)job >= s->n || s->slot[job] < 0)
		return NULL;
	return &s->pool[s->slot[job]];
}

int gp_sim_node_is_up(const gp_sim *s, int node)
{
	return node >= 0 && node < s->cl->nnodes && s->alloc.node_state[node] == GP_NODE_UP;
}

int32_t gp_sim_node_next(const gp_sim *s, int node, int32_t it, int32_t *job, int *ngpus)
{
	const gp_sim_nodeix *x = &s->ix.nodes;

	if (it >= 0)
		it = x->e[it].next;
	else
		it = x->head && node >= 0 && node < s->cl->nnodes ? x->head[node] : -1;
	if (it >= 0) {
		*job = x->e[it].job;
		*ngpus = x->e[it].ngpus;
	}
	return it;
}

gp_error *gp_sim_error(gp_sim *s)
{
	return s->err;
}
