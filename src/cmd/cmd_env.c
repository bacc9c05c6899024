/* gpuplan env: live binding of development environments (quota binding)
 * against a state file: bind a task's GPUs by the quota rule, release
 * them, record heartbeats, reclaim what timed out, show the state.
 * Changes are written only with --commit, atomically (temporary file +
 * rename), as `place --commit` does. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "opt.h"
#include "gpuplan/envs/envs.h"
#include "gpuplan/io/cluster_yaml.h"
#include "gpuplan/io/envs.h"
#include "gpuplan/model/cluster.h"
#include "gpuplan/report/report.h"
#include "gpuplan/util/util.h"

enum { O_ENVS = 256, O_STATE, O_ENV, O_TASK, O_GPUS, O_MEM, O_AT, O_NOW, O_THR, O_HBT, O_JSON, O_COMMIT,
       O_LOCKT };

static const gp_opt env_opts[] = {
	{ .name = "cluster", .sc = 'c', .key = 'c', .type = GP_OT_STR, .arg = "FILE",
	  .help = "cluster YAML (default: the bundled example)" },
	{ .name = "envs", .key = O_ENVS, .type = GP_OT_STR, .arg = "FILE",
	  .help = "environments: [{name, gpus, gpu_memory_gib, pool?}]" },
	{ .name = "state", .key = O_STATE, .type = GP_OT_STR, .arg = "FILE", .help = "binding state" },
	{ .name = "env", .key = O_ENV, .type = GP_OT_STR, .arg = "E", .help = "the environment" },
	{ .name = "task", .key = O_TASK, .type = GP_OT_STR, .arg = "T", .help = "the task" },
	{ .name = "task-threshold", .key = O_THR, .type = GP_OT_LONG, .arg = "K", .min = 1,
	  .max = GP_ENV_MAX_THRESHOLD, .help = "tasks sharing one GPU at most (default 4)" },
	{ .name = "gpus", .key = O_GPUS, .type = GP_OT_LONG, .arg = "N", .min = 1,
	  .max = GP_ENV_MAX_QUOTA_GPUS, .help = "GPUs of the task (default 1)" },
	{ .name = "memory", .key = O_MEM, .type = GP_OT_STR, .arg = "SIZE",
	  .help = "GPU memory of the task over all its GPUs (\"10GiB\")" },
	{ .name = "at", .key = O_AT, .type = GP_OT_DURATION, .arg = "TIME", .min = 0, .max = 1e15,
	  .unit = "s", .help = "seconds on any clock the clients share (or 90s, 2h, 1d)" },
	{ .name = "now", .key = O_NOW, .type = GP_OT_DURATION, .arg = "TIME", .min = 0, .max = 1e15,
	  .unit = "s", .help = "the same clock, for reclaim" },
	{ .name = "heartbeat-timeout", .key = O_HBT, .type = GP_OT_DURATION, .arg = "S", .min = 0,
	  .max = 1e12, .unit = "s", .help = "reclaim after S seconds without heartbeat (default 5)" },
	{ .name = "json", .key = O_JSON, .type = GP_OT_FLAG, .help = "machine-readable output" },
	{ .name = "commit", .key = O_COMMIT, .type = GP_OT_FLAG,
	  .help = "write the new state to --state (atomically, under an\n"
		  "exclusive lock from read to write, as place --commit)" },
	GP_OPT_LOCK_TIMEOUT(O_LOCKT),
	{ 0 },
};

const gp_cmd_desc gp_desc_env = {
	.name = "env",
	.synopsis = "bind      -c CLUSTER --envs ENVS.yaml --state STATE --env E --task T\n"
		    "              [--gpus N] [--memory SIZE] [--at TIME] [--json] [--commit]\n"
		    "release   -c CLUSTER --envs ENVS.yaml --state STATE --task T [--json] [--commit]\n"
		    "heartbeat -c CLUSTER --envs ENVS.yaml --state STATE --env E|--task T --at TIME\n"
		    "              [--json] [--commit]\n"
		    "reclaim   -c CLUSTER --envs ENVS.yaml --state STATE --now TIME\n"
		    "              [--heartbeat-timeout S] [--json] [--commit]\n"
		    "status    -c CLUSTER --envs ENVS.yaml --state STATE [--json]",
	.min_args = 0, .max_args = 0,
	.about = "Development environments hold a GPU quota (count and memory), not GPUs: a GPU\n"
		 "is bound when a task starts (a new one below the task threshold while under\n"
		 "quota, else the environment's least-loaded GPU), and given back when the task\n"
		 "ends or its heartbeats stop (a task's own, or its environment's for all its\n"
		 "tasks).  STATE records bound tasks and last heartbeats; it is created on first\n"
		 "--commit.  Exit 1 when a task cannot be\n"
		 "bound (the reason is printed), 3 for a bad file.\n",
	.opts = env_opts,
};

typedef struct envctx {
	const char *cluster_path, *envs_path, *state_path, *env_name, *task;
	int gpus, threshold, json, commit;
	int64_t mem_mib;
	double at, now, timeout;
	int have_at, have_now;
	gp_cluster cluster;
	gp_env_set set;
	gp_envstate st;
	gp_envbind *b;
	double lock_timeout;
	gp_txn txn;             /* --commit: held from load to write */
	FILE *out;              /* what to print once the state is committed */
} envctx;

