/* SPDX-License-Identifier: MIT */
/* cli/: program binaries (DESIGN.md 2, "Program binary"): `softgpu compile`
 * builds OpenCL C offline through clBuildProgram on SoftGPU alone;
 * `softgpu disasm` lists what a binary holds: each kernel's metadata, its
 * code with the SIMT instructions by name (sg_disasm), the function symbols
 * as labels and, at each conditional branch, the reconvergence PC the SIMT
 * stack will use. */
#include <errno.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>

#include "sg_cli.h"

#define MAX_BINARY (256u << 20)

/* ---- softgpu compile ----------------------------------------------------- */

static int compile_main(int argc, char **argv) {
  const char *file = NULL, *output = NULL;
  int count, rest,
      rc = sg_cli_parse_files(&sg_cli_cmd_compile, argc, argv, &file, 1, &count, &output, &rest);
  if (rc != SG_CLI_GO_ON)
    return rc;
  if (!file)
    return sg_cli_error(SG_EXIT_USAGE, "compile", "no source file (softgpu compile FILE.cl)");
  struct sg_cli_cl cl;
  cl_program program = NULL;
  unsigned char *binary = NULL;
  char *names = NULL;
  size_t size = 0;
  cl_int err;
  if ((rc = sg_cli_cl_open(&cl, "compile", NULL)) == SG_EXIT_OK)
    rc = sg_cli_cl_build(&cl, file, "", argv + rest, argc - rest, &program);
  if (rc == SG_EXIT_OK &&
      ((err = clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL)) ||
       !(binary = malloc(size)) ||
       (err = clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof binary, &binary, NULL))))
    rc = binary ? sg_cli_cl_fail("compile", "clGetProgramInfo", err)
                : sg_cli_error(SG_EXIT_INPUT, "compile", "out of memory");
  if (rc == SG_EXIT_OK && !(names = sg_cli_cl_kernel_names(program)))
    rc = sg_cli_error(SG_EXIT_INPUT, "compile", "out of memory");
  if (rc == SG_EXIT_OK && output && !sg_cli_write_file(output, binary, size))
    rc = sg_cli_error(SG_EXIT_INPUT, "compile", "cannot write %s: %s", output, strerror(errno));
  if (rc == SG_EXIT_OK) {
    size_t n = *names ? 1 : 0;
    for (const char *c = names; *c; c++)
      n += *c == ',';
    printf("%s: %zu kernel%s%s%s; %zu bytes of program binary%s%s\n", file, n, n == 1 ? "" : "s",
           n ? ": " : "", names, size, output ? " in " : "", output ? output : "");
  }
  free(names);
  free(binary);
  if (program)
    clReleaseProgram(program);
  sg_cli_cl_close(&cl);
  return rc;
}

const struct sg_cli_command sg_cli_cmd_compile = {
    .name = "compile",
    .synopsis = "FILE.cl [-o FILE.bin] [-- BUILD-OPTIONS...]",
    .summary = "build OpenCL C offline and print the build log",
    .description =
        "Builds FILE.cl as clBuildProgram would with BUILD-OPTIONS (e.g. `-cl-std=CL2.0 -DN=4`), "
        "plus `-I` the file's folder so that includes beside it are found. The build log goes to "
        "stderr, a summary (the kernels) to stdout; with -o the program binary is written to "
        "FILE.bin, which clCreateProgramWithBinary accepts and `softgpu disasm` lists.\n\n"
        "Exit status 0 when it built, 1 when the source has errors, 2 for bad build options.",
    .opts = (const struct sg_cli_opt[]){{"output", 'o', "FILE.bin",
                                         "write the program binary to FILE.bin"},
                                        {NULL, 0, NULL, NULL}},
    .main = compile_main,
};

/* ---- softgpu disasm ------------------------------------------------------ */

struct symbol {
  uint64_t addr, size;
  char *name;
};

/* What the listing needs. The compiler does not emit DWARF line tables yet;
 * when it does, a `lines` table (pc -> file:line, from libdw's
 * dwarf_getsrclines) belongs here and print_range prints the source line
 * before the first instruction of each new line. */
