/* SPDX-License-Identifier: MIT */
/* DESIGN.md 3, "a configured machine": the machine configuration. Every key
 * comes from one line of sg_config.def; presets are key=value text parsed by
 * the same parser as configuration files, so there is one way to set a key. */
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "sg_device.h"

/* One row per key, generated from sg_config.def. The _Generic makes any key
 * type other than uint32_t / uint64_t a compile error. */
struct key {
  const char *name, *type;
  size_t offset;
  unsigned size;       /* 4 or 8 bytes */
  const char *help;
  const char *choices; /* names of a choice key ("ipdom mpipdom "), else NULL */
};

#define CHOICE_NAME(e, n) #n " "
static const struct key keys[] = {
#define SG_CFG(name, type, def, help)                                                  \
  {#name, #type, offsetof(struct sg_config, name),                                     \
   _Generic((type)0, uint32_t: 4, uint64_t: 8), help, NULL},
#define SG_CFG_CHOICE(name, list, def, help)                                           \
  {#name, "choice", offsetof(struct sg_config, name), 4, help, list(CHOICE_NAME)},
#include "sg_config.def"
#undef SG_CFG_CHOICE
#undef SG_CFG
};

enum {
#define SG_CFG(name, type, def, help) KEY_##name,
#include "sg_config.def"
#undef SG_CFG
  NUM_KEYS
};

static const struct sg_config defaults = {
#define SG_CFG(name, type, def, help) .name = def,
#include "sg_config.def"
#undef SG_CFG
};

/* Presets are configuration text over the defaults; the description (the
 * file's first line) is what `softgpu presets` shows. */
struct preset {
  const char *name;
  const char *description;
  const char *text;
};

/* device/presets/<name>.cfg, in the order device/CMakeLists.txt lists them. */
static const struct preset presets[] = {
#include "sg_presets.inc"
};

#define NUM_PRESETS (sizeof presets / sizeof presets[0])
#define MAX_FILE_SIZE (1u << 20)

static enum sg_status fail(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static enum sg_status fail(char *err, size_t errlen, const char *fmt, ...) {
  if (err && errlen) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
  }
  return SG_EINVAL;
}

static uint64_t get_key(const struct sg_config *cfg, const struct key *k) {
  const char *p = (const char *)cfg + k->offset;
  if (k->size == 4) {
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
  }
  uint64_t v;
  memcpy(&v, p, 8);
  return v;
}

static void set_key(struct sg_config *cfg, const struct key *k, uint64_t v) {
  char *p = (char *)cfg + k->offset;
  if (k->size == 4) {
    uint32_t v32 = (uint32_t)v;
    memcpy(p, &v32, 4);
  } else {
    memcpy(p, &v, 8);
  }
}

/* The index of value among a choice key's names, or -1. */
static int choice_index(const struct key *k, const char *value) {
  size_t n = strlen(value);
  int i = 0;
  for (const char *c = k->choices; *c; i++) {
    size_t len = strcspn(c, " ");
    if (len == n && n && !strncmp(c, value, n))
      return i;
    c += len + (c[len] == ' ');
  }
  return -1;
}

/* A key's value as text: the number, or the choice's name. */
static const char *value_text(const struct key *k, uint64_t v, char *buf, size_t len) {
  if (!k->choices) {
    snprintf(buf, len, "%" PRIu64, v);
    return buf;
  }
  const char *c = k->choices;
  for (uint64_t i = 0; i < v && *c; i++)
    c += strcspn(c, " ") + 1;
  snprintf(buf, len, "%.*s", (int)strcspn(c, " "), c);
  return buf;
}

static const struct key *find_key(const char *name) {
  for (unsigned i = 0; i < NUM_KEYS; i++)
    if (strcmp(keys[i].name, name) == 0)
      return &keys[i];
  return NULL;
}

static const struct preset *find_preset(const char *name) {
  for (unsigned i = 0; i < NUM_PRESETS; i++)
    if (strcmp(presets[i].name, name) == 0)
      return &presets[i];
  return NULL;
}

/* Unsigned decimal or 0x-hex, with an optional binary suffix k, m or g
 * ("64k" = 65536). Rejects signs, junk and values above max. */
static bool parse_number(const char *s, uint64_t max, uint64_t *out) {
  unsigned base = 10;
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s += 2;
  }
  uint64_t v = 0;
  const char *start = s;
  for (;; s++) {
    unsigned d;
    if (*s >= '0' && *s <= '9')
      d = (unsigned)(*s - '0');
    else if (base == 16 && *s >= 'a' && *s <= 'f')
      d = (unsigned)(*s - 'a' + 10);
    else if (base == 16 && *s >= 'A' && *s <= 'F')
      d = (unsigned)(*s - 'A' + 10);
    else
      break;
    if (v > (UINT64_MAX - d) / base)
      return false;
    v = v * base + d;
  }
  if (s == start)
    return false;
  unsigned shift = 0;
  switch (*s) {
  case 'k': case 'K': shift = 10; s++; break;
  case 'm': case 'M': shift = 20; s++; break;
  case 'g': case 'G': shift = 30; s++; break;
  }
  if (*s != '\0' || v > (max >> shift))
    return false;
  *out = v << shift;
  return true;
}

