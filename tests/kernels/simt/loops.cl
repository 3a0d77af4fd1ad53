/* Loops whose trip counts differ per lane: a counted loop with a
 * data-dependent bound, and a Collatz while loop with a divergent if inside. */
kernel void loops(global const uint *in, global uint *acc_out, global uint *steps_out)
{
  uint i = get_global_id(0);
  uint n = (in[i] * 0x9E3779B1u >> 20) % 37u;
  uint acc = i;
  for (uint k = 0; k < n; k++)
    acc = acc * 1664525u + 1013904223u + k;
  acc_out[i] = acc;

  uint x = i + 1u, steps = 0;
  while (x != 1u) {
    if (x & 1u)
      x = 3u * x + 1u;
    else
      x /= 2u;
    steps++;
  }
  steps_out[i] = steps;
}
