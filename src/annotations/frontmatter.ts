/**
 * The `---` block at the top of a topic. remark-frontmatter is not used: the block is cut out here and
 * replaced by as many empty lines, so remark's positions stay the file's own line numbers.
 */
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node as YamlNode } from 'yaml';
import type { Diagnostic } from '../model/index.js';
import { distance } from '../graph/lookup.js';

export interface FrontMatter {
  id?: string;
  title?: string;
  component?: string;
  version?: string;
  summary?: string;
  entry?: { symbol: string; line: number; column: number }[];
  lang?: string;
  order?: number;
  translationOf?: string;
  /** Line of each field's key, for diagnostics. */
  lines: Record<string, number>;
}

export interface Split {
  /** The YAML text, or undefined when the file has no usable front matter. */
  yaml?: string;
  /** File line of the YAML's first line. */
  yamlLine: number;
  /** The Markdown with the front matter blanked out (same line count as the file). */
  body: string;
}

const FIELDS = ['id', 'title', 'component', 'version', 'summary', 'entry', 'lang', 'order', 'translation-of'];
const REQUIRED = ['id', 'title', 'component', 'version', 'summary', 'entry', 'lang', 'order'];
const FIX = 'a topic starts with a `---` line, then the YAML fields (id, title, component, version, summary, entry, lang, order), then a closing `---` line';

export function splitFrontMatter(text: string, file: string, diagnostics: Diagnostic[]): Split {
  const src = text.startsWith('\ufeff') ? text.slice(1) : text;
  const lines = src.split('\n');
  if (!/^---\s*$/.test(lines[0] ?? '')) {
    diagnostics.push({ severity: 'error', code: 'front-matter-missing', file, line: 1, message: `missing front matter: ${FIX}` });
    return { yamlLine: 1, body: src };
  }
  const close = lines.findIndex((l, i) => i > 0 && /^(---|\.\.\.)\s*$/.test(l));
  if (close < 0) {
    diagnostics.push({ severity: 'error', code: 'front-matter-unclosed', file, line: 1, message: `front matter is not closed: add a \`---\` line after the last field (${FIX})` });
    return { yamlLine: 2, body: '\n'.repeat(lines.length - 1) };
  }
  return {
    yaml: lines.slice(1, close).join('\n'),
    yamlLine: 2,
    body: '\n'.repeat(close + 1) + lines.slice(close + 1).join('\n'),
  };
}

