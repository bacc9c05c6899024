/* Operator profiles of named DL models (predict.h): per operator type the
 * number of nodes and the largest input among them, plus parameters,
 * activations, input size, FLOPs and depth.
 *
 * Three sources, in this order:
 *   1. generated from the architecture: ResNet, VGG and AlexNet from the
 *      model catalog's family (the same layer recipes as the torchvision
 *      definitions), transformers from the catalog's layers / hidden /
 *      heads / ffn / vocab / sequence length;
 *   2. a hand table (below) for the models public traces name whose graph
 *      the catalog does not generate -- counted from the reference
 *      implementation named per entry, at the default input;
 *   3. a generic profile from whatever the job says (kind, layers, hidden,
 *      parameters), marked approximate.
 * "Input size" is elements per sample, the batch dimension left out. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "gpuplan/model/dlmodels.h"
#include "gpuplan/predict/predict.h"
#include "gpuplan/util/util.h"

static const char *const op_names[GP_OP_N] = {
	[GP_OP_LINEAR] = "linear", [GP_OP_CONV2D] = "conv2d", [GP_OP_MATMUL] = "matmul",
	[GP_OP_ADDV2] = "addv2", [GP_OP_MUL] = "mul", [GP_OP_CONCAT] = "concat",
	[GP_OP_RELU] = "relu", [GP_OP_ACT] = "act", [GP_OP_SOFTMAX] = "softmax",
	[GP_OP_MAXPOOL] = "maxpool", [GP_OP_AVGPOOL] = "avgpool", [GP_OP_NORM] = "norm",
	[GP_OP_DROPOUT] = "dropout", [GP_OP_EMBED] = "embedding", [GP_OP_RNN] = "rnn",
};

const char *gp_pred_op_name(int op)
{
	return op >= 0 && op < GP_OP_N ? op_names[op] : "?";
}

/* PyTorch / TensorFlow layer names onto the vocabulary. */
int gp_pred_op_parse(const char *s)
{
	static const struct {
		const char *name;
		int op;
	} words[] = {
		{ "linear", GP_OP_LINEAR }, { "dense", GP_OP_LINEAR }, { "fc", GP_OP_LINEAR },
		{ "conv2d", GP_OP_CONV2D }, { "conv", GP_OP_CONV2D },
		{ "convtranspose2d", GP_OP_CONV2D }, { "matmul", GP_OP_MATMUL },
		{ "batchmatmul", GP_OP_MATMUL }, { "bmm", GP_OP_MATMUL },
		{ "addv2", GP_OP_ADDV2 }, { "add", GP_OP_ADDV2 }, { "mul", GP_OP_MUL },
		{ "concat", GP_OP_CONCAT }, { "concatv2", GP_OP_CONCAT }, { "cat", GP_OP_CONCAT },
		{ "relu", GP_OP_RELU }, { "relu6", GP_OP_RELU }, { "softmax", GP_OP_SOFTMAX },
		{ "logsoftmax", GP_OP_SOFTMAX }, { "maxpool", GP_OP_MAXPOOL },
		{ "maxpool2d", GP_OP_MAXPOOL }, { "avgpool", GP_OP_AVGPOOL },
		{ "avgpool2d", GP_OP_AVGPOOL }, { "adaptiveavgpool2d", GP_OP_AVGPOOL },
		{ "batchnorm", GP_OP_NORM }, { "batch_normalization", GP_OP_NORM },
		{ "batchnorm2d", GP_OP_NORM }, { "batchnorm1d", GP_OP_NORM },
		{ "layernorm", GP_OP_NORM }, { "instancenorm", GP_OP_NORM },
		{ "dropout", GP_OP_DROPOUT }, { "embedding", GP_OP_EMBED },
		{ "lstm", GP_OP_RNN }, { "gru", GP_OP_RNN }, { "rnn", GP_OP_RNN },
		{ "lstmcell", GP_OP_RNN },
	};
	size_t i;

	for (i = 0; i < GP_ARRAY_SIZE(words); i++)
		if (!strcasecmp(s, words[i].name))
			return words[i].op;
	return -1;
}

