import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../api/index.js';
import { fieldPath, generateContainerRef, ContainerNotInPodError, type PodWithVersion } from './index.js';

describe('TestFieldPath', () => {
  const pod: Pod = {
    metadata: {},
    spec: { containers: [{ name: 'foo' }, { name: 'bar' }, { name: '' }, { name: 'baz' }] },
  };

  it('basic', () => {
    assert.equal(fieldPath(pod, { name: 'foo' }), 'spec.containers{foo}');
  });
  it('basic2', () => {
    assert.equal(fieldPath(pod, { name: 'baz' }), 'spec.containers{baz}');
  });
  it('emptyName', () => {
    assert.equal(fieldPath(pod, { name: '' }), 'spec.containers[2]');
  });
  it('basicSamePointer', () => {
    assert.equal(fieldPath(pod, pod.spec.containers[0]), 'spec.containers{foo}');
  });
  it('missing', () => {
    assert.throws(() => fieldPath(pod, { name: 'qux' }), ContainerNotInPodError);
  });
});

describe('TestGenerateContainerRef', () => {
  const okPod: PodWithVersion = {
    kind: 'Pod',
    apiVersion: 'v1',
    metadata: { name: 'ok', namespace: 'test-ns', uid: 'bar', resourceVersion: '42' },
    spec: { containers: [{ name: 'by-name' }, { name: '' }] },
  };
  const identity = { kind: 'Pod', apiVersion: 'v1', name: 'ok', namespace: 'test-ns', uid: 'bar', resourceVersion: '42' };

  // The Go expectations write fieldPath with a leading dot but never compare it; these are the
  // values GenerateContainerRef really returns (see CASES.md).
  it('by-name', () => {
    assert.deepEqual(generateContainerRef(okPod, { name: 'by-name' }), { ...identity, fieldPath: 'spec.containers{by-name}' });
  });
  it('no-name', () => {
    assert.deepEqual(generateContainerRef(okPod, { name: '' }), { ...identity, fieldPath: 'spec.containers[1]' });
  });
  it('implicitly-required', () => {
    assert.deepEqual(generateContainerRef(okPod, { name: 'net' }), { ...identity, fieldPath: 'implicitly required container net' });
  });
});

describe('fieldPath beyond the Go table', () => {
  const pod: Pod = {
    metadata: { name: 'p', namespace: 'ns' },
    spec: {
      containers: [{ name: 'app' }],
      initContainers: [{ name: 'init' }, { name: '' }],
      ephemeralContainers: [{ name: 'debug' }],
    },
  };
  it('init and ephemeral containers use their own list names', () => {
    assert.equal(fieldPath(pod, { name: 'init' }), 'spec.initContainers{init}');
    assert.equal(fieldPath(pod, { name: '' }), 'spec.initContainers[1]');
    assert.equal(fieldPath(pod, { name: 'debug' }), 'spec.ephemeralContainers{debug}');
  });
  it('a pod without TypeMeta gets Pod/v1 from the scheme fallback', () => {
    const ref = generateContainerRef(pod, { name: 'app' });
    assert.equal(ref.kind, 'Pod');
    assert.equal(ref.apiVersion, 'v1');
  });
  it('the error names the container and the pod', () => {
    assert.throws(() => fieldPath(pod, { name: 'nope' }), /container "nope" not found in pod ns\/p/);
  });
});
