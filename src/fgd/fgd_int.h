/* Internals of the FGD experiment shared by the run (fgd.c) and the
 * fragmentation measure and node scores (fgd_score.c). */
#ifndef GPUPLAN_FGD_INT_H
#define GPUPLAN_FGD_INT_H

#include <stddef.h>
#include <stdint.h>

#include "gpuplan/fgd/fgd.h"
#include "gpuplan/io/openb.h"
#include "gpuplan/util/util.h"

#define G GP_OPENB_MAX_NODE_GPUS
#define MILLI 1000
#define MAX_SPEC_CPU 128000.0 /* the artifact's normalisation constants */
#define MAX_SPEC_GPU 8000
#define SCORE_MAX 100
#define POPULARITY_PCT 95     /* typical tasks: the most common shapes
			       * covering 95 % of the trace */
#define NAFF (1 + G)          /* affinity classes: share, 1..8-GPU */
#define ARTIFACT_INFORMER_DRAWS 10

/* ---- task shapes ---------------------------------------------------- */

/* A task shape as the artifact's PodResource: CPU (non-zero default),
 * per-GPU share, GPU count and model constraint. */
typedef struct shape {
	int64_t cpu;          /* non-zero CPU request (100 when 0) */
	int milli, ngpu;
	int spec;             /* index into spec strings */
} shape;

typedef struct typical {
	shape s;
	double freq;
} typical;

/* ---- run state ------------------------------------------------------ */

typedef struct memo_ent {
	int64_t cpu;
	int16_t g[G];         /* sorted descending */
	int16_t model;        /* -1 none; slot empty when ngpu == -1 */
	int16_t ngpu;
	double frag, idle;
} memo_ent;

typedef struct run {
	const gp_openb_nodes *nodes;
	const gp_openb_pods *pods;
	int policy;
	int nn;
	/* node state */
	int64_t *cpu_left, *mem_left;
	int16_t *gleft;       /* nn * G */
	int *rank;            /* tie-break: the random name prefix */
	int *aff;             /* nn * NAFF pod counts per affinity class */
	int *naff;            /* classes with a non-zero count */
	uint32_t *version;    /* bumped on every change */
	double *frag_cur, *idle_cur;
	/* specs */
	char **specs;
	uint64_t *spec_mask;  /* models the spec accepts */
	int *spec_any;        /* no constraint */
	int nspecs;
	/* shapes: per pod, and distinct */
	int *pod_shape;
	shape *shapes;
	int nshapes;
	/* typical tasks */
	typical *typ;
	int ntyp;
	/* memo of node-state fragmentation */
	memo_ent *memo;
	size_t memo_cap, memo_n;
	/* per (node, shape) FGD score cache */
	uint32_t *sc_version; /* version+1 when valid, 0 empty */
	int *sc_score;
	int8_t *sc_gpu;
	/* scratch */
	int *feas;
	int64_t *scores;
	gp_gorand rng;
} run;

static inline int accessible(const run *r, int spec, int model)
{
	if (r->spec_any[spec])
		return 1;
	if (model < 0)
		return 0;
	return (int)((r->spec_mask[spec] >> model) & 1u);
}

static inline int is_share(const shape *s)
{
	return s->ngpu == 1 && s->milli < MILLI;
}

static inline int affinity_class(const shape *s)
{
	if (s->ngpu == 0)
		return -1;
	if (s->ngpu == 1 && s->milli < MILLI)
		return 0;
	return s->ngpu; /* whole GPUs: "<n>-gpu" */
}


/* ---- fgd_score.c ---- */

/* Recompute node n's fragmentation and idle GPU share; bumps its version. */
void gp_fgd_node_refresh(run *r, int n);
/* kube-scheduler's resource fit plus the artifact's GPU-share filter. */
int gp_fgd_node_fits(const run *r, int n, size_t p, const shape *s);
/* GPUs taken by an exclusive task: the first fully free ones. */
unsigned gp_fgd_exclusive_gpus(const run *r, int n, const shape *s);
/* FGD: score = sigmoid of the fragmentation decrease; for a share task
 * the best GPU of the node (first index among equal integer scores). */
int gp_fgd_score(run *r, int n, const shape *s, int *gpu);
/* The other policies' raw node scores (higher is better). */
int64_t gp_fgd_bestfit_raw(const run *r, int n, const shape *s);
int64_t gp_fgd_dotprod_score(const run *r, int n, const shape *s);
int64_t gp_fgd_clustering_score(const run *r, int n, const shape *s);
int64_t gp_fgd_packing_score(const run *r, int n, const shape *s);

#endif
