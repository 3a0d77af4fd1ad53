/* SPDX-License-Identifier: MIT */
/* DESIGN.md "2. The compiler": the device library bitcode, embedded in the
 * library so libsoftgpu.so needs no data files. SG_DEVLIB_BC is its path at
 * build time (empty: built without one; builtins then fail to link). */
#define SG_STR2(x) #x
#define SG_STR(x) SG_STR2(x)

__asm__(".section .rodata.sg_devlib,\"a\",@progbits\n"
        ".balign 16\n"
        ".globl sg_devlib_bc_start\n"
        ".hidden sg_devlib_bc_start\n"
        "sg_devlib_bc_start:\n"
#ifdef SG_DEVLIB_BC
        ".incbin \"" SG_STR(SG_DEVLIB_BC) "\"\n"
#endif
        ".globl sg_devlib_bc_end\n"
        ".hidden sg_devlib_bc_end\n"
        "sg_devlib_bc_end:\n"
        ".byte 0\n"
        ".previous\n");
