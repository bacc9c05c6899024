/* gpuplan place: choose nodes, GPUs, CPUs and NIC for a job (or a list of
 * jobs with --batch) against a cluster and its allocation state, and
 * explain the decision. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "cli.h"
#include "opt.h"
#include "gpuplan/io/cluster_yaml.h"
#include "gpuplan/io/jobspec.h"
#include "gpuplan/model/placement.h"
#include "gpuplan/place/place.h"
#include "gpuplan/place/policy.h"
#include "gpuplan/io/state.h"
#include "gpuplan/model/alloc.h"
#include "gpuplan/model/memory.h"
#include "gpuplan/report/emit.h"
#include "gpuplan/util/hostlist.h"
#include "gpuplan/util/util.h"
#include <unistd.h>

enum {
	O_CLUSTER = 'c', O_STATE = 256, O_COMMIT, O_LOCK, O_POLICY, O_SEED, O_JSON, O_EMIT,
	O_BATCH, O_MARGIN, O_BENCH,
};

static const gp_opt place_opts_desc[] = {
	GP_OPT_CLUSTER(O_CLUSTER),
	{ .name = "state", .key = O_STATE, .type = GP_OT_STR, .arg = "FILE",
	  .help = "allocation state to place against" },
	{ .name = "commit", .key = O_COMMIT, .type = GP_OT_FLAG,
	  .help = "write the new state back to --state FILE (atomically,\n"
		  "under an exclusive lock on it; a missing FILE is created)" },
	GP_OPT_LOCK_TIMEOUT(O_LOCK),
	{ .name = "policy", .key = O_POLICY, .type = GP_OT_STR, .arg = "NAME",
	  .help = "placement policy (default bestfit); --policy list\n"
		  "shows them" },
	GP_OPT_SEED(O_SEED, "seed of randomised policies (default 1)"),
	{ .name = "json", .key = O_JSON, .type = GP_OT_FLAG,
	  .help = "machine-readable output (keys sorted)" },
	{ .name = "emit", .key = O_EMIT, .type = GP_OT_STR, .arg = "KIND",
	  .help = "also print the placement as KIND: env (CUDA_VISIBLE_DEVICES,\n"
		  "NCCL_IB_HCA), slurm (sbatch/srun lines), k8s (pod specs),\n"
		  "numactl; repeat or join with ','" },
	{ .name = "batch", .key = O_BATCH, .type = GP_OT_STR, .arg = "FILE",
	  .help = "place a list of jobs in order against one evolving\n"
		  "state and print a summary; exit 1 if any job waits" },
	{ .name = "memory-margin", .key = O_MARGIN, .type = GP_OT_DOUBLE, .arg = "PCT",
	  .min = 0, .max = GP_MEM_MARGIN_MAX * 100, .what = "a percentage",
	  .help = "add PCT % to the per-GPU memory the memory rule\n"
		  "estimates from a job's model (default 0)" },
	{ .name = "bench", .key = O_BENCH, .type = GP_OT_LONG, .arg = "N", .min = 1, .max = 100000000,
	  .what = "a count", .hidden = 1 },
	{ 0 },
};

const gp_cmd_desc gp_desc_place = {
	.name = "place",
	.synopsis = "[-c CLUSTER] [--state FILE [--commit]] [--policy NAME]\n"
		    "      [--seed N] [--json] [--emit env|slurm|k8s|numactl]... JOB.yaml\n"
		    "[options] --batch JOBS.yaml",
	.min_args = 0, .max_args = 1,
	.about = "Choose the nodes and GPUs, CPU cores and NUMA node, NIC and subnet for a job\n"
		 "and print the decision path.  Exit 0 when placed, 1 when the job must wait or\n"
		 "can never run on this cluster (status never, with the reason).\n",
	.opts = place_opts_desc,
};

#include "place_int.h"

/* ---- the command ---- */

