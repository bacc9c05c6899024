/* The DL model catalog (models.h).  Parameter counts and forward costs:
 * torchvision model docs (CNNs; their "GFLOPS" column counts multiply-adds,
 * so forward FLOPs = 2 x that), the original papers and Hugging Face
 * configs for transformers (models-and-failures.md §D.3).  Entries with
 * approx = 1 are models public traces name (Sia/Pollux, Gavel, Tiresias,
 * Muri) without pinning the variant; their figures are derived from the
 * common open-source implementation and are order-of-magnitude only. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/model/dlmodels.h"
#include "gpuplan/util/util.h"

#define CNN(n, al, arch, p, l, c, h, w, gf, ap, src) \
	{ n, al, GP_MODEL_CNN, arch, p, l, 0, 0, 0, 0, 0, 0, c, h, w, gf, ap, src }
#define TFM(n, al, p, l, hid, hd, kv, ffn, voc, seq, ap, src) \
	{ n, al, GP_MODEL_TRANSFORMER, GP_ARCH_NONE, p, l, hid, hd, kv, ffn, voc, seq, \
	  0, 0, 0, 0, ap, src }

static const gp_dl_model catalog[] = {
	/* CNNs, ImageNet 224x224 unless noted. */
	CNN("alexnet", "", GP_ARCH_ALEXNET, 61100840, 8, 3, 224, 224, 1.42, 0,
	    "Krizhevsky 2012; torchvision"),
	CNN("vgg11", "", GP_ARCH_VGG11, 132863336, 11, 3, 224, 224, 15.22, 0,
	    "Simonyan 2015; torchvision"),
	CNN("vgg16", "", GP_ARCH_VGG16, 138357544, 16, 3, 224, 224, 30.94, 0,
	    "Simonyan 2015; torchvision"),
	CNN("vgg19", "", GP_ARCH_VGG19, 143667240, 19, 3, 224, 224, 39.26, 0,
	    "Simonyan 2015; torchvision"),
	CNN("resnet18", "ResNet-18", GP_ARCH_RESNET18, 11689512, 18, 3, 224, 224, 3.62, 0,
	    "He 2016; torchvision"),
	CNN("resnet34", "", GP_ARCH_RESNET34, 21797672, 34, 3, 224, 224, 7.32, 0,
	    "He 2016; torchvision"),
	CNN("resnet50", "imagenet|ResNet-50", GP_ARCH_RESNET50, 25557032, 50, 3, 224, 224, 8.18, 0,
	    "He 2016; torchvision; Pollux/Sia 'imagenet' job"),
	CNN("resnet101", "", GP_ARCH_RESNET101, 44549160, 101, 3, 224, 224, 15.60, 0,
	    "He 2016; torchvision"),
	CNN("resnet152", "", GP_ARCH_RESNET152, 60192808, 152, 3, 224, 224, 23.02, 0,
	    "He 2016; torchvision"),
	CNN("resnet18-cifar", "cifar10|cifar10-resnet18", GP_ARCH_RESNET18_CIFAR, 11173962, 18,
	    3, 32, 32, 1.11, 0,
	    "ResNet-18 for CIFAR-10 (3x3 stem, no max-pool), the Pollux/Sia 'cifar10' job"),
	CNN("googlenet", "", GP_ARCH_NONE, 6624904, 22, 3, 224, 224, 3.00, 0,
	    "Szegedy 2015; torchvision"),
	CNN("inception-v3", "inception3", GP_ARCH_NONE, 27161264, 48, 3, 299, 299, 11.42, 0,
	    "Szegedy 2016; torchvision"),
	CNN("inception-v4", "inception4", GP_ARCH_NONE, 42679816, 75, 3, 299, 299, 24.6, 1,
	    "Szegedy 2017 (about 42.7 M parameters, 12.3 G multiply-adds)"),
	CNN("shufflenet-v2", "shufflenet_v2_x1_0", GP_ARCH_NONE, 2278604, 56, 3, 224, 224, 0.28, 0,
	    "Ma 2018; torchvision x1.0"),
	CNN("yolov3", "", GP_ARCH_NONE, 61949149, 75, 3, 416, 416, 65.9, 1,
	    "Redmon 2018, Darknet yolov3-416 (75 conv layers, 65.9 BFLOPs)"),
	/* Recurrent and recommendation models named by traces. */
	{ "deepspeech2", "", GP_MODEL_RNN, GP_ARCH_NONE, 86.6e6, 7, 1024, 0, 0, 0, 29, 0,
	  0, 0, 0, 0, 1,
	  "Amodei 2016 as in deepspeech.pytorch defaults (2 conv + 5 BiLSTM x 1024); Pollux/Sia" },
	{ "ncf", "neumf", GP_MODEL_MLP, GP_ARCH_NONE, 0.39e6, 4, 64, 0, 0, 0, 0, 0,
	  0, 0, 0, 5.6e-6, 1,
	  "He 2017 NeuMF on MovieLens-1M (factor 8, MLP 64-32-16-8); Pollux/Sia" },
	/* Transformers (models-and-failures.md §D.3). */
	TFM("transformer", "transformer-base", 65e6, 12, 512, 8, 0, 2048, 37000, 128, 1,
	    "Vaswani 2017 base (6+6 layers); Gavel 'Transformer' job"),
	TFM("bert-base", "bert", 110e6, 12, 768, 12, 0, 3072, 30522, 512, 0,
	    "Devlin 2019; Pollux/Sia 'bert' job"),
	TFM("bert-large", "", 335e6, 24, 1024, 16, 0, 4096, 30522, 512, 0, "Devlin 2019"),
	TFM("gpt2", "gpt2-small", 124439808, 12, 768, 12, 0, 3072, 50257, 1024, 0,
	    "Radford 2019; Muri 'gpt2' job"),
	TFM("gpt2-xl", "", 1557611200, 48, 1600, 25, 0, 6400, 50257, 1024, 0, "Radford 2019"),
	TFM("gpt3-175b", "gpt3", 175e9, 96, 12288, 96, 0, 49152, 50257, 2048, 0,
	    "Brown 2020 Table 2.1"),
	TFM("llama2-7b", "", 6738415616, 32, 4096, 32, 32, 11008, 32000, 4096, 0,
	    "Touvron 2023; HF config"),
	TFM("llama2-13b", "", 13015864320, 40, 5120, 40, 40, 13824, 32000, 4096, 0,
	    "Touvron 2023; HF config"),
	TFM("llama2-70b", "", 68976648192, 80, 8192, 64, 8, 28672, 32000, 4096, 0,
	    "Touvron 2023; HF config"),
	TFM("llama3-8b", "", 8.03e9, 32, 4096, 32, 8, 14336, 128256, 8192, 0,
	    "Llama 3 paper Table 3; HF config"),
	TFM("llama3-70b", "", 70.6e9, 80, 8192, 64, 8, 28672, 128256, 8192, 0,
	    "Llama 3 paper Table 3; HF config"),
	TFM("llama3.1-405b", "llama3-405b", 405e9, 126, 16384, 128, 8, 53248, 128256, 8192, 0,
	    "Llama 3 paper Table 3"),
};

