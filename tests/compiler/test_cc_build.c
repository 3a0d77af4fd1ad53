/* SPDX-License-Identifier: MIT */
/* sg_build end to end (clang-19 + LLVM): options, diagnostics, kernel
 * metadata against the kernel's declared signature, program binary round
 * trip and the reconvergence table of an if/else and of a loop of selects. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "sg_cc_internal.h"

static enum sg_status build_h(const char *src, const char *opts, const struct sg_header *h,
                              uint32_t nh, struct sg_build_result *res)
{
  struct sg_build_request req = {.source = src, .options = opts, .headers = h, .num_headers = nh};
  enum sg_status st = sg_build(&req, res);
  assert_non_null(res->log);
  if (st == SG_OK) {
    assert_non_null(res->binary);
    assert_true(res->binary_size > 0);
  }
  return st;
}

static enum sg_status build(const char *src, const char *opts, struct sg_build_result *res)
{
  return build_h(src, opts, NULL, 0, res);
}

static struct sg_program_image *load(const struct sg_build_result *res)
{
  struct sg_program_image *img = NULL;
  char err[256];
  assert_int_equal(sg_program_load(res->binary, res->binary_size, &img, err, sizeof err), SG_OK);
  return img;
}

static const char args_src[] =
    "typedef struct { int a; float b; char c; } S;\n"
    "__kernel __attribute__((reqd_work_group_size(8,4,1)))\n"
    "void k(__global float *restrict out, __constant int *c, __local volatile float *l,\n"
    "       int n, float4 v, S s, __global const int *in) {\n"
    "  if (n > 3) out[0] = v.x + s.b + c[0] + l[0]; else out[1] = in[2];\n"
    "}\n";

static void test_arg_metadata(void **state)
{
  (void)state;
  struct sg_build_result res;
  assert_int_equal(build(args_src, "-cl-kernel-arg-info", &res), SG_OK);
  struct sg_program_image *img = load(&res);
  const struct sg_kernel_info *k = sg_program_find_kernel(img, "k");
  assert_non_null(k);
  assert_null(sg_program_find_kernel(img, "nope"));
  assert_string_equal(k->attributes, "reqd_work_group_size(8,4,1)");
  assert_int_equal(k->reqd_work_group_size[0], 8);
  assert_int_equal(k->reqd_work_group_size[1], 4);
  assert_int_equal(k->reqd_work_group_size[2], 1);
  assert_int_equal(k->num_args, 7);
  /* Expected: kind, address qualifier, type qualifier, size, offset (C
   * layout of the argument types: pointers 8, int 4, float4 16-aligned,
   * struct {int,float,char} = 12 bytes aligned 4). */
  static const struct {
    const char *name, *type;
    enum sg_arg_kind kind;
    uint32_t aq;
    uint64_t tq;
    uint32_t size, offset;
  } want[] = {
      {"out", "float*", SG_ARG_GLOBAL, SG_CL_ADDRESS_GLOBAL, SG_CL_TYPE_RESTRICT, 8, 0},
      {"c", "int*", SG_ARG_CONSTANT, SG_CL_ADDRESS_CONSTANT, SG_CL_TYPE_CONST, 8, 8},
      {"l", "float*", SG_ARG_LOCAL, SG_CL_ADDRESS_LOCAL, SG_CL_TYPE_VOLATILE, 8, 16},
      {"n", "int", SG_ARG_VALUE, SG_CL_ADDRESS_PRIVATE, 0, 4, 24},
      {"v", "float4", SG_ARG_VALUE, SG_CL_ADDRESS_PRIVATE, 0, 16, 32},
      {"s", "S", SG_ARG_VALUE, SG_CL_ADDRESS_PRIVATE, 0, 12, 48},
      {"in", "int*", SG_ARG_GLOBAL, SG_CL_ADDRESS_GLOBAL, SG_CL_TYPE_CONST, 8, 64},
  };
  for (uint32_t i = 0; i < 7; i++) {
    const struct sg_kernel_arg *a = &k->args[i];
    assert_string_equal(a->name, want[i].name);
    assert_string_equal(a->type_name, want[i].type);
    assert_int_equal(a->kind, want[i].kind);
    assert_int_equal(a->address_qualifier, want[i].aq);
    assert_int_equal(a->access_qualifier, SG_CL_ACCESS_NONE);
    assert_int_equal(a->type_qualifier, want[i].tq);
    assert_int_equal(a->size, want[i].size);
    assert_int_equal(a->offset, want[i].offset);
  }
  assert_int_equal(k->args_size, 80); /* 72 bytes padded to the float4 alignment */
  assert_true(k->uses & SG_USES_LOCAL_SHAPE); /* a __local argument */
  sg_program_image_free(img);
  sg_build_result_free(&res);

  /* Without -cl-kernel-arg-info the names are not recorded. */
  assert_int_equal(build(args_src, NULL, &res), SG_OK);
  img = load(&res);
  assert_string_equal(img->kernels[0].args[0].name, "");
  assert_string_equal(img->kernels[0].args[0].type_name, "float*");
  sg_program_image_free(img);
  sg_build_result_free(&res);
}