typedef struct place_env {
	gp_cluster cluster;
	gp_alloc alloc;
	gp_state state;
	const gp_policy *policy;
	gp_rng rng;
	gp_place_cache *pc;    /* for the decisions and the class names */
	gp_txn txn;            /* held on the state file from load to commit */
} place_env;

static int env_load(const place_opts *o, place_env *env)
{
	gp_error err = GP_ERROR_INIT;

	gp_cluster_init(&env->cluster);
	gp_state_init(&env->state);
	memset(&env->alloc, 0, sizeof(env->alloc));
	if (gp_cluster_load(o->cluster, &env->cluster, &err))
		return gp_cli_report(&err);
	gp_alloc_init(&env->alloc, &env->cluster);
	/* --commit reads, places and writes in one transaction (the state
	 * file's lock held throughout), so concurrent committers see each
	 * other's allocations; a missing file is created empty. */
	if (o->state && o->commit) {
		if (gp_state_begin(&env->txn, o->state, 1, o->lock_timeout, &env->cluster,
				   &env->alloc, &env->state, &err))
			return gp_cli_report(&err);
		if (env->txn.created) /* a typo in the path would start a new state silently */
			fprintf(stderr, "gpuplan: %s: creating a new allocation state\n", o->state);
	}
	if (o->state && !o->commit &&
	    gp_state_load(o->state, &env->cluster, &env->alloc, &env->state, &err))
		return gp_cli_report(&err);
	gp_rng_seed(&env->rng, o->seed);
	env->pc = gp_place_cache_new(&env->cluster);
	return GP_OK;
}

static void env_release(place_env *env)
{
	gp_txn_abort(&env->txn);
	gp_place_cache_free(env->pc);
	gp_state_release(&env->state);
	gp_alloc_release(&env->alloc);
	gp_cluster_release(&env->cluster);
}

static int commit_state(const place_opts *o, place_env *env)
{
	gp_error err = GP_ERROR_INIT;

	if (!o->commit)
		return GP_OK;
	if (gp_state_commit(&env->txn, &env->cluster, &env->state, &err))
		return gp_cli_report(&err);
	return GP_OK;
}

/* A job that waits: can it ever run here?  First what the cluster has
 * (gp_place_never), then the policy on the idle cluster, every node up.
 * PLACE_NEVER (with the reason in e) or GP_WAIT. */
static int never_check(place_env *env, const gp_job *j, gp_explain *e)
{
	char why[256];
	gp_alloc idle;
	gp_explain pe;
	gp_placement pp;
	gp_rng rng = env->rng;
	int ever;

	if (gp_place_idle_init(&idle, &env->cluster) != GP_OK)
		return GP_WAIT;
	gp_explain_init(&pe);
	gp_placement_init(&pp);
	{
		gp_policy_ctx ctx = { &env->cluster, &idle, &rng, &pe, env->pc };

		ever = gp_place_ever(env->policy, &ctx, j, &pp, why, sizeof(why));
	}
	if (ever != GP_EVER)
		snprintf(e->reason, sizeof(e->reason), "%s", why);
	gp_placement_release(&pp);
	gp_explain_release(&pe);
	gp_alloc_release(&idle);
	return ever == GP_EVER ? GP_WAIT : PLACE_NEVER;
}

static void print_emit(int bits, const gp_cluster *c, const gp_job *j, const gp_placement *p)
{
	static const int order[] = { GP_EMIT_ENV, GP_EMIT_NUMACTL, GP_EMIT_SLURM, GP_EMIT_K8S,
				     GP_EMIT_JOBSET };
	size_t k;

	for (k = 0; k < GP_ARRAY_SIZE(order); k++) {
		gp_sbuf sb;

		if (!(bits & order[k]))
			continue;
		gp_sbuf_init(&sb);
		gp_emit_render(order[k], c, j, p, &sb);
		printf("emit %s:\n%s", gp_emit_name(order[k]), sb.buf);
		gp_sbuf_release(&sb);
	}
}

