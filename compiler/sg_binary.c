/* SPDX-License-Identifier: MIT */
/* DESIGN.md "2. The compiler", program binary: writing the ELF file that
 * clGetProgramInfo(CL_PROGRAM_BINARIES) returns, and loading one back into a
 * struct sg_program_image. The loader trusts nothing it reads: every size,
 * offset, count, string and address is checked.
 *
 * Format (ELF64, little-endian, ET_EXEC, EM_RISCV; llvm-objdump -d reads it):
 *   .text       PROGBITS AX  at SG_ADDR_CODE: the linked code
 *   .rodata     PROGBITS A   right after .text: read-only data (same window)
 *   .data/.bss  WA           page-aligned after: program-scope variables
 *   .sg.meta    kernel metadata, version 2, little-endian:
 *               header (32 bytes): magic "SGMD", version, cl_c_version,
 *                 flags (bit 0: uniform work-groups), num_kernels, num_args,
 *                 strings_size, 0
 *               num_kernels records (72 bytes): name, attributes (string
 *                 offsets), first_arg, num_args, args_size, reqd[3], hint[3],
 *                 private_size (low 32 bits), uses, private_size (high 32
 *                 bits), entry_pc (u64), static_local_size (u64)
 *               num_args records (48 bytes): name, type_name, kind, address,
 *                 access, size, offset, source_name (the parameter's name for
 *                 diagnostics, or the empty string), type_qualifier (u64),
 *                 image type (0 but for images), 0
 *               strings: NUL-terminated, the last byte is NUL
 *   .sg.reconv  (branch_pc, reconv_pc) u64 pairs, sorted by branch_pc
 *   .symtab/.strtab  function symbols (for disassembly and traces)
 *   .riscv.attributes  the ISA string, copied from the object */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* asprintf, strndup, posix_spawn_file_actions_addchdir_np */
#endif
#include "sg_cc_internal.h"

#include <gelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define META_MAGIC 0x444d4753u /* "SGMD" */
#define META_VERSION 2u
#define META_HDR 32u
#define META_KERNEL 72u
#define META_ARG 48u
#define MAX_IMAGE (256ull << 20)
#define MAX_ARGS_SIZE (1u << 20)

/* ---- Little-endian byte buffer ------------------------------------------ */

struct buf {
  uint8_t *p;
  size_t len, cap;
  bool oom;
};

static void put(struct buf *b, const void *d, size_t n)
{
  if (b->len + n > b->cap) {
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + n)
      cap *= 2;
    uint8_t *p = realloc(b->p, cap);
    if (!p) {
      b->oom = true;
      return;
    }
    b->p = p, b->cap = cap;
  }
  if (n)
    memcpy(b->p + b->len, d, n);
  b->len += n;
}
static void put32(struct buf *b, uint32_t v) { put(b, &v, 4); } /* the hosts are little-endian */
static void put64(struct buf *b, uint64_t v) { put(b, &v, 8); }
static void pad_to(struct buf *b, size_t align)
{
  static const uint8_t zero[16];
  while (b->len % align)
    put(b, zero, 1);
  (void)zero;
}
static uint32_t put_str(struct buf *b, const char *s)
{
  uint32_t at = (uint32_t)b->len;
  put(b, s ? s : "", strlen(s ? s : "") + 1);
  return at;
}

static uint32_t get32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint64_t get64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }

/* ---- Writing --------------------------------------------------------------- */

static void write_meta(struct buf *m, const struct sg_options *opt,
                       const struct sg_kernel_info *k, uint32_t nk)
{
  struct buf s = {0};
  put(&s, "", 1);
  uint32_t nargs = 0;
  for (uint32_t i = 0; i < nk; i++)
    nargs += k[i].num_args;
  struct buf recs = {0}, args = {0};
  uint32_t first = 0;
  for (uint32_t i = 0; i < nk; i++) {
    put32(&recs, put_str(&s, k[i].name));
    put32(&recs, put_str(&s, k[i].attributes));
    put32(&recs, first);
    put32(&recs, k[i].num_args);
    put32(&recs, k[i].args_size);
    for (int d = 0; d < 3; d++)
      put32(&recs, k[i].reqd_work_group_size[d]);
    for (int d = 0; d < 3; d++)
      put32(&recs, k[i].work_group_size_hint[d]);
    put32(&recs, (uint32_t)k[i].private_size);
    put32(&recs, k[i].uses);
    put32(&recs, (uint32_t)(k[i].private_size >> 32));
    put64(&recs, k[i].entry_pc);
    put64(&recs, k[i].static_local_size);
    for (uint32_t a = 0; a < k[i].num_args; a++) {
      const struct sg_kernel_arg *g = &k[i].args[a];
      put32(&args, put_str(&s, g->name));
      put32(&args, put_str(&s, g->type_name));
      put32(&args, g->kind);
      put32(&args, g->address_qualifier);
      put32(&args, g->access_qualifier);
      put32(&args, g->size);
      put32(&args, g->offset);
      put32(&args, put_str(&s, g->source_name));
      put64(&args, g->type_qualifier);
      put32(&args, g->image_type);
      put32(&args, 0);
    }
    first += k[i].num_args;
  }
  put32(m, META_MAGIC);
  put32(m, META_VERSION);
  put32(m, opt->cl_c_version);
  put32(m, opt->uniform_work_group ? 1 : 0);
  put32(m, nk);
  put32(m, nargs);
  put32(m, (uint32_t)s.len);
  put32(m, 0);
  put(m, recs.p, recs.len);
  put(m, args.p, args.len);
  put(m, s.p, s.len);
  m->oom |= s.oom || recs.oom || args.oom;
  free(s.p), free(recs.p), free(args.p);
}

