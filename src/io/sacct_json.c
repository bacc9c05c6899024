/* History as JSON (sacct.h): `sacct --json` and slurmrestd's slurmdb jobs
 * (parsers v0.0.37 to v0.0.44: times as plain numbers or {set, number},
 * state.current as a string or a list), and `kubectl get pods -A -o json`
 * (creation, start and finish times of each pod, its GPU limits). */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gpuplan/io/sacct.h"
#include "gpuplan/util/pool.h"
#include "gpuplan/util/timefmt.h"
#include "gpuplan/util/util.h"
#include "sacct_int.h"
#include "trace_int.h"

/* A number, or Slurm's {set, infinite, number}; 0 and unset are none. */
static int num(json_t *v, int64_t *out)
{
	json_t *set;

	if (json_is_object(v)) {
		set = json_object_get(v, "set");
		if ((set && !json_is_true(set)) || json_is_true(json_object_get(v, "infinite")))
			return 0;
		v = json_object_get(v, "number");
	}
	if (json_is_integer(v)) {
		*out = json_integer_value(v);
		return 1;
	}
	if (json_is_real(v) && json_real_value(v) >= -9.2e18 && json_real_value(v) <= 9.2e18) {
		*out = (int64_t)json_real_value(v);
		return 1;
	}
	return 0;
}

static int64_t epoch(json_t *v)
{
	int64_t t;

	/* 0 is unset, 0xffffffff and 0xfffffffe are INFINITE and NO_VAL */
	if (!num(v, &t) || t <= 0 || t >= 4294967294LL)
		return GP_SACCT_NONE;
	return t;
}