static json_t *emit_json(int bits, const gp_cluster *c, const gp_job *j, const gp_placement *p)
{
	static const int order[] = { GP_EMIT_ENV, GP_EMIT_NUMACTL, GP_EMIT_SLURM, GP_EMIT_K8S,
				     GP_EMIT_JOBSET };
	json_t *o = json_object();
	size_t k;

	for (k = 0; k < GP_ARRAY_SIZE(order); k++) {
		gp_sbuf sb;

		if (!(bits & order[k]))
			continue;
		gp_sbuf_init(&sb);
		gp_emit_render(order[k], c, j, p, &sb);
		json_object_set_new(o, gp_emit_name(order[k]), json_string(sb.buf));
		gp_sbuf_release(&sb);
	}
	return o;
}

/* Decide, and apply to the state when placed.  GP_PLACED, GP_WAIT, or
 * -1 when the policy proposed something that does not fit (a bug). */
static int decide(place_env *env, const gp_job *j, gp_placement *p, gp_explain *e)
{
	gp_policy_ctx ctx = { &env->cluster, &env->alloc, &env->rng, e, env->pc };
	int rc = env->policy->place(&ctx, j, p);

	if (rc != GP_PLACED)
		return never_check(env, j, e);
	if (gp_placement_apply(&env->alloc, p))
		return -1;
	gp_state_add_placement(&env->state, j->id, p);
	return GP_PLACED;
}

/* --memory-margin on a job whose memory the source document's rule estimated. */
static int apply_margin(const place_opts *o, gp_job *j, const char *path)
{
	gp_error err = GP_ERROR_INIT;

	if (o->mem_margin > 0 && gp_memory_apply_margin(j, o->mem_margin, 0, &err)) {
		char msg[sizeof(err.msg)];

		snprintf(msg, sizeof(msg), "%s", err.msg);
		return gp_cli_fail(GP_EINPUT, "%s: %s", path, msg);
	}
	return GP_OK;
}

static int place_one(const place_opts *o, place_env *env, const char *path)
{
	gp_error err = GP_ERROR_INIT;
	gp_placement p;
	gp_explain e;
	gp_place_summary s;
	gp_pred_plan plan;
	gp_job j;
	int rc, status;

	if (gp_jobspec_load(path, &j, &err))
		return gp_cli_report(&err);
	if ((status = apply_margin(o, &j, path)) ||
	    (status = gp_cli_check_job_models(&env->cluster, &j, path))) {
		gp_job_release(&j);
		return status;
	}
	if (o->state && gp_state_has_job(&env->state, j.id)) {
		status = gp_cli_fail(GP_EINPUT, "%s: job '%s' already has an allocation in %s", path,
				     j.id, o->state);
		gp_job_release(&j);
		return status;
	}
	gp_placement_init(&p);
	gp_explain_init(&e);
	gp_pred_plan_init(&plan);
	if (env->policy->flags & GP_POLICY_PREDICTED) {
		gp_joblist one = { .jobs = &j, .n = 1 };

		if ((status = gp_cli_predict_jobs(&env->cluster, &one, &plan, &e)))
			goto out;
	}
	rc = decide(env, &j, &p, &e);
	if (rc < 0) {
		status = gp_cli_fail(GP_EIO, "policy '%s' proposed a placement that does not fit",
				     env->policy->name);
		goto out;
	}
	/* The decision is printed only once it is committed. */
	if (rc == GP_PLACED) {
		gp_place_summarize(&env->cluster, &p, &s);
		if ((status = commit_state(o, env)))
			goto out;
	}
	if (o->json) {
		json_t *d = place_decision_json(o, &env->cluster, env->pc, &j, env->policy->name, rc, &p,
					  &s, &e);

		if (o->emit && rc == GP_PLACED)
			json_object_set_new(d, "emit", emit_json(o->emit, &env->cluster, &j, &p));
		status = place_dump_json(d);
	} else {
		place_print_text(o, &env->cluster, env->pc, &j, env->policy->name, rc, &p, &s, &e);
		if (o->emit && rc == GP_PLACED)
			print_emit(o->emit, &env->cluster, &j, &p);
		status = GP_OK;
	}
	if (status == GP_OK && rc != GP_PLACED)
		status = GP_NO;
out:
	gp_explain_release(&e);
	gp_placement_release(&p);
	gp_pred_plan_release(&plan);
	gp_job_release(&j);
	return status;
}

