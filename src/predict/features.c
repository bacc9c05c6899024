/* Feature vectors and GPU hardware features (predict.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gpuplan/predict/predict.h"
#include "gpuplan/util/util.h"

/* Compute capability and streaming multiprocessors (AMD: compute units,
 * capability 0) per catalog GPU, from the vendors' data sheets and the
 * CUDA C Programming Guide's compute-capability table.  K80 counts one
 * GK210 (13 SMX), as the catalog does. */
static const struct {
	const char *name;
	double cc;
	int sms;
} hw_table[] = {
	{ "K80", 3.7, 13 },
	{ "P100", 6.0, 56 }, { "P100-PCIE-16GB", 6.0, 56 }, { "P100-PCIE-12GB", 6.0, 56 },
	{ "V100-SXM2-16GB", 7.0, 80 }, { "V100-SXM2-32GB", 7.0, 80 },
	{ "V100-PCIE-16GB", 7.0, 80 }, { "V100-PCIE-32GB", 7.0, 80 },
	{ "V100S-PCIE-32GB", 7.0, 80 },
	{ "T4", 7.5, 40 }, { "RTX-2070", 7.5, 36 }, { "RTX-2080Ti", 7.5, 68 },
	{ "Quadro-RTX-6000", 7.5, 72 },
	{ "A10", 8.6, 72 }, { "A30", 8.0, 56 },
	{ "A100-SXM4-40GB", 8.0, 108 }, { "A100-SXM4-80GB", 8.0, 108 },
	{ "A100-PCIE-40GB", 8.0, 108 }, { "A100-PCIE-80GB", 8.0, 108 },
	{ "A40", 8.6, 84 }, { "RTX-3090", 8.6, 82 }, { "RTX-4090", 8.9, 128 },
	{ "L4", 8.9, 58 }, { "L40S", 8.9, 142 },
	{ "H100-SXM5-80GB", 9.0, 132 }, { "H100-PCIE-80GB", 9.0, 114 },
	{ "H800-SXM5-80GB", 9.0, 132 }, { "H20", 9.0, 78 }, { "H200", 9.0, 132 },
	{ "GH200", 9.0, 132 }, { "B200", 10.0, 148 },
	{ "MI250X", 0, 110 }, { "MI300X", 0, 304 },
};

int gp_pred_hw_of(const gp_gpu_model *m, gp_pred_hw *hw)
{
	size_t i;

	memset(hw, 0, sizeof(*hw));
	hw->mem_gib = m->mem_gib;
	hw->bw_gbs = m->mem_bw_gbs;
	hw->fp32 = m->fp32_tflops;
	hw->fp16 = m->fp16_tflops;
	for (i = 0; i < GP_ARRAY_SIZE(hw_table); i++)
		if (gp_catalog_name_eq(m->name, hw_table[i].name)) {
			hw->cc = hw_table[i].cc;
			hw->sms = hw_table[i].sms;
			return 0;
		}
	/* An unknown GPU (a cluster YAML's own model): SMs from the FP32
	 * peak at the Ampere ratio of about 0.18 TFLOPS per SM. */
	hw->sms = m->fp32_tflops > 0 ? m->fp32_tflops / 0.18 : 0;
	return -1;
}

static const char *const exec_names[7] = {
	"log2_batch", "log2_input", "log2_params", "log2_acts", "log2_batch_acts",
	"log2_iter_flops", "weight_layers",
};
static const char *const hw_names[8] = {
	"gpu_cc", "log2_gpu_mem_gib", "log2_gpu_sms", "log2_gpu_bw_gbs", "log2_gpu_fp32",
	"log2_gpu_fp16", "log2_roofline_compute", "log2_roofline_memory",
};

const char *gp_pred_feature_name(int i)
{
	static char names[2 * GP_OP_N][32];

	if (i < 0 || i >= GP_PRED_NFEAT)
		return "?";
	if (i < 2 * GP_OP_N) {
		if (!names[i][0])
			snprintf(names[i], sizeof(names[i]), "%s_%s", gp_pred_op_name(i / 2),
				 i % 2 ? "log2_max_in" : "count");
		return names[i];
	}
	i -= 2 * GP_OP_N;
	return i < 7 ? exec_names[i] : hw_names[i - 7];
}

static double lg(double v)
{
	return v > 0 ? log2(1 + v) : 0;
}

void gp_pred_features(const gp_pred_ops *o, double batch, const gp_pred_hw *hw, double *x)
{
	double iter_flops, k;
	int i, n = 0;

	if (!(batch >= 1))
		batch = o->default_batch > 0 ? o->default_batch : 1;
	iter_flops = o->flops * batch;
	for (i = 0; i < GP_OP_N; i++) {
		x[n++] = o->count[i];
		x[n++] = lg(o->max_in[i]);
	}
	x[n++] = log2(batch);
	x[n++] = lg(o->input);
	x[n++] = lg(o->params);
	x[n++] = lg(o->acts);
	x[n++] = lg(batch * o->acts);
	x[n++] = lg(iter_flops);
	x[n++] = o->depth;
	x[n++] = hw->cc;
	x[n++] = lg(hw->mem_gib);
	x[n++] = lg(hw->sms);
	x[n++] = lg(hw->bw_gbs);
	x[n++] = lg(hw->fp32);
	x[n++] = lg(hw->fp16);
	/* Seconds on the roofline, in log2 microseconds so that the small
	 * models stay positive: compute at the FP32 peak, memory traffic as
	 * 4-byte activations written and read in the forward and backward
	 * passes. */
	k = hw->fp32 > 0 ? iter_flops / (hw->fp32 * 1e12) * 1e6 : 0;
	x[n++] = lg(k);
	k = hw->bw_gbs > 0 ? batch * o->acts * 16.0 / (hw->bw_gbs * 1e9) * 1e6 : 0;
	x[n++] = lg(k);
}