/* n nodes of type op, each with in input and out output elements. */
static void add_op(gp_pred_ops *o, int op, double n, double in, double out)
{
	o->count[op] += n;
	if (in > o->max_in[op])
		o->max_in[op] = in;
	o->acts += n * out;
}

static void add_layer(gp_pred_ops *o, int op, double n, double in, double out, double width)
{
	add_op(o, op, n, in, out);
	o->depth += (int)n;
	if (width > o->width)
		o->width = width;
}

/* ---- generated: ResNet, VGG, AlexNet (torchvision recipes) ---- */

static int conv_out(int in, int k, int stride, int pad)
{
	return (in + 2 * pad - k) / stride + 1;
}

/* conv + norm + relu on a c x h x w input giving k x h2 x w2. */
static void conv_bn_relu(gp_pred_ops *o, double inc, int h, int w, double k, int h2, int w2,
			 int norm, int relu)
{
	double in = inc * h * w, out = k * h2 * w2;

	add_layer(o, GP_OP_CONV2D, 1, in, out, k);
	if (norm)
		add_op(o, GP_OP_NORM, 1, out, out);
	if (relu)
		add_op(o, GP_OP_RELU, 1, out, out);
}

static void gen_resnet(gp_pred_ops *o, const int counts[4], int bottleneck, int cifar,
		       int c, int h, int w, int classes)
{
	int inplanes = 64, exp = bottleneck ? 4 : 1, stage, b;

	if (cifar) {
		conv_bn_relu(o, c, h, w, 64, h, w, 1, 1);
	} else {
		int h1 = conv_out(h, 7, 2, 3), w1 = conv_out(w, 7, 2, 3);

		conv_bn_relu(o, c, h, w, 64, h1, w1, 1, 1);
		h = conv_out(h1, 3, 2, 1);
		w = conv_out(w1, 3, 2, 1);
		add_op(o, GP_OP_MAXPOOL, 1, 64.0 * h1 * w1, 64.0 * h * w);
	}
	for (stage = 0; stage < 4; stage++) {
		int planes = 64 << stage;

		for (b = 0; b < counts[stage]; b++) {
			int stride = b == 0 && stage > 0 ? 2 : 1;
			int h2 = conv_out(h, 3, stride, 1), w2 = conv_out(w, 3, stride, 1);
			double out = (double)planes * exp * h2 * w2;

			if (bottleneck) {
				conv_bn_relu(o, inplanes, h, w, planes, h, w, 1, 1);
				conv_bn_relu(o, planes, h, w, planes, h2, w2, 1, 1);
				conv_bn_relu(o, planes, h2, w2, planes * 4, h2, w2, 1, 0);
			} else {
				conv_bn_relu(o, inplanes, h, w, planes, h2, w2, 1, 1);
				conv_bn_relu(o, planes, h2, w2, planes, h2, w2, 1, 0);
			}
			if (b == 0 && (stride != 1 || inplanes != planes * exp))
				conv_bn_relu(o, inplanes, h, w, planes * exp, h2, w2, 1, 0);
			add_op(o, GP_OP_ADDV2, 1, out, out);
			add_op(o, GP_OP_RELU, 1, out, out);
			h = h2;
			w = w2;
			inplanes = planes * exp;
		}
	}
	add_op(o, GP_OP_AVGPOOL, 1, (double)inplanes * h * w, inplanes);
	add_layer(o, GP_OP_LINEAR, 1, inplanes, classes, inplanes);
}

