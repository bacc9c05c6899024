/* Job YAML 'model: {layer_list: [...]}': a network layer by layer, sized
 * by the source document's per-layer output rule (model/memory.h, gp_layer_stack). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gpuplan/model/memory.h"
#include "gpuplan/util/util.h"
#include "jobspec_int.h"

static const char *const layer_keys[] = {
	"conv", "pool", "fc", "kernel", "stride", "padding", NULL
};

#define LAYER_LIST_MAX 4096

/* A layer's kernel: k or [kh, kw]. */
static int load_kernel(const gp_yaml_doc *doc, const gp_yaml_node *v, gp_layer_spec *l,
		       gp_error *err)
{
	long a, b;

	if (v->type == GP_YAML_SEQ) {
		if (v->n != 2)
			return gp_yaml_error(doc, v, err, "kernel must be a size or [height, width]");
		if (gp_yaml_long(doc, v->items[0], "kernel height", 1, 4096, &a, err) ||
		    gp_yaml_long(doc, v->items[1], "kernel width", 1, 4096, &b, err))
			return GP_EINPUT;
	} else {
		if (gp_yaml_long(doc, v, "kernel", 1, 4096, &a, err))
			return GP_EINPUT;
		b = a;
	}
	l->kh = (int)a;
	l->kw = (int)b;
	return GP_OK;
}

/* One entry of 'layer_list': {conv: C, kernel: K, stride: S, padding: P},
 * {pool: K | global, stride: S, padding: P} or {fc: N}. */
static int load_layer(const gp_yaml_doc *doc, const gp_yaml_node *n, size_t i, gp_layer_spec *l,
		      gp_error *err)
{
	const gp_yaml_node *conv = gp_yaml_get(n, "conv"), *pool = gp_yaml_get(n, "pool");
	const gp_yaml_node *fc = gp_yaml_get(n, "fc"), *v;
	char wh[64];
	long x;

	memset(l, 0, sizeof(*l));
	snprintf(wh, sizeof(wh), "layer %zu", i + 1);
	if (n->type != GP_YAML_MAP)
		return gp_yaml_error(doc, n, err,
				     "%s must be a mapping such as {conv: 64, kernel: 3} or {pool: 2} or {fc: 10}",
				     wh);
	if (gp_yaml_check_keys(doc, n, wh, layer_keys, err))
		return GP_EINPUT;
	if (!!conv + !!pool + !!fc != 1)
		return gp_yaml_error(doc, n, err, "%s: give exactly one of conv, pool or fc", wh);
	if (fc) {
		if (gp_yaml_get(n, "kernel") || gp_yaml_get(n, "stride") || gp_yaml_get(n, "padding"))
			return gp_yaml_error(doc, n, err, "%s: a fully connected layer has no kernel, "
					     "stride or padding", wh);
		if (gp_yaml_long(doc, fc, "fc (output features)", 1, 1 << 24, &x, err))
			return GP_EINPUT;
		l->op = GP_LAYER_FC;
		l->out = (int)x;
		return GP_OK;
	}
	if (conv) {
		l->op = GP_LAYER_CONV;
		if (gp_yaml_long(doc, conv, "conv (output channels)", 1, 1 << 20, &x, err))
			return GP_EINPUT;
		l->out = (int)x;
		if (!(v = gp_yaml_get(n, "kernel")))
			return gp_yaml_error(doc, n, err, "%s: a convolution needs 'kernel'", wh);
		if (load_kernel(doc, v, l, err))
			return GP_EINPUT;
		l->stride = 1;
	} else {
		l->op = GP_LAYER_POOL;
		if (pool->type == GP_YAML_SCALAR && !strcasecmp(pool->scalar, "global")) {
			if (gp_yaml_get(n, "kernel") || gp_yaml_get(n, "stride") ||
			    gp_yaml_get(n, "padding"))
				return gp_yaml_error(doc, n, err, "%s: global pooling has no kernel, "
						     "stride or padding", wh);
			return GP_OK;
		}
		if (load_kernel(doc, pool, l, err))
			return GP_EINPUT;
		l->stride = l->kh == l->kw ? l->kh : 1;
	}
	if ((v = gp_yaml_get(n, "kernel")) && pool)
		return gp_yaml_error(doc, v, err, "%s: the pooling size is the value of 'pool'", wh);
	if ((v = gp_yaml_get(n, "stride"))) {
		if (gp_yaml_long(doc, v, "stride", 1, 4096, &x, err))
			return GP_EINPUT;
		l->stride = (int)x;
	}
	if ((v = gp_yaml_get(n, "padding"))) {
		if (gp_yaml_long(doc, v, "padding", 0, 4096, &x, err))
			return GP_EINPUT;
		l->pad = (int)x;
	}
	return GP_OK;
}

int gp_jobspec_layer_list(const gp_yaml_doc *doc, const gp_yaml_node *v, int in_c, int in_h,
			  int in_w, gp_model_desc *d, double *params, double *fwd, gp_error *err)
{
	gp_layer_spec *l;
	gp_layer_shape *o;
	size_t i;
	int bad, weights = 0;

	if (v->type != GP_YAML_SEQ || v->n == 0)
		return gp_yaml_error(doc, v, err, "layer_list must be a non-empty list of layers "
				     "such as {conv: 64, kernel: 3}");
	if (v->n > LAYER_LIST_MAX)
		return gp_yaml_error(doc, v, err, "layer_list has more than %d layers", LAYER_LIST_MAX);
	if (in_c <= 0 || in_h <= 0 || in_w <= 0)
		return gp_yaml_error(doc, v, err, "layer_list needs the input shape: 'input: "
				     "[channels, height, width]' or a known 'dataset'");
	l = gp_xcalloc(v->n, sizeof(*l));
	o = gp_xcalloc(v->n, sizeof(*o));
	for (i = 0; i < v->n; i++)
		if (load_layer(doc, v->items[i], i, &l[i], err))
			goto fail;
	bad = gp_layer_stack(l, (int)v->n, in_c, in_h, in_w, o);
	if (bad >= 0) {
		gp_yaml_error(doc, v->items[bad], err,
			      "layer %d has no output: input %ldx%ld with kernel %dx%d, stride %d, padding %d "
			      "gives floor((in + 2 x padding - kernel) / stride) + 1 < 1",
			      bad + 1, o[bad].in_h, o[bad].in_w, l[bad].kh, l[bad].kw, l[bad].stride,
			      l[bad].pad);
		goto fail;
	}
	d->act_elems = 0;
	*params = *fwd = 0;
	for (i = 0; i < v->n; i++) {
		d->act_elems += o[i].elems;
		*params += o[i].params;
		*fwd += o[i].fwd_flops;
		weights += l[i].op != GP_LAYER_POOL;
	}
	d->layers = weights;
	d->input_c = in_c;
	d->input_h = in_h;
	d->input_w = in_w;
	free(l);
	free(o);
	return GP_OK;
fail:
	free(l);
	free(o);
	return GP_EINPUT;
}
