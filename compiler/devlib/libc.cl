/* SPDX-License-Identifier: MIT */
/* compiler/devlib: the three C library functions the code generator calls
 * on its own (large aggregate copies and initialisations). They keep their
 * C names; the compiler leaves them external so those calls resolve. */
#include "sg_devlib.h"

/* no_builtin: the loops below must not be recognised as memcpy/memset and
 * turned back into calls to themselves. Pointers are generic: every address
 * space is one flat device address space. */
__attribute__((no_builtin)) void *memcpy(void *dst, const void *src, size_t n)
{
  uchar *d = (uchar *)dst;
  const uchar *s = (const uchar *)src;
  for (size_t i = 0; i < n; i++)
    d[i] = s[i];
  return dst;
}

__attribute__((no_builtin)) void *memmove(void *dst, const void *src, size_t n)
{
  uchar *d = (uchar *)dst;
  const uchar *s = (const uchar *)src;
  if (d < s)
    for (size_t i = 0; i < n; i++)
      d[i] = s[i];
  else
    for (size_t i = n; i > 0; i--)
      d[i - 1] = s[i - 1];
  return dst;
}

__attribute__((no_builtin)) void *memset(void *dst, int c, size_t n)
{
  uchar *d = (uchar *)dst;
  for (size_t i = 0; i < n; i++)
    d[i] = (uchar)c;
  return dst;
}