/* Image and sampler arguments: their kinds, the image type (from the base
 * type, so a typedef is seen through), access qualifiers and 8-byte slots;
 * the binary keeps them. */
static void test_image_metadata(void **state)
{
  (void)state;
  struct sg_build_result res;
  const char *src =
      "typedef image2d_t picture;\n"
      "const sampler_t lit = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_LINEAR;\n"
      "__kernel void k(read_only picture a, write_only image3d_t b, sampler_t s,\n"
      "                read_write image1d_buffer_t c, read_only image2d_array_depth_t d,\n"
      "                __global float4 *out) {\n"
      "  out[0] = read_imagef(a, s, (int2)(0, 0)) + read_imagef(a, lit, (float2)(0.5f, 0.5f));\n"
      "  write_imagef(b, (int4)(0), out[1]);\n"
      "  write_imageui(c, 0, read_imageui(c, 1));\n"
      "  out[2].x = read_imagef(d, s, (int4)(0)) + get_image_array_size(d);\n"
      "}\n";
  assert_int_equal(build(src, "-cl-std=CL3.0 -cl-kernel-arg-info", &res), SG_OK);
  struct sg_program_image *img = load(&res);
  const struct sg_kernel_info *k = sg_program_find_kernel(img, "k");
  assert_non_null(k);
  static const struct {
    const char *type;
    enum sg_arg_kind kind;
    uint32_t image, access, address;
  } want[] = {
      {"picture", SG_ARG_IMAGE, SG_IMAGE_2D, SG_CL_ACCESS_READ_ONLY, SG_CL_ADDRESS_GLOBAL},
      {"image3d_t", SG_ARG_IMAGE, SG_IMAGE_3D, SG_CL_ACCESS_WRITE_ONLY, SG_CL_ADDRESS_GLOBAL},
      {"sampler_t", SG_ARG_SAMPLER, SG_IMAGE_NONE, SG_CL_ACCESS_NONE, SG_CL_ADDRESS_PRIVATE},
      {"image1d_buffer_t", SG_ARG_IMAGE, SG_IMAGE_1D_BUFFER, SG_CL_ACCESS_READ_WRITE,
       SG_CL_ADDRESS_GLOBAL},
      {"image2d_array_depth_t", SG_ARG_IMAGE, SG_IMAGE_2D_ARRAY_DEPTH, SG_CL_ACCESS_READ_ONLY,
       SG_CL_ADDRESS_GLOBAL},
      {"float4*", SG_ARG_GLOBAL, SG_IMAGE_NONE, SG_CL_ACCESS_NONE, SG_CL_ADDRESS_GLOBAL},
  };
  assert_int_equal(k->num_args, 6);
  for (uint32_t i = 0; i < 6; i++) {
    const struct sg_kernel_arg *a = &k->args[i];
    assert_string_equal(a->type_name, want[i].type);
    assert_int_equal(a->kind, want[i].kind);
    assert_int_equal(a->image_type, want[i].image);
    assert_int_equal(a->access_qualifier, want[i].access);
    assert_int_equal(a->address_qualifier, want[i].address);
    assert_int_equal(a->size, 8);
    assert_int_equal(a->offset, 8 * i);
  }
  sg_program_image_free(img);
  sg_build_result_free(&res);
}

