/* The answer of a what-if sweep: a text table (one row per configuration,
 * means over seeds), JSON (every run, the best configuration, the SLO),
 * CSV (one row per run) and an SVG of one metric against the swept axis
 * with the SLO bound drawn.  Only configurations whose every seed is known
 * are reported. */
#ifndef GPUPLAN_WHATIF_ANSWER_H
#define GPUPLAN_WHATIF_ANSWER_H

#include <jansson.h>

#include "gpuplan/model/cluster.h"
#include "gpuplan/util/util.h"
#include "gpuplan/whatif/sweep.h"

/* The metric value for people: "1h02m", "58.5 %", "12", "1.25". */
const char *gp_whatif_fmt(char *buf, size_t size, int metric, double v);

/* The question for people: "queue_delay.p90 <= 1h00m", "every tenant's
 * queue_delay.p90 <= 1h00m", or both joined by "and". */
const char *gp_whatif_slo_text(const gp_whatif_spec *s, char *buf, size_t size);

/* best: gp_whatif_best's answer, or GP_WHATIF_BEST_UNKNOWN for a sweep
 * that stopped early; metric: -1 = default. */
#define GP_WHATIF_BEST_UNKNOWN (-2)
void gp_whatif_answer_text(const gp_whatif_results *rs, const gp_cluster *base, long best,
			   int metric, gp_sbuf *out);
json_t *gp_whatif_answer_json(const gp_whatif_results *rs, const gp_cluster *base, long best);
void gp_whatif_answer_csv(const gp_whatif_results *rs, const gp_cluster *base, gp_sbuf *out);
void gp_whatif_answer_svg(const gp_whatif_results *rs, long best, int metric, gp_sbuf *out);
/* The --html page: the inputs (names[i], values[i]), the best
 * configuration first, the frontier chart (the SLO line, the chosen
 * point ringed) and the table. */
void gp_whatif_answer_html(const gp_whatif_results *rs, const gp_cluster *base, long best,
			   int metric, const char *title, const char *const *names,
			   const char *const *values, size_t n, gp_sbuf *out);

#endif
