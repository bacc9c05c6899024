/* Shared by the fuzz harnesses (tests/fuzz/fuzz_*.c): each defines
 * LLVMFuzzerTestOneInput, the entry point of libFuzzer and of AFL++'s
 * libAFLDriver; replay.c runs the same function over files for make check. */
#ifndef GPUPLAN_FUZZ_H
#define GPUPLAN_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A path naming a file that holds exactly data (a memfd, reused across
 * calls), for the loaders that only take a path. */
const char *gp_fuzz_path(const uint8_t *data, size_t size);

/* A loader's status must be GP_OK or an input/I-O error whose gp_error
 * says the same; anything else is a finding (abort, so the fuzzer keeps
 * the input). */
void gp_fuzz_check_status(int rc, int err_status);

#endif