export function parseFrontMatter(split: Split, file: string, diagnostics: Diagnostic[]): FrontMatter | undefined {
  if (split.yaml === undefined) return undefined;
  const counter = new LineCounter();
  const doc = parseDocument(split.yaml, { lineCounter: counter, prettyErrors: false, uniqueKeys: true });
  const lineAt = (offset: number | undefined) => (offset === undefined ? split.yamlLine : counter.linePos(offset).line + split.yamlLine - 1);
  const colAt = (offset: number | undefined) => (offset === undefined ? 1 : counter.linePos(offset).col);
  if (doc.errors.length) {
    for (const e of doc.errors) {
      const msg = e.message.split('\n')[0];
      diagnostics.push({ severity: 'error', code: 'front-matter-yaml', file, line: lineAt(e.pos[0]), message: `front matter is not valid YAML: ${msg}; fix the YAML between the two \`---\` lines` });
    }
    return undefined;
  }
  const root = doc.contents;
  if (!isMap(root)) {
    diagnostics.push({ severity: 'error', code: 'front-matter-yaml', file, line: split.yamlLine, message: `front matter must be a YAML mapping of fields (${REQUIRED.join(', ')})` });
    return undefined;
  }
  const fm: FrontMatter = { lines: {} };
  const problem = (line: number, message: string, code = 'front-matter-field') => diagnostics.push({ severity: 'error', code, file, line, message });
  for (const pair of root.items) {
    const keyNode = pair.key as YamlNode | null;
    const key = isScalar(keyNode) ? String(keyNode.value) : String(keyNode);
    const line = lineAt(keyNode?.range?.[0]);
    fm.lines[key] = line;
    const value = pair.value as YamlNode | null;
    if (!FIELDS.includes(key)) {
      const near = FIELDS.filter((f) => distance(f, key) <= 3).sort((a, b) => distance(a, key) - distance(b, key));
      problem(line, `unknown front matter field '${key}'${near.length ? `: did you mean '${near[0]}'?` : ''} (allowed: ${FIELDS.join(', ')})`, 'front-matter-unknown');
      continue;
    }
    if (key === 'entry') {
      if (!isSeq(value)) {
        problem(line, "'entry' must be a YAML list of symbols, one `- pkg.Func` per line");
        continue;
      }
      fm.entry = [];
      for (const item of value.items as (YamlNode | null)[]) {
        const v = isScalar(item) ? item.value : undefined;
        const at = lineAt(item?.range?.[0]);
        if (typeof v !== 'string' || v.trim() === '') {
          problem(at, "each 'entry' item must be a symbol such as `pleg.(*GenericPLEG).Start`");
          continue;
        }
        fm.entry.push({ symbol: v.trim().replace(/^@/, ''), line: at, column: colAt(item?.range?.[0]) });
      }
      continue;
    }
    const v = isScalar(value) ? value.value : undefined;
    if (key === 'order') {
      if (typeof v !== 'number' || !Number.isInteger(v)) problem(line, "'order' must be an integer such as 30 (the topic's place in the reading plan)");
      else fm.order = v;
      continue;
    }
    if (typeof v !== 'string' && typeof v !== 'number') {
      problem(line, `'${key}' must be a single line of text`);
      continue;
    }
    const s = String(v).trim();
    if (key === 'translation-of') fm.translationOf = s;
    else (fm as unknown as Record<string, string>)[key] = s;
  }
  for (const key of REQUIRED) {
    if (!(key in fm.lines)) problem(split.yamlLine, `missing required front matter field '${key}'`, 'front-matter-required');
  }
  return fm;
}

/** Field-level rules that need the file name. */
export function checkFields(fm: FrontMatter, file: string, diagnostics: Diagnostic[]): void {
  const at = (k: string) => fm.lines[k] ?? 1;
  const err = (k: string, message: string) => diagnostics.push({ severity: 'error', code: 'front-matter-field', file, line: at(k), message });
  const base = file.split('/').pop() ?? file;
  const m = /^(.*?)(?:\.([a-z]{2}(?:-[A-Za-z]+)?))?\.md$/.exec(base);
  const stem = m?.[1] ?? base;
  const suffix = m?.[2];
  if (fm.id !== undefined) {
    if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(fm.id)) err('id', `id '${fm.id}' must be lowercase words joined by dashes`);
    else if (fm.id !== stem) err('id', `id '${fm.id}' must match the file name: rename the file to ${fm.id}.md or set id: ${stem}`);
  }
  if (fm.version !== undefined && !/^v\d+\.\d+\.\d+$/.test(fm.version)) err('version', `version '${fm.version}' must look like v1.28.0`);
  if (fm.lang !== undefined) {
    if (!/^[a-z]{2}(-[A-Za-z]+)?$/.test(fm.lang)) err('lang', `lang '${fm.lang}' must be a language code such as en or zh`);
    else if (fm.lang === 'en' && suffix) err('lang', `the file name says '${suffix}' but lang is en`);
    else if (fm.lang !== 'en' && suffix !== fm.lang) err('lang', `a '${fm.lang}' translation must be named ${stem}.${fm.lang}.md`);
    if (fm.lang !== 'en' && fm.translationOf === undefined) err('lang', `a '${fm.lang}' topic must say which topic it translates: add translation-of: ${fm.id ?? stem}`);
    if (fm.lang === 'en' && fm.translationOf !== undefined) err('translation-of', "translation-of is only for translations: remove it or set lang to the translation's language");
  }
}
