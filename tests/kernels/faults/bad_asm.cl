/* Inline assembly the assembler rejects: clang accepts the source, the error
 * comes from LLVM's back end and must still fail the build. */
kernel void bad_asm(global int *p)
{
  __asm__("this is not an instruction");
  p[0] = 1;
}
