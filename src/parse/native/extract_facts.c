/*
 * extract_facts: the parse stage's extraction (extract.ts, body.ts, types.ts, fingerprint.ts,
 * segments.ts) and the facts codec's encoder (codec.ts, packFacts without a string table) in C, for
 * the common file: ASCII, no syntax error, a package clause, at most MAX_FILE_BYTES. It walks the flat
 * tree flatten() makes (the very tree the TypeScript extractor walks through FlatNode) and writes the
 * bytes packFacts would write for extractFile's facts; for any other file it gives up and the caller
 * extracts in TypeScript. The bytes must be the same, to the byte: test/parse/native-extract.test.ts
 * compares them on every fixture, and on a whole Kubernetes tree when one is given.
 *
 * Included by flat_tree.c (one translation unit: it uses State and flatten()).
 *
 * How it mirrors the TypeScript: every record is an Obj with the keys of the object literal that made
 * it there, in the same order (a key whose value is undefined included), and a record or list that
 * the TypeScript shares (one type object for `a, b int`, the module's one record per literal kind, a
 * bind's value that is also a channel's) is one Obj here, so the encoder writes it once and refers to
 * it after, as packFacts does. Side effects (calls, refs, closures pushed) happen in the TypeScript's
 * order of evaluation.
 */
#include <stdint.h>
#include <stdarg.h>
#include <setjmp.h>
#include <pthread.h>
#include <time.h>

#define MAX_FILE_BYTES (8u * 1024u * 1024u)
#define SEGMENTS_MIN_CHARS (16u * 1024u)

/* ---------- node types and fields by name ---------- */

#define NODE_TYPES(X) \
  X(identifier) X(selector_expression) X(parenthesized_expression) X(call_expression) X(func_literal) \
  X(unary_expression) X(binary_expression) X(composite_literal) X(type_assertion_expression) \
  X(type_conversion_expression) X(index_expression) X(generic_type) X(slice_expression) X(int_literal) \
  X(float_literal) X(imaginary_literal) X(interpreted_string_literal) X(raw_string_literal) X(rune_literal) \
  X(true) X(false) X(nil) X(slice_type) X(array_type) X(map_type) X(channel_type) X(pointer_type) \
  X(function_type) X(interface_type) X(struct_type) X(qualified_type) X(type_identifier) \
  X(implicit_length_array_type) X(keyed_element) X(literal_element) X(literal_value) X(field_identifier) \
  X(variadic_argument) X(comment) X(short_var_declaration) X(var_declaration) X(const_declaration) \
  X(assignment_statement) X(go_statement) X(defer_statement) X(send_statement) X(receive_statement) \
  X(select_statement) X(communication_case) X(default_case) X(for_statement) X(range_clause) \
  X(type_switch_statement) X(type_case) X(return_statement) X(expression_list) X(expression_statement) \
  X(inc_statement) X(dec_statement) X(labeled_statement) X(label_name) X(block) X(if_statement) \
  X(expression_switch_statement) X(expression_case) X(var_spec) X(const_spec) X(var_spec_list) \
  X(const_spec_list) X(parameter_declaration) X(variadic_parameter_declaration) X(parameter_list) \
  X(method_elem) X(type_elem) X(field_declaration_list) X(field_declaration) X(parenthesized_type) \
  X(negated_type) X(type_spec) X(type_alias) X(package_clause) X(import_declaration) X(statement_list)

enum {
  T_NONE = 0,
#define T_ENUM(n) T_##n,
  NODE_TYPES(T_ENUM)
#undef T_ENUM
  T_DEFINE, /* ":=" */
  T_STAR,   /* "*" */
  T_COUNT
};

static const char *const TYPE_NAMES[] = {
  "",
#define T_NAME(n) #n,
  NODE_TYPES(T_NAME)
#undef T_NAME
  ":=", "*",
};

#define FIELDS(X) \
  X(name) X(type_parameters) X(receiver) X(type) X(parameters) X(result) X(body) X(left) X(right) \
  X(operator) X(value) X(channel) X(communication) X(initializer) X(alias) X(operand) X(field) \
  X(type_arguments) X(function) X(arguments) X(index) X(element) X(key) X(package) X(path)

enum {
#define F_ENUM(n) F_##n,
  FIELDS(F_ENUM)
#undef F_ENUM
  F_COUNT
};

static const char *const FIELD_NAMES[] = {
#define F_NAME(n) #n,
  FIELDS(F_NAME)
#undef F_NAME
};

/* The capture names of declarations.scm that the extractor acts on. */
enum { C_OTHER, C_PACKAGE, C_IMPORT, C_FUNCTION, C_METHOD, C_TYPE, C_VAR, C_CONST };

/* ---------- values, records and lists ---------- */

enum { V_UNDEF, V_NULL, V_FALSE, V_TRUE, V_INT, V_STR, V_OBJ };

typedef struct Obj Obj;
typedef struct {
  uint32_t tag;
  uint32_t len;
  union {
    int32_t i;
    const char *s;
    Obj *o;
  } u;
} Val;

/* A record's key list: `idx` numbers it among all shapes (the encoder's per-file numbering is by it). */
typedef struct {
  int idx;
  int n;
  const char *const *keys;
} Shape;

struct Obj {
  const Shape *shape; /* NULL: a list */
  Val *v;
  uint32_t n, cap;
  int32_t at; /* where its token was written in this file's encoding; -1: not yet */
};

/* Every record shape the extractor makes (keys in the TypeScript object literals' order). */
#define SHAPES(X) \
  X(FILE, "path", "pkg", "imports", "funcs", "types", "values", "diagnostics") \
  X(IMPORT, "alias", "path", "line") \
  X(FN_FUNC, "local", "kind", "name", "tparams", "doc", "params", "results", "variadic", "line", "endLine", "col", "fingerprint", "binds", "calls", "refs", "assigns", "returns", "chans", "selects", "closures", "start", "end") \
  X(FN_METHOD, "local", "kind", "name", "recv", "doc", "params", "results", "variadic", "line", "endLine", "col", "fingerprint", "binds", "calls", "refs", "assigns", "returns", "chans", "selects", "closures", "start", "end") \
  X(FN_CLOSURE, "local", "kind", "name", "parent", "params", "results", "variadic", "line", "endLine", "col", "fingerprint", "binds", "calls", "refs", "assigns", "returns", "chans", "selects", "closures", "start", "end") \
  X(FN_INIT, "local", "kind", "name", "params", "results", "line", "endLine", "col", "fingerprint", "binds", "calls", "refs", "assigns", "returns", "chans", "selects", "closures", "start", "end") \
  X(RECV, "name", "type", "ptr", "tparams") \
  X(TYPE, "name", "t", "alias", "tparams", "line", "endLine", "doc", "fingerprint") \
  X(VALUE, "name", "kind", "t", "v", "vi", "arity", "line", "doc") \
  X(PARAM_T, "t") \
  X(PARAM_NT, "name", "t") \
  X(PARAM_VAR, "name", "t", "variadic") \
  X(BIND_T, "n", "from", "t", "pos", "end") \
  X(BIND_TV, "n", "from", "t", "v", "pos", "end") \
  X(BIND_TVVI, "n", "from", "t", "v", "vi", "arity", "pos", "end") \
  X(BIND_RANGE, "n", "from", "v", "vi", "pos", "end") \
  X(CALL, "f", "a", "l", "col", "mode", "targs", "pos") \
  X(REF, "x", "l", "pos") \
  X(ASSIGN, "lhs", "rhs", "l", "pos") \
  X(ASSIGN_VI, "lhs", "rhs", "vi", "l", "pos") \
  X(RETURN, "vals", "l", "pos") \
  X(CHAN, "op", "ch", "l", "pos") \
  X(CHAN_SEL, "op", "ch", "l", "pos", "select", "caseIndex") \
  X(SELECT, "l", "cases") \
  X(E_ID, "k", "n", "l") \
  X(E_SEL, "k", "x", "n", "l") \
  X(E_CALL, "k", "f", "a", "l", "targs", "spread") \
  X(E_COMP, "k", "t", "elems", "l") \
  X(E_COMP_NT, "k", "elems", "l") \
  X(ELEM_KV, "key", "v") \
  X(ELEM_V, "v") \
  X(E_UN, "k", "op", "x") \
  X(E_FN, "k", "i") \
  X(E_ASSERT, "k", "x", "t") \
  X(E_IDX, "k", "x", "i") \
  X(E_SLICE, "k", "x") \
  X(E_BIN, "k", "op", "x", "y") \
  X(E_LIT, "k", "t") \
  X(E_LITV, "k", "t", "v") \
  X(E_TYPE, "k", "t") \
  X(E_CONV, "k", "t", "x") \
  X(E_OTHER, "k") \
  X(T_NAMED, "k", "n") \
  X(T_QUAL, "k", "pkg", "n") \
  X(T_NAMED_ARGS, "k", "n", "args") \
  X(T_QUAL_ARGS, "k", "pkg", "n", "args") \
  X(T_ELEM, "k", "e") \
  X(T_MAP, "k", "key", "e") \
  X(T_CHAN, "k", "e", "dir") \
  X(T_FUNC, "k", "params", "results", "variadic") \
  X(T_IFACE, "k", "methods", "embeds") \
  X(T_STRUCT, "k", "fields") \
  X(T_UNKNOWN, "k") \
  X(METHOD_SIG, "name", "params", "results") \
  X(FIELD, "name", "t", "embedded", "line")

enum {
#define S_ENUM(id, ...) SI_##id,
  SHAPES(S_ENUM)
#undef S_ENUM
  SHAPE_COUNT
};

#define S_KEYS(id, ...) static const char *const K_##id[] = {__VA_ARGS__};
SHAPES(S_KEYS)
#undef S_KEYS
#define S_DEF(id, ...) static const Shape SH_##id = {SI_##id, (int)(sizeof K_##id / sizeof K_##id[0]), K_##id};
SHAPES(S_DEF)
#undef S_DEF

/* ---------- one file's extraction ---------- */

typedef struct Block {
  struct Block *next;
  size_t used, size;
  char data[];
} Block;

typedef struct Fn Fn;
typedef struct {
  Fn **v;
  uint32_t n, cap;
} Fns;

typedef struct {
  /* the arena the file's records live in */
  Block *blocks;
  /* the file */
  const char *text;
  uint32_t len;
  uint32_t *lines; /* line starts */
  uint32_t nlines;
  /* the flat tree */
  const uint32_t *w;
  uint32_t count;
  int32_t *first, *next, *prev;
  const uint8_t *tcode; /* by symbol */
  const uint8_t *fcode; /* by field id: F_* + 1, 0 for none of ours */
  /* the file's facts */
  Obj *funcs;
  Fns fns;     /* the functions behind `funcs`, in its order */
  Fn *init;    /* the package initializer, once made */
  /* the records TypeScript keeps one of per module (shared by every use in a file) */
  Obj *lit_string, *lit_bool, *lit_imag, *lit_rune, *lit_nil, *unknown, *no_body;
  jmp_buf *fail;
  /* How deep the walk is in nested expressions, statements and types (see MAX_DEPTH). */
  uint32_t depth;
} X;

/*
 * The deepest nesting the walk takes (a file nested deeper is left to the TypeScript extractor): the
 * walk recurses on the thread's own stack, a worker's is 4 MB, and a frame of expr() and the calls
 * between two levels take a few hundred bytes.
 */
#define MAX_DEPTH 2000

static void deeper(X *x) {
  if (++x->depth > MAX_DEPTH) longjmp(*x->fail, 3);
}

