/* SPDX-License-Identifier: MIT */
/* DESIGN.md "2. The compiler", linking: a small bounds-checked RISC-V ELF
 * relocator. Lays out the object's sections in the device address map (code,
 * read-only data, read-write data, __local variables) and applies the
 * relocations the RISC-V back end emits without relaxation. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* asprintf, strndup, posix_spawn_file_actions_addchdir_np */
#endif
#include "sg_cc_internal.h"

#include <gelf.h>
#include <stdlib.h>
#include <string.h>

/* SEC_DEBUG: a .debug_* section (line tables), kept at address 0 and
 * relocated like the code, for the executable's DWARF. */
enum sec_class { SEC_SKIP, SEC_TEXT, SEC_RO, SEC_DATA, SEC_BSS, SEC_LOCAL, SEC_DEBUG };

struct sec {
  enum sec_class cls;
  uint64_t addr, size, align;
  Elf_Data *data;
  uint32_t debug; /* SEC_DEBUG: its index in sg_linked.debug */
};

struct link {
  Elf *elf;
  size_t nsec;
  struct sec *secs;
  struct sg_linked *out;
  struct sg_text *log;
  Elf_Data *symtab;
  size_t strtab_index, nsyms;
  uint64_t *symval;      /* resolved value per symbol */
  bool *symok;
  /* A SET_ULEB128 waiting for the SUB_ULEB128 that follows it at the same
   * place: the field holds only their difference. */
  bool uleb_pending;
  uint64_t uleb_offset, uleb_value;
};

static uint64_t align_up(uint64_t v, uint64_t a) { return a > 1 ? (v + a - 1) / a * a : v; }

static enum sec_class classify(const GElf_Shdr *sh, const char *name)
{
  /* .debug_frame: nothing unwinds device code. */
  if (!(sh->sh_flags & SHF_ALLOC) && sh->sh_type == SHT_PROGBITS &&
      !strncmp(name, ".debug_", 7) && strcmp(name, ".debug_frame"))
    return SEC_DEBUG;
  if (!(sh->sh_flags & SHF_ALLOC) || !strcmp(name, ".eh_frame"))
    return SEC_SKIP;
  if (!strcmp(name, ".sg.local"))
    return SEC_LOCAL;
  if (sh->sh_flags & SHF_EXECINSTR)
    return SEC_TEXT;
  if (!(sh->sh_flags & SHF_WRITE))
    return SEC_RO;
  return sh->sh_type == SHT_NOBITS ? SEC_BSS : SEC_DATA;
}

/* Places every section of class cls from addr on; returns the end. */
static uint64_t place(struct link *l, enum sec_class cls, uint64_t addr)
{
  for (size_t i = 0; i < l->nsec; i++) {
    struct sec *s = &l->secs[i];
    if (s->cls != cls)
      continue;
    s->addr = align_up(addr, s->align);
    addr = s->addr + s->size;
  }
  return addr;
}