/* "node[0,1] node2[3]" for the batch lines; nodes with the same GPU list
 * share one hostlist: "a100-r0-[0-3][0,1,2,3,4,5,6,7]". */
static void batch_parts(const gp_cluster *c, const gp_placement *p, gp_sbuf *sb)
{
	const char **names = gp_xcalloc((size_t)p->nparts + 1, sizeof(*names));
	char *done = gp_xcalloc((size_t)p->nparts + 1, 1);
	int k, m, g, first = 1;

	for (k = 0; k < p->nparts; k++) {
		size_t n = 0;

		if (done[k])
			continue;
		for (m = k; m < p->nparts; m++)
			if (!done[m] && p->parts[m].ngpus == p->parts[k].ngpus &&
			    !memcmp(p->parts[m].gpus, p->parts[k].gpus,
				    (size_t)p->parts[k].ngpus * sizeof(int))) {
				done[m] = 1;
				names[n++] = c->nodes[p->parts[m].node].name;
			}
		if (!first)
			gp_sbuf_adds(sb, " ");
		first = 0;
		gp_hostlist_compress(names, n, sb);
		gp_sbuf_adds(sb, "[");
		for (g = 0; g < p->parts[k].ngpus; g++)
			gp_sbuf_addf(sb, "%s%d", g ? "," : "", p->parts[k].gpus[g]);
		gp_sbuf_adds(sb, "]");
	}
	free(names);
	free(done);
}

/* Free whole GPUs, and those stranded on partly used nodes (a node that
 * can no longer host a job of its own size). */
static void free_gpus(const place_env *env, long *free_total, long *stranded, long *empty_nodes)
{
	const gp_alloc *a = &env->alloc;
	int i;

	*free_total = *stranded = *empty_nodes = 0;
	for (i = 0; i < a->nnodes; i++) {
		if (a->node_state[i] != GP_NODE_UP)
			continue;
		*free_total += a->node_free_whole[i];
		if (a->node_free_whole[i] == env->cluster.nodes[i].ngpus)
			(*empty_nodes)++;
		else
			*stranded += a->node_free_whole[i];
	}
}

/* The --batch list, checked: predicted shares (predicted-share), the
 * memory margin, GPU models of the cluster, no job already in the state. */
static int batch_load(const place_opts *o, place_env *env, gp_joblist *l, gp_pred_plan *plan)
{
	gp_error err = GP_ERROR_INIT;
	size_t i;
	int status = GP_OK;

	if (gp_jobspec_load_list(o->batch, l, &err))
		return gp_cli_report(&err);
	for (i = 0; i < l->n && status == GP_OK; i++)
		status = apply_margin(o, &l->jobs[i], o->batch);
	/* predicted-share: every job's share and memory from the predictors. */
	if (status == GP_OK && (env->policy->flags & GP_POLICY_PREDICTED))
		status = gp_cli_predict_jobs(&env->cluster, l, plan, NULL);
	for (i = 0; i < l->n && status == GP_OK; i++)
		status = gp_cli_check_job_models(&env->cluster, &l->jobs[i], o->batch);
	for (i = 0; i < l->n && status == GP_OK; i++)
		if (gp_state_has_job(&env->state, l->jobs[i].id))
			status = gp_cli_fail(GP_EINPUT, "%s: job '%s' already has an allocation in %s",
					     o->batch, l->jobs[i].id, o->state);
	if (status)
		gp_joblist_release(l);
	return status;
}