static void gen_vgg(gp_pred_ops *o, const int *cfg, int c, int h, int w)
{
	for (; *cfg >= 0; cfg++) {
		if (*cfg == 0) {
			add_op(o, GP_OP_MAXPOOL, 1, (double)c * h * w, (double)c * (h / 2) * (w / 2));
			h /= 2;
			w /= 2;
		} else {
			conv_bn_relu(o, c, h, w, *cfg, h, w, 0, 1);
			c = *cfg;
		}
	}
	add_op(o, GP_OP_AVGPOOL, 1, (double)c * h * w, 512.0 * 49);
	add_layer(o, GP_OP_LINEAR, 1, 25088, 4096, 25088);
	add_op(o, GP_OP_RELU, 2, 4096, 4096);
	add_op(o, GP_OP_DROPOUT, 2, 4096, 4096);
	add_layer(o, GP_OP_LINEAR, 1, 4096, 4096, 4096);
	add_layer(o, GP_OP_LINEAR, 1, 4096, 1000, 4096);
}

static void gen_alexnet(gp_pred_ops *o, int c, int h, int w)
{
	static const struct {
		int k, kern, stride, pad, pool;
	} L[] = { { 64, 11, 4, 2, 1 }, { 192, 5, 1, 2, 1 }, { 384, 3, 1, 1, 0 },
		  { 256, 3, 1, 1, 0 }, { 256, 3, 1, 1, 1 } };
	size_t i;

	for (i = 0; i < GP_ARRAY_SIZE(L); i++) {
		int h2 = conv_out(h, L[i].kern, L[i].stride, L[i].pad);
		int w2 = conv_out(w, L[i].kern, L[i].stride, L[i].pad);

		conv_bn_relu(o, c, h, w, L[i].k, h2, w2, 0, 1);
		c = L[i].k;
		h = h2;
		w = w2;
		if (L[i].pool) {
			int h3 = conv_out(h, 3, 2, 0), w3 = conv_out(w, 3, 2, 0);

			add_op(o, GP_OP_MAXPOOL, 1, (double)c * h * w, (double)c * h3 * w3);
			h = h3;
			w = w3;
		}
	}
	add_op(o, GP_OP_AVGPOOL, 1, (double)c * h * w, 9216);
	add_op(o, GP_OP_DROPOUT, 2, 9216, 4096);
	add_layer(o, GP_OP_LINEAR, 1, 9216, 4096, 9216);
	add_layer(o, GP_OP_LINEAR, 1, 4096, 4096, 4096);
	add_layer(o, GP_OP_LINEAR, 1, 4096, 1000, 4096);
	add_op(o, GP_OP_RELU, 2, 4096, 4096);
}

static const int vgg11_cfg[] = { 64, 0, 128, 0, 256, 256, 0, 512, 512, 0, 512, 512, 0, -1 };
static const int vgg16_cfg[] = { 64, 64, 0, 128, 128, 0, 256, 256, 256, 0, 512, 512, 512, 0,
				 512, 512, 512, 0, -1 };
static const int vgg19_cfg[] = { 64, 64, 0, 128, 128, 0, 256, 256, 256, 256, 0,
				 512, 512, 512, 512, 0, 512, 512, 512, 512, 0, -1 };

static int gen_cnn(const gp_dl_model *m, int h, int w, gp_pred_ops *o)
{
	static const int r18[4] = { 2, 2, 2, 2 }, r34[4] = { 3, 4, 6, 3 },
			 r101[4] = { 3, 4, 23, 3 }, r152[4] = { 3, 8, 36, 3 };
	int c = m->input_c > 0 ? m->input_c : 3;

	switch (m->arch) {
	case GP_ARCH_VGG11: gen_vgg(o, vgg11_cfg, c, h, w); break;
	case GP_ARCH_VGG16: gen_vgg(o, vgg16_cfg, c, h, w); break;
	case GP_ARCH_VGG19: gen_vgg(o, vgg19_cfg, c, h, w); break;
	case GP_ARCH_RESNET18: gen_resnet(o, r18, 0, 0, c, h, w, 1000); break;
	case GP_ARCH_RESNET34: gen_resnet(o, r34, 0, 0, c, h, w, 1000); break;
	case GP_ARCH_RESNET50: gen_resnet(o, r34, 1, 0, c, h, w, 1000); break;
	case GP_ARCH_RESNET101: gen_resnet(o, r101, 1, 0, c, h, w, 1000); break;
	case GP_ARCH_RESNET152: gen_resnet(o, r152, 1, 0, c, h, w, 1000); break;
	case GP_ARCH_RESNET18_CIFAR: gen_resnet(o, r18, 0, 1, c, h, w, 10); break;
	case GP_ARCH_ALEXNET: gen_alexnet(o, c, h, w); break;
	default: return -1;
	}
	o->input = (double)c * h * w;
	return 0;
}

