/* gpuplan perf: one collective on a set of GPUs, or a job's iteration
 * time on a placement plus its best and worst placements. */
#include <gsl/gsl_errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "llm_int.h"
#include "gpuplan/io/cluster_yaml.h"
#include "gpuplan/io/jobspec.h"
#include "gpuplan/perf/perf.h"
#include "gpuplan/place/place.h"
#include "gpuplan/place/policy.h"
#include "gpuplan/report/html.h"
#include "gpuplan/report/report.h"
#include "gpuplan/util/hostlist.h"
#include "gpuplan/util/util.h"

enum { O_COLL = 1, O_SIZE, O_SWEEP, O_ON, O_ALGO, O_POLICY, O_SEED, O_JSON, O_FORMAT, O_HTML,
       O_GEMM, O_GPP };

static const gp_opt perf_opts[] = {
	GP_OPT_CLUSTER('c'),
	{ .name = "collective", .key = O_COLL, .type = GP_OT_STR, .arg = "OP",
	  .help = "allreduce, allgather, reducescatter, broadcast,\nalltoall or sendrecv" },
	{ .name = "size", .key = O_SIZE, .type = GP_OT_STR, .arg = "BYTES",
	  .help = "message size as nccl-tests counts it: 1GiB, 256MB, 4096" },
	{ .name = "sweep", .key = O_SWEEP, .type = GP_OT_STR, .arg = "MIN:MAX[:F]",
	  .help = "the nccl-tests table from MIN to MAX bytes, times F\n"
		  "(default 2) per row: 8B:8GiB" },
	{ .name = "on", .key = O_ON, .type = GP_OT_STR, .arg = "SPEC",
	  .help = "GPUs: NODE:0-7, NODE:0,2,4, several joined by ','\n"
		  "(a bare NODE means all its GPUs)" },
	{ .name = "algo", .key = O_ALGO, .type = GP_OT_STR, .arg = "ALGO",
	  .help = "auto (what NCCL picks), ring, tree, nvls, nvlstree,\n"
		  "collnet, hierarchical, ps (as NCCL_ALGO forces one)" },
	{ .name = "gpus-per-process", .key = O_GPP, .type = GP_OT_LONG, .arg = "G", .min = 1,
	  .max = GP_TOPO_MAX_GPUS,
	  .help = "one process drives G GPUs (nccl-tests -g G): its\n"
		  "kernel launches, one per GPU, add to the latency" },
	{ .name = "policy", .key = O_POLICY, .type = GP_OT_STR, .arg = "P",
	  .help = "place the job with policy P on the idle cluster" },
	GP_OPT_SEED(O_SEED, "seed for randomised policies (default 1)"),
	{ .name = "gemm-efficiency", .key = O_GEMM, .type = GP_OT_DOUBLE, .arg = "F", .min = 0.01,
	  .max = 1, .what = "a fraction",
	  .help = "llm jobs: achieved / peak FLOP/s of the GEMMs instead\n"
		  "of the fitted value of the GPU (a what-if)" },
	{ .name = "json", .sc = 'j', .key = O_JSON, .type = GP_OT_FLAG, .help = "machine-readable output" },
	{ .name = "format", .key = O_FORMAT, .type = GP_OT_STR, .arg = "F",
	  .help = "--sweep's table: gpuplan (default) or nccl-tests (its\n"
		  "own columns and 'Avg bus bandwidth' line, to diff)" },
	{ .name = "html", .key = O_HTML, .type = GP_OT_STR, .arg = "FILE",
	  .help = "also write one page with the answer, tables and chart" },
	{ 0 },
};

const gp_cmd_desc gp_desc_perf = {
	.name = "perf",
	.synopsis = "[-c CLUSTER] --collective OP --size BYTES --on NODE:GPUS[,...]\n"
		    "  [--algo ALGO] [--gpus-per-process G] [--json]\n"
		    "[-c CLUSTER] --collective OP --sweep MIN:MAX[:FACTOR]\n"
		    "  --on NODE:GPUS[,...] [--algo ALGO] [--gpus-per-process G] [--json]\n"
		    "  [--format gpuplan|nccl-tests]\n"
		    "[-c CLUSTER] JOB.yaml [--on NODE:GPUS[,...] | --policy P]\n"
		    "  [--seed N] [--gemm-efficiency F] [--json]\n"
		    "(each form also takes --html FILE)",
	.min_args = 0, .max_args = -1,
	.about = "Model the time of one collective on the GPUs given, or the iteration time\n"
		 "of a job (compute, communication, exposed communication) on a placement,\n"
		 "with its best and worst placements on the idle cluster.\n",
	.opts = perf_opts,
};

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
	gp_perf_fmt_time(s, buf, n);
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

