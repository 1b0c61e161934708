/*
 * flat_tree: tree-sitter's runtime and the Go grammar (the C sources shipped in the tree-sitter and
 * tree-sitter-go packages) behind a small Node-API addon. parse() returns a whole syntax
 * tree as one array of integers, so JavaScript never makes a native call per node.
 *
 * Output (Uint32 words, copied into a buffer the caller owns and reuses): [nodeCount, captureCount,
 *   nodeCount x (type | field << 16 | named << 24 | missing << 25), start, end, parent,
 *   captureCount x (captureId, nodeIndex)]
 * Nodes are in preorder; start/end are UTF-16 code-unit offsets, parent is a node index (root: -1).
 * Anonymous tokens are left out unless they carry a field name, are missing, or are listed as kept;
 * the insides of nodes listed as leaves are left out.
 */
#include <node_api.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <tree_sitter/api.h>
/* One translation unit with the runtime, so the per-node accessors used below can be inlined. */
#include "lib.c"

const TSLanguage *tree_sitter_go(void);

typedef struct {
  uint32_t *w;
  size_t len, cap;
} Words;

typedef struct {
  TSParser *parser;
  TSQuery *query;
  TSQueryCursor *qcursor;
  const TSLanguage *lang;
  uint8_t *leaf;   /* by symbol: do not descend */
  uint8_t *keep;   /* by symbol: keep although anonymous */
  uint32_t symbols;
  Words last;   /* the last result, kept between parse() and take() and reused from file to file */
  TSTree *kept; /* the last tree parse() was asked to keep, until keptTree() hands it out */
  void *extract; /* extract_facts.c's state, made when first needed */
} State;

/* One state per JavaScript thread (main and each worker): a TSParser must not be shared. */
static State *state_of(napi_env env) {
  void *data = NULL;
  napi_get_instance_data(env, &data);
  return (State *)data;
}

static void free_extract(void *e);

static void free_state(napi_env env, void *data, void *hint) {
  State *s = (State *)data;
  if (s->parser) ts_parser_delete(s->parser);
  if (s->query) ts_query_delete(s->query);
  if (s->qcursor) ts_query_cursor_delete(s->qcursor);
  free(s->leaf);
  free(s->keep);
  free(s->last.w);
  if (s->kept) ts_tree_delete(s->kept);
  free_extract(s->extract);
  free(s);
}

static void free_tree(napi_env env, void *data, void *hint) {
  ts_tree_delete((TSTree *)data);
}

#define CHECK(call) do { if ((call) != napi_ok) { napi_throw_error(env, NULL, "flat_tree: " #call " failed"); return NULL; } } while (0)

static int push(Words *b, uint32_t v) {
  if (b->len == b->cap) {
    size_t cap = b->cap ? b->cap * 2 : 4096;
    uint32_t *w = realloc(b->w, cap * sizeof(uint32_t));
    if (!w) return 0;
    b->w = w;
    b->cap = cap;
  }
  b->w[b->len++] = v;
  return 1;
}

static void set_symbols(napi_env env, State *st, napi_value arr, uint8_t *flags) {
  uint32_t n = 0;
  napi_get_array_length(env, arr, &n);
  for (uint32_t i = 0; i < n; i++) {
    napi_value v;
    char name[128];
    size_t len = 0;
    napi_get_element(env, arr, i, &v);
    if (napi_get_value_string_utf8(env, v, name, sizeof name, &len) != napi_ok) continue;
    for (uint32_t s = 0; s < st->symbols; s++) {
      const char *sn = ts_language_symbol_name(st->lang, (TSSymbol)s);
      if (sn && strcmp(sn, name) == 0) flags[s] = 1;
    }
  }
}

