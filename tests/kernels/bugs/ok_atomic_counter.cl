/* Correct: atomics on an in-bounds counter and histogram. */
kernel void ok_atomic_counter(global const int *in, global int *hist)
{
  size_t i = get_global_id(0);
  atomic_inc(&hist[in[i] & 3]);
  atomic_add(&hist[4], 1);
}
