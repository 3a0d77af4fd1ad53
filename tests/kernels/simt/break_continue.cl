/* continue and break at different iterations per lane, and a break out of
 * an inner loop that only some lanes take. */
kernel void break_continue(global uint *out, global uint *inner)
{
  uint i = get_global_id(0);
  uint acc = 0;
  for (uint k = 0; k < 64u; k++) {
    if ((k + i) % 5u == 0u)
      continue;
    acc += k * (i & 7u) + 1u;
    if (acc > 100u + i)
      break;
  }
  out[i] = acc;

  uint found = 0;
  for (uint a = 1; a < 16u; a++) {
    uint b;
    for (b = 1; b < 16u; b++)
      if (a * b == i % 50u)
        break;
    if (b < 16u) {
      found = a * 100u + b;
      break;
    }
  }
  inner[i] = found;
}
