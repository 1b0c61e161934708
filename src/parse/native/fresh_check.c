/*
 * fresh_check: the query store's freshness test in C. A one-shot query must know that no Go file in
 * scope changed since the index was built, which is one stat() per file and package folder (about
 * 6,000 on the kubelet's scope). Through fs.statSync each costs a Stats object and four Dates; here it
 * is the system call alone, spread over a few threads.
 *
 * firstStale(paths, sizes, mtimes) -> index of a path whose size or mtime differs (or that is gone),
 * or -1 when all match. start(paths, sizes, mtimes) runs the same check on threads of its own and
 * returns at once; finish(handle) waits for it and gives the same answer, so a query can look up its
 * answer meanwhile. paths: the manifest's '\n'-separated absolute paths (a Buffer); sizes and
 * mtimes: Float64Arrays, size -1 for a folder (its size is not compared). mtime is compared as
 * node computes mtimeMs: seconds * 1e3 + nanoseconds / 1e6, in doubles.
 *
 * statAll(paths, count, root) gives the stats themselves, for the source stage's snapshot (see below).
 */
#include <node_api.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The modification (and status change) time as a timespec: st_mtimespec on macOS, st_mtim elsewhere (POSIX 2008). */
#ifdef __APPLE__
#define MTIME(st) ((st).st_mtimespec)
#define CTIME(st) ((st).st_ctimespec)
#else
#define MTIME(st) ((st).st_mtim)
#define CTIME(st) ((st).st_ctim)
#endif

/* A timespec in milliseconds, as node computes mtimeMs: seconds * 1e3 + nanoseconds / 1e6, in doubles. */
static double ms_of(struct timespec t) {
  return (double)t.tv_sec * 1000.0 + (double)t.tv_nsec / 1000000.0;
}

/*
 * stat() of entry i of a path table (see split_paths), the entry put after `prefix` (a folder with its
 * trailing separator, or "" for entries that are whole paths); an empty entry after a prefix is the
 * folder itself. -1 when stat() fails or the path is too long.
 */
static int stat_entry(const char *prefix, size_t plen, const char **path, size_t i, struct stat *st) {
  char buf[4096];
  const char *p = path[i];
  size_t len = (size_t)(path[i + 1] - p) - 1;
  if (plen + len >= sizeof buf) return -1;
  memcpy(buf, prefix, plen);
  memcpy(buf + plen, p, len);
  /* The folder itself: its path without the separator ("/" stays "/"). */
  size_t end = plen + len;
  if (len == 0 && plen > 1) end--;
  buf[end] = 0;
  return stat(buf, st);
}

typedef struct {
  const char **path;
  const double *size, *mtime;
  size_t from, to;
  long stale;
  volatile int *stop;
} Range;

static void *check(void *arg) {
  Range *r = (Range *)arg;
  for (size_t i = r->from; i < r->to && !*r->stop; i++) {
    struct stat st;
    if (stat_entry("", 0, r->path, i, &st) != 0 || ms_of(MTIME(st)) != r->mtime[i] || (r->size[i] >= 0 && (double)st.st_size != r->size[i])) {
      r->stale = (long)i;
      *r->stop = 1;
      break;
    }
  }
  return NULL;
}

#define MAX_THREADS 4

/* How many threads share n paths: one below 512, else one per core, at most MAX_THREADS. */
static size_t thread_count(size_t n) {
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  return n == 0 ? 0 : n < 512 ? 1 : (size_t)(cores < 1 ? 1 : cores > MAX_THREADS ? MAX_THREADS : cores);
}

enum { SPLIT_OK, SPLIT_NO_MEMORY, SPLIT_MISCOUNT };

/*
 * The n `sep`-separated paths of bytes as a table: path[i] starts entry i, path[n] is one past the end,
 * as if a separator followed the last one. NULL when n is 0; NULL with *status set when memory runs
 * out or the bytes hold another number of paths than n.
 */
static const char **split_paths(char *bytes, size_t nbytes, size_t n, char sep, int *status) {
  *status = SPLIT_OK;
  if (n == 0) return NULL;
  const char **path = malloc((n + 1) * sizeof *path);
  if (!path) {
    *status = SPLIT_NO_MEMORY;
    return NULL;
  }
  size_t count = 1;
  path[0] = bytes;
  for (size_t i = 0; i < nbytes && count <= n; i++) if (bytes[i] == sep) path[count++] = bytes + i + 1;
  /* Stopping early means more paths than entries; ending short means fewer. */
  path[n] = bytes + nbytes + 1;
  if (count != n) {
    free(path);
    *status = SPLIT_MISCOUNT;
    return NULL;
  }
  return path;
}

