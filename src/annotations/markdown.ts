/**
 * Reads the Markdown body of a topic with remark (+ GFM tables): anchors and where they sit, the
 * sections under each heading, tour steps, the defaults table and the study questions. Structure
 * problems become warnings; nothing here throws on odd input.
 */
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkGfm from 'remark-gfm';
import type { Code, Heading, List, ListItem, Nodes, Paragraph, PhrasingContent, Root, RootContent, Table } from 'mdast';
import type { Diagnostic } from '../model/index.js';
import { SECTION_KEYS, type Anchor, type DefaultsRow, type Section, type SectionKey, type StudyQuestion, type TourStep } from './types.js';

/** Canonical H2 headings per language. Translations keep the same keys in the same order. */
export const SECTION_TITLES: Record<string, Record<SectionKey, string>> = {
  en: {
    what: 'What it does for the node',
    where: 'Where it is built and who starts it',
    loop: 'The main loop',
    tour: 'Tour',
    key: 'Key functions',
    defaults: 'Defaults',
    talks: 'Talks to',
    wrong: 'When it goes wrong',
    questions: 'Study questions',
  },
  zh: {
    what: '它为节点做了什么',
    where: '在哪里构建、由谁启动',
    loop: '主循环',
    tour: '导览',
    key: '关键函数',
    defaults: '默认值',
    talks: '与谁交互',
    wrong: '出问题时',
    questions: '思考题',
  },
};

const DEFAULTS_COLUMNS = ['Setting', 'Default', 'Flag or config field', 'Where'];
const SYMBOL = /^[A-Za-z_][\w./()*~-]*$/;
const ANSWER = /^\s*(\*\*|__)?\s*(Answer|答案)\s*[:：]\s*(\*\*|__)?\s*/;

const parser = unified().use(remarkParse).use(remarkGfm);

export interface BodyResult {
  title?: string;
  intro: Root;
  anchors: Anchor[];
  sections: Section[];
  tour: TourStep[];
  defaults: DefaultsRow[];
  questions: StudyQuestion[];
}

