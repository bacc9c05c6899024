/* Gavel (OSDI'20) job traces: tab-separated, no header, in two layouts —
 * the legacy 7-field one of its Philly-derived msr/ traces
 *   job_type command num_steps_arg needs_data_dir total_steps arrival_time scale_factor
 * and the current 10-field one of physical_cluster/
 *   job_type command working_directory num_steps_arg needs_data_dir
 *   total_steps scale_factor priority_weight SLO arrival_time.
 * The first row fixes the layout.  Work is total_steps iterations; the run
 * time is left to the performance model, which has Gavel's measured
 * throughputs for these job types on K80, P100 and V100 (perf.h). */
#include <stdlib.h>
#include <string.h>

#include "gpuplan/util/util.h"
#include "trace_int.h"

enum {
	C_JOB_TYPE, C_COMMAND, C_WORKDIR, C_STEPS_ARG, C_NEEDS_DATA,
	C_TOTAL_STEPS, C_SCALE, C_PRIORITY_WEIGHT, C_SLO, C_ARRIVAL, NCOLS
};

static const char *const columns[] = {
	"job_type", "command", "working_directory", "num_steps_arg",
	"needs_data_dir", "total_steps", "scale_factor", "priority_weight",
	"SLO", "arrival_time", NULL,
};

/* Column -> field position in each layout (-1: not in it). */
static const int map7[NCOLS] = { 0, 1, -1, 2, 3, 4, 6, -1, -1, 5 };
static const int map10[NCOLS] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9 };

typedef struct gavel_state {
	int nf;                 /* layout of the first row */
} gavel_state;

static int is_number(const char *s)
{
	double d;

	return !gp_parse_double(s, -1e300, 1e300, &d);
}

static int sniff(char **f, int nf)
{
	const int *m = nf == 7 ? map7 : nf == 10 ? map10 : NULL;

	return m && *f[m[C_JOB_TYPE]] && is_number(f[m[C_TOTAL_STEPS]]) &&
	       is_number(f[m[C_SCALE]]) && is_number(f[m[C_ARRIVAL]]) &&
	       is_number(f[m[C_NEEDS_DATA]]);
}

/* "ResNet-50 (batch size 64)" -> model "ResNet-50", batch 64; a type
 * without the suffix ("A3C", "CycleGAN") is the model name as is. */
static int split_job_type(gp_trace_row *r, const char *type, gp_job *j)
{
	static const char tag[] = " (batch size ";
	const char *p = strstr(type, tag), *mname = type;
	char name[sizeof(r->more.model.name)];
	size_t n;
	long batch;
	char *end;

	if (!p)
		return gp_trace_model_name(r, C_JOB_TYPE, type);
	n = (size_t)(p - type);
	/* Gavel's ResNet-18 trains CIFAR-10 (its command reads
	 * --data_dir=.../cifar10), not the ImageNet network of that name. */
	if (n == 9 && !strncmp(type, "ResNet-18", 9))
		mname = "resnet18-cifar", n = strlen(mname);
	if (n >= sizeof(name))
		return gp_trace_bad(r, C_JOB_TYPE, "model name in '%.40s' is longer than %zu characters",
				    type, sizeof(name) - 1);
	memcpy(name, mname, n);
	name[n] = '\0';
	batch = strtol(p + sizeof(tag) - 1, &end, 10);
	if (end == p + sizeof(tag) - 1 || strcmp(end, ")") || batch < 1 ||
	    batch > (1L << 30))
		return gp_trace_bad(r, C_JOB_TYPE,
				    "'job_type' must read 'MODEL (batch size N)' or 'MODEL', got '%.40s'",
				    type);
	j->batch_size = (int)batch;
	return gp_trace_model_name(r, C_JOB_TYPE, name);
}

static int gavel_row(gp_trace_row *r, gp_job *j)
{
	gavel_state *st = r->state;
	double arrival, weight, slo;
	long gpus, steps, needs;
	int rc;

	if (!st->nf)
		st->nf = r->nf;
	if (r->nf != st->nf)
		return gp_trace_bad(r, -1, "%d fields where this Gavel trace has %d",
				    r->nf, st->nf);
	if (r->nf != 7 && r->nf != 10)
		return gp_trace_bad(r, -1, "%d fields: a Gavel trace has 7 (legacy) or 10 per row",
				    r->nf);
	r->map = r->nf == 7 ? map7 : map10;
	if (!*gp_trace_get(r, C_JOB_TYPE))
		return gp_trace_bad(r, C_JOB_TYPE, "missing value for 'job_type'");
	if ((rc = split_job_type(r, gp_trace_get(r, C_JOB_TYPE), j)) ||
	    (rc = gp_trace_long(r, C_NEEDS_DATA, 0, 1, &needs)) ||
	    (rc = gp_trace_long(r, C_TOTAL_STEPS, 1, 1000000000000000L, &steps)) ||
	    (rc = gp_trace_long(r, C_SCALE, 1, GP_TRACE_MAX_GPUS, &gpus)) ||
	    (rc = gp_trace_double(r, C_ARRIVAL, 0, GP_TRACE_MAX_SECONDS, &arrival)))
		return rc;
	/* Every public trace has weight 1 and SLO -1; checked, not used. */
	if (r->nf == 10 &&
	    ((rc = gp_trace_double(r, C_PRIORITY_WEIGHT, 0, 1e9, &weight)) ||
	     (rc = gp_trace_double(r, C_SLO, -1, 1e9, &slo))))
		return rc;
	gp_trace_index_id(r, j);
	j->submit = arrival;
	j->gpus = (int)gpus;
	j->iterations = steps;
	j->duration = -1;
	/* Gavel's PyTorch workloads run without mixed precision. */
	j->precision = GP_PREC_FP32;
	gp_trace_default_type(j);
	return GP_OK;
}

const gp_trace_dialect gp_trace_gavel = {
	.name = "gavel",
	.summary = "Gavel trace: tab-separated, no header, 7 (msr/) or 10 (physical_cluster/) fields; iterations",
	.sep = '\t',
	.columns = columns,
	.header = 0,
	.state_size = sizeof(gavel_state),
	.sniff = sniff,
	.row = gavel_row,
};
