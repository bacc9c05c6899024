/* gpuplan place: what cmd_place.c (options, state, decisions, batches)
 * and cmd_place_out.c (the decision as text and JSON) share.  Private to
 * the command line. */
#ifndef GP_CMD_PLACE_INT_H
#define GP_CMD_PLACE_INT_H

#include <stdio.h>

#include <jansson.h>

#include "gpuplan/model/cluster.h"
#include "gpuplan/model/job.h"
#include "gpuplan/model/placement.h"
#include "gpuplan/place/place.h"
#include "gpuplan/place/policy.h"

typedef struct place_opts {
	const char *cluster, *state, *policy, *batch;
	unsigned long long seed;
	int json, commit;
	double lock_timeout;   /* seconds to wait for the state lock */
	long bench;            /* hidden: decisions to time per policy */
	int emit;              /* enum gp_emit_kind bits */
	double mem_margin;     /* --memory-margin, a fraction */
} place_opts;

/* The verdict beside GP_PLACED and GP_WAIT: the job can never run here. */
#define PLACE_NEVER 2

const char *place_verdict_name(int rc);
void place_print_text(const place_opts *o, const gp_cluster *c, gp_place_cache *pc,
		      const gp_job *j, const char *policy, int rc, const gp_placement *p,
		      const gp_place_summary *s, const gp_explain *e);
json_t *place_decision_json(const place_opts *po, const gp_cluster *c, gp_place_cache *pc,
			    const gp_job *j, const char *policy, int rc,
			    const gp_placement *p, const gp_place_summary *s,
			    const gp_explain *e);
/* Print o (sorted keys) and a newline to out, and free it. */
int place_dump_json_to(FILE *out, json_t *o);
int place_dump_json(json_t *o);

#endif
