/* SPDX-License-Identifier: MIT */
/* libFuzzer target: a compiled object or library from the user
 * (clCreateProgramWithBinary, then clLinkProgram). The first byte chooses:
 * even, the rest is the whole binary (header checks); odd, the rest is
 * bitcode behind a valid header with a matching checksum, so mutations reach
 * LLVM's bitcode reader, which runs in the compiler worker. Whatever the
 * worker does (it crashes on some inputs), this process must get SG_OK or
 * SG_EBINARY and go on. */
#include <stdlib.h>
#include <string.h>

#include <llvm-c/blake3.h>

#include "sg_compiler.h"

enum { HEADER = 96 }; /* compiler/sg_cc_objects.c */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  if (size < 1)
    return 0;
  uint8_t mode = data[0];
  data++, size--;
  uint8_t *bin = malloc(HEADER + size + 1);
  size_t len = size;
  if (!(mode & 1)) {
    memcpy(bin, data, size);
  } else {
    static const uint8_t head[32] = "SGCLOBJ\0\2\0\0\0\1\0\0\0\x2c\1\0\0\4\0\0\0";
    memcpy(bin, head, 24);
    uint64_t n = size;
    memcpy(bin + 24, &n, 8);
    memcpy(bin + HEADER, data, size);
    llvm_blake3_hasher h;
    llvm_blake3_hasher_init(&h);
    llvm_blake3_hasher_update(&h, data, size);
    llvm_blake3_hasher_finalize(&h, bin + 32, LLVM_BLAKE3_OUT_LEN);
    memset(bin + 64, 0, 32); /* no tag: not made by this process */
    len = HEADER + size;
  }
  enum sg_binary_kind kind;
  char err[512];
  enum sg_status st = sg_binary_check(bin, len, &kind, err, sizeof err);
  if (st != SG_OK && st != SG_EBINARY)
    abort();
  /* Linking (the whole back end) is slow: only some accepted inputs. */
  if (st == SG_OK && kind != SG_BINARY_EXECUTABLE && (mode & 2)) {
    struct sg_link_input in = {bin, len};
    struct sg_link_request req = {.options = (mode & 4) ? "-create-library" : NULL,
                                  .inputs = &in, .num_inputs = 1};
    struct sg_build_result res;
    sg_link(&req, &res);
    if (!res.log)
      abort();
    sg_build_result_free(&res);
  }
  free(bin);
  return 0;
}
