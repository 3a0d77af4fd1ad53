/* SPDX-License-Identifier: MIT */
/* runtime/ Get*Info (DESIGN.md 5): the one place where every clGet*Info
 * sizes and copies its answer, and the name/version lists of OpenCL 3.0. */
#include <string.h>

#include "sg_runtime.h"

cl_int sg_info(size_t param_value_size, void *param_value, size_t *param_value_size_ret,
               const void *value, size_t size) {
  if (param_value) {
    if (param_value_size < size) {
      sg_log_error("clGet*Info", CL_INVALID_VALUE,
                   "param_value_size %zu is smaller than the %zu bytes of the value",
                   param_value_size, size);
      return CL_INVALID_VALUE;
    }
    if (size)
      memcpy(param_value, value, size);
  }
  if (param_value_size_ret)
    *param_value_size_ret = size;
  return CL_SUCCESS;
}

cl_int sg_info_str(size_t param_value_size, void *param_value, size_t *param_value_size_ret,
                   const char *s) {
  return sg_info(param_value_size, param_value, param_value_size_ret, s, strlen(s) + 1);
}

size_t sg_name_versions(const char *names, cl_version v, cl_name_version *out) {
  size_t n = 0;
  for (const char *p = names; *p;) {
    size_t len = strcspn(p, " ");
    if (len) {
      if (out) {
        out[n].version = v;
        size_t copy =
            len < CL_NAME_VERSION_MAX_NAME_SIZE - 1 ? len : CL_NAME_VERSION_MAX_NAME_SIZE - 1;
        memcpy(out[n].name, p, copy);
        memset(out[n].name + copy, 0, CL_NAME_VERSION_MAX_NAME_SIZE - copy);
      }
      n++;
    }
    p += len;
    p += strspn(p, " ");
  }
  return n;
}
