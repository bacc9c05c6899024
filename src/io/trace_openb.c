/* Alibaba's openb pod lists (cluster-trace-gpu-v2023, the FGD paper's
 * trace) as a replayable trace: one row per Kubernetes pod,
 * name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,
 * creation_time,deletion_time,scheduled_time, times in seconds from the
 * trace's start.
 *
 * A pod arrives at creation_time and runs for deletion_time -
 * scheduled_time: the time it held its resources in production (the wait
 * scheduled - creation is what the simulator reproduces, not run time).
 * A pod is one node, so a multi-GPU pod is a single-node job.  Rows that
 * are valid but no GPU job to replay are left out and counted: CPU-only
 * tasks (num_gpu 0; gpuplan's policies place GPU jobs) and pods without
 * scheduled_time (the Pending pods, which never ran).  The GPU-request
 * rules are the sharing engine's (gp_openb_gpu_request), so both
 * readers accept the same rows. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gpuplan/io/openb.h"
#include "gpuplan/util/util.h"
#include "trace_int.h"

enum {
	C_NAME, C_CPU, C_MEM, C_NUM_GPU, C_GPU_MILLI, C_GPU_SPEC, C_QOS,
	C_PHASE, C_CREATION, C_DELETION, C_SCHEDULED,
};

static const char *const columns[] = {
	"name", "cpu_milli", "memory_mib", "num_gpu", "gpu_milli", "gpu_spec",
	"qos", "pod_phase", "creation_time", "deletion_time", "scheduled_time",
	NULL,
};

typedef struct openb_state {
	size_t cpu_only, never_ran;
} openb_state;

/* Kubernetes QoS classes join Alibaba's two: Guaranteed (requests equal
 * limits, evicted last) is latency-sensitive, Burstable best-effort. */
static const struct {
	const char *word;
	int klass;
} qos_words[] = {
	{ "LS", GP_CLASS_LS },
	{ "BE", GP_CLASS_BE },
	{ "Guaranteed", GP_CLASS_LS },
	{ "Burstable", GP_CLASS_BE },
};

static const char *const phase_words[] = {
	"Running", "Succeeded", "Failed", "Pending",
};

/* The five-column lists (openb_pod_list_multigpu50.csv) carry no times:
 * they only order tasks for FGD's workload inflation. */
static int openb_header(const int *map, const char *path, int line,
			gp_error *err)
{
	static const int times[] = { C_CREATION, C_DELETION, C_SCHEDULED };
	size_t i;

	for (i = 0; i < GP_ARRAY_SIZE(times); i++)
		if (map[times[i]] < 0)
			return gp_error_set(err, GP_EINPUT, path, line, 0,
					    "this openb pod list has no '%s' column: without "
					    "creation, scheduled and deletion times it is an "
					    "order-only trace for FGD's workload inflation "
					    "(replay it with --inflate X)", columns[times[i]]);
	return GP_OK;
}

static int word_index(const char *s, const char *const *words, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcasecmp(s, words[i]))
			return (int)i;
	return -1;
}

