/* The GPU catalog: a built-in table of accelerator facts that a cluster
 * YAML may extend or override (models-and-failures.md §B–C). */
#ifndef GPUPLAN_CATALOG_H
#define GPUPLAN_CATALOG_H

typedef struct gp_gpu_model {
	char name[48];          /* "A100-SXM4-80GB" */
	double mem_gib;         /* device memory */
	double mem_bw_gbs;      /* HBM/GDDR bandwidth, GB/s */
	double fp16_tflops;     /* peak dense FP16/BF16 tensor */
	double fp32_tflops;     /* peak FP32 */
	int nvlink_gen;         /* 0 = none */
	double nvlink_gbs_per_link; /* unidirectional GB/s per link */
	int nvlink_links;       /* links per GPU */
	int pcie_gen;           /* 3, 4, 5, 6 */
	int pcie_lanes;         /* 16 */
	/* Calibrated model parameters (issue 6); 0 = use defaults. */
	double efficiency;      /* achieved / peak FLOPS for dense training */
	double alpha_us;        /* per-step collective latency */
	double overlap;         /* share of communication hidden by compute */
} gp_gpu_model;

typedef struct gp_catalog {
	gp_gpu_model *models;
	int n, cap;
} gp_catalog;

/* Fill with the built-in models (a fresh copy the caller owns). */
void gp_catalog_init_builtin(gp_catalog *cat);
void gp_catalog_release(gp_catalog *cat);
/* Case-insensitive lookup; NULL when absent. */
const gp_gpu_model *gp_catalog_find(const gp_catalog *cat, const char *name);
/* Add, or replace the entry of the same name; returns its index. */
int gp_catalog_put(gp_catalog *cat, const gp_gpu_model *m);

#endif
