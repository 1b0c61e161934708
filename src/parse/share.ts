/**
 * Equal strings across files' facts, stored once: facts are held by the thousand until resolution
 * ends, and they repeat receiver names, import paths, type names... Decoded facts share through the
 * codec (codec.ts); facts extracted on the calling thread are walked here, which also drops the names
 * sliced from a file's text, each of which would keep that whole text alive.
 */

/** Strings seen so far, each mapped to the one copy kept (flat: it refers to no file's text). */
export type StringTable = Map<string, string>;

/** Replaces, in place, each string in a tree of plain records and arrays by its copy in the table. */
export function shareStrings<T extends object>(value: T, table: StringTable): T {
  walk(value, table);
  return value;
}

function walk(o: object, table: StringTable): void {
  if (Array.isArray(o)) {
    for (let i = 0; i < o.length; i++) {
      const v: unknown = o[i];
      if (typeof v === 'string') o[i] = sharedString(v, table);
      else if (typeof v === 'object' && v !== null) walk(v, table);
    }
    return;
  }
  const r = o as Record<string, unknown>;
  for (const k in r) {
    const v = r[k];
    if (typeof v === 'string') r[k] = sharedString(v, table);
    else if (typeof v === 'object' && v !== null) walk(v, table);
  }
}

/** The table's copy of `s`, made (flat) and kept when the table has none. */
export function sharedString(s: string, table: StringTable): string {
  let t = table.get(s);
  if (t === undefined) {
    // A copy made from scratch: a slice of a file's text would keep the text alive.
    t = JSON.parse(JSON.stringify(s)) as string;
    table.set(t, t);
  }
  return t;
}