static enum sg_status read_sections(struct link *l)
{
  size_t shstrndx;
  if (elf_getshdrnum(l->elf, &l->nsec) || elf_getshdrstrndx(l->elf, &shstrndx))
    return SG_ELINK;
  l->secs = calloc(l->nsec + 1, sizeof *l->secs);
  if (!l->secs)
    return SG_ENOMEM;
  for (size_t i = 1; i < l->nsec; i++) {
    Elf_Scn *scn = elf_getscn(l->elf, i);
    GElf_Shdr sh;
    if (!scn || !gelf_getshdr(scn, &sh))
      return SG_ELINK;
    const char *name = elf_strptr(l->elf, shstrndx, sh.sh_name);
    struct sec *s = &l->secs[i];
    s->cls = classify(&sh, name ? name : "");
    s->size = sh.sh_size;
    s->align = sh.sh_addralign ? sh.sh_addralign : 1;
    if (s->align > 4096 || (s->align & (s->align - 1))) {
      sg_text_printf(l->log, "error: section %s has alignment %llu\n", name, (unsigned long long)s->align);
      return SG_ELINK;
    }
    if (sh.sh_type == SHT_RISCV_ATTRIBUTES && !l->out->attributes) {
      Elf_Data *d = elf_rawdata(scn, NULL);
      if (d && d->d_buf && d->d_size && (l->out->attributes = malloc(d->d_size))) {
        memcpy(l->out->attributes, d->d_buf, d->d_size);
        l->out->attributes_size = d->d_size;
      }
    }
    if (sh.sh_type == SHT_SYMTAB) {
      l->symtab = elf_getdata(scn, NULL);
      l->strtab_index = sh.sh_link;
      l->nsyms = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
    }
    if (s->cls == SEC_TEXT || s->cls == SEC_RO || s->cls == SEC_DATA || s->cls == SEC_DEBUG) {
      s->data = elf_getdata(scn, NULL);
      if (!s->data || s->data->d_size != s->size || (s->size && !s->data->d_buf))
        return SG_ELINK;
    }
    if (s->cls == SEC_DEBUG) {
      struct sg_linked *o = l->out;
      struct sg_cc_debug_section *d = realloc(o->debug, (o->num_debug + 1) * sizeof *d);
      if (!d)
        return SG_ENOMEM;
      o->debug = d;
      d += o->num_debug;
      d->name = strdup(name);
      d->size = s->size;
      d->data = malloc(s->size + 1);
      if (!d->name || !d->data) {
        free(d->name), free(d->data);
        return SG_ENOMEM;
      }
      if (s->size)
        memcpy(d->data, s->data->d_buf, s->size);
      s->debug = o->num_debug++;
      s->addr = 0;
    }
  }
  return SG_OK;
}

static enum sg_status layout(struct link *l)
{
  struct sg_linked *o = l->out;
  uint64_t text_end = place(l, SEC_TEXT, SG_ADDR_CODE);
  uint64_t ro_end = place(l, SEC_RO, text_end);
  o->text_size = text_end - SG_ADDR_CODE;
  o->ro_size = ro_end - SG_ADDR_CODE;
  o->rw_base = align_up(ro_end, 4096);
  uint64_t data_end = place(l, SEC_DATA, o->rw_base);
  uint64_t bss_end = place(l, SEC_BSS, data_end);
  o->rw_data_size = data_end - o->rw_base;
  o->rw_bss_size = bss_end - data_end;
  o->local_size = place(l, SEC_LOCAL, SG_ADDR_LOCAL) - SG_ADDR_LOCAL;
  if (bss_end > SG_ADDR_LOCAL || o->local_size > SG_ADDR_PARAMS - SG_ADDR_LOCAL) {
    sg_text_printf(l->log, "error: program too large for the device address map\n");
    return SG_ELINK;
  }
  o->ro = calloc(1, o->ro_size + 1);
  o->rw = calloc(1, o->rw_data_size + 1);
  if (!o->ro || !o->rw)
    return SG_ENOMEM;
  for (size_t i = 0; i < l->nsec; i++) {
    struct sec *s = &l->secs[i];
    if (!s->data || !s->size || s->cls == SEC_DEBUG)
      continue;
    uint8_t *dst = s->cls == SEC_DATA ? o->rw + (s->addr - o->rw_base) : o->ro + (s->addr - SG_ADDR_CODE);
    memcpy(dst, s->data->d_buf, s->size);
  }
  return SG_OK;
}

/* Host pointer of device address range [addr, addr+n) in a placed image. */
static uint8_t *image_at(struct link *l, uint64_t addr, uint64_t n)
{
  struct sg_linked *o = l->out;
  if (addr >= SG_ADDR_CODE && addr + n <= SG_ADDR_CODE + o->ro_size && addr + n >= addr)
    return o->ro + (addr - SG_ADDR_CODE);
  if (addr >= o->rw_base && addr + n <= o->rw_base + o->rw_data_size && addr + n >= addr)
    return o->rw + (addr - o->rw_base);
  return NULL;
}

