// SPDX-License-Identifier: MIT
// Client test (DESIGN.md "Tests"): the Khronos C++ bindings (opencl.hpp, Debian
// opencl-clhpp-headers) drive SoftGPU through the ICD loader the way C++ host
// code does, with exceptions on. Every result is checked against the host.
#define CL_HPP_ENABLE_EXCEPTIONS
// Minimum 2.0: Debian's opencl.hpp (2023.02.06) does not compile with a 3.0
// target and a 1.x minimum (getContextPlatformVersion is declared only for
// targets below 2.0).
#define CL_HPP_TARGET_OPENCL_VERSION 300
#define CL_HPP_MINIMUM_OPENCL_VERSION 200
#include <CL/opencl.hpp>

#include <cmath>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

static int failures;

#define CHECK(cond, ...)                                                                           \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      std::fprintf(stderr, "clhpp: %s:%d: %s: ", __FILE__, __LINE__, #cond);                       \
      std::fprintf(stderr, __VA_ARGS__);                                                           \
      std::fputc('\n', stderr);                                                                    \
      failures++;                                                                                  \
    }                                                                                              \
  } while (0)

static const char *source = R"CLC(
kernel void saxpy(float a, global const float *x, global float *y) {
  size_t i = get_global_id(0);
  y[i] = a * x[i] + y[i];
}

// One partial sum per work-group through __local memory and barriers.
kernel void group_sum(global const int *in, global int *out, local int *scratch) {
  size_t l = get_local_id(0), n = get_local_size(0);
  scratch[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = n / 2; s > 0; s /= 2) {
    if (l < s)
      scratch[l] += scratch[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0)
    out[get_group_id(0)] = scratch[0];
}

typedef struct { int scale; float bias; } params;
kernel void affine(params p, global const int2 *in, global float *out) {
  size_t i = get_global_id(0);
  out[i] = (float)(p.scale * (in[i].x - in[i].y)) + p.bias;
}
)CLC";

struct params {
  cl_int scale;
  cl_float bias;
};

// The SoftGPU platform when several are installed; the loader's first otherwise.
static cl::Platform pick_platform() {
  std::vector<cl::Platform> platforms;
  cl::Platform::get(&platforms);
  for (auto &p : platforms)
    if (p.getInfo<CL_PLATFORM_NAME>().find("SoftGPU") != std::string::npos)
      return p;
  return platforms.at(0);
}

static void test_saxpy(cl::Context &ctx, cl::CommandQueue &q, cl::Program &prog) {
  const size_t n = 10007; // prime: the runtime chooses the work-group size
  std::vector<float> x(n), y(n), want(n);
  for (size_t i = 0; i < n; i++) {
    x[i] = (float)(i % 101) * 0.25f;
    y[i] = (float)(i % 37) - 10.0f;
    want[i] = 3.0f * x[i] + y[i];
  }
  cl::Buffer dx(ctx, x.begin(), x.end(), true);
  cl::Buffer dy(ctx, y.begin(), y.end(), false);
  cl::KernelFunctor<cl_float, cl::Buffer, cl::Buffer> saxpy(prog, "saxpy");
  cl::Event ev = saxpy(cl::EnqueueArgs(q, cl::NDRange(n)), 3.0f, dx, dy);
  ev.wait();
  CHECK(ev.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>() == CL_COMPLETE, "event not complete");
  cl::copy(q, dy, y.begin(), y.end());
  size_t bad = 0;
  for (size_t i = 0; i < n; i++)
    bad += y[i] != want[i];
  CHECK(bad == 0, "saxpy: %zu of %zu wrong", bad, n);
}

static void test_group_sum(cl::Context &ctx, cl::CommandQueue &q, cl::Program &prog) {
  const size_t groups = 37, local = 64, n = groups * local;
  std::vector<cl_int> in(n);
  for (size_t i = 0; i < n; i++)
    in[i] = (cl_int)((i * 7919) % 1000) - 500;
  cl::Buffer din(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(cl_int), in.data());
  cl::Buffer dout(ctx, CL_MEM_WRITE_ONLY, groups * sizeof(cl_int));
  cl::KernelFunctor<cl::Buffer, cl::Buffer, cl::LocalSpaceArg> sum(prog, "group_sum");
  sum(cl::EnqueueArgs(q, cl::NDRange(n), cl::NDRange(local)), din, dout,
      cl::Local(local * sizeof(cl_int)));
  std::vector<cl_int> out(groups);
  q.enqueueReadBuffer(dout, CL_TRUE, 0, groups * sizeof(cl_int), out.data());
  for (size_t g = 0; g < groups; g++) {
    cl_int want = std::accumulate(in.begin() + g * local, in.begin() + (g + 1) * local, 0);
    CHECK(out[g] == want, "group %zu: %d, want %d", g, out[g], want);
  }

  // The kernel's work-group info as the bindings return it.
  cl::Kernel k(prog, "group_sum");
  cl::Device dev = q.getInfo<CL_QUEUE_DEVICE>();
  size_t wg = k.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dev);
  CHECK(wg >= local && wg <= dev.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>(),
        "CL_KERNEL_WORK_GROUP_SIZE %zu", wg);
}

