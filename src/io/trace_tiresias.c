/* Tiresias (NSDI'19) job CSV and its Muri (SIGCOMM'22) extension.
 * Tiresias times are seconds; Muri's are milliseconds (its header adds
 * batch_size, iteration_time, resource_time_0..2 and priority), so a Muri
 * header switches the unit. */
#include "gpuplan/util/util.h"
#include "trace_int.h"

enum {
	C_JOB_ID, C_NUM_GPU, C_SUBMIT, C_ITERATIONS, C_MODEL, C_DURATION,
	C_INTERVAL, C_BATCH, C_ITER_TIME, C_RT0, C_RT1, C_RT2, C_PRIORITY,
};

static const char *const columns[] = {
	"job_id", "num_gpu", "submit_time", "iterations", "model_name",
	"duration", "interval", "batch_size", "iteration_time",
	"resource_time_0", "resource_time_1", "resource_time_2", "priority",
	NULL,
};

#define BIT(k) ((uint64_t)1 << (k))
#define TIRESIAS_REQUIRED (BIT(C_JOB_ID) | BIT(C_NUM_GPU) | BIT(C_SUBMIT) | \
			   BIT(C_ITERATIONS) | BIT(C_MODEL) | BIT(C_DURATION))

static int row_common(gp_trace_row *r, gp_job *j, double unit)
{
	long gpus, iters;
	double submit, duration;
	int rc;

	if ((rc = gp_trace_strdup(r, C_JOB_ID, &j->id)) ||
	    (rc = gp_trace_long(r, C_NUM_GPU, 1, GP_TRACE_MAX_GPUS, &gpus)) ||
	    (rc = gp_trace_double(r, C_SUBMIT, 0, GP_TRACE_MAX_SECONDS * unit,
				  &submit)) ||
	    (rc = gp_trace_long(r, C_ITERATIONS, 0, 1000000000000000L, &iters)) ||
	    (rc = gp_trace_double(r, C_DURATION, 0,
				  GP_TRACE_MAX_SECONDS * unit, &duration)) ||
	    (rc = gp_trace_model_name(r, C_MODEL, gp_trace_get(r, C_MODEL))))
		return rc;
	j->gpus = (int)gpus;
	j->submit = submit / unit;
	j->duration = duration / unit;
	j->iterations = iters;
	gp_trace_default_type(j);
	return GP_OK;
}

static int tiresias_row(gp_trace_row *r, gp_job *j)
{
	return row_common(r, j, 1.0);
}

static int muri_row(gp_trace_row *r, gp_job *j)
{
	long v;
	int rc = row_common(r, j, 1000.0);

	if (rc)
		return rc;
	if (*gp_trace_get(r, C_BATCH)) {
		if ((rc = gp_trace_long(r, C_BATCH, 0, 1L << 30, &v)))
			return rc;
		j->batch_size = (int)v;
	}
	if (*gp_trace_get(r, C_PRIORITY)) {
		if ((rc = gp_trace_long(r, C_PRIORITY, -1000000, 1000000, &v)))
			return rc;
		j->priority = (int)v;
	}
	return GP_OK;
}

const gp_trace_dialect gp_trace_tiresias = {
	.name = "tiresias",
	.summary = "Tiresias CSV: job_id,num_gpu,submit_time,iterations,model_name,duration,interval (seconds)",
	.sep = ',',
	.columns = columns,
	.header = 1,
	.required = TIRESIAS_REQUIRED,
	.own_ids = 1,
	.row = tiresias_row,
};

const gp_trace_dialect gp_trace_muri = {
	.name = "muri",
	.summary = "Muri CSV: Tiresias columns + batch_size,iteration_time,resource_time_0..2,priority (milliseconds)",
	.sep = ',',
	.columns = columns,
	.header = 1,
	.required = TIRESIAS_REQUIRED | BIT(C_ITER_TIME),
	.own_ids = 1,
	.row = muri_row,
};