static enum sg_status resolve_symbols(struct link *l)
{
  if (!l->symtab)
    return SG_ELINK;
  l->symval = calloc(l->nsyms + 1, sizeof *l->symval);
  l->symok = calloc(l->nsyms + 1, sizeof *l->symok);
  l->out->symbols = calloc(l->nsyms + 1, sizeof *l->out->symbols);
  if (!l->symval || !l->symok || !l->out->symbols)
    return SG_ENOMEM;
  enum sg_status st = SG_OK;
  for (size_t i = 1; i < l->nsyms; i++) {
    GElf_Sym sym;
    if (!gelf_getsym(l->symtab, (int)i, &sym))
      return SG_ELINK;
    const char *name = elf_strptr(l->elf, l->strtab_index, sym.st_name);
    name = name ? name : "";
    if (sym.st_shndx == SHN_UNDEF) {
      if (GELF_ST_BIND(sym.st_info) != STB_WEAK) {
        sg_text_printf(l->log, "error: undefined symbol '%s'\n", name);
        st = SG_ELINK;
      }
      l->symok[i] = true; /* weak undefined: 0 */
      continue;
    }
    int type = GELF_ST_TYPE(sym.st_info);
    if (sym.st_shndx == SHN_ABS) {
      l->symval[i] = sym.st_value, l->symok[i] = true;
      if (type != STT_OBJECT || sym.st_value < SG_ADDR_LOCAL)
        continue; /* only __local variables placed by the compiler are named */
    } else {
      if (sym.st_shndx >= l->nsec || l->secs[sym.st_shndx].cls == SEC_SKIP)
        continue; /* in a section we drop; an error only if referenced */
      l->symval[i] = l->secs[sym.st_shndx].addr + sym.st_value;
      l->symok[i] = true;
    }
    if ((type == STT_FUNC || type == STT_OBJECT) && *name) {
      struct sg_cc_symbol *s = &l->out->symbols[l->out->num_symbols++];
      s->name = strdup(name);
      s->addr = l->symval[i];
      s->size = sym.st_size;
      s->is_func = type == STT_FUNC;
      if (!s->name)
        return SG_ENOMEM;
    }
  }
  return st;
}

/* ---- Relocations ----------------------------------------------------------- */

static uint32_t rd32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static void wr32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }

static uint32_t hi20(int64_t v) { return (uint32_t)((v + 0x800) >> 12) << 12; }

static void put_i(uint8_t *p, int64_t v) { wr32(p, (rd32(p) & 0x000fffffu) | ((uint32_t)v & 0xfff) << 20); }
static void put_s(uint8_t *p, int64_t v)
{
  uint32_t x = (uint32_t)v;
  wr32(p, (rd32(p) & 0x01fff07fu) | (x & 0xfe0) << 20 | (x & 0x1f) << 7);
}
static void put_u(uint8_t *p, int64_t v) { wr32(p, (rd32(p) & 0xfffu) | hi20(v)); }
static void put_b(uint8_t *p, int64_t v)
{
  uint32_t x = (uint32_t)v;
  wr32(p, (rd32(p) & 0x01fff07fu) | (x >> 12 & 1) << 31 | (x >> 5 & 0x3f) << 25 |
              (x >> 1 & 0xf) << 8 | (x >> 11 & 1) << 7);
}
static void put_j(uint8_t *p, int64_t v)
{
  uint32_t x = (uint32_t)v;
  wr32(p, (rd32(p) & 0xfffu) | (x >> 20 & 1) << 31 | (x >> 1 & 0x3ff) << 21 |
              (x >> 11 & 1) << 20 | (x >> 12 & 0xff) << 12);
}

static bool fits(int64_t v, int bits) { return v >= -(INT64_C(1) << (bits - 1)) && v < (INT64_C(1) << (bits - 1)); }