static int gpu_of(const gp_cluster *c, int node, int gpu)
{
	return c->nodes[node].first_gpu + gpu;
}

static void ctx_release(envctx *x)
{
	gp_txn_abort(&x->txn);
	gp_envbind_free(x->b);
	gp_envstate_release(&x->st);
	gp_env_set_release(&x->set);
	gp_cluster_release(&x->cluster);
}

/* Load cluster, environments and state; apply the state's bindings. */
static int ctx_load(envctx *x)
{
	gp_error err = GP_ERROR_INIT;
	size_t i;
	int k;

	gp_cluster_init(&x->cluster);
	gp_env_set_init(&x->set);
	gp_envstate_init(&x->st);
	if (gp_cluster_load(x->cluster_path ? x->cluster_path : gp_cli_default_cluster(), &x->cluster, &err))
		return gp_cli_report(&err);
	if (gp_envs_load(x->envs_path, &x->cluster, &x->set, &err))
		return gp_cli_report(&err);
	if (x->commit) {
		if (gp_envstate_begin(&x->txn, x->state_path, x->lock_timeout, &x->cluster, &x->set, &x->st,
				      &err))
			return gp_cli_report(&err);
	} else if (gp_envstate_load(x->state_path, &x->cluster, &x->set, &x->st, &err)) {
		return gp_cli_report(&err);
	}
	x->b = gp_envbind_new(&x->cluster, &x->set, x->threshold, 0);
	for (i = 0; i < x->st.ntasks; i++) {
		const gp_envstate_task *t = &x->st.tasks[i];
		const gp_env *E = &x->set.envs[t->env];
		int *g = gp_xmalloc((size_t)t->ngpus * sizeof(int));
		char msg[256];
		int rc;

		for (k = 0; k < t->ngpus; k++)
			g[k] = gpu_of(&x->cluster, t->gpus[k].node, t->gpus[k].gpu);
		rc = gp_envbind_apply(x->b, t->env, t->ngpus, g, t->mem_mib, msg, sizeof(msg));
		free(g);
		if (rc)
			return gp_cli_fail(GP_EINPUT, "%s:%d:%d: task '%s': %s", x->state_path, t->line, t->col, t->task,
					   msg);
		if (gp_envbind_env_nbound(x->b, t->env) > E->quota_gpus)
			return gp_cli_fail(GP_EINPUT, "%s:%d:%d: task '%s': environment '%s' would have %d GPUs bound, its quota is %d",
					   x->state_path, t->line, t->col, t->task, E->name,
					   gp_envbind_env_nbound(x->b, t->env), E->quota_gpus);
		if (gp_envbind_env_mem(x->b, t->env) > E->quota_mem_mib)
			return gp_cli_fail(GP_EINPUT, "%s:%d:%d: task '%s': environment '%s' would use %lld MiB of GPU memory, its quota is %lld",
					   x->state_path, t->line, t->col, t->task, E->name,
					   (long long)gp_envbind_env_mem(x->b, t->env), (long long)E->quota_mem_mib);
	}
	return GP_OK;
}