// A struct and a vector type by value and through a buffer; a sub-buffer and
// a mapped read.
static void test_struct_subbuffer_map(cl::Context &ctx, cl::CommandQueue &q, cl::Program &prog) {
  const size_t n = 256, off = 64;
  std::vector<cl_int2> in(n);
  for (size_t i = 0; i < n; i++)
    in[i] = {{(cl_int)i * 3, (cl_int)i}};
  cl::Buffer din(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(cl_int2), in.data());
  cl::Buffer dout(ctx, CL_MEM_READ_WRITE, (n + off) * sizeof(cl_float));
  cl_buffer_region region = {off * sizeof(cl_float), n * sizeof(cl_float)};
  cl::Buffer sub = dout.createSubBuffer(CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region);
  q.enqueueFillBuffer(dout, -1.0f, 0, (n + off) * sizeof(cl_float));
  params p = {5, 0.5f};
  cl::KernelFunctor<params, cl::Buffer, cl::Buffer> affine(prog, "affine");
  affine(cl::EnqueueArgs(q, cl::NDRange(n), cl::NDRange(32)), p, din, sub);
  auto *mapped = static_cast<float *>(
      q.enqueueMapBuffer(dout, CL_TRUE, CL_MAP_READ, 0, (n + off) * sizeof(cl_float)));
  for (size_t i = 0; i < off; i++)
    CHECK(mapped[i] == -1.0f, "untouched [%zu] = %g", i, mapped[i]);
  for (size_t i = 0; i < n; i++) {
    float want = (float)(p.scale * (in[i].s[0] - in[i].s[1])) + p.bias;
    CHECK(mapped[off + i] == want, "affine[%zu] = %g, want %g", i, mapped[off + i], want);
  }
  q.enqueueUnmapMemObject(dout, mapped);
  q.finish();
}

// A build error is a cl::BuildError carrying the compiler's log.
static void test_build_error(cl::Context &ctx) {
  cl::Program bad(ctx, "kernel void broken(global int *p) { p[0] = undeclared_name; }");
  bool thrown = false;
  try {
    bad.build("-cl-std=CL1.2");
  } catch (const cl::BuildError &e) {
    thrown = true;
    CHECK(e.err() == CL_BUILD_PROGRAM_FAILURE, "BuildError code %d", e.err());
    std::string log;
    for (auto &entry : e.getBuildLog())
      log += entry.second;
    CHECK(log.find("undeclared_name") != std::string::npos, "log does not name the error: %s",
          log.c_str());
  }
  CHECK(thrown, "a broken program built");
}

int main() {
  try {
    cl::Platform platform = pick_platform();
    std::vector<cl::Device> devices;
    platform.getDevices(CL_DEVICE_TYPE_ALL, &devices);
    cl::Context ctx(devices.at(0));
    cl::CommandQueue q(ctx, devices.at(0));
    cl::Program prog(ctx, source);
    prog.build("-cl-std=CL1.2");
    std::vector<cl::Kernel> kernels;
    prog.createKernels(&kernels);
    CHECK(kernels.size() == 3, "%zu kernels", kernels.size());
    test_saxpy(ctx, q, prog);
    test_group_sum(ctx, q, prog);
    test_struct_subbuffer_map(ctx, q, prog);
    test_build_error(ctx);
    std::printf("clhpp: %s on %s\n", failures ? "FAILED" : "ok",
                devices[0].getInfo<CL_DEVICE_NAME>().c_str());
  } catch (const cl::Error &e) {
    std::fprintf(stderr, "clhpp: %s failed: %d\n", e.what(), e.err());
    return 1;
  }
  return failures != 0;
}
