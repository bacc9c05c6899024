/* After the rows of a trace are read (trace.c): duplicate ids, order by
 * submit time, the start/end window and the limit.  Memory: each pass
 * holds a few bytes per job beside the job array (peak RSS of a
 * big trace). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/util/util.h"
#include "trace_int.h"

/* The job of each id with the smallest line: an open-addressing table of
 * job index + 1 (0 empty), about 2 slots a job. */
static uint32_t *first_of_ids(const gp_joblist *l, size_t *capp)
{
	size_t cap = 16, i, h;
	uint32_t *t;

	while (cap < 2 * l->n)
		cap *= 2;
	t = gp_xcalloc(cap, sizeof(*t));
	for (i = 0; i < l->n; i++) {
		const gp_job *j = &l->jobs[i];

		for (h = gp_hash_str(j->id) & (cap - 1); t[h]; h = (h + 1) & (cap - 1))
			if (!strcmp(l->jobs[t[h] - 1].id, j->id))
				break;
		if (!t[h] || j->line < l->jobs[t[h] - 1].line)
			t[h] = (uint32_t)(i + 1);
	}
	*capp = cap;
	return t;
}

static size_t first_of(const gp_joblist *l, const uint32_t *t, size_t cap, const char *id)
{
	size_t h;

	for (h = gp_hash_str(id) & (cap - 1);; h = (h + 1) & (cap - 1))
		if (!strcmp(l->jobs[t[h] - 1].id, id))
			return t[h] - 1;
}

/* Later rows repeating an id are bad rows: an error at the first such row,
 * or skipped (counted) under skip_bad. */
int gp_trace_check_ids(gp_joblist *l, const char *path, int skip_bad, gp_trace_stats *st,
		       gp_error *err)
{
	uint32_t *t;
	unsigned char *drop;
	size_t cap, i, w, wi = 0, wfirst = 0;
	int64_t worst = -1;
	gp_error e = GP_ERROR_INIT;

	if (l->n < 2)
		return GP_OK;
	t = first_of_ids(l, &cap);
	drop = gp_xcalloc(l->n, 1);
	for (i = 0; i < l->n; i++) {
		size_t f = first_of(l, t, cap, l->jobs[i].id);

		if (f == i)
			continue;
		drop[i] = 1;
		if (worst < 0 || l->jobs[i].line < worst) {
			worst = l->jobs[i].line;
			wi = i;
			wfirst = f;
		}
	}
	free(t);
	if (worst >= 0) {
		gp_error_set(&e, GP_EINPUT, path, (int)worst, 0,
			     "duplicate job id '%.40s' (first on line %lld)",
			     l->jobs[wi].id, (long long)l->jobs[wfirst].line);
		if (!skip_bad) {
			if (err)
				*err = e;
			free(drop);
			return GP_EINPUT;
		}
		if (st->first_bad.status == GP_OK || st->first_bad.line > e.line)
			st->first_bad = e;
		for (i = w = 0; i < l->n; i++) {
			if (drop[i]) {
				gp_job_release(&l->jobs[i]);
				st->skipped++;
				continue;
			}
			l->jobs[w++] = l->jobs[i];
		}
		l->n = w;
	}
	free(drop);
	return GP_OK;
}

/* Sort key: submit time, ties by line (the job array is in line order, so
 * by position). */
typedef struct order_key {
	double submit;
	uint32_t pos;
} order_key;

static int cmp_key(const void *a, const void *b)
{
	const order_key *x = a, *y = b;

	if (x->submit != y->submit)
		return x->submit < y->submit ? -1 : 1;
	return (x->pos > y->pos) - (x->pos < y->pos);
}

/* Stable by construction (ties by line).  Sorts small keys, then moves
 * each job into place by following the permutation's cycles: gp_job is
 * large, Philly comes unordered, and a second job array would double the
 * peak memory of a big trace. */
void gp_trace_sort(gp_joblist *l)
{
	order_key *keys;
	size_t i, k, src;
	gp_job tmp;

	for (i = 1; i < l->n; i++)
		if (l->jobs[i - 1].submit > l->jobs[i].submit)
			break;
	if (i >= l->n)
		return;
	keys = gp_xmalloc(l->n * sizeof(*keys));
	for (i = 0; i < l->n; i++) {
		keys[i].submit = l->jobs[i].submit;
		keys[i].pos = (uint32_t)i;
	}
	qsort(keys, l->n, sizeof(*keys), cmp_key);
	/* Slot i receives job keys[i].pos; a done slot gets pos = i. */
	for (i = 0; i < l->n; i++) {
		if (keys[i].pos == i)
			continue;
		tmp = l->jobs[i];
		k = i;
		while ((src = keys[k].pos) != i) {
			l->jobs[k] = l->jobs[src];
			keys[k].pos = (uint32_t)k;
			k = src;
		}
		l->jobs[k] = tmp;
		keys[k].pos = (uint32_t)k;
	}
	free(keys);
}

void gp_trace_filter(gp_joblist *l, const gp_trace_opts *o, gp_trace_stats *st)
{
	size_t i, w = 0;

	for (i = 0; i < l->n; i++) {
		gp_job *j = &l->jobs[i];

		if (j->submit < o->start || (o->end > 0 && j->submit >= o->end)) {
			gp_job_release(j);
			st->outside++;
		} else if (o->limit && w >= o->limit) {
			gp_job_release(j);
			st->over_limit++;
		} else {
			l->jobs[w++] = *j;
		}
	}
	l->n = w;
}