typedef struct batch_tally {
	long placed, waiting, never, used_milli;
} batch_tally;

/* The batch's last lines (or JSON keys): counts and what is left free. */
static int batch_summary(const place_env *env, const batch_tally *t, json_t *root, FILE *out)
{
	long free_total, stranded, empty;

	free_gpus(env, &free_total, &stranded, &empty);
	if (root) {
		json_object_set_new(root, "policy", json_string(env->policy->name));
		json_object_set_new(root, "placed", json_integer(t->placed));
		json_object_set_new(root, "waiting", json_integer(t->waiting));
		json_object_set_new(root, "never", json_integer(t->never));
		json_object_set_new(root, "gpus_used", json_real(t->used_milli / 1000.0));
		json_object_set_new(root, "free_gpus", json_integer(free_total));
		json_object_set_new(root, "free_gpus_on_partly_used_nodes", json_integer(stranded));
		json_object_set_new(root, "empty_nodes", json_integer(empty));
		json_object_set_new(root, "fragmentation",
				    json_real(free_total ? (double)(long long)(1e4 * stranded / free_total + 0.5) / 1e4 : 0));
		return place_dump_json_to(out, root);
	}
	fprintf(out, "summary: %ld placed, %ld waiting", t->placed, t->waiting);
	if (t->never)
		fprintf(out, ", %ld never", t->never);
	fprintf(out, ", %.3g GPU(s) used by this batch\n", t->used_milli / 1000.0);
	fprintf(out, "free whole GPUs: %ld (%ld on %ld empty node(s), %ld on partly used nodes: "
		"fragmentation %.1f %%)\n", free_total, free_total - stranded, empty, stranded,
		free_total ? 100.0 * stranded / free_total : 0.0);
	return GP_OK;
}

/* One job of the batch: decide, count, and its line (or JSON object). */
static int batch_job(const place_opts *o, place_env *env, const gp_job *j, gp_placement *p,
		     batch_tally *t, json_t *jobs, FILE *out)
{
	gp_explain e;
	gp_place_summary s;
	int rc;

	gp_explain_init(&e);
	rc = decide(env, j, p, &e);
	if (rc < 0) {
		gp_explain_release(&e);
		return gp_cli_fail(GP_EIO, "policy '%s' proposed a placement that does not fit",
				   env->policy->name);
	}
	if (rc == GP_PLACED) {
		gp_place_summarize(&env->cluster, p, &s);
		t->placed++;
		t->used_milli += (long)j->gpus * j->gpu_milli;
	} else if (rc == PLACE_NEVER) {
		t->never++;
	} else {
		t->waiting++;
	}
	if (o->json) {
		json_array_append_new(jobs, place_decision_json(o, &env->cluster, env->pc, j,
							  env->policy->name, rc, p, &s, &e));
	} else if (rc == GP_PLACED) {
		gp_sbuf sb;

		gp_sbuf_init(&sb);
		batch_parts(&env->cluster, p, &sb);
		fprintf(out, "  %-20s placed  %-13s %s\n", j->id, s.name, sb.buf);
		gp_sbuf_release(&sb);
	} else {
		fprintf(out, "  %-20s %-7s %s\n", j->id, place_verdict_name(rc), e.reason);
	}
	gp_explain_release(&e);
	return GP_OK;
}

