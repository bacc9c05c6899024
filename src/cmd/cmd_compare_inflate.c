/* gpuplan compare --inflate X: FGD's inflation experiment for several
 * sharing policies and seeds; curves at 10 % steps, CSV and SVG (the
 * paper's Fig. 7a and 9a). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gpuplan/fgd/fgd.h"
#include "gpuplan/io/openb.h"
#include "gpuplan/report/report.h"
#include "gpuplan/util/util.h"

#define CMD "compare"
#define MAX_SEEDS 1000

static int parse_policies(const char *s, int *list, int *n)
{
	char *copy = gp_xstrdup(s), *tok, *save = NULL;
	int bad = 0;

	*n = 0;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int p = gp_fgd_policy_parse(tok), k;

		if (p < 0) {
			bad = 1;
			break;
		}
		for (k = 0; k < *n; k++)
			if (list[k] == p)
				break;
		if (k == *n && *n < GP_FGD_NPOLICIES)
			list[(*n)++] = p;
	}
	free(copy);
	return bad || *n == 0 ? -1 : 0;
}

/* Add DIR/NAME to the output set; NULL (message printed) on failure. */
static FILE *add_output(gp_cli_outset *files, const char *dir, const char *name)
{
	char *path = gp_xasprintf("%s/%s", dir, name);
	FILE *fp = gp_cli_outset_add(files, path);

	free(path);
	return fp;
}

static int write_csv(gp_cli_outset *files, const char *dir, const char *name,
		     const gp_stats *st, int npol, const int *pol, int npoints,
		     int nseeds, unsigned long long first_seed)
{
	FILE *fp = add_output(files, dir, name);
	int p, x;

	if (!fp)
		return GP_EIO;
	fprintf(fp, "arrived_pct,policy,seeds,first_seed,mean,sd,min,max\n");
	for (p = 0; p < npol; p++)
		for (x = 0; x < npoints; x++) {
			const gp_stats *s = &st[p * npoints + x];

			fprintf(fp, "%d,%s,%d,%llu,%.4f,%.4f,%.2f,%.2f\n", x, gp_fgd_policy_name(pol[p]),
				nseeds, first_seed, s->mean, s->sd, s->min, s->max);
		}
	return GP_OK;
}

/* Mean curves with min..max bands over the seeds, through the one SVG
 * writer of report/ (which escapes every text). */
static int write_svg(gp_cli_outset *files, const char *dir, const char *name,
		     const char *title, const char *ylabel, const gp_stats *st,
		     int npol, const int *pol, int npoints, int nseeds, const char *trace)
{
	size_t n = (size_t)npoints, k = (size_t)npol * n;
	double *x = gp_xcalloc(n + 1, sizeof(*x)), *y = gp_xcalloc(3 * k + 1, sizeof(*y));
	gp_svg_series *se = gp_xcalloc((size_t)npol + 1, sizeof(*se));
	gp_svg_band *band = gp_xcalloc((size_t)npol + 1, sizeof(*band));
	char **labels = gp_xcalloc((size_t)npol + 1, sizeof(*labels));
	char *subtitle = gp_xasprintf("%s; mean of %d seed%s, band = min..max", trace, nseeds,
				      nseeds == 1 ? "" : "s");
	gp_svg_chart c = { 0 };
	gp_sbuf sb = { 0 };
	FILE *fp;
	size_t i;
	int p, rc = GP_OK;

	for (i = 0; i < n; i++)
		x[i] = (double)i;
	for (p = 0; p < npol; p++) {
		double *mean = y + (size_t)p * n, *lo = y + k + (size_t)p * n;
		double *hi = y + 2 * k + (size_t)p * n;

		for (i = 0; i < n; i++) {
			mean[i] = st[(size_t)p * n + i].mean;
			lo[i] = st[(size_t)p * n + i].min;
			hi[i] = st[(size_t)p * n + i].max;
		}
		labels[p] = gp_xasprintf("%s %.2f %% at %d %% arrived", gp_fgd_policy_label(pol[p]),
					 n ? mean[n - 1] : 0.0, npoints - 1);
		se[p] = (gp_svg_series){ labels[p], x, mean, n, 0 };
		band[p] = (gp_svg_band){ lo, hi };
	}
	c.title = title;
	c.subtitle = subtitle;
	c.x_title = "Arrived GPU demand (% of cluster GPU capacity)";
	c.y_title = ylabel;
	c.series = se;
	c.bands = band;
	c.nseries = npol;
	c.width = 840;
	c.height = 500;
	c.set_x = 1;
	c.x_max = npoints > 1 ? npoints - 1 : 1;
	/* where each chart has no data: allocation rises from the bottom
	 * left, fragmentation stays well above zero */
	c.legend = strstr(name, "allocation") ? GP_LEGEND_TOP_LEFT : GP_LEGEND_BOTTOM_LEFT;
	gp_svg_line_chart(&c, &sb);
	fp = add_output(files, dir, name);
	if (!fp)
		rc = GP_EIO;
	else if (sb.len)
		fwrite(sb.buf, 1, sb.len, fp);
	gp_sbuf_release(&sb);
	for (p = 0; p < npol; p++)
		free(labels[p]);
	free(labels);
	free(subtitle);
	free(se);
	free(band);
	free(y);
	free(x);
	return rc;
}