static int openb_row(gp_trace_row *r, gp_job *j)
{
	openb_state *st = r->state;
	const char *qos = gp_trace_get(r, C_QOS), *phase = gp_trace_get(r, C_PHASE);
	const char *spec = gp_trace_get(r, C_GPU_SPEC);
	long cpu, mem, ngpu, milli;
	double created, deleted, scheduled = -1;
	char why[128];
	size_t i;
	int rc;

	if ((rc = gp_trace_strdup(r, C_NAME, &j->id)) ||
	    (rc = gp_trace_long(r, C_CPU, 0, 1L << 40, &cpu)) ||
	    (rc = gp_trace_long(r, C_MEM, 0, 1L << 40, &mem)) ||
	    (rc = gp_trace_long(r, C_NUM_GPU, 0, GP_TRACE_MAX_GPUS, &ngpu)) ||
	    (rc = gp_trace_long(r, C_GPU_MILLI, 0, 1L << 30, &milli)))
		return rc;
	if (gp_openb_gpu_request(ngpu, &milli, why, sizeof(why)))
		return gp_trace_bad(r, C_GPU_MILLI, "%s", why);
	if (ngpu > 0 && !gp_openb_spec_any(spec, strlen(spec)) &&
	    (rc = gp_trace_gpu_models(r, C_GPU_SPEC, spec, j)))
		return rc;
	if (*qos) {
		for (i = 0; i < GP_ARRAY_SIZE(qos_words); i++)
			if (!strcasecmp(qos, qos_words[i].word))
				break;
		if (i == GP_ARRAY_SIZE(qos_words))
			return gp_trace_bad(r, C_QOS,
					    "'qos' must be LS, BE, Guaranteed or Burstable, got '%.40s'",
					    qos);
		j->klass = qos_words[i].klass;
	}
	if (*phase && word_index(phase, phase_words, GP_ARRAY_SIZE(phase_words)) < 0)
		return gp_trace_bad(r, C_PHASE,
				    "'pod_phase' must be Running, Succeeded, Failed or Pending, got '%.40s'",
				    phase);
	if ((rc = gp_trace_double(r, C_CREATION, 0, GP_TRACE_MAX_SECONDS, &created)) ||
	    (rc = gp_trace_double(r, C_DELETION, 0, GP_TRACE_MAX_SECONDS, &deleted)))
		return rc;
	if (*gp_trace_get(r, C_SCHEDULED)) {
		if ((rc = gp_trace_double(r, C_SCHEDULED, 0, GP_TRACE_MAX_SECONDS, &scheduled)))
			return rc;
		if (scheduled < created)
			return gp_trace_bad(r, C_SCHEDULED,
					    "'scheduled_time' %.17g is before 'creation_time' %.17g",
					    scheduled, created);
		if (deleted < scheduled)
			return gp_trace_bad(r, C_DELETION,
					    "'deletion_time' %.17g is before 'scheduled_time' %.17g",
					    deleted, scheduled);
	} else if (deleted < created) {
		return gp_trace_bad(r, C_DELETION,
				    "'deletion_time' %.17g is before 'creation_time' %.17g",
				    deleted, created);
	}

	if (ngpu == 0) {
		st->cpu_only++;
		return GP_TRACE_LEAVE_OUT;
	}
	if (scheduled < 0) {
		st->never_ran++;
		return GP_TRACE_LEAVE_OUT;
	}
	j->submit = created;
	j->duration = deleted - scheduled;
	j->gpus = (int)ngpu;
	j->gpu_milli = (int)milli;
	j->cpu_milli = cpu;
	j->mem_mib = mem;
	j->type = ngpu > 1 ? GP_JOB_SINGLE_NODE : GP_JOB_SINGLE_CARD;
	return GP_OK;
}

static void openb_finish(void *state, gp_joblist *l, gp_trace_stats *stats)
{
	const openb_state *st = state;
	gp_sbuf sb;

	(void)stats;
	if (!st->cpu_only && !st->never_ran)
		return;
	gp_sbuf_init(&sb);
	if (st->cpu_only)
		gp_sbuf_addf(&sb, "%zu CPU-only task%s", st->cpu_only,
			     st->cpu_only == 1 ? "" : "s");
	if (st->never_ran)
		gp_sbuf_addf(&sb, "%s%zu pod%s never scheduled", sb.len ? ", " : "",
			     st->never_ran, st->never_ran == 1 ? "" : "s");
	free(l->left_out_note);
	l->left_out_note = gp_sbuf_detach(&sb);
}

const gp_trace_dialect gp_trace_openb = {
	.name = "openb",
	.summary = "Alibaba openb pod list: name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,"
		   "qos,pod_phase,creation_time,deletion_time,scheduled_time (seconds)",
	.sep = ',',
	.columns = columns,
	.header = 1,
	.required = (1u << C_NAME) | (1u << C_CPU) | (1u << C_MEM) |
		    (1u << C_NUM_GPU) | (1u << C_GPU_MILLI),
	.own_ids = 1,
	.state_size = sizeof(openb_state),
	.row = openb_row,
	.check_header = openb_header,
	.finish = openb_finish,
};