static int place_batch(const place_opts *o, place_env *env)
{
	gp_joblist l;
	gp_placement p;
	batch_tally t = { 0, 0, 0, 0 };
	json_t *root = NULL, *jobs = NULL;
	size_t i;
	int status;
	/* With --commit the report waits in memory until the state is written. */
	char *report = NULL;
	size_t report_len = 0;
	FILE *out = stdout;
	gp_pred_plan plan;

	gp_pred_plan_init(&plan);
	if ((status = batch_load(o, env, &l, &plan))) {
		gp_pred_plan_release(&plan);
		return status;
	}
	if (o->commit && !(out = open_memstream(&report, &report_len))) {
		gp_joblist_release(&l);
		gp_pred_plan_release(&plan);
		return gp_cli_fail(GP_EIO, "out of memory");
	}
	gp_placement_init(&p);
	if (o->json) {
		root = json_object();
		jobs = json_array();
	} else {
		fprintf(out, "batch %s: %zu job(s), cluster %s, policy %s\n", o->batch, l.n,
			env->cluster.name ? env->cluster.name : o->cluster,
			env->policy->name);
	}
	for (i = 0; i < l.n && status == GP_OK; i++)
		status = batch_job(o, env, &l.jobs[i], &p, &t, jobs, out);
	if (status)
		goto out;
	if (o->json) {
		json_object_set_new(root, "jobs", jobs);
		jobs = NULL;
	}
	status = batch_summary(env, &t, root, out);
	root = NULL;
	if (status == GP_OK)
		status = commit_state(o, env);
	if (out != stdout) {
		fclose(out);
		out = stdout;
		if (status == GP_OK)
			fwrite(report, 1, report_len, stdout);
	}
	if (status == GP_OK && (t.waiting || t.never))
		status = GP_NO;
out:
	if (out != stdout)
		fclose(out);
	free(report);
	json_decref(root);
	json_decref(jobs);
	gp_placement_release(&p);
	gp_joblist_release(&l);
	gp_pred_plan_release(&plan);
	return status;
}

/* Hidden `--bench N`: time N decisions per policy against the loaded state
 * (never applied), cycling through the jobs of the --batch list.  For
 * scripts/bench-place.sh only; wall-clock numbers never appear elsewhere.
 * Wall time and the thread's CPU time per decision: on a shared machine
 * the wall p99 mostly measures preemption (a 4 ms scheduler slice), the
 * CPU p99 what the decision itself costs. */
static int place_bench(const place_opts *o, place_env *env)
{
	gp_error err = GP_ERROR_INIT;
	gp_joblist l;
	gp_placement p;
	const gp_policy *list;
	gp_place_cache *pc;
	double *t, *cpu;
	int np, k;
	long i, placed;

	if (gp_jobspec_load_list(o->batch, &l, &err))
		return gp_cli_report(&err);
	list = gp_policy_list(&np);
	t = gp_xmalloc((size_t)o->bench * sizeof(*t));
	cpu = gp_xmalloc((size_t)o->bench * sizeof(*cpu));
	gp_placement_init(&p);
	printf("%-16s %10s %10s %10s %10s %8s\n", "policy", "median_us", "p99_us", "cpu_med_us",
	       "cpu_p99_us", "placed");
	/* One place cache for every decision, as a simulator would keep it. */
	pc = env->pc;
	for (k = 0; k < np; k++) {
		gp_policy_ctx ctx = { &env->cluster, &env->alloc, &env->rng, NULL, pc };

		if (o->policy && strcmp(o->policy, list[k].name))
			continue;
		gp_rng_seed(&env->rng, o->seed);
		for (placed = 0, i = 0; i < o->bench; i++) {
			struct timespec a, b, ca, cb;

			clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ca);
			clock_gettime(CLOCK_MONOTONIC, &a);
			placed += list[k].place(&ctx, &l.jobs[(size_t)i % l.n], &p) == GP_PLACED;
			clock_gettime(CLOCK_MONOTONIC, &b);
			clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cb);
			t[i] = (double)(b.tv_sec - a.tv_sec) * 1e6 + (double)(b.tv_nsec - a.tv_nsec) / 1e3;
			cpu[i] = (double)(cb.tv_sec - ca.tv_sec) * 1e6 + (double)(cb.tv_nsec - ca.tv_nsec) / 1e3;
		}
		qsort(t, (size_t)o->bench, sizeof(*t), gp_cmp_double);
		qsort(cpu, (size_t)o->bench, sizeof(*cpu), gp_cmp_double);
		printf("%-16s %10.1f %10.1f %10.1f %10.1f %8ld\n", list[k].name,
		       gp_percentile_sorted(t, (size_t)o->bench, 50),
		       gp_percentile_sorted(t, (size_t)o->bench, 99),
		       gp_percentile_sorted(cpu, (size_t)o->bench, 50),
		       gp_percentile_sorted(cpu, (size_t)o->bench, 99), placed);
	}
	gp_placement_release(&p);
	free(t);
	free(cpu);
	gp_joblist_release(&l);
	return GP_OK;
}