static int commit(envctx *x)
{
	gp_error err = GP_ERROR_INIT;

	if (!x->commit)
		return GP_OK;
	if (gp_envstate_commit(&x->txn, &x->cluster, &x->set, &x->st, &err))
		return gp_cli_report(&err);
	return GP_OK;
}

/* Node and local index of a global GPU id (nodes are in first_gpu order). */
static void gpu_where(const gp_cluster *c, int g, int *node, int *local)
{
	int lo = 0, hi = c->nnodes - 1, n = 0;

	while (lo <= hi) {
		int mid = (lo + hi) / 2;

		if (c->nodes[mid].first_gpu <= g) {
			n = mid;
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}
	*node = n;
	*local = g - c->nodes[n].first_gpu;
}

static json_t *gpu_json(const gp_cluster *c, int g)
{
	json_t *o = json_object();
	int node, local;

	gpu_where(c, g, &node, &local);
	json_object_set_new(o, "node", json_string(c->nodes[node].name));
	json_object_set_new(o, "gpu", json_integer(local));
	return o;
}

static json_t *gpus_json(const gp_cluster *c, const int *g, int n)
{
	json_t *a = json_array();
	int k;

	for (k = 0; k < n; k++)
		json_array_append_new(a, gpu_json(c, g[k]));
	return a;
}

static void put_json(FILE *out, json_t *o)
{
	json_dumpf(o, out, JSON_SORT_KEYS | JSON_INDENT(2) | JSON_REAL_PRECISION(15));
	fputs("\n", out);
	json_decref(o);
}

static void print_gpus(FILE *out, const gp_cluster *c, const int *g, int n)
{
	int k, node, local;

	for (k = 0; k < n; k++) {
		gpu_where(c, g[k], &node, &local);
		fprintf(out, "%s%s/GPU%d", k ? ", " : "", c->nodes[node].name, local);
	}
}

static void set_heartbeat(envctx *x, int env, double at)
{
	gp_envstate_hb *hb = gp_envstate_hb_of(&x->st, env);

	if (!hb) {
		GP_GROW(x->st.hbs, x->st.caphbs, x->st.nhbs + 1);
		hb = &x->st.hbs[x->st.nhbs++];
		hb->env = env;
		hb->at = at;
		hb->line = hb->col = 0;
	} else if (at > hb->at) {
		hb->at = at;
	}
}

static int do_bind(envctx *x)
{
	int env = gp_env_set_find(&x->set, x->env_name), *g, rc, k;
	gp_envbind_why why;
	gp_envstate_task *t;
	json_t *o;

	if (env < 0)
		return gp_cli_fail(GP_EUSAGE, "unknown environment '%s' (not in %s)", x->env_name, x->envs_path);
	if (gp_envstate_find_task(&x->st, x->task) >= 0)
		return gp_cli_fail(GP_EUSAGE, "task '%s' is already bound in %s; release it first", x->task,
				   x->state_path);
	g = gp_xcalloc((size_t)x->gpus, sizeof(int));
	rc = gp_envbind_task(x->b, env, x->gpus, x->mem_mib, g, &why);
	if (x->json) {
		o = json_object();
		json_object_set_new(o, "status", json_string(rc == GP_OK ? "bound" : "failed"));
		json_object_set_new(o, "env", json_string(x->env_name));
		json_object_set_new(o, "task", json_string(x->task));
		json_object_set_new(o, "gpus", gpus_json(&x->cluster, g, rc == GP_OK ? x->gpus : 0));
		json_object_set_new(o, "memory_mib", json_integer(x->mem_mib));
		json_object_set_new(o, "reason", rc == GP_OK ? json_null() : json_string(gp_envbind_reason_name(why.reason)));
		json_object_set_new(o, "message", json_string(rc == GP_OK ? "" : why.msg));
		json_object_set_new(o, "permanent", json_boolean(rc != GP_OK && why.permanent));
		json_object_set_new(o, "committed", json_boolean(rc == GP_OK && x->commit));
		put_json(x->out, o);
	}
	if (rc != GP_OK) {
		free(g);
		return gp_cli_fail(GP_NO, "cannot bind task '%s': %s", x->task, why.msg);
	}
	if (!x->json) {
		fprintf(x->out, "bound task '%s' of '%s' to ", x->task, x->env_name);
		print_gpus(x->out, &x->cluster, g, x->gpus);
		fprintf(x->out, "%s\n", x->commit ? "" : " (not committed)");
	}
	GP_GROW(x->st.tasks, x->st.cap, x->st.ntasks + 1);
	t = &x->st.tasks[x->st.ntasks++];
	memset(t, 0, sizeof(*t));
	t->task = gp_xstrdup(x->task);
	t->env = env;
	t->ngpus = x->gpus;
	t->mem_mib = x->mem_mib;
	t->at = x->have_at ? x->at : -1;
	t->hb = -1;
	t->gpus = gp_xcalloc((size_t)x->gpus, sizeof(*t->gpus));
	for (k = 0; k < x->gpus; k++)
		gpu_where(&x->cluster, g[k], &t->gpus[k].node, &t->gpus[k].gpu);
	if (x->have_at)
		set_heartbeat(x, env, x->at);
	free(g);
	return commit(x);
}

static int do_release(envctx *x)
{
	long i = gp_envstate_find_task(&x->st, x->task);
	const gp_envstate_task *t;
	int *g, k;

	if (i < 0)
		return gp_cli_fail(GP_NO, "task '%s' is not bound in %s", x->task, x->state_path);
	t = &x->st.tasks[i];
	if (x->env_name && strcmp(x->env_name, x->set.envs[t->env].name))
		return gp_cli_fail(GP_EUSAGE, "task '%s' belongs to environment '%s', not '%s'", x->task,
				   x->set.envs[t->env].name, x->env_name);
	g = gp_xmalloc((size_t)t->ngpus * sizeof(int));
	for (k = 0; k < t->ngpus; k++)
		g[k] = gpu_of(&x->cluster, t->gpus[k].node, t->gpus[k].gpu);
	gp_envbind_release(x->b, t->env, t->ngpus, g, t->mem_mib);
	if (x->json) {
		json_t *o = json_object();

		json_object_set_new(o, "status", json_string("released"));
		json_object_set_new(o, "env", json_string(x->set.envs[t->env].name));
		json_object_set_new(o, "task", json_string(t->task));
		json_object_set_new(o, "gpus", gpus_json(&x->cluster, g, t->ngpus));
		json_object_set_new(o, "env_gpus_bound", json_integer(gp_envbind_env_nbound(x->b, t->env)));
		json_object_set_new(o, "committed", json_boolean(x->commit));
		put_json(x->out, o);
	} else {
		fprintf(x->out, "released task '%s' of '%s' from ", t->task, x->set.envs[t->env].name);
		print_gpus(x->out, &x->cluster, g, t->ngpus);
		fprintf(x->out, "; '%s' keeps %d GPU(s)%s\n", x->set.envs[t->env].name, gp_envbind_env_nbound(x->b, t->env),
		       x->commit ? "" : " (not committed)");
	}
	free(g);
	gp_envstate_remove_task(&x->st, (size_t)i);
	return commit(x);
}

/* A task's own heartbeat (--task): it keeps that task alone bound. */
static int task_heartbeat(envctx *x)
{
	long i = gp_envstate_find_task(&x->st, x->task);
	gp_envstate_task *t;
	const char *env;

	if (i < 0)
		return gp_cli_fail(GP_NO, "task '%s' is not bound in %s", x->task, x->state_path);
	t = &x->st.tasks[i];
	env = x->set.envs[t->env].name;
	if (x->env_name && strcmp(x->env_name, env))
		return gp_cli_fail(GP_EUSAGE, "task '%s' belongs to environment '%s', not '%s'", x->task, env,
				   x->env_name);
	if (x->at > t->hb)
		t->hb = x->at;
	if (x->json) {
		json_t *o = json_object();

		json_object_set_new(o, "status", json_string("recorded"));
		json_object_set_new(o, "env", json_string(env));
		json_object_set_new(o, "task", json_string(t->task));
		json_object_set_new(o, "at", json_real(x->at));
		json_object_set_new(o, "last_heartbeat", json_real(t->hb));
		json_object_set_new(o, "committed", json_boolean(x->commit));
		put_json(x->out, o);
	} else {
		char b[64];

		fprintf(x->out, "heartbeat of task '%s' of '%s' at %s%s\n", t->task, env,
			gp_report_num(b, sizeof(b), t->hb, 6), x->commit ? "" : " (not committed)");
	}
	return commit(x);
}

static int do_heartbeat(envctx *x)
{
	int env;
	gp_envstate_hb *hb;

	if (x->task)
		return task_heartbeat(x);
	env = gp_env_set_find(&x->set, x->env_name);
	if (env < 0)
		return gp_cli_fail(GP_EUSAGE, "unknown environment '%s' (not in %s)", x->env_name, x->envs_path);
	set_heartbeat(x, env, x->at);
	hb = gp_envstate_hb_of(&x->st, env);
	if (x->json) {
		json_t *o = json_object();

		json_object_set_new(o, "status", json_string("recorded"));
		json_object_set_new(o, "env", json_string(x->env_name));
		json_object_set_new(o, "at", json_real(x->at));
		json_object_set_new(o, "last_heartbeat", json_real(hb->at));
		json_object_set_new(o, "committed", json_boolean(x->commit));
		put_json(x->out, o);
	} else {
		char b[64];

		fprintf(x->out, "heartbeat of '%s' at %s%s\n", x->env_name, gp_report_num(b, sizeof(b), hb->at, 6),
		       x->commit ? "" : " (not committed)");
	}
	return commit(x);
}

/* Last sign of life of env (status): its heartbeat or the latest of its
 * tasks' (gp_envstate_task_seen). */
static double last_seen(envctx *x, int env)
{
	gp_envstate_hb *hb = gp_envstate_hb_of(&x->st, env);
	double t = hb ? hb->at : -1;
	size_t i;

	for (i = 0; i < x->st.ntasks; i++)
		if (x->st.tasks[i].env == env && gp_envstate_task_seen(&x->st, i) > t)
			t = gp_envstate_task_seen(&x->st, i);
	return t;
}

static int do_reclaim(envctx *x)
{
	json_t *arr = json_array(), *o;
	size_t e, i;
	int nrec = 0, nunknown = 0;
	char b[64];

	for (e = 0; e < x->set.n; e++) {
		double last = -1;
		json_t *r, *tasks;
		int ng = gp_envbind_env_nbound(x->b, (int)e), unknown = 0;

		if (!ng)
			continue;
		/* Heartbeats are per task: each task whose last sign is older
		 * than the timeout goes, the others stay. */
		for (i = 0; i < x->st.ntasks; i++) {
			double seen;

			if (x->st.tasks[i].env != (int)e)
				continue;
			seen = gp_envstate_task_seen(&x->st, i);
			if (seen < 0)
				unknown = 1;
			else if (gp_envbind_reclaim_due(seen, x->timeout, x->now) && seen > last)
				last = seen;
		}
		nunknown += unknown;
		if (last < 0)
			continue;
		r = json_object();
		tasks = json_array();
		json_object_set_new(r, "env", json_string(x->set.envs[e].name));
		json_object_set_new(r, "last_heartbeat", json_real(last));
		json_object_set_new(r, "silent_s", json_real(x->now - last));
		for (i = x->st.ntasks; i-- > 0;) {
			const gp_envstate_task *t = &x->st.tasks[i];
			double seen;
			int *g, k;

			if (t->env != (int)e)
				continue;
			seen = gp_envstate_task_seen(&x->st, i);
			if (seen < 0 || !gp_envbind_reclaim_due(seen, x->timeout, x->now))
				continue;
			g = gp_xmalloc((size_t)t->ngpus * sizeof(int));
			for (k = 0; k < t->ngpus; k++)
				g[k] = gpu_of(&x->cluster, t->gpus[k].node, t->gpus[k].gpu);
			gp_envbind_release(x->b, t->env, t->ngpus, g, t->mem_mib);
			free(g);
			json_array_insert_new(tasks, 0, json_string(t->task));
			gp_envstate_remove_task(&x->st, i);
		}
		/* GPUs freed: bound before less bound now (tasks share GPUs). */
		ng -= gp_envbind_env_nbound(x->b, (int)e);
		json_object_set_new(r, "tasks", tasks);
		json_object_set_new(r, "gpus", json_integer(ng));
		json_array_append_new(arr, r);
		if (!x->json)
			fprintf(x->out, "reclaimed %d GPU(s) of '%s' (%zu task(s)): last heartbeat %s s ago\n", ng,
			       x->set.envs[e].name, json_array_size(tasks), gp_report_num(b, sizeof(b), x->now - last, 6));
		nrec++;
	}
	if (x->json) {
		o = json_object();
		json_object_set_new(o, "now", json_real(x->now));
		json_object_set_new(o, "heartbeat_timeout_s", json_real(x->timeout));
		json_object_set_new(o, "reclaimed", arr);
		json_object_set_new(o, "without_heartbeat", json_integer(nunknown));
		json_object_set_new(o, "committed", json_boolean(x->commit));
		put_json(x->out, o);
	} else {
		json_decref(arr);
		if (!nrec)
			fprintf(x->out, "nothing to reclaim at %s (timeout %s s)\n", gp_report_num(b, sizeof(b), x->now, 6),
			       gp_report_num(b + 32, 32, x->timeout, 6));
		if (nunknown)
			fprintf(x->out, "%d environment(s) with bound GPUs never sent a heartbeat (bind with --at to start the clock)\n",
			       nunknown);
		if (nrec && !x->commit)
			fprintf(x->out, "(not committed)\n");
	}
	return commit(x);
}

static json_t *env_status_json(envctx *x, size_t e)
{
	const gp_env *E = &x->set.envs[e];
	json_t *r = json_object();
	const int *bg, *bt;
	int nb = gp_envbind_env_bound(x->b, (int)e, &bg, &bt), k;
	int *tmp = gp_xmalloc((size_t)(nb ? nb : 1) * sizeof(int));
	size_t i, nt = 0;
	double last = last_seen(x, (int)e);

	for (i = 0; i < x->st.ntasks; i++)
		nt += x->st.tasks[i].env == (int)e;
	json_object_set_new(r, "env", json_string(E->name));
	json_object_set_new(r, "quota_gpus", json_integer(E->quota_gpus));
	json_object_set_new(r, "quota_memory_mib", json_integer(E->quota_mem_mib));
	json_object_set_new(r, "gpus_bound", json_integer(nb));
	json_object_set_new(r, "memory_mib", json_integer(gp_envbind_env_mem(x->b, (int)e)));
	json_object_set_new(r, "tasks", json_integer((json_int_t)nt));
	json_object_set_new(r, "last_heartbeat", last >= 0 ? json_real(last) : json_null());
	for (k = 0; k < nb; k++)
		tmp[k] = bg[k];
	qsort(tmp, (size_t)nb, sizeof(int), gp_cmp_int);
	json_object_set_new(r, "gpus", gpus_json(&x->cluster, tmp, nb));
	free(tmp);
	return r;
}

static void status_json(envctx *x)
{
	json_t *o = json_object(), *envs = json_array(), *gpus = json_array();
	int g, ng = gp_envbind_ngpus(x->b);
	size_t e;

	for (e = 0; e < x->set.n; e++)
		json_array_append_new(envs, env_status_json(x, e));
	for (g = 0; g < ng; g++) {
		json_t *r;

		if (!gp_envbind_gpu_tasks(x->b, g))
			continue;
		r = gpu_json(&x->cluster, g);
		json_object_set_new(r, "tasks", json_integer(gp_envbind_gpu_tasks(x->b, g)));
		json_object_set_new(r, "free_memory_mib", json_integer(gp_envbind_gpu_free_mib(x->b, g)));
		json_array_append_new(gpus, r);
	}
	json_object_set_new(o, "environments", envs);
	json_object_set_new(o, "gpus", gpus);
	json_object_set_new(o, "task_threshold", json_integer(gp_envbind_threshold(x->b)));
	json_object_set_new(o, "gpus_bound", json_integer(gp_envbind_busy_gpus(x->b)));
	json_object_set_new(o, "cluster_gpus", json_integer(ng));
	put_json(x->out, o);
}

/* One row per environment: GPUs and memory bound against its quota. */
static void env_table(envctx *x, gp_sbuf *sb)
{
	gp_table t;
	size_t e, row;
	char b1[64], b2[64], b3[64];

	gp_table_init(&t, 6);
	row = gp_table_row(&t);
	gp_table_set(&t, row, 0, "environment");
	gp_table_set(&t, row, 1, "GPUs");
	gp_table_set(&t, row, 2, "quota");
	gp_table_set(&t, row, 3, "memory GiB");
	gp_table_set(&t, row, 4, "quota GiB");
	gp_table_set(&t, row, 5, "last heartbeat");
	for (e = 0; e < x->set.n; e++) {
		const gp_env *E = &x->set.envs[e];
		double last = last_seen(x, (int)e);

		row = gp_table_row(&t);
		gp_table_set(&t, row, 0, "%s", E->name);
		gp_table_set(&t, row, 1, "%d", gp_envbind_env_nbound(x->b, (int)e));
		gp_table_set(&t, row, 2, "%d", E->quota_gpus);
		gp_table_set(&t, row, 3, "%s", gp_report_num(b1, sizeof(b1), gp_envbind_env_mem(x->b, (int)e) / 1024.0, 2));
		gp_table_set(&t, row, 4, "%s", gp_report_num(b2, sizeof(b2), E->quota_mem_mib / 1024.0, 2));
		gp_table_set(&t, row, 5, "%s", last >= 0 ? gp_report_num(b3, sizeof(b3), last, 6) : "-");
	}
	gp_table_render(&t, "", sb);
	gp_table_release(&t);
}

/* One row per GPU in use: its tasks, free memory and environments. */
static void gpu_table(envctx *x, gp_sbuf *sb)
{
	gp_table t;
	size_t e, row;
	int g, ng = gp_envbind_ngpus(x->b);
	char b1[64];

	gp_table_init(&t, 4);
	row = gp_table_row(&t);
	gp_table_set(&t, row, 0, "GPU");
	gp_table_set(&t, row, 1, "tasks");
	gp_table_set(&t, row, 2, "free GiB");
	gp_table_set(&t, row, 3, "environments");
	for (g = 0; g < ng; g++) {
		int node, local;
		gp_sbuf names;

		if (!gp_envbind_gpu_tasks(x->b, g))
			continue;
		gpu_where(&x->cluster, g, &node, &local);
		gp_sbuf_init(&names);
		for (e = 0; e < x->set.n; e++) {
			const int *bg, *bt;
			int nb = gp_envbind_env_bound(x->b, (int)e, &bg, &bt), k;

			for (k = 0; k < nb; k++)
				if (bg[k] == g)
					gp_sbuf_addf(&names, "%s%s x%d", names.len ? ", " : "", x->set.envs[e].name, bt[k]);
		}
		row = gp_table_row(&t);
		gp_table_set(&t, row, 0, "%s/GPU%d", x->cluster.nodes[node].name, local);
		gp_table_set(&t, row, 1, "%d", gp_envbind_gpu_tasks(x->b, g));
		gp_table_set(&t, row, 2, "%s", gp_report_num(b1, sizeof(b1), gp_envbind_gpu_free_mib(x->b, g) / 1024.0, 2));
		gp_table_set(&t, row, 3, "%s", names.buf);
		gp_sbuf_release(&names);
	}
	if (t.nrows > 1) {
		gp_sbuf_adds(sb, "\n");
		gp_table_render(&t, "", sb);
	}
	gp_table_release(&t);
}

static int do_status(envctx *x)
{
	gp_sbuf sb;

	if (x->json) {
		status_json(x);
		return GP_OK;
	}
	fprintf(x->out, "%d of %d GPUs bound; task threshold %d\n\n", gp_envbind_busy_gpus(x->b),
		gp_envbind_ngpus(x->b), gp_envbind_threshold(x->b));
	gp_sbuf_init(&sb);
	env_table(x, &sb);
	gpu_table(x, &sb);
	fwrite(sb.buf, 1, sb.len, x->out);
	gp_sbuf_release(&sb);
	return GP_OK;
}

/* What subcommand si (bind, release, heartbeat, reclaim, status) needs. */
static int check_args(const envctx *x, int si, const char *sub)
{
	if (!x->envs_path || !x->state_path)
		return gp_cli_usage_error("env", "%s needs --envs FILE and --state FILE", sub);
	if (si == 0 && (!x->env_name || !x->task))
		return gp_cli_usage_error("env", "bind needs --env E and --task T");
	if (si == 1 && !x->task)
		return gp_cli_usage_error("env", "release needs --task T");
	if (si == 2 && ((!x->env_name && !x->task) || !x->have_at))
		return gp_cli_usage_error("env", "heartbeat needs --env E or --task T, and --at TIME");
	if (si == 3 && !x->have_now)
		return gp_cli_usage_error("env", "reclaim needs --now TIME");
	if (si == 4 && x->commit)
		return gp_cli_usage_error("env", "status changes nothing: --commit makes no sense");
	return GP_OK;
}

/* Subcommand si on the loaded state; its output is printed only at the
 * end: after the commit, or for a negative answer. */
static int run_sub(envctx *x, int si)
{
	char *obuf = NULL;
	size_t olen = 0;
	int rc;

	x->out = open_memstream(&obuf, &olen);
	if (!x->out)
		return gp_cli_fail(GP_EIO, "cannot buffer output");
	if (si == 4)
		x->commit = 0;
	rc = ctx_load(x);
	if (rc == GP_OK) {
		switch (si) {
		case 0: rc = do_bind(x); break;
		case 1: rc = do_release(x); break;
		case 2: rc = do_heartbeat(x); break;
		case 3: rc = do_reclaim(x); break;
		default: rc = do_status(x); break;
		}
	}
	ctx_release(x);
	fclose(x->out);
	if (rc == GP_OK || rc == GP_NO)
		fwrite(obuf, 1, olen, stdout);
	free(obuf);
	return rc;
}

int cmd_env(int argc, char **argv)
{
	static const char *const subs[] = { "bind", "release", "heartbeat", "reclaim", "status" };
	envctx x;
	gp_opt_state o;
	const char *sub;
	double d;
	int c, rc, si;

	/* `env --help` and `env -h` never reach here: the entry point prints help */
	if (argc < 2)
		return gp_cli_usage_error("env", "expected a subcommand: bind, release, heartbeat, reclaim or status");
	sub = argv[1];
	si = gp_opt_subcommand("env", sub, subs, (int)GP_ARRAY_SIZE(subs));
	if (si < 0)
		return GP_EUSAGE;
	memset(&x, 0, sizeof(x));
	x.gpus = 1;
	x.threshold = GP_ENV_DEFAULT_THRESHOLD;
	x.timeout = 5;
	x.lock_timeout = 60;
	gp_opt_begin(&o, &gp_desc_env, argc - 1, argv + 1);
	while ((c = gp_opt_next(&o)) > 0) {
		switch (c) {
		case 'c': x.cluster_path = o.arg; break;
		case O_ENVS: x.envs_path = o.arg; break;
		case O_STATE: x.state_path = o.arg; break;
		case O_ENV: x.env_name = o.arg; break;
		case O_TASK: x.task = o.arg; break;
		case O_JSON: x.json = 1; break;
		case O_COMMIT: x.commit = 1; break;
		case O_GPUS: x.gpus = (int)o.l; break;
		case O_THR: x.threshold = (int)o.l; break;
		case O_AT: x.at = o.v; x.have_at = 1; break;
		case O_NOW: x.now = o.v; x.have_now = 1; break;
		case O_HBT: x.timeout = o.v; break;
		case O_LOCKT: x.lock_timeout = o.v; break;
		case O_MEM:
			if (gp_parse_size(o.arg, &d) || d < 0 || d > 1e18) {
				gp_opt_end(&o);
				return gp_opt_bad(&o, "--memory wants a size such as 10GiB, got '%s'", o.arg);
			}
			x.mem_mib = (int64_t)ceil(d / (1024.0 * 1024.0));
			break;
		}
	}
	gp_opt_end(&o);
	if (c < 0)
		return o.status;
	if ((rc = check_args(&x, si, sub)))
		return rc;
	return run_sub(&x, si);
}