/* The value a PCREL_HI20 at address auipc resolved to (PCREL_LO12 pairs). */
static bool pcrel_hi_value(struct link *l, size_t target_sec, Elf_Data *rela, size_t n,
                           uint64_t auipc, int64_t *v)
{
  for (size_t i = 0; i < n; i++) {
    GElf_Rela r;
    if (!gelf_getrela(rela, (int)i, &r) || GELF_R_TYPE(r.r_info) != R_RISCV_PCREL_HI20)
      continue;
    size_t sym = GELF_R_SYM(r.r_info);
    uint64_t p = l->secs[target_sec].addr + r.r_offset;
    if (p == auipc && sym < l->nsyms && l->symok[sym]) {
      *v = (int64_t)(l->symval[sym] + (uint64_t)r.r_addend - p);
      return true;
    }
  }
  return false;
}

/* A relocation in a .debug_* section: section offsets and code addresses
 * (absolute), and the label differences an assembler may leave. */
#ifndef R_RISCV_SET_ULEB128
#define R_RISCV_SET_ULEB128 60
#define R_RISCV_SUB_ULEB128 61
#endif

/* SET_ULEB128/SUB_ULEB128 rewrite a ULEB128 number in place, in as many
 * bytes as the assembler reserved for it (DWARF 5 range and location lists
 * hold label differences this way). */
static enum sg_status apply_uleb128(struct link *l, const struct sg_cc_debug_section *d,
                                    uint64_t off, bool sub, uint64_t S_A)
{
  uint64_t old = 0;
  unsigned n = 0;
  for (;; n++) {
    if (off + n >= d->size || n == 10) {
      sg_text_printf(l->log, "error: bad ULEB128 field in %s\n", d->name);
      return SG_ELINK;
    }
    old |= (uint64_t)(d->data[off + n] & 0x7f) << (7 * n);
    if (!(d->data[off + n] & 0x80))
      break;
  }
  n++;
  uint64_t v = sub ? old - S_A : S_A;
  if (n < 10 && v >> (7 * n)) {
    sg_text_printf(l->log, "error: ULEB128 relocation in %s out of range\n", d->name);
    return SG_ELINK;
  }
  for (unsigned i = 0; i < n; i++, v >>= 7)
    d->data[off + i] = (uint8_t)((v & 0x7f) | (i + 1 < n ? 0x80 : 0));
  return SG_OK;
}

static enum sg_status apply_debug(struct link *l, size_t target, const GElf_Rela *r, size_t sym)
{
  uint32_t type = (uint32_t)GELF_R_TYPE(r->r_info);
  const struct sg_cc_debug_section *d = &l->out->debug[l->secs[target].debug];
  uint64_t S_A = l->symval[sym] + (uint64_t)r->r_addend;
  unsigned width = 0;
  if (type == R_RISCV_SET_ULEB128) {
    enum sg_status st = SG_OK;
    if (l->uleb_pending) /* a SET alone: the field holds the value itself */
      st = apply_uleb128(l, d, l->uleb_offset, false, l->uleb_value);
    l->uleb_pending = true, l->uleb_offset = r->r_offset, l->uleb_value = S_A;
    return st;
  }
  if (type == R_RISCV_SUB_ULEB128) {
    bool paired = l->uleb_pending && l->uleb_offset == r->r_offset;
    l->uleb_pending = false;
    return paired ? apply_uleb128(l, d, r->r_offset, false, l->uleb_value - S_A)
                  : apply_uleb128(l, d, r->r_offset, true, S_A);
  }
  switch (type) {
  case R_RISCV_ADD8: case R_RISCV_SUB8: case R_RISCV_SET8:
  case R_RISCV_SET6: case R_RISCV_SUB6: width = 1; break;
  case R_RISCV_ADD16: case R_RISCV_SUB16: case R_RISCV_SET16: width = 2; break;
  case R_RISCV_32: case R_RISCV_ADD32: case R_RISCV_SUB32: case R_RISCV_SET32: width = 4; break;
  case R_RISCV_64: case R_RISCV_ADD64: case R_RISCV_SUB64: width = 8; break;
  default:
    sg_text_printf(l->log, "error: unsupported relocation type %u in %s\n", type, d->name);
    return SG_ELINK;
  }
  if (r->r_offset > d->size || d->size - r->r_offset < width) {
    sg_text_printf(l->log, "error: relocation outside %s\n", d->name);
    return SG_ELINK;
  }
  uint8_t *p = d->data + r->r_offset;
  uint64_t old = 0, v;
  memcpy(&old, p, width); /* little-endian host */
  bool add = type == R_RISCV_ADD8 || type == R_RISCV_ADD16 || type == R_RISCV_ADD32 ||
             type == R_RISCV_ADD64;
  bool sub = type == R_RISCV_SUB8 || type == R_RISCV_SUB16 || type == R_RISCV_SUB32 ||
             type == R_RISCV_SUB64;
  v = add ? old + S_A : sub ? old - S_A : S_A;
  if (type == R_RISCV_SET6 || type == R_RISCV_SUB6) /* the low 6 bits of a byte */
    v = (old & 0xc0) | ((type == R_RISCV_SUB6 ? old - S_A : S_A) & 0x3f);
  if (type == R_RISCV_32 && S_A > UINT32_MAX) {
    sg_text_printf(l->log, "error: relocation type %u in %s out of range\n", type, d->name);
    return SG_ELINK;
  }
  memcpy(p, &v, width);
  return SG_OK;
}

