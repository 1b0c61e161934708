import type { BuildContext } from '../model/index.js';

// Name lists as known to go/build in Go 1.21; a file suffix only constrains when it names one of these.
export const KNOWN_OS: ReadonlySet<string> = new Set([
  'aix', 'android', 'darwin', 'dragonfly', 'freebsd', 'hurd', 'illumos', 'ios', 'js', 'linux', 'nacl',
  'netbsd', 'openbsd', 'plan9', 'solaris', 'wasip1', 'windows', 'zos',
]);

export const UNIX_OS: ReadonlySet<string> = new Set([
  'aix', 'android', 'darwin', 'dragonfly', 'freebsd', 'hurd', 'illumos', 'ios', 'linux', 'netbsd',
  'openbsd', 'solaris',
]);

export const KNOWN_ARCH: ReadonlySet<string> = new Set([
  '386', 'amd64', 'amd64p32', 'arm', 'armbe', 'arm64', 'arm64be', 'loong64', 'mips', 'mipsle', 'mips64',
  'mips64le', 'mips64p32', 'mips64p32le', 'ppc', 'ppc64', 'ppc64le', 'riscv', 'riscv64', 's390', 's390x',
  'sparc', 'sparc64', 'wasm',
]);

/** Release tags a Go 1.21 toolchain satisfies: go1.1 … go1.21. */
export const RELEASE_TAGS: ReadonlySet<string> = new Set(Array.from({ length: 21 }, (_, i) => `go1.${i + 1}`));

export function defaultBuildContext(over: Partial<BuildContext> = {}): BuildContext {
  return {
    goos: over.goos ?? 'linux',
    goarch: over.goarch ?? 'amd64',
    tags: [...(over.tags ?? [])],
    cgo: over.cgo ?? true,
    includeTests: over.includeTests ?? false,
  };
}

export function sameContext(a: BuildContext, b: BuildContext): boolean {
  return a.goos === b.goos && a.goarch === b.goarch && a.cgo === b.cgo && a.includeTests === b.includeTests &&
    a.tags.length === b.tags.length && a.tags.every((t, i) => t === b.tags[i]);
}

/** Whether one build tag is satisfied, with the same implied tags as go/build (android⇒linux, …). */
export function matchTag(ctx: BuildContext, tag: string): boolean {
  if (tag === 'cgo') return ctx.cgo;
  if (tag === ctx.goos || tag === ctx.goarch || tag === 'gc') return true;
  if (ctx.goos === 'android' && tag === 'linux') return true;
  if (ctx.goos === 'illumos' && tag === 'solaris') return true;
  if (ctx.goos === 'ios' && tag === 'darwin') return true;
  if (tag === 'unix') return UNIX_OS.has(ctx.goos);
  return RELEASE_TAGS.has(tag) || ctx.tags.includes(tag);
}

/**
 * The file-name part of go/build's selection: `x_GOOS.go`, `x_GOARCH.go`, `x_GOOS_GOARCH.go`, each
 * optionally followed by `_test`. Whatever precedes the first underscore never counts, so `linux.go`
 * is unconstrained.
 */
export function matchFileName(name: string, ctx: BuildContext): boolean {
  const dot = name.indexOf('.');
  let stem = dot >= 0 ? name.slice(0, dot) : name;
  const us = stem.indexOf('_');
  if (us < 0) return true;
  stem = stem.slice(us);
  const parts = stem.split('_');
  if (parts[parts.length - 1] === 'test') parts.pop();
  const n = parts.length;
  const last = parts[n - 1] ?? '';
  const prev = parts[n - 2] ?? '';
  if (n >= 2 && KNOWN_OS.has(prev) && KNOWN_ARCH.has(last)) return matchTag(ctx, prev) && matchTag(ctx, last);
  if (n >= 1 && (KNOWN_OS.has(last) || KNOWN_ARCH.has(last))) return matchTag(ctx, last);
  return true;
}
