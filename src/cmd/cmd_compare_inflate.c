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

int gp_cmd_compare_inflate(int argc, char **argv)
{
	const char *cluster = NULL, *trace = NULL, *csv = NULL, *svg = NULL;
	int pol[GP_FGD_NPOLICIES], npol = GP_FGD_NPOLICIES, i, p, x, status = GP_OK;
	const char *seeds_arg = "42-51";
	unsigned long long seeds[MAX_SEEDS];
	double inflate = 0;
	gp_openb_nodes nodes;
	gp_openb_pods pods;
	gp_stats *sa = NULL, *sf = NULL, *sr = NULL;
	double *va = NULL, *vf = NULL, *vr = NULL;
	int npoints = 0, nseeds, total_gpus = 0;
	const char *base;
	gp_cli_outset files = { 0 };

	for (i = 0; i < GP_FGD_NPOLICIES; i++)
		pol[i] = GP_FGD_NPOLICIES - 1 - i; /* fgd first */
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "-c") || !strcmp(a, "--cluster") || !strcmp(a, "--inflate") ||
		    !strcmp(a, "--policies") || !strcmp(a, "--seeds") || !strcmp(a, "--csv") ||
		    !strcmp(a, "--svg")) {
			if (!v)
				return gp_cli_usage_error(CMD, "option '%s' needs a value", a);
			i++;
			if (!strcmp(a, "-c") || !strcmp(a, "--cluster"))
				cluster = v;
			else if (!strcmp(a, "--inflate")) {
				if (gp_parse_double(v, 0.01, GP_FGD_MAX_INFLATE, &inflate))
					return gp_cli_usage_error(CMD, "--inflate '%s' is not a number in 0.01..%g",
								  v, GP_FGD_MAX_INFLATE);
			} else if (!strcmp(a, "--policies")) {
				if (parse_policies(v, pol, &npol))
					return gp_cli_usage_error(CMD, "bad --policies '%s' (comma-separated from fgd, "
								  "fgd-bestfit, fgd-dotprod, fgd-gpu-packing, "
								  "fgd-gpu-clustering, fgd-random)", v);
			} else if (!strcmp(a, "--seeds")) {
				seeds_arg = v;
			} else if (!strcmp(a, "--csv"))
				csv = v;
			else
				svg = v;
		} else if ((status = gp_fgd_cli_operand(CMD, a, &trace))) {
			return status;
		}
	}
	nseeds = (int)gp_cli_parse_seeds(seeds_arg, seeds, MAX_SEEDS);
	if (nseeds < 0)
		return gp_cli_usage_error(CMD, "--seeds wants a list like '1-10' or '1,5,9' (at most %d seeds), got '%s'",
					  MAX_SEEDS, seeds_arg);
	if ((status = gp_fgd_cli_require(CMD, inflate > 0, cluster, trace)))
		return status;
	if ((csv && gp_cli_make_dirs(csv)) || (svg && gp_cli_make_dirs(svg)))
		return GP_EIO;
	if ((status = gp_fgd_cli_load(cluster, trace, &nodes, &pods)))
		return status;
	for (p = 0; p < npol; p++) {
		int k;

		for (k = 0; k < nseeds; k++) {
			gp_fgd_opts o = { pol[p], inflate, (long long)seeds[k], 1, 0 };
			gp_fgd_result res;
			gp_error err = GP_ERROR_INIT;

			if ((status = gp_fgd_run(&nodes, &pods, &o, &res, &err))) {
				gp_cli_report(&err);
				goto out;
			}
			if (!sa) {
				npoints = res.npoints;
				total_gpus = res.total_gpus;
				sa = gp_xcalloc((size_t)(npol * npoints), sizeof(gp_stats));
				sf = gp_xcalloc((size_t)(npol * npoints), sizeof(gp_stats));
				sr = gp_xcalloc((size_t)(npol * npoints), sizeof(gp_stats));
				va = gp_xcalloc((size_t)(npol * npoints * nseeds), sizeof(double));
				vf = gp_xcalloc((size_t)(npol * npoints * nseeds), sizeof(double));
				vr = gp_xcalloc((size_t)(npol * npoints * nseeds), sizeof(double));
			}
			for (x = 0; x < npoints; x++) {
				size_t at = ((size_t)p * (size_t)npoints + (size_t)x) * (size_t)nseeds + (size_t)k;

				va[at] = res.alloc_pct[x];
				vf[at] = res.frag_pct[x];
				vr[at] = res.frag_ratio_pct[x];
			}
			gp_fgd_result_release(&res);
		}
		for (x = 0; x < npoints; x++) {
			size_t at = ((size_t)p * (size_t)npoints + (size_t)x) * (size_t)nseeds;

			sa[p * npoints + x] = gp_stats_of(va + at, (size_t)nseeds);
			sf[p * npoints + x] = gp_stats_of(vf + at, (size_t)nseeds);
			sr[p * npoints + x] = gp_stats_of(vr + at, (size_t)nseeds);
		}
	}
	base = strrchr(trace, '/') ? strrchr(trace, '/') + 1 : trace;
	printf("inflation %g on %s: %d policies x %d seeds (%s), %d GPUs\n", inflate, base, npol,
	       nseeds, seeds_arg, total_gpus);
	print_table("GPU allocation ratio, % of GPU capacity", sa, npol, pol, npoints);
	print_table("Fragmented GPUs (FGD measure), % of GPU capacity", sf, npol, pol, npoints);
	printf("\nat %d %% arrived: allocated %% (min..max), unallocated GPUs\n", npoints - 1);
	for (p = 0; p < npol; p++) {
		const gp_stats *s = &sa[p * npoints + npoints - 1];

		printf("  %-15s %6.2f (%6.2f..%6.2f) %8.1f\n", gp_fgd_policy_name(pol[p]), s->mean, s->min,
		       s->max, (100.0 - s->mean) / 100.0 * total_gpus);
	}
	/* CSV and SVG files are all written or none. */
	if (csv && ((status = write_csv(&files, csv, "allocation.csv", sa, npol, pol, npoints, nseeds, seeds[0])) ||
		    (status = write_csv(&files, csv, "fragmentation.csv", sf, npol, pol, npoints, nseeds, seeds[0])) ||
		    (status = write_csv(&files, csv, "fragmentation_ratio.csv", sr, npol, pol, npoints, nseeds, seeds[0]))))
		goto out;
	if (svg && ((status = write_svg(&files, svg, "allocation.svg", "GPU allocation ratio under workload inflation",
					"GPUs allocated (% of capacity)", sa, npol, pol, npoints, nseeds, base)) ||
		    (status = write_svg(&files, svg, "fragmentation.svg", "GPU fragmentation under workload inflation",
					"Fragmented GPUs (% of capacity)", sf, npol, pol, npoints, nseeds, base))))
		goto out;
	status = gp_cli_outset_commit(&files);
out:
	gp_cli_outset_release(&files);
	free(sa);
	free(sf);
	free(sr);
	free(va);
	free(vf);
	free(vr);
	gp_openb_pods_release(&pods);
	gp_openb_nodes_release(&nodes);
	return status;
}
