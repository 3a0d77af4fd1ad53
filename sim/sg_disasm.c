/* SPDX-License-Identifier: MIT */
/* SIMT core (DESIGN.md section 4), traces: the disassembler. Operand layout
 * comes from the FMT column of sg_insn.def; names follow the RISC-V ABI and
 * docs/isa.md for the SIMT extension and CSRs. */
#include "sg_sim.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

static const char *const xname[32] = {
    "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0",
    "a1", "a2", "a3", "a4", "a5", "a6", "a7", "s2", "s3", "s4", "s5",
    "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6"};
static const char *const fname[32] = {
    "ft0", "ft1", "ft2", "ft3", "ft4", "ft5", "ft6", "ft7", "fs0", "fs1", "fa0",
    "fa1", "fa2", "fa3", "fa4", "fa5", "fa6", "fa7", "fs2", "fs3", "fs4", "fs5",
    "fs6", "fs7", "fs8", "fs9", "fs10", "fs11", "ft8", "ft9", "ft10", "ft11"};

const char *sg_csr_name(unsigned csr) {
  switch (csr) {
#define SG_CSR(name, num, text, per_lane) case num: return text;
#include "sg_csr.def"
#undef SG_CSR
  default: return NULL;
  }
}

static const char *csr_text(unsigned csr, char *tmp) {
  const char *n = sg_csr_name(csr);
  if (n)
    return n;
  snprintf(tmp, 8, "0x%x", csr);
  return tmp;
}

static void fence_set(unsigned bits, char *out) {
  char *p = out;
  if (bits & 8) *p++ = 'i';
  if (bits & 4) *p++ = 'o';
  if (bits & 2) *p++ = 'r';
  if (bits & 1) *p++ = 'w';
  if (p == out) *p++ = '0';
  *p = 0;
}

const char *sg_disasm(const struct sg_uop *u, uint64_t pc, char *buf, size_t len) {
  static const char *const rms[8] = {"rne", "rtz", "rdn", "rup", "rmm", "rm5", "rm6", "dyn"};
  const char *m = sg_op_name(u->op);
  const char *rd = xname[u->rd & 31], *r1 = xname[u->rs1], *r2 = xname[u->rs2];
  const char *fd = fname[u->rd & 31], *f1 = fname[u->rs1], *f2 = fname[u->rs2];
  char tmp[16], a[8], b[8];
  long long imm = (long long)u->imm;
  unsigned long long target = (unsigned long long)(pc + (uint64_t)u->imm);
  int n;
  switch (sg_op_fmt(u->op)) {
  case SG_FMT_R: n = snprintf(buf, len, "%s %s, %s, %s", m, rd, r1, r2); break;
  case SG_FMT_I: case SG_FMT_SH: n = snprintf(buf, len, "%s %s, %s, %lld", m, rd, r1, imm); break;
  case SG_FMT_L: n = snprintf(buf, len, "%s %s, %lld(%s)", m, rd, imm, r1); break;
  case SG_FMT_S: n = snprintf(buf, len, "%s %s, %lld(%s)", m, r2, imm, r1); break;
  case SG_FMT_B: n = snprintf(buf, len, "%s %s, %s, 0x%llx", m, r1, r2, target); break;
  case SG_FMT_U: n = snprintf(buf, len, "%s %s, 0x%llx", m, rd, (unsigned long long)(imm >> 12) & 0xfffff); break;
  case SG_FMT_J: n = snprintf(buf, len, "%s %s, 0x%llx", m, rd, target); break;
  case SG_FMT_FL: n = snprintf(buf, len, "%s %s, %lld(%s)", m, fd, imm, r1); break;
  case SG_FMT_FS: n = snprintf(buf, len, "%s %s, %lld(%s)", m, f2, imm, r1); break;
  case SG_FMT_R4: n = snprintf(buf, len, "%s %s, %s, %s, %s", m, fd, f1, f2, fname[u->rs3]); break;
  case SG_FMT_FR: n = snprintf(buf, len, "%s %s, %s, %s", m, fd, f1, f2); break;
  case SG_FMT_F1: n = snprintf(buf, len, "%s %s, %s", m, fd, f1); break;
  case SG_FMT_FX: n = snprintf(buf, len, "%s %s, %s", m, rd, f1); break;
  case SG_FMT_XF: n = snprintf(buf, len, "%s %s, %s", m, fd, r1); break;
  case SG_FMT_FC: n = snprintf(buf, len, "%s %s, %s, %s", m, rd, f1, f2); break;
  case SG_FMT_A: n = snprintf(buf, len, "%s %s, %s, (%s)", m, rd, r2, r1); break;
  case SG_FMT_LR: n = snprintf(buf, len, "%s %s, (%s)", m, rd, r1); break;
  case SG_FMT_CSR:
    if (u->op == SG_OP_CSRRS && u->rs1 == 0)
      n = snprintf(buf, len, "csrr %s, %s", rd, csr_text((unsigned)imm, tmp));
    else
      n = snprintf(buf, len, "%s %s, %s, %s", m, rd, csr_text((unsigned)imm, tmp), r1);
    break;
  case SG_FMT_CSRI: n = snprintf(buf, len, "%s %s, %s, %u", m, rd, csr_text((unsigned)imm, tmp), u->rs1); break;
  case SG_FMT_FENCE:
    fence_set((unsigned)imm >> 4, a);
    fence_set((unsigned)imm & 15, b);
    n = snprintf(buf, len, "%s %s, %s", m, a, b);
    break;
  case SG_FMT_SFU:
    for (n = 0; sg_sfu_name(u->rm)[n] && n < 15; n++)
      tmp[n] = (char)tolower((unsigned char)sg_sfu_name(u->rm)[n]);
    tmp[n] = 0;
    if (sg_sfu_arity(u->rm) == 2)
      n = snprintf(buf, len, "sg.%s.%c %s, %s, %s", tmp, u->op == SG_OP_SFU_D ? 'd' : 's', fd, f1, f2);
    else
      n = snprintf(buf, len, "sg.%s.%c %s, %s", tmp, u->op == SG_OP_SFU_D ? 'd' : 's', fd, f1);
    break;
  case SG_FMT_TX: case SG_FMT_TXS: {
    static const char kinds[3] = {'f', 'i', 'u'};
    n = snprintf(buf, len, "%s.%c %s, %s, %s", m, kinds[u->rm % 3], rd, r1, r2);
    if ((u->op == SG_OP_TEX_SAMPLE || u->op == SG_OP_TEX_SAMPLEI) && n > 0 && (size_t)n < len)
      n += snprintf(buf + n, len - (size_t)n, ", %s", xname[u->rs3]); /* the sampler */
    break;
  }
  case SG_FMT_X1: n = snprintf(buf, len, "%s %s", m, r1); break;
  case SG_FMT_X2: n = snprintf(buf, len, "%s %s, %s", m, rd, r1); break;
  case SG_FMT_MARK: n = snprintf(buf, len, "%s %s, %s, %s", m, sg_mark_name(u->rm), r1, r2); break;
  case SG_FMT_N: default:
    n = u->op == SG_OP_ILLEGAL ? snprintf(buf, len, "illegal 0x%08x", u->raw) : snprintf(buf, len, "%s", m);
    break;
  }
  /* a static rounding mode other than the default dyn is part of the text */
  if (sg_op_has_rm(u->op) && u->rm != 7 && n > 0 && (size_t)n < len)
    snprintf(buf + n, len - (size_t)n, ", %s", rms[u->rm]);
  return buf;
}
