/* gp_job and gp_joblist basics. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gpuplan/model/catalog.h"
#include "gpuplan/model/job.h"
#include "gpuplan/util/pool.h"
#include "gpuplan/util/util.h"

/* What a job that says nothing more has: no model, deadline or
 * checkpoint interval. */
static const gp_job_more more_none;

void gp_job_init(gp_job *j)
{
	memset(j, 0, sizeof(*j));
	j->more = &more_none;
	j->own = GP_JOB_OWN_STRINGS;
	j->duration = -1;
	j->type = GP_JOB_SINGLE_CARD;
	j->klass = GP_CLASS_BE;
	j->gpus = 1;
	j->gpu_milli = 1000;
	j->optimizer = GP_OPT_ADAM;
	j->precision = GP_PREC_MIXED;
}

void gp_job_release(gp_job *j)
{
	if (!j)
		return;
	if (j->own & GP_JOB_OWN_STRINGS) {
		free(j->id);
		free(j->gpu_models);
		free(j->environment);
	}
	if (j->own & GP_JOB_OWN_MORE)
		free((gp_job_more *)j->more);
	j->id = j->gpu_models = j->environment = NULL;
	j->more = &more_none;
	j->own = GP_JOB_OWN_STRINGS;
}

gp_job_more *gp_job_more_edit(gp_job *j)
{
	gp_job_more *m;

	if (j->own & GP_JOB_OWN_MORE)
		return (gp_job_more *)j->more;
	m = gp_xmalloc(sizeof(*m));
	*m = j->more ? *j->more : more_none;
	j->more = m;
	j->own |= GP_JOB_OWN_MORE;
	return m;
}

void gp_joblist_init(gp_joblist *l)
{
	memset(l, 0, sizeof(*l));
}

void gp_joblist_release(gp_joblist *l)
{
	size_t i;

	if (!l)
		return;
	for (i = 0; i < l->n; i++)
		gp_job_release(&l->jobs[i]);
	free(l->jobs);
	free(l->source);
	free(l->format);
	free(l->left_out_note);
	gp_pool_free(l->pool);
	memset(l, 0, sizeof(*l));
}

gp_job *gp_joblist_push(gp_joblist *l)
{
	GP_GROW(l->jobs, l->cap, l->n + 1);
	gp_job_init(&l->jobs[l->n]);
	return &l->jobs[l->n++];
}

static char *pooled(gp_pool *p, char *s, int intern, int owned)
{
	char *c;

	if (!s)
		return NULL;
	c = intern ? gp_pool_intern(p, s) : gp_pool_strdup(p, s);
	if (owned)
		free(s);
	return c;
}

void gp_joblist_pool_job(gp_joblist *l, gp_job *j)
{
	int own = j->own & GP_JOB_OWN_STRINGS;

	if (!l->pool)
		l->pool = gp_pool_new();
	j->id = pooled(l->pool, j->id, 0, own);
	j->gpu_models = pooled(l->pool, j->gpu_models, 1, own);
	j->environment = pooled(l->pool, j->environment, 1, own);
	if (j->own & GP_JOB_OWN_MORE) {
		gp_job_more *m = (gp_job_more *)j->more;

		j->more = memcmp(m, &more_none, sizeof(*m))
				  ? gp_pool_intern_mem(l->pool, m, sizeof(*m)) : &more_none;
		free(m);
	}
	j->own = 0;
}

int gp_job_accepts_model(const gp_job *j, const char *model_name)
{
	const char *p, *bar;
	char want[96];

	if (!j->gpu_models || !*j->gpu_models)
		return 1;
	for (p = j->gpu_models; *p; p = bar + 1) {
		size_t n;

		bar = strchr(p, '|');
		if (!bar)
			bar = p + strlen(p);
		n = (size_t)(bar - p) < sizeof(want) - 1 ? (size_t)(bar - p) : sizeof(want) - 1;
		memcpy(want, p, n); /* an entry is read on its first 95 characters */
		want[n] = '\0';
		if (gp_catalog_admits(want, model_name))
			return 1;
		if (!*bar)
			break;
	}
	return 0;
}

/* One remembered list: its text, hash and per catalog model 0 unknown,
 * 1 refused, 2 accepted. */
struct gp_accepts_list {
	char *text;             /* NULL: empty slot */
	size_t hash;
	int nmodels;
	unsigned char *answer;
};

void gp_accepts_memo_init(gp_accepts_memo *m)
{
	memset(m, 0, sizeof(*m));
}

void gp_accepts_memo_release(gp_accepts_memo *m)
{
	int i;

	for (i = 0; i < m->cap; i++) {
		free(m->slot[i].text);
		free(m->slot[i].answer);
	}
	free(m->slot);
	gp_accepts_memo_init(m);
}

