/* Slurm and Kubernetes text read as fuzz_import reads it, then written as
 * `gpuplan import` writes it: the cluster and state texts must load back.
 * A harness of its own because the write and the load-back make it about
 * 4x slower than reading alone. */
#define GP_FUZZ_IMPORT_LOAD_BACK 1
#include "fuzz_import.c"