static enum sg_status apply_one(struct link *l, size_t target, Elf_Data *rela, size_t n,
                                const GElf_Rela *r)
{
  uint32_t type = (uint32_t)GELF_R_TYPE(r->r_info);
  size_t sym = GELF_R_SYM(r->r_info);
  if (type == R_RISCV_RELAX || type == R_RISCV_ALIGN || type == R_RISCV_NONE)
    return SG_OK;
  if (sym >= l->nsyms || !l->symok[sym]) {
    sg_text_printf(l->log, "error: relocation against a dropped or invalid symbol\n");
    return SG_ELINK;
  }
  if (l->secs[target].cls == SEC_DEBUG)
    return apply_debug(l, target, r, sym);
  uint64_t P = l->secs[target].addr + r->r_offset;
  int64_t S_A = (int64_t)(l->symval[sym] + (uint64_t)r->r_addend), v = S_A - (int64_t)P;
  uint64_t width = type == R_RISCV_64 ? 8 : type == R_RISCV_CALL || type == R_RISCV_CALL_PLT ? 8 : 4;
  uint8_t *p = r->r_offset < l->secs[target].size ? image_at(l, P, width) : NULL;
  if (!p) {
    sg_text_printf(l->log, "error: relocation outside its section\n");
    return SG_ELINK;
  }
  bool ok = true;
  switch (type) {
  case R_RISCV_64: memcpy(p, &S_A, 8); break;
  case R_RISCV_32: ok = S_A >= 0 && S_A <= UINT32_MAX; wr32(p, (uint32_t)S_A); break;
  case R_RISCV_HI20: ok = fits(S_A, 32); put_u(p, S_A); break;
  case R_RISCV_LO12_I: put_i(p, S_A); break;
  case R_RISCV_LO12_S: put_s(p, S_A); break;
  case R_RISCV_PCREL_HI20: ok = fits(v, 32); put_u(p, v); break;
  case R_RISCV_PCREL_LO12_I:
  case R_RISCV_PCREL_LO12_S:
    ok = pcrel_hi_value(l, target, rela, n, l->symval[sym], &v);
    (type == R_RISCV_PCREL_LO12_I ? put_i : put_s)(p, v);
    break;
  case R_RISCV_CALL:
  case R_RISCV_CALL_PLT: ok = fits(v, 32); put_u(p, v); put_i(p + 4, v); break;
  case R_RISCV_BRANCH: ok = fits(v, 13) && !(v & 1); put_b(p, v); break;
  case R_RISCV_JAL: ok = fits(v, 21) && !(v & 1); put_j(p, v); break;
  default:
    sg_text_printf(l->log, "error: unsupported relocation type %u\n", type);
    return SG_ELINK;
  }
  if (!ok)
    sg_text_printf(l->log, "error: relocation type %u at 0x%llx out of range\n", type,
                   (unsigned long long)P);
  return ok ? SG_OK : SG_ELINK;
}

