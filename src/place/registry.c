/* The policy table: one line per policy, one file each under src/place/. */
#include <string.h>

#include "gpuplan/policy.h"

static const gp_policy policies[] = {
	{ "first-fit", "the first nodes (in cluster order) with enough free GPUs", gp_policy_first_fit },
};

const gp_policy *gp_policy_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(policies) / sizeof(policies[0]); i++)
		if (!strcmp(policies[i].name, name))
			return &policies[i];
	return NULL;
}

const gp_policy *gp_policy_list(int *n)
{
	*n = (int)(sizeof(policies) / sizeof(policies[0]));
	return policies;
}
