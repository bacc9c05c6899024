/* Pollux (OSDI'21) and Sia (SOSP'23) workloads:
 * name,time,application,num_replicas,batch_size.  The trace gives no run
 * length: those simulators run each application to a fixed amount of
 * training progress, so the job's work is left to the performance model
 * (duration < 0, iterations 0). */
#include "gpuplan/util.h"
#include "trace_impl.h"

enum { C_NAME, C_TIME, C_APPLICATION, C_REPLICAS, C_BATCH };

static const char *const columns[] = {
	"name", "time", "application", "num_replicas", "batch_size", NULL,
};

static int pollux_row(gp_trace_row *r, gp_job *j)
{
	double submit;
	long gpus, batch;
	int rc;

	if ((rc = gp_trace_strdup(r, C_NAME, &j->id)) ||
	    (rc = gp_trace_double(r, C_TIME, 0, GP_TRACE_MAX_SECONDS, &submit)) ||
	    (rc = gp_trace_long(r, C_REPLICAS, 1, GP_TRACE_MAX_GPUS, &gpus)) ||
	    (rc = gp_trace_long(r, C_BATCH, 1, 1L << 30, &batch)))
		return rc;
	if (!*gp_trace_get(r, C_APPLICATION))
		return gp_trace_bad(r, C_APPLICATION, "missing value for 'application'");
	if ((rc = gp_trace_model_name(r, C_APPLICATION,
				      gp_trace_get(r, C_APPLICATION), j)))
		return rc;
	j->submit = submit;
	j->gpus = (int)gpus;
	j->batch_size = (int)batch;
	j->duration = -1;
	j->iterations = 0;
	gp_trace_default_type(j);
	return GP_OK;
}

const gp_trace_dialect gp_trace_pollux = {
	.name = "pollux",
	.summary = "Pollux/Sia workload: name,time,application,num_replicas,batch_size (seconds; no run length)",
	.sep = ',',
	.columns = columns,
	.header = 1,
	.required = 0x1f,
	.own_ids = 1,
	.row = pollux_row,
};
