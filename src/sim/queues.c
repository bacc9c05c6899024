/* The class queues: doubly linked lists in queue order (fifo, backfill)
 * or binary heaps (sjf). */

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

void gp_sim_enqueue(sim *s, int32_t j)
{
	int k = job_class(&s->jl->jobs[j]);

	s->qlen[k]++;
	if (s->cfg->queue == GP_SIM_SJF) {
		int32_t *h = s->sjf[k];
		size_t i = s->qlen[k] - 1;

		while (i > 0 && sjf_less(s, j, h[(i - 1) / 2])) {
			h[i] = h[(i - 1) / 2];
			i = (i - 1) / 2;
		}
		h[i] = j;
		return;
	}
	if (s->bf_index)
		gp_sim_bf_enqueue(s, j, k);
	s->prev[j] = s->qtail[k];
	s->next[j] = -1;
	if (s->qtail[k] >= 0)
		s->next[s->qtail[k]] = j;
	else
		s->qhead[k] = j;
	s->qtail[k] = j;
}

int32_t gp_sim_queue_head(const sim *s, int k)
{
	if (s->cfg->queue == GP_SIM_SJF)
		return s->qlen[k] ? s->sjf[k][0] : -1;
	return s->qhead[k];
}

/* Remove j; under sjf only the head is ever removed. */
void gp_sim_dequeue(sim *s, int32_t j)
{
	int k = job_class(&s->jl->jobs[j]);

	if (s->cfg->queue == GP_SIM_SJF) {
		int32_t *h = s->sjf[k], last;
		size_t i = 0, n = --s->qlen[k];

		last = h[n];
		for (;;) {
			size_t c = 2 * i + 1;

			if (c >= n)
				break;
			if (c + 1 < n && sjf_less(s, h[c + 1], h[c]))
				c++;
			if (!sjf_less(s, h[c], last))
				break;
			h[i] = h[c];
			i = c;
		}
		if (n)
			h[i] = last;
		return;
	}
	if (s->bf_index)
		gp_sim_bf_dequeue(s, j, k);
	s->qlen[k]--;
	if (s->prev[j] >= 0)
		s->next[s->prev[j]] = s->next[j];
	else
		s->qhead[k] = s->next[j];
	if (s->next[j] >= 0)
		s->prev[s->next[j]] = s->prev[j];
	else
		s->qtail[k] = s->prev[j];
}

int32_t gp_sim_combined_head(const sim *s)
{
	int32_t h = gp_sim_queue_head(s, 0);

	return h >= 0 ? h : gp_sim_queue_head(s, 1);
}