static void test_attributes_and_uses(void **state)
{
  (void)state;
  struct sg_build_result res;
  const char *src =
      "__kernel __attribute__((work_group_size_hint(16,1,1))) __attribute__((vec_type_hint(uint2)))\n"
      "void flat(__global int *a) { a[0] = 1; }\n"
      "__kernel void shaped(__global int *a) {\n"
      "  __local int t[64];\n"
      "  t[a[1] & 63] = a[2];\n"
      "  a[0] = t[a[3] & 63];\n"
      "}\n";
  assert_int_equal(build(src, NULL, &res), SG_OK);
  struct sg_program_image *img = load(&res);
  const struct sg_kernel_info *flat = sg_program_find_kernel(img, "flat");
  const struct sg_kernel_info *shaped = sg_program_find_kernel(img, "shaped");
  assert_non_null(flat);
  assert_non_null(shaped);
  assert_string_equal(flat->attributes, "work_group_size_hint(16,1,1) vec_type_hint(uint2)");
  assert_int_equal(flat->work_group_size_hint[0], 16);
  assert_int_equal(flat->uses & SG_USES_LOCAL_SHAPE, 0);
  assert_true(shaped->uses & SG_USES_LOCAL_SHAPE);
  assert_true(shaped->static_local_size >= 64 * 4);
  assert_true(flat->entry_pc != shaped->entry_pc);
  for (int i = 0; i < 2; i++) {
    uint64_t pc = img->kernels[i].entry_pc;
    assert_true(pc >= img->ro_base && pc < img->ro_base + img->ro_size && pc % 4 == 0);
  }
  assert_int_equal(img->cl_c_version, 120);
  assert_true(img->uniform_work_group);
  sg_program_image_free(img);
  sg_build_result_free(&res);
}

static void test_syntax_error(void **state)
{
  (void)state;
  struct sg_build_result res;
  const char *src = "__kernel void k(__global int *a)\n{\n  a[0] = 1 +;\n}\n";
  assert_int_equal(build(src, NULL, &res), SG_EBUILD);
  assert_non_null(strstr(res.log, "input.cl:3:13: error:"));
  assert_non_null(strstr(res.log, "1 error generated.")); /* as clang-19 prints it */
  assert_null(res.binary);
  sg_build_result_free(&res);
}