struct listing {
  const struct sg_program_image *img;
  uint64_t text_end;   /* end of the code (.text) */
  struct symbol *syms; /* functions, by address */
  size_t nsyms;
  bool *listed; /* per instruction word: printed already */
};

static int by_addr(const void *a, const void *b) {
  const struct symbol *x = a, *y = b;
  return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The function symbols of .symtab inside the code, and the end of .text.
 * The binary was validated by sg_program_load; libelf checks every read. */
static bool read_symbols(const void *bin, size_t size, struct listing *l) {
  elf_version(EV_CURRENT);
  char *copy = malloc(size);
  if (!copy)
    return false;
  memcpy(copy, bin, size);
  Elf *elf = elf_memory(copy, size);
  size_t shstrndx;
  bool ok = elf && !elf_getshdrstrndx(elf, &shstrndx);
  for (Elf_Scn *scn = NULL; ok && (scn = elf_nextscn(elf, scn));) {
    GElf_Shdr sh;
    if (!gelf_getshdr(scn, &sh))
      continue;
    const char *name = elf_strptr(elf, shstrndx, sh.sh_name);
    if (name && !strcmp(name, ".text"))
      l->text_end = sh.sh_addr + sh.sh_size;
    Elf_Data *d = sh.sh_type == SHT_SYMTAB ? elf_getdata(scn, NULL) : NULL;
    size_t n = d && sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
    for (size_t i = 0; i < n; i++) {
      GElf_Sym s;
      const char *sn;
      if (!gelf_getsym(d, (int)i, &s) || GELF_ST_TYPE(s.st_info) != STT_FUNC ||
          !(sn = elf_strptr(elf, sh.sh_link, s.st_name)))
        continue;
      struct symbol *grown = realloc(l->syms, (l->nsyms + 1) * sizeof *grown);
      if (!grown || !(sn = strdup(sn))) {
        ok = false;
        break;
      }
      l->syms = grown;
      l->syms[l->nsyms++] = (struct symbol){s.st_value, s.st_size, (char *)sn};
    }
  }
  if (elf)
    elf_end(elf);
  free(copy);
  qsort(l->syms, l->nsyms, sizeof *l->syms, by_addr);
  return ok;
}

/* The function containing pc, or NULL. */
static const struct symbol *symbol_at(const struct listing *l, uint64_t pc) {
  for (size_t i = 0; i < l->nsyms; i++)
    if (pc >= l->syms[i].addr && pc < l->syms[i].addr + l->syms[i].size)
      return &l->syms[i];
  return NULL;
}

/* "0x10040 <saxpy+0x24>" */
static void addr_text(const struct listing *l, uint64_t pc, char *buf, size_t len) {
  const struct symbol *s = symbol_at(l, pc);
  if (!s)
    snprintf(buf, len, "0x%llx", (unsigned long long)pc);
  else if (pc == s->addr)
    snprintf(buf, len, "0x%llx <%s>", (unsigned long long)pc, s->name);
  else
    snprintf(buf, len, "0x%llx <%s+0x%llx>", (unsigned long long)pc, s->name,
             (unsigned long long)(pc - s->addr));
}

/* Lists [start, end): a label at each function start, one line per
 * instruction, branch targets named, reconvergence PCs at the branches. */
static void print_range(struct listing *l, uint64_t start, uint64_t end) {
  const struct sg_program_image *img = l->img;
  for (uint64_t pc = start; pc < end; pc += 4) {
    for (size_t i = 0; i < l->nsyms; i++)
      if (l->syms[i].addr == pc)
        printf("\n%s:\n", l->syms[i].name);
    struct sg_uop u;
    if (!sg_code_uop(img->code, pc, &u))
      break;
    l->listed[(pc - img->ro_base) / 4] = true;
    char text[96], target[160], reconv[160];
    sg_disasm(&u, pc, text, sizeof text);
    printf("  %8llx:  %08x  %s", (unsigned long long)pc, u.raw, text);
    enum sg_flow flow = sg_uop_flow(&u);
    if (flow == SG_FLOW_BRANCH ||
        ((flow == SG_FLOW_JUMP || flow == SG_FLOW_CALL) && sg_op_fmt(u.op) == SG_FMT_J)) {
      addr_text(l, pc + (uint64_t)u.imm, target, sizeof target);
      printf("%*s# %s", 34 - (int)strlen(text) > 1 ? 34 - (int)strlen(text) : 1, "",
             strchr(target, '<') ? strchr(target, '<') : target);
    }
    if (flow == SG_FLOW_BRANCH) {
      uint64_t r = sg_code_reconv(img->code, pc);
      if (r == SG_RECONV_EXIT)
        snprintf(reconv, sizeof reconv, "at exit");
      else
        addr_text(l, r, reconv, sizeof reconv);
      printf("; reconverge %s", reconv);
    }
    putchar('\n');
  }
}

static void print_kernel(struct listing *l, const struct sg_kernel_info *k) {
  printf("\nkernel void %s(", k->name);
  bool named = true;
  for (uint32_t i = 0; i < k->num_args; i++) {
    const struct sg_kernel_arg *a = &k->args[i];
    char param[512];
    sg_cli_param_text(param, sizeof param, a->address_qualifier, a->access_qualifier,
                      a->type_qualifier, a->type_name, a->name);
    printf("%s%s", i ? ", " : "", param);
    named &= *a->name != '\0';
  }
  printf(")\n");
  static const char *const kinds[] = {"global buffer", "constant buffer", "local memory",
                                      "value",         "image",           "sampler"};
  for (uint32_t i = 0; i < k->num_args; i++) {
    const struct sg_kernel_arg *a = &k->args[i];
    printf("  arg %u%s%s: %s, %u bytes at parameter offset %u\n", i, *a->name ? " " : "", a->name,
           kinds[a->kind], a->size, a->offset);
  }
  if (!named)
    printf("  (argument names are kept when built with -cl-kernel-arg-info)\n");
  printf("  attributes: %s\n", *k->attributes ? k->attributes : "none");
  printf("  private memory: %llu bytes per work-item (its deepest call chain)\n",
         (unsigned long long)k->private_size);
  printf("  local memory: %llu bytes of __local variables",
         (unsigned long long)k->static_local_size);
  for (uint32_t i = 0; i < k->num_args; i++)
    if (k->args[i].kind == SG_ARG_LOCAL) {
      printf(", plus the __local arguments");
      break;
    }
  printf("\n");
  if (k->uses)
    printf("  uses:%s%s%s\n", k->uses & SG_USES_LOCAL_SHAPE ? " its work-group's shape" : "",
           k->uses == (SG_USES_LOCAL_SHAPE | SG_USES_PRINTF) ? "," : "",
           k->uses & SG_USES_PRINTF ? " printf" : "");
  char entry[160];
  addr_text(l, k->entry_pc, entry, sizeof entry);
  printf("  entry: %s\n", entry);
  const struct symbol *s = symbol_at(l, k->entry_pc);
  uint64_t end = s ? s->addr + s->size : l->text_end;
  if (!s) /* no symbol: up to the next kernel's entry */
    for (uint32_t i = 0; i < l->img->num_kernels; i++)
      if (l->img->kernels[i].entry_pc > k->entry_pc && l->img->kernels[i].entry_pc < end)
        end = l->img->kernels[i].entry_pc;
  print_range(l, s ? s->addr : k->entry_pc, end);
}

static int disasm_main(int argc, char **argv) {
  const char *file = NULL;
  int count, rc = sg_cli_parse_files(&sg_cli_cmd_disasm, argc, argv, &file, 1, &count, NULL, NULL);
  if (rc != SG_CLI_GO_ON)
    return rc;
  if (!file)
    return sg_cli_error(SG_EXIT_USAGE, "disasm", "no program binary (softgpu disasm FILE.bin)");
  size_t size;
  char *bin = sg_cli_read_file(file, MAX_BINARY, &size);
  if (!bin)
    return sg_cli_error(SG_EXIT_INPUT, "disasm", "cannot read %s: %s", file, strerror(errno));
  char err[512];
  struct sg_program_image *img = NULL;
  rc = SG_EXIT_OK;
  /* Executables are ELF files; compiled objects and libraries (bitcode
   * from clCompileProgram) have no code to list until they are linked. */
  if (size < 4 || memcmp(bin, "\177ELF", 4))
    rc = sg_cli_error(SG_EXIT_INPUT, "disasm",
                      "%s: not a SoftGPU executable program binary (an ELF file; compiled "
                      "objects and libraries must be linked first)",
                      file);
  else if (sg_program_load(bin, size, &img, err, sizeof err) != SG_OK)
    rc = sg_cli_error(SG_EXIT_INPUT, "disasm", "%s: %s", file, err);
  struct listing l = {.img = img};
  if (rc == SG_EXIT_OK) {
    l.text_end = img->ro_base + img->ro_size;
    l.listed = calloc(img->ro_size / 4 + 1, sizeof *l.listed);
    if (!l.listed || !read_symbols(bin, size, &l))
      rc = sg_cli_error(SG_EXIT_INPUT, "disasm", "%s: cannot read its symbols", file);
  }
  if (rc == SG_EXIT_OK) {
    printf("%s: SoftGPU program binary, OpenCL C %u.%u%s, %u kernel%s\n", file,
           img->cl_c_version / 100, img->cl_c_version / 10 % 10,
           img->uniform_work_group ? " (uniform work-groups)" : "", img->num_kernels,
           img->num_kernels == 1 ? "" : "s");
    printf("  code 0x%llx..0x%llx (%llu bytes), read-only data %llu bytes, data %llu bytes at "
           "0x%llx\n",
           (unsigned long long)img->ro_base, (unsigned long long)l.text_end,
           (unsigned long long)(l.text_end - img->ro_base),
           (unsigned long long)(img->ro_base + img->ro_size - l.text_end),
           (unsigned long long)img->rw_size, (unsigned long long)img->rw_base);
    for (uint32_t k = 0; k < img->num_kernels; k++)
      print_kernel(&l, &img->kernels[k]);
    /* Code no kernel's entry covers: functions the kernels call. */
    bool header = false;
    for (uint64_t pc = img->ro_base; pc < l.text_end; pc += 4) {
      if (l.listed[(pc - img->ro_base) / 4])
        continue;
      uint64_t end = pc;
      while (end < l.text_end && !l.listed[(end - img->ro_base) / 4])
        end += 4;
      if (!header)
        printf("\nother functions:\n");
      header = true;
      print_range(&l, pc, end);
      pc = end - 4;
    }
  }
  for (size_t i = 0; i < l.nsyms; i++)
    free(l.syms[i].name);
  free(l.syms);
  free(l.listed);
  sg_program_image_free(img);
  free(bin);
  return rc;
}

const struct sg_cli_command sg_cli_cmd_disasm = {
    .name = "disasm",
    .synopsis = "FILE.bin",
    .summary = "list a program binary: kernels, code, reconvergence points",
    .description =
        "Lists the program binary FILE.bin (from `softgpu compile -o`, or CL_PROGRAM_BINARIES): "
        "each kernel's signature, arguments (kind, size, offset in the parameter block), "
        "attributes, private and local memory sizes, then its code: address, instruction word "
        "and instruction, RV64IMAFD and the SIMT extension by name (docs/isa.md), with function "
        "symbols as labels and branch targets named. At each conditional branch `reconverge` "
        "gives the PC where its paths rejoin (the immediate post-dominator from the binary's "
        "reconvergence table; `at exit` when they only rejoin when the work-items finish). "
        "The program's other functions (those the kernels call, the C library's) come last.",
    .opts = (const struct sg_cli_opt[]){{NULL, 0, NULL, NULL}},
    .main = disasm_main,
};