struct out_sec {
  const char *name;
  uint32_t type, link, info;
  uint64_t flags, addr, size, align, entsize;
  const void *data; /* NULL for NOBITS */
};

static void write_symtab(struct buf *sym, struct buf *str, const struct sg_linked *l)
{
  put(str, "", 1);
  Elf64_Sym null = {0};
  put(sym, &null, sizeof null);
  for (uint32_t i = 0; i < l->num_symbols; i++) {
    const struct sg_cc_symbol *s = &l->symbols[i];
    bool code = s->addr >= SG_ADDR_CODE && s->addr < SG_ADDR_CODE + l->text_size;
    Elf64_Sym e = {
        .st_name = put_str(str, s->name),
        .st_info = ELF64_ST_INFO(STB_GLOBAL, s->is_func ? STT_FUNC : STT_OBJECT),
        .st_shndx = code ? 1 : s->addr < SG_ADDR_CODE + l->ro_size ? 2 : 3,
        .st_value = s->addr,
        .st_size = s->size,
    };
    if (s->addr >= SG_ADDR_LOCAL)
      e.st_shndx = SHN_ABS;
    put(sym, &e, sizeof e);
  }
}

/* .sg.source: for each file, three NUL-terminated strings: the path its
 * line table names, the name to show, the text. */
static void write_sources(struct buf *b, const struct sg_cc_source *src, uint32_t n)
{
  for (uint32_t i = 0; i < n; i++) {
    put_str(b, src[i].path);
    put_str(b, src[i].name);
    put_str(b, src[i].text);
  }
}

#define FIXED_SECS 10 /* null .. .riscv.attributes: .symtab links .strtab at 8 */