static enum sg_status relocate(struct link *l)
{
  for (size_t i = 1; i < l->nsec; i++) {
    Elf_Scn *scn = elf_getscn(l->elf, i);
    GElf_Shdr sh;
    if (!scn || !gelf_getshdr(scn, &sh) || sh.sh_type != SHT_RELA)
      continue;
    if (sh.sh_info >= l->nsec || l->secs[sh.sh_info].cls == SEC_SKIP)
      continue; /* relocations of dropped sections (.eh_frame, ...) */
    if (l->secs[sh.sh_info].cls == SEC_BSS || l->secs[sh.sh_info].cls == SEC_LOCAL)
      return SG_ELINK;
    Elf_Data *rela = elf_getdata(scn, NULL);
    size_t n = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
    for (size_t j = 0; rela && j < n; j++) {
      GElf_Rela r;
      if (!gelf_getrela(rela, (int)j, &r))
        return SG_ELINK;
      enum sg_status st = apply_one(l, sh.sh_info, rela, n, &r);
      if (st != SG_OK)
        return st;
    }
    if (l->uleb_pending) {
      l->uleb_pending = false;
      enum sg_status st = apply_uleb128(l, &l->out->debug[l->secs[sh.sh_info].debug],
                                        l->uleb_offset, false, l->uleb_value);
      if (st != SG_OK)
        return st;
    }
  }
  return SG_OK;
}

enum sg_status sg_cc_link(const void *obj, size_t obj_size, struct sg_linked *out,
                          struct sg_text *log)
{
  memset(out, 0, sizeof *out);
  elf_version(EV_CURRENT);
  char *copy = malloc(obj_size ? obj_size : 1);
  if (!copy)
    return SG_ENOMEM;
  memcpy(copy, obj, obj_size);
  struct link l = {.elf = elf_memory(copy, obj_size), .out = out, .log = log};
  enum sg_status st = SG_ELINK;
  GElf_Ehdr eh;
  if (l.elf && elf_kind(l.elf) == ELF_K_ELF && gelf_getehdr(l.elf, &eh) &&
      eh.e_machine == EM_RISCV && eh.e_type == ET_REL)
    st = read_sections(&l);
  if (st == SG_OK)
    st = layout(&l);
  if (st == SG_OK)
    st = resolve_symbols(&l);
  if (st == SG_OK)
    st = relocate(&l);
  if (st == SG_ELINK && !log->len)
    sg_text_printf(log, "error: malformed object file from code generation\n");
  free(l.secs);
  free(l.symval);
  free(l.symok);
  if (l.elf)
    elf_end(l.elf);
  free(copy);
  if (st != SG_OK)
    sg_linked_free(out);
  return st;
}

void sg_linked_free(struct sg_linked *l)
{
  for (uint32_t i = 0; i < l->num_symbols; i++)
    free(l->symbols[i].name);
  free(l->symbols);
  for (uint32_t i = 0; i < l->num_debug; i++) {
    free(l->debug[i].name);
    free(l->debug[i].data);
  }
  free(l->debug);
  free(l->attributes);
  free(l->ro);
  free(l->rw);
  memset(l, 0, sizeof *l);
}

const struct sg_cc_symbol *sg_linked_find(const struct sg_linked *l, const char *name)
{
  for (uint32_t i = 0; i < l->num_symbols; i++)
    if (!strcmp(l->symbols[i].name, name))
      return &l->symbols[i];
  return NULL;
}