static char *trim(char *s) {
  while (*s == ' ' || *s == '\t' || *s == '\r')
    s++;
  size_t n = strlen(s);
  while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
    s[--n] = '\0';
  return s;
}

/* The rules a machine must satisfy. Returns the offending key (or -1) and
 * says why in `why`. Checked once after all settings are applied, so the
 * order of keys in a file does not matter. */
static int check_config(const struct sg_config *c, char *why, size_t n) {
#define REQUIRE(key, cond, ...)                                                        \
  do {                                                                                 \
    if (!(cond)) {                                                                     \
      snprintf(why, n, __VA_ARGS__);                                                   \
      return KEY_##key;                                                                \
    }                                                                                  \
  } while (0)
  uint64_t wg = sg_config_max_work_group_size(c);
  REQUIRE(cores, c->cores >= 1 && c->cores <= 1024, "must be 1..1024");
  REQUIRE(warp_size, c->warp_size >= 1 && c->warp_size <= SG_MAX_WARP_SIZE,
          "must be 1..%u", SG_MAX_WARP_SIZE);
  REQUIRE(warps_per_core, c->warps_per_core >= 1 && c->warps_per_core <= SG_MAX_CTA_WARPS,
          "must be 1..%u", SG_MAX_CTA_WARPS);
  REQUIRE(local_mem_per_core, c->local_mem_per_core <= SG_ADDR_PARAMS - SG_ADDR_LOCAL,
          "must be at most 0x%llx (the local memory window)",
          (unsigned long long)(SG_ADDR_PARAMS - SG_ADDR_LOCAL));
  REQUIRE(stack_per_lane, c->stack_per_lane % 16 == 0 && c->stack_per_lane >= 256,
          "must be a multiple of 16 and at least 256");
  REQUIRE(stack_per_lane, wg * c->stack_per_lane <= SG_ADDR_GLOBAL - SG_ADDR_STACK,
          "times the largest work-group (%" PRIu64 ") must fit the 0x%llx-byte stack window",
          wg, (unsigned long long)(SG_ADDR_GLOBAL - SG_ADDR_STACK));
  REQUIRE(clock_mhz, c->clock_mhz >= 1, "must be at least 1");
  REQUIRE(global_mem_size, c->global_mem_size >= (1u << 20), "must be at least 1 MiB");
  REQUIRE(host_threads, c->host_threads <= 1024, "must be 0..1024");
  REQUIRE(trace_limit, c->trace_limit >= 4096, "must be at least 4096");
  REQUIRE(check_memory, c->check_memory >= (1u << 20), "must be at least 1 MiB");
  struct sg_timing_config t;
  sg_config_timing(c, &t);
  const char *bad = sg_timing_config_check(
      &t, c->warp_size, c->mode == SG_MODE_TIMING ? c->warps_per_core : 0, why, n);
  if (bad) {
    const struct key *k = find_key(bad);
    assert(k); /* the timing checks name keys of sg_timing_config.def */
    return k ? (int)(k - keys) : KEY_mode;
  }
  REQUIRE(printf_buffer_size, c->printf_buffer_size >= 64 && c->printf_buffer_size <= (1u << 30),
          "must be 64..2^30");
  return -1;
#undef REQUIRE
}

static enum sg_status parse_text(struct sg_config *cfg, struct sg_config_origin *org, char *text,
                                 const char *src, bool preset, char *err, size_t errlen);

static enum sg_status apply_preset(struct sg_config *cfg, struct sg_config_origin *org,
                                   const struct preset *p, char *err, size_t errlen) {
  char *text = strdup(p->text);
  if (!text)
    return fail(err, errlen, "out of memory reading preset '%s'", p->name);
  *cfg = defaults;
  for (unsigned i = 0; i < NUM_KEYS; i++)
    org[i] = (struct sg_config_origin){0};
  enum sg_status st = parse_text(cfg, org, text, p->name, true, err, errlen);
  free(text);
  return st;
}

/* Applies the key=value lines of text (modified in place) to cfg. "preset="
 * may only come before any key, since it resets every key. */