static void test_bad_options(void **state)
{
  (void)state;
  static const struct { const char *opts, *named; } bad[] = {
      {"-cl-bogus", "-cl-bogus"},
      {"-O2 -cl-mad-enable", "-O2"},
      {"-cl-std=CL9.9", "CL9.9"},
      {"-D", "-D"},
      {"-DX='unterminated", "quote"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    struct sg_build_result res;
    assert_int_equal(build("__kernel void k(){}", bad[i].opts, &res), SG_EOPTIONS);
    assert_non_null(strstr(res.log, bad[i].named));
    sg_build_result_free(&res);
  }
}

static void test_defines_and_headers(void **state)
{
  (void)state;
  const struct sg_header h[] = {{"inc/defs.h", "#define VAL 42\n"}};
  const char *src = "#include <defs.h>\n"
                    "#if VAL != 42 || !defined(SCALE) || SCALE != 3 || MSG != 3\n"
                    "#error macros\n"
                    "#endif\n"
                    "__kernel void k(__global int *a) { a[0] = VAL * SCALE; }\n";
  struct sg_build_result res;
  assert_int_equal(build_h(src, "-I inc -DSCALE=3 -D 'MSG=1 + 2' -w -cl-mad-enable", h, 1, &res), SG_OK);
  sg_build_result_free(&res);
  assert_int_equal(build_h(src, "-I inc -D SCALE=4 -DMSG=3", h, 1, &res), SG_EBUILD);
  assert_non_null(strstr(res.log, "macros"));
  sg_build_result_free(&res);
  assert_int_equal(build_h(src, "-DSCALE=3 -DMSG=3", h, 1, &res), SG_EBUILD); /* no -I */
  assert_non_null(strstr(res.log, "defs.h"));
  sg_build_result_free(&res);
  const struct sg_header evil[] = {{"../escape.h", "x"}};
  assert_int_equal(build_h(src, NULL, evil, 1, &res), SG_EINVAL);
  sg_build_result_free(&res);
  /* Function-like macros, as hashcat defines them (-D XM2S(x)=#x). */
  const char *fn = "__constant char s[] = M2S(ab);\n"
                   "__kernel void k(__global int *a) { a[0] = SQ(3) + SUM(1, 2) + sizeof s; }\n";
  assert_int_equal(build(fn, "-D XM2S(x)=#x -DM2S(x)=XM2S(x) -D 'SQ(x)=((x)*(x))' "
                             "-D 'SUM(a, b)=(a + b)'", &res), SG_OK);
  sg_build_result_free(&res);
  assert_int_equal(build(fn, "-D 'SQ(x=x'", &res), SG_EOPTIONS);
  assert_non_null(strstr(res.log, "parameter list"));
  sg_build_result_free(&res);
  assert_int_equal(build(fn, "-D 'SQ(x)x'", &res), SG_EOPTIONS);
  sg_build_result_free(&res);
  assert_int_equal(build(fn, "-D 9SQ(x)=x", &res), SG_EOPTIONS);
  assert_non_null(strstr(res.log, "not an identifier"));
  sg_build_result_free(&res);
}

static void test_cl30_generic(void **state)
{
  (void)state;
  const char *src = "void set(int *p, int v) { *p = v; }\n" /* generic pointer */
                    "__global int counter = 5;\n"
                    "__kernel void k(__global int *a) {\n"
                    "  __local int t;\n"
                    "  set(&t, 1); set(a, t + counter); counter++;\n"
                    "}\n";
  struct sg_build_result res;
  assert_int_equal(build(src, "-cl-std=CL3.0", &res), SG_OK);
  struct sg_program_image *img = load(&res);
  assert_int_equal(img->cl_c_version, 300);
  assert_false(img->uniform_work_group);
  assert_true(img->rw_size >= 4); /* the program-scope variable */
  int32_t init;
  memcpy(&init, img->rw, 4);
  assert_int_equal(init, 5);
  sg_program_image_free(img);
  sg_build_result_free(&res);
  assert_int_equal(build(src, "-cl-std=CL3.0 -cl-uniform-work-group-size -cl-opt-disable", &res), SG_OK);
  img = load(&res);
  assert_true(img->uniform_work_group);
  sg_program_image_free(img);
  sg_build_result_free(&res);
}

static void test_link_errors(void **state)
{
  (void)state;
  struct sg_build_result res;
  assert_int_equal(build("int my_helper(int);\n"
                         "__kernel void k(__global int *a) { a[0] = my_helper(1); }\n",
                         NULL, &res),
                   SG_ELINK);
  assert_non_null(strstr(res.log, "my_helper"));
  sg_build_result_free(&res);
}

/* A build run stage by stage up to the reconvergence table, to look at
 * the linked code and its table. */
struct staged {
  struct sg_text log;
  struct sg_options opt;
  void *bc;
  size_t bc_size, n;
  struct sg_cc_object obj;
  struct sg_linked l;
  struct sg_reconv *table;
};

static void stage(const char *src, struct staged *b)
{
  struct sg_build_request req = {.source = src};
  *b = (struct staged){0};
  assert_int_equal(sg_cc_parse_options(NULL, &b->opt, &b->log), SG_OK);
  assert_int_equal(sg_cc_frontend(&req, &b->opt, &b->bc, &b->bc_size, &b->log), SG_OK);
  assert_int_equal(sg_cc_compile(b->bc, b->bc_size, &b->opt, &b->obj, &b->log), SG_OK);
  assert_int_equal(sg_cc_link(b->obj.obj, b->obj.obj_size, &b->l, &b->log), SG_OK);
  assert_int_equal(sg_cc_reconv(&b->l, &b->table, &b->n, &b->log), SG_OK);
}

static void unstage(struct staged *b)
{
  free(b->table);
  sg_linked_free(&b->l);
  sg_cc_object_free(&b->obj);
  free(b->bc);
  sg_cc_options_free(&b->opt);
  free(b->log.buf);
}

/* The linked instruction at pc, decoded. */
static struct sg_uop uop_at(const struct staged *b, uint64_t pc)
{
  uint32_t w;
  memcpy(&w, b->l.ro + (pc - SG_ADDR_CODE), 4);
  struct sg_uop u;
  sg_decode(w, &u);
  return u;
}

/* An if/else with different work on both sides: the branch's table entry
 * names the join block, which lies after the branch, inside the function,
 * and is neither of the branch's two successors. Runs the stages one by one
 * to see the linked symbols. */
static void test_reconv_if_else(void **state)
{
  (void)state;
  const char *src = "__kernel void k(__global int *a, int n) {\n"
                    "  if (a[0] > n) { a[1] = n * 5; a[4] = a[7] / n; }\n"
                    "  else { a[2] = n - 1; }\n"
                    "  a[3] = a[5] + n;\n"
                    "}\n";
  struct staged b;
  stage(src, &b);
  const struct sg_cc_symbol *f = sg_linked_find(&b.l, SG_ENTRY_PREFIX "k");
  assert_non_null(f);
  /* The kernel's own branch (the device library's memcpy has loops too). */
  size_t i = 0;
  while (i < b.n && !(b.table[i].branch_pc >= f->addr && b.table[i].branch_pc < f->addr + f->size))
    i++;
  assert_true(i < b.n);
  uint64_t pc = b.table[i].branch_pc, join = b.table[i].reconv_pc;
  struct sg_uop u = uop_at(&b, pc);
  assert_int_equal(sg_uop_flow(&u), SG_FLOW_BRANCH);
  assert_true(join != SG_RECONV_EXIT);
  assert_true(join > pc && join < f->addr + f->size);
  assert_true(join != pc + 4 && join != pc + (uint64_t)u.imm);
  unstage(&b);
}

/* A loop whose body is a chain of data-dependent selects (the Ranlux
 * subtract-with-borrow step). Every branch in the loop body must rejoin
 * within the iteration, so lanes split in one iteration run together in
 * the next. Tail duplication used to copy each join into both arms:
 * interleaved tracks whose branches post-dominated each other only at the
 * loop exit. The selects themselves are no branches at all (they were,
 * without conditional moves, before sg_cc_select.c): the loop's only
 * branch is its exit. */
static void test_reconv_select_chain(void **state)
{
  (void)state;
  const char *src =
      "void step(float a, float *s, float *c) {\n"
      "  float u = a - *s - *c;\n"
      "  if (u < 0.0f) { u += 1.0f; *c = 0x1p-24f; } else { *c = 0.0f; }\n"
      "  *s = u;\n"
      "}\n"
      "__kernel void k(__global float *a) {\n"
      "  float s0 = a[0], s1 = a[1], s2 = a[2], s3 = a[3], s4 = a[4], c = 0, acc = 0;\n"
      "  for (int i = 0; i < 50; i++) {\n"
      "    step(s2, &s0, &c), step(s3, &s1, &c), step(s4, &s2, &c), step(s0, &s3, &c);\n"
      "    acc += s0;\n"
      "  }\n"
      "  a[get_global_id(0)] = acc;\n"
      "}\n";
  struct staged b;
  stage(src, &b);
  const struct sg_cc_symbol *f = sg_linked_find(&b.l, SG_ENTRY_PREFIX "k");
  assert_non_null(f);
  /* The loop: from the first target of a backward branch or jump to the
   * last such branch or jump. */
  uint64_t loop_start = UINT64_MAX, loop_end = 0;
  for (uint64_t pc = f->addr; pc < f->addr + f->size; pc += 4) {
    struct sg_uop u = uop_at(&b, pc);
    enum sg_flow fl = sg_uop_flow(&u);
    if ((fl == SG_FLOW_BRANCH || fl == SG_FLOW_JUMP) && u.imm < 0) {
      loop_end = pc;
      if (pc + (uint64_t)u.imm < loop_start)
        loop_start = pc + (uint64_t)u.imm;
    }
  }
  assert_true(loop_end != 0);
  /* A branch that rejoins only after the loop must be a loop exit: one of
   * its arms leaves straight to that point. Every other branch rejoins
   * within the iteration. */
  int in_loop = 0;
  for (size_t i = 0; i < b.n; i++) {
    uint64_t pc = b.table[i].branch_pc, r = b.table[i].reconv_pc;
    if (pc < loop_start || pc > loop_end)
      continue;
    struct sg_uop u = uop_at(&b, pc);
    if (r <= loop_end)
      in_loop++;
    else
      assert_true(pc + (uint64_t)u.imm >= r || pc + 4 >= r);
  }
  assert_int_equal(in_loop, 0); /* the four selects are arithmetic */
  unstage(&b);
}

/* A condition of || terms is one branch: each branch of a SIMT machine
 * may diverge (and ends a translated block), so the terms are computed and
 * or-ed, not tested one branch each. */
static void test_compound_condition_one_branch(void **state)
{
  (void)state;
  const char *src =
      "__kernel void k(__global const float *in, __global float *out, int w, int h) {\n"
      "  int x = get_global_id(0), y = get_global_id(1);\n"
      "  if (x == 0 || y == 0 || x >= w - 1 || y >= h - 1) { out[y * w + x] = in[y * w + x]; return; }\n"
      "  out[y * w + x] = in[y * w + x - 1] + in[y * w + x + 1];\n"
      "}\n";
  struct staged b;
  stage(src, &b);
  const struct sg_cc_symbol *f = sg_linked_find(&b.l, SG_ENTRY_PREFIX "k");
  assert_non_null(f);
  int branches = 0;
  for (uint64_t pc = f->addr; pc < f->addr + f->size; pc += 4) {
    struct sg_uop u = uop_at(&b, pc);
    branches += sg_uop_flow(&u) == SG_FLOW_BRANCH;
  }
  assert_int_equal(branches, 1);
  unstage(&b);
}

/* A dynamically indexed private array lives on the stack: the estimate
 * covers at least its 400 bytes. */
static void test_private_size(void **state)
{
  (void)state;
  const char *src = "__kernel void k(__global float *o, int n) {\n"
                    "  float arr[100];\n"
                    "  for (int i = 0; i < 100; i++) arr[i] = o[i] * n;\n"
                    "  o[1] = arr[n % 100];\n"
                    "}\n";
  struct sg_build_result res;
  assert_int_equal(build(src, NULL, &res), SG_OK);
  struct sg_program_image *img = load(&res);
  assert_true(img->kernels[0].private_size >= 400);
  assert_true(img->kernels[0].private_size % 16 == 0);
  sg_program_image_free(img);
  sg_build_result_free(&res);
}

static void test_identity(void **state)
{
  (void)state;
  assert_non_null(strstr(sg_compiler_version(), "LLVM 19"));
  assert_non_null(strstr(sg_compiler_extensions(), "cl_khr_fp64"));
  assert_non_null(strstr(sg_compiler_extensions(), "cl_khr_global_int32_base_atomics"));
  assert_null(strstr(sg_compiler_extensions(), "__opencl_c"));
  assert_non_null(strstr(sg_compiler_c_features(), "__opencl_c_fp64"));
  assert_null(strstr(sg_compiler_c_features(), "cl_khr"));
}

int main(void)
{
  sg_cc_set_clang(sg_cc_clang_run); /* for the staged builds */
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_arg_metadata),      cmocka_unit_test(test_attributes_and_uses),
      cmocka_unit_test(test_image_metadata),
      cmocka_unit_test(test_syntax_error),      cmocka_unit_test(test_bad_options),
      cmocka_unit_test(test_defines_and_headers), cmocka_unit_test(test_cl30_generic),
      cmocka_unit_test(test_link_errors),       cmocka_unit_test(test_reconv_if_else),
      cmocka_unit_test(test_reconv_select_chain),
      cmocka_unit_test(test_compound_condition_one_branch),
      cmocka_unit_test(test_private_size),      cmocka_unit_test(test_identity),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
