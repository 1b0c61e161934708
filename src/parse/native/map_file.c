/*
 * map_file: a whole file as a Buffer over a private memory map of it, for the index's large files
 * (the graph, the query store, the facts pack: tens of megabytes each).
 *
 * fs.readFileSync copies a file into memory the process has never touched, and the first touch of a
 * page is the expensive part of it: on the 2-core VM we measure on, reading the 58 MB query store took
 * 200-220 ms, of which the copy out of the page cache was about 10 ms. A map shares the page cache's
 * pages: the same bytes are there in about 11 ms, faulted in as they are read.
 *
 * mapFile(path) -> a Buffer of the file's bytes, or undefined when the file cannot be opened or mapped
 * (the caller then reads it the usual way, which reports the error). The map is private and writable:
 * a write into the Buffer changes this process's copy of that page, never the file. It is unmapped
 * when the Buffer is collected.
 *
 * The index never changes a file it may have mapped: it writes a new file and renames it over the old
 * one, and the old inode lives on as long as a map holds it. A file cut shorter under a map (by
 * something else) would fault the process when a lost page is read.
 *
 * mapRange(fd, offset, length) -> a Buffer of the `length` bytes at `offset` of the open file `fd`
 * (fewer at the file's end), over a private map of the pages that hold them, or undefined when they
 * cannot be mapped. A query maps the sections of the query store it reads one by one: V8 counts a
 * map's bytes as external memory, and past 64 MB of it starts a full collection (the whole store is
 * 69 MB; a query reads a few of its sections).
 *
 * unshared(path) -> true when no process has the file open or mapped, false otherwise (or when it
 * cannot tell). The kernel grants a write lease (fcntl F_SETLEASE) only on a file that nobody else
 * holds open, and a map holds its file open until it is unmapped; the lease is given back at once.
 * The watch writes its large files into the copy it wrote the time before, in place, only when this
 * says no reader can see that copy change (see index/atomic.ts).
 */
#define _GNU_SOURCE
#include <node_api.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static void unmap(napi_env env, void *data, void *hint) {
  (void)env;
  munmap(data, (size_t)(uintptr_t)hint);
}

static napi_value map_file(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 1) return NULL;
  char path[4096];
  size_t len = 0;
  if (napi_get_value_string_utf8(env, argv[0], path, sizeof path, &len) != napi_ok || len >= sizeof path - 1) return NULL;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return NULL;
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0 || (uint64_t)st.st_size > SIZE_MAX) {
    /* An empty file cannot be mapped; it and anything odd are left to the ordinary read. */
    close(fd);
    return NULL;
  }
  size_t n = (size_t)st.st_size;
  void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
  close(fd);
  if (p == MAP_FAILED) return NULL;
  napi_value out;
  if (napi_create_external_buffer(env, n, p, unmap, (void *)(uintptr_t)n, &out) != napi_ok) {
    munmap(p, n);
    return NULL;
  }
  return out;
}

/* What a range's finalizer unmaps: the map's first page and its length. */
struct range_map {
  void *base;
  size_t length;
};

static void unmap_range(napi_env env, void *data, void *hint) {
  (void)env;
  (void)data;
  struct range_map *m = hint;
  munmap(m->base, m->length);
  free(m);
}

static napi_value map_range(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  int32_t fd = -1;
  int64_t offset = 0, length = 0;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 3 ||
      napi_get_value_int32(env, argv[0], &fd) != napi_ok || napi_get_value_int64(env, argv[1], &offset) != napi_ok ||
      napi_get_value_int64(env, argv[2], &length) != napi_ok || fd < 0 || offset < 0 || length <= 0)
    return NULL;
  struct stat st;
  /* Bytes past the file's end are no page of it (a read there would fault): the range stops at the end. */
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || offset >= st.st_size) return NULL;
  if (length > st.st_size - offset) length = st.st_size - offset;
  const int64_t page = sysconf(_SC_PAGESIZE);
  const int64_t from = offset - offset % page;
  const size_t span = (size_t)(offset - from + length);
  void *p = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, (off_t)from);
  if (p == MAP_FAILED) return NULL;
  struct range_map *m = malloc(sizeof *m);
  napi_value out;
  if (!m) {
    munmap(p, span);
    return NULL;
  }
  m->base = p;
  m->length = span;
  if (napi_create_external_buffer(env, (size_t)length, (uint8_t *)p + (offset - from), unmap_range, m, &out) != napi_ok) {
    munmap(p, span);
    free(m);
    return NULL;
  }
  return out;
}

static napi_value unshared(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  bool ok = false;
  char path[4096];
  size_t len = 0;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) == napi_ok && argc >= 1 &&
      napi_get_value_string_utf8(env, argv[0], path, sizeof path, &len) == napi_ok && len < sizeof path - 1) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
      ok = fcntl(fd, F_SETLEASE, F_WRLCK) == 0;
      if (ok) fcntl(fd, F_SETLEASE, F_UNLCK);
      close(fd);
    }
  }
  napi_value out;
  napi_get_boolean(env, ok, &out);
  return out;
}

NAPI_MODULE_INIT() {
  napi_property_descriptor props[] = {
    { "mapFile", NULL, map_file, NULL, NULL, NULL, napi_default, NULL },
    { "mapRange", NULL, map_range, NULL, NULL, NULL, napi_default, NULL },
    { "unshared", NULL, unshared, NULL, NULL, NULL, napi_default, NULL },
  };
  napi_define_properties(env, exports, sizeof props / sizeof props[0], props);
  return exports;
}
