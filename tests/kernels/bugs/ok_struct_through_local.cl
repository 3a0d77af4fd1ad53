/* Correct: structs with padding go through __local memory and back out
 * (padding is copied, never used). */
typedef struct { char c; long v; } pair;
kernel void ok_struct_through_local(global const pair *in, global pair *out)
{
  local pair tmp[16];
  size_t l = get_local_id(0);
  pair p;
  p.c = in[l].c + 1;
  p.v = in[l].v * 2;
  tmp[l] = p;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[l] = tmp[15 - l];
}
