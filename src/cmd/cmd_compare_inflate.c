/* gpuplan compare --inflate X: FGD's inflation experiment for several
 * sharing policies and seeds; curves at 10 % steps, CSV and SVG (the
 * paper's Fig. 7a and 9a). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gpuplan/fgd/fgd.h"
#include "gpuplan/io/openb.h"
#include "gpuplan/util/util.h"

#define CMD "compare"
#define MAX_SEEDS 1000

static const char *const palette[GP_SHARE_NPOLICIES] = {
	"#7f7f7f", "#9467bd", "#2ca02c", "#ff7f0e", "#1f77b4", "#d62728",
};

static int parse_seeds(const char *s, long *lo, long *hi)
{
	const char *dash = strchr(s, '-');
	char buf[64];

	if (!dash)
		return gp_parse_long(s, 0, 2147483646L, lo) ? -1 : (*hi = *lo, 0);
	if ((size_t)(dash - s) >= sizeof(buf))
		return -1;
	memcpy(buf, s, (size_t)(dash - s));
	buf[dash - s] = '\0';
	if (gp_parse_long(buf, 0, 2147483646L, lo) || gp_parse_long(dash + 1, 0, 2147483646L, hi))
		return -1;
	return *hi < *lo || *hi - *lo >= MAX_SEEDS ? -1 : 0;
}

static int parse_policies(const char *s, int *list, int *n)
{
	char *copy = gp_xstrdup(s), *tok, *save = NULL;
	int bad = 0;

	*n = 0;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int p = gp_share_policy_parse(tok), k;

		if (p < 0) {
			bad = 1;
			break;
		}
		for (k = 0; k < *n; k++)
			if (list[k] == p)
				break;
		if (k == *n && *n < GP_SHARE_NPOLICIES)
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
		     int nseeds, long seed_lo)
{
	FILE *fp = add_output(files, dir, name);
	int p, x;

	if (!fp)
		return GP_EIO;
	fprintf(fp, "arrived_pct,policy,seeds,first_seed,mean,sd,min,max\n");
	for (p = 0; p < npol; p++)
		for (x = 0; x < npoints; x++) {
			const gp_stats *s = &st[p * npoints + x];

			fprintf(fp, "%d,%s,%d,%ld,%.4f,%.4f,%.2f,%.2f\n", x, gp_share_policy_name(pol[p]),
				nseeds, seed_lo, s->mean, s->sd, s->min, s->max);
		}
	return GP_OK;
}

/* A line chart of mean curves with min..max bands; written by hand so
 * that gpuplan needs no plotting library. */