enum sg_status sg_binary_write(const struct sg_linked *l, const struct sg_options *opt,
                               const struct sg_kernel_info *kernels, uint32_t nk,
                               const struct sg_reconv *table, size_t ntable,
                               const struct sg_cc_source *sources, uint32_t nsources,
                               void **binary, size_t *size)
{
  struct buf meta = {0}, sym = {0}, str = {0}, shstr = {0}, out = {0}, reconv = {0}, src = {0};
  write_meta(&meta, opt, kernels, nk);
  write_symtab(&sym, &str, l);
  write_sources(&src, sources, nsources);
  for (size_t i = 0; i < ntable; i++) {
    put64(&reconv, table[i].branch_pc);
    put64(&reconv, table[i].reconv_pc);
  }
  const struct out_sec fixed[FIXED_SECS] = {
      {"", SHT_NULL, 0, 0, 0, 0, 0, 0, 0, NULL},
      {".text", SHT_PROGBITS, 0, 0, SHF_ALLOC | SHF_EXECINSTR, SG_ADDR_CODE, l->text_size, 4, 0, l->ro},
      {".rodata", SHT_PROGBITS, 0, 0, SHF_ALLOC, SG_ADDR_CODE + l->text_size,
       l->ro_size - l->text_size, 1, 0, l->ro + l->text_size},
      {".data", SHT_PROGBITS, 0, 0, SHF_ALLOC | SHF_WRITE, l->rw_base, l->rw_data_size, 4096, 0, l->rw},
      {".bss", SHT_NOBITS, 0, 0, SHF_ALLOC | SHF_WRITE, l->rw_base + l->rw_data_size, l->rw_bss_size, 1, 0, NULL},
      {".sg.meta", SHT_PROGBITS, 0, 0, 0, 0, meta.len, 8, 0, meta.p},
      {".sg.reconv", SHT_PROGBITS, 0, 0, 0, 0, ntable * 16, 8, 16, reconv.p},
      {".symtab", SHT_SYMTAB, 8, 1, 0, 0, sym.len, 8, sizeof(Elf64_Sym), sym.p},
      {".strtab", SHT_STRTAB, 0, 0, 0, 0, str.len, 1, 0, str.p},
      {".riscv.attributes", SHT_RISCV_ATTRIBUTES, 0, 0, 0, 0, l->attributes_size, 1, 0, l->attributes},
  };
  /* Then the sources, the relocated DWARF and the section names. */
  uint32_t nsec = FIXED_SECS + (nsources ? 1 : 0) + l->num_debug + 1;
  struct out_sec *secs = calloc(nsec, sizeof *secs);
  uint32_t *names = calloc(nsec, sizeof *names);
  uint64_t *offs = calloc(nsec, sizeof *offs);
  bool oom = !secs || !names || !offs;
  if (!oom) {
    memcpy(secs, fixed, sizeof fixed);
    uint32_t n = FIXED_SECS;
    if (nsources)
      secs[n++] = (struct out_sec){".sg.source", SHT_PROGBITS, 0, 0, 0, 0, src.len, 1, 0, src.p};
    for (uint32_t i = 0; i < l->num_debug; i++)
      secs[n++] = (struct out_sec){l->debug[i].name, SHT_PROGBITS, 0, 0, 0, 0, l->debug[i].size,
                                   1, 0, l->debug[i].data};
    secs[n] = (struct out_sec){".shstrtab", SHT_STRTAB, 0, 0, 0, 0, 0, 1, 0, NULL};
    for (uint32_t i = 0; i < nsec; i++)
      names[i] = put_str(&shstr, secs[i].name);
    secs[nsec - 1].size = shstr.len;
    secs[nsec - 1].data = shstr.p;
  }
  oom |= meta.oom || sym.oom || str.oom || shstr.oom || reconv.oom || src.oom;

  Elf64_Ehdr eh = {
      .e_ident = {ELFMAG0, ELFMAG1, ELFMAG2, ELFMAG3, ELFCLASS64, ELFDATA2LSB, EV_CURRENT},
      .e_type = ET_EXEC, .e_machine = EM_RISCV, .e_version = EV_CURRENT,
      .e_entry = nk ? kernels[0].entry_pc : SG_ADDR_CODE,
      .e_flags = EF_RISCV_FLOAT_ABI_DOUBLE, .e_ehsize = sizeof eh,
      .e_shentsize = sizeof(Elf64_Shdr), .e_shnum = (Elf64_Half)nsec,
      .e_shstrndx = (Elf64_Half)(nsec - 1),
  };
  put(&out, &eh, sizeof eh);
  for (uint32_t i = 1; !oom && i < nsec; i++) {
    pad_to(&out, secs[i].type == SHT_NOBITS ? 1 : 8);
    offs[i] = out.len;
    if (secs[i].type != SHT_NOBITS)
      put(&out, secs[i].data, secs[i].size);
  }
  pad_to(&out, 8);
  uint64_t shoff = out.len;
  for (uint32_t i = 0; !oom && i < nsec; i++) {
    Elf64_Shdr sh = {
        .sh_name = names[i], .sh_type = secs[i].type, .sh_flags = secs[i].flags,
        .sh_addr = secs[i].addr, .sh_offset = offs[i], .sh_size = secs[i].size,
        .sh_link = secs[i].link, .sh_info = secs[i].info, .sh_addralign = secs[i].align,
        .sh_entsize = secs[i].entsize,
    };
    put(&out, &sh, sizeof sh);
  }
  oom |= out.oom;
  if (!oom)
    memcpy(out.p + offsetof(Elf64_Ehdr, e_shoff), &shoff, sizeof shoff);
  free(meta.p), free(sym.p), free(str.p), free(shstr.p), free(reconv.p), free(src.p);
  free(secs), free(names), free(offs);
  if (oom) {
    free(out.p);
    return SG_ENOMEM;
  }
  *binary = out.p;
  *size = out.len;
  return SG_OK;
}

/* ---- Loading ---------------------------------------------------------------- */

struct loader {
  Elf *elf;
  char *err;
  size_t errlen;
  struct sg_program_image *img;
  uint64_t text_size;
};

static enum sg_status bad(struct loader *ld, const char *fmt, ...)
{
  if (ld->err && ld->errlen) {
    va_list ap;
    va_start(ap, fmt);
    int n = snprintf(ld->err, ld->errlen, "invalid program binary: ");
    if (n >= 0 && (size_t)n < ld->errlen)
      vsnprintf(ld->err + n, ld->errlen - (size_t)n, fmt, ap);
    va_end(ap);
  }
  return SG_EBINARY;
}