/* setup(querySource, leafTypes[], keptAnonymousTypes[]) -> { types: string[], named: bool[], fields: string[], captures: string[] } */
static napi_value setup(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  State *st = state_of(env);
  if (!st->parser) {
    st->lang = tree_sitter_go();
    st->parser = ts_parser_new();
    ts_parser_set_language(st->parser, st->lang);
    st->symbols = ts_language_symbol_count(st->lang);
    st->leaf = calloc(st->symbols + 1, 1);
    st->keep = calloc(st->symbols + 1, 1);
    st->qcursor = ts_query_cursor_new();
  }
  size_t qlen = 0;
  CHECK(napi_get_value_string_utf8(env, argv[0], NULL, 0, &qlen));
  char *qsrc = malloc(qlen + 1);
  CHECK(napi_get_value_string_utf8(env, argv[0], qsrc, qlen + 1, &qlen));
  uint32_t err_offset = 0;
  TSQueryError err = TSQueryErrorNone;
  TSQuery *q = ts_query_new(st->lang, qsrc, (uint32_t)qlen, &err_offset, &err);
  free(qsrc);
  if (!q) {
    char msg[96];
    snprintf(msg, sizeof msg, "query error %d at offset %u", (int)err, err_offset);
    napi_throw_error(env, NULL, msg);
    return NULL;
  }
  if (st->query) ts_query_delete(st->query);
  st->query = q;
  memset(st->leaf, 0, st->symbols);
  memset(st->keep, 0, st->symbols);
  set_symbols(env, st, argv[1], st->leaf);
  set_symbols(env, st, argv[2], st->keep);

  napi_value out, types, named, fields, captures;
  CHECK(napi_create_object(env, &out));
  CHECK(napi_create_array_with_length(env, st->symbols, &types));
  CHECK(napi_create_array_with_length(env, st->symbols, &named));
  for (uint32_t s = 0; s < st->symbols; s++) {
    napi_value v, b;
    const char *sn = ts_language_symbol_name(st->lang, (TSSymbol)s);
    CHECK(napi_create_string_utf8(env, sn ? sn : "", NAPI_AUTO_LENGTH, &v));
    CHECK(napi_set_element(env, types, s, v));
    CHECK(napi_get_boolean(env, ts_language_symbol_type(st->lang, (TSSymbol)s) == TSSymbolTypeRegular, &b));
    CHECK(napi_set_element(env, named, s, b));
  }
  uint32_t nf = ts_language_field_count(st->lang);
  CHECK(napi_create_array_with_length(env, nf + 1, &fields));
  for (uint32_t f = 0; f <= nf; f++) {
    napi_value v;
    const char *fname = f ? ts_language_field_name_for_id(st->lang, (TSFieldId)f) : NULL;
    CHECK(napi_create_string_utf8(env, fname ? fname : "", NAPI_AUTO_LENGTH, &v));
    CHECK(napi_set_element(env, fields, f, v));
  }
  uint32_t nc = ts_query_capture_count(q);
  CHECK(napi_create_array_with_length(env, nc, &captures));
  for (uint32_t c = 0; c < nc; c++) {
    uint32_t len = 0;
    const char *cn = ts_query_capture_name_for_id(q, c, &len);
    napi_value v;
    CHECK(napi_create_string_utf8(env, cn, len, &v));
    CHECK(napi_set_element(env, captures, c, v));
  }
  CHECK(napi_set_named_property(env, out, "types", types));
  CHECK(napi_set_named_property(env, out, "named", named));
  CHECK(napi_set_named_property(env, out, "fields", fields));
  CHECK(napi_set_named_property(env, out, "captures", captures));
  return out;
}

/* Parses a JavaScript string as UTF-16 (so offsets / 2 are string indices), reusing `old` (already
   edited) when given; on failure throws and returns NULL. */
static TSTree *parse_string_from(napi_env env, State *st, napi_value value, const TSTree *old) {
  size_t len = 0;
  if (napi_get_value_string_utf16(env, value, NULL, 0, &len) != napi_ok) {
    napi_throw_type_error(env, NULL, "flat_tree: expected a string");
    return NULL;
  }
  char16_t *text = malloc((len + 1) * sizeof(char16_t));
  if (!text) {
    napi_throw_error(env, NULL, "flat_tree: out of memory");
    return NULL;
  }
  if (napi_get_value_string_utf16(env, value, text, len + 1, &len) != napi_ok) {
    free(text);
    napi_throw_type_error(env, NULL, "flat_tree: expected a string");
    return NULL;
  }
  TSTree *tree = ts_parser_parse_string_encoding(st->parser, old, (const char *)text, (uint32_t)(len * 2), TSInputEncodingUTF16LE);
  free(text);
  if (!tree) napi_throw_error(env, NULL, "flat_tree: parse failed");
  return tree;
}

static TSTree *parse_string(napi_env env, State *st, napi_value value) {
  return parse_string_from(env, st, value, NULL);
}

/*
 * The tree for argv[0] when parse() was passed an earlier tree (argv[3], an external from keptTree())
 * and the edit from that tree's text to this one (argv[4], nine Uint32: start, old end and new end
 * bytes, then the rows and byte columns of those three points): a copy of the old tree is edited and
 * the text parsed again from it, which reuses what the edit did not touch. A tree with a syntax error
 * is made again from nothing: error recovery may go differently from an earlier tree.
 */