/* ---- generated: transformer blocks ---- */

/* One block: q, k, v, o and two feed-forward projections, QK^T and AV,
 * the 1/sqrt(d) scale, softmax, three dropouts, two residual adds and two
 * norms; relu (the 2017 Transformer) or GELU (BERT, GPT). */
static void gen_transformer(gp_pred_ops *o, double layers, double s, double h, double heads,
			    double ffn, double vocab, int relu)
{
	double sh = s * h, att = heads * s * s;

	if (heads <= 0)
		heads = h >= 64 ? h / 64 : 1, att = heads * s * s;
	if (ffn <= 0)
		ffn = 4 * h;
	add_op(o, GP_OP_EMBED, 1, s, sh);
	add_layer(o, GP_OP_LINEAR, 5 * layers, sh, sh, h);
	add_layer(o, GP_OP_LINEAR, layers, s * ffn, sh, ffn);
	o->acts += layers * s * ffn; /* ff1 output */
	add_op(o, GP_OP_MATMUL, layers, sh, att);
	add_op(o, GP_OP_MATMUL, layers, att, sh);
	add_op(o, GP_OP_MUL, layers, att, att);
	add_op(o, GP_OP_SOFTMAX, layers, att, att);
	add_op(o, GP_OP_DROPOUT, layers, att, att);
	add_op(o, GP_OP_DROPOUT, 2 * layers, sh, sh);
	add_op(o, GP_OP_ADDV2, 2 * layers, sh, sh);
	add_op(o, GP_OP_NORM, 2 * layers + 1, sh, sh);
	add_op(o, relu ? GP_OP_RELU : GP_OP_ACT, layers, s * ffn, s * ffn);
	if (vocab > 0) {
		add_layer(o, GP_OP_LINEAR, 1, sh, s * vocab, h);
		add_op(o, GP_OP_SOFTMAX, 1, s * vocab, s * vocab);
	}
	o->input = s;
}

/* ---- hand table ---- */

typedef struct hand {
	const char *name;       /* lower case; matched without '-', '_', '.', ' ' */
	double count[GP_OP_N];
	double max_in[GP_OP_N];
	double params, acts, input, flops;
	int depth;
	double width;
	int batch;              /* batch when a job gives none (A3C, CycleGAN) */
	int image;              /* input side for area scaling, 0 = fixed input */
	const char *source;
} hand;

/* Order of count[] / max_in[]: linear conv2d matmul addv2 mul concat relu
 * act softmax maxpool avgpool norm dropout embedding rnn. */