struct found {
  GElf_Shdr sh;
  const uint8_t *data; /* NULL for NOBITS or absent */
  bool present;
};

static enum sg_status find_section(struct loader *ld, const char *want, struct found *f)
{
  size_t shstrndx, n;
  memset(f, 0, sizeof *f);
  if (elf_getshdrstrndx(ld->elf, &shstrndx) || elf_getshdrnum(ld->elf, &n))
    return bad(ld, "no section table");
  for (size_t i = 1; i < n; i++) {
    Elf_Scn *scn = elf_getscn(ld->elf, i);
    GElf_Shdr sh;
    if (!scn || !gelf_getshdr(scn, &sh))
      return bad(ld, "section %zu unreadable", i);
    const char *name = elf_strptr(ld->elf, shstrndx, sh.sh_name);
    if (!name || strcmp(name, want))
      continue;
    if (f->present)
      return bad(ld, "two %s sections", want);
    f->present = true;
    f->sh = sh;
    if (sh.sh_type == SHT_NOBITS)
      continue;
    Elf_Data *d = elf_rawdata(scn, NULL);
    if (!d || d->d_size != sh.sh_size || (sh.sh_size && !d->d_buf))
      return bad(ld, "section %s outside the file", want);
    f->data = d->d_buf;
  }
  return SG_OK;
}

static enum sg_status load_images(struct loader *ld)
{
  struct found text, ro, data, bss;
  enum sg_status st;
  if ((st = find_section(ld, ".text", &text)) || (st = find_section(ld, ".rodata", &ro)) ||
      (st = find_section(ld, ".data", &data)) || (st = find_section(ld, ".bss", &bss)))
    return st;
  if (!text.present || text.sh.sh_type != SHT_PROGBITS || text.sh.sh_addr != SG_ADDR_CODE ||
      !text.sh.sh_size || text.sh.sh_size % 4 || text.sh.sh_size > MAX_IMAGE)
    return bad(ld, "no valid .text at 0x%llx", SG_ADDR_CODE);
  uint64_t ro_size = text.sh.sh_size;
  if (ro.present) {
    if (ro.sh.sh_type != SHT_PROGBITS || ro.sh.sh_addr != SG_ADDR_CODE + text.sh.sh_size ||
        ro.sh.sh_size > MAX_IMAGE)
      return bad(ld, ".rodata must follow .text");
    ro_size += ro.sh.sh_size;
  }
  uint64_t ro_end = SG_ADDR_CODE + ro_size, data_size = data.present ? data.sh.sh_size : 0;
  uint64_t rw_base = data.present ? data.sh.sh_addr : (ro_end + 4095) / 4096 * 4096;
  uint64_t bss_size = bss.present ? bss.sh.sh_size : 0;
  if ((data.present && data.sh.sh_type != SHT_PROGBITS) || (bss.present && bss.sh.sh_type != SHT_NOBITS) ||
      rw_base % 4096 || rw_base < ro_end || data_size > MAX_IMAGE || bss_size > MAX_IMAGE ||
      rw_base + data_size + bss_size > SG_ADDR_LOCAL ||
      (bss.present && bss.sh.sh_addr != rw_base + data_size))
    return bad(ld, "bad .data/.bss placement");
  struct sg_program_image *img = ld->img;
  img->ro_base = SG_ADDR_CODE;
  img->ro_size = ro_size;
  img->ro = malloc(ro_size);
  img->rw_base = rw_base;
  img->rw_size = data_size + bss_size;
  img->rw = calloc(1, img->rw_size + 1);
  if (!img->ro || !img->rw)
    return SG_ENOMEM;
  memcpy(img->ro, text.data, text.sh.sh_size);
  if (ro.present && ro.sh.sh_size)
    memcpy(img->ro + text.sh.sh_size, ro.data, ro.sh.sh_size);
  if (data_size)
    memcpy(img->rw, data.data, data_size);
  ld->text_size = text.sh.sh_size;
  return SG_OK;
}

static bool pc_in_code(const struct loader *ld, uint64_t pc)
{
  return pc >= SG_ADDR_CODE && pc < SG_ADDR_CODE + ld->text_size && pc % 4 == 0;
}

/* A string table offset that names a NUL-terminated string (the table's last
 * byte is NUL, checked once). */
static char *meta_str(const uint8_t *strs, uint32_t size, uint32_t off)
{
  return off < size ? strdup((const char *)strs + off) : NULL;
}

/* Names are C identifiers: CL_PROGRAM_KERNEL_NAMES joins kernel names with
 * ';' and clCreateKernel looks them up by name. */
