/* SPDX-License-Identifier: MIT */
/* Three kernels of one program, each with its own __local arrays: 20 KB,
 * 20 KB, then 20 + 10 KB. Each fits the 64 KB of local memory alone; all
 * together (70 KB) do not. A kernel needs only its own variables, so each
 * launches (CL_KERNEL_LOCAL_MEM_SIZE is per kernel, as on every GPU).
 * One work-group of 256 reverses 5120 words through local memory. */
#define N 5120

static void reverse(local uint *t, global uint *io, uint add) {
  uint l = get_local_id(0);
  for (uint i = l; i < N; i += get_local_size(0))
    t[i] = io[i];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint i = l; i < N; i += get_local_size(0))
    io[i] = t[N - 1 - i] + add;
}

kernel void first(global uint *io) {
  local uint a[N];
  reverse(a, io, 0);
}

kernel void second(global uint *io) {
  local uint b[N];
  reverse(b, io, 0);
}

kernel void third(global uint *io) {
  local uint c[N], d[N / 2];
  uint l = get_local_id(0);
  for (uint i = l; i < N / 2; i += get_local_size(0))
    d[i] = 1000;
  barrier(CLK_LOCAL_MEM_FENCE);
  reverse(c, io, d[(l * 7) % (N / 2)]);
}