static TSTree *parse_again(napi_env env, State *st, napi_value text, napi_value old, napi_value edit) {
  void *data = NULL;
  if (napi_get_value_external(env, old, &data) != napi_ok || !data) {
    napi_throw_type_error(env, NULL, "flat_tree: expected a tree from keptTree()");
    return NULL;
  }
  napi_typedarray_type type;
  size_t n = 0;
  void *e = NULL;
  if (napi_get_typedarray_info(env, edit, &type, &n, &e, NULL, NULL) != napi_ok || type != napi_uint32_array || n != 9) {
    napi_throw_type_error(env, NULL, "flat_tree: expected the edit as nine Uint32");
    return NULL;
  }
  const uint32_t *v = (const uint32_t *)e;
  TSInputEdit in = {v[0], v[1], v[2], {v[3], v[4]}, {v[5], v[6]}, {v[7], v[8]}};
  TSTree *copy = ts_tree_copy((const TSTree *)data);
  ts_tree_edit(copy, &in);
  TSTree *tree = parse_string_from(env, st, text, copy);
  ts_tree_delete(copy);
  if (tree && ts_node_has_error(ts_tree_root_node(tree))) {
    ts_tree_delete(tree);
    tree = parse_string(env, st, text);
  }
  return tree;
}

/* keptTree() -> the tree the last parse(..., keep) made, as an external (once; undefined after). */
static napi_value kept_tree(napi_env env, napi_callback_info info) {
  State *st = state_of(env);
  napi_value out;
  if (!st->kept) {
    CHECK(napi_get_undefined(env, &out));
    return out;
  }
  if (napi_create_external(env, st->kept, free_tree, NULL, &out) != napi_ok) {
    napi_throw_error(env, NULL, "flat_tree: cannot hand out the tree");
    return NULL;
  }
  st->kept = NULL;
  return out;
}

/* Index of the emitted node with this start, end and symbol (binary search on preorder starts). */
static int64_t find_node(const Words *b, uint32_t count, uint32_t start, uint32_t end, TSSymbol sym) {
  uint32_t lo = 0, hi = count;
  while (lo < hi) {
    uint32_t mid = (lo + hi) / 2;
    if (b->w[2 + mid * 4 + 1] < start) lo = mid + 1;
    else hi = mid;
  }
  for (uint32_t i = lo; i < count && b->w[2 + i * 4 + 1] == start; i++) {
    if (b->w[2 + i * 4 + 2] == end && (b->w[2 + i * 4] & 0xffff) == sym) return i;
  }
  return -1;
}

/* One node whose children flatten() is going through: the visible node it emitted last (`parent`), or
   a hidden node, whose children are the children of its nearest visible ancestor. */
typedef struct {
  const Subtree *kids;
  uint32_t i, n, structural, pos, parent;
  TSFieldId inherited; /* a hidden node's field, which its visible descendants without one of their own take */
  const TSSymbol *aliases;
  const TSFieldMapEntry *fields, *fields_end;
} Frame;

static int open_frame(Frame **frames, size_t *cap, size_t *depth, const TSLanguage *lang, Subtree sub, uint32_t pos, uint32_t parent, TSFieldId inherited) {
  if (*depth == *cap) {
    size_t bigger = *cap ? *cap * 2 : 256;
    Frame *f = realloc(*frames, bigger * sizeof(Frame));
    if (!f) return 0;
    *frames = f;
    *cap = bigger;
  }
  Frame *f = &(*frames)[(*depth)++];
  f->kids = ts_subtree_children(sub);
  f->i = 0;
  f->n = sub.ptr->child_count;
  f->structural = 0;
  f->pos = pos;
  f->parent = parent;
  f->inherited = inherited;
  f->aliases = ts_language_alias_sequence(lang, sub.ptr->production_id);
  ts_language_field_map(lang, sub.ptr->production_id, &f->fields, &f->fields_end);
  return 1;
}

/* Whether a visible node goes into the array: named, with a field, missing, or a kept anonymous token. */
static int emitted(const State *st, TSSymbol sym, TSFieldId field, int named, int missing) {
  return named || field || missing || (sym < st->symbols && st->keep[sym]);
}

/* Appends an emitted node's four words (the layout at the top of this file; start and end are
   tree-sitter's bytes >> shift: UTF-16 code units for 1, UTF-8 bytes for 0); 0 when out of memory. */
static int push_node(Words *b, TSSymbol sym, TSFieldId field, int named, int missing, uint32_t start, uint32_t end, uint32_t parent, uint32_t shift) {
  return push(b, (uint32_t)sym | ((uint32_t)field << 16) | ((uint32_t)named << 24) | ((uint32_t)missing << 25)) &&
         push(b, start >> shift) && push(b, end >> shift) && push(b, parent);
}

