/* Calls inside divergent control flow (calls.*.run): the lanes that went
 * different ways, each through calls, must rejoin before the barrier and the
 * sub-group reduction after them. Every kernel ends in finish(). */

/* A barrier every work-item reaches, a neighbour's value read through local
 * memory (so the barrier must have synchronised), and a sub-group reduction
 * checked against the same sum taken through local memory: ok[] is 1 when
 * the reduction saw exactly the lanes of the sub-group. */
static void finish(uint v, local uint *scratch, global uint *out, global uint *ok)
{
  uint l = get_local_id(0), g = get_global_id(0);
  scratch[l] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint first = get_sub_group_id() * get_max_sub_group_size(), sum = 0;
  for (uint k = 0; k < get_sub_group_size(); k++)
    sum += scratch[first + k];
  out[g] = v + 3u * scratch[(l + 1) % get_local_size(0)];
  ok[g] = sub_group_reduce_add(v) == sum;
}

/* A struct large enough that copying it is a call to memcpy. */
typedef struct {
  uint w[64];
} blob;

kernel void struct_copy(global const blob *in, global uint *out, global uint *ok)
{
  local blob tiles[64];
  local uint scratch[64];
  uint l = get_local_id(0), g = get_global_id(0);
  if (g % 3u != 0u) {
    tiles[l] = in[g % 4u];
  } else {
    for (uint k = 0; k < 64u; k++)
      tiles[l].w[k] = g + k;
  }
  finish(tiles[l].w[l] + tiles[l].w[63], scratch, out, ok);
}

/* Several returns, some taken by only part of the lanes. */
__attribute__((noinline)) uint early(uint x)
{
  if (x % 5u == 0u)
    return x * 3u;
  uint s = 0;
  for (uint k = 0; k < x % 13u; k++) {
    s += k * x;
    if ((s & 7u) == 3u)
      return s;
  }
  return s ^ x;
}

__attribute__((noinline)) uint depth1(uint x)
{
  return (x & 1u) ? early(x) + 1u : x / 3u;
}

__attribute__((noinline)) uint depth2(uint x)
{
  if (x % 3u == 1u)
    return depth1(x + 7u) * 2u;
  return depth1(x) + early(x + 1u);
}

__attribute__((noinline)) uint depth3(uint x)
{
  uint r = x % 4u == 2u ? depth2(x) : depth2(x + 11u) ^ 5u;
  return r + 1u;
}

kernel void noinline_call(global uint *out, global uint *ok)
{
  local uint scratch[64];
  uint g = get_global_id(0), v;
  if (g % 2u)
    v = early(g);
  else
    v = depth3(g);
  finish(v, scratch, out, ok);
}

kernel void loop_call(global uint *out, global uint *ok)
{
  local uint scratch[64];
  uint g = get_global_id(0), v = g;
  for (uint k = 0; k < g % 7u; k++) {
    v += early(v + k);
    if (v % 11u == 4u)
      v += depth3(k);
  }
  finish(v, scratch, out, ok);
}

kernel void printf_branch(global uint *out, global uint *ok)
{
  local uint scratch[64];
  uint g = get_global_id(0), v = g * 5u;
  if (g % 64u == 0u) {
    printf("work-item %u of group %u: %v4hlf %s\n", g, (uint)get_group_id(0),
           (float4)(g, 1.5f, -2.0f, 0.25f), "done");
    v += 1u;
  }
  finish(v, scratch, out, ok);
}
