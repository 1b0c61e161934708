import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCommand, type RunOptions } from '../../src/cli/run-command.js';
import { UserError } from '../../src/cli/errors.js';
import type { Io } from '../../src/cli/context.js';
import { tempDir } from '../helpers/temp.js';

function capture(): { io: Io; out: () => string; err: () => string } {
  let out = '';
  let err = '';
  const io: Io = { out: (s) => { out += s; }, err: (s) => { err += s; }, isTTY: false, env: { HOME: tmpdir() } };
  return { io, out: () => out, err: () => err };
}

/** The handler, with UserErrors turned into exit codes and messages the way main() does. */
async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const c = capture();
  const opts: RunOptions = {};
  let name = '';
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--json') opts.json = true;
    else if (args[i] === '--list') opts.list = true;
    else if (args[i] === '--file') opts.file = args[++i];
    else name = args[i];
  }
  try {
    return { code: await runCommand(name, opts, c.io), out: c.out(), err: c.err() };
  } catch (e) {
    if (!(e instanceof UserError)) throw e;
    return { code: e.exitCode, out: c.out(), err: `kubelet-atlas: ${e.message}\n` };
  }
}

describe('kubelet-atlas run', () => {
  it('plays a bundled scenario and prints its timeline', async () => {
    const r = await cli(['liveness']);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^scenario liveness: /);
    assert.match(r.out, /00:01:21 {2}api: kill "app" \(LivenessProbe\), start "app" +← kuberuntime\.\(\*kubeGenericRuntimeManager\)\.computePodActions/);
  });

  it('prints JSON entries with full Go IDs', async () => {
    const r = await cli(['crashloop', '--json']);
    assert.equal(r.code, 0, r.err);
    const doc = JSON.parse(r.out) as { scenario: string; entries: { at: number; text: string; go: string }[] };
    assert.equal(doc.scenario, 'crashloop');
    assert.ok(doc.entries.some((e) => e.go === 'k8s.io/kubernetes/pkg/kubelet/kuberuntime.(*kubeGenericRuntimeManager).doBackOff' && e.at === 10_000));
  });

  it('lists the bundled scenarios with --list, and on an unknown name (exit 2)', async () => {
    const list = await cli(['--list']);
    assert.equal(list.code, 0);
    for (const n of ['crashloop', 'image-gc', 'liveness', 'memory-pressure']) assert.match(list.out, new RegExp(`^  ${n} `, 'm'));
    const unknown = await cli(['crashlop']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.err, /unknown scenario 'crashlop'/);
    assert.match(unknown.err, /crashloop/);
    assert.equal((await cli([])).code, 2);
  });

  it('runs a scenario file and reports a bad one with file, line and field', async () => {
    const dir = tempDir('ka-run-');
    const good = join(dir, 'mine.yaml');
    writeFileSync(good, 'duration: 10s\npods:\n  - metadata: { name: p }\n    spec: { containers: [{ name: c, image: registry.example/c:1 }] }\n');
    const ok = await cli([good]);
    assert.equal(ok.code, 0, ok.err);
    assert.match(ok.out, /p: started "c"/);
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'duration: 10s\nnode:\n  memory: 100Mx\npods: []\n');
    const r = await cli(['--file', bad]);
    assert.equal(r.code, 2);
    assert.match(r.err, /bad\.yaml:3: node\.memory: Invalid value: "100Mx"/);
    assert.doesNotMatch(r.err, /at .*\.js:\d+/);
    const missing = await cli([join(dir, 'nope.yaml')]);
    assert.equal(missing.code, 2);
    assert.match(missing.err, /does not exist/);
  });

  it('is registered in the CLI as `run [scenario]`', async () => {
    // Imported here so that other commands' modules cannot break the tests above.
    const { main } = await import('../../src/cli/main.js');
    const c = capture();
    assert.equal(await main(['node', 'kubelet-atlas', 'run', '--list'], c.io), 0);
    assert.match(c.out(), /^  crashloop /m);
    const bad = capture();
    assert.equal(await main(['node', 'kubelet-atlas', 'run', 'no-such-scenario'], bad.io), 2);
    assert.match(bad.err(), /unknown scenario 'no-such-scenario'/);
  });
});
