import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { CORE_COMMANDS, main as esmMain } from '../../src/cli/main.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const fixture = resolve('test/fixtures/go/kubelike');
const bundleFile = resolve('dist/src/cli/core.cjs');

type Main = typeof esmMain;

const run = (main: Main, args: string[]) => runCli(args, {}, main);

describe('the CLI bundle (dist/src/cli/core.cjs)', () => {
  let bundleMain: Main;
  before(() => {
    bundleMain = (createRequire(import.meta.url)(bundleFile) as { main: Main }).main;
  });

  it('holds no import.meta: each module finds its files from its own place in dist', () => {
    assert.doesNotMatch(readFileSync(bundleFile, 'utf8'), /import\.meta/);
  });

  it('builds the index the ES modules build, in the folder they look in, and answers every core command as they do', async () => {
    const cacheA = tempDir('ka-bundle-');
    const cacheB = tempDir('ka-bundle-');
    const src = ['--source', fixture];
    // Each builds its own index; then each reads the other's (same tool stamp, same folder name).
    const built = await run(bundleMain, ['index', ...src, '--cache-dir', cacheA]);
    assert.equal(built.code, 0, built.err);
    assert.equal((await run(esmMain, ['index', ...src, '--cache-dir', cacheB])).code, 0);
    assert.deepEqual(readdirSync(cacheA).sort(), readdirSync(cacheB).sort());
    const reused = await run(esmMain, ['index', ...src, '--cache-dir', cacheA, '--json']);
    assert.equal(JSON.parse(reused.out).fromCache, true, reused.out);
    const commands = [
      ['callgraph', '--format', 'tsv'],
      ['callgraph', '--format', 'json', '--refs'],
      ['show', 'Kubelet.syncLoopIteration'],
      ['callers', 'Kubelet.syncLoopIteration'],
      ['callees', 'Kubelet.syncLoopIteration', '--depth', '3'],
      ['path', 'k8s.io/kubernetes/cmd/kubelet.main', 'Kubelet.syncLoopIteration'],
      ['search', 'pleg'],
      ['goroutines', '--all'],
      ['channels', 'Kubelet.syncLoopIteration'],
      ['index', '--unresolved'],
      ['callers', 'NoSuchSymbolAnywhere'],
      ['callees', 'Kubelet.syncLoopIteration', '--depth', 'x'],
    ];
    for (const c of commands) {
      const fromBundle = await run(bundleMain, [...c, ...src, '--cache-dir', cacheA]);
      const fromModules = await run(esmMain, [...c, ...src, '--cache-dir', cacheB]);
      assert.deepEqual(fromBundle, fromModules, c.join(' '));
    }
  });
});

describe('the CLI bundle without the native parser (KUBELET_ATLAS_NATIVE=0: the tree-sitter bindings)', () => {
  it('parses as the ES modules do', () => {
    const callgraph = (bundle: boolean) => {
      const env = { ...process.env, KUBELET_ATLAS_NATIVE: '0', KUBELET_ATLAS_DEBUG: '1', KUBELET_ATLAS_BUNDLE: bundle ? '1' : '0' };
      const r = spawnSync(process.execPath, [resolve('bin/kubelet-atlas.cjs'), 'callgraph', '--format', 'tsv', '--source', fixture, '--cache-dir', tempDir('ka-bundle-bindings-')], { encoding: 'utf8', env, timeout: 120_000 });
      assert.equal(r.status, 0, r.stderr);
      // Said on stderr with KUBELET_ATLAS_DEBUG: which code ran.
      assert.match(r.stderr, bundle ? /ran from .*core\.cjs/ : /ran from the ES modules/);
      return r.stdout;
    };
    const fromBundle = callgraph(true);
    assert.doesNotMatch(fromBundle, /could not parse/);
    assert.ok(fromBundle.split('\n').length > 100, 'the fixture has more than a hundred edges');
    assert.equal(fromBundle, callgraph(false));
  });
});

