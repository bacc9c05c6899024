/* The class queues of fifo (doubly linked lists in arrival order, which
 * backfill and fifo-skip use too) and of sjf and priority (binary heaps);
 * las keeps its own lists (las.c). */

#include <stdlib.h>

#include "sim_int.h"

static int sjf_less(const sim *s, int32_t a, int32_t b)
{
	const gp_job *ja = &s->jl->jobs[a], *jb = &s->jl->jobs[b];

	if (s->est[a] != s->est[b])
		return s->est[a] < s->est[b];
	if (ja->submit != jb->submit)
		return ja->submit < jb->submit;
	return a < b;
}

/* priority: higher first, then arrival order. */
static int prio_less(const sim *s, int32_t a, int32_t b)
{
	int pa = s->jl->jobs[a].priority, pb = s->jl->jobs[b].priority;

	if (pa != pb)
		return pa > pb;
	return s->rank[a] < s->rank[b];
}

/* Both orders are total (the job index or rank breaks ties). */
static inline int sjf_cmp(const sim *s, const gp_sim_qitem *a, const gp_sim_qitem *b)
{
	return sjf_less(s, a->job, b->job) ? -1 : a->job != b->job;
}

static inline int prio_cmp(const sim *s, const gp_sim_qitem *a, const gp_sim_qitem *b)
{
	return prio_less(s, a->job, b->job) ? -1 : a->job != b->job;
}
GP_HEAP_FUNCS(sjf_heap, gp_sim_jheap, gp_sim_qitem, const sim *, sjf_cmp)
GP_HEAP_FUNCS(prio_heap, gp_sim_jheap, gp_sim_qitem, const sim *, prio_cmp)

/* Link j into the list (head, tail) after p (-1: at the front). */
void gp_sim_list_link_after(sim *s, int32_t *head, int32_t *tail, int32_t p, int32_t j)
{
	s->prev[j] = p;
	s->next[j] = p >= 0 ? s->next[p] : *head;
	if (p >= 0)
		s->next[p] = j;
	else
		*head = j;
	if (s->next[j] >= 0)
		s->prev[s->next[j]] = j;
	else
		*tail = j;
}

void gp_sim_list_unlink(sim *s, int32_t *head, int32_t *tail, int32_t j)
{
	if (s->prev[j] >= 0)
		s->next[s->prev[j]] = s->next[j];
	else
		*head = s->next[j];
	if (s->next[j] >= 0)
		s->prev[s->next[j]] = s->prev[j];
	else
		*tail = s->prev[j];
}

/* ---- fifo: arrival order ---- */

void gp_sim_fifo_arrival(sim *s, int32_t j)
{
	int k = job_class(&s->jl->jobs[j]);

	gp_sim_list_link_after(s, &s->qhead[k], &s->qtail[k], s->qtail[k], j);
}

/* Back at its arrival position (the backfill index and the walk both rely
 * on queue order = arrival order). */
void gp_sim_fifo_requeue(sim *s, int32_t j)
{
	int k = job_class(&s->jl->jobs[j]);
	int32_t p = -1, q;

	for (q = s->qhead[k]; q >= 0 && s->rank[q] < s->rank[j]; q = s->next[q])
		p = q;
	gp_sim_list_link_after(s, &s->qhead[k], &s->qtail[k], p, j);
}

void gp_sim_fifo_leave(sim *s, int32_t j)
{
	int k = job_class(&s->jl->jobs[j]);

	gp_sim_list_unlink(s, &s->qhead[k], &s->qtail[k], j);
}

int32_t gp_sim_fifo_head(const sim *s, int k)
{
	return s->qhead[k];
}

const gp_sim_discipline gp_sim_disc_fifo = {
	.name = "fifo",
	.on_arrival = gp_sim_fifo_arrival,
	.on_requeue = gp_sim_fifo_requeue,
	.on_leave = gp_sim_fifo_leave,
	.pick_next = gp_sim_fifo_head,
};

/* ---- sjf and priority: one heap per class ---- */

static int heaps_setup(sim *s)
{
	int k;

	for (k = 0; k < NCLASS; k++)
		GP_GROW(s->sjf[k].v, s->sjf[k].cap, s->n ? s->n : 1);
	return GP_OK;
}

static void heaps_teardown(sim *s)
{
	int k;

	for (k = 0; k < NCLASS; k++)
		free(s->sjf[k].v);
}

static int32_t heap_head(const sim *s, int k)
{
	return s->qlen[k] ? s->sjf[k].v[0].job : -1;
}

/* Only the head ever leaves. */
static void sjf_arrival(sim *s, int32_t j)
{
	sjf_heap_push(&s->sjf[job_class(&s->jl->jobs[j])], s, (gp_sim_qitem){ j, 0 });
}

static void sjf_leave(sim *s, int32_t j)
{
	sjf_heap_pop(&s->sjf[job_class(&s->jl->jobs[j])], s);
}

static void prio_arrival(sim *s, int32_t j)
{
	prio_heap_push(&s->sjf[job_class(&s->jl->jobs[j])], s, (gp_sim_qitem){ j, 0 });
}

static void prio_leave(sim *s, int32_t j)
{
	prio_heap_pop(&s->sjf[job_class(&s->jl->jobs[j])], s);
}

const gp_sim_discipline gp_sim_disc_sjf = {
	.name = "sjf",
	.setup = heaps_setup,
	.teardown = heaps_teardown,
	.on_arrival = sjf_arrival,
	.on_leave = sjf_leave,
	.pick_next = heap_head,
};

const gp_sim_discipline gp_sim_disc_priority = {
	.name = "priority",
	.setup = heaps_setup,
	.teardown = heaps_teardown,
	.on_arrival = prio_arrival,
	.on_leave = prio_leave,
	.pick_next = heap_head,
};
