/* gpuplan perf: one collective on a set of GPUs, or a job's iteration
 * time on a placement plus its best and worst placements. */
#include <getopt.h>
#include <gsl/gsl_errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gpuplan/io/cluster_yaml.h"
#include "gpuplan/io/jobspec.h"
#include "gpuplan/perf/perf.h"
#include "gpuplan/place/policy.h"
#include "gpuplan/util/hostlist.h"
#include "gpuplan/util/util.h"

const char gp_usage_perf[] =
	"usage: gpuplan perf [-c CLUSTER] --collective OP --size BYTES --on NODE:GPUS[,...]\n"
	"                    [--algo ALGO] [--json]\n"
	"       gpuplan perf [-c CLUSTER] --collective OP --sweep MIN:MAX[:FACTOR]\n"
	"                    --on NODE:GPUS[,...] [--algo ALGO] [--json]\n"
	"       gpuplan perf [-c CLUSTER] JOB.yaml [--on NODE:GPUS[,...] | --policy P]\n"
	"                    [--seed N] [--json]\n"
	"\n"
	"Model the time of one collective on the GPUs given, or the iteration time\n"
	"of a job (compute, communication, exposed communication) on a placement,\n"
	"with its best and worst placements on the idle cluster.\n"
	"\n"
	"  -c, --cluster FILE   cluster YAML (default: the bundled example)\n"
	"  --collective OP      allreduce, allgather, reducescatter, broadcast,\n"
	"                       alltoall or sendrecv\n"
	"  --size BYTES         message size as nccl-tests counts it: 1GiB, 256MB, 4096\n"
	"  --sweep MIN:MAX[:F]  the nccl-tests table from MIN to MAX bytes, times F\n"
	"                       (default 2) per row: 8B:8GiB\n"
	"  --on SPEC            GPUs: NODE:0-7, NODE:0,2,4, several joined by ','\n"
	"                       (a bare NODE means all its GPUs)\n"
	"  --algo ALGO          auto (what NCCL picks), ring, tree, nvls, nvlstree,\n"
	"                       collnet, hierarchical, ps (as NCCL_ALGO forces one)\n"
	"  --policy P           place the job with policy P on the idle cluster\n"
	"  --seed N             seed for randomised policies (default 1)\n"
	"  --json               machine-readable output\n";

#define CMD "perf"

static int is_gpu_list_token(const char *s)
{
	return *s >= '0' && *s <= '9';
}

/* Add GPUs "3" or "0-7" of a node's part; returns 0 or -1. */
static int add_gpus(gp_place_part *pp, const char *tok, int ngpus)
{
	long lo, hi, g;
	const char *dash = strchr(tok, '-');
	char buf[32];

	if (dash) {
		size_t n = (size_t)(dash - tok);

		if (n >= sizeof(buf))
			return -1;
		memcpy(buf, tok, n);
		buf[n] = '\0';
		if (gp_parse_long(buf, 0, ngpus - 1, &lo) ||
		    gp_parse_long(dash + 1, 0, ngpus - 1, &hi) || hi < lo)
			return -1;
	} else {
		if (gp_parse_long(tok, 0, ngpus - 1, &lo))
			return -1;
		hi = lo;
	}
	for (g = lo; g <= hi; g++) {
		int k;

		for (k = 0; k < pp->ngpus; k++)
			if (pp->gpus[k] == g)
				return -1;
		if (pp->ngpus >= GP_TOPO_MAX_GPUS)
			return -1;
		pp->gpus[pp->ngpus++] = (int)g;
	}
	return 0;
}

/* Slurm hostlists in --on: "gpu-[01-02]:0,2" is "gpu-01:0,2,gpu-02:0,2"
 * (the GPU list, with the bare numbers after it, applies to every node).
 * Returns the expanded spec (malloc'd) or NULL after a usage error. */
