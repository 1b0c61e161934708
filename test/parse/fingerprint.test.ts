/**
 * The fingerprint's scanner against the regular expression it replaced: the same tokens for every
 * text, hence the same fingerprints (annotation locks store them, so they must not move).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fingerprint, lineHashes, tokens } from '../../src/parse/fingerprint.js';

/** The tokenizer as it was written before the scanner: the oracle. */
const TOKEN = /\/\/[^\n]*|\/\*[\s\S]*?\*\/|`[^`]*`|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|[A-Za-z_\u0080-\uffff][\w\u0080-\uffff]*|\d[\w.]*|\.\.\.|<-|:=|&&|\|\||[<>=!+\-*/%&|^]=|<<=?|>>=?|&\^=?|\+\+|--|\S/g;

function oracleTokens(text: string): string[] {
  return (text.match(TOKEN) ?? []).filter((t) => !(t.length > 1 && t[0] === '/' && (t[1] === '/' || t[1] === '*')));
}

function oracleFingerprint(text: string): string {
  return createHash('sha1').update(oracleTokens(text).join(' ')).digest('hex').slice(0, 16);
}

/** A small deterministic generator (mulberry32), so a failure names a reproducible case. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Every char that starts or ends an alternative, whitespace of all kinds and a few that are not ASCII.
const PIECES = [
  '/', '*', '`', '"', "'", '\\', '\n', '\r', '\t', ' ', '\v', '\f', '.', '<', '>', '-', '=', ':', '&', '|', '^', '+', '!', '%',
  '(', ')', '{', '}', '[', ']', ',', ';', '#', '@', '$', '~', '?', '0', '7', 'x', 'e', 'E', '_', 'a', 'Z', '9',
  '\u00a0', '\u00e9', '\u2028', '\u2029', '\u3000', '\ufeff', '\ud83d\ude00', '\u0000', '\u007f', '\u0080', '\u07ff', '\uffff',
  '//', '/*', '*/', '...', '<<=', '>>=', '&^=', ':=', '<-', '++', '--', '0x1f', '1.5e3', 'func', 'kl.pleg',
];

function randomText(next: () => number, length: number): string {
  let s = '';
  for (let i = 0; i < length; i++) s += PIECES[Math.floor(next() * PIECES.length)];
  return s;
}

describe('fingerprint scanner', () => {
  it('splits random texts of every tricky char exactly as the regular expression did', () => {
    const next = random(20261201);
    for (let n = 0; n < 4000; n++) {
      const text = randomText(next, 1 + Math.floor(next() * 40));
      assert.deepEqual(tokens(text), oracleTokens(text), `case ${n}: ${JSON.stringify(text)}`);
      assert.equal(fingerprint(text), oracleFingerprint(text), `case ${n}: ${JSON.stringify(text)}`);
    }
  });

  it('gives the regular expression\'s fingerprints and line hashes on every Go fixture', () => {
    const dir = resolve('test/fixtures/go');
    const files: string[] = [];
    const walk = (d: string) => {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        if (e.isDirectory()) walk(join(d, e.name));
        else if (e.name.endsWith('.go')) files.push(join(d, e.name));
      }
    };
    walk(dir);
    assert.ok(files.length > 20, `the Go fixtures are found (${files.length} in ${dir})`);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      assert.deepEqual(tokens(text), oracleTokens(text), file);
      assert.equal(fingerprint(text), oracleFingerprint(text), file);
      const lines = text.split('\n').map((l) => oracleTokens(l).join(' ')).filter((l) => l.length > 0)
        .map((l) => createHash('sha1').update(l).digest('hex').slice(0, 6));
      assert.deepEqual(lineHashes(text), lines, file);
    }
  });

  it('hashes tokens that are not ASCII as UTF-8, and comments that are not leave the ASCII path alone', () => {
    // A lone surrogate cannot come from a file (its bytes are decoded strictly); hashed, it is U+FFFD either way.
    for (const text of ['x := "héllo"', 's := `日本`', 'r := \'\u00e9\'', 'a /* é */ b', 'a // 😀\nb', 'ünï := 1', 'x := "\ud83d"', 'x\ude00y', '"\\\u2028"', '"\\\u2029x"']) {
      assert.equal(fingerprint(text), oracleFingerprint(text), JSON.stringify(text));
    }
  });

  it('ends a quoted literal where the regular expression did: at a line end, even an escaped one', () => {
    for (const text of ['"a\\\rb" x', "'\\\r' y", '"a\\\nb"', '"a\\"b" c"', '"\\', '"a\rb"', "'\\''", '"x\\\u2028" "y"']) {
      assert.deepEqual(tokens(text), oracleTokens(text), JSON.stringify(text));
      assert.equal(fingerprint(text), oracleFingerprint(text), JSON.stringify(text));
    }
  });

  it('still ignores layout and comments, and still sees code', () => {
    assert.equal(fingerprint('func a() {\n\t// note\n\tb()\n}'), fingerprint('func a() { b() /* other */ }'));
    assert.notEqual(fingerprint('func a() { b() }'), fingerprint('func a() { c() }'));
    assert.notEqual(fingerprint('x := "a b"'), fingerprint('x := "a  b"'), 'a string literal is one token, spaces and all');
    assert.equal(fingerprint('a<<=b'), fingerprint('a <<= b'));
    assert.notEqual(fingerprint('a<<=b'), fingerprint('a < <= b'));
  });

  it('handles a text longer than its reused buffer', () => {
    const text = 'x := y + z\n'.repeat(20000);
    assert.equal(fingerprint(text), oracleFingerprint(text));
  });
});
