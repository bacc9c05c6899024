/* The policy table: one line per policy, one file each under src/place/. */
#include <string.h>

#include "gpuplan/place/policy.h"
#include "place_int.h"

/* Large-model jobs are laid out by parallel group under every policy
 * (llm.c); the policy decides for the other job types. */
#define AWARE(fn) \
	static int fn##_aware(const gp_policy_ctx *ctx, const gp_job *job, gp_placement *out) \
	{ \
		return job->type == GP_JOB_LLM ? gp_place_llm(ctx, job, out) : fn(ctx, job, out); \
	}
AWARE(gp_policy_bestfit)
AWARE(gp_policy_nic_affinity)
AWARE(gp_policy_first_fit)
AWARE(gp_policy_random)
AWARE(gp_policy_spread)
AWARE(gp_policy_packing)
AWARE(gp_policy_gpu_pair_score)
AWARE(gp_policy_predicted_share)
AWARE(gp_policy_bw_max)

static const gp_policy policies[] = {
	{ "bestfit", "topology-aware best fit: least remaining resource; CPU sub-tree / NVLink loop / equal-rate nodes; nearest CPUs and NIC", gp_policy_bestfit_aware, 0 },
	{ "nic-affinity", "NIC-affinity classes (RoCE): GPU classes by NUMA-local NIC, the most-voted class, a VF of its NIC", gp_policy_nic_affinity_aware, 0 },
	{ "first-fit", "the first nodes (in cluster order) with enough free GPUs", gp_policy_first_fit_aware, 0 },
	{ "random", "a random node that holds the job, random GPUs (seeded)", gp_policy_random_aware,
	  GP_POLICY_SEEDED },
	{ "spread", "least-allocated node; distributed jobs one GPU per node", gp_policy_spread_aware, 0 },
	{ "packing", "most-allocated node that holds the job; fullest nodes first", gp_policy_packing_aware, 0 },
	{ "gpu-pair-score", "go-gpuallocator best-effort pair scoring, NVSwitch counted", gp_policy_gpu_pair_score_aware, 0 },
	{ "predicted-share", "predicted sharing: the share a predictor gives; node with the most remaining GPU resource; LS: most remaining GPUs, BE: shortest predicted time", gp_policy_predicted_share_aware,
	  GP_POLICY_PREDICTED },
	{ "bw-max", "the GPU set with the highest NCCL bottleneck bandwidth", gp_policy_bw_max_aware, 0 },
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
