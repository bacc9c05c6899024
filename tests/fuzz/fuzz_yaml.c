/* The YAML tree reader (io/yaml.c) under every YAML loader. */
#include "gpuplan/io/yaml.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	gp_yaml_doc doc;
	gp_error err = GP_ERROR_INIT;
	int rc = gp_yaml_parse((const char *)data, size, "fuzz.yaml", 0, &doc, &err);

	gp_fuzz_check_status(rc, err.status);
	gp_yaml_doc_release(&doc);
	return 0;
}
