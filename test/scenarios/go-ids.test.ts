/** Every Go symbol a timeline names is either tagged on a port or a SyncPod step the driver plays. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot, readPortMappings } from '../../src/ports/index.js';
import { bundledScenarioPath, DRIVER_ONLY, GO, listBundledScenarios, loadScenario, runScenario, shortGoId } from '../../src/scenarios/index.js';

describe('Go symbols in timelines', () => {
  it('are port mappings or listed driver-only steps', () => {
    const tagged = new Set(readPortMappings(packageRoot()).flatMap((m) => m.goIds));
    const used = new Set(listBundledScenarios().flatMap((n) => runScenario(loadScenario(bundledScenarioPath(n)!)).map((e) => e.go)));
    used.delete('');
    assert.ok(used.size >= 15, `only ${used.size} symbols used`);
    for (const id of [...used, ...Object.values(GO)]) {
      assert.ok(tagged.has(id) || id in DRIVER_ONLY, `${id} is neither tagged on a port nor in DRIVER_ONLY`);
    }
    for (const id of Object.keys(DRIVER_ONLY)) assert.ok(!tagged.has(id), `${id} is ported now; drop it from DRIVER_ONLY`);
  });

  it('driver-only steps exist in the Kubernetes checkout ($KUBELET_ATLAS_SOURCE), when there is one', (t) => {
    const root = process.env['KUBELET_ATLAS_SOURCE'];
    if (!root || !existsSync(join(root, 'pkg/kubelet'))) {
      t.skip('KUBELET_ATLAS_SOURCE is not set to a Kubernetes checkout');
      return;
    }
    for (const [id, where] of Object.entries(DRIVER_ONLY)) {
      assert.ok(readFileSync(join(root, where.file), 'utf8').includes(where.header), `${id}: ${where.header} in ${where.file}`);
    }
  });

  it('are printed without the kubelet package prefix', () => {
    assert.equal(shortGoId(GO.doBackOff), 'kuberuntime.(*kubeGenericRuntimeManager).doBackOff');
    assert.equal(shortGoId(GO.completeWork), 'kubelet.(*podWorkers).completeWork');
    assert.equal(shortGoId('k8s.io/client-go/util/flowcontrol.(*Backoff).Next'), 'k8s.io/client-go/util/flowcontrol.(*Backoff).Next');
  });
});