static char *expand_on(const char *spec)
{
	gp_sbuf out;
	size_t p = 0, n = strlen(spec);

	gp_sbuf_init(&out);
	while (p < n) {
		size_t s = p, e, colon;
		int depth = 0;

		while (p < n && (depth || spec[p] != ',')) {
			depth += spec[p] == '[' ? 1 : spec[p] == ']' ? -1 : 0;
			p++;
		}
		e = p++;
		for (colon = s; colon < e && spec[colon] != ':'; colon++)
			;
		if (memchr(spec + s, '[', colon - s)) {
			gp_hostlist h;
			gp_error err = GP_ERROR_INIT;
			size_t q = p, i;

			/* bare numbers after it continue its GPU list */
			while (q < n) {
				size_t t = q;

				while (q < n && spec[q] != ',')
					q++;
				{
					char tok[64];

					snprintf(tok, sizeof(tok), "%.*s", (int)(q - t), spec + t);
					if (!is_gpu_list_token(tok)) {
						q = t;
						break;
					}
				}
				q++;
			}
			if (q > n)
				q = n;
			gp_hostlist_init(&h);
			if (gp_hostlist_expand(spec + s, colon - s, &h, "--on", 0, (int)s + 1, &err)) {
				gp_cli_usage_error(CMD, "--on: %s (column %d)", err.msg, err.col);
				gp_sbuf_release(&out);
				return NULL;
			}
			for (i = 0; i < h.n; i++) {
				gp_sbuf_addf(&out, "%s%s", out.len ? "," : "", h.names[i]);
				if (colon < e)
					gp_sbuf_add(&out, spec + colon, e - colon);
				if (q > p)
					gp_sbuf_addf(&out, ",%.*s", (int)(q - p - (q < n)), spec + p);
			}
			gp_hostlist_release(&h);
			p = q;
			continue;
		}
		gp_sbuf_addf(&out, "%s%.*s", out.len ? "," : "", (int)(e - s), spec + s);
	}
	return gp_sbuf_detach(&out);
}

/* "a:0-3,b:0,2,c": tokens with ':' (or bare names) open a node, bare
 * numbers and ranges continue the last one; node names may be Slurm
 * hostlists ("gpu-[01-04]:0-7"). */
static int parse_on(const gp_cluster *c, const char *spec, gp_placement *p)
{
	char *copy = expand_on(spec), *save = NULL, *tok;
	gp_place_part *cur = NULL;
	int curnode = -1, i;

	if (!copy)
		return GP_EUSAGE;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *colon = strchr(tok, ':');

		if (!colon && cur && is_gpu_list_token(tok)) {
			if (add_gpus(cur, tok, c->nodes[curnode].ngpus))
				goto bad_gpu;
			continue;
		}
		if (colon)
			*colon = '\0';
		curnode = gp_cluster_find_node(c, tok);
		if (curnode < 0) {
			gp_cli_usage_error(CMD, "--on: no node '%s' in the cluster", tok);
			free(copy);
			return GP_EUSAGE;
		}
		for (i = 0; i < p->nparts; i++)
			if (p->parts[i].node == curnode) {
				gp_cli_usage_error(CMD, "--on: node '%s' given twice", tok);
				free(copy);
				return GP_EUSAGE;
			}
		cur = gp_placement_add(p, curnode);
		if (!colon) {
			for (i = 0; i < c->nodes[curnode].ngpus && i < GP_TOPO_MAX_GPUS; i++)
				cur->gpus[cur->ngpus++] = i;
		} else if (!*(colon + 1) || add_gpus(cur, colon + 1, c->nodes[curnode].ngpus)) {
			tok = colon + 1;
			goto bad_gpu;
		}
	}
	free(copy);
	if (p->nparts == 0)
		return gp_cli_usage_error(CMD, "--on: no GPUs given");
	return GP_OK;
