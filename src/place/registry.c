/* The policy table: one line per policy, one file each under src/place/. */
#include <string.h>

#include "gpuplan/place/policy.h"

static const gp_policy policies[] = {
	{ "bestfit", "US 12386666: least remaining resource; CPU sub-tree / NVLink loop / equal-rate nodes; nearest CPUs and NIC", gp_policy_bestfit },
	{ "nic-affinity", "RoCE seed: GPU classes by NUMA-local NIC, the most-voted class, a VF of its NIC", gp_policy_nic_affinity },
	{ "first-fit", "the first nodes (in cluster order) with enough free GPUs", gp_policy_first_fit },
	{ "random", "a random node that holds the job, random GPUs (seeded)", gp_policy_random },
	{ "spread", "least-allocated node; distributed jobs one GPU per node", gp_policy_spread },
	{ "packing", "most-allocated node that holds the job; fullest nodes first", gp_policy_packing },
	{ "gpu-pair-score", "go-gpuallocator best-effort pair scoring, NVSwitch counted", gp_policy_gpu_pair_score },
	{ "predicted-share", "seed 001: predicted share; node with the most remaining GPU resource; LS: most remaining GPUs, BE: shortest predicted time", gp_policy_predicted_share },
	{ "bw-max", "the GPU set with the highest NCCL bottleneck bandwidth", gp_policy_bw_max },
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
