/* OpenCL C 6.12 "Preprocessor Directives and Macros": what a kernel sees of
 * the device and of its build options. Undefined macros read as 0. */
kernel void macros(global int *out)
{
#ifdef __OPENCL_VERSION__
  out[0] = __OPENCL_VERSION__;
#endif
#ifdef __OPENCL_C_VERSION__
  out[1] = __OPENCL_C_VERSION__;
#endif
#ifdef __ENDIAN_LITTLE__
  out[2] = __ENDIAN_LITTLE__;
#endif
#ifdef __IMAGE_SUPPORT__
  out[3] = __IMAGE_SUPPORT__;
#endif
#ifdef __FAST_RELAXED_MATH__
  out[4] = __FAST_RELAXED_MATH__;
#endif
  out[5] = CL_VERSION_1_2;
  out[6] = __LINE__;
}
