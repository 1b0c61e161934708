/**
 * Edits of a Go file's text of the kinds a reader makes, drawn with a seeded picker: comments and blank
 * lines anywhere, a call put in a body, a function added or removed, a doc comment edited, the header
 * changed, a character put in or taken out at random. Each is a name and the edited text.
 */
import { random } from './random.js';

export function goEdits(text: string, seed: number, rounds = 6): [string, string][] {
  const pick = random(seed);
  const lines = text.split('\n');
  const at = (pred: (l: string, i: number) => boolean) => lines.flatMap((l, i) => (pred(l, i) ? [i] : []));
  const withLine = (i: number, line: string) => [...lines.slice(0, i), line, ...lines.slice(i)].join('\n');
  const one = <T>(xs: T[]): T | undefined => (xs.length > 0 ? xs[pick(xs.length)] : undefined);
  const out: [string, string][] = [
    ['comment appended', `${text}\n// appended\n`],
    ['comment put first', `// first\n${text}`],
    ['import added', text.replace('import (\n', 'import (\n\t_ "unsafe"\n')],
  ];
  const funcs = at((l) => l.startsWith('func '));
  const ends = at((l) => l === '}');
  const bodies = at((l) => /^\t[^\t].*\{$/.test(l));
  const docs = at((l, i) => l.startsWith('func ') && i > 0 && lines[i - 1].startsWith('//'));
  for (let k = 0; k < rounds; k++) {
    out.push([`comment line ${k}`, withLine(pick(lines.length), '// inserted')]);
    out.push([`blank line ${k}`, withLine(pick(lines.length), '')]);
    const body = one(bodies);
    if (body !== undefined) out.push([`call in a body ${k}`, withLine(body + 1, '\t\tfmt.Println("added")')]);
    const end = one(ends);
    if (end !== undefined) out.push([`function added ${k}`, withLine(end + 1, '\nfunc added(a int) int {\n\treturn a + 1\n}')]);
    const f = one(funcs);
    if (f !== undefined) {
      let j = f;
      while (j < lines.length && lines[j] !== '}') j++;
      out.push([`function removed ${k}`, [...lines.slice(0, f), ...lines.slice(j + 1)].join('\n')]);
    }
    const d = one(docs);
    if (d !== undefined) out.push([`doc edited ${k}`, lines.map((l, i) => (i === d - 1 ? `${l} edited` : l)).join('\n')]);
    const put = pick(text.length);
    out.push([`character put in ${k}`, text.slice(0, put) + ['x', '{', '}', '/*', '`', '"', '\n', '//'][pick(8)] + text.slice(put)]);
    const cut = pick(text.length);
    out.push([`character taken out ${k}`, text.slice(0, cut) + text.slice(cut + 1)]);
  }
  return out;
}
