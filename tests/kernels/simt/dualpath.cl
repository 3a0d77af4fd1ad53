/* Seed 002's dual-path kernel (multi-path IPDOM, ElTantawy et al.): even
 * and odd work-items take paths of different lengths that rejoin for the
 * last statement. Both reconvergence policies give the same results. */
kernel void dualpath(global const int *data_in, global int *data_out)
{
  int tid = get_global_id(0);
  if (tid % 2 == 0) {
    data_out[tid] = data_in[tid] + 10000;
  } else {
    data_out[tid] = data_in[tid] + 100;
    data_out[tid] = data_out[tid] + 100;
    data_out[tid] = data_out[tid] + 100;
    data_out[tid] = data_out[tid] + 100;
  }
  data_out[tid] += 1;
}
