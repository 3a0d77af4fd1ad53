/* SPDX-License-Identifier: MIT */
/* libFuzzer target: a program binary from the user (clCreateProgramWithBinary
 * of an executable). sg_program_load must accept it or say why, never read
 * out of bounds; what it accepts must satisfy what the runtime relies on. */
#include <stdlib.h>

#include "sg_compiler.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  struct sg_program_image *img = NULL;
  char err[256];
  if (sg_program_load(data, size, &img, err, sizeof err) != SG_OK)
    return 0;
  for (uint32_t i = 0; i < img->num_kernels; i++) {
    const struct sg_kernel_info *k = &img->kernels[i];
    uint64_t prod = (uint64_t)k->reqd_work_group_size[0] * k->reqd_work_group_size[1] *
                    k->reqd_work_group_size[2];
    if ((k->reqd_work_group_size[0] && !prod) || prod > UINT32_MAX ||
        k->entry_pc < img->ro_base || k->entry_pc >= img->ro_base + img->ro_size)
      abort();
    for (uint32_t a = 0; a < k->num_args; a++)
      if ((uint64_t)k->args[a].offset + k->args[a].size > k->args_size || !k->args[a].size)
        abort();
  }
  struct sg_device_limits lim = {1024, {1024, 1024, 1024}};
  sg_program_check_device(img, &lim, err, sizeof err);
  sg_program_image_free(img);
  return 0;
}