static const char *str(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

/* A TRES list: gres gpu (the total) or gpu:TYPE entries, node, cpu. */
static void tres_list(gp_sacct *h, gp_sacct_job *j, json_t *list, int *any)
{
	int64_t untyped = -1, typed = 0, c;
	size_t i;
	json_t *t;

	json_array_foreach(list, i, t) {
		const char *type = str(t, "type"), *name = str(t, "name");

		if (!num(json_object_get(t, "count"), &c) || c < 0)
			continue;
		if (!strcmp(type, "gres") && (!strcmp(name, "gpu") || !strncmp(name, "gpu:", 4))) {
			if (c > GP_TRACE_MAX_GPUS)
				c = GP_TRACE_MAX_GPUS;
			if (name[3] == ':') {
				typed += c;
				if (c > 0 && !j->gpu_type)
					j->gpu_type = gp_sacct_intern(h, name + 4);
			} else {
				untyped = c;
			}
			*any = 1;
		} else if (!strcmp(type, "node") && !j->nodes && c < (1 << 24)) {
			j->nodes = (int32_t)c;
		} else if (!strcmp(type, "cpu") && !j->cpus && c < (1 << 24)) {
			j->cpus = (int32_t)c;
		}
	}
	if (*any) {
		c = untyped >= 0 ? untyped : typed;
		j->gpus = (int32_t)(c > GP_TRACE_MAX_GPUS ? GP_TRACE_MAX_GPUS : c);
	}
}

static void slurm_job(gp_sacct *h, gp_sacct_job *j, json_t *o)
{
	json_t *arr = json_object_get(o, "array"), *het = json_object_get(o, "het");
	json_t *time = json_object_get(o, "time"), *state = json_object_get(o, "state");
	json_t *tres = json_object_get(o, "tres"), *cur;
	int64_t id = 0, a = 0, task = 0, hj = 0, off = 0, v;
	char buf[64];
	int any = 0;

	num(json_object_get(o, "job_id"), &id);
	if (num(json_object_get(arr, "job_id"), &a) && a > 0 &&
	    num(json_object_get(arr, "task_id"), &task))
		snprintf(buf, sizeof(buf), "%lld_%lld", (long long)a, (long long)task);
	else if (num(json_object_get(het, "job_id"), &hj) && hj > 0 &&
		 num(json_object_get(het, "job_offset"), &off))
		snprintf(buf, sizeof(buf), "%lld+%lld", (long long)hj, (long long)off);
	else
		snprintf(buf, sizeof(buf), "%lld", (long long)id);
	j->id = gp_pool_strdup(h->pool, buf);
	j->submit = epoch(json_object_get(time, "submission"));
	j->eligible = epoch(json_object_get(time, "eligible"));
	j->start = epoch(json_object_get(time, "start"));
	j->end = epoch(json_object_get(time, "end"));
	if (num(json_object_get(time, "elapsed"), &v) && v >= 0)
		j->elapsed = v;
	if (num(json_object_get(time, "limit"), &v) && v > 0 && v < (1LL << 31))
		j->time_limit = v * 60;
	cur = json_is_object(state) ? json_object_get(state, "current") : state;
	if (json_is_array(cur))
		cur = json_array_get(cur, 0);
	if (json_is_string(cur))
		j->state = gp_sacct_state(h, json_string_value(cur));
	if (json_is_string(json_object_get(o, "state")))
		j->state = gp_sacct_state(h, str(o, "state"));
	tres_list(h, j, json_object_get(tres, "allocated"), &any);
	if (any)
		j->alloc = 1;
	else
		tres_list(h, j, json_object_get(tres, "requested"), &any);
	if (num(json_object_get(o, "allocation_nodes"), &v) && v > 0 && v < (1 << 24))
		j->nodes = (int32_t)v;
	if (!strcasecmp(str(o, "nodes"), "None assigned") || !*str(o, "nodes"))
		j->no_nodes = 1;
	j->partition = gp_sacct_intern(h, str(o, "partition"));
	j->account = gp_sacct_intern(h, str(o, "account"));
	j->user = gp_sacct_intern(h, str(o, "user"));
	j->qos = gp_sacct_intern(h, str(o, "qos"));
}

/* ---- Kubernetes pods ---- */

static int64_t rfc3339(json_t *v)
{
	int64_t t;

	return json_is_string(v) && !gp_time_parse_iso(json_string_value(v), &t) ? t : GP_SACCT_NONE;
}

/* GPUs of one container: its limits (requests when no limit). */
static int64_t container_gpus(json_t *c)
{
	static const char *const keys[] = { "nvidia.com/gpu", "amd.com/gpu", "gpu.intel.com/i915" };
	json_t *res = json_object_get(c, "resources");
	int64_t n = 0, v;
	size_t k;

	for (k = 0; k < GP_ARRAY_SIZE(keys); k++) {
		json_t *x = json_object_get(json_object_get(res, "limits"), keys[k]);

		if (!x)
			x = json_object_get(json_object_get(res, "requests"), keys[k]);
		if (json_is_string(x)) {
			long l;

			if (!gp_parse_long(json_string_value(x), 0, GP_TRACE_MAX_GPUS, &l))
				n += l;
		} else if (num(x, &v) && v > 0 && v <= GP_TRACE_MAX_GPUS) {
			n += v;
		}
	}
	return n;
}

static void k8s_pod(gp_sacct *h, gp_sacct_job *j, json_t *pod)
{
	json_t *meta = json_object_get(pod, "metadata"), *spec = json_object_get(pod, "spec");
	json_t *status = json_object_get(pod, "status"), *c, *labels;
	const char *phase = str(status, "phase"), *reason = NULL;
	int64_t app = 0, init = 0, g, t, v;
	size_t i;
	int done = 1, nstat = 0;
	gp_sbuf sb;

	gp_sbuf_init(&sb);
	gp_sbuf_addf(&sb, "%s/%s", *str(meta, "namespace") ? str(meta, "namespace") : "default",
		     str(meta, "name"));
	j->id = gp_pool_strdup(h->pool, sb.buf);
	gp_sbuf_release(&sb);
	j->submit = rfc3339(json_object_get(meta, "creationTimestamp"));
	json_array_foreach(json_object_get(spec, "containers"), i, c)
		app += container_gpus(c);
	json_array_foreach(json_object_get(spec, "initContainers"), i, c)
		if ((g = container_gpus(c)) > init)
			init = g;
	j->gpus = (int32_t)(app > init ? app : init);
	if (j->gpus > GP_TRACE_MAX_GPUS)
		j->gpus = GP_TRACE_MAX_GPUS;
	j->alloc = *str(spec, "nodeName") != '\0';
	j->nodes = j->alloc;
	j->no_nodes = !j->alloc;
	if (num(json_object_get(spec, "activeDeadlineSeconds"), &v) && v > 0)
		j->time_limit = v;
	/* the run: the first container start, the last finish */
	json_array_foreach(json_object_get(status, "containerStatuses"), i, c) {
		json_t *st = json_object_get(c, "state");
		json_t *run = json_object_get(st, "running"), *term = json_object_get(st, "terminated");

		nstat++;
		t = rfc3339(json_object_get(term ? term : run, "startedAt"));
		if (t != GP_SACCT_NONE && (j->start == GP_SACCT_NONE || t < j->start))
			j->start = t;
		if (!term) {
			done = 0;
			continue;
		}
		t = rfc3339(json_object_get(term, "finishedAt"));
		if (t != GP_SACCT_NONE && (j->end == GP_SACCT_NONE || t > j->end))
			j->end = t;
		if (!strcmp(str(term, "reason"), "OOMKilled"))
			reason = "OUT_OF_MEMORY";
	}
	if (j->start == GP_SACCT_NONE)
		j->start = rfc3339(json_object_get(status, "startTime"));
	if (!done || !nstat)
		j->end = GP_SACCT_NONE;
	if (!strcmp(phase, "Succeeded"))
		j->state = gp_sacct_intern(h, "COMPLETED");
	else if (!strcmp(phase, "Failed"))
		j->state = gp_sacct_intern(h, reason ? reason : "FAILED");
	else if (!strcmp(phase, "Running"))
		j->state = gp_sacct_intern(h, "RUNNING");
	else if (!strcmp(phase, "Pending"))
		j->state = gp_sacct_intern(h, "PENDING");
	else if (*phase)
		j->state = gp_sacct_state(h, phase);
	if (j->state && (!strcmp(j->state, "RUNNING") || !strcmp(j->state, "PENDING")))
		j->end = GP_SACCT_NONE;
	labels = json_object_get(meta, "labels");
	j->partition = gp_sacct_intern(h, str(labels, "kueue.x-k8s.io/queue-name"));
	j->account = gp_sacct_intern(h, str(meta, "namespace"));
}

/* A control byte the JSON escaped (\u0001) or carried raw (DEL) in a
 * kept string would garble the trace written from it: the first such
 * field's name, NULL when none. */
static const char *control_field(const gp_sacct_job *j)
{
	const char *const v[] = { j->id, j->state, j->partition, j->account, j->user, j->qos,
				  j->gpu_type };
	static const char *const what[] = { "name", "state", "partition", "account", "user",
					    "qos", "GPU type" };
	size_t k;

	for (k = 0; k < GP_ARRAY_SIZE(v); k++)
		if (v[k] && gp_text_bad_byte(v[k], strlen(v[k])) < strlen(v[k]))
			return what[k];
	return NULL;
}

int gp_sacct_read_json(gp_sacct *h, const char *name, const char *text, size_t len,
		       gp_error *err)
{
	json_error_t je;
	json_t *root, *list, *o;
	int k8s, rc = GP_OK;
	uint16_t file = gp_sacct_file(h, name);
	size_t i;
	const char *bad;

	/* JSON allows a raw DEL; no field of a job history has one */
	if ((rc = gp_text_check(text, len, name, 1, err)))
		return rc;
	root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	if (!root)
		return gp_error_set(err, GP_EINPUT, name, je.line > 0 ? je.line : 0,
				    je.column > 0 ? je.column : 0, "not JSON: %s", je.text);
	list = json_object_get(root, "jobs");
	k8s = !list;
	if (k8s)
		list = json_object_get(root, "items");
	if (!json_is_array(list)) {
		json_decref(root);
		return gp_error_set(err, GP_EINPUT, name, 1, 1,
				    "neither sacct --json (a 'jobs' list) nor a Kubernetes pod list "
				    "(an 'items' list)");
	}
	json_array_foreach(list, i, o) {
		gp_sacct_job *j;
		char where[600];

		if (!json_is_object(o)) {
			rc = gp_error_set(err, GP_EINPUT, name, 0, 0, "%s[%zu] is not an object",
					  k8s ? "items" : "jobs", i);
			break;
		}
		if (k8s && *str(o, "kind") && strcmp(str(o, "kind"), "Pod"))
			continue;
		j = gp_sacct_push(h);
		if (!j) {
			rc = gp_error_set(err, GP_EINPUT, name, 0, 0, "more than %zu jobs (the cap)",
					  (size_t)GP_SACCT_MAX_JOBS);
			break;
		}
		h->rows++;
		j->file = file;
		j->line = (int32_t)(i + 1 > 0x7fffffff ? 0x7fffffff : i + 1);
		if (k8s)
			k8s_pod(h, j, o);
		else
			slurm_job(h, j, o);
		if ((bad = control_field(j))) {
			h->n--;
			rc = gp_error_set(err, GP_EINPUT, name, 0, 0,
					  "%s[%zu]: a control byte in the job's %s",
					  k8s ? "items" : "jobs", i, bad);
			break;
		}
		h->steps += json_array_size(json_object_get(o, "steps"));
		snprintf(where, sizeof(where), "%s: %s[%zu]", name, k8s ? "items" : "jobs", i);
		gp_sacct_commit(h, where);
	}
	if (!h->form)
		h->form = gp_xstrdup(k8s ? "kubectl get pods -o json" : "sacct --json");
	json_decref(root);
	return rc;
}
