/* The pattern of Boost.Compute's serial_merge: every work-item loads the
 * next element before it knows whether it needs it, so the last one loads
 * one past the end and never uses the value. The load reads zero and is
 * reported; the result is right. */
kernel void one_past_end(global const int *a, global int *out, uint n)
{
  size_t i = get_global_id(0);
  int next = a[i + 1];
  out[i] = a[i] + select(0, next, (int)(i + 1 < n));
}