/* One check: the path table, its ranges and the threads working on them. */
typedef struct {
  const char **path;
  Range r[MAX_THREADS];
  pthread_t t[MAX_THREADS];
  int started[MAX_THREADS];
  size_t threads;
  volatile int stop;
  int joined;
  napi_ref refs[3]; /* the caller's paths, sizes and mtimes, kept alive while threads read them */
} Check;

/* Reads the arguments and splits the paths; NULL (with a JavaScript error thrown) when they are bad. */
static Check *prepare(napi_env env, napi_callback_info info, const char *usage) {
  size_t argc = 3;
  napi_value argv[3];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 3) {
    napi_throw_type_error(env, NULL, usage);
    return NULL;
  }
  char *bytes;
  size_t nbytes;
  if (napi_get_buffer_info(env, argv[0], (void **)&bytes, &nbytes) != napi_ok) {
    napi_throw_type_error(env, NULL, "fresh_check: paths must be a Buffer");
    return NULL;
  }
  double *arrays[2];
  size_t lengths[2];
  for (int k = 0; k < 2; k++) {
    napi_typedarray_type type;
    napi_value ab;
    size_t offset;
    if (napi_get_typedarray_info(env, argv[1 + k], &type, &lengths[k], (void **)&arrays[k], &ab, &offset) != napi_ok || type != napi_float64_array) {
      napi_throw_type_error(env, NULL, "fresh_check: sizes and mtimes must be Float64Arrays");
      return NULL;
    }
  }
  size_t n = lengths[0];
  if (lengths[1] != n) {
    napi_throw_range_error(env, NULL, "fresh_check: sizes and mtimes differ in length");
    return NULL;
  }
  Check *c = calloc(1, sizeof *c);
  if (!c) {
    napi_throw_error(env, NULL, "fresh_check: out of memory");
    return NULL;
  }
  int status;
  const char **path = split_paths(bytes, nbytes, n, '\n', &status);
  if (status != SPLIT_OK) {
    free(c);
    if (status == SPLIT_NO_MEMORY) napi_throw_error(env, NULL, "fresh_check: out of memory");
    else napi_throw_range_error(env, NULL, "fresh_check: the path list and the arrays differ in length");
    return NULL;
  }
  c->path = path;
  c->threads = thread_count(n);
  for (size_t k = 0; k < c->threads; k++) {
    c->r[k] = (Range){ path, arrays[0], arrays[1], n * k / c->threads, n * (k + 1) / c->threads, -1, &c->stop };
  }
  for (int k = 0; k < 3; k++) napi_create_reference(env, argv[k], 1, &c->refs[k]);
  return c;
}

/* Waits for the threads, runs any range no thread took, and returns the stale index (or -1). */
static long conclude(Check *c) {
  if (!c->joined) {
    for (size_t k = 0; k < c->threads; k++) {
      if (c->started[k]) pthread_join(c->t[k], NULL);
      else check(&c->r[k]);
    }
    c->joined = 1;
  }
  long stale = -1;
  for (size_t k = 0; k < c->threads && stale < 0; k++) stale = c->r[k].stale;
  return stale;
}

static void release(napi_env env, Check *c) {
  for (int k = 0; k < 3; k++) {
    if (c->refs[k]) napi_delete_reference(env, c->refs[k]);
    c->refs[k] = NULL;
  }
  free(c->path);
  c->path = NULL;
}

/* firstStale(paths, sizes, mtimes): the check, done before returning (range 0 on this thread). */
static napi_value first_stale(napi_env env, napi_callback_info info) {
  Check *c = prepare(env, info, "fresh_check: firstStale(paths, sizes, mtimes)");
  if (!c) return NULL;
  for (size_t k = 1; k < c->threads; k++) if (pthread_create(&c->t[k], NULL, check, &c->r[k]) == 0) c->started[k] = 1;
  long stale = conclude(c);
  release(env, c);
  free(c);
  napi_value result;
  napi_create_int64(env, stale, &result);
  return result;
}

static void finalize_check(napi_env env, void *data, void *hint) {
  Check *c = (Check *)data;
  c->stop = 1;
  conclude(c);
  release(env, c);
  free(c);
}

/* start(paths, sizes, mtimes): the check begins on threads of its own; finish(handle) waits for it. */
static napi_value start(napi_env env, napi_callback_info info) {
  Check *c = prepare(env, info, "fresh_check: start(paths, sizes, mtimes)");
  if (!c) return NULL;
  for (size_t k = 0; k < c->threads; k++) if (pthread_create(&c->t[k], NULL, check, &c->r[k]) == 0) c->started[k] = 1;
  napi_value handle;
  if (napi_create_external(env, c, finalize_check, NULL, &handle) != napi_ok) {
    finalize_check(env, c, NULL);
    napi_throw_error(env, NULL, "fresh_check: cannot make a handle");
    return NULL;
  }
  return handle;
}