static bool identifier(const char *s)
{
  if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_'))
    return false;
  for (s++; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
          *s == '_'))
      return false;
  return true;
}

/* Text fields (type names, attributes) are printable ASCII of a sane length. */
#define MAX_TEXT 1024u
static bool printable(const char *s)
{
  size_t n = 0;
  for (; s[n]; n++)
    if (s[n] < 0x20 || s[n] > 0x7e)
      return false;
  return n <= MAX_TEXT;
}

/* A 3-D size (reqd_work_group_size, work_group_size_hint): absent (all zero)
 * or every component at least 1 with a product that fits in 32 bits, so no
 * user of it divides by zero or wraps. */
static bool dims_ok(const uint32_t v[3])
{
  if (!v[0] && !v[1] && !v[2])
    return true;
  uint64_t prod = (uint64_t)v[0] * v[1];
  return v[0] && v[1] && v[2] && prod <= UINT32_MAX && prod * v[2] <= UINT32_MAX;
}

/* What each argument kind is: its address qualifier and slot size (0: any
 * size, a value). */
static const struct {
  uint32_t address, size;
} arg_kinds[] = {
    [SG_ARG_GLOBAL] = {SG_CL_ADDRESS_GLOBAL, 8},
    [SG_ARG_CONSTANT] = {SG_CL_ADDRESS_CONSTANT, 8},
    [SG_ARG_LOCAL] = {SG_CL_ADDRESS_LOCAL, 8},
    [SG_ARG_VALUE] = {SG_CL_ADDRESS_PRIVATE, 0},
    [SG_ARG_IMAGE] = {SG_CL_ADDRESS_GLOBAL, 8},
    [SG_ARG_SAMPLER] = {SG_CL_ADDRESS_PRIVATE, 8},
};

static enum sg_status load_arg(struct loader *ld, const uint8_t *r, const uint8_t *strs,
                               uint32_t ssize, const struct sg_kernel_info *k, uint32_t i,
                               struct sg_kernel_arg *a)
{
  a->name = meta_str(strs, ssize, get32(r));
  a->type_name = meta_str(strs, ssize, get32(r + 4));
  a->source_name = meta_str(strs, ssize, get32(r + 28));
  if (!a->name || !a->type_name || (*a->name && !identifier(a->name)) ||
      !printable(a->type_name) || !a->source_name ||
      (*a->source_name && !identifier(a->source_name)))
    return bad(ld, "kernel %s: bad argument %u name or type", k->name, i);
  uint32_t kind = get32(r + 8);
  a->address_qualifier = get32(r + 12);
  a->access_qualifier = get32(r + 16);
  a->size = get32(r + 20);
  a->offset = get32(r + 24);
  a->image_type = get32(r + 40);
  a->type_qualifier = get64(r + 32);
  if (kind > SG_ARG_SAMPLER)
    return bad(ld, "kernel %s: argument %u kind %u unsupported", k->name, i, kind);
  a->kind = (enum sg_arg_kind)kind;
  if ((kind == SG_ARG_IMAGE) != (a->image_type != SG_IMAGE_NONE) ||
      a->image_type >= SG_IMAGE_NUM_TYPES)
    return bad(ld, "kernel %s: argument %u has image type %u", k->name, i, a->image_type);
  if (a->address_qualifier != arg_kinds[kind].address ||
      a->access_qualifier < SG_CL_ACCESS_READ_ONLY || a->access_qualifier > SG_CL_ACCESS_NONE ||
      a->type_qualifier > 0xf)
    return bad(ld, "kernel %s: argument %u qualifiers out of range", k->name, i);
  /* Pointers are 8-byte slots the runtime fills with device addresses. */
  if ((arg_kinds[kind].size && (a->size != arg_kinds[kind].size || a->offset % 8)) || !a->size ||
      a->size > k->args_size || a->offset > k->args_size - a->size)
    return bad(ld, "kernel %s: argument %u (%u bytes at %u) outside its %u-byte parameter block",
               k->name, i, a->size, a->offset, k->args_size);
  return SG_OK;
}

