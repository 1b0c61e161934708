import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../api/index.js';
import {
  BasicManager,
  parsePodFullName,
  PodFullNameError,
  getValidatedSources,
  getPodSource,
  isMirrorPod,
  isStaticPod,
  isMirrorPodOf,
  PodSourceError,
  ConfigSourceAnnotationKey as SOURCE,
  ConfigMirrorAnnotationKey as MIRROR,
  ConfigHashAnnotationKey as HASH,
  FileSource,
  HTTPSource,
  ApiserverSource,
  AllSource,
} from './index.js';

function pod(uid: string, name: string, namespace: string, annotations?: Record<string, string>): Pod {
  return { metadata: { uid, name, namespace, annotations }, spec: { containers: [] } };
}

// pkg/kubelet/pod/pod_manager_test.go
describe('TestGetSetPods', () => {
  it('indexes regular pods, translates the mirror UID and finds the static pod by name', () => {
    const mirrorPod = pod('987654321', 'bar', 'default', { [SOURCE]: 'api', [MIRROR]: 'mirror' });
    const staticPod = pod('123456789', 'bar', 'default', { [SOURCE]: 'file' });
    const expectedPods = [pod('999999999', 'taco', 'default', { [SOURCE]: 'api' }), staticPod];
    const manager = new BasicManager();
    manager.setPods([...expectedPods, mirrorPod]);

    const actual = manager.getPods();
    assert.equal(actual.length, expectedPods.length);
    for (const expected of expectedPods) {
      const found = actual.find((p) => p.metadata.uid === expected.metadata.uid);
      assert.deepEqual(found, expected);
    }
    assert.equal(manager.translatePodUID(mirrorPod.metadata.uid as string), staticPod.metadata.uid);
    assert.deepEqual(manager.getPodByFullName('bar_default'), staticPod);
    assert.deepEqual(manager.getPodByName('default', 'bar'), staticPod);
  });
});

describe('TestRemovePods', () => {
  it('removing the static pod leaves its mirror orphaned', () => {
    const mirrorPod = pod('mirror-pod-uid', 'mirror-static-pod-name', 'default', { [SOURCE]: 'api', [MIRROR]: 'mirror' });
    const staticPod = pod('static-pod-uid', 'mirror-static-pod-name', 'default', { [SOURCE]: 'file' });
    const expectedPods = [pod('extra-pod-uid', 'extra-pod-name', 'default', { [SOURCE]: 'api' }), staticPod];
    const manager = new BasicManager();
    manager.setPods([...expectedPods, mirrorPod]);

    manager.removePod(staticPod);
    assert.notEqual(manager.getPods().length, expectedPods.length);
    const { orphanedMirrorPodFullNames } = manager.getPodsAndMirrorPods();
    assert.deepEqual(orphanedMirrorPodFullNames, ['mirror-static-pod-name_default']);
  });
});

// pkg/kubelet/pod/mirror_client_test.go: 3 names that parse, 5 that do not.
describe('TestParsePodFullName', () => {
  const good: [string, string, string][] = [
    ['bar_foo', 'bar', 'foo'],
    ['bar.org_foo.com', 'bar.org', 'foo.com'],
    ['bar-bar_foo', 'bar-bar', 'foo'],
  ];
  for (const [full, name, namespace] of good) {
    it(`success ${JSON.stringify(full)}`, () => assert.deepEqual(parsePodFullName(full), [name, namespace]));
  }
  for (const full of ['barfoo', 'bar_foo_foo', '', 'bar_', '_foo']) {
    it(`failure ${JSON.stringify(full)}`, () => assert.throws(() => parsePodFullName(full), PodFullNameError));
  }
});

// pkg/kubelet/types/pod_update_test.go
const typesTestPod = (annotations?: Record<string, string>) => pod('', 'foo', 'default', annotations);

describe('TestIsStaticPod', () => {
  it('static pod with file source', () => assert.equal(isStaticPod(typesTestPod({ [SOURCE]: FileSource })), true));
  it('static pod with http source', () => assert.equal(isStaticPod(typesTestPod({ [SOURCE]: HTTPSource })), true));
  it('static pod with api server source', () => assert.equal(isStaticPod(typesTestPod({ [SOURCE]: ApiserverSource })), false));
});