/* What the page of a perf run names (--html). */
typedef struct perf_page {
	const char *path;       /* --html FILE, or NULL */
	const char *cluster;    /* path as given, or the bundled label */
	gp_sbuf text;           /* the text report, as printed */
} perf_page;

/* The page: the inputs, the answer first, then the extra tables and
 * chart (body), the text report (pg->text) last when there is one. */
static int write_page(perf_page *pg, const char *title, const char *const *names,
		      const char *const *values, size_t n, const char *answer,
		      void (*body)(gp_html *h, void *ud), void *ud)
{
	gp_cli_outset outs;
	gp_html h;
	gp_sbuf sb;

	if (!pg->path)
		return GP_OK;
	memset(&outs, 0, sizeof(outs));
	gp_sbuf_init(&sb);
	gp_html_begin(&h, &sb, title);
	gp_html_inputs(&h, names, values, n);
	gp_html_headline(&h, answer);
	if (body)
		body(&h, ud);
	if (pg->text.len) {
		gp_html_section(&h, "Report");
		gp_html_pre(&h, pg->text.buf, pg->text.len);
	}
	gp_html_end(&h);
	gp_cli_outset_take(&outs, pg->path, &sb);
	return gp_cli_outset_commit(&outs);
}

/* Bytes for people: "8 B", "4 KiB", "1.5 GiB". */
static const char *human_bytes(char *buf, size_t size, double b)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	int u = 0;

	while (b >= 1024 && u < 5) {
		b /= 1024;
		u++;
	}
	snprintf(buf, size, "%g %s", round(b * 100) / 100, units[u]);
	return buf;
}

/* One row of a sweep. */
typedef struct sweep_row {
	double bytes;
	gp_perf_coll_result r;
} sweep_row;

typedef struct sweep_table {
	const sweep_row *rows;
	size_t n;
	int coll;
} sweep_table;

/* Elements of 4-byte floats per rank as nccl-tests counts them: the
 * gathered and scattered collectives count one rank's share. */
static long long nccl_count(int coll, double bytes, int nranks)
{
	long long count = (long long)(bytes / 4);

	if ((coll == GP_COLL_ALLGATHER || coll == GP_COLL_REDUCESCATTER || coll == GP_COLL_ALLTOALL) &&
	    nranks > 0)
		count /= nranks;
	return count;
}

/* A time in microseconds the way nccl-tests prints it: fewer decimals
 * as it grows, 7 wide. */
static void nccl_time(char *buf, size_t size, double us)
{
	snprintf(buf, size, us >= 10000 ? "%7.0f" : us >= 100 ? "%7.1f" : "%7.2f", us);
}

/* The sweep in nccl-tests' own layout (out-of-place and in-place
 * columns: the model gives both the same time; '#wrong' N/A: nothing is
 * checked), ending with its 'Avg bus bandwidth' line. */
static void print_nccl(FILE *o, int coll, const sweep_row *rows, size_t n, int nranks)
{
	int reduce = coll == GP_COLL_ALLREDUCE || coll == GP_COLL_REDUCESCATTER;
	double sum = 0;
	size_t i;

	fprintf(o, "#\n# %10s  %12s  %8s  %6s  %6s           out-of-place                       "
		"in-place          \n", "", "", "", "", "");
	fprintf(o, "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s %6s  %7s  %6s  %6s %6s\n", "size", "count",
		"type", "redop", "root", "time", "algbw", "busbw", "#wrong", "time", "algbw", "busbw",
		"#wrong");
	fprintf(o, "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %5s  %7s  %6s  %6s  %5s\n", "(B)",
		"(elements)", "", "", "", "(us)", "(GB/s)", "(GB/s)", "", "(us)", "(GB/s)", "(GB/s)", "");
	for (i = 0; i < n; i++) {
		char t[32];
		int k;

		nccl_time(t, sizeof(t), rows[i].r.time_s * 1e6);
		fprintf(o, "%12.0f  %12lld  %8s  %6s  %6d", rows[i].bytes,
			nccl_count(coll, rows[i].bytes, nranks), "float", reduce ? "sum" : "none",
			coll == GP_COLL_BROADCAST ? 0 : -1);
		for (k = 0; k < 2; k++)
			fprintf(o, "  %7s  %6.2f  %6.2f  %5s", t, rows[i].r.algbw_gbps, rows[i].r.busbw_gbps,
				"N/A");
		fputs("\n", o);
		sum += rows[i].r.busbw_gbps;
	}
	fprintf(o, "# Avg bus bandwidth    : %g \n#\n", n ? sum / (double)n : 0.0);
}