/* The slot of text (hash h): its own, or the empty one it would take. */
static struct gp_accepts_list *memo_slot(const gp_accepts_memo *m, const char *text, size_t h)
{
	size_t i = h & (size_t)(m->cap - 1);

	while (m->slot[i].text && (m->slot[i].hash != h || strcmp(m->slot[i].text, text)))
		i = (i + 1) & (size_t)(m->cap - 1);
	return &m->slot[i];
}

/* Double the table (at most half full after). */
static void memo_grow(gp_accepts_memo *m)
{
	gp_accepts_memo old = *m;
	int i;

	m->cap = old.cap ? old.cap * 2 : 16;
	m->slot = gp_xcalloc((size_t)m->cap, sizeof(*m->slot));
	for (i = 0; i < old.cap; i++)
		if (old.slot[i].text)
			*memo_slot(m, old.slot[i].text, old.slot[i].hash) = old.slot[i];
	free(old.slot);
}

int gp_job_accepts_model_memo(gp_accepts_memo *m, const gp_job *j, const gp_catalog *cat,
			      int model)
{
	struct gp_accepts_list *e;
	size_t h;

	if (!j->gpu_models || !*j->gpu_models)
		return 1;
	h = gp_hash_str(j->gpu_models);
	e = m->cap ? memo_slot(m, j->gpu_models, h) : NULL;
	if (!e || !e->text) {
		if (m->n >= GP_ACCEPTS_MEMO_MAX)
			return gp_job_accepts_model(j, cat->models[model].name);
		if (2 * (m->n + 1) > m->cap) {
			memo_grow(m);
			e = memo_slot(m, j->gpu_models, h);
		}
		e->text = gp_xstrdup(j->gpu_models);
		e->hash = h;
		e->nmodels = cat->n;
		e->answer = gp_xcalloc((size_t)cat->n + 1, 1);
		m->n++;
	}
	if (model >= e->nmodels) /* a catalog that grew: not remembered */
		return gp_job_accepts_model(j, cat->models[model].name);
	if (!e->answer[model])
		e->answer[model] = (unsigned char)(1 + gp_job_accepts_model(j, cat->models[model].name));
	return e->answer[model] - 1;
}

int gp_job_accepts_no_model(const gp_job *j)
{
	const char *m = j->gpu_models;
	size_t n;

	if (!m || !*m)
		return 1;
	n = strlen(m);
	return m[0] == '|' || m[n - 1] == '|' || strstr(m, "||") != NULL;
}

static const char *const type_names[] = {
	[GP_JOB_SINGLE_CARD] = "single-card",
	[GP_JOB_SINGLE_NODE] = "single-node",
	[GP_JOB_RING_ALLREDUCE] = "ring-allreduce",
	[GP_JOB_PS_WORKER] = "ps-worker",
	[GP_JOB_LLM] = "llm",
};

const char *gp_job_type_name(int type)
{
	if (type < 0 || (size_t)type >= GP_ARRAY_SIZE(type_names))
		return "?";
	return type_names[type];
}

int gp_job_type_parse(const char *s)
{
	size_t i;

	for (i = 0; i < GP_ARRAY_SIZE(type_names); i++)
		if (!strcmp(s, type_names[i]))
			return (int)i;
	return -1;
}

/* Whether name admits some model of the catalog (a family such as V100). */
static int admits_any(const gp_catalog *cat, const char *name)
{
	int k;

	for (k = 0; k < cat->n; k++)
		if (gp_catalog_admits(name, cat->models[k].name))
			return 1;
	return 0;
}

int gp_job_unknown_model(const gp_job *j, const gp_catalog *cat, char *bad, size_t badsize,
			 char *hint, size_t hintsize)
{
	const char *p, *bar;

	if (!j->gpu_models || !*j->gpu_models)
		return 0;
	for (p = j->gpu_models;; p = bar + 1) {
		char name[96];
		int k, best = 4, d;

		bar = strchr(p, '|');
		if (!bar)
			bar = p + strlen(p);
		snprintf(name, sizeof(name), "%.*s", (int)(bar - p), p);
		if (gp_catalog_index(cat, name) < 0 && !admits_any(cat, name)) {
			snprintf(bad, badsize, "%s", name);
			if (hintsize)
				hint[0] = '\0';
			for (k = 0; k < cat->n; k++)
				if ((d = gp_edit_distance(name, cat->models[k].name, 1)) < best) {
					best = d;
					snprintf(hint, hintsize, "%s", cat->models[k].name);
				}
			return 1;
		}
		if (!*bar)
			return 0;
	}
}