static const hand table[] = {
	{ "googlenet",
	  { 1, 57, 0, 0, 0, 9, 57, 0, 0, 13, 1, 57, 1, 0, 0 },
	  { 1024, 200704, 0, 0, 0, 376320, 802816, 0, 0, 802816, 50176, 802816, 1024, 0, 0 },
	  6624904, 9.5e6, 150528, 9.0e9, 58, 1024, 0, 224,
	  "Szegedy 2015, torchvision GoogLeNet (BN variant): 57 conv, 9 inception concats" },
	{ "inceptionv3",
	  { 1, 94, 0, 0, 0, 15, 94, 0, 0, 4, 10, 94, 1, 0, 0 },
	  { 2048, 691488, 0, 0, 0, 352800, 1382976, 0, 0, 1382976, 352800, 1382976, 2048, 0, 0 },
	  27161264, 3.2e7, 268203, 3.43e10, 95, 2048, 0, 299,
	  "Szegedy 2016, torchvision Inception3: 94 conv+BN+ReLU, 11 blocks" },
	{ "inceptionv4",
	  { 1, 149, 0, 0, 0, 24, 149, 0, 0, 4, 15, 149, 1, 0, 0 },
	  { 1536, 691488, 0, 0, 0, 470400, 1382976, 0, 0, 1382976, 470400, 1382976, 1536, 0, 0 },
	  42679816, 4.6e7, 268203, 7.38e10, 150, 1536, 0, 299,
	  "Szegedy 2017 Inception-v4 (stem, 4xA, 7xB, 3xC, 2 reductions)" },
	{ "shufflenetv2",
	  { 1, 56, 0, 0, 0, 16, 36, 0, 0, 1, 1, 56, 0, 0, 0 },
	  { 1024, 150528, 0, 0, 0, 181888, 301056, 0, 0, 301056, 50176, 301056, 0, 0, 0 },
	  2278604, 4.0e6, 150528, 8.4e8, 57, 1024, 0, 224,
	  "Ma 2018, torchvision shufflenet_v2_x1_0: 16 units" },
	{ "yolov3",
	  { 0, 75, 0, 23, 0, 2, 0, 72, 0, 0, 0, 72, 0, 0, 0 },
	  { 0, 5537792, 0, 2768896, 0, 519168, 0, 5537792, 0, 0, 0, 5537792, 0, 0, 0 },
	  61949149, 1.3e8, 519168, 1.977e11, 75, 1024, 0, 416,
	  "Redmon 2018, Darknet-53 + 3 heads: 75 conv, 72 BN+LeakyReLU, 23 residual adds" },
	{ "deepspeech2",
	  { 1, 2, 0, 0, 0, 0, 0, 2, 1, 0, 0, 7, 0, 0, 5 },
	  { 1024000, 1296000, 0, 0, 0, 0, 0, 1296000, 14500, 0, 0, 1024000, 0, 0, 1024000 },
	  86.6e6, 1.2e7, 161000, 3.9e11, 8, 2048, 0, 0,
	  "Amodei 2016 as deepspeech.pytorch: 2 conv (hardtanh, BN), 5 BiLSTM x 1024, "
	  "sequence-wise BN, 10 s of 161-bin spectrogram" },
	{ "ncf",
	  { 5, 0, 0, 0, 1, 2, 3, 1, 0, 0, 0, 0, 0, 4, 0 },
	  { 64, 0, 0, 0, 8, 64, 32, 1, 0, 0, 0, 0, 0, 1, 0 },
	  0.39e6, 260, 2, 16800, 5, 64, 0, 0,
	  "He 2017 NeuMF (GMF factor 8 + MLP 64-32-16-8) on MovieLens" },
	{ "lm",
	  { 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 3, 1, 2 },
	  { 7000, 0, 0, 0, 0, 0, 0, 0, 1164730, 0, 0, 0, 7000, 35, 7000 },
	  13.96e6, 1.2e6, 35, 1.53e9, 3, 200, 0, 0,
	  "Gavel 'LM': PyTorch word_language_model defaults (2-layer LSTM 200, "
	  "35-token BPTT, Wikitext-2 vocabulary 33,278)" },
	{ "recommendation",
	  { 4, 0, 0, 1, 1, 0, 0, 3, 1, 0, 0, 1, 1, 0, 0 },
	  { 20108, 0, 0, 200, 200, 0, 0, 600, 20108, 0, 0, 20108, 20108, 0, 0 },
	  24.5e6, 63000, 20108, 1.47e8, 4, 20108, 0, 0,
	  "Gavel 'Recommendation': VAE-CF (Liang 2018) on ML-20M, "
	  "20,108 items -> 600 -> 200 -> 600 -> items, tanh" },
	{ "a3c",
	  { 2, 4, 0, 0, 0, 0, 0, 4, 1, 0, 0, 0, 0, 0, 1 },
	  { 256, 14112, 0, 0, 0, 0, 0, 14112, 6, 0, 0, 0, 0, 0, 288 },
	  0.59e6, 25000, 1764, 2.6e8, 7, 256, 1, 0,
	  "Gavel 'A3C': pytorch-a3c on Pong (4 conv 32x3x3/2 + ELU on 42x42, "
	  "LSTMCell 256, actor/critic heads); one sample = a 20-step update" },
	{ "cyclegan",
	  { 0, 58, 0, 18, 0, 0, 28, 10, 0, 0, 0, 52, 0, 0, 0 },
	  { 0, 4194304, 0, 1048576, 0, 0, 4194304, 4194304, 0, 0, 0, 4194304, 0, 0, 0 },
	  28.3e6, 9.0e7, 196608, 7.9e11, 62, 256, 1, 256,
	  "Zhu 2017 CycleGAN: 2 ResNet-9-block generators + 2 PatchGAN discriminators, 256x256" },
};