/* The sweep's page: its rows as a table and bandwidth against size. */
static void sweep_body(gp_html *h, void *ud)
{
	const sweep_table *st = ud;
	double *x = gp_xmalloc((st->n ? st->n : 1) * sizeof(*x));
	double *bus = gp_xmalloc((st->n ? st->n : 1) * sizeof(*bus));
	double *alg = gp_xmalloc((st->n ? st->n : 1) * sizeof(*alg));
	gp_svg_series se[2];
	gp_svg_chart c;
	gp_table t;
	size_t i, row;

	gp_html_section(h, "Bandwidth against message size");
	for (i = 0; i < st->n; i++) {
		x[i] = st->rows[i].bytes;
		bus[i] = st->rows[i].r.busbw_gbps;
		alg[i] = st->rows[i].r.algbw_gbps;
	}
	se[0] = (gp_svg_series){ "bus bandwidth (busbw)", x, bus, st->n, 0 };
	se[1] = (gp_svg_series){ "algorithm bandwidth (algbw)", x, alg, st->n, 0 };
	memset(&c, 0, sizeof(c));
	c.title = "Modelled bandwidth";
	c.subtitle = gp_coll_name(st->coll);
	c.x_title = "message size (bytes, log scale)";
	c.y_title = "GB/s";
	c.x_log = 1;
	c.series = se;
	c.nseries = 2;
	c.legend = GP_LEGEND_TOP_LEFT;
	gp_html_chart(h, &c);
	gp_table_init(&t, 6);
	row = gp_table_row(&t);
	gp_table_set(&t, row, 0, "size (B)");
	gp_table_set(&t, row, 1, "time (us)");
	gp_table_set(&t, row, 2, "algbw (GB/s)");
	gp_table_set(&t, row, 3, "busbw (GB/s)");
	gp_table_set(&t, row, 4, "algorithm");
	gp_table_set(&t, row, 5, "protocol");
	for (i = 0; i < st->n; i++) {
		const gp_perf_coll_result *r = &st->rows[i].r;

		row = gp_table_row(&t);
		gp_table_set(&t, row, 0, "%.0f", st->rows[i].bytes);
		gp_table_set(&t, row, 1, "%.2f", r->time_s * 1e6);
		gp_table_set(&t, row, 2, "%.2f", r->algbw_gbps);
		gp_table_set(&t, row, 3, "%.2f", r->busbw_gbps);
		gp_table_set(&t, row, 4, "%s", gp_algo_name(r->algo));
		gp_table_set(&t, row, 5, "%s", gp_proto_name(r->proto));
	}
	gp_html_table(h, &t, NULL);
	gp_table_release(&t);
	free(x);
	free(bus);
	free(alg);
}

/* The table of a sweep: one row per size from lo to hi, times factor;
 * gpuplan's own columns or nccl-tests' (nccl). */
