/* y = a * x + y over n elements; the guard makes a divergent branch when
 * the ND-range is larger than n. */
kernel void saxpy(global float *y, global const float *x, float a, int n)
{
  int i = get_global_id(0);
  if (i < n)
    y[i] = a * x[i] + y[i];
}

/* Each work-group reverses its slice through local memory. */
kernel void reverse(global int *data, local int *tmp)
{
  size_t l = get_local_id(0), n = get_local_size(0);
  tmp[l] = data[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  data[get_global_id(0)] = tmp[n - 1 - l];
}
