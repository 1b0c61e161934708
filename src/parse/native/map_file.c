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
#include <string.h>
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

/* The byte with its ASCII capital letters lowered, every other byte as it is. */
static inline uint8_t fold(uint8_t c) {
  return c >= 'A' && c <= 'Z' ? (uint8_t)(c | 0x20) : c;
}

#define ONES 0x0101010101010101ULL
#define HIGHS 0x8080808080808080ULL

/* The bytes of an 8-byte word `w` that read as `want` once those letters are folded (`mask`): the high
   bit of each such byte set; the lowest bit set is exact (a borrow only marks bytes above a match). */
static inline uint64_t matches(uint64_t w, uint64_t mask, uint64_t want) {
  uint64_t x = (w | mask) ^ want;
  return (x - ONES) & ~x & HIGHS;
}

/*
 * foldedIndexOf(haystack, needle, from) -> the first index at or after `from` where `haystack`, its
 * ASCII capitals lowered, holds `needle` (bytes with no ASCII capital), or -1. Eight places at a time
 * are looked at for the needle's first two bytes (its first one when it is one byte long): for a
 * lower-case letter, a byte with bit 5 set equals it exactly when the byte is that letter or its
 * capital; for any other byte, the byte itself. Each place found is then compared byte by byte.
 * Nothing is copied: the haystack may be a map of a file. (One byte alone stopped the scan at most
 * words of JSON for a common letter such as e.)
 */
static napi_value folded_index_of(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  napi_value out;
  uint8_t *h = NULL, *n = NULL;
  size_t hn = 0, nn = 0;
  int64_t from = 0;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 3 ||
      napi_get_buffer_info(env, argv[0], (void **)&h, &hn) != napi_ok ||
      napi_get_buffer_info(env, argv[1], (void **)&n, &nn) != napi_ok ||
      napi_get_value_int64(env, argv[2], &from) != napi_ok) {
    napi_throw_type_error(env, NULL, "foldedIndexOf(haystack: Buffer, needle: Buffer, from: number)");
    return NULL;
  }
  int64_t found = -1;
  if (from < 0) from = 0;
  if (nn == 0) found = (size_t)from <= hn ? from : -1;
  else if (nn <= hn && (size_t)from <= hn - nn) {
    const int pair = nn >= 2;
    const uint8_t b0 = n[0], b1 = pair ? n[1] : 0;
    const uint64_t m0 = b0 >= 'a' && b0 <= 'z' ? 0x20 * ONES : 0, w0 = b0 * ONES;
    const uint64_t m1 = b1 >= 'a' && b1 <= 'z' ? 0x20 * ONES : 0, w1 = b1 * ONES;
    const size_t last = hn - nn;
    size_t i = (size_t)from;
    while (i <= last && found < 0) {
      /* Eight places at once while the words read lie within the haystack. */
      if (i + 8 + pair <= hn && i + 7 <= last) {
        uint64_t a, z;
        memcpy(&a, h + i, 8);
        z = matches(a, m0, w0);
        if (pair && z) {
          uint64_t b;
          memcpy(&b, h + i + 1, 8);
          z &= matches(b, m1, w1);
        }
        if (z == 0) {
          i += 8;
          continue;
        }
        i += (size_t)(__builtin_ctzll(z) >> 3);
      }
      size_t j = 0;
      while (j < nn && fold(h[i + j]) == n[j]) j++;
      if (j == nn) found = (int64_t)i;
      else i++;
    }
  }
  napi_create_int64(env, found, &out);
  return out;
}

NAPI_MODULE_INIT() {
  napi_property_descriptor props[] = {
    { "mapFile", NULL, map_file, NULL, NULL, NULL, napi_default, NULL },
    { "unshared", NULL, unshared, NULL, NULL, NULL, napi_default, NULL },
    { "foldedIndexOf", NULL, folded_index_of, NULL, NULL, NULL, napi_default, NULL },
  };
  napi_define_properties(env, exports, sizeof props / sizeof props[0], props);
  return exports;
}