bad_gpu:
	gp_cli_usage_error(CMD, "--on: bad GPU list '%s' for node '%s' (%d GPUs; no repeats)", tok,
			   c->nodes[curnode].name, c->nodes[curnode].ngpus);
	free(copy);
	return GP_EUSAGE;
}

static void fmt_time(double s, char *buf, size_t n)
{
	if (s >= 1)
		snprintf(buf, n, "%.3f s", s);
	else if (s >= 1e-3)
		snprintf(buf, n, "%.3f ms", s * 1e3);
	else
		snprintf(buf, n, "%.3f us", s * 1e6);
}

static void fmt_placement(const gp_cluster *c, const gp_placement *p, gp_sbuf *sb)
{
	int i, k;

	for (i = 0; i < p->nparts; i++) {
		gp_sbuf_addf(sb, "%s%s:", i ? "," : "", c->nodes[p->parts[i].node].name);
		for (k = 0; k < p->parts[i].ngpus; k++) {
			int a = p->parts[i].gpus[k], b = a;

			while (k + 1 < p->parts[i].ngpus && p->parts[i].gpus[k + 1] == b + 1)
				b = p->parts[i].gpus[++k];
			if (b > a)
				gp_sbuf_addf(sb, "%s%d-%d", sb->buf[sb->len - 1] == ':' ? "" : ",", a, b);
			else
				gp_sbuf_addf(sb, "%s%d", sb->buf[sb->len - 1] == ':' ? "" : ",", a);
		}
	}
}

static int count_gpus(const gp_placement *p, int *nodes)
{
	int i, n = 0;

	*nodes = 0;
	for (i = 0; i < p->nparts; i++)
		if (p->parts[i].ngpus > 0)
			n += p->parts[i].ngpus, (*nodes)++;
	return n;
}

/* The nccl-tests table: one row per size from lo to hi, times factor. */
static int run_sweep(const gp_cluster *c, int coll, int algo, double lo, double hi,
		     double factor, const gp_placement *p, int json)
{
	gp_perf_fabric f;
	gp_error err = GP_ERROR_INIT;
	char bottleneck[160];
	int nodes, n = count_gpus(p, &nodes);
	double bytes;
	json_t *rows = NULL;

	if (gp_perf_fabric_of(c, p, &f, bottleneck, sizeof(bottleneck), &err))
		return gp_cli_report(&err);
	if (json) {
		rows = json_array();
	} else {
		printf("# %s on %d GPU%s, %d node%s; bottleneck %s\n", gp_coll_name(coll), n,
		       n == 1 ? "" : "s", nodes, nodes == 1 ? "" : "s", bottleneck);
		printf("#%15s %12s %10s %10s  %-9s %s\n", "size(B)", "time(us)", "algbw", "busbw",
		       "algo", "proto");
	}
	for (bytes = lo; bytes <= hi * (1 + 1e-12); bytes *= factor) {
		gp_perf_coll_result r;

		memset(&r, 0, sizeof(r));
		gp_perf_coll_eval(coll, algo, &f, bytes, &r);
		if (json) {
			json_t *o = json_object();

			json_object_set_new(o, "bytes", json_integer((json_int_t)bytes));
			json_object_set_new(o, "time_s", json_real(r.time_s));
			/* *_gbps: the old names of the *_gbyte_s keys (GB/s) */
			json_object_set_new(o, "algbw_gbps", json_real(r.algbw_gbps));
			json_object_set_new(o, "algbw_gbyte_s", json_real(r.algbw_gbps));
			json_object_set_new(o, "busbw_gbps", json_real(r.busbw_gbps));
			json_object_set_new(o, "busbw_gbyte_s", json_real(r.busbw_gbps));
			json_object_set_new(o, "algorithm", json_string(gp_algo_name(r.algo)));
			json_object_set_new(o, "protocol", json_string(gp_proto_name(r.proto)));
			json_array_append_new(rows, o);
		} else {
			printf("%16.0f %12.2f %10.2f %10.2f  %-9s %s\n", bytes, r.time_s * 1e6,
			       r.algbw_gbps, r.busbw_gbps, gp_algo_name(r.algo), gp_proto_name(r.proto));
		}
		if (factor <= 1)
			break;
	}
	if (json) {
		json_t *o = json_object();
		gp_sbuf sb;
		char *s;

		gp_sbuf_init(&sb);
		fmt_placement(c, p, &sb);
		json_object_set_new(o, "collective", json_string(gp_coll_name(coll)));
		json_object_set_new(o, "gpus", json_integer(n));
		json_object_set_new(o, "nodes", json_integer(nodes));
		json_object_set_new(o, "on", json_string(sb.buf));
		json_object_set_new(o, "bottleneck", json_string(bottleneck));
		json_object_set_new(o, "rows", rows);
		s = json_dumps(o, JSON_SORT_KEYS | JSON_INDENT(2) | JSON_REAL_PRECISION(8));
		puts(s);
		free(s);
		json_decref(o);
		gp_sbuf_release(&sb);
	}
	return GP_OK;
}