static void print_table(const char *what, const gp_stats *st, int npol, const int *pol, int npoints)
{
	int p, x;

	printf("\n%s (mean ± sd over seeds)\n%8s", what, "arrived%");
	for (p = 0; p < npol; p++)
		printf(" %15s", gp_fgd_policy_name(pol[p]));
	printf("\n");
	for (x = 0; x < npoints; x++) {
		if (x % 10 && x != npoints - 1)
			continue;
		printf("%8d", x);
		for (p = 0; p < npol; p++) {
			const gp_stats *s = &st[p * npoints + x];

			printf("  %6.2f ± %5.2f", s->mean, s->sd);
		}
		printf("\n");
	}
}

/* What the command line asks for. */
typedef struct inflate_args {
	const char *cluster, *trace, *csv, *svg, *seeds_arg;
	int pol[GP_FGD_NPOLICIES], npol, nseeds;
	unsigned long long seeds[MAX_SEEDS];
	double inflate;
} inflate_args;

/* Per policy and point: statistics over the seeds of the allocation,
 * fragmentation and fragmentation-ratio curves (s*), from the per-seed
 * values (v*). */
typedef struct inflate_curves {
	gp_stats *sa, *sf, *sr;
	double *va, *vf, *vr;
	int npoints, total_gpus;
} inflate_curves;

enum { O_INFLATE = 1, O_POLICIES, O_SEEDS, O_CSV, O_SVG };

static const gp_opt inflate_opts[] = {
	{ .name = "cluster", .sc = 'c', .key = 'c', .type = GP_OT_STR, .arg = "NODES.csv",
	  .help = "the openb node list (sn,cpu_milli,memory_mib,gpu,model)" },
	GP_OPT_INFLATE(O_INFLATE),
	{ .name = "policies", .key = O_POLICIES, .type = GP_OT_STR, .arg = "LIST",
	  .help = "sharing policies, comma-separated (default: all six, fgd first)" },
	{ .name = "seeds", .key = O_SEEDS, .type = GP_OT_STR, .arg = "LIST",
	  .help = "seeds: '42-51' (default), '1,5,9' or a mix" },
	{ .name = "csv", .key = O_CSV, .type = GP_OT_STR, .arg = "DIR",
	  .help = "write DIR/allocation.csv, DIR/fragmentation.csv and\n"
		  "DIR/fragmentation_ratio.csv (mean, sd, min, max per point)" },
	{ .name = "svg", .key = O_SVG, .type = GP_OT_STR, .arg = "DIR",
	  .help = "write DIR/allocation.svg and DIR/fragmentation.svg (mean\n"
		  "lines, min..max bands)" },
	{ 0 },
};

const gp_cmd_desc gp_desc_compare_inflate = {
	.name = "compare inflate", .cmd = "compare",
	.synopsis = "-c NODES.csv PODS.csv --inflate X [--policies LIST] [--seeds LIST]\n"
		    "  [--csv DIR] [--svg DIR]",
	.min_args = 0, .max_args = -1,
	.about = "FGD's workload-inflation experiment for several sharing policies and seeds:\n"
		 "allocation and fragmentation curves at 10 % steps of arrived GPU demand.\n"
		 "The old spelling, --inflate X among compare's options, runs it too.\n",
	.opts = inflate_opts,
};