const gp_dl_model *gp_model_list(int *n)
{
	*n = (int)GP_ARRAY_SIZE(catalog);
	return catalog;
}

/* Lower case without '-', '_', '.', ' '. */
static void normalize(const char *s, size_t len, char *out, size_t size)
{
	size_t i, k = 0;

	for (i = 0; i < len && s[i] && k + 1 < size; i++) {
		if (s[i] == '-' || s[i] == '_' || s[i] == '.' || s[i] == ' ')
			continue;
		out[k++] = (char)tolower((unsigned char)s[i]);
	}
	out[k] = '\0';
}

/* Whether s[0..len) (stopping at a NUL) normalizes to exactly want, which
 * is normalized already; compared as it goes, without a copy, so that most
 * names are rejected at their first character (gp_model_find runs per trace
 * row and per predictor row). */
static int normalized_eq(const char *s, size_t len, const char *want)
{
	size_t i;

	for (i = 0; i < len && s[i]; i++) {
		if (s[i] == '-' || s[i] == '_' || s[i] == '.' || s[i] == ' ')
			continue;
		if (*want++ != (char)tolower((unsigned char)s[i]))
			return 0;
	}
	return *want == '\0';
}

static int name_matches(const gp_dl_model *m, const char *want)
{
	const char *p, *bar;

	if (normalized_eq(m->name, strlen(m->name), want))
		return 1;
	for (p = m->aliases; *p; p = *bar ? bar + 1 : bar) {
		bar = strchr(p, '|');
		if (!bar)
			bar = p + strlen(p);
		if (normalized_eq(p, (size_t)(bar - p), want))
			return 1;
	}
	return 0;
}

const gp_dl_model *gp_model_find(const char *name)
{
	char want[64];
	size_t i;

	normalize(name, strlen(name), want, sizeof(want));
	if (!want[0])
		return NULL;
	for (i = 0; i < GP_ARRAY_SIZE(catalog); i++)
		if (name_matches(&catalog[i], want))
			return &catalog[i];
	return NULL;
}

