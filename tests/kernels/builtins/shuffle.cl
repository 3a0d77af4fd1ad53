/* shuffle and shuffle2 (OpenCL C 1.2 s6.12.12): only the low bits of each
 * mask component select (log2 of the source width, plus one for shuffle2). */
kernel void shuffle_cases(global int *out)
{
  int4 a = (int4)(10, 20, 30, 40);
  int4 b = (int4)(50, 60, 70, 80);
  vstore4(shuffle(a, (uint4)(3, 0, 2, 1)), 0, out);
  vstore8(shuffle2(a, b, (uint8)(7, 0, 4, 3, 1, 6, 5, 2)), 0, out + 4);
  vstore2(shuffle(a, (uint2)(5, 6)), 0, out + 12);   /* 5 & 3 = 1, 6 & 3 = 2 */
  vstore2(shuffle2(a, b, (uint2)(9, 14)), 0, out + 14); /* 9 & 7 = 1, 14 & 7 = 6 */
}