static int parse_args(int argc, char **argv, inflate_args *ia)
{
	gp_opt_state o;
	int i, c = 0, status = GP_OK;

	ia->seeds_arg = "42-51";
	ia->npol = GP_FGD_NPOLICIES;
	for (i = 0; i < GP_FGD_NPOLICIES; i++)
		ia->pol[i] = GP_FGD_NPOLICIES - 1 - i; /* fgd first */
	gp_opt_begin(&o, &gp_desc_compare_inflate, argc, argv);
	while (status == GP_OK && (c = gp_opt_next(&o)) > 0) {
		switch (c) {
		case 'c': ia->cluster = o.arg; break;
		case O_INFLATE: ia->inflate = o.v; break;
		case O_POLICIES:
			if (parse_policies(o.arg, ia->pol, &ia->npol))
				status = gp_opt_bad(&o, "bad --policies '%s' (comma-separated from fgd, "
						    "fgd-bestfit, fgd-dotprod, fgd-gpu-packing, "
						    "fgd-gpu-clustering, fgd-random)", o.arg);
			break;
		case O_SEEDS: ia->seeds_arg = o.arg; break;
		case O_CSV: ia->csv = o.arg; break;
		case O_SVG: ia->svg = o.arg; break;
		}
	}
	if (status == GP_OK && c < 0)
		status = o.status;
	if (status == GP_OK)
		status = gp_fgd_cli_operands(&o, &ia->trace);
	gp_opt_end(&o);
	if (status)
		return status;
	ia->nseeds = (int)gp_cli_parse_seeds(ia->seeds_arg, ia->seeds, MAX_SEEDS);
	if (ia->nseeds < 0)
		return gp_cli_usage_error(CMD, "--seeds wants a list like '1-10' or '1,5,9' (at most %d seeds), got '%s'",
					  MAX_SEEDS, ia->seeds_arg);
	if ((status = gp_fgd_cli_require(CMD, ia->inflate > 0, ia->cluster, ia->trace)))
		return status;
	if ((ia->csv && gp_cli_make_dirs(ia->csv)) || (ia->svg && gp_cli_make_dirs(ia->svg)))
		return GP_EIO;
	return GP_OK;
}

static void curves_alloc(inflate_curves *cv, const inflate_args *ia, const gp_fgd_result *res)
{
	size_t n = (size_t)(ia->npol * res->npoints);

	cv->npoints = res->npoints;
	cv->total_gpus = res->total_gpus;
	cv->sa = gp_xcalloc(n, sizeof(gp_stats));
	cv->sf = gp_xcalloc(n, sizeof(gp_stats));
	cv->sr = gp_xcalloc(n, sizeof(gp_stats));
	cv->va = gp_xcalloc(n * (size_t)ia->nseeds, sizeof(double));
	cv->vf = gp_xcalloc(n * (size_t)ia->nseeds, sizeof(double));
	cv->vr = gp_xcalloc(n * (size_t)ia->nseeds, sizeof(double));
}

static void curves_release(inflate_curves *cv)
{
	free(cv->sa);
	free(cv->sf);
	free(cv->sr);
	free(cv->va);
	free(cv->vf);
	free(cv->vr);
}

/* Every policy x seed run; the curves' statistics over the seeds. */
static int run_all(const inflate_args *ia, const gp_openb_nodes *nodes, const gp_openb_pods *pods,
		   inflate_curves *cv)
{
	int p, k, x, ns = ia->nseeds, status;

	for (p = 0; p < ia->npol; p++) {
		for (k = 0; k < ns; k++) {
			gp_fgd_opts o = { ia->pol[p], ia->inflate, (long long)ia->seeds[k], 1, 0 };
			gp_fgd_result res;
			gp_error err = GP_ERROR_INIT;

			if ((status = gp_fgd_run(nodes, pods, &o, &res, &err))) {
				gp_cli_report(&err);
				return status;
			}
			if (!cv->sa)
				curves_alloc(cv, ia, &res);
			for (x = 0; x < cv->npoints; x++) {
				size_t at = ((size_t)p * (size_t)cv->npoints + (size_t)x) * (size_t)ns + (size_t)k;

				cv->va[at] = res.alloc_pct[x];
				cv->vf[at] = res.frag_pct[x];
				cv->vr[at] = res.frag_ratio_pct[x];
			}
			gp_fgd_result_release(&res);
		}
		for (x = 0; x < cv->npoints; x++) {
			size_t at = ((size_t)p * (size_t)cv->npoints + (size_t)x) * (size_t)ns;
			int i = p * cv->npoints + x;

			cv->sa[i] = gp_stats_of(cv->va + at, (size_t)ns);
			cv->sf[i] = gp_stats_of(cv->vf + at, (size_t)ns);
			cv->sr[i] = gp_stats_of(cv->vr + at, (size_t)ns);
		}
	}
	return GP_OK;
}