/* "8B:8GiB" or "1M:1G:4" into lo, hi, factor; 0 or -1. */
static int parse_sweep(const char *s, double *lo, double *hi, double *factor)
{
	char buf[64], *a, *b;
	long f = 2;

	if (strlen(s) >= sizeof(buf))
		return -1;
	strcpy(buf, s);
	a = strchr(buf, ':');
	if (!a)
		return -1;
	*a++ = '\0';
	b = strchr(a, ':');
	if (b) {
		*b++ = '\0';
		if (gp_parse_long(b, 2, 1024, &f))
			return -1;
	}
	if (gp_parse_size(buf, lo) || gp_parse_size(a, hi) || *lo <= 0 || *hi < *lo || *hi > 1e15)
		return -1;
	*factor = (double)f;
	/* Cap the table: a few hundred rows at most. */
	if (log(*hi / *lo) / log(*factor) > 400)
		return -1;
	return 0;
}

static int run_collective(const gp_cluster *c, int coll, int algo, double bytes,
			  const gp_placement *p, int json)
{
	gp_perf_coll_result r;
	gp_error err = GP_ERROR_INIT;
	int nodes, n = count_gpus(p, &nodes);

	if (gp_perf_placement_collective(c, p, coll, algo, bytes, &r, &err))
		return gp_cli_report(&err);
	if (json) {
		json_t *o = json_object();
		gp_sbuf sb;
		char *s;

		gp_sbuf_init(&sb);
		fmt_placement(c, p, &sb);
		json_object_set_new(o, "collective", json_string(gp_coll_name(coll)));
		json_object_set_new(o, "algorithm", json_string(gp_algo_name(r.algo)));
		json_object_set_new(o, "protocol", json_string(gp_proto_name(r.proto)));
		json_object_set_new(o, "latency_s", json_real(r.lat_s));
		json_object_set_new(o, "bytes", json_integer((json_int_t)bytes));
		json_object_set_new(o, "gpus", json_integer(n));
		json_object_set_new(o, "nodes", json_integer(nodes));
		json_object_set_new(o, "on", json_string(sb.buf));
		json_object_set_new(o, "time_s", json_real(r.time_s));
		/* *_gbps: the old names of the *_gbyte_s keys (GB/s) */
		json_object_set_new(o, "algbw_gbps", json_real(r.algbw_gbps));
		json_object_set_new(o, "algbw_gbyte_s", json_real(r.algbw_gbps));
		json_object_set_new(o, "busbw_gbps", json_real(r.busbw_gbps));
		json_object_set_new(o, "busbw_gbyte_s", json_real(r.busbw_gbps));
		json_object_set_new(o, "bottleneck", json_string(r.bottleneck));
		json_object_set_new(o, "bottleneck_gbps", json_real(r.bw_gbps));
		json_object_set_new(o, "bottleneck_gbyte_s", json_real(r.bw_gbps));
		s = json_dumps(o, JSON_SORT_KEYS | JSON_INDENT(2) | JSON_REAL_PRECISION(8));
		puts(s);
		free(s);
		json_decref(o);
		gp_sbuf_release(&sb);
	} else {
		char t[32];

		fmt_time(r.time_s, t, sizeof(t));
		printf("collective  %s of %.0f bytes on %d GPU%s, %d node%s\n", gp_coll_name(coll),
		       bytes, n, n == 1 ? "" : "s", nodes, nodes == 1 ? "" : "s");
		printf("algorithm   %s\n", gp_algo_name(r.algo));
		printf("protocol    %s\n", gp_proto_name(r.proto));
		printf("time        %s\n", t);
		printf("algbw       %.2f GB/s\n", r.algbw_gbps);
		printf("busbw       %.2f GB/s\n", r.busbw_gbps);
		printf("bottleneck  %s\n", r.bottleneck);
	}
	return GP_OK;
}

