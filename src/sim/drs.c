/* --queue dominant-share: Kueue's fair sharing at admission.  Each
 * tenant's waiting jobs go in arrival order, a job that cannot start
 * passed over (Kueue's BestEffortFIFO); across tenants the next job tried
 * is the one whose tenant would have the lowest dominant share with it
 * (then the earlier arrival), so when tenants of a cohort compete for
 * its idle quota the one that borrowed least for its weight goes first.
 *
 * Dominant share of tenant t (Kueue's DRS): for every quota key, what t
 * uses beyond its quota over what its cohort can lend (the sum of its
 * tenants' quotas, or lending limits where given); the largest of those
 * over t's weight (weight 0: infinite).  A tenant without a cohort, or
 * within its quota, has share 0, so jobs that need no borrowing keep
 * arrival order, and without tenants this is fifo-skip.  A job's own
 * share is counted on the `gpus` key (its whole request; without that key
 * the share before it).  Shares change only when a tenant's own use does,
 * so a pass keeps one candidate per tenant in a heap: O(queue + tries x
 * log tenants). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "discipline.h"
#include "sim_int.h"

typedef struct drs_item {
	double share;
	int32_t rank;
	int32_t tenant;
	uint32_t seq;
} drs_item;

static inline int drs_cmp(const sim *ctx, const drs_item *a, const drs_item *b)
{
	(void)ctx;
	if (a->share != b->share)
		return a->share < b->share ? -1 : 1;
	return a->rank < b->rank ? -1 : a->rank > b->rank;
}
GP_HEAP_DEFINE(drs_heap, drs_item, const sim *, drs_cmp)

struct gp_sim_drs {
	int32_t *head, *tail;   /* per tenant: its next job in this pass */
	int32_t *tnext;         /* per job: its tenant's next waiting job */
	size_t nt;
	drs_heap h;
};

static int drs_setup(sim *s)
{
	struct gp_sim_drs *d = gp_xcalloc(1, sizeof(*d));

	d->nt = s->cfg->tenants && s->cfg->tenants->n ? s->cfg->tenants->n : 1;
	d->head = gp_xmalloc(d->nt * sizeof(*d->head));
	d->tail = gp_xmalloc(d->nt * sizeof(*d->tail));
	d->tnext = gp_xmalloc((s->n ? s->n : 1) * sizeof(*d->tnext));
	GP_GROW(d->h.v, d->h.cap, d->nt);
	s->drs = d;
	return GP_OK;
}

static void drs_teardown(sim *s)
{
	if (!s->drs)
		return;
	free(s->drs->head);
	free(s->drs->tail);
	free(s->drs->tnext);
	free(s->drs->h.v);
	free(s->drs);
	s->drs = NULL;
}

static int tenant_of(const sim *s, int32_t j)
{
	return s->cfg->tenants ? s->res->job_tenant[j] : 0;
}

/* Tenant t with its next job's key. */
static drs_item item(const sim *s, int32_t t)
{
	int32_t j = s->drs->head[t];

	return (drs_item){ s->cfg->tenants ? gp_sim_quota_share(s, t, j) : 0, s->rank[j], t, 0 };
}

/* Class k's waiting jobs: each tenant's list in arrival order. */
static void lists(sim *s, int k)
{
	struct gp_sim_drs *d = s->drs;
	size_t t;
	int32_t j;

	memset(d->head, 0xff, d->nt * sizeof(*d->head));
	for (j = s->qhead[k]; j >= 0; j = s->next[j]) {
		t = (size_t)tenant_of(s, j);
		d->tnext[j] = -1;
		if (d->head[t] < 0)
			d->head[t] = j;
		else
			d->tnext[d->tail[t]] = j;
		d->tail[t] = j;
	}
	d->h.n = 0;
	for (t = 0; t < d->nt; t++)
		if (d->head[t] >= 0)
			drs_heap_push(&d->h, s, item(s, (int32_t)t));
}

static void drs_pass(sim *s)
{
	struct gp_sim_drs *d = s->drs;
	int k;

	if (!s->freed && !s->narrived)
		return;
	s->freed = 0;
	s->narrived = 0;
	s->version++;
	for (k = 0; k < NCLASS && s->status == GP_OK; k++) {
		lists(s, k);
		while (d->h.n && s->status == GP_OK) {
			int32_t t = d->h.v[0].tenant, j = d->head[t];

			d->head[t] = d->tnext[j];
			if (gp_sim_skip_try(s, j, k)) {
				k = -1; /* victims are back: start over */
				break;
			}
			/* the tenant's next job takes the top's place: the
			 * order is total (ranks differ), so this is a pop and
			 * a push at half the cost */
			if (d->head[t] >= 0)
				drs_heap_sift_down(&d->h, s, item(s, t), 0);
			else
				drs_heap_pop(&d->h, s);
		}
	}
	s->freed = 0;
}

const gp_sim_discipline gp_sim_disc_drs = {
	.name = "dominant-share",
	.setup = drs_setup,
	.teardown = drs_teardown,
	.on_arrival = gp_sim_fifo_arrival,
	.on_requeue = gp_sim_fifo_requeue,
	.on_leave = gp_sim_fifo_leave,
	.pick_next = gp_sim_fifo_head,
	.pass = drs_pass,
};