static void print_report(const inflate_args *ia, const inflate_curves *cv, const char *base)
{
	int p, npoints = cv->npoints, w = 15;

	printf("inflation %g on %s: %d policies x %d seeds (%s), %d GPUs\n", ia->inflate, base, ia->npol,
	       ia->nseeds, ia->seeds_arg, cv->total_gpus);
	print_table("GPU allocation ratio, % of GPU capacity", cv->sa, ia->npol, ia->pol, npoints);
	print_table("Fragmented GPUs (FGD measure), % of GPU capacity", cv->sf, ia->npol, ia->pol, npoints);
	printf("\nat %d %% arrived: allocated %% (min..max), unallocated GPUs\n", npoints - 1);
	/* the names' column as wide as the longest (fgd-gpu-clustering has 18) */
	for (p = 0; p < ia->npol; p++)
		if ((int)strlen(gp_fgd_policy_name(ia->pol[p])) > w)
			w = (int)strlen(gp_fgd_policy_name(ia->pol[p]));
	for (p = 0; p < ia->npol; p++) {
		const gp_stats *s = &cv->sa[p * npoints + npoints - 1];

		printf("  %-*s %6.2f (%6.2f..%6.2f) %8.1f\n", w, gp_fgd_policy_name(ia->pol[p]), s->mean,
		       s->min, s->max, (100.0 - s->mean) / 100.0 * cv->total_gpus);
	}
}

/* CSV and SVG files are all written or none. */
static int write_files(const inflate_args *ia, const inflate_curves *cv, const char *base)
{
	const char *csv = ia->csv, *svg = ia->svg;
	const int *pol = ia->pol;
	int npol = ia->npol, np = cv->npoints, ns = ia->nseeds, status = GP_OK;
	unsigned long long s0 = ia->seeds[0];
	gp_cli_outset files = { 0 };

	if (csv && ((status = write_csv(&files, csv, "allocation.csv", cv->sa, npol, pol, np, ns, s0)) ||
		    (status = write_csv(&files, csv, "fragmentation.csv", cv->sf, npol, pol, np, ns, s0)) ||
		    (status = write_csv(&files, csv, "fragmentation_ratio.csv", cv->sr, npol, pol, np, ns, s0))))
		goto out;
	if (svg && ((status = write_svg(&files, svg, "allocation.svg", "GPU allocation ratio under workload inflation",
					"GPUs allocated (% of capacity)", cv->sa, npol, pol, np, ns, base)) ||
		    (status = write_svg(&files, svg, "fragmentation.svg", "GPU fragmentation under workload inflation",
					"Fragmented GPUs (% of capacity)", cv->sf, npol, pol, np, ns, base))))
		goto out;
	status = gp_cli_outset_commit(&files);
out:
	gp_cli_outset_release(&files);
	return status;
}

int gp_cmd_compare_inflate(int argc, char **argv)
{
	inflate_args ia = { 0 };
	inflate_curves cv = { 0 };
	gp_openb_nodes nodes;
	gp_openb_pods pods;
	const char *base;
	int status;

	if ((status = parse_args(argc, argv, &ia)))
		return status;
	if ((status = gp_fgd_cli_load(ia.cluster, ia.trace, &nodes, &pods)))
		return status;
	if (!(status = run_all(&ia, &nodes, &pods, &cv))) {
		base = strrchr(ia.trace, '/') ? strrchr(ia.trace, '/') + 1 : ia.trace;
		print_report(&ia, &cv, base);
		status = write_files(&ia, &cv, base);
	}
	curves_release(&cv);
	gp_openb_pods_release(&pods);
	gp_openb_nodes_release(&nodes);
	return status;
}
