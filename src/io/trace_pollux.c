/* Pollux (OSDI'21) and Sia (SOSP'23) workloads:
 * name,time,application,num_replicas,batch_size.
 *
 * The trace gives no run length: those simulators train each application
 * for a fixed number of epochs over its dataset.  The reader turns that
 * into work: iterations = ceil(epochs x samples per epoch / batch_size),
 * with batch_size the job's global batch, and sets the job's batch to the
 * per-GPU share ceil(batch_size / num_replicas), which is how Pollux's
 * simulator splits a fixed batch.  The perf model's iteration time then
 * gives the duration.  Sources of the table: man gpuplan (traces, pollux)
 * and tests/data/traces/README.md. */
#include <string.h>
#include <strings.h>

#include "gpuplan/util/util.h"
#include "trace_int.h"

enum { C_NAME, C_TIME, C_APPLICATION, C_REPLICAS, C_BATCH };

static const char *const columns[] = {
	"name", "time", "application", "num_replicas", "batch_size", NULL,
};

/* Work of each application.  Epochs: max_epochs of the artifacts'
 * applications.py (Pollux and Sia agree).  Samples per epoch: the
 * training set, checked against the iterations per epoch of the
 * artifacts' validation-<B>.csv at their smallest batch B. */
static const struct app_work {
	const char *app;
	int64_t samples;        /* per epoch */
	int epochs;
} app_work[] = {
	{ "bert", 88641, 2 },          /* SQuAD v1.1 features, 7387 it/epoch at 12 */
	{ "cifar10", 50000, 100 },     /* CIFAR-10 training images */
	{ "deepspeech2", 7135, 80 },   /* derived: progress 28538.6 at 80 epochs x 20 */
	{ "imagenet", 1281167, 90 },   /* ILSVRC-2012 training images, 6406 it/epoch at 200 */
	{ "ncf", 4970845, 10 },        /* MovieLens-1M: 994169 ratings x (1 + 4 negatives) */
	{ "yolov3", 16551, 50 },       /* PASCAL VOC 07+12 trainval, 2069 it/epoch at 8 */
	{ "gpt_pmp", 88641, 2 },       /* default: no dataset in Sia's artifact */
};

int64_t gp_trace_pollux_iterations(const char *application, long batch)
{
	size_t i;

	if (!application || batch < 1)
		return 0;
	for (i = 0; i < GP_ARRAY_SIZE(app_work); i++)
		if (!strcasecmp(application, app_work[i].app))
			return (app_work[i].samples * app_work[i].epochs + batch - 1) / batch;
	return 0;
}

static int pollux_row(gp_trace_row *r, gp_job *j)
{
	double submit;
	long gpus, batch;
	int rc;
	const char *app;

	if ((rc = gp_trace_strdup(r, C_NAME, &j->id)) ||
	    (rc = gp_trace_double(r, C_TIME, 0, GP_TRACE_MAX_SECONDS, &submit)) ||
	    (rc = gp_trace_long(r, C_REPLICAS, 1, GP_TRACE_MAX_GPUS, &gpus)) ||
	    (rc = gp_trace_long(r, C_BATCH, 1, 1L << 30, &batch)))
		return rc;
	app = gp_trace_get(r, C_APPLICATION);
	if (!*app)
		return gp_trace_bad(r, C_APPLICATION, "missing value for 'application'");
	if ((rc = gp_trace_model_name(r, C_APPLICATION, app)))
		return rc;
	j->submit = submit;
	j->gpus = (int)gpus;
	j->batch_size = (int)((batch + gpus - 1) / gpus);
	j->duration = -1;
	/* 0 for an application outside the table: no run length. */
	j->iterations = gp_trace_pollux_iterations(app, batch);
	/* Pollux and Sia trained these jobs in PyTorch's default FP32 (TF32
	 * on Ampere), which is what their step-time profiles measured. */
	j->precision = GP_PREC_FP32;
	gp_trace_default_type(j);
	return GP_OK;
}

const gp_trace_dialect gp_trace_pollux = {
	.name = "pollux",
	.summary = "Pollux/Sia workload: name,time,application,num_replicas,batch_size (seconds; iterations from the application's epochs x dataset)",
	.sep = ',',
	.columns = columns,
	.header = 1,
	.required = 0x1f,
	.own_ids = 1,
	.row = pollux_row,
};
