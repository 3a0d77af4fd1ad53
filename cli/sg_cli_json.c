/* SPDX-License-Identifier: MIT */
/* cli/: a small JSON reader (RFC 8259) for the statistics files SoftGPU
 * writes (one object per launch, JSON lines). It builds a tree, keeps each
 * number's text (counters may pass 2^53), checks everything and never
 * recurses deeper than MAX_DEPTH, so a damaged file gives a line:column
 * error, not a crash. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "sg_cli.h"

#define MAX_DEPTH 64

struct reader {
  const char *text, *p, *end;
  char *err;
  size_t errlen;
};

static bool fail(struct reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(struct reader *r, const char *fmt, ...) {
  unsigned line = 1, col = 1;
  for (const char *c = r->text; c < r->p; c++) {
    if (*c == '\n')
      line++, col = 1;
    else
      col++;
  }
  int n = snprintf(r->err, r->errlen, "%u:%u: ", line, col);
  va_list ap;
  va_start(ap, fmt);
  if (n >= 0 && (size_t)n < r->errlen)
    vsnprintf(r->err + n, r->errlen - (size_t)n, fmt, ap);
  va_end(ap);
  return false;
}

static void skip_space(struct reader *r) {
  while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r'))
    r->p++;
}

static bool literal(struct reader *r, const char *word) {
  size_t n = strlen(word);
  if ((size_t)(r->end - r->p) < n || strncmp(r->p, word, n))
    return fail(r, "expected a JSON value");
  r->p += n;
  return true;
}

static int hex4(const char *s) {
  int v = 0;
  for (int i = 0; i < 4; i++) {
    char c = s[i];
    int d = c >= '0' && c <= '9'   ? c - '0'
            : c >= 'a' && c <= 'f' ? c - 'a' + 10
            : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                   : -1;
    if (d < 0)
      return -1;
    v = v * 16 + d;
  }
  return v;
}

static void put_utf8(char **o, unsigned cp) {
  char *q = *o;
  if (cp < 0x80) {
    *q++ = (char)cp;
  } else if (cp < 0x800) {
    *q++ = (char)(0xc0 | cp >> 6), *q++ = (char)(0x80 | (cp & 0x3f));
  } else if (cp < 0x10000) {
    *q++ = (char)(0xe0 | cp >> 12), *q++ = (char)(0x80 | ((cp >> 6) & 0x3f));
    *q++ = (char)(0x80 | (cp & 0x3f));
  } else {
    *q++ = (char)(0xf0 | cp >> 18), *q++ = (char)(0x80 | ((cp >> 12) & 0x3f));
    *q++ = (char)(0x80 | ((cp >> 6) & 0x3f)), *q++ = (char)(0x80 | (cp & 0x3f));
  }
  *o = q;
}

/* A string at r->p (after the opening quote is checked); *out is malloc'd. */
static bool string(struct reader *r, char **out) {
  r->p++;
  const char *start = r->p;
  while (r->p < r->end && *r->p != '"')
    r->p += *r->p == '\\' ? 2 : 1;
  if (r->p >= r->end)
    return fail(r, "unterminated string");
  /* Escapes only shrink: \uXXXX (6 bytes) gives at most 3 UTF-8 bytes, a
   * surrogate pair (12 bytes) 4. */
  char *s = malloc((size_t)(r->p - start) + 1), *o = s;
  if (!s)
    return fail(r, "out of memory");
  for (const char *c = start; c < r->p; c++) {
    if ((unsigned char)*c < 0x20) {
      free(s);
      r->p = c;
      return fail(r, "control character in a string");
    }
    if (*c != '\\') {
      *o++ = *c;
      continue;
    }
    c++;
    const char *esc = strchr("\"\\/bfnrt", *c);
    if (esc && *c) {
      *o++ = "\"\\/\b\f\n\r\t"[esc - "\"\\/bfnrt"];
      continue;
    }
    int cp = *c == 'u' && r->p - c > 4 ? hex4(c + 1) : -1;
    if (cp >= 0xd800 && cp < 0xdc00 && r->p - c > 10 && c[5] == '\\' && c[6] == 'u') {
      int lo = hex4(c + 7);
      if (lo >= 0xdc00 && lo < 0xe000) {
        cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
        c += 6;
      }
    }
    if (cp < 0 || (cp >= 0xd800 && cp < 0xe000)) {
      free(s);
      r->p = c - 1;
      return fail(r, "bad escape in a string");
    }
    put_utf8(&o, (unsigned)cp);
    c += 4;
  }
  *o = '\0';
  r->p++;
  *out = s;
  return true;
}