export function readBody(body: string, file: string, lang: string, diagnostics: Diagnostic[]): BodyResult {
  const tree = parser.parse(body) as Root;
  const warn = (line: number, code: string, message: string) => diagnostics.push({ severity: 'warning', code, file, line, message });
  const slice = (nodes: readonly Nodes[]) => {
    const a = nodes[0]?.position?.start.offset;
    const b = nodes[nodes.length - 1]?.position?.end.offset;
    return a === undefined || b === undefined ? '' : body.slice(a, b);
  };
  const out: BodyResult = { intro: { type: 'root', children: [] }, anchors: [], sections: [], tour: [], defaults: [], questions: [] };
  const titles = SECTION_TITLES[lang] ?? SECTION_TITLES.en;
  const keyOf = (text: string): SectionKey | undefined => {
    const t = text.trim();
    for (const k of SECTION_KEYS) if (titles[k] === t || SECTION_TITLES.en[k] === t) return k;
    return undefined;
  };

  const stack: { depth: number; text: string }[] = [];
  let h2: SectionKey | undefined;
  let sawH2 = false;
  const top = tree.children;
  for (let i = 0; i < top.length; i++) {
    const node = top[i];
    if (node.type === 'heading') {
      const text = slice(node.children);
      while (stack.length && stack[stack.length - 1].depth >= node.depth) stack.pop();
      const path = stack.map((s) => s.text);
      const anchors = inlineAnchors(node).filter(checkSyntax).map((c) => anchorAt(c, file, 'heading', path));
      out.anchors.push(...anchors);
      stack.push({ depth: node.depth, text });
      if (node.depth === 1) {
        if (out.title === undefined) out.title = text;
        else warn(line(node), 'heading-extra-h1', 'a topic has one `#` title; make this a `##` or `###` heading');
        continue;
      }
      if (node.depth === 2) {
        sawH2 = true;
        h2 = keyOf(text);
      }
      let j = i + 1;
      while (j < top.length && !(top[j].type === 'heading' && (top[j] as Heading).depth <= node.depth)) j++;
      const content = top.slice(i + 1, j);
      out.sections.push({
        heading: text,
        depth: node.depth,
        line: line(node),
        key: node.depth === 2 ? h2 : undefined,
        anchors: anchors.map((a) => a.symbol),
        content: { type: 'root', children: content },
        markdown: slice(content),
      });
      continue;
    }
    if (!sawH2 && out.title !== undefined) out.intro.children.push(node);
    const path = stack.map((s) => s.text);
    visit(node, { path, tour: h2 === 'tour' && node.type === 'list' && node.ordered === true, top: true });
    if (h2 === 'tour' && node.type === 'list' && node.ordered) readTour(node);
    if (h2 === 'defaults' && node.type === 'table' && out.defaults.length === 0) readDefaults(node);
    if (h2 === 'questions' && node.type === 'list' && node.ordered) readQuestions(node);
  }
  checkHeadings(out, titles, warn);
  return out;

  function visit(node: RootContent | ListItem, ctx: { path: string[]; tour: boolean; top: boolean }, itemStart = false): void {
    switch (node.type) {
      case 'paragraph': {
        const first = node.children[0];
        if (first?.type === 'inlineCode' && isAnchor(first.value)) {
          const where = itemStart ? (ctx.tour ? 'tour-step' : 'list-item') : 'paragraph';
          if (checkSyntax(first)) out.anchors.push(anchorAt(first, file, where, ctx.path));
        }
        return;
      }
      case 'list':
        for (const item of node.children) visit(item, { ...ctx, tour: ctx.tour && ctx.top, top: false });
        return;
      case 'listItem':
        node.children.forEach((c, k) => visit(c, ctx, k === 0));
        return;
      case 'blockquote':
        for (const c of node.children) visit(c, { ...ctx, top: false });
        return;
      case 'code':
        codeAnchors(node);
        return;
      default:
        return;
    }
  }

  function checkSyntax(code: { value: string; position?: { start: { line: number } } }): boolean {
    if (validSymbol(code.value.slice(1).trim())) return true;
    warn(line(code), 'anchor-syntax', `\`${code.value}\` is not a symbol, so it is not an anchor; write \`@pkg.Func\`, \`@pkg.(*Type).Method\` or \`@pkg.Type\``);
    return false;
  }

  function codeAnchors(node: Code): void {
    const start = node.position?.start.line ?? 1;
    const firstLine = body.split('\n', start)[start - 1] ?? '';
    const fenced = /^\s*(```|~~~)/.test(firstLine);
    node.value.split('\n').forEach((l, k) => {
      for (const m of l.matchAll(/`@([A-Za-z_][^`\s]*)`/g)) {
        warn(start + k + (fenced ? 1 : 0), 'anchor-in-code', `\`@${m[1]}\`: anchors in code blocks are ignored; move it into a paragraph`);
      }
    });
  }

  function readTour(list: List): void {
    for (const item of list.children) {
      const first = item.children[0];
      const code = first?.type === 'paragraph' ? first.children[0] : undefined;
      if (code?.type !== 'inlineCode' || !isAnchor(code.value) || !SYMBOL.test(code.value.slice(1))) {
        warn(line(item), 'tour-step', 'each tour step must start with the anchor of its hop, e.g. 1. `@app.Run` — ...');
        continue;
      }
      out.tour.push({ index: out.tour.length + 1, symbol: code.value.slice(1), line: line(code), content: { type: 'root', children: item.children }, markdown: dedent(slice(item.children)) });
    }
  }

  function readDefaults(table: Table): void {
    const [head, ...rows] = table.children;
    const names = head.children.map((c) => slice(c.children).trim());
    if (names.join('|') !== DEFAULTS_COLUMNS.join('|')) {
      warn(line(table), 'defaults-columns', `the Defaults table needs exactly the columns | ${DEFAULTS_COLUMNS.join(' | ')} |; found | ${names.join(' | ')} |`);
    }
    for (const row of rows) {
      const cell = (k: number) => (row.children[k] ? slice(row.children[k].children).trim() : '');
      out.defaults.push({ setting: cell(0), default: cell(1), flag: cell(2), where: cell(3), line: line(row) });
    }
  }

  function readQuestions(list: List): void {
    for (const item of list.children) {
      const paras = item.children.filter((c): c is Paragraph => c.type === 'paragraph');
      const answerAt = paras.findIndex((p, k) => k > 0 && ANSWER.test(slice(p.children)));
      const question = dedent(paras.slice(0, answerAt < 0 ? 1 : answerAt).map((p) => slice(p.children)).join('\n\n'));
      if (answerAt < 0) {
        warn(line(item), 'question-answer', 'a study question needs a second paragraph starting with **Answer:**');
        out.questions.push({ question, answer: '', line: line(item) });
        continue;
      }
      const answer = dedent(paras.slice(answerAt).map((p) => slice(p.children)).join('\n\n').replace(ANSWER, ''));
      out.questions.push({ question, answer, line: line(item) });
    }
  }
}

