/**
 * Reads the `@go` tags of the reference ports with ts-morph. Only syntax is needed, so the project
 * skips type checking and dependency resolution; one Project serves the whole call.
 */
import { readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { Node, Project, ts, type JSDoc, type SourceFile } from 'ts-morph';
import type { PortKind, PortMapping } from './types.js';

const PORTS_DIR = 'reference-impl';

/** Every tagged declaration of every port under `root`/reference-impl, test files excluded. */
export function readPortMappings(root: string): PortMapping[] {
  const files = listPortFiles(join(root, PORTS_DIR));
  const project = new Project({
    skipAddingFilesFromTsConfig: true,
    skipFileDependencyResolution: true,
    skipLoadingLibFiles: true,
    compilerOptions: { noLib: true },
  });
  const out: PortMapping[] = [];
  for (const path of files) {
    const sf = project.addSourceFileAtPath(path);
    out.push(...mappingsOfFile(sf, toPosix(relative(root, path))));
  }
  return out.sort(compareMappings);
}

function listPortFiles(dir: string): string[] {
  const found: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') && !e.name.endsWith('.d.ts')) found.push(p);
    }
  };
  walk(dir);
  return found;
}

function mappingsOfFile(sf: SourceFile, file: string): PortMapping[] {
  const manager = file.split('/')[1];
  const out: PortMapping[] = [];
  const base = { manager, file };
  const statements = sf.getStatements();

  statements.forEach((st, index) => {
    if (!Node.isJSDocable(st)) return;
    const { own, header } = splitDocs(st, index === 0);
    if (header.length > 0) {
      const ids = goIdsOf(header);
      if (ids.length > 0) {
        out.push({
          ...base,
          exportName: sf.getBaseNameWithoutExtension(),
          kind: 'module',
          exported: true,
          line: 1,
          endLine: lastLine(sf),
          goIds: ids,
          ...simplifiedOf(header),
        });
      }
    }
    const exported = Node.isExportable(st) ? st.isExported() : false;
    const entries = declarationsOf(st);
    for (const { name, kind, node } of entries) {
      const docs = entries.length === 1 ? own : [...own, ...ownDocs(node)];
      const ids = unique([...goIdsOf(docs), ...nestedGoIds(node)]);
      if (ids.length === 0) continue;
      out.push({ ...base, exportName: name, kind, exported, line: node.getStartLineNumber(), endLine: node.getEndLineNumber(), goIds: ids, ...simplifiedOf(docs) });
    }
    if (Node.isClassDeclaration(st)) {
      const className = st.getName() ?? 'default';
      for (const member of [...st.getConstructors(), ...st.getMethods(), ...st.getGetAccessors(), ...st.getSetAccessors()]) {
        const docs = member.getJsDocs();
        const ids = unique([...goIdsOf(docs), ...nestedGoIds(member)]);
        if (ids.length === 0) continue;
        const memberName = Node.isConstructorDeclaration(member) ? 'constructor' : member.getName();
        out.push({
          ...base,
          exportName: `${className}.${memberName}`,
          kind: 'method',
          exported: exported && !isPrivate(member),
          line: member.getStartLineNumber(),
          endLine: member.getEndLineNumber(),
          goIds: ids,
          ...simplifiedOf(docs),
        });
      }
    }
  });
  return out;
}

interface Declared {
  name: string;
  kind: PortKind;
  node: Node;
}

function declarationsOf(st: Node): Declared[] {
  if (Node.isFunctionDeclaration(st)) return [{ name: st.getName() ?? 'default', kind: 'function', node: st }];
  if (Node.isClassDeclaration(st)) return [{ name: st.getName() ?? 'default', kind: 'class', node: st }];
  if (Node.isInterfaceDeclaration(st)) return [{ name: st.getName(), kind: 'interface', node: st }];
  if (Node.isTypeAliasDeclaration(st)) return [{ name: st.getName(), kind: 'type', node: st }];
  if (Node.isEnumDeclaration(st)) return [{ name: st.getName(), kind: 'enum', node: st }];
  if (Node.isVariableStatement(st)) {
    const decls = st.getDeclarations();
    // One declaration: the statement is the unit (it holds the `export const` keyword and the doc).
    if (decls.length === 1) return [{ name: decls[0].getName(), kind: 'const', node: st }];
    return decls.map((d) => ({ name: d.getName(), kind: 'const' as const, node: d }));
  }
  return [];
}