static enum sg_status parse_text(struct sg_config *cfg, struct sg_config_origin *org, char *text,
                                 const char *src, bool preset, char *err, size_t errlen) {
  bool any_key = false;
  unsigned line = 0;
  for (char *next = text; next;) {
    char *s = next;
    next = strchr(s, '\n');
    if (next)
      *next++ = '\0';
    line++;
    char *hash = strchr(s, '#');
    if (hash)
      *hash = '\0';
    s = trim(s);
    if (*s == '\0')
      continue;
    char *eq = strchr(s, '=');
    if (!eq)
      return fail(err, errlen, "%s:%u: expected key=value, got '%s'", src, line, s);
    *eq = '\0';
    char *name = trim(s), *value = trim(eq + 1);
    if (strcmp(name, "preset") == 0) {
      const struct preset *p = find_preset(value);
      if (!p)
        return fail(err, errlen, "%s:%u: preset: no preset named '%s'", src, line, value);
      if (any_key)
        return fail(err, errlen, "%s:%u: preset: must come before any other key", src,
                    line);
      enum sg_status st = apply_preset(cfg, org, p, err, errlen);
      if (st != SG_OK)
        return st;
      continue;
    }
    const struct key *k = find_key(name);
    if (!k) {
      char known[256] = "";
      for (unsigned i = 0; i < NUM_KEYS; i++)
        snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s",
                 i ? ", " : "", keys[i].name);
      return fail(err, errlen, "%s:%u: unknown key '%s' (keys: %s)", src, line, name,
                  known);
    }
    uint64_t v;
    if (k->choices) {
      /* An unknown name is said and ignored, as an unknown SOFTGPU_CHECK
       * word: the run goes on with the key as it was. */
      int i = choice_index(k, value);
      if (i < 0) {
        char was[32];
        fprintf(stderr, "SoftGPU: %s:%u: %s: unknown value '%s' (one of: %s); keeping %s\n",
                src, line, name, value, k->choices,
                value_text(k, get_key(cfg, k), was, sizeof was));
        continue;
      }
      v = (uint64_t)i;
    } else if (!parse_number(value, k->size == 4 ? UINT32_MAX : UINT64_MAX, &v))
      return fail(err, errlen,
                  "%s:%u: %s: bad value '%s' (expected an unsigned %u-bit number: "
                  "decimal or 0x hex, optional k/m/g suffix)",
                  src, line, name, value, k->size * 8);
    set_key(cfg, k, v);
    org[k - keys] = (struct sg_config_origin){src, preset, line};
    any_key = true;
  }
  return SG_OK;
}

static enum sg_status read_file(const char *path, char **out, char *err, size_t errlen) {
  FILE *f = fopen(path, "rb");
  if (!f && errno == ENOENT) {
    char names[128] = "";
    for (unsigned i = 0; i < NUM_PRESETS; i++)
      snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? ", " : "",
               presets[i].name);
    return fail(err, errlen, "no preset or file named '%s' (presets: %s)", path, names);
  }
  if (!f)
    return fail(err, errlen, "cannot open configuration file '%s': %s", path,
                strerror(errno));
  char *text = malloc(MAX_FILE_SIZE + 1);
  size_t n = text ? fread(text, 1, MAX_FILE_SIZE + 1, f) : 0;
  bool bad = !text || ferror(f) || n > MAX_FILE_SIZE;
  fclose(f);
  if (bad) {
    free(text);
    return fail(err, errlen, "cannot read configuration file '%s' (unreadable or over %u "
                "bytes)", path, MAX_FILE_SIZE);
  }
  text[n] = '\0';
  if (strlen(text) != n) {
    free(text);
    return fail(err, errlen, "configuration file '%s' is not text", path);
  }
  *out = text;
  return SG_OK;
}

enum sg_status sg_config_load(struct sg_config *cfg, const char *spec, char *err,
                              size_t errlen) {
  struct sg_config_origin org[NUM_KEYS];
  return sg_config_load_origins(cfg, spec, org, err, errlen);
}

enum sg_status sg_config_load_origins(struct sg_config *cfg, const char *spec,
                                      struct sg_config_origin *org, char *err, size_t errlen) {
  struct sg_config c = defaults;
  for (unsigned i = 0; i < NUM_KEYS; i++)
    org[i] = (struct sg_config_origin){0};
  enum sg_status st = SG_OK;
  const struct preset *p = spec && *spec ? find_preset(spec) : NULL;
  if (p) {
    st = apply_preset(&c, org, p, err, errlen);
  } else if (spec && *spec) {
    char *text = NULL;
    st = read_file(spec, &text, err, errlen);
    if (st == SG_OK) {
      st = parse_text(&c, org, text, spec, false, err, errlen);
      free(text);
    }
  }
  if (st != SG_OK)
    return st;
  char why[160];
  int bad = check_config(&c, why, sizeof why);
  if (bad >= 0) {
    const struct sg_config_origin *o = &org[bad];
    char v[32];
    value_text(&keys[bad], get_key(&c, &keys[bad]), v, sizeof v);
    if (o->source)
      return fail(err, errlen, "%s:%u: %s=%s: %s", o->source, o->line, keys[bad].name, v, why);
    return fail(err, errlen, "%s: %s=%s (default): %s", spec ? spec : "defaults",
                keys[bad].name, v, why);
  }
  *cfg = c;
  return SG_OK;
}

