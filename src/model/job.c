/* gp_job and gp_joblist basics. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gpuplan/model/job.h"
#include "gpuplan/util/util.h"

void gp_job_init(gp_job *j)
{
	memset(j, 0, sizeof(*j));
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
	free(j->id);
	free(j->gpu_models);
	free(j->environment);
	j->id = j->gpu_models = j->environment = NULL;
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
	memset(l, 0, sizeof(*l));
}

gp_job *gp_joblist_push(gp_joblist *l)
{
	GP_GROW(l->jobs, l->cap, l->n + 1);
	gp_job_init(&l->jobs[l->n]);
	return &l->jobs[l->n++];
}

int gp_job_accepts_model(const gp_job *j, const char *model_name)
{
	const char *p, *bar;
	size_t len = strlen(model_name);

	if (!j->gpu_models || !*j->gpu_models)
		return 1;
	for (p = j->gpu_models; *p; p = bar + 1) {
		bar = strchr(p, '|');
		if (!bar)
			bar = p + strlen(p);
		if ((size_t)(bar - p) == len && !strncasecmp(p, model_name, len))
			return 1;
		if (!*bar)
			break;
	}
	return 0;
}

static const char *const type_names[] = {
	[GP_JOB_SINGLE_CARD] = "single-card",
	[GP_JOB_SINGLE_NODE] = "single-node",
	[GP_JOB_RING_ALLREDUCE] = "ring-allreduce",
	[GP_JOB_PS_WORKER] = "ps-worker",
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
