/** The two go.mod facts the pipeline needs; everything else in the file (require, replace) is skipped. */
export interface GoMod {
  modulePath?: string;
  goVersion?: string;
}

export function parseGoMod(text: string): GoMod {
  const out: GoMod = {};
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\/\/.*$/, '').trim();
    const m = /^(module|go)\s+(\S+)$/.exec(line);
    if (m === null) continue;
    const value = (m[2] as string).replace(/^"(.*)"$/, '$1');
    if (m[1] === 'module') out.modulePath ??= value;
    else out.goVersion ??= value;
  }
  return out;
}