describe('the bin', () => {
  // A package of stand-ins: the real bin, a "bundle" and "ES modules" that say which ran.
  function stand(): string {
    const root = tempDir('ka-bin-');
    mkdirSync(join(root, 'bin'));
    mkdirSync(join(root, 'dist', 'src', 'cli'), { recursive: true });
    copyFileSync(resolve('bin/kubelet-atlas.cjs'), join(root, 'bin', 'kubelet-atlas.cjs'));
    writeFileSync(join(root, 'package.json'), '{ "type": "module" }\n');
    writeFileSync(join(root, 'dist', 'src', 'cli', 'main.js'), "export async function main(argv) { process.stdout.write('modules ' + argv.slice(2).join(' ')); return 0; }\n");
    // The bundle's require() must work as it does in a required file.
    writeFileSync(join(root, 'dist', 'src', 'cli', 'word.cjs'), "exports.word = 'required';\n");
    writeFileSync(join(root, 'dist', 'src', 'cli', 'core.cjs'), "exports.main = async (argv) => { const { word } = require('./word.cjs'); process.stdout.write('bundle ' + word + ' ' + argv.slice(2).join(' ')); return argv.includes('--fail') ? 3 : 0; };\n");
    return root;
  }
  const bin = (root: string, ...args: string[]) => {
    const r = spawnSync(process.execPath, [join(root, 'bin', 'kubelet-atlas.cjs'), ...args], { encoding: 'utf8', env: { ...process.env, KUBELET_ATLAS_DEBUG: '1' }, timeout: 60_000 });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };
  it('sends to the bundle exactly the commands main() runs without a lazy module', () => {
    const listed = /const CORE = (\[[^\]]*\])/.exec(readFileSync(resolve('bin/kubelet-atlas.cjs'), 'utf8'));
    assert.ok(listed, 'the bin lists its core commands in const CORE');
    assert.deepEqual(JSON.parse(listed[1].replaceAll("'", '"')), CORE_COMMANDS);
  });

  const caches = (root: string) => readdirSync(join(root, 'dist', 'src', 'cli')).filter((n) => n.endsWith('.cache'));

  it('runs a core command from the bundle, with a code cache written by the first run and used by the next', () => {
    const root = stand();
    const first = bin(root, 'callers', 'X');
    assert.equal(first.code, 0, first.err);
    assert.equal(first.out, 'bundle required callers X');
    assert.match(first.err, /core\.cjs \(code cache written\)/);
    assert.equal(caches(root).length, 1);
    const second = bin(root, 'callers', 'X');
    assert.equal(second.out, 'bundle required callers X');
    assert.match(second.err, /core\.cjs \(code cache used\)/);
    const other = bin(root, 'path', 'A', 'B', '--fail');
    assert.equal(other.code, 3);
    assert.match(other.err, /code cache written/, 'a cache of its own for each command');
    assert.equal(caches(root).length, 2);
    assert.match(bin(root, 'callers', 'X').err, /code cache used/);
  });

  it('runs the other commands, and core ones when the bundle is missing, older than the modules or turned off, from the ES modules', () => {
    const root = stand();
    assert.equal(bin(root, 'guide', '--all').out, 'modules guide --all');
    assert.equal(bin(root).out, 'modules ');
    const off = spawnSync(process.execPath, [join(root, 'bin', 'kubelet-atlas.cjs'), 'callers', 'X'], { encoding: 'utf8', env: { ...process.env, KUBELET_ATLAS_BUNDLE: '0' } });
    assert.equal(off.stdout, 'modules callers X');
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(root, 'dist', 'src', 'cli', 'main.js'), later, later);
    const stale = bin(root, 'callers', 'X');
    assert.equal(stale.out, 'modules callers X');
    assert.match(stale.err, /ran from the ES modules/);
    rmSync(join(root, 'dist', 'src', 'cli', 'core.cjs'));
    assert.equal(bin(root, 'index').out, 'modules index');
  });

  it('runs a core command from the ES modules when the bundle fails to load', () => {
    const root = stand();
    writeFileSync(join(root, 'dist', 'src', 'cli', 'core.cjs'), "throw new Error('a broken bundle');\n");
    const r = bin(root, 'callers', 'X');
    assert.equal(r.code, 0, r.err);
    assert.equal(r.out, 'modules callers X');
    assert.match(r.err, /ran from the ES modules \(.*core\.cjs failed to load: a broken bundle\)/);
  });

  it('drops the code cache of a bundle made again, and writes one for the new bundle', () => {
    const root = stand();
    bin(root, 'show', 'X');
    bin(root, 'callers', 'X');
    const old = caches(root);
    assert.equal(old.length, 2);
    const core = join(root, 'dist', 'src', 'cli', 'core.cjs');
    // A new bundle of the same length: V8 alone would take the old cache for it.
    const text = readFileSync(core, 'utf8').replace("'bundle '", "'BUNDLE '");
    rmSync(core);
    writeFileSync(core, text);
    const r = bin(root, 'show', 'X');
    assert.equal(r.out, 'BUNDLE required show X');
    assert.match(r.err, /code cache written/);
    const now = caches(root);
    assert.equal(now.length, 1);
    assert.ok(!old.includes(now[0]), 'both caches of the old bundle removed');
    assert.match(bin(root, 'show', 'X').err, /code cache used/);
  });
});