static void *alloc(X *x, size_t n) {
  n = (n + 7) & ~(size_t)7;
  Block *b = x->blocks;
  if (!b || b->used + n > b->size) {
    size_t size = n > (1u << 20) ? n : (1u << 20);
    Block *nb = malloc(sizeof(Block) + size);
    if (!nb) longjmp(*x->fail, 2);
    nb->next = b;
    nb->used = 0;
    nb->size = size;
    x->blocks = b = nb;
  }
  void *p = b->data + b->used;
  b->used += n;
  return p;
}

/* `v` (holding `n` items of `size` bytes, room for *cap) with room for one more: moved to a block
   twice as large in the arena when full. */
static void *grow(X *x, void *v, uint32_t n, uint32_t *cap, size_t size) {
  if (n < *cap) return v;
  *cap = *cap ? *cap * 2 : 4;
  void *nv = alloc(x, size * *cap);
  if (n) memcpy(nv, v, size * n);
  return nv;
}

static void free_blocks(X *x) {
  for (Block *b = x->blocks; b;) {
    Block *n = b->next;
    free(b);
    b = n;
  }
  x->blocks = NULL;
}

static const Val UNDEF = {V_UNDEF, 0, {0}};

static Val I(int32_t i) {
  Val v = {V_INT, 0, {0}};
  v.u.i = i;
  return v;
}

static Val B(int b) {
  Val v = {b ? V_TRUE : V_FALSE, 0, {0}};
  return v;
}

static Val SL(const char *s, uint32_t len) {
  Val v = {V_STR, len, {0}};
  v.u.s = s;
  return v;
}

static Val SC(const char *s) {
  return SL(s, (uint32_t)strlen(s));
}

static Val O(Obj *o) {
  Val v = {o ? V_OBJ : V_UNDEF, 0, {0}};
  v.u.o = o;
  return v;
}

static Obj *rec(X *x, const Shape *sh, const Val *vals) {
  Obj *o = alloc(x, sizeof(Obj));
  o->shape = sh;
  o->n = o->cap = (uint32_t)sh->n;
  o->v = alloc(x, sizeof(Val) * (size_t)sh->n);
  memcpy(o->v, vals, sizeof(Val) * (size_t)sh->n);
  o->at = -1;
  return o;
}

#define REC(x, id, ...) rec((x), &SH_##id, (const Val[]){__VA_ARGS__})

static Obj *list(X *x) {
  Obj *o = alloc(x, sizeof(Obj));
  o->shape = NULL;
  o->v = NULL;
  o->n = o->cap = 0;
  o->at = -1;
  return o;
}

static void add(X *x, Obj *l, Val v) {
  l->v = grow(x, l->v, l->n, &l->cap, sizeof(Val));
  l->v[l->n++] = v;
}

/* A record's value by key position (records are made whole, so positions are the shape's). */
#define AT(o, k) ((o)->v[k])

/* ---------- the flat tree ---------- */

#define NONE (-1)

static inline uint32_t sym_of(const X *x, int32_t i) { return x->w[2 + (uint32_t)i * 4] & 0xffff; }
static inline int type_of(const X *x, int32_t i) {
  uint32_t s = sym_of(x, i);
  return s == 0xffff ? T_NONE : x->tcode[s];
}
static inline int named_at(const X *x, int32_t i) { return (x->w[2 + (uint32_t)i * 4] >> 24) & 1; }
static inline int field_at(const X *x, int32_t i) {
  uint32_t f = (x->w[2 + (uint32_t)i * 4] >> 16) & 0xff;
  return f ? (int)x->fcode[f] - 1 : -1;
}
static inline uint32_t start_of(const X *x, int32_t i) { return x->w[3 + (uint32_t)i * 4]; }
static inline uint32_t end_of(const X *x, int32_t i) { return x->w[4 + (uint32_t)i * 4]; }

static Val text_of(const X *x, int32_t i) {
  return SL(x->text + start_of(x, i), end_of(x, i) - start_of(x, i));
}

