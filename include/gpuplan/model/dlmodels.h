/* The DL model catalog: what a job trains, by name.  Used by the job-spec
 * loader (model: resnet50), the memory estimator and the perf model.
 * Facts come from the papers and model cards named per entry in
 * src/perf/models.c; entries marked approx are order-of-magnitude figures
 * for models that public traces name without pinning the architecture. */
#ifndef GPUPLAN_MODELS_H
#define GPUPLAN_MODELS_H

#include "gpuplan/model/job.h"

enum gp_model_kind {
	GP_MODEL_CNN = 0,
	GP_MODEL_TRANSFORMER,
	GP_MODEL_RNN,
	GP_MODEL_MLP,
};

/* CNN families whose per-layer output sizes are generated from the
 * architecture and the input shape (gp_model_layer_outputs). */
enum gp_model_arch {
	GP_ARCH_NONE = 0,
	GP_ARCH_VGG11, GP_ARCH_VGG16, GP_ARCH_VGG19,
	GP_ARCH_RESNET18, GP_ARCH_RESNET34, GP_ARCH_RESNET50,
	GP_ARCH_RESNET101, GP_ARCH_RESNET152,
	GP_ARCH_RESNET18_CIFAR,
	GP_ARCH_ALEXNET,
};

typedef struct gp_dl_model {
	const char *name;       /* catalog key: lower case, '-' separated */
	const char *aliases;    /* '|'-separated names used by traces, or "" */
	int kind;               /* enum gp_model_kind */
	int arch;               /* enum gp_model_arch */
	double params;          /* parameter count */
	int layers;             /* weight layers (CNN) or transformer blocks */
	int hidden;             /* transformer / RNN hidden size, 0 for CNNs */
	int heads;              /* attention heads, 0 unknown */
	int kv_heads;           /* key/value heads (GQA), 0 = heads */
	int ffn;                /* feed-forward size, 0 unknown */
	int vocab;              /* vocabulary, 0 unknown */
	int seq_len;            /* default sequence length (transformers) */
	int input_c, input_h, input_w; /* default input shape (CNNs) */
	double fwd_gflops;      /* forward GFLOPs per sample at the default
				 * input (CNN, RNN, MLP); transformers derive */
	int approx;             /* 1 when the figures are approximate */
	const char *source;
} gp_dl_model;

/* Case-insensitive lookup by name or alias; '-', '_' and '.' are ignored
 * ("ResNet_50" finds resnet50).  NULL when unknown. */
const gp_dl_model *gp_model_find(const char *name);
const gp_dl_model *gp_model_list(int *n);
/* The catalog name closest to name (for "did you mean"), or NULL. */
const char *gp_model_suggest(const char *name);

/* Per-layer output sizes (elements per sample) of a CNN for an input of
 * h x w pixels (0 = the model's default): one entry per convolution or
 * fully connected layer, projection shortcuts included.  Returns the
 * number of layers written (at most cap), 0 when the model has no
 * generated architecture, -1 when cap is too small or the input too small. */
int gp_model_layer_outputs(const gp_dl_model *m, int h, int w, double *out, int cap);

/* Training FLOPs per sample (forward + backward = 3 x forward).
 * Transformers: 6 N s + 12 L h s^2 for sequence length s (0 = default);
 * others: 3 x fwd_gflops scaled by the input area for CNNs. */
double gp_model_train_flops(const gp_dl_model *m, int h, int w, int seq_len);

/* Fill a job's model descriptor from a catalog entry (input h x w and
 * seq_len 0 = defaults): params, layers, hidden, heads, vocab, input,
 * per-sample activation elements (CNNs with an architecture) and FLOPs. */
void gp_model_fill_desc(const gp_dl_model *m, int h, int w, int seq_len,
			gp_model_desc *d);

const char *gp_model_kind_name(int kind);

#endif
