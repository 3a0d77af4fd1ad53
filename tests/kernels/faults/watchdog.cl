/* A loop that never ends (the flag stays 0; volatile keeps the compiler
 * from assuming termination) is stopped by the watchdog. */
kernel void watchdog(volatile global int *flag, global int *out)
{
  while (flag[0] == 0)
    ;
  out[get_global_id(0)] = 1;
}