static void squash(const char *s, char *out, size_t size)
{
	size_t k = 0;

	for (; *s && k + 1 < size; s++)
		if (*s != '-' && *s != '_' && *s != '.' && *s != ' ')
			out[k++] = (char)((*s >= 'A' && *s <= 'Z') ? *s - 'A' + 'a' : *s);
	out[k] = '\0';
}

static const hand *hand_find(const char *name)
{
	char want[64];
	size_t i;

	squash(name, want, sizeof(want));
	for (i = 0; i < GP_ARRAY_SIZE(table); i++)
		if (!strcmp(want, table[i].name))
			return &table[i];
	return NULL;
}

static void from_hand(const hand *t, int h, int w, gp_pred_ops *o)
{
	double scale = 1;
	int k;

	/* A CNN at another input: every map scales with the area. */
	if (t->image > 0 && h > 0 && w > 0)
		scale = (double)h * w / ((double)t->image * t->image);
	for (k = 0; k < GP_OP_N; k++) {
		o->count[k] = t->count[k];
		o->max_in[k] = t->max_in[k] * (k == GP_OP_LINEAR ? 1 : scale);
	}
	o->params = t->params;
	o->acts = t->acts * scale;
	o->input = t->input * scale;
	o->flops = t->flops * scale;
	o->depth = t->depth;
	o->width = t->width;
	o->default_batch = t->batch;
	o->approx = 1;
	snprintf(o->source, sizeof(o->source), "%s", t->source);
}

void gp_pred_ops_init(gp_pred_ops *o)
{
	memset(o, 0, sizeof(*o));
}

int gp_pred_ops_of_model(const gp_dl_model *m, int h, int w, int seq, gp_pred_ops *o)
{
	const hand *t;

	gp_pred_ops_init(o);
	if (h <= 0)
		h = m->input_h;
	if (w <= 0)
		w = m->input_w;
	if (m->kind == GP_MODEL_TRANSFORMER) {
		double s = seq > 0 ? seq : m->seq_len > 0 ? m->seq_len : 512;

		gen_transformer(o, m->layers, s, m->hidden, m->heads, m->ffn, m->vocab,
				!strcmp(m->name, "transformer"));
		o->params = m->params;
		o->flops = gp_model_train_flops(m, 0, 0, (int)s);
		snprintf(o->source, sizeof(o->source), "generated: %d transformer blocks, hidden %d, "
			 "sequence %g", m->layers, m->hidden, s);
		o->approx = m->approx;
		return 0;
	}
	if (m->arch != GP_ARCH_NONE && h >= 32 && w >= 32 && gen_cnn(m, h, w, o) == 0) {
		o->params = m->params;
		o->flops = gp_model_train_flops(m, h, w, 0);
		snprintf(o->source, sizeof(o->source), "generated: %s at %dx%d", m->name, h, w);
		o->approx = m->approx;
		return 0;
	}
	if ((t = hand_find(m->name)) != NULL) {
		from_hand(t, h, w, o);
		return 0;
	}
	return -1;
}