static uint32_t row_of(const X *x, uint32_t at) {
  uint32_t lo = 0, hi = x->nlines - 1;
  while (lo < hi) {
    uint32_t mid = (lo + hi + 1) >> 1;
    if (x->lines[mid] <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

static int32_t line_of(const X *x, int32_t i) { return (int32_t)row_of(x, start_of(x, i)) + 1; }
static int32_t end_line_of(const X *x, int32_t i) { return (int32_t)row_of(x, end_of(x, i)) + 1; }
static int32_t col_of(const X *x, int32_t i) {
  uint32_t at = start_of(x, i);
  return (int32_t)(at - x->lines[row_of(x, at)]) + 1;
}

static int32_t child_field(const X *x, int32_t i, int field) {
  for (int32_t c = x->first[i]; c >= 0; c = x->next[c])
    if (field_at(x, c) == field) return c;
  return NONE;
}

/* The k-th named child (0-based), or NONE. */
static int32_t named_child(const X *x, int32_t i, int k) {
  for (int32_t c = x->first[i]; c >= 0; c = x->next[c])
    if (named_at(x, c) && k-- == 0) return c;
  return NONE;
}

static int named_count(const X *x, int32_t i) {
  int n = 0;
  for (int32_t c = x->first[i]; c >= 0; c = x->next[c]) n += named_at(x, c);
  return n;
}

static int has_child_type(const X *x, int32_t i, int type) {
  for (int32_t c = x->first[i]; c >= 0; c = x->next[c])
    if (type_of(x, c) == type) return 1;
  return 0;
}

static int32_t prev_named(const X *x, int32_t i) {
  for (int32_t c = x->prev[i]; c >= 0; c = x->prev[c])
    if (named_at(x, c)) return c;
  return NONE;
}

#define FOR_NAMED(x, c, i) for (int32_t c = (x)->first[i]; c >= 0; c = (x)->next[c]) if (named_at((x), c))
#define FOR_FIELD(x, c, i, f) for (int32_t c = (x)->first[i]; c >= 0; c = (x)->next[c]) if (field_at((x), c) == (f))

static int text_is(const X *x, int32_t i, const char *s) {
  uint32_t n = end_of(x, i) - start_of(x, i);
  return strlen(s) == n && memcmp(x->text + start_of(x, i), s, n) == 0;
}

static int val_is(Val v, const char *s) {
  return v.tag == V_STR && strlen(s) == v.len && memcmp(v.u.s, s, v.len) == 0;
}

/* A string made of parts, in the arena. */
static Val cat(X *x, int n, ...) {
  va_list ap;
  size_t len = 0;
  va_start(ap, n);
  for (int k = 0; k < n; k++) len += va_arg(ap, Val).len;
  va_end(ap);
  char *s = alloc(x, len + 1);
  size_t at = 0;
  va_start(ap, n);
  for (int k = 0; k < n; k++) {
    Val p = va_arg(ap, Val);
    memcpy(s + at, p.u.s, p.len);
    at += p.len;
  }
  va_end(ap);
  return SL(s, (uint32_t)len);
}

static Val num(X *x, int32_t n) {
  char *s = alloc(x, 16);
  int len = snprintf(s, 16, "%d", n);
  return SL(s, (uint32_t)len);
}

/* ---------- fingerprints (fingerprint.ts) ---------- */

enum { CL_SPACE = 1, CL_LETTER = 2, CL_DIGIT = 4 };
static uint8_t CLASS[256];

static void init_classes(void) {
  for (int c = 0; c < 256; c++) {
    if (c == 32 || (c >= 9 && c <= 13)) CLASS[c] = CL_SPACE;
    else if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c == 95 || c >= 0x80) CLASS[c] = CL_LETTER;
    else if (c >= 48 && c <= 57) CLASS[c] = CL_DIGIT;
  }
}

static int64_t find_byte(const uint8_t *s, int64_t i, int64_t end, int a, int b) {
  for (; i < end; i++)
    if (s[i] == a && (b < 0 || (i + 1 < end && s[i + 1] == b))) return i;
  return -1;
}

static int64_t quoted_end(const uint8_t *s, int64_t i, int64_t end, int quote) {
  for (int64_t j = i + 1; j < end;) {
    int c = s[j];
    if (c == quote) return j + 1;
    if (c == 10) return -1;
    if (c == 92) {
      if (j + 1 >= end) return -1;
      int e = s[j + 1];
      if (e == 10 || e == 13) return -1;
      if (e == 0xe2 && j + 3 < end && s[j + 2] == 0x80 && (s[j + 3] == 0xa8 || s[j + 3] == 0xa9)) return -1;
      j += 2;
    } else j++;
  }
  return -1;
}

static int64_t token_end(const uint8_t *s, int64_t i, int64_t end) {
  int c = s[i];
  int d = i + 1 < end ? s[i + 1] : -1;
  int e = i + 2 < end ? s[i + 2] : -1;
  switch (c) {
    case '/':
      if (d == '/') {
        int64_t nl = find_byte(s, i + 2, end, 10, -1);
        return nl < 0 ? end : nl;
      }
      if (d == '*') {
        int64_t close = find_byte(s, i + 2, end, '*', '/');
        if (close >= 0) return close + 2;
      }
      return d == '=' ? i + 2 : i + 1;
    case '`': {
      int64_t close = find_byte(s, i + 1, end, '`', -1);
      return close < 0 ? i + 1 : close + 1;
    }
    case '"':
    case '\'': {
      int64_t close = quoted_end(s, i, end, c);
      return close < 0 ? i + 1 : close;
    }
    case '.':
      return d == '.' && e == '.' ? i + 3 : i + 1;
    case '<':
      if (d == '-' || d == '=') return i + 2;
      if (d == '<') return e == '=' ? i + 3 : i + 2;
      return i + 1;
    case '>':
      if (d == '=') return i + 2;
      if (d == '>') return e == '=' ? i + 3 : i + 2;
      return i + 1;
    case '&':
      if (d == '&' || d == '=') return i + 2;
      if (d == '^') return e == '=' ? i + 3 : i + 2;
      return i + 1;
    case '|':
      return d == '|' || d == '=' ? i + 2 : i + 1;
    case '+':
      return d == '=' || d == '+' ? i + 2 : i + 1;
    case '-':
      return d == '=' || d == '-' ? i + 2 : i + 1;
    case ':':
    case '=':
    case '!':
    case '%':
    case '^':
    case '*':
      return d == '=' ? i + 2 : i + 1;
  }
  int k = CLASS[c];
  if (k == CL_LETTER) {
    int64_t j = i + 1;
    while (j < end && (CLASS[s[j]] & (CL_LETTER | CL_DIGIT))) j++;
    return j;
  }
  if (k == CL_DIGIT) {
    int64_t j = i + 1;
    for (; j < end; j++) {
      int b = s[j];
      if (!(b < 0x80 && (CLASS[b] & (CL_LETTER | CL_DIGIT))) && b != '.') break;
    }
    return j;
  }
  return i + 1;
}

/* SHA-1 (FIPS 180-4), for the fingerprints' hex. */
typedef struct {
  uint32_t h[5];
  uint64_t len;
  uint8_t buf[64];
  uint32_t fill;
} Sha1;

#define ROL(v, n) (((v) << (n)) | ((v) >> (32 - (n))))

static void sha1_block(Sha1 *c, const uint8_t *p) {
  uint32_t w[80];
  for (int t = 0; t < 16; t++) w[t] = (uint32_t)p[4 * t] << 24 | (uint32_t)p[4 * t + 1] << 16 | (uint32_t)p[4 * t + 2] << 8 | p[4 * t + 3];
  for (int t = 16; t < 80; t++) w[t] = ROL(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1);
  uint32_t a = c->h[0], b = c->h[1], cc = c->h[2], d = c->h[3], e = c->h[4];
  for (int t = 0; t < 80; t++) {
    uint32_t f, k;
    if (t < 20) f = (b & cc) | (~b & d), k = 0x5a827999;
    else if (t < 40) f = b ^ cc ^ d, k = 0x6ed9eba1;
    else if (t < 60) f = (b & cc) | (b & d) | (cc & d), k = 0x8f1bbcdc;
    else f = b ^ cc ^ d, k = 0xca62c1d6;
    uint32_t tmp = ROL(a, 5) + f + e + k + w[t];
    e = d;
    d = cc;
    cc = ROL(b, 30);
    b = a;
    a = tmp;
  }
  c->h[0] += a;
  c->h[1] += b;
  c->h[2] += cc;
  c->h[3] += d;
  c->h[4] += e;
}

static void sha1_init(Sha1 *c) {
  c->h[0] = 0x67452301;
  c->h[1] = 0xefcdab89;
  c->h[2] = 0x98badcfe;
  c->h[3] = 0x10325476;
  c->h[4] = 0xc3d2e1f0;
  c->len = 0;
  c->fill = 0;
}

static void sha1_update(Sha1 *c, const uint8_t *p, size_t n) {
  c->len += n;
  while (n) {
    if (c->fill == 0 && n >= 64) {
      sha1_block(c, p);
      p += 64;
      n -= 64;
      continue;
    }
    size_t take = 64 - c->fill < n ? 64 - c->fill : n;
    memcpy(c->buf + c->fill, p, take);
    c->fill += (uint32_t)take;
    p += take;
    n -= take;
    if (c->fill == 64) {
      sha1_block(c, c->buf);
      c->fill = 0;
    }
  }
}

static void sha1_final(Sha1 *c, uint8_t out[20]) {
  uint64_t bits = c->len * 8;
  uint8_t pad = 0x80;
  sha1_update(c, &pad, 1);
  uint8_t zero = 0;
  while (c->fill != 56) sha1_update(c, &zero, 1);
  uint8_t lenb[8];
  for (int k = 0; k < 8; k++) lenb[k] = (uint8_t)(bits >> (56 - 8 * k));
  sha1_update(c, lenb, 8);
  for (int k = 0; k < 5; k++) {
    out[4 * k] = (uint8_t)(c->h[k] >> 24);
    out[4 * k + 1] = (uint8_t)(c->h[k] >> 16);
    out[4 * k + 2] = (uint8_t)(c->h[k] >> 8);
    out[4 * k + 3] = (uint8_t)c->h[k];
  }
}

/* fingerprintBytes: the tokens from `start` to `end`, comments left out, joined by spaces, SHA-1'd; the hex's first 16. */
static Val fingerprint(X *x, uint32_t start, uint32_t end) {
  const uint8_t *s = (const uint8_t *)x->text;
  Sha1 c;
  sha1_init(&c);
  int any = 0;
  for (int64_t i = start; i < end;) {
    if (CLASS[s[i]] == CL_SPACE) {
      i++;
      continue;
    }
    int64_t to = token_end(s, i, end);
    int comment = to - i > 1 && s[i] == '/' && (s[i + 1] == '/' || s[i + 1] == '*');
    if (!comment) {
      if (any) sha1_update(&c, (const uint8_t *)" ", 1);
      sha1_update(&c, s + i, (size_t)(to - i));
      any = 1;
    }
    i = to;
  }
  uint8_t dig[20];
  sha1_final(&c, dig);
  char *hex = alloc(x, 17);
  static const char H[] = "0123456789abcdef";
  for (int k = 0; k < 8; k++) {
    hex[2 * k] = H[dig[k] >> 4];
    hex[2 * k + 1] = H[dig[k] & 15];
  }
  return SL(hex, 16);
}

/* ---------- types (types.ts) ---------- */

static Obj *type_of_node(X *x, int32_t n);

static Obj *type_arg(X *x, int32_t n) {
  if (type_of(x, n) == T_type_elem && named_count(x, n) == 1) return type_of_node(x, named_child(x, n, 0));
  return type_of_node(x, n);
}


static int is_named_type(const Obj *t) {
  return t->shape == &SH_T_NAMED || t->shape == &SH_T_QUAL || t->shape == &SH_T_NAMED_ARGS || t->shape == &SH_T_QUAL_ARGS;
}

/* A named type's `n`. */
static Val named_n(const Obj *t) {
  return t->shape == &SH_T_QUAL || t->shape == &SH_T_QUAL_ARGS ? AT(t, 2) : AT(t, 1);
}

static Obj *elem_type(X *x, const char *k, Obj *e) {
  return REC(x, T_ELEM, SC(k), O(e));
}

/* paramList's params (and whether one is variadic). */
static Obj *param_list(X *x, int32_t pl, int *variadic) {
  Obj *params = list(x);
  if (variadic) *variadic = 0;
  if (pl == NONE) return params;
  FOR_NAMED(x, decl, pl) {
    int ty = type_of(x, decl);
    if (ty == T_parameter_declaration) {
      Obj *t = type_of_node(x, child_field(x, decl, F_type));
      int names = 0;
      FOR_FIELD(x, n, decl, F_name) names++;
      if (names == 0) add(x, params, O(REC(x, PARAM_T, O(t))));
      FOR_FIELD(x, n, decl, F_name) add(x, params, O(REC(x, PARAM_NT, text_of(x, n), O(t))));
    } else if (ty == T_variadic_parameter_declaration) {
      if (variadic) *variadic = 1;
      Obj *t = elem_type(x, "slice", type_of_node(x, child_field(x, decl, F_type)));
      int32_t name = child_field(x, decl, F_name);
      add(x, params, O(REC(x, PARAM_VAR, name == NONE ? UNDEF : text_of(x, name), O(t), B(1))));
    }
  }
  return params;
}

static Obj *result_list(X *x, int32_t n) {
  if (n == NONE) return list(x);
  if (type_of(x, n) == T_parameter_list) return param_list(x, n, NULL);
  Obj *out = list(x);
  add(x, out, O(REC(x, PARAM_T, O(type_of_node(x, n)))));
  return out;
}

static Obj *interface_type(X *x, int32_t n) {
  Obj *methods = list(x), *embeds = list(x);
  FOR_NAMED(x, el, n) {
    int ty = type_of(x, el);
    if (ty == T_method_elem) {
      int32_t name = child_field(x, el, F_name);
      Obj *params = param_list(x, child_field(x, el, F_parameters), NULL);
      Obj *results = result_list(x, child_field(x, el, F_result));
      add(x, methods, O(REC(x, METHOD_SIG, name == NONE ? SC("") : text_of(x, name), O(params), O(results))));
    } else if (ty == T_type_elem) {
      if (named_count(x, el) == 1) add(x, embeds, O(type_of_node(x, named_child(x, el, 0))));
    }
  }
  return REC(x, T_IFACE, SC("iface"), O(methods), O(embeds));
}

static Obj *struct_fields(X *x, int32_t n) {
  Obj *fields = list(x);
  int32_t fl = NONE;
  FOR_NAMED(x, c, n) if (type_of(x, c) == T_field_declaration_list) {
    fl = c;
    break;
  }
  if (fl == NONE) return fields;
  FOR_NAMED(x, decl, fl) {
    if (type_of(x, decl) != T_field_declaration) continue;
    int32_t line = line_of(x, decl);
    int32_t tn = child_field(x, decl, F_type);
    int names = 0;
    FOR_FIELD(x, nm, decl, F_name) names++;
    if (names == 0) {
      Obj *t = type_of_node(x, tn);
      if (has_child_type(x, decl, T_STAR)) t = elem_type(x, "ptr", t);
      const Obj *base = t->shape == &SH_T_ELEM && val_is(AT(t, 0), "ptr") ? AT(t, 1).u.o : t;
      Val name = is_named_type(base) ? named_n(base) : SC("");
      add(x, fields, O(REC(x, FIELD, name, O(t), B(1), I(line))));
    } else {
      Obj *t = type_of_node(x, tn);
      FOR_FIELD(x, nm, decl, F_name) add(x, fields, O(REC(x, FIELD, text_of(x, nm), O(t), B(0), I(line))));
    }
  }
  return fields;
}

static Obj *type_of_node_at(X *x, int32_t n) {
  if (n == NONE) return x->unknown;
  switch (type_of(x, n)) {
    case T_type_identifier:
    case T_identifier:
      return REC(x, T_NAMED, SC("named"), text_of(x, n));
    case T_qualified_type: {
      int32_t pkg = child_field(x, n, F_package), name = child_field(x, n, F_name);
      return REC(x, T_QUAL, SC("named"), pkg == NONE ? UNDEF : text_of(x, pkg), name == NONE ? SC("") : text_of(x, name));
    }
    case T_generic_type: {
      Obj *base = type_of_node(x, child_field(x, n, F_type));
      int32_t args = child_field(x, n, F_type_arguments);
      if (!is_named_type(base)) return base;
      Val a = UNDEF;
      if (args != NONE) {
        Obj *l = list(x);
        FOR_NAMED(x, c, args) add(x, l, O(type_arg(x, c)));
        a = O(l);
      }
      if (base->shape == &SH_T_NAMED || base->shape == &SH_T_NAMED_ARGS) return REC(x, T_NAMED_ARGS, AT(base, 0), AT(base, 1), a);
      return REC(x, T_QUAL_ARGS, AT(base, 0), AT(base, 1), AT(base, 2), a);
    }
    case T_pointer_type:
      return elem_type(x, "ptr", type_of_node(x, named_child(x, n, 0)));
    case T_slice_type:
      return elem_type(x, "slice", type_of_node(x, child_field(x, n, F_element)));
    case T_array_type:
    case T_implicit_length_array_type:
      return elem_type(x, "array", type_of_node(x, child_field(x, n, F_element)));
    case T_map_type: {
      Obj *key = type_of_node(x, child_field(x, n, F_key));
      Obj *e = type_of_node(x, child_field(x, n, F_value));
      return REC(x, T_MAP, SC("map"), O(key), O(e));
    }
    case T_channel_type: {
      const char *s = x->text + start_of(x, n);
      uint32_t len = end_of(x, n) - start_of(x, n);
      const char *dir = "both";
      if (len >= 2 && s[0] == '<' && s[1] == '-') dir = "recv";
      else if (len >= 4 && memcmp(s, "chan", 4) == 0) {
        uint32_t k = 4;
        while (k < len && (s[k] == ' ' || (s[k] >= 9 && s[k] <= 13))) k++;
        if (k + 1 < len && s[k] == '<' && s[k + 1] == '-') dir = "send";
      }
      return REC(x, T_CHAN, SC("chan"), O(type_of_node(x, child_field(x, n, F_value))), SC(dir));
    }
    case T_function_type: {
      int variadic = 0;
      Obj *params = param_list(x, child_field(x, n, F_parameters), &variadic);
      Obj *results = result_list(x, child_field(x, n, F_result));
      return REC(x, T_FUNC, SC("func"), O(params), O(results), B(variadic));
    }
    case T_interface_type:
      return interface_type(x, n);
    case T_struct_type:
      return REC(x, T_STRUCT, SC("struct"), O(struct_fields(x, n)));
    case T_parenthesized_type:
    case T_negated_type:
      return type_of_node(x, named_child(x, n, 0));
    case T_type_elem:
      return named_count(x, n) == 1 ? type_of_node(x, named_child(x, n, 0)) : x->unknown;
    default:
      return x->unknown;
  }
}

static Obj *type_of_node(X *x, int32_t n) {
  deeper(x);
  Obj *t = type_of_node_at(x, n);
  x->depth--;
  return t;
}

/* typeParamNames: a list of the names, or NULL (undefined). */
static Obj *type_param_names(X *x, int32_t l) {
  if (l == NONE) return NULL;
  Obj *names = list(x);
  FOR_NAMED(x, decl, l) FOR_FIELD(x, n, decl, F_name) add(x, names, text_of(x, n));
  return names->n ? names : NULL;
}

/* ---------- function bodies (body.ts) ---------- */

enum { K_FUNC, K_METHOD, K_CLOSURE, K_INIT };

struct Fn {
  Obj *rec;
  int32_t index; /* in the file's funcs; -1 for a throwaway record */
  int kind;
  Val local;
  Obj *binds, *calls, *refs, *assigns, *returns, *chans, *selects, *closures;
};

typedef struct {
  X *x;
  Fn *fn;
  uint32_t *scopes;
  uint32_t nscopes, capscopes;
  int32_t closure_count, select_count;
  int in_select;
  int32_t select_index, case_index;
  const char *mode; /* NULL: undefined */
} Ctx;

static void push_scope(Ctx *c, uint32_t end) {
  c->scopes = grow(c->x, c->scopes, c->nscopes, &c->capscopes, sizeof(uint32_t));
  c->scopes[c->nscopes++] = end;
}

static uint32_t scope_end(const Ctx *c) {
  return c->scopes[c->nscopes - 1];
}

static void ctx_init(Ctx *c, X *x, Fn *fn, uint32_t end, int32_t closures) {
  memset(c, 0, sizeof *c);
  c->x = x;
  c->fn = fn;
  push_scope(c, end);
  c->closure_count = closures;
}

static Obj *expr(Ctx *c, int32_t n, int value);
static void stmt(Ctx *c, int32_t n);

typedef struct {
  Val local, name, doc;
  int kind;
  int32_t parent;
  Obj *recv, *tparams;
} FnBase;

/* A function's record-to-be: its kind, its local name and its empty body lists. */
static Fn *new_fn(X *x, int kind, Val local) {
  Fn *f = alloc(x, sizeof(Fn));
  f->rec = NULL;
  f->index = -1;
  f->kind = kind;
  f->local = local;
  f->binds = list(x);
  f->calls = list(x);
  f->refs = list(x);
  f->assigns = list(x);
  f->returns = list(x);
  f->chans = list(x);
  f->selects = list(x);
  f->closures = list(x);
  return f;
}

static Fn *fn_record(X *x, const FnBase *b, Obj *params, Obj *results, Val variadic, int32_t line, int32_t end_line, int32_t col, Val fp, uint32_t start, uint32_t end) {
  Fn *f = new_fn(x, b->kind, b->local);
  Val kind = SC(b->kind == K_METHOD ? "method" : b->kind == K_CLOSURE ? "closure" : "func");
#define BODY O(params), O(results), variadic, I(line), I(end_line), I(col), fp, O(f->binds), O(f->calls), O(f->refs), O(f->assigns), O(f->returns), O(f->chans), O(f->selects), O(f->closures), I((int32_t)start), I((int32_t)end)
  switch (b->kind) {
    case K_CLOSURE:
      f->rec = REC(x, FN_CLOSURE, b->local, kind, b->name, I(b->parent), BODY);
      break;
    case K_METHOD:
      f->rec = REC(x, FN_METHOD, b->local, kind, b->name, O(b->recv), b->doc, BODY);
      break;
    default:
      f->rec = REC(x, FN_FUNC, b->local, kind, b->name, O(b->tparams), b->doc, BODY);
  }
#undef BODY
  return f;
}

static void fns_push(X *x, Fn *f) {
  Fns *fs = &x->fns;
  fs->v = grow(x, fs->v, fs->n, &fs->cap, sizeof(Fn *));
  f->index = (int32_t)fs->n;
  fs->v[fs->n++] = f;
  add(x, x->funcs, O(f->rec));
}

/* A function's bind for each of its named parameters (or results) but `_`, as `from`. */
static void bind_params(X *x, Fn *fn, const Obj *params, const char *from, int32_t pos, uint32_t end) {
  for (uint32_t k = 0; k < params->n; k++) {
    const Obj *p = params->v[k].u.o;
    if (p->shape == &SH_PARAM_T) continue;
    Val name = AT(p, 0);
    if (name.tag != V_STR || name.len == 0 || val_is(name, "_")) continue;
    add(x, fn->binds, O(REC(x, BIND_T, name, SC(from), AT(p, 1), I(pos), I((int32_t)end))));
  }
}

static int32_t walk_function(X *x, int32_t node, const FnBase *b) {
  int variadic = 0;
  Obj *params = param_list(x, child_field(x, node, F_parameters), &variadic);
  Obj *results = result_list(x, child_field(x, node, F_result));
  int32_t body = child_field(x, node, F_body);
  uint32_t start = body != NONE ? start_of(x, body) : start_of(x, node);
  uint32_t bend = body != NONE ? end_of(x, body) : end_of(x, node);
  Fn *fn = fn_record(x, b, params, results, variadic ? B(1) : UNDEF, line_of(x, node), end_line_of(x, node), col_of(x, node), fingerprint(x, start_of(x, node), end_of(x, node)), start, bend);
  fns_push(x, fn);
  uint32_t end = end_of(x, node);
  int32_t pos = (int32_t)start;
  bind_params(x, fn, params, "param", pos, end);
  bind_params(x, fn, results, "result", pos, end);
  if (b->recv) {
    Val rname = AT(b->recv, 0);
    if (rname.tag == V_STR && rname.len > 0) {
      Obj *rt = REC(x, T_NAMED, SC("named"), AT(b->recv, 1));
      Obj *t = AT(b->recv, 2).tag == V_TRUE ? elem_type(x, "ptr", rt) : rt;
      add(x, fn->binds, O(REC(x, BIND_T, rname, SC("recv"), O(t), I(pos), I((int32_t)end))));
    }
  }
  if (body != NONE) {
    Ctx c;
    ctx_init(&c, x, fn, end, 0);
    stmt(&c, body);
  }
  return fn->index;
}

static int scoped(int t) {
  switch (t) {
    case T_block:
    case T_if_statement:
    case T_for_statement:
    case T_expression_switch_statement:
    case T_type_switch_statement:
    case T_select_statement:
    case T_communication_case:
    case T_expression_case:
    case T_type_case:
    case T_default_case:
      return 1;
  }
  return 0;
}

/* A list of the texts of node n's children with field f (or of its named children when f < 0). */
typedef struct {
  Val *v;
  uint32_t n;
} Texts;

static Texts names_of(X *x, int32_t n, int f) {
  Texts t = {NULL, 0};
  if (n == NONE) return t;
  uint32_t cap = 0;
  for (int32_t ch = x->first[n]; ch >= 0; ch = x->next[ch]) {
    if (f >= 0 ? field_at(x, ch) != f : !named_at(x, ch)) continue;
    t.v = grow(x, t.v, t.n, &cap, sizeof(Val));
    t.v[t.n++] = text_of(x, ch);
  }
  return t;
}

/* Values: a C array of expression records. */
typedef struct {
  Obj **v;
  uint32_t n;
} Exprs;

static Exprs exprs_of(Ctx *c, int32_t n, int value) {
  Exprs e = {NULL, 0};
  if (n == NONE) return e;
  uint32_t cap = 0;
  FOR_NAMED(c->x, ch, n) {
    Obj *r = expr(c, ch, value);
    e.v = grow(c->x, e.v, e.n, &cap, sizeof(Obj *));
    e.v[e.n++] = r;
  }
  return e;
}

static void bind_names(Ctx *c, Texts names, Exprs values, const char *from, Obj *t, uint32_t pos) {
  X *x = c->x;
  uint32_t end = scope_end(c);
  for (uint32_t i = 0; i < names.n; i++) {
    if (val_is(names.v[i], "_")) continue;
    if (values.n == names.n) add(x, c->fn->binds, O(REC(x, BIND_TV, names.v[i], SC(from), O(t), O(values.v[i]), I((int32_t)pos), I((int32_t)end))));
    else if (values.n == 1) add(x, c->fn->binds, O(REC(x, BIND_TVVI, names.v[i], SC(from), O(t), O(values.v[0]), I((int32_t)i), I((int32_t)names.n), I((int32_t)pos), I((int32_t)end))));
    else add(x, c->fn->binds, O(REC(x, BIND_T, names.v[i], SC(from), O(t), I((int32_t)pos), I((int32_t)end))));
  }
}

static void add_chan(Ctx *c, const char *op, Obj *ch, int32_t line, uint32_t pos, int sel) {
  X *x = c->x;
  if (sel && c->in_select) add(x, c->fn->chans, O(REC(x, CHAN_SEL, SC(op), O(ch), I(line), I((int32_t)pos), I(c->select_index), I(c->case_index))));
  else add(x, c->fn->chans, O(REC(x, CHAN, SC(op), O(ch), I(line), I((int32_t)pos))));
}

static void specs_of(X *x, int32_t n, int32_t **out, uint32_t *count, uint32_t *cap) {
  FOR_NAMED(x, ch, n) {
    int t = type_of(x, ch);
    if (t == T_var_spec || t == T_const_spec) {
      *out = grow(x, *out, *count, cap, sizeof(int32_t));
      (*out)[(*count)++] = ch;
    } else if (t == T_var_spec_list || t == T_const_spec_list) specs_of(x, ch, out, count, cap);
  }
}

static void stmt_inner(Ctx *c, int32_t n);

static void stmt(Ctx *c, int32_t n) {
  deeper(c->x);
  int s = scoped(type_of(c->x, n));
  if (s) push_scope(c, end_of(c->x, n));
  stmt_inner(c, n);
  if (s) c->nscopes--;
  c->x->depth--;
}

static void stmt_inner(Ctx *c, int32_t n) {
  X *x = c->x;
  Fn *fn = c->fn;
  switch (type_of(x, n)) {
    case T_short_var_declaration: {
      Texts left = names_of(x, child_field(x, n, F_left), -1);
      Exprs values = exprs_of(c, child_field(x, n, F_right), 1);
      bind_names(c, left, values, "define", NULL, end_of(x, n));
      return;
    }
    case T_var_declaration:
    case T_const_declaration: {
      int32_t *specs = NULL;
      uint32_t count = 0, cap = 0;
      specs_of(x, n, &specs, &count, &cap);
      for (uint32_t k = 0; k < count; k++) {
        int32_t spec = specs[k];
        Texts names = names_of(x, spec, F_name);
        int32_t t = child_field(x, spec, F_type);
        Exprs values = exprs_of(c, child_field(x, spec, F_value), 1);
        bind_names(c, names, values, "var", t != NONE ? type_of_node(x, t) : NULL, end_of(x, spec));
      }
      return;
    }
    case T_assignment_statement: {
      Exprs lhs = exprs_of(c, child_field(x, n, F_left), 0);
      Exprs rhs = exprs_of(c, child_field(x, n, F_right), 1);
      int32_t op = child_field(x, n, F_operator);
      if (op == NONE || text_is(x, op, "=")) {
        int32_t line = line_of(x, n);
        int32_t pos = (int32_t)start_of(x, n);
        if (rhs.n == lhs.n) {
          for (uint32_t i = 0; i < lhs.n; i++) add(x, fn->assigns, O(REC(x, ASSIGN, O(lhs.v[i]), O(rhs.v[i]), I(line), I(pos))));
        } else if (rhs.n == 1) {
          for (uint32_t i = 0; i < lhs.n; i++) add(x, fn->assigns, O(REC(x, ASSIGN_VI, O(lhs.v[i]), O(rhs.v[0]), I((int32_t)i), I(line), I(pos))));
        }
      }
      return;
    }
    case T_go_statement:
    case T_defer_statement: {
      int32_t call = named_child(x, n, 0);
      if (call != NONE) {
        const char *saved = c->mode;
        c->mode = type_of(x, n) == T_go_statement ? "go" : "defer";
        expr(c, call, 0);
        c->mode = saved;
      }
      return;
    }
    case T_send_statement: {
      Obj *ch = expr(c, child_field(x, n, F_channel), 0);
      expr(c, child_field(x, n, F_value), 1);
      add_chan(c, "send", ch, line_of(x, n), start_of(x, n), 1);
      return;
    }
    case T_receive_statement: {
      Obj *value = expr(c, child_field(x, n, F_right), 0);
      if (has_child_type(x, n, T_DEFINE)) {
        Texts left = names_of(x, child_field(x, n, F_left), -1);
        Exprs one = {&value, 1};
        bind_names(c, left, one, "select", NULL, end_of(x, n));
      }
      return;
    }
    case T_select_statement: {
      int32_t index = c->select_count++;
      int32_t cases = 0;
      FOR_NAMED(x, ch, n) {
        int t = type_of(x, ch);
        if (t == T_communication_case || t == T_default_case) cases++;
      }
      add(x, fn->selects, O(REC(x, SELECT, I(line_of(x, n)), I(cases))));
      int32_t case_index = 0;
      FOR_NAMED(x, cs, n) {
        int t = type_of(x, cs);
        if (t != T_communication_case && t != T_default_case) continue;
        int saved_in = c->in_select;
        int32_t saved_index = c->select_index, saved_case = c->case_index;
        push_scope(c, end_of(x, cs));
        int32_t comm = child_field(x, cs, F_communication);
        if (comm != NONE) {
          c->in_select = 1;
          c->select_index = index;
          c->case_index = case_index;
          stmt(c, comm);
          c->in_select = saved_in;
          c->select_index = saved_index;
          c->case_index = saved_case;
        }
        FOR_NAMED(x, ch, cs) if (field_at(x, ch) != F_communication) stmt(c, ch);
        c->nscopes--;
        case_index++;
      }
      return;
    }
    case T_for_statement: {
      int32_t range = NONE;
      FOR_NAMED(x, ch, n) if (type_of(x, ch) == T_range_clause) {
        range = ch;
        break;
      }
      if (range != NONE) {
        Obj *right = expr(c, child_field(x, range, F_right), 0);
        if (has_child_type(x, range, T_DEFINE)) {
          int32_t left = child_field(x, range, F_left);
          int32_t i = 0;
          if (left != NONE) FOR_NAMED(x, l, left) {
            if (!text_is(x, l, "_")) add(x, fn->binds, O(REC(x, BIND_RANGE, text_of(x, l), SC("range"), O(right), I(i), I((int32_t)end_of(x, range)), I((int32_t)scope_end(c)))));
            i++;
          }
        }
        add_chan(c, "range", right, line_of(x, n), start_of(x, n), 0);
      }
      FOR_NAMED(x, ch, n) if (type_of(x, ch) != T_range_clause) stmt(c, ch);
      return;
    }
    case T_type_switch_statement: {
      int32_t init = child_field(x, n, F_initializer);
      if (init != NONE) stmt(c, init);
      Obj *value = expr(c, child_field(x, n, F_value), 0);
      int32_t alias_list = child_field(x, n, F_alias);
      int32_t alias = alias_list == NONE ? NONE : named_child(x, alias_list, 0);
      FOR_NAMED(x, cs, n) {
        int t = type_of(x, cs);
        if (t != T_type_case && t != T_default_case) continue;
        push_scope(c, end_of(x, cs));
        if (alias != NONE && end_of(x, alias) > start_of(x, alias) && !text_is(x, alias, "_")) {
          Obj *ty = NULL;
          if (t == T_type_case) {
            int32_t only = NONE;
            int k = 0;
            FOR_FIELD(x, tn, cs, F_type) {
              only = tn;
              k++;
            }
            if (k == 1) ty = type_of_node(x, only);
          }
          add(x, fn->binds, O(REC(x, BIND_TV, text_of(x, alias), SC("typeswitch"), O(ty), ty ? UNDEF : O(value), I((int32_t)start_of(x, cs)), I((int32_t)end_of(x, cs)))));
        }
        FOR_NAMED(x, s, cs) if (type_of(x, s) == T_statement_list) stmt(c, s);
        c->nscopes--;
      }
      return;
    }
    case T_return_statement: {
      int32_t first = named_child(x, n, 0);
      Obj *vals = list(x);
      if (first != NONE) {
        if (type_of(x, first) == T_expression_list) {
          FOR_NAMED(x, v, first) add(x, vals, O(expr(c, v, 1)));
        } else add(x, vals, O(expr(c, first, 1)));
      }
      add(x, fn->returns, O(REC(x, RETURN, O(vals), I(line_of(x, n)), I((int32_t)start_of(x, n)))));
      return;
    }
    case T_expression_statement:
    case T_inc_statement:
    case T_dec_statement:
      expr(c, named_child(x, n, 0), 0);
      return;
    case T_labeled_statement:
      FOR_NAMED(x, ch, n) if (type_of(x, ch) != T_label_name) stmt(c, ch);
      return;
    case T_func_literal:
    case T_call_expression:
    case T_unary_expression:
    case T_selector_expression:
    case T_identifier:
    case T_binary_expression:
    case T_parenthesized_expression:
    case T_index_expression:
    case T_composite_literal:
    case T_type_assertion_expression:
      expr(c, n, 0);
      return;
    case T_comment:
      return;
    default:
      FOR_NAMED(x, ch, n) stmt(c, ch);
  }
}

static Obj *other(X *x) {
  return REC(x, E_OTHER, SC("other"));
}

static int type_node(int t) {
  switch (t) {
    case T_slice_type:
    case T_array_type:
    case T_map_type:
    case T_channel_type:
    case T_pointer_type:
    case T_function_type:
    case T_interface_type:
    case T_struct_type:
    case T_qualified_type:
    case T_generic_type:
    case T_type_identifier:
    case T_implicit_length_array_type:
      return 1;
  }
  return 0;
}

static Obj *call_expr(Ctx *c, int32_t n);
static Obj *closure_expr(Ctx *c, int32_t n);
static Obj *literal_elems(Ctx *c, int32_t body);

static void add_ref(Ctx *c, Obj *e, int32_t line, uint32_t pos) {
  add(c->x, c->fn->refs, O(REC(c->x, REF, O(e), I(line), I((int32_t)pos))));
}

static Obj *expr_at(Ctx *c, int32_t n, int value) {
  X *x = c->x;
  if (n == NONE) return other(x);
  int32_t line = line_of(x, n);
  int t = type_of(x, n);
  switch (t) {
    case T_identifier: {
      Obj *e = REC(x, E_ID, SC("id"), text_of(x, n), I(line));
      if (value) add_ref(c, e, line, start_of(x, n));
      return e;
    }
    case T_selector_expression: {
      Obj *op = expr(c, child_field(x, n, F_operand), 0);
      int32_t f = child_field(x, n, F_field);
      Obj *e = REC(x, E_SEL, SC("sel"), O(op), f == NONE ? SC("") : text_of(x, f), I(line));
      if (value) add_ref(c, e, line, start_of(x, n));
      return e;
    }
    case T_parenthesized_expression:
      return expr(c, named_child(x, n, 0), value);
    case T_call_expression:
      return call_expr(c, n);
    case T_func_literal:
      return closure_expr(c, n);
    case T_unary_expression: {
      int32_t opn = child_field(x, n, F_operator);
      Val op = opn == NONE ? SC("") : text_of(x, opn);
      Obj *e = expr(c, child_field(x, n, F_operand), val_is(op, "&") ? 0 : value);
      if (val_is(op, "<-")) add_chan(c, "recv", e, line, start_of(x, n), 1);
      return REC(x, E_UN, SC("un"), op, O(e));
    }
    case T_binary_expression: {
      Obj *l = expr(c, child_field(x, n, F_left), 0);
      Obj *r = expr(c, child_field(x, n, F_right), 0);
      int32_t opn = child_field(x, n, F_operator);
      return REC(x, E_BIN, SC("bin"), opn == NONE ? SC("") : text_of(x, opn), O(l), O(r));
    }
    case T_composite_literal: {
      Obj *ty = type_of_node(x, child_field(x, n, F_type));
      Obj *elems = literal_elems(c, child_field(x, n, F_body));
      return REC(x, E_COMP, SC("comp"), O(ty), O(elems), I(line));
    }
    case T_type_assertion_expression: {
      Obj *e = expr(c, child_field(x, n, F_operand), 0);
      int32_t tn = child_field(x, n, F_type);
      return REC(x, E_ASSERT, SC("assert"), O(e), tn != NONE ? O(type_of_node(x, tn)) : UNDEF);
    }
    case T_type_conversion_expression: {
      Obj *ty = type_of_node(x, child_field(x, n, F_type));
      Obj *e = expr(c, child_field(x, n, F_operand), value);
      return REC(x, E_CONV, SC("conv"), O(ty), O(e));
    }
    case T_index_expression: {
      Obj *e = expr(c, child_field(x, n, F_operand), 0);
      Obj *idx = list(x);
      FOR_FIELD(x, i, n, F_index) add(x, idx, O(expr(c, i, 0)));
      return REC(x, E_IDX, SC("idx"), O(e), O(idx));
    }
    case T_generic_type:
      return REC(x, E_TYPE, SC("type"), O(type_of_node(x, n)));
    case T_slice_expression:
      return REC(x, E_SLICE, SC("slice"), O(expr(c, child_field(x, n, F_operand), 0)));
    case T_int_literal:
      return REC(x, E_LITV, SC("lit"), SC("int"), text_of(x, n));
    case T_float_literal:
      return REC(x, E_LITV, SC("lit"), SC("float"), text_of(x, n));
    case T_imaginary_literal:
      return x->lit_imag;
    case T_interpreted_string_literal:
    case T_raw_string_literal:
      return x->lit_string;
    case T_rune_literal:
      return x->lit_rune;
    case T_true:
    case T_false:
      return x->lit_bool;
    case T_nil:
      return x->lit_nil;
    default:
      if (type_node(t)) return REC(x, E_TYPE, SC("type"), O(type_of_node(x, n)));
      FOR_NAMED(x, ch, n) expr(c, ch, 0);
      return other(x);
  }
}

static Obj *expr(Ctx *c, int32_t n, int value) {
  deeper(c->x);
  Obj *e = expr_at(c, n, value);
  c->x->depth--;
  return e;
}

static Obj *elem_value(Ctx *c, int32_t el) {
  X *x = c->x;
  int32_t inner = el == NONE ? NONE : named_child(x, el, 0);
  if (inner == NONE) return other(x);
  if (type_of(x, inner) == T_literal_value) {
    Obj *elems = literal_elems(c, inner);
    return REC(x, E_COMP_NT, SC("comp"), O(elems), I(line_of(x, inner)));
  }
  return expr(c, inner, 1);
}

static Obj *literal_elems(Ctx *c, int32_t body) {
  X *x = c->x;
  Obj *out = list(x);
  if (body == NONE) return out;
  deeper(x);
  FOR_NAMED(x, el, body) {
    int t = type_of(x, el);
    if (t == T_keyed_element) {
      int32_t k = named_child(x, el, 0), v = named_child(x, el, 1);
      int32_t key_node = k == NONE ? NONE : named_child(x, k, 0);
      if (key_node == NONE) key_node = k;
      Val key = UNDEF;
      if (key_node != NONE && (type_of(x, key_node) == T_identifier || type_of(x, key_node) == T_field_identifier)) key = text_of(x, key_node);
      if (key.tag == V_UNDEF && key_node != NONE) expr(c, key_node, 0);
      add(x, out, O(REC(x, ELEM_KV, key, O(elem_value(c, v)))));
    } else if (t == T_literal_element) {
      add(x, out, O(REC(x, ELEM_V, O(elem_value(c, el)))));
    }
  }
  x->depth--;
  return out;
}

static Obj *call_expr(Ctx *c, int32_t n) {
  X *x = c->x;
  const char *mode = c->mode ? c->mode : "call";
  c->mode = NULL;
  Obj *f = expr(c, child_field(x, n, F_function), 0);
  int32_t targs_node = child_field(x, n, F_type_arguments);
  Obj *targs = NULL;
  if (targs_node != NONE) {
    targs = list(x);
    FOR_NAMED(x, t, targs_node) add(x, targs, O(type_of_node(x, type_of(x, t) == T_type_elem ? named_child(x, t, 0) : t)));
  }
  int32_t arg_list = child_field(x, n, F_arguments);
  Obj *args = list(x);
  int spread = 0;
  if (arg_list != NONE) FOR_NAMED(x, a, arg_list) {
    int t = type_of(x, a);
    if (t == T_variadic_argument) {
      spread = 1;
      add(x, args, O(expr(c, named_child(x, a, 0), 1)));
    } else if (t != T_comment) {
      add(x, args, O(expr(c, a, 1)));
    }
  }
  int32_t line = line_of(x, n);
  Obj *e = REC(x, E_CALL, SC("call"), O(f), O(args), I(line), O(targs), spread ? B(1) : UNDEF);
  add(x, c->fn->calls, O(REC(x, CALL, O(f), O(args), I(line), I(col_of(x, n)), SC(mode), O(targs), I((int32_t)start_of(x, n)))));
  if (f->shape == &SH_E_ID && val_is(AT(f, 1), "close") && args->n == 1) add_chan(c, "close", args->v[0].u.o, line, start_of(x, n), 0);
  return e;
}

static Obj *closure_expr(Ctx *c, int32_t n) {
  X *x = c->x;
  int32_t k = ++c->closure_count;
  Fn *parent = c->fn;
  Val owner = parent->kind == K_INIT ? SC("glob.") : parent->local;
  Val local = parent->kind == K_CLOSURE ? cat(x, 3, owner, SC("."), num(x, k)) : cat(x, 3, owner, SC(".func"), num(x, k));
  FnBase b = {local, local, UNDEF, K_CLOSURE, parent->index, NULL, NULL};
  int32_t index = walk_function(x, n, &b);
  add(x, parent->closures, I(index));
  return REC(x, E_FN, SC("fn"), I(index));
}

/* ---------- declarations (extract.ts) ---------- */

static Fn *package_init(X *x) {
  if (x->init) return x->init;
  Fn *f = new_fn(x, K_INIT, SC("init"));
  f->rec = REC(x, FN_INIT, SC("init"), SC("func"), SC("init"), O(list(x)), O(list(x)), I(1), I(1), I(1), SC(""),
               O(f->binds), O(f->calls), O(f->refs), O(f->assigns), O(f->returns), O(f->chans), O(f->selects), O(f->closures), I(0), I(0));
  fns_push(x, f);
  x->init = f;
  return f;
}

/* A throwaway function record (const initializers: their calls are not wanted). */
static Fn *scratch_fn(X *x) {
  Fn *f = new_fn(x, K_FUNC, SC("const"));
  f->index = -1;
  return f;
}

static Obj *walk_expression(X *x, Fn *fn, int32_t n) {
  Ctx c;
  ctx_init(&c, x, fn, end_of(x, n), (int32_t)fn->closures->n);
  return expr(&c, n, 1);
}

/* docOf: the comments right above a node, markers taken off, joined by newlines and trimmed; UNDEF when none. */
static Val doc_of(X *x, int32_t n) {
  int32_t first = NONE;
  uint32_t row = row_of(x, start_of(x, n));
  int count = 0;
  for (int32_t p = prev_named(x, n); p != NONE && type_of(x, p) == T_comment && row_of(x, end_of(x, p)) + 1 == row; p = prev_named(x, p)) {
    first = p;
    row = row_of(x, start_of(x, p));
    count++;
  }
  if (!count) return UNDEF;
  /* The comments, first to last: from `first` forward along the named siblings. */
  size_t cap = 0;
  int32_t p = first;
  for (int k = 0; k < count; k++, p = x->next[p]) {
    while (!named_at(x, p)) p = x->next[p];
    cap += end_of(x, p) - start_of(x, p) + 1;
  }
  char *out = alloc(x, cap + 1);
  size_t len = 0;
  p = first;
  for (int k = 0; k < count; k++, p = x->next[p]) {
    while (!named_at(x, p)) p = x->next[p];
    const char *s = x->text + start_of(x, p);
    size_t n0 = end_of(x, p) - start_of(x, p);
    /* .replace(/^\/\/ ?/, '') */
    if (n0 >= 2 && s[0] == '/' && s[1] == '/') {
      s += 2;
      n0 -= 2;
      if (n0 && s[0] == ' ') s++, n0--;
    }
    /* .replace(/^\/\*|\*\/$/g, '') */
    size_t from = n0 >= 2 && s[0] == '/' && s[1] == '*' ? 2 : 0;
    size_t to = n0 >= from + 2 && s[n0 - 2] == '*' && s[n0 - 1] == '/' ? n0 - 2 : n0;
    if (k) out[len++] = '\n';
    memcpy(out + len, s + from, to - from);
    len += to - from;
  }
  /* .trim() (the text is ASCII) */
  size_t a = 0, b = len;
  while (a < b && (out[a] == ' ' || (out[a] >= 9 && out[a] <= 13))) a++;
  while (b > a && (out[b - 1] == ' ' || (out[b - 1] >= 9 && out[b - 1] <= 13))) b--;
  return SL(out + a, (uint32_t)(b - a));
}

static Obj *receiver_of(X *x, int32_t node) {
  int32_t r = child_field(x, node, F_receiver);
  int32_t decl = NONE;
  if (r != NONE) FOR_NAMED(x, ch, r) if (type_of(x, ch) == T_parameter_declaration) {
    decl = ch;
    break;
  }
  int32_t name = decl == NONE ? NONE : child_field(x, decl, F_name);
  int32_t t = decl == NONE ? NONE : child_field(x, decl, F_type);
  int ptr = 0;
  if (t != NONE && type_of(x, t) == T_pointer_type) {
    ptr = 1;
    t = named_child(x, t, 0);
  }
  if (t != NONE && type_of(x, t) == T_parenthesized_type) t = named_child(x, t, 0);
  Obj *tparams = NULL;
  if (t != NONE && type_of(x, t) == T_generic_type) {
    int32_t args = child_field(x, t, F_type_arguments);
    if (args != NONE) {
      tparams = list(x);
      FOR_NAMED(x, a, args) add(x, tparams, text_of(x, a));
    }
    t = child_field(x, t, F_type);
  }
  Val nm = name == NONE || text_is(x, name, "_") ? UNDEF : text_of(x, name);
  return REC(x, RECV, nm, t == NONE ? SC("?") : text_of(x, t), B(ptr), O(tparams));
}

static void values_of(X *x, int32_t node, int is_var, Obj *out) {
  int32_t *specs = NULL;
  uint32_t count = 0, cap = 0;
  specs_of(x, node, &specs, &count, &cap);
  Fn *init = NULL;
  for (uint32_t k = 0; k < count; k++) {
    int32_t spec = specs[k];
    Texts names = names_of(x, spec, F_name);
    int32_t t = child_field(x, spec, F_type);
    int32_t vals = child_field(x, spec, F_value);
    uint32_t nvals = vals == NONE ? 0 : (uint32_t)named_count(x, vals);
    if (nvals > 0 && is_var && !init) init = package_init(x);
    Obj **exprs = nvals ? alloc(x, sizeof(Obj *) * nvals) : NULL;
    uint32_t e = 0;
    if (vals != NONE) FOR_NAMED(x, v, vals) exprs[e++] = init ? walk_expression(x, init, v) : !is_var ? walk_expression(x, scratch_fn(x), v) : NULL;
    for (uint32_t i = 0; i < names.n; i++) {
      int same = nvals == names.n;
      Obj *v = same ? exprs[i] : nvals ? exprs[0] : NULL;
      Val vi = same ? UNDEF : I((int32_t)i);
      Val arity = same ? UNDEF : I((int32_t)names.n);
      Val ty = t != NONE ? O(type_of_node(x, t)) : UNDEF;
      Val doc = doc_of(x, count == 1 ? node : spec);
      add(x, out, O(REC(x, VALUE, names.v[i], SC(is_var ? "var" : "const"), ty, O(v), vi, arity, I(line_of(x, spec)), doc)));
    }
  }
}

static void hash_range(const char *s, uint32_t from, uint32_t to, int32_t *out) {
  uint32_t a = 0x811c9dc5u, b = 0x9e3779b9u;
  for (uint32_t i = from; i < to; i++) {
    uint32_t c = (uint8_t)s[i];
    a = (a ^ c) * 0x01000193u;
    b = ((b + c) * 0x5bd1e995u) ^ (b >> 15);
  }
  out[0] = (int32_t)(a ^ (to - from));
  out[1] = (int32_t)b;
}

/* ---------- the encoder (codec.ts packFacts, no string table) ---------- */

typedef struct {
  uint8_t *b;
  size_t n, cap;
  int fail;
} Bytes;

static void put_bytes(Bytes *o, const void *p, size_t n) {
  if (o->n + n > o->cap) {
    size_t cap = o->cap ? o->cap : 4096;
    while (cap < o->n + n) cap *= 2;
    uint8_t *b = realloc(o->b, cap);
    if (!b) {
      o->fail = 1;
      return;
    }
    o->b = b;
    o->cap = cap;
  }
  memcpy(o->b + o->n, p, n);
  o->n += n;
}

static void put_byte(Bytes *o, uint8_t c) {
  put_bytes(o, &c, 1);
}

/* A string as JSON.stringify writes it (ASCII text). */
static void put_json_string(Bytes *o, const char *s, uint32_t len) {
  static const char H[] = "0123456789abcdef";
  put_byte(o, '"');
  uint32_t run = 0;
  for (uint32_t i = 0; i < len; i++) {
    uint8_t c = (uint8_t)s[i];
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    put_bytes(o, s + run, i - run);
    run = i + 1;
    char esc[6] = {'\\', 0, 0, 0, 0, 0};
    size_t n = 2;
    switch (c) {
      case '"': esc[1] = '"'; break;
      case '\\': esc[1] = '\\'; break;
      case '\b': esc[1] = 'b'; break;
      case '\t': esc[1] = 't'; break;
      case '\n': esc[1] = 'n'; break;
      case '\f': esc[1] = 'f'; break;
      case '\r': esc[1] = 'r'; break;
      default:
        esc[1] = 'u';
        esc[2] = '0';
        esc[3] = '0';
        esc[4] = H[c >> 4];
        esc[5] = H[c & 15];
        n = 6;
    }
    put_bytes(o, esc, n);
  }
  put_bytes(o, s + run, len - run);
  put_byte(o, '"');
}

enum { TK_SPECIAL = 0, TK_INT = 1, TK_STR = 2, TK_ARR = 3, TK_REC = 4, TK_REF = 6, TK_SHARED = 8 };

typedef struct {
  int32_t *t;
  size_t n, cap;
  /* strings by first use, and a table from their text to their number */
  Val *strings;
  uint32_t nstrings, capstrings;
  int32_t *table;
  uint32_t tmask;
  /* shapes by first completion */
  int32_t shape_id[SHAPE_COUNT];
  int32_t shapes[SHAPE_COUNT];
  int32_t nshapes;
  int fail;
} Enc;

static void emit(Enc *e, int32_t t) {
  if (e->n == e->cap) {
    size_t cap = e->cap ? e->cap * 2 : 1 << 14;
    int32_t *v = realloc(e->t, cap * sizeof(int32_t));
    if (!v) {
      e->fail = 1;
      return;
    }
    e->t = v;
    e->cap = cap;
  }
  e->t[e->n++] = t;
}

static uint32_t str_hash(const char *s, uint32_t len) {
  uint32_t h = 0x811c9dc5u;
  for (uint32_t i = 0; i < len; i++) h = (h ^ (uint8_t)s[i]) * 0x01000193u;
  return h;
}

static int32_t string_id(Enc *e, Val v) {
  if (e->nstrings * 2 >= e->tmask + 1) {
    uint32_t size = (e->tmask + 1) * 2;
    int32_t *table = malloc(sizeof(int32_t) * size);
    if (!table) {
      e->fail = 1;
      return 0;
    }
    memset(table, 0xff, sizeof(int32_t) * size);
    for (uint32_t k = 0; k < e->nstrings; k++) {
      uint32_t h = str_hash(e->strings[k].u.s, e->strings[k].len) & (size - 1);
      while (table[h] >= 0) h = (h + 1) & (size - 1);
      table[h] = (int32_t)k;
    }
    free(e->table);
    e->table = table;
    e->tmask = size - 1;
  }
  uint32_t h = str_hash(v.u.s, v.len) & e->tmask;
  for (; e->table[h] >= 0; h = (h + 1) & e->tmask) {
    const Val *s = &e->strings[e->table[h]];
    if (s->len == v.len && memcmp(s->u.s, v.u.s, v.len) == 0) return e->table[h];
  }
  if (e->nstrings == e->capstrings) {
    uint32_t cap = e->capstrings ? e->capstrings * 2 : 256;
    Val *s = realloc(e->strings, sizeof(Val) * cap);
    if (!s) {
      e->fail = 1;
      return 0;
    }
    e->strings = s;
    e->capstrings = cap;
  }
  e->strings[e->nstrings] = v;
  e->table[h] = (int32_t)e->nstrings;
  return (int32_t)e->nstrings++;
}

static int CANON[SHAPE_COUNT];

static void put_val(Enc *e, Val v) {
  switch (v.tag) {
    case V_UNDEF: emit(e, TK_SPECIAL); return;
    case V_NULL: emit(e, (1 << 4) | TK_SPECIAL); return;
    case V_FALSE: emit(e, (2 << 4) | TK_SPECIAL); return;
    case V_TRUE: emit(e, (3 << 4) | TK_SPECIAL); return;
    case V_INT: emit(e, (int32_t)((uint32_t)v.u.i << 4) | TK_INT); return;
    case V_STR: emit(e, (int32_t)((uint32_t)string_id(e, v) << 4) | TK_STR); return;
  }
  Obj *o = v.u.o;
  if (o->at >= 0) {
    if (!e->fail) e->t[o->at] |= TK_SHARED;
    emit(e, (int32_t)((uint32_t)o->at << 4) | TK_REF);
    return;
  }
  o->at = (int32_t)e->n;
  if (!o->shape) {
    emit(e, (int32_t)(o->n << 4) | TK_ARR);
    for (uint32_t i = 0; i < o->n; i++) put_val(e, o->v[i]);
    return;
  }
  size_t at = e->n;
  emit(e, TK_REC);
  for (uint32_t i = 0; i < o->n; i++) put_val(e, o->v[i]);
  int idx = CANON[o->shape->idx];
  if (e->shape_id[idx] < 0) {
    e->shape_id[idx] = e->nshapes;
    e->shapes[e->nshapes++] = idx;
  }
  if (!e->fail) e->t[at] |= e->shape_id[idx] << 4;
}

static const Shape *const ALL_SHAPES[] = {
#define S_PTR(id, ...) &SH_##id,
  SHAPES(S_PTR)
#undef S_PTR
};

/* Each shape's first shape with the same keys (packFacts knows a shape by its keys alone). */

static void init_canon(void) {
  for (int a = 0; a < SHAPE_COUNT; a++) {
    CANON[a] = a;
    for (int b = 0; b < a; b++) {
      const Shape *x = ALL_SHAPES[a], *y = ALL_SHAPES[b];
      int same = x->n == y->n;
      for (int k = 0; same && k < x->n; k++) same = strcmp(x->keys[k], y->keys[k]) == 0;
      if (same) {
        CANON[a] = b;
        break;
      }
    }
  }
}

/* The bytes packFacts writes for `file` (with the segments words, when given), into `out`. */
static void pack(Obj *file, const int32_t *seg, size_t nseg, Bytes *out) {
  Enc e;
  memset(&e, 0, sizeof e);
  for (int k = 0; k < SHAPE_COUNT; k++) e.shape_id[k] = -1;
  e.table = malloc(sizeof(int32_t) * 1024);
  if (!e.table) {
    out->fail = 1;
    return;
  }
  memset(e.table, 0xff, sizeof(int32_t) * 1024);
  e.tmask = 1023;
  put_val(&e, O(file));
  Bytes strings = {0}, shapes = {0};
  put_byte(&strings, '[');
  for (uint32_t k = 0; k < e.nstrings; k++) {
    if (k) put_byte(&strings, ',');
    put_json_string(&strings, e.strings[k].u.s, e.strings[k].len);
  }
  put_byte(&strings, ']');
  put_byte(&shapes, '[');
  for (int32_t k = 0; k < e.nshapes; k++) {
    const Shape *sh = ALL_SHAPES[e.shapes[k]];
    if (k) put_byte(&shapes, ',');
    put_byte(&shapes, '[');
    for (int i = 0; i < sh->n; i++) {
      if (i) put_byte(&shapes, ',');
      put_json_string(&shapes, sh->keys[i], (uint32_t)strlen(sh->keys[i]));
    }
    put_byte(&shapes, ']');
  }
  put_byte(&shapes, ']');
  uint32_t head[6] = {0x3143464bu, (uint32_t)e.n, 0, (uint32_t)strings.n, (uint32_t)shapes.n, (uint32_t)(nseg * 4)};
  out->fail |= e.fail | strings.fail | shapes.fail;
  if (!out->fail) {
    put_bytes(out, head, sizeof head);
    put_bytes(out, e.t, e.n * sizeof(int32_t));
    put_bytes(out, strings.b, strings.n);
    put_bytes(out, shapes.b, shapes.n);
    if (nseg) put_bytes(out, seg, nseg * sizeof(int32_t));
  }
  free(strings.b);
  free(shapes.b);
  free(e.t);
  free(e.strings);
  free(e.table);
}

/* ---------- one file, end to end ---------- */

typedef struct {
  X x; /* kept here, not on the stack: what alloc() changes must survive a longjmp */
  uint8_t tcode[1 << 16];
  uint8_t fcode[256];
  uint8_t ccode[64];
  Words w;
  int32_t *links;
  size_t links_cap;
  uint32_t *lines;
  size_t lines_cap;
} ExtractState;

static void free_extract(void *p) {
  ExtractState *e = p;
  if (!e) return;
  free(e->w.w);
  free(e->links);
  free(e->lines);
  free_blocks(&e->x);
  free(e);
}

static void init_tables(void) {
  init_classes();
  init_canon();
}

__attribute__((noinline)) static ExtractState *extract_state(State *st) {
  if (st->extract) return st->extract;
  ExtractState *e = calloc(1, sizeof(ExtractState));
  if (!e) return NULL;
  for (uint32_t s = 0; s < st->symbols && s < 0xffff; s++) {
    const char *name = ts_language_symbol_name(st->lang, (TSSymbol)s);
    if (!name) continue;
    for (int t = 1; t < T_COUNT; t++)
      if (strcmp(name, TYPE_NAMES[t]) == 0) {
        e->tcode[s] = (uint8_t)t;
        break;
      }
  }
  uint32_t nf = ts_language_field_count(st->lang);
  for (uint32_t f = 1; f <= nf && f < 256; f++) {
    const char *name = ts_language_field_name_for_id(st->lang, (TSFieldId)f);
    if (!name) continue;
    for (int k = 0; k < F_COUNT; k++)
      if (strcmp(name, FIELD_NAMES[k]) == 0) {
        e->fcode[f] = (uint8_t)(k + 1);
        break;
      }
  }
  uint32_t nc = ts_query_capture_count(st->query);
  for (uint32_t c = 0; c < nc && c < 64; c++) {
    uint32_t len = 0;
    const char *cn = ts_query_capture_name_for_id(st->query, c, &len);
    static const char *const NAMES[] = {"", "package", "import", "definition.function", "definition.method", "definition.type", "definition.var", "definition.const"};
    for (int k = 1; k < 8; k++)
      if (strlen(NAMES[k]) == len && memcmp(NAMES[k], cn, len) == 0) e->ccode[c] = (uint8_t)k;
  }
  /* The tables every thread reads, made once by the first thread here. */
  static pthread_once_t tables = PTHREAD_ONCE_INIT;
  pthread_once(&tables, init_tables);
  st->extract = e;
  return e;
}

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* The file's facts record (extractOrThrow's, then declarationsOnly's when asked); its segments' words into seg. */
__attribute__((noinline)) static Obj *extract_file(X *x, Val path, int declarations, const uint8_t *ccode, const uint32_t *caps, uint32_t ncaps, int32_t **seg, size_t *nseg) {
  x->funcs = list(x);
  x->lit_string = REC(x, E_LIT, SC("lit"), SC("string"));
  x->lit_bool = REC(x, E_LIT, SC("lit"), SC("bool"));
  x->lit_imag = REC(x, E_LIT, SC("lit"), SC("imag"));
  x->lit_rune = REC(x, E_LIT, SC("lit"), SC("rune"));
  x->lit_nil = REC(x, E_LIT, SC("lit"), SC("nil"));
  x->unknown = REC(x, T_UNKNOWN, SC("unknown"));
  Obj *imports = list(x), *types = list(x), *values = list(x);
  Val pkg = UNDEF;
  int32_t init_count = 0;
  uint32_t ndecls = 0;
  uint32_t *ends = alloc(x, sizeof(uint32_t) * (ncaps + 1));
  int32_t *counts = alloc(x, sizeof(int32_t) * 3 * (ncaps + 1));
  for (uint32_t k = 0; k < ncaps; k++) {
    uint32_t cid = caps[2 * k];
    int32_t node = (int32_t)caps[2 * k + 1];
    int code = cid < 64 ? ccode[cid] : C_OTHER;
    switch (code) {
      case C_PACKAGE:
        pkg = text_of(x, node);
        break;
      case C_IMPORT: {
        int32_t name = child_field(x, node, F_name), p = child_field(x, node, F_path);
        Val raw = p == NONE ? SC("\"\"") : text_of(x, p);
        Val path_v = raw.len >= 2 ? SL(raw.u.s + 1, raw.len - 2) : SC("");
        add(x, imports, O(REC(x, IMPORT, name == NONE ? UNDEF : text_of(x, name), path_v, I(line_of(x, node)))));
        break;
      }
      case C_FUNCTION: {
        int32_t nn = child_field(x, node, F_name);
        Val fname = nn == NONE ? SC("") : text_of(x, nn);
        Obj *tparams = type_param_names(x, child_field(x, node, F_type_parameters));
        Val local = val_is(fname, "init") ? cat(x, 2, SC("init."), num(x, init_count++)) : tparams ? cat(x, 2, fname, SC("[...]")) : fname;
        FnBase b = {local, fname, doc_of(x, node), K_FUNC, 0, NULL, tparams};
        walk_function(x, node, &b);
        break;
      }
      case C_METHOD: {
        Obj *recv = receiver_of(x, node);
        int32_t nn = child_field(x, node, F_name);
        Val mname = nn == NONE ? SC("") : text_of(x, nn);
        Val rtype = AT(recv, 3).tag == V_OBJ ? cat(x, 2, AT(recv, 1), SC("[...]")) : AT(recv, 1);
        Val local = AT(recv, 2).tag == V_TRUE ? cat(x, 4, SC("(*"), rtype, SC(")."), mname) : cat(x, 3, rtype, SC("."), mname);
        FnBase b = {local, mname, doc_of(x, node), K_METHOD, 0, recv, NULL};
        walk_function(x, node, &b);
        break;
      }
      case C_TYPE: {
        int single = named_count(x, node) == 1;
        FOR_NAMED(x, spec, node) {
          int t = type_of(x, spec);
          if (t != T_type_spec && t != T_type_alias) continue;
          int32_t nn = child_field(x, spec, F_name);
          Obj *ty = type_of_node(x, child_field(x, spec, F_type));
          Obj *tp = type_param_names(x, child_field(x, spec, F_type_parameters));
          add(x, types, O(REC(x, TYPE, nn == NONE ? SC("") : text_of(x, nn), O(ty), B(t == T_type_alias), O(tp), I(line_of(x, spec)), I(end_line_of(x, spec)),
                              doc_of(x, single ? node : spec), fingerprint(x, start_of(x, spec), end_of(x, spec)))));
        }
        break;
      }
      case C_VAR:
      case C_CONST:
        values_of(x, node, code == C_VAR, values);
        break;
      default:
        continue;
    }
    if (code >= C_FUNCTION) {
      ends[ndecls] = end_of(x, node);
      counts[3 * ndecls] = (int32_t)x->funcs->n;
      counts[3 * ndecls + 1] = (int32_t)types->n;
      counts[3 * ndecls + 2] = (int32_t)values->n;
      ndecls++;
    }
  }
  if (pkg.tag != V_STR || pkg.len == 0) return NULL;
  if (declarations) {
    /* declarationsOnly: every function's body lists are one shared empty list. */
    Obj *none = list(x);
    static const char *const BODY_KEYS[] = {"binds", "calls", "refs", "assigns", "returns", "chans", "selects"};
    for (uint32_t k = 0; k < x->funcs->n; k++) {
      Obj *f = x->funcs->v[k].u.o;
      for (int i = 0; i < f->shape->n; i++)
        for (int j = 0; j < 7; j++)
          if (strcmp(f->shape->keys[i], BODY_KEYS[j]) == 0) f->v[i] = O(none);
    }
  } else if (x->len >= SEGMENTS_MIN_CHARS) {
    /* headerEnd, then segmentsOf */
    uint32_t header = 0, k = 0;
    int ok = 1;
    FOR_NAMED(x, ch, 0) {
      int t = type_of(x, ch);
      if (t == T_comment) continue;
      if ((t == T_package_clause || t == T_import_declaration) && k == 0) header = end_of(x, ch);
      else if (k < ndecls && end_of(x, ch) == ends[k]) k++;
      else {
        ok = 0;
        break;
      }
    }
    if (ok && k == ndecls) {
      size_t n = 5 + (size_t)ndecls * 6 + 4;
      int32_t *words = alloc(x, sizeof(int32_t) * n);
      words[0] = 0x31474553;
      words[1] = (int32_t)x->nlines;
      words[2] = (int32_t)x->len;
      words[3] = (int32_t)header;
      words[4] = (int32_t)ndecls;
      uint32_t from = header;
      for (uint32_t d = 0; d < ndecls; d++) {
        int32_t *o = words + 5 + d * 6;
        o[0] = (int32_t)ends[d];
        hash_range(x->text, from, ends[d], o + 1);
        o[3] = counts[3 * d];
        o[4] = counts[3 * d + 1];
        o[5] = counts[3 * d + 2];
        from = ends[d];
      }
      int32_t *h = words + 5 + ndecls * 6;
      hash_range(x->text, 0, header, h);
      hash_range(x->text, from, x->len, h + 2);
      *seg = words;
      *nseg = n;
    }
  }
  return REC(x, FILE, path, pkg, O(imports), O(x->funcs), O(types), O(values), O(list(x)));
}

/* extractPacked(bytes: Uint8Array, path: string, declarationsOnly: boolean, times?: Float64Array(4))
   -> the packed facts (a Uint8Array), or undefined for a file it leaves to the TypeScript extractor.
   `times` gets the milliseconds of tree-sitter, the flat tree, the extraction and the encoding added. */
static napi_value extract_packed(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  State *st = state_of(env);
  napi_value undef;
  CHECK(napi_get_undefined(env, &undef));
  if (!st->parser || !st->query) {
    napi_throw_error(env, NULL, "flat_tree: call setup() first");
    return NULL;
  }
  napi_typedarray_type type;
  size_t len = 0;
  void *data = NULL;
  if (argc < 3 || napi_get_typedarray_info(env, argv[0], &type, &len, &data, NULL, NULL) != napi_ok || type != napi_uint8_array) {
    napi_throw_type_error(env, NULL, "flat_tree: extractPacked(bytes: Uint8Array, path, declarationsOnly)");
    return NULL;
  }
  double *times = NULL;
  if (argc >= 4) {
    napi_typedarray_type tt;
    size_t tn = 0;
    void *td = NULL;
    if (napi_get_typedarray_info(env, argv[3], &tt, &tn, &td, NULL, NULL) == napi_ok && tt == napi_float64_array && tn >= 4) times = td;
  }
  const uint8_t *bytes = data;
  if (len > MAX_FILE_BYTES) return undef;
  /* ASCII only (offsets in bytes are then the text's), and its lines counted in the same pass. */
  uint32_t nlines = 1;
  for (size_t i = 0; i < len; i++) {
    if (bytes[i] >= 0x80) return undef;
    nlines += bytes[i] == '\n';
  }
  size_t plen = 0;
  CHECK(napi_get_value_string_utf8(env, argv[1], NULL, 0, &plen));
  bool declarations = false;
  napi_get_value_bool(env, argv[2], &declarations);
  ExtractState *es = extract_state(st);
  if (!es) {
    napi_throw_error(env, NULL, "flat_tree: out of memory");
    return NULL;
  }
  double t0 = times ? now_ms() : 0;
  TSTree *tree = ts_parser_parse_string(st->parser, NULL, (const char *)bytes, (uint32_t)len);
  if (!tree) return undef;
  TSNode root = ts_tree_root_node(tree);
  if (ts_node_has_error(root)) {
    ts_tree_delete(tree);
    return undef;
  }
  double t1 = times ? now_ms() : 0;
  Words b = es->w;
  uint32_t count = 0, captures = 0;
  int ok = flat_words(st, tree, 0, &b, &count, &captures);
  ts_tree_delete(tree);
  es->w = b;
  if (!ok) {
    napi_throw_error(env, NULL, "flat_tree: out of memory");
    return NULL;
  }
  /* the links: first child, next and previous sibling */
  if (es->links_cap < (size_t)count * 3) {
    size_t cap = (size_t)count * 3 * 2;
    int32_t *l = realloc(es->links, cap * sizeof(int32_t));
    if (!l) {
      napi_throw_error(env, NULL, "flat_tree: out of memory");
      return NULL;
    }
    es->links = l;
    es->links_cap = cap;
  }
  int32_t *first = es->links, *next = es->links + count, *prev = es->links + 2 * (size_t)count;
  const uint32_t *w = b.w;
  for (uint32_t i = 0; i < count; i++) first[i] = -1;
  if (count) {
    prev[0] = -1;
    next[0] = -1;
  }
  for (uint32_t i = count - 1; i > 0 && count; i--) {
    uint32_t p = w[5 + i * 4];
    int32_t after = first[p];
    next[i] = after;
    prev[i] = -1;
    if (after >= 0) prev[after] = (int32_t)i;
    first[p] = (int32_t)i;
  }
  /* line starts */
  if (es->lines_cap < nlines) {
    uint32_t *l = realloc(es->lines, nlines * 2 * sizeof(uint32_t));
    if (!l) {
      napi_throw_error(env, NULL, "flat_tree: out of memory");
      return NULL;
    }
    es->lines = l;
    es->lines_cap = nlines * 2;
  }
  es->lines[0] = 0;
  for (uint32_t i = 0, k = 1; i < len; i++)
    if (bytes[i] == '\n') es->lines[k++] = i + 1;
  double t2 = times ? now_ms() : 0;

  /* The arena's first block is kept from file to file; any others are freed. */
  Block *keep = es->x.blocks;
  while (keep && keep->next) {
    Block *n = keep->next;
    keep->next = n->next;
    free(n);
  }
  if (keep) keep->used = 0;
  X *x = &es->x;
  memset(x, 0, sizeof *x);
  x->blocks = keep;
  jmp_buf fail;
  x->fail = &fail;
  x->text = (const char *)bytes;
  x->len = (uint32_t)len;
  x->lines = es->lines;
  x->nlines = nlines;
  x->w = w;
  x->count = count;
  x->first = first;
  x->next = next;
  x->prev = prev;
  x->tcode = es->tcode;
  x->fcode = es->fcode;
  if (setjmp(fail) != 0 || count == 0) return undef;
  napi_value out = undef;
  char *path = alloc(x, plen + 1);
  napi_get_value_string_utf8(env, argv[1], path, plen + 1, &plen);
  int32_t *seg = NULL;
  size_t nseg = 0;
  Obj *file = extract_file(x, SL(path, (uint32_t)plen), declarations, es->ccode, w + 2 + (size_t)count * 4, captures, &seg, &nseg);
  double t3 = times ? now_ms() : 0;
  if (file) {
    Bytes packed = {0};
    pack(file, seg, nseg, &packed);
    if (!packed.fail) {
      void *ab = NULL;
      napi_value buffer;
      if (napi_create_arraybuffer(env, packed.n, &ab, &buffer) == napi_ok) {
        memcpy(ab, packed.b, packed.n);
        napi_create_typedarray(env, napi_uint8_array, packed.n, buffer, 0, &out);
      }
    }
    free(packed.b);
  }
  if (times) {
    double t4 = now_ms();
    times[0] += t1 - t0;
    times[1] += t2 - t1;
    times[2] += t3 - t2;
    times[3] += t4 - t3;
  }
  return out;
}
