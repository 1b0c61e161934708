/** The words a guide adds around the annotations, per language (English when a language lacks one). */
export interface Labels {
  where: string;
  package: string;
  entries: string;
  constructor: string;
  noConstructor: string;
  startedBy: string;
  noCallers: string;
  goroutines: string;
  callTree: string;
  callTreeNote: (depth: number, width: number) => string;
  more: (n: number) => string;
  go: string;
  port: (file: string) => string;
  moreLines: (n: number) => string;
  source: string;
  notes: string;
  changed: (version: string) => string;
  fallback: (lang: string) => string;
  step: (n: number) => string;
  planTitle: (version: string) => string;
  planIntro: string;
  every: string;
  reply: string;
}

const en: Labels = {
  where: 'Where it sits',
  package: 'Package',
  entries: 'Entry points',
  constructor: 'Constructor',
  noConstructor: 'none among the entry points',
  startedBy: 'Called from',
  noCallers: 'no callers in the index',
  goroutines: 'Goroutines',
  callTree: 'Call tree',
  callTreeNote: (d, w) => `From the entry points, ${d} calls deep, at most ${w} callees per function; likely targets first. Ruled-out interface candidates and fakes are hidden.`,
  more: (n) => `… ${n} more`,
  go: 'Go',
  port: (file) => `TypeScript port (${file})`,
  moreLines: (n) => `… ${n} more lines: read the rest at`,
  source: 'Source',
  notes: 'Study-group notes',
  changed: (v) => `Changed since ${v}:`,
  fallback: (lang) => `No ${lang} translation of this topic yet; this is the English text.`,
  step: (n) => `Step ${n}:`,
  planTitle: (v) => `Kubelet study guides (${v})`,
  planIntro: 'A reading plan: the topics in the order to read them.',
  every: 'every',
  reply: 'reply to',
};

const zh: Labels = {
  ...en,
  where: '所在位置',
  package: '包',
  entries: '入口',
  constructor: '构造函数',
  noConstructor: '入口中没有构造函数',
  startedBy: '调用方',
  noCallers: '索引中没有调用方',
  goroutines: 'Goroutine',
  callTree: '调用树',
  callTreeNote: (d, w) => `从入口出发，深度 ${d}，每个函数最多 ${w} 个被调用者；可能性高的目标在前。已排除的接口候选和 fake 不显示。`,
  more: (n) => `… 另外 ${n} 个`,
  port: (file) => `TypeScript 移植 (${file})`,
  moreLines: (n) => `… 另外 ${n} 行，完整代码见`,
  source: '源码',
  notes: '学习小组笔记',
  changed: (v) => `自 ${v} 以来的变化：`,
  fallback: () => '该主题尚无中文翻译；以下为英文原文。',
  step: (n) => `第 ${n} 步：`,
  planTitle: (v) => `Kubelet 学习指南 (${v})`,
  planIntro: '阅读计划：按以下顺序阅读各主题。',
  every: '周期',
  reply: '回复',
};

export function labelsFor(lang: string): Labels {
  return lang === 'zh' ? zh : en;
}
