/* The GPU catalog: a built-in table of accelerator facts that a cluster
 * YAML may extend or override (models-and-failures.md §B–C).
 *
 * One entry describes one device as the driver lists it: a K80 entry is
 * one GK210 (half a board), an MI250X entry is one GCD (half an OAM).
 * TFLOPS are dense peaks; fp16_tflops is the tensor/matrix-core FP16/BF16
 * peak (the FP32 peak where the GPU has no fast FP16, e.g. K80). */
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
	/* Calibrated model parameters; 0 = use defaults. */
	double efficiency;      /* achieved / peak FLOPS for dense training */
	double alpha_us;        /* per-step collective latency */
	double overlap;         /* share of communication hidden by compute */
	/* Added by the catalog owner. */
	double nvlink_nccl_gbs; /* NCCL's effective GB/s per link (0 = none) */
	int tdp_w;              /* board power, W */
	int bf16;               /* 1 when BF16 is supported natively */
	char vendor[16];        /* "NVIDIA", "AMD" */
} gp_gpu_model;

typedef struct gp_catalog {
	gp_gpu_model *models;
	int n, cap;
} gp_catalog;

/* Fill with the built-in models (a fresh copy the caller owns). */
void gp_catalog_init_builtin(gp_catalog *cat);
void gp_catalog_release(gp_catalog *cat);
/* Lookup ignoring case and the separators '-', '_' and ' ', so that
 * "a100_sxm4_80gb" finds "A100-SXM4-80GB"; a leading "NVIDIA " or "Tesla "
 * is skipped, and a few trace spellings are aliases ("V100M32" ->
 * "V100-SXM2-32GB").  NULL when absent. */
const gp_gpu_model *gp_catalog_find(const gp_catalog *cat, const char *name);
/* Index of the entry gp_catalog_find would return, or -1. */
/* Whether a job's gpu_model entry want admits the catalog model name: the
 * same name (case, separators and a vendor prefix ignored), a family whose
 * words are all, in order, words of name ("V100" admits every V100, not
 * V100S; "A100-80GB" both 80 GB A100s), or an alias of name (V100M32). */
int gp_catalog_admits(const char *want, const char *name);
int gp_catalog_index(const gp_catalog *cat, const char *name);
/* Whether two model names denote the same entry under those rules. */
int gp_catalog_name_eq(const char *a, const char *b);
/* Add, or replace the entry of the same name; returns its index. */
int gp_catalog_put(gp_catalog *cat, const gp_gpu_model *m);

#endif
