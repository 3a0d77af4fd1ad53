/* SPDX-License-Identifier: MIT */
/* Odd work-items return at once; of the even ones, each writes its slot of
 * __local memory and, past a branch that splits them, every other one
 * reads the slot two below its own with no barrier between. */
kernel void exit_then_race(global int *out) {
  local int s[64];
  size_t l = get_local_id(0);
  if (l % 2)
    return;
  s[l] = (int)l;
  if (l % 4 == 2)
    out[l] = s[l - 2];
}