static int write_svg(gp_cli_outset *files, const char *dir, const char *name,
		     const char *title, const char *ylabel, const gp_stats *st,
		     int npol, const int *pol, int npoints, int nseeds, const char *trace)
{
	const double W = 840, H = 500, L = 78, R = 210, T = 56, B = 64;
	const double pw = W - L - R, ph = H - T - B;
	double ymax = 0, ystep, xmax = npoints - 1;
	int p, x, k;
	FILE *fp;

	for (k = 0; k < npol * npoints; k++)
		if (st[k].max > ymax)
			ymax = st[k].max;
	ystep = ymax > 50 ? 10 : ymax > 20 ? 5 : ymax > 8 ? 2 : 1;
	ymax = ceil(ymax / ystep) * ystep;
	if (ymax <= 0)
		ymax = ystep;
	fp = add_output(files, dir, name);
	if (!fp)
		return GP_EIO;
#define PX(v) (L + (v) / xmax * pw)
#define PY(v) (T + ph - (v) / ymax * ph)
	fprintf(fp, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		    "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"13\">\n",
		W, H, W, H);
	fprintf(fp, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
	fprintf(fp, "<text x=\"%.1f\" y=\"24\" font-size=\"16\" text-anchor=\"middle\">%s</text>\n",
		L + pw / 2, title);
	fprintf(fp, "<text x=\"%.1f\" y=\"42\" font-size=\"12\" fill=\"#555\" text-anchor=\"middle\">"
		    "%s; mean of %d seed%s, band = min..max</text>\n",
		L + pw / 2, trace, nseeds, nseeds == 1 ? "" : "s");
	/* grid and ticks */
	for (x = 0; x <= (int)xmax; x += 10) {
		fprintf(fp, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n",
			PX(x), T, PX(x), T + ph);
		fprintf(fp, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%d</text>\n", PX(x), T + ph + 18, x);
	}
	for (k = 0; k * ystep <= ymax + 1e-9; k++) {
		double y = k * ystep;

		fprintf(fp, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n",
			L, PY(y), L + pw, PY(y));
		fprintf(fp, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n", L - 6, PY(y) + 4, y);
	}
	fprintf(fp, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"#333\"/>\n",
		L, T, pw, ph);
	fprintf(fp, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">Arrived GPU demand (%% of cluster GPU capacity)</text>\n",
		L + pw / 2, H - 18);
	fprintf(fp, "<text transform=\"translate(20,%.1f) rotate(-90)\" text-anchor=\"middle\">%s</text>\n",
		T + ph / 2, ylabel);
	for (p = 0; p < npol; p++) {
		const gp_stats *s = st + p * npoints;

		fprintf(fp, "<polygon fill=\"%s\" fill-opacity=\"0.15\" stroke=\"none\" points=\"", palette[pol[p]]);
		for (x = 0; x < npoints; x++)
			fprintf(fp, "%.1f,%.1f ", PX(x), PY(s[x].max));
		for (x = npoints - 1; x >= 0; x--)
			fprintf(fp, "%.1f,%.1f ", PX(x), PY(s[x].min));
		fprintf(fp, "\"/>\n<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", palette[pol[p]]);
		for (x = 0; x < npoints; x++)
			fprintf(fp, "%.1f,%.1f ", PX(x), PY(s[x].mean));
		fprintf(fp, "\"/>\n");
	}
	/* legend, with the value at the last point */
	for (p = 0; p < npol; p++) {
		double ly = T + 14 + p * 22;

		fprintf(fp, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"3\"/>\n",
			L + pw + 14, ly, L + pw + 38, ly, palette[pol[p]]);
		fprintf(fp, "<text x=\"%.1f\" y=\"%.1f\">%s %.2f %%</text>\n", L + pw + 44, ly + 4,
			gp_share_policy_label(pol[p]), st[p * npoints + npoints - 1].mean);
	}
	fprintf(fp, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" fill=\"#555\">value at %d %% arrived</text>\n",
		L + pw + 14, T + 14 + npol * 22, npoints - 1);
	fprintf(fp, "</svg>\n");
#undef PX
#undef PY
	return GP_OK;
}

static void print_table(const char *what, const gp_stats *st, int npol, const int *pol, int npoints)
{
	int p, x;

	printf("\n%s (mean ± sd over seeds)\n%8s", what, "arrived%");
	for (p = 0; p < npol; p++)
		printf(" %15s", gp_share_policy_name(pol[p]));
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
	int pol[GP_SHARE_NPOLICIES], npol = GP_SHARE_NPOLICIES, i, p, x, status = GP_OK;
	long seed_lo = 42, seed_hi = 51;
	double inflate = 0;
	gp_openb_nodes nodes;
	gp_openb_pods pods;
	gp_stats *sa = NULL, *sf = NULL, *sr = NULL;
	double *va = NULL, *vf = NULL, *vr = NULL;
	int npoints = 0, nseeds, total_gpus = 0;
	const char *base;
	gp_cli_outset files = { 0 };

	for (i = 0; i < GP_SHARE_NPOLICIES; i++)
		pol[i] = GP_SHARE_NPOLICIES - 1 - i; /* fgd first */
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
				if (gp_parse_double(v, 0.01, GP_SHARE_MAX_INFLATE, &inflate))
					return gp_cli_usage_error(CMD, "--inflate '%s' is not a number in 0.01..%g",
								  v, GP_SHARE_MAX_INFLATE);
			} else if (!strcmp(a, "--policies")) {
				if (parse_policies(v, pol, &npol))
					return gp_cli_usage_error(CMD, "bad --policies '%s' (comma-separated from fgd, "
								  "bestfit, dotprod, gpu-packing, gpu-clustering, random)", v);
			} else if (!strcmp(a, "--seeds")) {
				if (parse_seeds(v, &seed_lo, &seed_hi))
					return gp_cli_usage_error(CMD, "bad --seeds '%s' (N or A-B, at most %d seeds)",
								  v, MAX_SEEDS);
			} else if (!strcmp(a, "--csv"))
				csv = v;
			else
				svg = v;
		} else if ((status = gp_share_cli_operand(CMD, a, &trace))) {
			return status;
		}
	}
	if ((status = gp_share_cli_require(CMD, inflate > 0, cluster, trace)))
		return status;
	if ((status = gp_share_cli_load(cluster, trace, &nodes, &pods)))
		return status;
	nseeds = (int)(seed_hi - seed_lo + 1);
	for (p = 0; p < npol; p++) {
		long s;

		for (s = seed_lo; s <= seed_hi; s++) {
			gp_share_opts o = { pol[p], inflate, s, 1, 0 };
			gp_share_result res;
			gp_error err = GP_ERROR_INIT;
			int k = (int)(s - seed_lo);

			if ((status = gp_share_run(&nodes, &pods, &o, &res, &err))) {
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
			gp_share_result_release(&res);
		}
		for (x = 0; x < npoints; x++) {
			size_t at = ((size_t)p * (size_t)npoints + (size_t)x) * (size_t)nseeds;

			sa[p * npoints + x] = gp_stats_of(va + at, (size_t)nseeds);
			sf[p * npoints + x] = gp_stats_of(vf + at, (size_t)nseeds);
			sr[p * npoints + x] = gp_stats_of(vr + at, (size_t)nseeds);
		}
	}
	base = strrchr(trace, '/') ? strrchr(trace, '/') + 1 : trace;
	printf("inflation %g on %s: %d policies x %d seeds (%ld-%ld), %d GPUs\n", inflate, base, npol,
	       nseeds, seed_lo, seed_hi, total_gpus);
	print_table("GPU allocation ratio, % of GPU capacity", sa, npol, pol, npoints);
	print_table("Fragmented GPUs (FGD measure), % of GPU capacity", sf, npol, pol, npoints);
	printf("\nat %d %% arrived: allocated %% (min..max), unallocated GPUs\n", npoints - 1);
	for (p = 0; p < npol; p++) {
		const gp_stats *s = &sa[p * npoints + npoints - 1];

		printf("  %-15s %6.2f (%6.2f..%6.2f) %8.1f\n", gp_share_policy_name(pol[p]), s->mean, s->min,
		       s->max, (100.0 - s->mean) / 100.0 * total_gpus);
	}
	/* CSV and SVG files are all written or none. */
	if (csv && ((status = write_csv(&files, csv, "allocation.csv", sa, npol, pol, npoints, nseeds, seed_lo)) ||
		    (status = write_csv(&files, csv, "fragmentation.csv", sf, npol, pol, npoints, nseeds, seed_lo)) ||
		    (status = write_csv(&files, csv, "fragmentation_ratio.csv", sr, npol, pol, npoints, nseeds, seed_lo))))
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
