/* The llm parts of estimate and perf (cmd_estimate_llm.c, cmd_perf_llm.c). */
#ifndef GPUPLAN_CMD_LLM_INT_H
#define GPUPLAN_CMD_LLM_INT_H

#include <stddef.h>
#include <stdio.h>

#include "gpuplan/model/job.h"
#include "gpuplan/model/memory.h"
#include "gpuplan/model/cluster.h"
#include "gpuplan/model/placement.h"

/* "tp 8, pp 4 x vp 5, cp 1, dp 2, zero1, recompute selective" */
void gp_llm_layout_str(const gp_llm *l, char *buf, size_t n);
/* estimate's output for a type llm job (e from gp_memory_estimate). */
int gp_estimate_llm(const gp_job *j, const gp_mem_estimate *e, int json);

/* "1.234 s", "12.345 ms" or "3.210 us". */
void gp_perf_fmt_time(double s, char *buf, size_t n);
/* The llm layout of job j on the idle cluster into p; -1 (why filled)
 * when it does not fit. */
int gp_perf_llm_place(const gp_cluster *c, const gp_job *j, gp_placement *p, char *why,
		      size_t n);
/* perf's report for an llm job on placement p (placement_str: p for
 * people), written to o; answer (when not NULL) gets the one-sentence
 * answer of an --html page (free it). */
int gp_perf_llm_report(const gp_cluster *c, const gp_job *j, const gp_placement *p,
		       const char *placement_str, double eta, int json, FILE *o, char **answer);

#endif
