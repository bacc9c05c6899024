/* Predictor inputs (predict/data.c, predict/mlp.c): training CSVs in both
 * dialects (GPUMemNet, gpuplan) and the model file (JSON). */
#include "gpuplan/model/catalog.h"
#include "gpuplan/predict/predict.h"
#include "fuzz.h"

static gp_catalog cat;
static int ready;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = gp_fuzz_path(data, size);
	gp_pred_data d;
	gp_predictor *p = NULL;
	gp_error err = GP_ERROR_INIT;
	int rc;

	if (!ready) {
		gp_catalog_init_builtin(&cat);
		ready = 1;
	}
	gp_pred_data_init(&d);
	rc = gp_pred_data_load(path, &cat, &d, &err);
	gp_fuzz_check_status(rc, err.status);
	gp_pred_data_release(&d);
	gp_error_clear(&err);
	rc = gp_predictor_load(path, &p, &err);
	gp_fuzz_check_status(rc, err.status);
	gp_predictor_free(p);
	return 0;
}