/* A profile from the descriptor alone: n weight layers of the model's
 * kind with the usual companions, inputs unknown beyond the model input. */
static void generic(const gp_model_desc *d, gp_pred_ops *o)
{
	double layers = d->layers > 0 ? d->layers : 1, h = d->hidden > 0 ? d->hidden : 512;
	double in = d->input_c > 0 && d->input_h > 0 && d->input_w > 0 ?
		    (double)d->input_c * d->input_h * d->input_w : h;

	if (d->is_transformer || d->kind == GP_MODEL_TRANSFORMER) {
		gen_transformer(o, layers, d->seq_len > 0 ? d->seq_len : 512, h, d->heads, 0,
				d->vocab, 0);
	} else if (d->kind == GP_MODEL_CNN) {
		double per = d->act_elems > 0 ? d->act_elems / layers : in * 4;

		add_layer(o, GP_OP_CONV2D, layers - 1, in * 4, per, 512);
		add_op(o, GP_OP_NORM, layers - 1, in * 4, per);
		add_op(o, GP_OP_RELU, layers - 1, in * 4, per);
		add_op(o, GP_OP_MAXPOOL, 1, in * 4, in);
		add_op(o, GP_OP_AVGPOOL, 1, 512 * 49, 512);
		add_layer(o, GP_OP_LINEAR, 1, 512, 1000, 512);
		o->input = in;
	} else if (d->kind == GP_MODEL_RNN) {
		add_op(o, GP_OP_EMBED, 1, 35, 35 * h);
		add_layer(o, GP_OP_RNN, layers, 35 * h, 35 * h, h);
		add_layer(o, GP_OP_LINEAR, 1, 35 * h, 35 * h, h);
		o->input = 35;
	} else {
		add_layer(o, GP_OP_LINEAR, layers, h, h, h);
		add_op(o, GP_OP_RELU, layers - 1, h, h);
		o->input = h;
	}
	o->params = d->params;
	if (d->act_elems > 0)
		o->acts = d->act_elems;
	o->approx = 1;
	snprintf(o->source, sizeof(o->source), "generic %s profile from the job's layers",
		 gp_model_kind_name(d->kind));
}

int gp_pred_ops_of_desc(const gp_model_desc *d, gp_pred_ops *o)
{
	const gp_dl_model *m = d->name[0] ? gp_model_find(d->name) : NULL;
	const hand *t;

	if (m && gp_pred_ops_of_model(m, d->input_h, d->input_w, d->seq_len, o) == 0) {
		if (d->params > 0)
			o->params = d->params;
		if (d->flops_per_sample > 0)
			o->flops = d->flops_per_sample;
		return 0;
	}
	gp_pred_ops_init(o);
	if (d->name[0] && (t = hand_find(d->name)) != NULL) {
		from_hand(t, d->input_h, d->input_w, o);
		return 0;
	}
	if (d->params <= 0 && d->layers <= 0)
		return -1;
	generic(d, o);
	o->flops = d->flops_per_sample > 0 ? d->flops_per_sample : 6.0 * o->params;
	return 0;
}

int gp_pred_ops_known(const char *name)
{
	const gp_dl_model *m = gp_model_find(name);

	return hand_find(name) != NULL ||
	       (m && (m->kind == GP_MODEL_TRANSFORMER || m->arch != GP_ARCH_NONE));
}