/* Whether flatten() goes on into an emitted node: its type is not a leaf type, and it has visible children. */
static int descends(const State *st, TSSymbol sym, Subtree t) {
  return !(sym < st->symbols && st->leaf[sym]) && ts_subtree_visible_child_count(t) > 0;
}

/*
 * Appends the tree's nodes to `b` in preorder (the layout at the top of this file), reading its subtrees
 * directly: what a TSTreeCursor walk with ts_tree_cursor_current_node, _field_id, ts_node_symbol,
 * _is_named and _is_missing gives, for about a third of its instructions (a cursor finds a node's field
 * by walking back up its stack, and makes a child iterator at every step). The rules are the cursor's
 * (tree_cursor.c): a child is visible when its subtree is or its parent's production aliases it (extras
 * are never aliased); a hidden child with visible descendants is gone through in place; a node's field
 * is the one its parent's production gives its slot (not an inherited entry), else that of the nearest
 * hidden ancestor's slot, stopping at an extra. Positions are the parent's start plus the sizes of the
 * children before and the paddings of those after the first, written as tree-sitter's bytes >> shift
 * (see flat_words).
 */
static int flatten(State *st, TSTree *tree, uint32_t shift, Words *b, uint32_t *count) {
  const TSLanguage *lang = st->lang;
  Subtree root = tree->root;
  uint32_t pos = ts_subtree_padding(root).bytes;
  TSSymbol sym = ts_language_public_symbol(lang, ts_subtree_symbol(root));
  int named = ts_subtree_named(root), missing = ts_subtree_missing(root);
  if (!emitted(st, sym, 0, named, missing)) return 1;
  if (!push_node(b, sym, 0, named, missing, pos, pos + ts_subtree_size(root).bytes, 0xffffffffu, shift)) return 0;
  *count = 1;
  if (!descends(st, sym, root)) return 1;
  Frame *frames = NULL;
  size_t cap = 0, depth = 0;
  int ok = open_frame(&frames, &cap, &depth, lang, root, pos, 0, 0);
  while (ok && depth) {
    Frame *f = &frames[depth - 1];
    if (f->i == f->n) {
      depth--;
      continue;
    }
    Subtree c = f->kids[f->i];
    if (f->i > 0) f->pos += ts_subtree_padding(c).bytes;
    uint32_t at = f->pos;
    f->pos += ts_subtree_size(c).bytes;
    f->i++;
    int extra = ts_subtree_extra(c);
    TSSymbol alias = 0;
    TSFieldId field = 0;
    if (!extra) {
      if (f->aliases) alias = f->aliases[f->structural];
      for (const TSFieldMapEntry *m = f->fields; m < f->fields_end; m++) {
        if (!m->inherited && m->child_index == f->structural) {
          field = m->field_id;
          break;
        }
      }
      if (!field) field = f->inherited;
      f->structural++;
    }
    if (ts_subtree_visible(c) || alias) {
      sym = ts_language_public_symbol(lang, alias ? alias : ts_subtree_symbol(c));
      named = alias ? ts_language_symbol_metadata(lang, alias).named : ts_subtree_named(c);
      missing = ts_subtree_missing(c);
      if (!emitted(st, sym, field, named, missing)) continue;
      ok = push_node(b, sym, field, named, missing, at, at + ts_subtree_size(c).bytes, f->parent, shift);
      (*count)++;
      if (ok && descends(st, sym, c)) ok = open_frame(&frames, &cap, &depth, lang, c, at, *count - 1, 0);
    } else if (ts_subtree_visible_child_count(c) > 0) {
      /* An extra has no field (the cursor stops at one), so its descendants inherit none. */
      ok = open_frame(&frames, &cap, &depth, lang, c, at, f->parent, field);
    }
  }
  free(frames);
  return ok;
}

/* Copies the last result into `target` if it fits; returns its length in words, negated if it did not fit. */
static napi_value deliver(napi_env env, State *st, napi_value target) {
  void *data = NULL;
  size_t bytes = 0;
  CHECK(napi_get_arraybuffer_info(env, target, &data, &bytes));
  int64_t n = (int64_t)st->last.len;
  if ((size_t)n * sizeof(uint32_t) <= bytes) memcpy(data, st->last.w, st->last.len * sizeof(uint32_t));
  else n = -n;
  napi_value out;
  CHECK(napi_create_int64(env, n, &out));
  return out;
}

/* take(target): delivers the last result again, into a bigger buffer. */
static napi_value take(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  return deliver(env, state_of(env), argv[0]);
}