static json_t *iter_json(const gp_cluster *c, const gp_placement *p, const gp_perf_iter *it)
{
	json_t *o = json_object();
	gp_sbuf sb;

	gp_sbuf_init(&sb);
	fmt_placement(c, p, &sb);
	json_object_set_new(o, "on", json_string(sb.buf));
	json_object_set_new(o, "gpus", json_integer(it->gpus));
	json_object_set_new(o, "nodes", json_integer(it->nodes));
	json_object_set_new(o, "compute_s", json_real(it->compute_s));
	json_object_set_new(o, "comm_s", json_real(it->comm_s));
	json_object_set_new(o, "exposed_comm_s", json_real(it->exposed_s));
	json_object_set_new(o, "iteration_s", json_real(it->iter_s));
	json_object_set_new(o, "overlap", json_real(it->overlap));
	json_object_set_new(o, "grad_bytes", json_real(it->grad_bytes));
	json_object_set_new(o, "algorithm", json_string(gp_algo_name(it->algo)));
	json_object_set_new(o, "bottleneck", json_string(it->bottleneck));
	json_object_set_new(o, "source", json_string(it->gavel     ? "gavel"
						     : it->profile ? "profile"
						     : it->scaled  ? "scaled-profile"
								   : "model"));
	if (it->profile) {
		char buf[96];

		snprintf(buf, sizeof(buf), "%s/%s", it->profile->dl_model, it->profile->platform);
		json_object_set_new(o, "profile", json_string(buf));
	}
	gp_sbuf_release(&sb);
	return o;
}

static void print_iter(const gp_cluster *c, const char *title, const gp_placement *p,
		       const gp_perf_iter *it)
{
	char a[32], b[32], e[32], t[32];
	gp_sbuf sb;

	gp_sbuf_init(&sb);
	fmt_placement(c, p, &sb);
	fmt_time(it->compute_s, a, sizeof(a));
	fmt_time(it->comm_s, b, sizeof(b));
	fmt_time(it->exposed_s, e, sizeof(e));
	fmt_time(it->iter_s, t, sizeof(t));
	printf("%s: %s (%d GPU%s, %d node%s)\n", title, sb.buf, it->gpus, it->gpus == 1 ? "" : "s",
	       it->nodes, it->nodes == 1 ? "" : "s");
	printf("  iteration   %s\n", t);
	printf("  compute     %s%s\n", a, it->gavel ? "  (Gavel's measured throughput)"
				: it->profile ? "  (calibrated profile)" : "");
	printf("  comm        %s  (%s, %.0f bytes of gradients)\n", b, gp_algo_name(it->algo),
	       it->grad_bytes);
	printf("  exposed     %s  (overlap %.2f)\n", e, it->overlap);
	printf("  bottleneck  %s\n", it->bottleneck);
	if (it->profile)
		printf("  profile     %s on %s (%s), step-time MAPE %.1f %%\n", it->profile->dl_model,
		       it->profile->platform, it->profile->gpu, it->profile->mape);
	else if (it->scaled)
		printf("  profile     %s on %s (%s), compute scaled by peak FLOPS\n",
		       it->scaled->dl_model, it->scaled->platform, it->scaled->gpu);
	gp_sbuf_release(&sb);
}

