/**
 * Topic files → Topic records + diagnostics. `parseAnnotations` is pure (file contents in, records
 * out); `readAnnotationFiles` does the I/O. Cross-file rules (duplicate ids, translations) live here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Diagnostic } from '../model/index.js';
import { checkFields, parseFrontMatter, splitFrontMatter } from './frontmatter.js';
import { readBody } from './markdown.js';
import { lcsPairs } from './diff.js';
import type { Anchor, AnnotationFile, LoadResult, Topic } from './types.js';

/** Every `*.md` in `dir` except README.md, sorted, with display paths `<basename(dir)>/<name>`. */
export function readAnnotationFiles(dir: string): AnnotationFile[] {
  const prefix = basename(dir);
  return readdirSync(dir)
    .filter((n) => n.endsWith('.md') && n.toLowerCase() !== 'readme.md')
    .sort()
    .map((n) => ({ path: `${prefix}/${n}`, text: readFileSync(join(dir, n), 'utf8') }));
}

export function loadAnnotations(dir: string): LoadResult {
  return parseAnnotations(readAnnotationFiles(dir));
}

interface Parsed {
  topic: Topic;
  fieldLines: Record<string, number>;
}

export function parseAnnotations(files: readonly AnnotationFile[]): LoadResult {
  const diagnostics: Diagnostic[] = [];
  const parsed: Parsed[] = [];
  for (const f of files) {
    if (/(^|\/)readme\.md$/i.test(f.path)) continue;
    try {
      const p = parseTopic(f, diagnostics);
      if (p) parsed.push(p);
    } catch (err) {
      // A loader bug must not hide the other topics; report it against the file.
      diagnostics.push({ severity: 'error', code: 'internal', file: f.path, line: 1, message: `could not read this topic: ${(err as Error).message}` });
    }
  }
  const topics = dedupe(parsed, diagnostics);
  checkTranslations(topics, diagnostics);
  topics.sort((a, b) => a.topic.order - b.topic.order || a.topic.id.localeCompare(b.topic.id) || langRank(a.topic) - langRank(b.topic));
  return { topics: topics.map((p) => p.topic), diagnostics };
}

function parseTopic(f: AnnotationFile, diagnostics: Diagnostic[]): Parsed | undefined {
  const split = splitFrontMatter(f.text, f.path, diagnostics);
  const fm = parseFrontMatter(split, f.path, diagnostics);
  if (fm) checkFields(fm, f.path, diagnostics);
  const nameLang = /\.([a-z]{2}(?:-[A-Za-z]+)?)\.md$/.exec(f.path)?.[1];
  const lang = fm?.lang ?? nameLang ?? 'en';
  const body = readBody(split.body, f.path, lang, diagnostics);
  if (!fm) return undefined;
  const stem = basename(f.path).replace(/(\.[a-z]{2}(?:-[A-Za-z]+)?)?\.md$/, '');
  const entry: Anchor[] = (fm.entry ?? []).map((e) => ({ symbol: e.symbol, file: f.path, line: e.line, column: e.column, where: 'entry', path: [] }));
  const topic: Topic = {
    id: fm.id ?? stem,
    file: f.path,
    lang,
    translationOf: fm.translationOf,
    title: fm.title ?? body.title ?? '',
    component: fm.component ?? '',
    version: fm.version ?? '',
    summary: fm.summary ?? '',
    order: fm.order ?? 0,
    entry,
    anchors: [...entry, ...body.anchors],
    intro: body.intro,
    sections: body.sections,
    tour: body.tour,
    defaults: body.defaults,
    questions: body.questions,
  };
  return { topic, fieldLines: fm.lines };
}

/** Two topics with one id in one language: both places get an error; the first file wins. */
function dedupe(parsed: Parsed[], diagnostics: Diagnostic[]): Parsed[] {
  const byKey = new Map<string, Parsed[]>();
  for (const p of parsed) {
    const key = `${p.topic.id}\u0000${p.topic.lang}`;
    byKey.set(key, [...(byKey.get(key) ?? []), p]);
  }
  const out: Parsed[] = [];
  for (const group of byKey.values()) {
    out.push(group[0]);
    if (group.length < 2) continue;
    for (const p of group) {
      const others = group.filter((o) => o !== p).map((o) => `${o.topic.file}:${o.fieldLines.id ?? 1}`).join(', ');
      diagnostics.push({
        severity: 'error', code: 'duplicate-id', file: p.topic.file, line: p.fieldLines.id ?? 1,
        message: `duplicate topic id '${p.topic.id}' (lang ${p.topic.lang}), also used in ${others}; give each topic its own id`,
      });
    }
  }
  return out;
}

/** A translation must point at an existing original and carry the same anchors in the same order. */
function checkTranslations(parsed: Parsed[], diagnostics: Diagnostic[]): void {
  const originals = new Map(parsed.filter((p) => !p.topic.translationOf).map((p) => [p.topic.id, p.topic]));
  for (const p of parsed) {
    const t = p.topic;
    if (!t.translationOf) continue;
    const original = originals.get(t.translationOf);
    const at = p.fieldLines['translation-of'] ?? 1;
    if (!original) {
      diagnostics.push({ severity: 'error', code: 'translation-of', file: t.file, line: at, message: `translation-of '${t.translationOf}' names no topic; it must be the id of an existing original topic` });
      continue;
    }
    if (t.id !== original.id) {
      diagnostics.push({ severity: 'error', code: 'translation-id', file: t.file, line: p.fieldLines.id ?? 1, message: `a translation keeps the original's id: set id: ${original.id}` });
    }
    const key = (a: Anchor) => `${a.where} ${a.symbol}`;
    const pairs = lcsPairs(original.anchors, t.anchors, (x, y) => key(x) === key(y));
    const inOrig = new Set(pairs.map((x) => x[0]));
    const inTrans = new Set(pairs.map((x) => x[1]));
    original.anchors.forEach((a, i) => {
      if (inOrig.has(i)) return;
      // Point at the translation anchor that precedes the gap, so the reader knows where it belongs.
      const before = pairs.filter((x) => x[0] < i).pop();
      const line = before ? t.anchors[before[1]].line : at;
      diagnostics.push({ severity: 'error', code: 'translation-anchors', file: t.file, line, message: `the translation lacks the ${a.where} anchor \`@${a.symbol}\` of ${a.file}:${a.line} (after this line); translations keep the original's anchors in the same places` });
    });
    t.anchors.forEach((a, j) => {
      if (inTrans.has(j)) return;
      diagnostics.push({ severity: 'error', code: 'translation-anchors', file: t.file, line: a.line, message: `${a.where} anchor \`@${a.symbol}\` is not in the original ${original.file} at this place; translations keep the original's anchors in the same places` });
    });
  }
}

function langRank(t: Topic): number {
  return t.lang === 'en' ? 0 : 1;
}