static napi_value finish(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1], result;
  void *data = NULL;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 1 || napi_get_value_external(env, argv[0], &data) != napi_ok || !data) {
    napi_throw_type_error(env, NULL, "fresh_check: finish(handle from start)");
    return NULL;
  }
  napi_create_int64(env, conclude((Check *)data), &result);
  return result;
}

/*
 * statAll(paths, count, root) -> Float64Array of count * 4: for each path its size (-1 for a folder,
 * -2 when stat() fails, -3 for anything else that is not a regular file), mtime and ctime in
 * milliseconds (as node computes mtimeMs) and inode number. The source stage's snapshot check: every
 * folder and Go file a walk saw, stat'ed on a few threads. paths: a Buffer of the paths relative to
 * root, '\0'-separated, the empty path being root itself; root: a string, absolute.
 */
typedef struct {
  const char *prefix;
  size_t plen;
  const char **path;
  double *out;
  size_t from, to;
} StatRange;

static void *stat_range(void *arg) {
  StatRange *r = (StatRange *)arg;
  for (size_t i = r->from; i < r->to; i++) {
    double *o = r->out + 4 * i;
    struct stat st;
    if (stat_entry(r->prefix, r->plen, r->path, i, &st) != 0) { o[0] = -2; o[1] = o[2] = o[3] = 0; continue; }
    o[0] = S_ISDIR(st.st_mode) ? -1 : S_ISREG(st.st_mode) ? (double)st.st_size : -3;
    o[1] = ms_of(MTIME(st));
    o[2] = ms_of(CTIME(st));
    o[3] = (double)st.st_ino;
  }
  return NULL;
}

static napi_value stat_all(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  char *bytes;
  size_t nbytes;
  int64_t count;
  /* The root and a separator after it. */
  char prefix[4096];
  size_t plen = 0;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 3 ||
      napi_get_buffer_info(env, argv[0], (void **)&bytes, &nbytes) != napi_ok ||
      napi_get_value_int64(env, argv[1], &count) != napi_ok || count < 0 ||
      napi_get_value_string_utf8(env, argv[2], prefix, sizeof prefix - 1, &plen) != napi_ok || plen == 0 || plen >= sizeof prefix - 2) {
    napi_throw_type_error(env, NULL, "fresh_check: statAll(paths: Buffer, count: number, root: string)");
    return NULL;
  }
  if (prefix[plen - 1] != '/') prefix[plen++] = '/';
  prefix[plen] = 0;
  size_t n = (size_t)count;
  napi_value ab, result;
  void *data;
  if (napi_create_arraybuffer(env, n * 4 * sizeof(double), &data, &ab) != napi_ok) return NULL;
  int status;
  const char **path = split_paths(bytes, nbytes, n, '\0', &status);
  if (status != SPLIT_OK) {
    if (status == SPLIT_NO_MEMORY) napi_throw_error(env, NULL, "fresh_check: out of memory");
    else napi_throw_range_error(env, NULL, "fresh_check: statAll's count is not the number of paths");
    return NULL;
  }
  size_t threads = thread_count(n);
  StatRange r[MAX_THREADS];
  pthread_t t[MAX_THREADS];
  int started[MAX_THREADS] = { 0 };
  for (size_t k = 0; k < threads; k++) {
    r[k] = (StatRange){ prefix, plen, path, (double *)data, n * k / threads, n * (k + 1) / threads };
    if (k > 0 && pthread_create(&t[k], NULL, stat_range, &r[k]) == 0) started[k] = 1;
  }
  if (threads > 0) stat_range(&r[0]);
  for (size_t k = 1; k < threads; k++) {
    if (started[k]) pthread_join(t[k], NULL);
    else stat_range(&r[k]);
  }
  free(path);
  napi_create_typedarray(env, napi_float64_array, n * 4, ab, 0, &result);
  return result;
}

NAPI_MODULE_INIT() {
  napi_property_descriptor props[] = {
    { "firstStale", NULL, first_stale, NULL, NULL, NULL, napi_default, NULL },
    { "start", NULL, start, NULL, NULL, NULL, napi_default, NULL },
    { "finish", NULL, finish, NULL, NULL, NULL, napi_default, NULL },
    { "statAll", NULL, stat_all, NULL, NULL, NULL, napi_default, NULL },
  };
  napi_define_properties(env, exports, sizeof props / sizeof props[0], props);
  return exports;
}