static void list_policies(void)
{
	const gp_policy *list;
	int n, i;

	list = gp_policy_list(&n);
	for (i = 0; i < n; i++)
		printf("%-16s %s\n", list[i].name, list[i].summary);
}

int cmd_place(int argc, char **argv)
{
	place_opts o = { NULL, NULL, NULL, NULL, 1, 0, 0, 60.0, 0, 0, 0 };
	place_env env;
	gp_opt_state st;
	const char *job_path;
	int c, rc, nargs;

	gp_opt_begin(&st, &gp_desc_place, argc, argv);
	while ((c = gp_opt_next(&st)) > 0) {
		switch (c) {
		case O_CLUSTER: o.cluster = st.arg; break;
		case O_STATE: o.state = st.arg; break;
		case O_POLICY: o.policy = st.arg; break;
		case O_SEED: o.seed = (unsigned long long)st.l; break;
		case O_JSON: o.json = 1; break;
		case O_COMMIT: o.commit = 1; break;
		case O_BATCH: o.batch = st.arg; break;
		case O_LOCK: o.lock_timeout = st.v; break;
		case O_MARGIN: o.mem_margin = st.v / 100; break;
		case O_BENCH: o.bench = st.l; break;
		case O_EMIT: {
			char bad[64];
			int bits = gp_emit_parse(st.arg, bad, sizeof(bad));

			if (bits < 0) {
				gp_opt_end(&st);
				return gp_opt_bad(&st, "--emit: unknown kind '%s' (env, slurm, k8s, numactl)",
						  bad);
			}
			o.emit |= bits;
			break;
		}
		}
	}
	nargs = st.nargs;
	job_path = nargs ? st.args[0] : NULL;
	gp_opt_end(&st);
	if (c < 0)
		return st.status;
	if (o.policy && !strcmp(o.policy, "list")) {
		list_policies();
		return GP_OK;
	}
	if (o.batch ? nargs != 0 : nargs != 1)
		return gp_cli_usage_error("place", o.batch ? "--batch takes no JOB.yaml argument"
						       : "expected one JOB.yaml");
	if (o.commit && !o.state)
		return gp_cli_usage_error("place", "--commit needs --state FILE");
	if (o.bench && !o.batch)
		return gp_cli_usage_error("place", "--bench needs --batch JOBS.yaml");
	if (o.emit && o.batch)
		return gp_cli_usage_error("place", "--emit takes one JOB.yaml, not --batch");
	if (!o.cluster)
		o.cluster = gp_cli_default_cluster();
	memset(&env, 0, sizeof(env));
	env.policy = gp_policy_find(o.policy ? o.policy : "bestfit");
	if (!env.policy)
		return gp_cli_usage_error("place", "unknown policy '%s' (see --policy list)", o.policy);
	if ((rc = env_load(&o, &env)) == GP_OK) {
		if (o.bench)
			rc = place_bench(&o, &env);
		else if (o.batch)
			rc = place_batch(&o, &env);
		else
			rc = place_one(&o, &env, job_path);
	}
	env_release(&env);
	return rc;
}
