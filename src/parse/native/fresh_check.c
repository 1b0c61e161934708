/*
 * fresh_check: the query store's freshness test in C. A one-shot query must know that no Go file in
 * scope changed since the index was built, which is one stat() per file and package folder (about
 * 6,000 on the kubelet's scope). Through fs.statSync each costs a Stats object and four Dates; here it
 * is the system call alone, spread over a few threads.
 *
 * firstStale(paths, sizes, mtimes) -> index of a path whose size or mtime differs (or that is gone),
 * or -1 when all match. paths: the manifest's '\n'-separated absolute paths (a Buffer); sizes and
 * mtimes: Float64Arrays, size -1 for a folder (its size is not compared). mtime is compared as
 * node computes mtimeMs: seconds * 1e3 + nanoseconds / 1e6, in doubles.
 */
#include <node_api.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The modification time as a timespec: st_mtimespec on macOS, st_mtim elsewhere (POSIX 2008). */
#ifdef __APPLE__
#define MTIME(st) ((st).st_mtimespec)
#else
#define MTIME(st) ((st).st_mtim)
#endif

typedef struct {
  const char **path;
  const double *size, *mtime;
  size_t from, to;
  long stale;
  volatile int *stop;
} Range;

static void *check(void *arg) {
  Range *r = (Range *)arg;
  char buf[4096];
  for (size_t i = r->from; i < r->to && !*r->stop; i++) {
    const char *p = r->path[i];
    size_t len = (size_t)(r->path[i + 1] - p) - 1;
    if (len >= sizeof buf) { r->stale = (long)i; *r->stop = 1; break; }
    memcpy(buf, p, len);
    buf[len] = 0;
    struct stat st;
    if (stat(buf, &st) != 0) { r->stale = (long)i; *r->stop = 1; break; }
    double ms = (double)MTIME(st).tv_sec * 1000.0 + (double)MTIME(st).tv_nsec / 1000000.0;
    if (ms != r->mtime[i] || (r->size[i] >= 0 && (double)st.st_size != r->size[i])) { r->stale = (long)i; *r->stop = 1; break; }
  }
  return NULL;
}

#define MAX_THREADS 4

static napi_value first_stale(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3], result;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 3) {
    napi_throw_type_error(env, NULL, "fresh_check: firstStale(paths, sizes, mtimes)");
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
  long stale = -1;
  if (n > 0) {
    /* path[i] starts entry i; path[n] is one past the end, as if a separator followed the last one. */
    const char **path = malloc((n + 1) * sizeof *path);
    if (!path) { napi_throw_error(env, NULL, "fresh_check: out of memory"); return NULL; }
    size_t count = 1;
    path[0] = bytes;
    for (size_t i = 0; i < nbytes && count <= n; i++) if (bytes[i] == '\n') path[count++] = bytes + i + 1;
    /* Stopping early means more paths than entries; ending short means fewer. */
    path[n] = bytes + nbytes + 1;
    if (count != n) {
      free(path);
      napi_throw_range_error(env, NULL, "fresh_check: the path list and the arrays differ in length");
      return NULL;
    }
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    size_t threads = n < 512 ? 1 : (size_t)(cores < 1 ? 1 : cores > MAX_THREADS ? MAX_THREADS : cores);
    volatile int stop = 0;
    Range r[MAX_THREADS];
    pthread_t t[MAX_THREADS];
    int started[MAX_THREADS] = {0};
    for (size_t k = 0; k < threads; k++) {
      r[k] = (Range){ path, arrays[0], arrays[1], n * k / threads, n * (k + 1) / threads, -1, &stop };
      /* Range 0 runs on this thread; the others on their own (or here, if a thread cannot start). */
      if (k > 0 && pthread_create(&t[k], NULL, check, &r[k]) == 0) started[k] = 1;
    }
    check(&r[0]);
    for (size_t k = 1; k < threads; k++) {
      if (started[k]) pthread_join(t[k], NULL);
      else check(&r[k]);
    }
    for (size_t k = 0; k < threads && stale < 0; k++) stale = r[k].stale;
    free(path);
  }
  napi_create_int64(env, stale, &result);
  return result;
}

NAPI_MODULE_INIT() {
  napi_value fn;
  napi_create_function(env, "firstStale", NAPI_AUTO_LENGTH, first_stale, NULL, &fn);
  napi_set_named_property(env, exports, "firstStale", fn);
  return exports;
}