enum sg_status sg_config_from_env(struct sg_config *cfg, char *err, size_t errlen) {
  char msg[400];
  struct sg_config c;
  enum sg_status st = sg_config_load(&c, sg_env_get(SG_ENV_CONFIG), msg, sizeof msg);
  if (st != SG_OK)
    return fail(err, errlen, "SOFTGPU_CONFIG: %s", msg);
  /* SOFTGPU_MODE over the configuration's mode key */
  const char *mode = sg_env_get(SG_ENV_MODE);
  const struct key *k = find_key("mode");
  if (mode && *mode) {
    int i = choice_index(k, mode);
    if (i < 0)
      fprintf(stderr, "SoftGPU: SOFTGPU_MODE: unknown mode '%s' (one of: %s); ignored\n", mode,
              k->choices);
    else
      set_key(&c, k, (uint64_t)i);
    char why[160];
    int bad = check_config(&c, why, sizeof why);
    if (bad >= 0)
      return fail(err, errlen, "SOFTGPU_MODE=%s: %s: %s", mode, keys[bad].name, why);
  }
  *cfg = c;
  return SG_OK;
}

void sg_config_print(const struct sg_config *cfg, FILE *out) {
  char v[32];
  for (unsigned i = 0; i < NUM_KEYS; i++)
    fprintf(out, "%s=%s\n", keys[i].name, value_text(&keys[i], get_key(cfg, &keys[i]), v, sizeof v));
}

void sg_config_print_json(const struct sg_config *cfg, FILE *out) {
  char v[32];
  fputc('{', out);
  for (unsigned i = 0; i < NUM_KEYS; i++)
    fprintf(out, keys[i].choices ? "%s\"%s\": \"%s\"" : "%s\"%s\": %s", i ? ", " : "",
            keys[i].name, value_text(&keys[i], get_key(cfg, &keys[i]), v, sizeof v));
  fputc('}', out);
}

void sg_config_help(FILE *out) {
  char v[32];
  for (unsigned i = 0; i < NUM_KEYS; i++)
    fprintf(out, "%-20s %s (default %s)\n", keys[i].name, keys[i].help,
            value_text(&keys[i], get_key(&defaults, &keys[i]), v, sizeof v));
  fprintf(out, "presets:");
  for (unsigned i = 0; i < NUM_PRESETS; i++)
    fprintf(out, " %s", presets[i].name);
  fprintf(out, "\n");
}

void sg_config_timing(const struct sg_config *cfg, struct sg_timing_config *t) {
#define SG_TCFG(name, type, def, help) t->name = cfg->name;
#include "sg_timing_config.def"
#undef SG_TCFG
}

uint32_t sg_config_max_work_group_size(const struct sg_config *cfg) {
  uint64_t n = (uint64_t)cfg->warps_per_core * cfg->warp_size;
  return n < SG_MAX_CTA_THREADS ? (uint32_t)n : SG_MAX_CTA_THREADS;
}

uint32_t sg_device_max_work_group_size(const struct sg_config *cfg,
                                       const struct sg_program_image *p) {
  uint32_t max = sg_config_max_work_group_size(cfg);
  if (cfg->mode != SG_MODE_TIMING)
    return max;
  struct sg_timing_config t;
  sg_config_timing(cfg, &t);
  uint32_t fit = sg_timing_max_cta_threads(&t, cfg->warp_size, p->code);
  return fit >= max ? max : fit ? fit : 1;
}

unsigned sg_config_num_keys(void) {
  return NUM_KEYS;
}

struct sg_config_key_info sg_config_key(unsigned i) {
  return (struct sg_config_key_info){keys[i].name, keys[i].type, keys[i].help, keys[i].choices};
}

void sg_config_key_value(const struct sg_config *cfg, unsigned i, char *buf, size_t len) {
  value_text(&keys[i], get_key(cfg ? cfg : &defaults, &keys[i]), buf, len);
}

unsigned sg_config_num_presets(void) {
  return NUM_PRESETS;
}

struct sg_config_preset_info sg_config_preset(unsigned i) {
  return (struct sg_config_preset_info){presets[i].name, presets[i].description};
}