static enum sg_status load_kernel(struct loader *ld, const uint8_t *r, const uint8_t *args,
                                  uint32_t nargs, const uint8_t *strs, uint32_t ssize,
                                  struct sg_kernel_info *k)
{
  k->name = meta_str(strs, ssize, get32(r));
  k->attributes = meta_str(strs, ssize, get32(r + 4));
  uint32_t first = get32(r + 8);
  k->num_args = get32(r + 12);
  k->args_size = get32(r + 16);
  for (int d = 0; d < 3; d++) {
    k->reqd_work_group_size[d] = get32(r + 20 + 4 * d);
    k->work_group_size_hint[d] = get32(r + 32 + 4 * d);
  }
  k->private_size = get32(r + 44) | (uint64_t)get32(r + 52) << 32;
  k->uses = get32(r + 48);
  k->entry_pc = get64(r + 56);
  k->static_local_size = get64(r + 64);
  if (!k->name || !identifier(k->name) || !k->attributes || !printable(k->attributes))
    return bad(ld, "bad kernel name or attributes");
  if (!dims_ok(k->reqd_work_group_size))
    return bad(ld, "kernel %s: reqd_work_group_size(%u,%u,%u) is not a work-group size", k->name,
               k->reqd_work_group_size[0], k->reqd_work_group_size[1], k->reqd_work_group_size[2]);
  if (!dims_ok(k->work_group_size_hint))
    return bad(ld, "kernel %s: work_group_size_hint(%u,%u,%u) is not a work-group size", k->name,
               k->work_group_size_hint[0], k->work_group_size_hint[1], k->work_group_size_hint[2]);
  if (first > nargs || k->num_args > nargs - first || k->args_size > MAX_ARGS_SIZE)
    return bad(ld, "kernel %s: %u arguments in %u bytes out of range", k->name, k->num_args,
               k->args_size);
  if (!pc_in_code(ld, k->entry_pc))
    return bad(ld, "kernel %s: entry point 0x%llx outside the code", k->name,
               (unsigned long long)k->entry_pc);
  if (k->static_local_size > SG_ADDR_PARAMS - SG_ADDR_LOCAL ||
      k->private_size > SG_ADDR_GLOBAL - SG_ADDR_STACK)
    return bad(ld, "kernel %s: local or private memory size out of range", k->name);
  if (k->uses & ~(uint32_t)(SG_USES_LOCAL_SHAPE | SG_USES_PRINTF | SG_USES_UNBOUNDED_STACK))
    return bad(ld, "kernel %s: unknown flags 0x%x", k->name, k->uses);
  k->args = calloc(k->num_args + 1, sizeof *k->args);
  if (!k->args)
    return SG_ENOMEM;
  for (uint32_t a = 0; a < k->num_args; a++) {
    enum sg_status st =
        load_arg(ld, args + (size_t)(first + a) * META_ARG, strs, ssize, k, a, &k->args[a]);
    if (st != SG_OK)
      return st;
  }
  return SG_OK;
}

