/* SPDX-License-Identifier: MIT */
/* API tests (DESIGN.md "Tests"): one table-driven check for every clGet*Info
 * of OpenCL 3.0 (4.1, 4.2, 4.4, 5.5.5). A table row names a query and the
 * shape of its answer; the check holds each row to the rules shared by all
 * Get*Info calls: the size, param_value_size_ret always set, a too-small
 * param_value_size is CL_INVALID_VALUE, nothing written past the value. */
#ifndef SG_INFO_TABLE_H
#define SG_INFO_TABLE_H

#include <CL/cl.h>
#include <stdlib.h>
#include <string.h>

enum sg_info_shape {
  SG_FIXED,  /* exactly `size` bytes */
  SG_STRING, /* a NUL-terminated char[] */
  SG_ARRAY   /* any number (0 too) of `size`-byte elements */
};

struct sg_info_row {
  cl_uint name;
  const char *label;
  enum sg_info_shape shape;
  size_t size;
};

#define SG_ROW(name, type)                                                                         \
  { name, #name, SG_FIXED, sizeof(type) }
#define SG_ROW_STR(name)                                                                           \
  { name, #name, SG_STRING, 1 }
#define SG_ROW_ARRAY(name, type)                                                                   \
  { name, #name, SG_ARRAY, sizeof(type) }

/* clGet*Info of one object, whatever its handle type. */
typedef cl_int (*sg_info_fn)(void *obj, cl_uint name, size_t size, void *value, size_t *ret);

static void sg_check_info_row(sg_info_fn get, void *obj, const struct sg_info_row *r) {
  size_t size = 0xdead;
  cl_int err = get(obj, r->name, 0, NULL, &size);
  if (err != CL_SUCCESS)
    fail_msg("%s: size query returned %d", r->label, err);
  if (r->shape == SG_FIXED && size != r->size)
    fail_msg("%s: %zu bytes, expected %zu", r->label, size, r->size);
  if (r->shape == SG_STRING && size < 1)
    fail_msg("%s: an empty answer is not a string", r->label);
  if (r->shape == SG_ARRAY && size % r->size != 0)
    fail_msg("%s: %zu bytes is not a whole number of %zu-byte elements", r->label, size, r->size);

  /* Exactly the size: the value, size_ret again, and no byte past it. */
  enum { CANARY = 16 };
  unsigned char *buf = malloc(size + CANARY);
  assert_non_null(buf);
  memset(buf, 0xa5, size + CANARY);
  size_t ret = 0xdead;
  err = get(obj, r->name, size, buf, &ret);
  if (err != CL_SUCCESS || ret != size)
    fail_msg("%s: value query returned %d, size_ret %zu (expected %zu)", r->label, err, ret, size);
  for (size_t i = size; i < size + CANARY; i++)
    if (buf[i] != 0xa5)
      fail_msg("%s: byte %zu past the value was written", r->label, i);
  if (r->shape == SG_STRING && (buf[size - 1] != '\0' || strlen((char *)buf) != size - 1))
    fail_msg("%s: not a string of %zu bytes", r->label, size);
  /* A value with param_value_size_ret NULL is fine too. */
  if (get(obj, r->name, size, buf, NULL) != CL_SUCCESS)
    fail_msg("%s: query without param_value_size_ret failed", r->label);
  /* One byte short: CL_INVALID_VALUE (a 0-byte answer cannot be short). */
  if (size > 0 && (err = get(obj, r->name, size - 1, buf, &ret)) != CL_INVALID_VALUE)
    fail_msg("%s: a %zu-byte buffer gave %d, not CL_INVALID_VALUE", r->label, size - 1, err);
  free(buf);
}

/* Every row, then names that are not queries of this object. */
static void sg_check_info_table(sg_info_fn get, void *obj, const struct sg_info_row *rows,
                                size_t n) {
  for (size_t i = 0; i < n; i++)
    sg_check_info_row(get, obj, &rows[i]);
  const cl_uint unknown[] = {0, 0x7fff, 0xffffffffu};
  char buf[64];
  size_t ret;
  for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
    assert_int_equal(get(obj, unknown[i], sizeof buf, buf, &ret), CL_INVALID_VALUE);
    assert_int_equal(get(obj, unknown[i], 0, NULL, &ret), CL_INVALID_VALUE);
  }
}

#endif