/*
 * The tree's words (the layout at the top of this file) into `b`, from its start: the nodes, then the
 * declaration query's captures. `shift` says what the tree's offsets are in: 1 for UTF-16 text (an
 * offset is a string index), 0 for UTF-8 bytes. Leaves the counts in w[0] and w[1] to the caller.
 * 0 when out of memory.
 */
static int flat_words(State *st, TSTree *tree, uint32_t shift, Words *b, uint32_t *count, uint32_t *captures) {
  b->len = 0;
  *count = 0;
  *captures = 0;
  int ok = push(b, 0) && push(b, 0);
  ok = ok && flatten(st, tree, shift, b, count);
  if (ok) {
    /* A tree without errors cannot match (ERROR) or (MISSING), and the other patterns start within
       three levels of the root (source_file > import_declaration > import_spec_list > import_spec):
       the cursor need not walk the bodies. */
    TSNode root = ts_tree_root_node(tree);
    ts_query_cursor_set_max_start_depth(st->qcursor, ts_node_has_error(root) ? UINT32_MAX : 3);
    ts_query_cursor_exec(st->qcursor, st->query, root);
    TSQueryMatch m;
    uint32_t ci;
    while (ok && ts_query_cursor_next_capture(st->qcursor, &m, &ci)) {
      TSNode n = m.captures[ci].node;
      int64_t at = find_node(b, *count, ts_node_start_byte(n) >> shift, ts_node_end_byte(n) >> shift, ts_node_symbol(n));
      if (at < 0) continue;
      ok = push(b, m.captures[ci].index) && push(b, (uint32_t)at);
      (*captures)++;
    }
  }
  return ok;
}

/* parse(text, target: ArrayBuffer, keep?: boolean, old?: tree, edit?: Uint32Array) -> words written
   into target (layout above), or minus the words needed when target is too small (then call take()
   with a bigger one). With keep, the tree is kept for keptTree(); with old and edit, see parse_again. */
static napi_value parse(napi_env env, napi_callback_info info) {
  size_t argc = 5;
  napi_value argv[5];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  State *st = state_of(env);
  if (!st->parser || !st->query) {
    napi_throw_error(env, NULL, "flat_tree: call setup() first");
    return NULL;
  }
  bool keep = false;
  if (argc >= 3) napi_get_value_bool(env, argv[2], &keep);
  napi_valuetype old_type = napi_undefined;
  if (argc >= 5) napi_typeof(env, argv[3], &old_type);
  TSTree *tree = old_type == napi_external ? parse_again(env, st, argv[0], argv[3], argv[4]) : parse_string(env, st, argv[0]);
  if (!tree) return NULL;
  Words b = st->last;
  uint32_t count = 0, captures = 0;
  int ok = flat_words(st, tree, 1, &b, &count, &captures);
  if (keep && ok) {
    if (st->kept) ts_tree_delete(st->kept);
    st->kept = tree;
  } else {
    ts_tree_delete(tree);
  }
  st->last = b;
  if (!ok) {
    st->last.len = 0;
    napi_throw_error(env, NULL, "flat_tree: out of memory");
    return NULL;
  }
  st->last.w[0] = count;
  st->last.w[1] = captures;
  return deliver(env, st, argv[1]);
}

/* parseOnly(text): parse and free the tree; the baseline the benchmark compares against. */
static napi_value parse_only(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  State *st = state_of(env);
  if (!st->parser) {
    napi_throw_error(env, NULL, "flat_tree: call setup() first");
    return NULL;
  }
  TSTree *tree = parse_string(env, st, argv[0]);
  if (tree) ts_tree_delete(tree);
  return NULL;
}

#include "extract_facts.c"

NAPI_MODULE_INIT() {
  State *st = calloc(1, sizeof(State));
  if (!st || napi_set_instance_data(env, st, free_state, NULL) != napi_ok) {
    napi_throw_error(env, NULL, "flat_tree: cannot allocate its state");
    return NULL;
  }
  napi_property_descriptor props[] = {
    {"setup", NULL, setup, NULL, NULL, NULL, napi_default, NULL},
    {"parse", NULL, parse, NULL, NULL, NULL, napi_default, NULL},
    {"parseOnly", NULL, parse_only, NULL, NULL, NULL, napi_default, NULL},
    {"take", NULL, take, NULL, NULL, NULL, napi_default, NULL},
    {"keptTree", NULL, kept_tree, NULL, NULL, NULL, napi_default, NULL},
    {"extractPacked", NULL, extract_packed, NULL, NULL, NULL, napi_default, NULL},
  };
  napi_define_properties(env, exports, sizeof props / sizeof props[0], props);
  return exports;
}