describe('TestIsMirrorPod', () => {
  it('mirror pod', () => assert.equal(isMirrorPod(typesTestPod({ [MIRROR]: 'true' })), true));
  it('not a mirror pod', () => assert.equal(isMirrorPod(typesTestPod()), false));
});

describe('TestGetPodSource', () => {
  it('cannot get pod source', () => assert.throws(() => getPodSource(typesTestPod()), PodSourceError));
  it('valid annotation returns the source', () => {
    assert.equal(getPodSource(typesTestPod({ [SOURCE]: 'host-ipc-sources' })), 'host-ipc-sources');
  });
});

describe('TestGetValidatedSources', () => {
  it('empty source', () => assert.equal(getValidatedSources(['']).length, 0));
  it('file and apiserver source', () => assert.equal(getValidatedSources([FileSource, ApiserverSource]).length, 2));
  it('all source', () => assert.equal(getValidatedSources([AllSource]).length, 3));
  it('unknown source', () => assert.throws(() => getValidatedSources(['unknown']), /sources: Unsupported value: "unknown"/));
});

// Behaviour the Go tests exercise only through other packages; checked here against the Go code.
describe('port: static/mirror pairing', () => {
  const staticPod = pod('s-1', 'etcd', 'kube-system', { [SOURCE]: 'file', [HASH]: 'h1' });
  const mirrorPod = pod('m-1', 'etcd', 'kube-system', { [SOURCE]: 'api', [MIRROR]: 'h1' });

  it('links the pair whichever half arrives first', () => {
    const a = new BasicManager();
    a.addPod(mirrorPod);
    a.addPod(staticPod);
    const b = new BasicManager();
    b.addPod(staticPod);
    b.addPod(mirrorPod);
    for (const m of [a, b]) assert.equal(m.translatePodUID('m-1'), 's-1');
  });

  it('GetPodAndMirrorPod completes the pair from either half', () => {
    const m = new BasicManager();
    m.setPods([staticPod, mirrorPod]);
    assert.deepEqual(m.getPodAndMirrorPod(staticPod), { pod: staticPod, mirrorPod, wasMirror: false });
    assert.deepEqual(m.getPodAndMirrorPod(mirrorPod), { pod: staticPod, mirrorPod, wasMirror: true });
    assert.equal(m.getPodByMirrorPod(mirrorPod), staticPod);
    assert.equal(m.getMirrorPodByPod(staticPod), mirrorPod);
    assert.equal(m.getPodByUID('m-1'), undefined, 'mirror pods are not regular pods');
  });

  it('GetUIDTranslations maps a static pod without mirror to ""', () => {
    const m = new BasicManager();
    m.setPods([staticPod, pod('s-2', 'lonely', 'default', { [SOURCE]: 'http' }), pod('a-1', 'web', 'default', { [SOURCE]: 'api' }), mirrorPod]);
    const { podToMirror, mirrorToPod } = m.getUIDTranslations();
    assert.deepEqual([...podToMirror].sort(), [['s-1', 'm-1'], ['s-2', '']]);
    assert.deepEqual([...mirrorToPod], [['m-1', 's-1']]);
  });

  it('removing the mirror drops the translation; empty UID is never translated', () => {
    const m = new BasicManager();
    m.setPods([staticPod, mirrorPod]);
    m.removePod(mirrorPod);
    assert.equal(m.translatePodUID('m-1'), 'm-1');
    assert.equal(m.translatePodUID(''), '');
  });

  it('IsMirrorPodOf compares name, namespace and the config hash', () => {
    assert.equal(isMirrorPodOf(mirrorPod, staticPod), true);
    assert.equal(isMirrorPodOf(pod('m-1', 'etcd', 'kube-system', { [MIRROR]: 'h2' }), staticPod), false);
    assert.equal(isMirrorPodOf(pod('m-1', 'etcd', 'default', { [MIRROR]: 'h1' }), staticPod), false);
    assert.equal(isMirrorPodOf(pod('m-1', 'etcd', 'kube-system'), staticPod), false);
  });

  it('rejects pods without a UID or a name, naming the field', () => {
    const m = new BasicManager();
    assert.throws(() => m.addPod(pod('', 'x', 'default')), /metadata\.uid: Required value/);
    assert.throws(() => m.addPod(pod('u', '', 'default')), /metadata\.name: Required value/);
  });
});