static int run_sweep(const gp_cluster *c, int coll, int algo, int per_proc, double lo, double hi,
		     double factor, const gp_placement *p, int json, int nccl, perf_page *pg)
{
	gp_perf_fabric f;
	gp_error err = GP_ERROR_INIT;
	char bottleneck[160];
	int nodes, n = count_gpus(p, &nodes), rc;
	double bytes, sum = 0;
	json_t *rows = NULL;
	sweep_row *tab = NULL;
	size_t ntab = 0, cap = 0, i, peak = 0;
	FILE *o;
	char *txt = NULL;
	size_t txtlen = 0;

	if (gp_perf_fabric_of(c, p, &f, bottleneck, sizeof(bottleneck), &err))
		return gp_cli_report(&err);
	for (bytes = lo; bytes <= hi * (1 + 1e-12); bytes *= factor) {
		GP_GROW(tab, cap, ntab + 1);
		memset(&tab[ntab], 0, sizeof(tab[ntab]));
		tab[ntab].bytes = bytes;
		gp_perf_coll_eval(coll, algo, &f, bytes, &tab[ntab].r);
		gp_perf_coll_add_launch(&tab[ntab].r, coll, n, bytes, per_proc);
		ntab++;
		if (factor <= 1)
			break;
	}
	o = open_memstream(&txt, &txtlen);
	if (!o) {
		free(tab);
		return gp_cli_fail(GP_EIO, "out of memory");
	}
	if (json) {
		rows = json_array();
	} else if (nccl) {
		fprintf(o, "# %s on %d GPU%s, %d node%s, as modelled by gpuplan; bottleneck %s\n",
			gp_coll_name(coll), n, n == 1 ? "" : "s", nodes, nodes == 1 ? "" : "s", bottleneck);
		print_nccl(o, coll, tab, ntab, n);
	} else {
		fprintf(o, "# %s on %d GPU%s, %d node%s; bottleneck %s\n", gp_coll_name(coll), n,
			n == 1 ? "" : "s", nodes, nodes == 1 ? "" : "s", bottleneck);
		fprintf(o, "#%15s %12s %10s %10s  %-9s %s\n", "size(B)", "time(us)", "algbw", "busbw",
			"algo", "proto");
	}
	for (i = 0; i < ntab; i++) {
		const gp_perf_coll_result *r = &tab[i].r;

		sum += r->busbw_gbps;
		if (r->busbw_gbps > tab[peak].r.busbw_gbps)
			peak = i;
		if (json) {
			json_t *e = json_object();

			json_object_set_new(e, "bytes", json_integer((json_int_t)tab[i].bytes));
			json_object_set_new(e, "time_s", json_real(r->time_s));
			/* *_gbps: the old names of the *_gbyte_s keys (GB/s) */
			json_object_set_new(e, "algbw_gbps", json_real(r->algbw_gbps));
			json_object_set_new(e, "algbw_gbyte_s", json_real(r->algbw_gbps));
			json_object_set_new(e, "busbw_gbps", json_real(r->busbw_gbps));
			json_object_set_new(e, "busbw_gbyte_s", json_real(r->busbw_gbps));
			json_object_set_new(e, "algorithm", json_string(gp_algo_name(r->algo)));
			json_object_set_new(e, "protocol", json_string(gp_proto_name(r->proto)));
			json_array_append_new(rows, e);
		} else if (!nccl) {
			fprintf(o, "%16.0f %12.2f %10.2f %10.2f  %-9s %s\n", tab[i].bytes, r->time_s * 1e6,
				r->algbw_gbps, r->busbw_gbps, gp_algo_name(r->algo), gp_proto_name(r->proto));
		}
	}
	if (json) {
		json_t *e = json_object();
		gp_sbuf sb;
		char *s;

		gp_sbuf_init(&sb);
		fmt_placement(c, p, &sb);
		json_object_set_new(e, "collective", json_string(gp_coll_name(coll)));
		json_object_set_new(e, "gpus", json_integer(n));
		json_object_set_new(e, "nodes", json_integer(nodes));
		json_object_set_new(e, "on", json_string(sb.buf));
		json_object_set_new(e, "bottleneck", json_string(bottleneck));
		json_object_set_new(e, "rows", rows);
		s = json_dumps(e, JSON_SORT_KEYS | JSON_INDENT(2) | JSON_REAL_PRECISION(8));
		fprintf(o, "%s\n", s);
		free(s);
		json_decref(e);
		gp_sbuf_release(&sb);
	}
	fclose(o);
	rc = GP_OK;
	if (pg->path) {
		sweep_table stab = { tab, ntab, coll };
		const char *names[4] = { "cluster", "collective", "on", "sizes" };
		char *v[4], *title, *answer, hb[32];
		gp_sbuf sb;

		gp_sbuf_init(&sb);
		fmt_placement(c, p, &sb);
		v[0] = gp_xstrdup(pg->cluster);
		v[1] = gp_xasprintf("%s, algorithm %s", gp_coll_name(coll), gp_algo_name(algo));
		v[2] = gp_xasprintf("%s (%d GPUs, %d node%s)", sb.buf, n, nodes, nodes == 1 ? "" : "s");
		v[3] = gp_xasprintf("%.0f to %.0f bytes, times %g per row", lo, tab[ntab - 1].bytes, factor);
		gp_sbuf_release(&sb);
		title = gp_xasprintf("gpuplan perf: %s sweep", gp_coll_name(coll));
		answer = gp_xasprintf("%s on %d GPUs peaks at %.2f GB/s bus bandwidth (%s messages); "
				      "average bus bandwidth %.2f GB/s over %zu sizes; bottleneck %s.",
				      gp_coll_name(coll), n, tab[peak].r.busbw_gbps,
				      human_bytes(hb, sizeof(hb), tab[peak].bytes),
				      ntab ? sum / (double)ntab : 0.0, ntab, bottleneck);
		pg->text.len = 0; /* the table says it all */
		rc = write_page(pg, title, names, (const char *const *)v, 4, answer, sweep_body, &stab);
		free(title);
		free(answer);
		for (i = 0; i < 4; i++)
			free(v[i]);
	}
	if (rc == GP_OK)
		fwrite(txt, 1, txtlen, stdout);
	free(txt);
	free(tab);
	return rc;
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

static int run_collective(const gp_cluster *c, int coll, int algo, int per_proc, double bytes,
			  const gp_placement *p, int json, perf_page *pg)
{
	gp_perf_coll_result r;
	gp_error err = GP_ERROR_INIT;
	int nodes, n = count_gpus(p, &nodes), rc = GP_OK;
	char *txt = NULL;
	size_t txtlen = 0;
	FILE *o;

	if (gp_perf_placement_collective(c, p, coll, algo, bytes, &r, &err))
		return gp_cli_report(&err);
	gp_perf_coll_add_launch(&r, coll, n, bytes, per_proc);
	o = open_memstream(&txt, &txtlen);
	if (!o)
		return gp_cli_fail(GP_EIO, "out of memory");
	if (json) {
		json_t *jo = json_object();
		gp_sbuf sb;
		char *s;

		gp_sbuf_init(&sb);
		fmt_placement(c, p, &sb);
		json_object_set_new(jo, "collective", json_string(gp_coll_name(coll)));
		json_object_set_new(jo, "algorithm", json_string(gp_algo_name(r.algo)));
		json_object_set_new(jo, "protocol", json_string(gp_proto_name(r.proto)));
		json_object_set_new(jo, "latency_s", json_real(r.lat_s));
		json_object_set_new(jo, "bytes", json_integer((json_int_t)bytes));
		json_object_set_new(jo, "gpus", json_integer(n));
		json_object_set_new(jo, "nodes", json_integer(nodes));
		json_object_set_new(jo, "on", json_string(sb.buf));
		json_object_set_new(jo, "time_s", json_real(r.time_s));
		/* *_gbps: the old names of the *_gbyte_s keys (GB/s) */
		json_object_set_new(jo, "algbw_gbps", json_real(r.algbw_gbps));
		json_object_set_new(jo, "algbw_gbyte_s", json_real(r.algbw_gbps));
		json_object_set_new(jo, "busbw_gbps", json_real(r.busbw_gbps));
		json_object_set_new(jo, "busbw_gbyte_s", json_real(r.busbw_gbps));
		json_object_set_new(jo, "bottleneck", json_string(r.bottleneck));
		json_object_set_new(jo, "bottleneck_gbps", json_real(r.bw_gbps));
		json_object_set_new(jo, "bottleneck_gbyte_s", json_real(r.bw_gbps));
		s = json_dumps(jo, JSON_SORT_KEYS | JSON_INDENT(2) | JSON_REAL_PRECISION(8));
		fprintf(o, "%s\n", s);
		free(s);
		json_decref(jo);
		gp_sbuf_release(&sb);
	} else {
		char t[32];

		fmt_time(r.time_s, t, sizeof(t));
		fprintf(o, "collective  %s of %.0f bytes on %d GPU%s, %d node%s\n", gp_coll_name(coll),
		       bytes, n, n == 1 ? "" : "s", nodes, nodes == 1 ? "" : "s");
		fprintf(o, "algorithm   %s\n", gp_algo_name(r.algo));
		fprintf(o, "protocol    %s\n", gp_proto_name(r.proto));
		fprintf(o, "time        %s\n", t);
		fprintf(o, "algbw       %.2f GB/s\n", r.algbw_gbps);
		fprintf(o, "busbw       %.2f GB/s\n", r.busbw_gbps);
		fprintf(o, "bottleneck  %s\n", r.bottleneck);
	}
	fclose(o);
	if (pg->path) {
		const char *names[3] = { "cluster", "collective", "on" };
		char *v[3], *title, *answer, t[32];
		gp_sbuf sb;
		int i;

		gp_sbuf_init(&sb);
		fmt_placement(c, p, &sb);
		fmt_time(r.time_s, t, sizeof(t));
		v[0] = gp_xstrdup(pg->cluster);
		v[1] = gp_xasprintf("%s of %.0f bytes, algorithm %s", gp_coll_name(coll), bytes,
				    gp_algo_name(algo));
		v[2] = gp_xasprintf("%s (%d GPUs, %d node%s)", sb.buf, n, nodes, nodes == 1 ? "" : "s");
		gp_sbuf_release(&sb);
		title = gp_xasprintf("gpuplan perf: %s", gp_coll_name(coll));
		answer = gp_xasprintf("%s of %.0f bytes on %d GPUs takes %s: %.2f GB/s bus bandwidth "
				      "with %s/%s; bottleneck %s.", gp_coll_name(coll), bytes, n, t,
				      r.busbw_gbps, gp_algo_name(r.algo), gp_proto_name(r.proto),
				      r.bottleneck);
		gp_sbuf_add(&pg->text, txt, txtlen);
		rc = write_page(pg, title, names, (const char *const *)v, 3, answer, NULL, NULL);
		free(title);
		free(answer);
		for (i = 0; i < 3; i++)
			free(v[i]);
	}
	if (rc == GP_OK)
		fwrite(txt, 1, txtlen, stdout);
	free(txt);
	return rc;
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

static void print_iter(FILE *o, const gp_cluster *c, const char *title, const gp_placement *p,
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
	fprintf(o, "%s: %s (%d GPU%s, %d node%s)\n", title, sb.buf, it->gpus, it->gpus == 1 ? "" : "s",
	       it->nodes, it->nodes == 1 ? "" : "s");
	fprintf(o, "  iteration   %s\n", t);
	fprintf(o, "  compute     %s%s\n", a, it->gavel ? "  (Gavel's measured throughput)"
				: it->profile ? "  (calibrated profile)" : "");
	fprintf(o, "  comm        %s  (%s, %.0f bytes of gradients)\n", b, gp_algo_name(it->algo),
	       it->grad_bytes);
	fprintf(o, "  exposed     %s  (overlap %.2f)\n", e, it->overlap);
	fprintf(o, "  bottleneck  %s\n", it->bottleneck);
	if (it->profile)
		fprintf(o, "  profile     %s on %s (%s), step-time MAPE %.1f %%\n", it->profile->dl_model,
		       it->profile->platform, it->profile->gpu, it->profile->mape);
	else if (it->scaled)
		fprintf(o, "  profile     %s on %s (%s), compute scaled by peak FLOPS\n",
		       it->scaled->dl_model, it->scaled->platform, it->scaled->gpu);
	gp_sbuf_release(&sb);
}

/* A job's placements side by side (--html). */
typedef struct job_table {
	const gp_cluster *c;
	const char *names[3];
	const gp_placement *p[3];
	const gp_perf_iter *it[3];
	int n;
} job_table;

static void job_body(gp_html *h, void *ud)
{
	const job_table *jt = ud;
	gp_table t;
	size_t row;
	int i;

	gp_html_section(h, "Placements");
	gp_table_init(&t, 9);
	row = gp_table_row(&t);
	gp_table_set(&t, row, 0, "placement");
	gp_table_set(&t, row, 1, "GPUs");
	gp_table_set(&t, row, 2, "nodes");
	gp_table_set(&t, row, 3, "iteration");
	gp_table_set(&t, row, 4, "compute");
	gp_table_set(&t, row, 5, "comm");
	gp_table_set(&t, row, 6, "exposed");
	gp_table_set(&t, row, 7, "on");
	gp_table_set(&t, row, 8, "bottleneck");
	for (i = 0; i < jt->n; i++) {
		const gp_perf_iter *it = jt->it[i];
		char a[32], b[32], e[32], tt[32];
		gp_sbuf sb;

		gp_sbuf_init(&sb);
		fmt_placement(jt->c, jt->p[i], &sb);
		fmt_time(it->compute_s, a, sizeof(a));
		fmt_time(it->comm_s, b, sizeof(b));
		fmt_time(it->exposed_s, e, sizeof(e));
		fmt_time(it->iter_s, tt, sizeof(tt));
		row = gp_table_row(&t);
		gp_table_set(&t, row, 0, "%s", jt->names[i]);
		gp_table_set(&t, row, 1, "%d", it->gpus);
		gp_table_set(&t, row, 2, "%d", it->nodes);
		gp_table_set(&t, row, 3, "%s", tt);
		gp_table_set(&t, row, 4, "%s", a);
		gp_table_set(&t, row, 5, "%s", b);
		gp_table_set(&t, row, 6, "%s", e);
		gp_table_set(&t, row, 7, "%s", sb.buf);
		gp_table_set(&t, row, 8, "%s", it->bottleneck);
		gp_sbuf_release(&sb);
	}
	gp_html_table(h, &t, NULL);
	gp_table_release(&t);
}

static int run_job(const gp_cluster *c, const char *job_path, const char *on,
		   const char *policy, long seed, double eta, int json, perf_page *pg)
{
	gp_job job;
	gp_placement given, best, worst, shown;
	const gp_placement *disp = &given;
	gp_perf_iter it, bi, wi;
	gp_error err = GP_ERROR_INIT;
	int st, have_given = 0;
	json_t *root = NULL;
	char *txt = NULL;
	size_t txtlen = 0;
	FILE *o = NULL;

	if (gp_jobspec_load(job_path, &job, &err))
		return gp_cli_report(&err);
	gp_placement_init(&given);
	gp_placement_init(&shown);
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
		/* timed by its roles as simulate times it; shown as place
		 * rates it: a parameter server on a node with workers is one
		 * node with them */
		if (job.type == GP_JOB_PS_WORKER && gp_place_perf_view(&given, &shown) > 0)
			disp = &shown;
	}
	if (job.type == GP_JOB_LLM) {
		char why[256], *answer = NULL;
		gp_sbuf sb;

		if (!have_given && gp_perf_llm_place(c, &job, &given, why, sizeof(why))) {
			st = gp_cli_fail(GP_NO, "job '%s' does not fit the idle cluster: %s",
					 job.id ? job.id : "?", why);
			goto out;
		}
		o = open_memstream(&txt, &txtlen);
		if (!o) {
			st = gp_cli_fail(GP_EIO, "out of memory");
			goto out;
		}
		gp_sbuf_init(&sb);
		fmt_placement(c, &given, &sb);
		st = gp_perf_llm_report(c, &job, &given, sb.buf, eta, json, o,
					pg->path ? &answer : NULL);
		gp_sbuf_release(&sb);
		fclose(o);
		o = NULL;
		/* the page first (written or not at all), then the text */
		if (st == GP_OK && pg->path) {
			const char *names[2] = { "cluster", "job" };
			char *v[2], *title;

			v[0] = gp_xstrdup(pg->cluster);
			v[1] = gp_xasprintf("%s (%s)", job.id ? job.id : "", job_path);
			title = gp_xasprintf("gpuplan perf: job %s", job.id ? job.id : "");
			gp_sbuf_add(&pg->text, txt, txtlen);
			st = write_page(pg, title, names, (const char *const *)v, 2, answer, NULL, NULL);
			free(title);
			free(v[0]);
			free(v[1]);
		}
		free(answer);
		if (st == GP_OK)
			fwrite(txt, 1, txtlen, stdout);
		goto out;
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
	o = open_memstream(&txt, &txtlen);
	if (!o) {
		st = gp_cli_fail(GP_EIO, "out of memory");
		goto out;
	}
	if (json) {
		char *s;

		root = json_object();
		json_object_set_new(root, "job", json_string(job.id ? job.id : ""));
		if (have_given) {
			json_object_set_new(root, "placement", iter_json(c, disp, &it));
			json_object_set_new(root, "slowdown_vs_best",
					    json_real(bi.iter_s > 0 ? it.iter_s / bi.iter_s : 0));
		}
		json_object_set_new(root, "best", iter_json(c, &best, &bi));
		json_object_set_new(root, "worst", iter_json(c, &worst, &wi));
		s = json_dumps(root, JSON_SORT_KEYS | JSON_INDENT(2) | JSON_REAL_PRECISION(8));
		fprintf(o, "%s\n", s);
		free(s);
		json_decref(root);
	} else {
		fprintf(o, "job '%s'\n", job.id ? job.id : "");
		if (have_given) {
			print_iter(o, c, policy ? "placement (policy)" : "placement", disp, &it);
			fprintf(o, "  vs best     x%.3f\n", bi.iter_s > 0 ? it.iter_s / bi.iter_s : 0);
		}
		print_iter(o, c, "best on idle cluster", &best, &bi);
		print_iter(o, c, "worst on idle cluster", &worst, &wi);
	}
	fclose(o);
	o = NULL;
	st = GP_OK;
	if (pg->path) {
		job_table jt = { c, { 0 }, { 0 }, { 0 }, 0 };
		const char *names[2] = { "cluster", "job" };
		char *v[2], *title, *answer, tb[32], tw[32], tg[32];

		if (have_given) {
			jt.names[jt.n] = policy ? "placement (policy)" : "placement";
			jt.p[jt.n] = disp;
			jt.it[jt.n++] = &it;
		}
		jt.names[jt.n] = "best on the idle cluster";
		jt.p[jt.n] = &best;
		jt.it[jt.n++] = &bi;
		jt.names[jt.n] = "worst on the idle cluster";
		jt.p[jt.n] = &worst;
		jt.it[jt.n++] = &wi;
		fmt_time(bi.iter_s, tb, sizeof(tb));
		fmt_time(wi.iter_s, tw, sizeof(tw));
		v[0] = gp_xstrdup(pg->cluster);
		v[1] = gp_xasprintf("%s (%s)", job.id ? job.id : "", job_path);
		title = gp_xasprintf("gpuplan perf: job %s", job.id ? job.id : "");
		if (have_given) {
			fmt_time(it.iter_s, tg, sizeof(tg));
			answer = gp_xasprintf("Job %s iterates in %s on this placement, %.3f times the best "
					      "placement's %s (the worst takes %s).", job.id ? job.id : "",
					      tg, bi.iter_s > 0 ? it.iter_s / bi.iter_s : 0, tb, tw);
		} else {
			answer = gp_xasprintf("Job %s iterates in %s at best and %s at worst on the idle "
					      "cluster.", job.id ? job.id : "", tb, tw);
		}
		gp_sbuf_add(&pg->text, txt, txtlen);
		st = write_page(pg, title, names, (const char *const *)v, 2, answer, job_body, &jt);
		free(title);
		free(answer);
		free(v[0]);
		free(v[1]);
	}
	if (st == GP_OK)
		fwrite(txt, 1, txtlen, stdout);
out:
	if (o)
		fclose(o);
	free(txt);
	gp_placement_release(&given);
	gp_placement_release(&shown);
	gp_placement_release(&best);
	gp_placement_release(&worst);
	gp_job_release(&job);
	return st;
}

/* perf's command line. */
typedef struct perf_args {
	const char *cluster_path, *on, *policy, *size, *sweep, *format;
	int coll, algo, json, nccl;
	long seed, per_proc;
	double eta;
} perf_args;

/* The current option of o into a; 0 or the usage error's exit code. */
static int perf_opt(perf_args *a, perf_page *pg, gp_opt_state *o, int c)
{
	const char *arg = o->arg;

	switch (c) {
	case 'c': a->cluster_path = arg; return 0;
	case O_COLL:
		a->coll = gp_coll_parse(arg);
		if (a->coll < 0)
			return gp_opt_bad(o, "unknown collective '%s' (allreduce, allgather, reducescatter, broadcast, alltoall, sendrecv)", arg);
		return 0;
	case O_SIZE: a->size = arg; return 0;
	case O_SWEEP: a->sweep = arg; return 0;
	case O_ON: a->on = arg; return 0;
	case O_ALGO:
		a->algo = gp_algo_parse(arg);
		if (a->algo < 0)
			return gp_opt_bad(o, "unknown algorithm '%s' (auto, ring, tree, nvls, nvlstree, collnet, hierarchical, ps)", arg);
		return 0;
	case O_POLICY: a->policy = arg; return 0;
	case O_SEED: a->seed = o->l; return 0;
	case O_JSON: a->json = 1; return 0;
	case O_FORMAT:
		a->format = arg;
		if (!strcmp(arg, "nccl-tests"))
			a->nccl = 1;
		else if (strcmp(arg, "gpuplan"))
			return gp_opt_bad(o, "unknown --format '%s' (gpuplan, nccl-tests)", arg);
		return 0;
	case O_HTML: pg->path = arg; return 0;
	case O_GEMM: a->eta = o->v; return 0;
	case O_GPP: a->per_proc = o->l; return 0;
	}
	return 0;
}

int cmd_perf(int argc, char **argv)
{
	perf_args a = { .coll = -1, .algo = GP_ALGO_AUTO, .seed = 1, .per_proc = 1 };
	const char *cluster_path, *on, *policy, *size, *sweep, *format, *job = NULL;
	double lo = 0, hi = 0, factor = 2;
	int coll, algo, json, c = 0, st = GP_OK, nccl, nargs;
	perf_page pg;
	long seed;
	double bytes = 0, eta;
	gp_cluster cl;
	gp_error err = GP_ERROR_INIT;
	gp_opt_state o;

	gsl_set_error_handler_off();
	memset(&pg, 0, sizeof(pg));
	gp_opt_begin(&o, &gp_desc_perf, argc, argv);
	while (st == GP_OK && (c = gp_opt_next(&o)) > 0)
		st = perf_opt(&a, &pg, &o, c);
	if (st == GP_OK && c < 0)
		st = o.status;
	nargs = o.nargs;
	if (nargs)
		job = o.args[0];
	gp_opt_end(&o);
	if (st)
		return st;
	cluster_path = a.cluster_path;
	on = a.on;
	policy = a.policy;
	size = a.size;
	sweep = a.sweep;
	format = a.format;
	coll = a.coll;
	algo = a.algo;
	json = a.json;
	nccl = a.nccl;
	seed = a.seed;
	eta = a.eta;
	if (format && !sweep)
		return gp_cli_usage_error(CMD, "--format is for --sweep's table");
	if (nccl && json)
		return gp_cli_usage_error(CMD, "--format nccl-tests and --json exclude each other");
	if (coll >= 0) {
		if (nargs)
			return gp_cli_usage_error(CMD, "--collective takes no job file ('%s')", job);
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
		if (nargs != 1)
			return gp_cli_usage_error(CMD, "give --collective, or one JOB.yaml");
		if (on && policy)
			return gp_cli_usage_error(CMD, "--on and --policy exclude each other");
		if (size || sweep)
			return gp_cli_usage_error(CMD, "--size and --sweep are for --collective");
	}
	if (pg.path && gp_cli_make_parent(pg.path))
		return GP_EIO;
	gp_cluster_init(&cl);
	if (gp_cluster_load(cluster_path ? cluster_path : gp_cli_default_cluster(), &cl, &err))
		return gp_cli_report(&err);
	pg.cluster = cluster_path ? cluster_path : GP_BUNDLED_CLUSTER_LABEL;
	gp_sbuf_init(&pg.text);
	if (coll >= 0) {
		gp_placement p;

		gp_placement_init(&p);
		st = parse_on(&cl, on, &p);
		if (!st && sweep)
			st = run_sweep(&cl, coll, algo, (int)a.per_proc, lo, hi, factor, &p, json, nccl, &pg);
		else if (!st)
			st = run_collective(&cl, coll, algo, (int)a.per_proc, bytes, &p, json, &pg);
		gp_placement_release(&p);
	} else {
		st = run_job(&cl, job, on, policy, seed, eta, json, &pg);
	}
	gp_sbuf_release(&pg.text);
	gp_cluster_release(&cl);
	return st;
}
