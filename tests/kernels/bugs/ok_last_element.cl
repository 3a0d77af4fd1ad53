/* Correct: the last work-item reads exactly the last element. */
kernel void ok_last_element(global const int *in, global int *out)
{
  size_t i = get_global_id(0), n = get_global_size(0);
  out[i] = in[n - 1 - i];
}