static int distance(const char *a, const char *b)
{
	/* Optimal string alignment: edits plus adjacent transpositions, so
	 * that "resnet05" is one step from "resnet50". */
	int la = (int)strlen(a), lb = (int)strlen(b), i, j;
	int d[64][64];

	if (la > 62 || lb > 62)
		return 99;
	for (i = 0; i <= la; i++)
		d[i][0] = i;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++)
		for (j = 1; j <= lb; j++) {
			int best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);

			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	return d[la][lb];
}

const char *gp_model_suggest(const char *name)
{
	char want[64], buf[64];
	const char *best = NULL;
	int best_d = 3;
	size_t i;

	normalize(name, strlen(name), want, sizeof(want));
	for (i = 0; i < GP_ARRAY_SIZE(catalog); i++) {
		int d;

		normalize(catalog[i].name, strlen(catalog[i].name), buf, sizeof(buf));
		d = distance(want, buf);
		if (d < best_d) {
			best_d = d;
			best = catalog[i].name;
		}
	}
	return best;
}

const char *gp_model_kind_name(int kind)
{
	switch (kind) {
	case GP_MODEL_CNN: return "cnn";
	case GP_MODEL_TRANSFORMER: return "transformer";
	case GP_MODEL_RNN: return "rnn";
	case GP_MODEL_MLP: return "mlp";
	default: return "?";
	}
}

/* ---- per-layer output sizes of the generated CNN architectures ---- */

typedef struct layer_sink {
	double *out;
	int n, cap, overflow;
} layer_sink;

static void emit(layer_sink *s, double c, int h, int w)
{
	if (s->n >= s->cap) {
		s->overflow = 1;
		return;
	}
	s->out[s->n++] = c * (double)h * (double)w;
}

/* The source document's per-layer output size, for convolution and pooling alike:
 * floor((in + 2 * pad - kernel) / stride) + 1. */
static int conv_out(int in, int k, int stride, int pad)
{
	return (in + 2 * pad - k) / stride + 1;
}

/* A pooling layer: its output (channels unchanged) counts like any other. */
static void pool(layer_sink *s, double c, int *h, int *w, int k, int stride, int pad)
{
	*h = conv_out(*h, k, stride, pad);
	*w = conv_out(*w, k, stride, pad);
	emit(s, c, *h, *w);
}

/* VGG configurations: channel counts, 0 = 2x2 max-pool. */
static const int vgg11_cfg[] = { 64, 0, 128, 0, 256, 256, 0, 512, 512, 0, 512, 512, 0, -1 };
static const int vgg16_cfg[] = { 64, 64, 0, 128, 128, 0, 256, 256, 256, 0, 512, 512, 512, 0,
				 512, 512, 512, 0, -1 };
static const int vgg19_cfg[] = { 64, 64, 0, 128, 128, 0, 256, 256, 256, 256, 0,
				 512, 512, 512, 512, 0, 512, 512, 512, 512, 0, -1 };

static void build_vgg(layer_sink *s, const int *cfg, int h, int w)
{
	int c = 3;

	for (; *cfg >= 0; cfg++) {
		if (*cfg == 0) {
			pool(s, c, &h, &w, 2, 2, 0);
		} else {
			c = *cfg;
			emit(s, c, h, w);
		}
	}
	/* Classifier after the adaptive 7x7 pool. */
	emit(s, 4096, 1, 1);
	emit(s, 4096, 1, 1);
	emit(s, 1000, 1, 1);
}

static void build_resnet(layer_sink *s, const int counts[4], int bottleneck,
			 int cifar, int h, int w)
{
	int inplanes = 64, expansion = bottleneck ? 4 : 1, stage, b;

	if (cifar) {
		emit(s, 64, h, w); /* 3x3 stride 1, no max-pool */
	} else {
		h = conv_out(h, 7, 2, 3);
		w = conv_out(w, 7, 2, 3);
		emit(s, 64, h, w);
		pool(s, 64, &h, &w, 3, 2, 1); /* max-pool */
	}
	for (stage = 0; stage < 4; stage++) {
		int planes = 64 << stage;

		for (b = 0; b < counts[stage]; b++) {
			int stride = b == 0 && stage > 0 ? 2 : 1;
			int h2 = conv_out(h, 3, stride, 1), w2 = conv_out(w, 3, stride, 1);

			if (bottleneck) {
				emit(s, planes, h, w);          /* 1x1 reduce */
				emit(s, planes, h2, w2);        /* 3x3, carries the stride */
				emit(s, planes * 4, h2, w2);    /* 1x1 expand */
			} else {
				emit(s, planes, h2, w2);
				emit(s, planes, h2, w2);
			}
			if (b == 0 && (stride != 1 || inplanes != planes * expansion))
				emit(s, planes * expansion, h2, w2); /* projection shortcut */
			h = h2;
			w = w2;
			inplanes = planes * expansion;
		}
	}
	emit(s, inplanes, 1, 1); /* global average pool */
	emit(s, cifar ? 10 : 1000, 1, 1);
}

