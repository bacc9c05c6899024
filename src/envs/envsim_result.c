/* The configuration and result objects of the environment simulation
 * (envs.h) and mode names. */
#include <stdlib.h>
#include <string.h>

#include "gpuplan/envs/envs.h"
#include "gpuplan/util/util.h"

void gp_envsim_config_init(gp_envsim_config *c)
{
	memset(c, 0, sizeof(*c));
	c->mode = GP_ENVSIM_BIND;
	c->threshold = GP_ENV_DEFAULT_THRESHOLD;
	c->hb_period_s = 1;
	c->hb_timeout_s = 5;
	c->seed = 1;
}

void gp_envsim_result_init(gp_envsim_result *r)
{
	memset(r, 0, sizeof(*r));
}

void gp_envsim_result_release(gp_envsim_result *r)
{
	if (!r)
		return;
	free(r->bucket_max);
	free(r->bucket_mean);
	memset(r, 0, sizeof(*r));
}

int gp_envsim_mode_parse(const char *s, double *idle_min)
{
	if (!strcmp(s, "static"))
		return GP_ENVSIM_STATIC;
	if (!strcmp(s, "bind-at-start"))
		return GP_ENVSIM_BIND;
	if (!strncmp(s, "idle-timeout:", 13)) {
		double m;

		if (gp_parse_double(s + 13, 0, 1e7, &m))
			return -1;
		if (idle_min)
			*idle_min = m;
		return GP_ENVSIM_IDLE;
	}
	return -1;
}