static int run_job(const gp_cluster *c, const char *job_path, const char *on,
		   const char *policy, long seed, int json)
{
	gp_job job;
	gp_placement given, best, worst;
	gp_perf_iter it, bi, wi;
	gp_error err = GP_ERROR_INIT;
	int st, have_given = 0;
	json_t *root = NULL;

	if (gp_jobspec_load(job_path, &job, &err))
		return gp_cli_report(&err);
	gp_placement_init(&given);
	gp_placement_init(&best);
	gp_placement_init(&worst);
	if (on) {
		st = parse_on(c, on, &given);
		if (st)
			goto out;
		have_given = 1;
	} else if (policy) {
		const gp_policy *pol = gp_policy_find(policy);
		gp_alloc alloc;
		gp_rng rng;
		gp_policy_ctx ctx;

		if (!pol) {
			st = gp_cli_usage_error(CMD, "no policy '%s'", policy);
			goto out;
		}
		if (gp_alloc_init(&alloc, c)) {
			st = gp_cli_fail(GP_EIO, "cannot set up the allocation state");
			goto out;
		}
		gp_rng_seed(&rng, (uint64_t)seed);
		memset(&ctx, 0, sizeof(ctx));
		ctx.cluster = c;
		ctx.alloc = &alloc;
		ctx.rng = &rng;
		if (pol->place(&ctx, &job, &given) != GP_PLACED) {
			gp_alloc_release(&alloc);
			st = gp_cli_fail(GP_NO, "policy '%s' cannot place job '%s' on the idle cluster",
					 policy, job.id ? job.id : "?");
			goto out;
		}
		gp_alloc_release(&alloc);
		have_given = 1;
	}
	if (have_given && gp_perf_iteration(c, &job, &given, &it, &err)) {
		st = gp_cli_report(&err);
		goto out;
	}
	st = gp_perf_best_worst(c, &job, &best, &bi, &worst, &wi, &err);
	if (st) {
		st = gp_cli_report(&err);
		goto out;
	}
	if (json) {
		char *s;

		root = json_object();
		json_object_set_new(root, "job", json_string(job.id ? job.id : ""));
		if (have_given) {
			json_object_set_new(root, "placement", iter_json(c, &given, &it));
			json_object_set_new(root, "slowdown_vs_best",
					    json_real(bi.iter_s > 0 ? it.iter_s / bi.iter_s : 0));
		}
		json_object_set_new(root, "best", iter_json(c, &best, &bi));
		json_object_set_new(root, "worst", iter_json(c, &worst, &wi));
		s = json_dumps(root, JSON_SORT_KEYS | JSON_INDENT(2) | JSON_REAL_PRECISION(8));
		puts(s);
		free(s);
		json_decref(root);
	} else {
		printf("job '%s'\n", job.id ? job.id : "");
		if (have_given) {
			print_iter(c, policy ? "placement (policy)" : "placement", &given, &it);
			printf("  vs best     x%.3f\n", bi.iter_s > 0 ? it.iter_s / bi.iter_s : 0);
		}
		print_iter(c, "best on idle cluster", &best, &bi);
		print_iter(c, "worst on idle cluster", &worst, &wi);
	}
	st = GP_OK;
out:
	gp_placement_release(&given);
	gp_placement_release(&best);
	gp_placement_release(&worst);
	gp_job_release(&job);
	return st;
}

