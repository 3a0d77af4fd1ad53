/* SPDX-License-Identifier: MIT */
/* libFuzzer target: a machine configuration file (SOFTGPU_CONFIG=path, or
 * preset text through the same parser). sg_config_load must accept it or
 * name the line, and what it accepts must be a machine the device can
 * build. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sg_device.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  int fd = memfd_create("fuzz-config", 0);
  if (fd < 0 || write(fd, data, size) != (ssize_t)size)
    abort();
  char path[64], err[400];
  snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
  struct sg_config cfg;
  if (sg_config_load(&cfg, path, err, sizeof err) == SG_OK) {
    uint32_t wg = sg_config_max_work_group_size(&cfg);
    if (!wg || !cfg.warp_size || !cfg.cores || wg > 1024 || cfg.stack_per_lane < 256)
      abort();
    FILE *null = fopen("/dev/null", "w");
    sg_config_print(&cfg, null);
    sg_config_print_json(&cfg, null);
    fclose(null);
  }
  close(fd);
  return 0;
}