static int cmp_name(const void *a, const void *b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Kernels are found by name: two of one name would make one unreachable. */
static enum sg_status unique_names(struct loader *ld, const struct sg_program_image *img)
{
  char **names = malloc((img->num_kernels + 1) * sizeof *names);
  if (!names)
    return SG_ENOMEM;
  for (uint32_t i = 0; i < img->num_kernels; i++)
    names[i] = img->kernels[i].name;
  qsort(names, img->num_kernels, sizeof *names, cmp_name);
  enum sg_status st = SG_OK;
  for (uint32_t i = 1; i < img->num_kernels && st == SG_OK; i++)
    if (!strcmp(names[i - 1], names[i]))
      st = bad(ld, "two kernels named %s", names[i]);
  free(names);
  return st;
}

static enum sg_status load_meta(struct loader *ld)
{
  struct found f;
  enum sg_status st = find_section(ld, ".sg.meta", &f);
  if (st != SG_OK)
    return st;
  if (!f.present || !f.data || f.sh.sh_size < META_HDR)
    return bad(ld, "no kernel metadata");
  const uint8_t *m = f.data;
  uint64_t size = f.sh.sh_size;
  uint32_t version = get32(m + 4), nk = get32(m + 16), nargs = get32(m + 20), ssize = get32(m + 24);
  if (get32(m) != META_MAGIC || version != META_VERSION)
    return bad(ld, "metadata version %u not supported", version);
  if (size != META_HDR + (uint64_t)nk * META_KERNEL + (uint64_t)nargs * META_ARG + ssize)
    return bad(ld, "metadata size mismatch");
  const uint8_t *kr = m + META_HDR, *ar = kr + (size_t)nk * META_KERNEL, *strs = ar + (size_t)nargs * META_ARG;
  if (!ssize || strs[ssize - 1])
    return bad(ld, "metadata strings not terminated");
  struct sg_program_image *img = ld->img;
  img->cl_c_version = get32(m + 8);
  uint32_t flags = get32(m + 12);
  uint32_t v = img->cl_c_version;
  if (flags > 1 || !(v == 100 || v == 110 || v == 120 || v == 200 || v == 300))
    return bad(ld, "bad metadata flags or OpenCL C version %u", v);
  img->uniform_work_group = flags & 1;
  img->kernels = calloc((size_t)nk + 1, sizeof *img->kernels);
  if (!img->kernels)
    return SG_ENOMEM;
  for (uint32_t i = 0; i < nk; i++) {
    img->num_kernels = i + 1;
    st = load_kernel(ld, kr + (size_t)i * META_KERNEL, ar, nargs, strs, ssize, &img->kernels[i]);
    if (st != SG_OK)
      return st;
  }
  return unique_names(ld, img);
}

static enum sg_status load_code(struct loader *ld)
{
  struct found f;
  enum sg_status st = find_section(ld, ".sg.reconv", &f);
  if (st != SG_OK)
    return st;
  uint64_t n = f.present ? f.sh.sh_size / 16 : 0;
  if (f.present && (f.sh.sh_type != SHT_PROGBITS || f.sh.sh_size % 16 || (n && !f.data)))
    return bad(ld, "bad reconvergence table");
  struct sg_reconv *t = calloc(n + 1, sizeof *t);
  if (!t)
    return SG_ENOMEM;
  for (uint64_t i = 0; i < n && st == SG_OK; i++) {
    t[i].branch_pc = get64(f.data + 16 * i);
    t[i].reconv_pc = get64(f.data + 16 * i + 8);
    if (!pc_in_code(ld, t[i].branch_pc) ||
        (t[i].reconv_pc != SG_RECONV_EXIT && !pc_in_code(ld, t[i].reconv_pc)))
      st = bad(ld, "reconvergence entry %llu outside the code", (unsigned long long)i);
  }
  if (st == SG_OK) {
    st = sg_code_create((const uint32_t *)ld->img->ro, ld->text_size / 4, SG_ADDR_CODE, t, n,
                        &ld->img->code);
    if (st != SG_OK && st != SG_ENOMEM)
      st = bad(ld, "reconvergence table does not match the code");
  }
  free(t);
  return st;
}

static int by_offset(const void *a, const void *b)
{
  const struct sg_local_var *x = a, *y = b;
  return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* The __local variables, from the symbol table's objects in the local
 * window ("kern.tile" -> "tile"). Only words in reports depend on them, so
 * a damaged table gives no names rather than an invalid binary. */
static enum sg_status load_locals(struct loader *ld)
{
  struct found sym, str;
  if (find_section(ld, ".symtab", &sym) || find_section(ld, ".strtab", &str) || !sym.present ||
      !str.present || !sym.data || !str.data || !str.sh.sh_size ||
      str.data[str.sh.sh_size - 1] || sym.sh.sh_size % sizeof(Elf64_Sym)) {
    if (ld->err && ld->errlen)
      ld->err[0] = 0;
    return SG_OK;
  }
  size_t n = sym.sh.sh_size / sizeof(Elf64_Sym);
  struct sg_program_image *img = ld->img;
  img->locals = calloc(n + 1, sizeof *img->locals);
  if (!img->locals)
    return SG_ENOMEM;
  for (size_t i = 0; i < n; i++) {
    Elf64_Sym e;
    memcpy(&e, sym.data + i * sizeof e, sizeof e);
    if (ELF64_ST_TYPE(e.st_info) != STT_OBJECT || e.st_value < SG_ADDR_LOCAL ||
        e.st_value >= SG_ADDR_PARAMS || !e.st_size ||
        e.st_size > SG_ADDR_PARAMS - e.st_value || e.st_name >= str.sh.sh_size)
      continue;
    const char *name = (const char *)str.data + e.st_name, *dot = strchr(name, '.');
    struct sg_local_var *v = &img->locals[img->num_locals];
    if (!(v->name = strdup(dot && dot[1] ? dot + 1 : name)) ||
        (dot && dot[1] && !(v->kernel = strndup(name, (size_t)(dot - name)))))
      return SG_ENOMEM;
    if (!printable(v->name) || (v->kernel && !printable(v->kernel))) {
      free(v->name), free(v->kernel);
      v->name = v->kernel = NULL;
      continue;
    }
    v->offset = e.st_value - SG_ADDR_LOCAL;
    v->size = e.st_size;
    img->num_locals++;
  }
  qsort(img->locals, img->num_locals, sizeof *img->locals, by_offset);
  return SG_OK;
}

/* Line tables and the embedded source, when present: never a reason to
 * refuse a binary (sg_lines.c). */
static enum sg_status load_lines(struct loader *ld)
{
  struct found src;
  if (find_section(ld, ".sg.source", &src) != SG_OK) {
    if (ld->err && ld->errlen)
      ld->err[0] = 0;
    snprintf(ld->img->load_warning, sizeof ld->img->load_warning,
             "the embedded source (.sg.source) is damaged and was ignored");
    memset(&src, 0, sizeof src);
  }
  return sg_lines_load(ld->elf, src.data, src.data ? src.sh.sh_size : 0, ld->img);
}

enum sg_status sg_program_load(const void *binary, size_t size, struct sg_program_image **out,
                               char *err, size_t errlen)
{
  *out = NULL;
  if (err && errlen)
    err[0] = 0;
  struct loader ld = {.err = err, .errlen = errlen};
  if (!binary || size < sizeof(Elf64_Ehdr))
    return bad(&ld, "too short");
  elf_version(EV_CURRENT);
  char *copy = malloc(size);
  ld.img = calloc(1, sizeof *ld.img);
  if (!copy || !ld.img) {
    free(copy);
    free(ld.img);
    return SG_ENOMEM;
  }
  memcpy(copy, binary, size);
  ld.elf = elf_memory(copy, size);
  GElf_Ehdr eh;
  enum sg_status st = SG_OK;
  if (!ld.elf || elf_kind(ld.elf) != ELF_K_ELF || !gelf_getehdr(ld.elf, &eh) ||
      eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB ||
      eh.e_machine != EM_RISCV || eh.e_type != ET_EXEC)
    st = bad(&ld, "not a SoftGPU RISC-V ELF file");
  if (st == SG_OK)
    st = load_images(&ld);
  if (st == SG_OK)
    st = load_meta(&ld);
  if (st == SG_OK)
    st = load_code(&ld);
  if (st == SG_OK)
    st = load_locals(&ld);
  if (st == SG_OK)
    st = load_lines(&ld);
  if (ld.elf)
    elf_end(ld.elf);
  free(copy);
  if (st != SG_OK) {
    if (st == SG_ENOMEM && err && errlen)
      snprintf(err, errlen, "out of host memory loading the program binary");
    sg_program_image_free(ld.img);
    return st;
  }
  *out = ld.img;
  return SG_OK;
}

void sg_kernel_info_free_fields(struct sg_kernel_info *k)
{
  for (uint32_t i = 0; k->args && i < k->num_args; i++) {
    free(k->args[i].name);
    free(k->args[i].source_name);
    free(k->args[i].type_name);
  }
  free(k->args);
  free(k->name);
  free(k->attributes);
}

void sg_program_image_free(struct sg_program_image *img)
{
  if (!img)
    return;
  for (uint32_t i = 0; i < img->num_kernels; i++)
    sg_kernel_info_free_fields(&img->kernels[i]);
  free(img->kernels);
  for (uint32_t i = 0; i < img->num_locals; i++)
    free(img->locals[i].name), free(img->locals[i].kernel);
  free(img->locals);
  sg_lines_free(img->lines);
  if (img->code)
    sg_code_destroy(img->code);
  free(img->ro);
  free(img->rw);
  free(img);
}

enum sg_status sg_program_check_device(const struct sg_program_image *img,
                                       const struct sg_device_limits *lim, char *err,
                                       size_t errlen)
{
  struct loader ld = {.err = err, .errlen = errlen};
  for (uint32_t i = 0; i < img->num_kernels; i++) {
    const struct sg_kernel_info *k = &img->kernels[i];
    const uint32_t *dims[2] = {k->reqd_work_group_size, k->work_group_size_hint};
    static const char *const what[2] = {"reqd_work_group_size", "work_group_size_hint"};
    for (int w = 0; w < 2; w++) {
      const uint32_t *v = dims[w];
      if (!v[0])
        continue;
      uint64_t prod = (uint64_t)v[0] * v[1] * v[2]; /* < 2^32 once loaded */
      bool fits = prod <= lim->max_work_group_size;
      for (int d = 0; d < 3; d++)
        fits &= v[d] <= lim->max_work_item_sizes[d];
      if (!fits)
        return bad(&ld, "kernel %s: %s(%u,%u,%u) exceeds the device's work-group limits "
                        "(%llu work-items, at most (%llu,%llu,%llu))",
                   k->name, what[w], v[0], v[1], v[2], (unsigned long long)lim->max_work_group_size,
                   (unsigned long long)lim->max_work_item_sizes[0],
                   (unsigned long long)lim->max_work_item_sizes[1],
                   (unsigned long long)lim->max_work_item_sizes[2]);
    }
  }
  return SG_OK;
}

const struct sg_kernel_info *sg_program_find_kernel(const struct sg_program_image *img,
                                                    const char *name)
{
  for (uint32_t i = 0; img && name && i < img->num_kernels; i++)
    if (!strcmp(img->kernels[i].name, name))
      return &img->kernels[i];
  return NULL;
}