function checkHeadings(out: BodyResult, titles: Record<SectionKey, string>, warn: (line: number, code: string, message: string) => void): void {
  const h2 = out.sections.filter((s) => s.depth === 2);
  if (out.title === undefined) warn(1, 'heading-title', 'a topic starts (after the front matter) with a `# Title` heading');
  let last = -1;
  for (const s of h2) {
    if (!s.key) {
      warn(s.line, 'heading-unknown', `unexpected section '## ${s.heading}'; the sections are: ${SECTION_KEYS.map((k) => titles[k]).join(', ')}`);
      continue;
    }
    const at = SECTION_KEYS.indexOf(s.key);
    if (at < last) warn(s.line, 'heading-order', `section '## ${s.heading}' is out of order; the order is: ${SECTION_KEYS.map((k) => titles[k]).join(', ')}`);
    last = Math.max(last, at);
  }
  const seen = new Set(h2.map((s) => s.key));
  const end = h2.length ? h2[h2.length - 1].line : 1;
  for (const k of SECTION_KEYS) {
    if (k !== 'tour' && !seen.has(k)) warn(end, 'heading-missing', `missing section '## ${titles[k]}'`);
  }
  const keyFns = out.sections.filter((s) => s.depth === 3 && s.anchors.length > 0 && sectionOf(out.sections, s) === 'key').length;
  const keySection = h2.find((s) => s.key === 'key');
  if (keySection && keyFns < 5) warn(keySection.line, 'key-functions', `'## ${keySection.heading}' has ${keyFns} anchored \`###\` subsections; write at least five`);
  const questions = h2.find((s) => s.key === 'questions');
  if (questions && out.questions.length < 3) warn(questions.line, 'study-questions', `'## ${questions.heading}' has ${out.questions.length} questions in an ordered list; write at least three`);
}

function sectionOf(sections: Section[], s: Section): SectionKey | undefined {
  let key: SectionKey | undefined;
  for (const x of sections) {
    if (x === s) return key;
    if (x.depth === 2) key = x.key;
  }
  return key;
}

/** Continuation lines of a list item carry the item's indent; drop the indent they share. */
function dedent(md: string): string {
  const lines = md.split('\n');
  const rest = lines.slice(1).filter((l) => l.trim() !== '');
  const indent = rest.length ? Math.min(...rest.map((l) => /^ */.exec(l)![0].length)) : 0;
  return [lines[0], ...lines.slice(1).map((l) => l.slice(Math.min(indent, /^ */.exec(l)![0].length)))].join('\n');
}

function isAnchor(code: string): boolean {
  return code.startsWith('@') && code.length > 1;
}

function inlineAnchors(node: Heading): (PhrasingContent & { type: 'inlineCode' })[] {
  const out: (PhrasingContent & { type: 'inlineCode' })[] = [];
  const walk = (n: PhrasingContent) => {
    if (n.type === 'inlineCode') {
      if (isAnchor(n.value)) out.push(n);
    } else if ('children' in n) for (const c of n.children) walk(c);
  };
  for (const c of node.children) walk(c);
  return out;
}

function anchorAt(node: PhrasingContent & { type: 'inlineCode' }, file: string, where: Anchor['where'], path: string[]): Anchor {
  const symbol = node.value.slice(1).trim();
  return { symbol, file, line: line(node), column: node.position?.start.column ?? 1, where, path };
}

function line(node: { position?: { start: { line: number } } }): number {
  return node.position?.start.line ?? 1;
}

export function validSymbol(symbol: string): boolean {
  return SYMBOL.test(symbol);
}
