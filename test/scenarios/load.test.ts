import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseScenario, ScenarioError } from '../../src/scenarios/index.js';

const POD = `pods:
  - metadata: { name: web }
    spec:
      containers:
        - name: app
          image: registry.example/app:1.0
          livenessProbe:
            exec: { command: [true] }
`;

/** Parses and returns the error, checking that it is a ScenarioError naming the file. */
function failure(text: string): ScenarioError {
  try {
    parseScenario(text, 'bad.yaml');
  } catch (e) {
    assert.ok(e instanceof ScenarioError, `expected a ScenarioError, got ${String(e)}`);
    assert.equal(e.file, 'bad.yaml');
    assert.ok(e.message.startsWith(`bad.yaml:${e.line}: ${e.field}: `), e.message);
    return e;
  }
  assert.fail('the scenario loaded without an error');
}

describe('parseScenario', () => {
  it('loads a small scenario with defaults filled in', () => {
    const s = parseScenario(`duration: 1m\n${POD}events:\n  - { at: 30s, event: container-exit, container: app, exitCode: 2 }\n`, 'ok.yaml');
    assert.equal(s.name, 'ok');
    assert.equal(s.duration, 60_000);
    assert.equal(s.node.memory, 8 * 2 ** 30);
    assert.deepEqual(s.node.eviction.hard, { 'memory.available': '100Mi', 'nodefs.available': '10%', 'nodefs.inodesFree': '5%', 'imagefs.available': '15%' });
    assert.equal(s.node.imageGC.highThresholdPercent, 85);
    assert.equal(s.pods[0].metadata.namespace, 'default');
    assert.equal(s.pods[0].spec.restartPolicy, 'Always');
    assert.equal(s.pods[0].spec.containers[0].imagePullPolicy, 'IfNotPresent');
    assert.deepEqual(s.events, [{ at: 30_000, line: 11, event: 'container-exit', pod: 'web', container: 'app', exitCode: 2 }]);
  });

  it('sorts events by time and keeps file order for equal times', () => {
    const s = parseScenario(
      `duration: 1m\n${POD}events:\n  - { at: 20s, event: probe-fail, container: app, probe: liveness }\n  - { at: 10s, event: image-pull, image: a:1 }\n  - { at: 20s, event: probe-pass, container: app, probe: liveness }\n`,
    );
    assert.deepEqual(s.events.map((e) => e.event), ['image-pull', 'probe-fail', 'probe-pass']);
  });

  it('names an unknown event kind with its line', () => {
    const e = failure(`duration: 1m\n${POD}events:\n  - at: 5s\n    event: container-explode\n`);
    assert.equal(e.field, 'events[0].event');
    assert.equal(e.line, 12);
    assert.match(e.detail, /unknown event kind "container-explode"; expected one of pod-add, container-exit/);
  });

  it('rejects a bad duration', () => {
    const e = failure(`duration: 1m\n${POD}events:\n  - at: 10x\n    event: image-pull\n    image: a:1\n`);
    assert.equal(e.field, 'events[0].at');
    assert.equal(e.line, 11);
    assert.match(e.detail, /unknown unit "x" in duration "10x"/);
    assert.match(failure(`duration: soon\n${POD}`).message, /^bad\.yaml:1: duration: .*invalid duration "soon"/);
    assert.match(failure(`duration: 30\n${POD}`).message, /duration: Invalid value: 30: expected a duration/);
  });

  it('rejects bad quantities in events, node facts, eviction flags and pods', () => {
    const ev = failure(`duration: 1m\n${POD}events:\n  - { at: 1s, event: memory-usage, container: app, memory: 100Mx }\n`);
    assert.equal(ev.field, 'events[0].memory');
    assert.equal(ev.line, 11);
    assert.match(ev.detail, /Invalid value: "100Mx": quantities must match/);

    const node = failure(`duration: 1m\nnode:\n  memory: 100Mx\n${POD}`);
    assert.equal(node.field, 'node.memory');
    assert.equal(node.line, 3);

    const hard = failure(`duration: 1m\nnode:\n  eviction:\n    hard:\n      memory.available: 100Mx\n${POD}`);
    assert.equal(hard.field, 'node.eviction.hard[memory.available]');
    assert.equal(hard.line, 5);

    const signal = failure(`duration: 1m\nnode:\n  eviction:\n    hard:\n      memory.free: 1Gi\n${POD}`);
    assert.match(signal.detail, /unsupported eviction signal memory\.free/);

    const pod = failure(`duration: 1m\npods:\n  - metadata: { name: web }\n    spec:\n      containers:\n        - name: app\n          image: a:1\n          resources:\n            requests: { memory: 100Mx }\n`);
    assert.equal(pod.field, 'pods[0].spec.containers[0].resources.requests.memory');
    assert.equal(pod.line, 9);
  });

  it('validates pods the way the API server would', () => {
    const e = failure(`duration: 1m\npods:\n  - metadata: { name: web }\n    spec:\n      restartPolicy: Sometimes\n      containers: [{ name: a, image: a:1 }]\n`);
    assert.equal(e.field, 'pods[0].spec.restartPolicy');
    assert.equal(e.line, 5);
    assert.match(e.detail, /Unsupported value: "Sometimes"/);
    assert.equal(failure(`duration: 1m\npods:\n  - metadata: { name: web }\n    spec: {}\n`).field, 'pods[0].spec.containers');
    const probe = failure(`duration: 1m\npods:\n  - metadata: { name: web }\n    spec:\n      containers:\n        - name: a\n          image: a:1\n          livenessProbe: { exec: { command: [x] }, successThreshold: 2 }\n`);
    assert.equal(probe.field, 'pods[0].spec.containers[0].livenessProbe.successThreshold');
    const dup = failure(`duration: 1m\npods:\n  - { metadata: { name: a }, spec: { containers: [{ name: c, image: i:1 }] } }\n  - { metadata: { name: a }, spec: { containers: [{ name: c, image: i:1 }] } }\n`);
    assert.equal(dup.field, 'pods[1].metadata.name');
    const init = failure(`duration: 1m\npods:\n  - metadata: { name: a }\n    spec:\n      initContainers: [{ name: i, image: i:1 }]\n      containers: [{ name: c, image: i:1 }]\n`);
    assert.equal(init.field, 'pods[0].spec.initContainers');
    assert.equal(init.line, 5);
    assert.match(init.detail, /not supported/);
  });

  it('checks that events name pods, containers and probes that exist', () => {
    assert.match(failure(`duration: 1m\n${POD}events:\n  - { at: 1s, event: pod-add, pod: nope }\n`).detail, /no pod named "nope"/);
    assert.match(failure(`duration: 1m\n${POD}events:\n  - { at: 1s, event: container-exit, container: db }\n`).detail, /pod "web" has no container "db" \(it has "app"\)/);
    assert.match(failure(`duration: 1m\n${POD}events:\n  - { at: 1s, event: probe-fail, container: app, probe: readiness }\n`).detail, /has no readinessProbe/);
    assert.match(failure(`duration: 1m\n${POD}events:\n  - { at: 2m, event: image-pull, image: a:1 }\n`).detail, /after the end of the scenario \(1m\)/);
    const two = `${POD}  - { metadata: { name: db }, spec: { containers: [{ name: app, image: a:1 }] } }\n`;
    assert.match(failure(`duration: 1m\n${two}events:\n  - { at: 1s, event: container-exit, container: app }\n`).detail, /several pods/);
  });

  it('rejects unknown fields, so typos do not pass silently', () => {
    const top = failure(`duration: 1m\nduraton: 2m\n${POD}`);
    assert.equal(top.field, 'duraton');
    assert.equal(top.line, 2);
    assert.equal(failure(`duration: 1m\nnode:\n  memroy: 1Gi\n${POD}`).field, 'node.memroy');
    assert.equal(failure(`duration: 1m\n${POD}events:\n  - { at: 1s, event: pod-add, pod: web, container: app }\n`).field, 'events[0].container');
  });

  it('reports YAML syntax errors and bad image GC settings with a line', () => {
    const syntax = failure(`duration: 1m\npods: [\n`);
    assert.equal(syntax.field, 'yaml');
    const gc = failure(`duration: 1m\nnode:\n  imageGC: { highThresholdPercent: 70, lowThresholdPercent: 80 }\n${POD}`);
    assert.equal(gc.field, 'node.imageGC');
    assert.match(gc.detail, /LowThresholdPercent 80 can not be higher than HighThresholdPercent 70/);
  });
});
