/**
 * Where each thing lives in the written site. Page names are derived from Go import paths and file
 * paths, so links can be computed anywhere (server side, and in the data the client reads).
 */
import { createHash } from 'node:crypto';

/** A file-name-safe, readable and collision-free slug for a Go import path or a file path. */
export function slug(path: string): string {
  const readable = path.replace(/^k8s\.io\/kubernetes\//, '').replace(/[^A-Za-z0-9._-]+/g, '_').slice(-80);
  // Two paths may map to the same readable form (e.g. `a/b_c` and `a_b/c`): a short hash keeps them apart.
  const h = createHash('sha1').update(path).digest('hex').slice(0, 6);
  return `${readable}-${h}`;
}

export function packagePage(pkg: string): string {
  return `pkg/${slug(pkg)}.html`;
}

/** The data file of a Go file: its highlighted source and its symbols' records. */
export function fileData(file: string): string {
  return `data/f/${slug(file)}.js`;
}

/** The symbol's name inside its package, e.g. `(*Kubelet).syncLoop`. */
export function localName(id: string, pkg: string): string {
  return id.startsWith(pkg + '.') ? id.slice(pkg.length + 1) : id.slice(id.lastIndexOf('/') + 1);
}

export function symbolHref(id: string, pkg: string): string {
  return `${packagePage(pkg)}#${encodeURIComponent(localName(id, pkg))}`;
}

export function topicPage(id: string, lang: string): string {
  return lang === 'en' ? `topic/${id}.html` : `topic/${id}.${lang}.html`;
}

/** A link from a page at `depth` folders below the site root. */
export function rel(depth: number, target: string): string {
  return '../'.repeat(depth) + target;
}

export function githubUrl(version: string, file: string, line: number, endLine?: number): string {
  const range = endLine && endLine > line ? `#L${line}-L${endLine}` : `#L${line}`;
  return `https://github.com/kubernetes/kubernetes/blob/${version}/${file}${range}`;
}

/** The last name in an ID: `M` of `pkg.(*T).M`, `func1` of `pkg.f.func1`; type arguments dropped. */
export function lastName(id: string): string {
  const plain = id.replace(/\[[^\]]*\]/g, '');
  const m = /([^./()*]+)$/.exec(plain);
  return m ? m[1] : plain;
}