static bool number(struct reader *r, struct sg_json *v) {
  const char *s = r->p;
  const char *c = s + (*s == '-');
  if (c >= r->end || !(*c >= '0' && *c <= '9'))
    return fail(r, "expected a JSON value");
  if (*c == '0')
    c++;
  else
    while (c < r->end && *c >= '0' && *c <= '9')
      c++;
  v->integer = true;
  if (c < r->end && *c == '.') {
    v->integer = false;
    if (++c >= r->end || !(*c >= '0' && *c <= '9'))
      return fail(r, "bad number");
    while (c < r->end && *c >= '0' && *c <= '9')
      c++;
  }
  if (c < r->end && (*c == 'e' || *c == 'E')) {
    v->integer = false;
    c++;
    if (c < r->end && (*c == '+' || *c == '-'))
      c++;
    if (c >= r->end || !(*c >= '0' && *c <= '9'))
      return fail(r, "bad number");
    while (c < r->end && *c >= '0' && *c <= '9')
      c++;
  }
  v->type = SG_JSON_NUMBER;
  v->text = strndup(s, (size_t)(c - s));
  if (!v->text)
    return fail(r, "out of memory");
  v->number = strtod(v->text, NULL);
  r->p = c;
  return true;
}

static bool value(struct reader *r, struct sg_json *v, int depth);

/* The entries of an array or object after its opening bracket. */
static bool members(struct reader *r, struct sg_json *v, int depth, bool object) {
  char close = object ? '}' : ']';
  r->p++;
  skip_space(r);
  if (r->p < r->end && *r->p == close) {
    r->p++;
    return true;
  }
  for (;;) {
    skip_space(r);
    struct sg_json *items = realloc(v->items, (v->count + 1) * sizeof *items);
    char **keys = object ? realloc(v->keys, (v->count + 1) * sizeof *keys) : NULL;
    if (items)
      v->items = items;
    if (keys)
      v->keys = keys;
    if (!items || (object && !keys))
      return fail(r, "out of memory");
    memset(&v->items[v->count], 0, sizeof *v->items);
    if (object) {
      v->keys[v->count] = NULL;
      if (r->p >= r->end || *r->p != '"')
        return fail(r, "expected a member name in quotes");
      if (!string(r, &v->keys[v->count]))
        return false;
      skip_space(r);
      if (r->p >= r->end || *r->p != ':') {
        free(v->keys[v->count]);
        return fail(r, "expected ':' after a member name");
      }
      r->p++;
    }
    v->count++;
    if (!value(r, &v->items[v->count - 1], depth + 1))
      return false;
    skip_space(r);
    if (r->p < r->end && *r->p == ',') {
      r->p++;
      continue;
    }
    if (r->p < r->end && *r->p == close) {
      r->p++;
      return true;
    }
    return fail(r, "expected ',' or '%c'", close);
  }
}

static bool value(struct reader *r, struct sg_json *v, int depth) {
  if (depth > MAX_DEPTH)
    return fail(r, "nested deeper than %d levels", MAX_DEPTH);
  skip_space(r);
  if (r->p >= r->end)
    return fail(r, "unexpected end of the file");
  switch (*r->p) {
  case '{': v->type = SG_JSON_OBJECT; return members(r, v, depth, true);
  case '[': v->type = SG_JSON_ARRAY; return members(r, v, depth, false);
  case '"': v->type = SG_JSON_STRING; return string(r, &v->text);
  case 't': v->type = SG_JSON_BOOL, v->boolean = true; return literal(r, "true");
  case 'f': v->type = SG_JSON_BOOL; return literal(r, "false");
  case 'n': v->type = SG_JSON_NULL; return literal(r, "null");
  default: return number(r, v);
  }
}

void sg_json_free_fields(struct sg_json *v) {
  for (size_t i = 0; i < v->count; i++) {
    sg_json_free_fields(&v->items[i]);
    if (v->keys)
      free(v->keys[i]);
  }
  free(v->items);
  free(v->keys);
  free(v->text);
  memset(v, 0, sizeof *v);
}

bool sg_json_parse_values(const char *text, size_t len, struct sg_json *out, char *err,
                          size_t errlen) {
  struct reader r = {text, text, text + len, err, errlen};
  *out = (struct sg_json){.type = SG_JSON_ARRAY};
  for (;;) {
    skip_space(&r);
    if (r.p >= r.end)
      return true;
    struct sg_json *items = realloc(out->items, (out->count + 1) * sizeof *items);
    if (!items) {
      fail(&r, "out of memory");
      sg_json_free_fields(out);
      return false;
    }
    out->items = items;
    memset(&out->items[out->count], 0, sizeof *items);
    out->count++;
    if (!value(&r, &out->items[out->count - 1], 0)) {
      sg_json_free_fields(out);
      return false;
    }
  }
}

const struct sg_json *sg_json_get(const struct sg_json *obj, const char *key) {
  for (size_t i = 0; obj->type == SG_JSON_OBJECT && i < obj->count; i++)
    if (!strcmp(obj->keys[i], key))
      return &obj->items[i];
  return NULL;
}