/**
 * A JSDoc at the very top of a file that is followed by a blank line describes the file, not the
 * first statement (TypeScript attaches it to that statement anyway).
 */
function splitDocs(st: Node & { getJsDocs(): JSDoc[] }, first: boolean): { own: JSDoc[]; header: JSDoc[] } {
  const docs = st.getJsDocs();
  if (!first || docs.length === 0) return { own: docs, header: [] };
  const text = st.getSourceFile().getFullText();
  const firstDoc = docs[0];
  const isTop = text.slice(0, firstDoc.getPos()).trim() === '';
  const next = docs[1]?.getPos() ?? st.getStart();
  const detached = /\n[ \t]*\n/.test(text.slice(firstDoc.getEnd(), next));
  if (isTop && detached) return { own: docs.slice(1), header: [firstDoc] };
  return { own: docs, header: [] };
}

function ownDocs(node: Node): JSDoc[] {
  return Node.isJSDocable(node) ? node.getJsDocs() : [];
}

/**
 * `@go` IDs in JSDoc blocks on anything declared inside `node` (methods, fields, local helpers).
 * Walks compiler nodes directly: wrapping every descendant in ts-morph nodes is several times slower.
 */
function nestedGoIds(node: Node): string[] {
  const ids: string[] = [];
  const visit = (n: ts.Node) => {
    for (const doc of (n as { jsDoc?: ts.JSDoc[] }).jsDoc ?? []) {
      for (const tag of doc.tags ?? []) {
        if (tag.tagName.text !== 'go') continue;
        const id = (ts.getTextOfJSDocComment(tag.comment) ?? '').trim().split(/\s+/)[0];
        if (id) ids.push(id);
      }
    }
    ts.forEachChild(n, visit);
  };
  ts.forEachChild(node.compilerNode, visit);
  return ids;
}

function goIdsOf(docs: JSDoc[]): string[] {
  const ids: string[] = [];
  for (const doc of docs) {
    for (const tag of doc.getTags()) {
      if (tag.getTagName() !== 'go') continue;
      const id = (tag.getCommentText() ?? '').trim().split(/\s+/)[0];
      if (id) ids.push(id);
    }
  }
  return unique(ids);
}

/** The `Simplified:` note, continued over following lines until a tag or a blank line. */
function simplifiedOf(docs: JSDoc[]): { simplified?: string } {
  const notes: string[] = [];
  for (const doc of docs) {
    const lines = doc
      .getText()
      .replace(/^\/\*\*/, '')
      .replace(/\*\/$/, '')
      .split('\n')
      .map((l) => l.replace(/^\s*\*\s?/, '').trim());
    for (let i = 0; i < lines.length; i++) {
      const at = lines[i].indexOf('Simplified:');
      if (at < 0) continue;
      const parts = [lines[i].slice(at + 'Simplified:'.length).trim()];
      for (let j = i + 1; j < lines.length && lines[j] !== '' && !lines[j].startsWith('@'); j++) parts.push(lines[j]);
      // A one-line doc may carry a tag after the note on the same line.
      notes.push(parts.join(' ').replace(/\s@\w+\s.*$/, '').trim());
    }
  }
  return notes.length > 0 ? { simplified: notes.join(' ') } : {};
}

/** The last line with text on it (a trailing newline does not count). */
function lastLine(sf: SourceFile): number {
  return sf.getFullText().trimEnd().split('\n').length;
}

function isPrivate(member: Node): boolean {
  return Node.isModifierable(member) && (member.hasModifier('private') || member.hasModifier('protected'));
}

function unique(xs: string[]): string[] {
  return [...new Set(xs)];
}

function toPosix(p: string): string {
  return p.split(sep).join('/');
}

function compareMappings(a: PortMapping, b: PortMapping): number {
  return cmp(a.manager, b.manager) || cmp(a.file, b.file) || a.line - b.line || cmp(a.exportName, b.exportName);
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