int cmd_perf(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "cluster", required_argument, NULL, 'c' },
		{ "collective", required_argument, NULL, 'C' },
		{ "size", required_argument, NULL, 's' },
		{ "sweep", required_argument, NULL, 'w' },
		{ "on", required_argument, NULL, 'o' },
		{ "algo", required_argument, NULL, 'a' },
		{ "policy", required_argument, NULL, 'p' },
		{ "seed", required_argument, NULL, 'S' },
		{ "json", no_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 },
	};
	const char *cluster_path = NULL, *on = NULL, *policy = NULL, *size = NULL;
	const char *sweep = NULL;
	double lo = 0, hi = 0, factor = 2;
	int coll = -1, algo = GP_ALGO_AUTO, json = 0, c, st;
	long seed = 1;
	double bytes = 0;
	gp_cluster cl;
	gp_error err = GP_ERROR_INIT;

	gsl_set_error_handler_off();
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "c:j", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			cluster_path = optarg;
			break;
		case 'C':
			coll = gp_coll_parse(optarg);
			if (coll < 0)
				return gp_cli_usage_error(CMD, "unknown collective '%s' (allreduce, allgather, reducescatter, broadcast, alltoall, sendrecv)", optarg);
			break;
		case 's':
			size = optarg;
			break;
		case 'w':
			sweep = optarg;
			break;
		case 'o':
			on = optarg;
			break;
		case 'a':
			algo = gp_algo_parse(optarg);
			if (algo < 0)
				return gp_cli_usage_error(CMD, "unknown algorithm '%s' (auto, ring, tree, nvls, nvlstree, collnet, hierarchical, ps)", optarg);
			break;
		case 'p':
			policy = optarg;
			break;
		case 'S':
			if (gp_parse_long(optarg, 0, 0x7fffffffL, &seed))
				return gp_cli_usage_error(CMD, "bad --seed '%s'", optarg);
			break;
		case 'j':
			json = 1;
			break;
		default:
			return gp_cli_usage_error(CMD, "unknown or incomplete option '%s'", argv[optind - 1]);
		}
	}
	if (coll >= 0) {
		if (optind < argc)
			return gp_cli_usage_error(CMD, "--collective takes no job file ('%s')", argv[optind]);
		if (size && sweep)
			return gp_cli_usage_error(CMD, "--size and --sweep exclude each other");
		if ((!size && !sweep) || !on)
			return gp_cli_usage_error(CMD, "--collective needs --size (or --sweep) and --on");
		if (policy)
			return gp_cli_usage_error(CMD, "--policy is for a job, not --collective");
		if (size && (gp_parse_size(size, &bytes) || bytes <= 0 || bytes > 1e15))
			return gp_cli_usage_error(CMD, "bad --size '%s' (e.g. 1GiB, 256MB, 4096)", size);
		if (sweep && parse_sweep(sweep, &lo, &hi, &factor))
			return gp_cli_usage_error(CMD, "bad --sweep '%s' (MIN:MAX[:FACTOR], e.g. 8B:8GiB, at most 400 rows)", sweep);
	} else {
		if (optind + 1 != argc)
			return gp_cli_usage_error(CMD, "give --collective, or one JOB.yaml");
		if (on && policy)
			return gp_cli_usage_error(CMD, "--on and --policy exclude each other");
		if (size || sweep)
			return gp_cli_usage_error(CMD, "--size and --sweep are for --collective");
	}
	gp_cluster_init(&cl);
	if (gp_cluster_load(cluster_path ? cluster_path : gp_cli_default_cluster(), &cl, &err))
		return gp_cli_report(&err);
	if (coll >= 0) {
		gp_placement p;

		gp_placement_init(&p);
		st = parse_on(&cl, on, &p);
		if (!st && sweep)
			st = run_sweep(&cl, coll, algo, lo, hi, factor, &p, json);
		else if (!st)
			st = run_collective(&cl, coll, algo, bytes, &p, json);
		gp_placement_release(&p);
	} else {
		st = run_job(&cl, argv[optind], on, policy, seed, json);
	}
	gp_cluster_release(&cl);
	return st;
}
