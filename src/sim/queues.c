/* The class queues: doubly linked lists in queue order (fifo, backfill),
 * binary heaps (sjf, priority), or one list per (class, queue) ordered by
 * the time the job entered that queue (las). */

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
static inline int queue_cmp(const sim *s, const gp_sim_qitem *a, const gp_sim_qitem *b)
{
	int less = s->cfg->queue == GP_SIM_SJF ? sjf_less(s, a->job, b->job)
					       : prio_less(s, a->job, b->job);

	return less ? -1 : a->job != b->job;
}
GP_HEAP_FUNCS(qheap, gp_sim_jheap, gp_sim_qitem, const sim *, queue_cmp)

static int is_heap(const sim *s)
{
	return s->cfg->queue == GP_SIM_SJF || s->cfg->queue == GP_SIM_PRIORITY;
}

/* las list order: time it entered its queue, then arrival; with
 * las_preempted_first the preempted jobs before the others, the most
 * recently preempted first. */
int gp_sim_las_before(const sim *s, int32_t a, int32_t b)
{
	if (s->lfront && (s->lfront[a] || s->lfront[b])) {
		if (s->lfront[a] != s->lfront[b])
			return s->lfront[a];
		if (s->pre_t[a] != s->pre_t[b])
			return s->pre_t[a] > s->pre_t[b];
		return s->rank[a] < s->rank[b];
	}
	if (s->lvl_t[a] != s->lvl_t[b])
		return s->lvl_t[a] < s->lvl_t[b];
	return s->rank[a] < s->rank[b];
}

/* Link j into the list (head, tail) after p (-1: at the front). */
static void link_after(sim *s, int32_t *head, int32_t *tail, int32_t p, int32_t j)
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

static void unlink_from(sim *s, int32_t *head, int32_t *tail, int32_t j)
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

void gp_sim_enqueue(sim *s, int32_t j)
{
	int k = job_class(&s->jl->jobs[j]);

	s->qlen[k]++;
	if (is_heap(s)) {
		qheap_push(&s->sjf[k], s, (gp_sim_qitem){ j, 0 });
		return;
	}
	if (s->cfg->queue == GP_SIM_LAS) {
		int l = gp_sim_las_list(s, j);
		int32_t p = gp_sim_ord_pred(s, s->oleft, s->oright, s->lroot[l], j);

		link_after(s, &s->lhead[l], &s->ltail[l], p, j);
		s->lroot[l] = gp_sim_ord_insert(s, s->oleft, s->oright, s->lroot[l], j);
		gp_sim_las_shape_count(s, l, j, 1);
		return;
	}
	if (s->bf_index)
		gp_sim_bf_enqueue(s, j, k);
	link_after(s, &s->qhead[k], &s->qtail[k], s->qtail[k], j);
}

void gp_sim_requeue(sim *s, int32_t j)
{
	int k = job_class(&s->jl->jobs[j]);
	int32_t p = -1, q;

	if (is_heap(s) || s->cfg->queue == GP_SIM_LAS) {
		gp_sim_enqueue(s, j);
		return;
	}
	/* Back at its arrival position (the backfill index and the walk
	 * both rely on queue order = arrival order). */
	s->qlen[k]++;
	if (s->bf_index)
		gp_sim_bf_enqueue(s, j, k);
	for (q = s->qhead[k]; q >= 0 && s->rank[q] < s->rank[j]; q = s->next[q])
		p = q;
	link_after(s, &s->qhead[k], &s->qtail[k], p, j);
}

int32_t gp_sim_queue_head(const sim *s, int k)
{
	if (is_heap(s))
		return s->qlen[k] ? s->sjf[k].v[0].job : -1;
	if (s->cfg->queue == GP_SIM_LAS) {
		int l;

		for (l = k * s->nlevels; l < (k + 1) * s->nlevels; l++)
			if (s->lhead[l] >= 0)
				return s->lhead[l];
		return -1;
	}
	return s->qhead[k];
}

/* Remove j; under sjf and priority only the head is ever removed. */
void gp_sim_dequeue(sim *s, int32_t j)
{
	int k = job_class(&s->jl->jobs[j]);

	if (is_heap(s)) {
		s->qlen[k]--;
		qheap_pop(&s->sjf[k], s);
		return;
	}
	s->qlen[k]--;
	if (s->cfg->queue == GP_SIM_LAS) {
		int l = gp_sim_las_list(s, j);

		unlink_from(s, &s->lhead[l], &s->ltail[l], j);
		s->lroot[l] = gp_sim_ord_erase(s, s->oleft, s->oright, s->lroot[l], j);
		gp_sim_las_shape_count(s, l, j, -1);
		return;
	}
	if (s->bf_index)
		gp_sim_bf_dequeue(s, j, k);
	unlink_from(s, &s->qhead[k], &s->qtail[k], j);
}

int32_t gp_sim_combined_head(const sim *s)
{
	int32_t h = gp_sim_queue_head(s, 0);

	return h >= 0 ? h : gp_sim_queue_head(s, 1);
}
