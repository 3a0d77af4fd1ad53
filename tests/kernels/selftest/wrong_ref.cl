/* The runner must report a mismatch: the .ref is wrong at index 3. */
kernel void copy(global const int *in, global int *out)
{
  out[get_global_id(0)] = in[get_global_id(0)];
}