static void build_alexnet(layer_sink *s, int h, int w)
{
	h = conv_out(h, 11, 4, 2);
	w = conv_out(w, 11, 4, 2);
	emit(s, 64, h, w);
	pool(s, 64, &h, &w, 3, 2, 0);
	emit(s, 192, h, w);
	pool(s, 192, &h, &w, 3, 2, 0);
	emit(s, 384, h, w);
	emit(s, 256, h, w);
	emit(s, 256, h, w);
	pool(s, 256, &h, &w, 3, 2, 0);
	emit(s, 4096, 1, 1);
	emit(s, 4096, 1, 1);
	emit(s, 1000, 1, 1);
}

int gp_model_layer_outputs(const gp_dl_model *m, int h, int w, double *out, int cap)
{
	static const int r18[4] = { 2, 2, 2, 2 }, r34[4] = { 3, 4, 6, 3 },
			 r101[4] = { 3, 4, 23, 3 }, r152[4] = { 3, 8, 36, 3 };
	layer_sink s = { out, 0, cap, 0 };

	if (h <= 0)
		h = m->input_h;
	if (w <= 0)
		w = m->input_w;
	/* Below 32 pixels the ImageNet stems reach zero-sized maps. */
	if (m->arch != GP_ARCH_NONE && (h < 32 || w < 32))
		return -1;
	switch (m->arch) {
	case GP_ARCH_VGG11: build_vgg(&s, vgg11_cfg, h, w); break;
	case GP_ARCH_VGG16: build_vgg(&s, vgg16_cfg, h, w); break;
	case GP_ARCH_VGG19: build_vgg(&s, vgg19_cfg, h, w); break;
	case GP_ARCH_RESNET18: build_resnet(&s, r18, 0, 0, h, w); break;
	case GP_ARCH_RESNET34: build_resnet(&s, r34, 0, 0, h, w); break;
	case GP_ARCH_RESNET50: build_resnet(&s, r34, 1, 0, h, w); break;
	case GP_ARCH_RESNET101: build_resnet(&s, r101, 1, 0, h, w); break;
	case GP_ARCH_RESNET152: build_resnet(&s, r152, 1, 0, h, w); break;
	case GP_ARCH_RESNET18_CIFAR: build_resnet(&s, r18, 0, 1, h, w); break;
	case GP_ARCH_ALEXNET: build_alexnet(&s, h, w); break;
	default: return 0;
	}
	return s.overflow ? -1 : s.n;
}

double gp_model_train_flops(const gp_dl_model *m, int h, int w, int seq_len)
{
	if (m->kind == GP_MODEL_TRANSFORMER) {
		double s = seq_len > 0 ? seq_len : m->seq_len;

		return 6.0 * m->params * s + 12.0 * m->layers * (double)m->hidden * s * s;
	}
	if (m->fwd_gflops <= 0)
		return 6.0 * m->params; /* one "token" per sample: a floor, not a model */
	if (m->kind == GP_MODEL_CNN && m->input_h > 0 && m->input_w > 0) {
		double scale = (double)(h > 0 ? h : m->input_h) * (w > 0 ? w : m->input_w) /
			       ((double)m->input_h * m->input_w);

		return 3.0 * m->fwd_gflops * 1e9 * scale;
	}
	return 3.0 * m->fwd_gflops * 1e9;
}

void gp_model_fill_desc(const gp_dl_model *m, int h, int w, int seq_len, gp_model_desc *d)
{
	double layers[1024];
	int n, i;

	snprintf(d->name, sizeof(d->name), "%s", m->name);
	d->kind = m->kind;
	d->is_transformer = m->kind == GP_MODEL_TRANSFORMER;
	d->params = m->params;
	d->layers = m->layers;
	d->hidden = m->hidden;
	d->heads = m->heads;
	d->vocab = m->vocab;
	d->seq_len = d->is_transformer ? (seq_len > 0 ? seq_len : m->seq_len) : 0;
	d->input_c = m->input_c;
	d->input_h = h > 0 ? h : m->input_h;
	d->input_w = w > 0 ? w : m->input_w;
	d->act_elems = 0;
	n = gp_model_layer_outputs(m, d->input_h, d->input_w, layers, (int)GP_ARRAY_SIZE(layers));
	for (i = 0; i < n; i++)
		d->act_elems += layers[i];
	d->flops_per_sample = gp_model_train_flops(m, d->input_h, d->input_w, d->seq_len);
}
