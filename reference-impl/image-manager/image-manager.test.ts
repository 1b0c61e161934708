import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock, SECOND, MINUTE, type Container, type Pod, type PullPolicy } from '../api/index.js';
import {
  newBackOff,
  ImageManager,
  FakeImageRuntime,
  FakeRecorder,
  applyDefaultImageTag,
  evalCRIPullErr,
  validateImagePullConfig,
  type ImagePodPullingTimeRecorder,
  ErrImagePull,
  ErrImagePullBackOff,
  ErrImageInspect,
  ErrImageNeverPull,
  ErrInvalidImageName,
  ErrRegistryUnavailable,
  ErrSignatureValidationFailed,
  SerialImagePuller,
  type PullResult,
} from './index.js';

// ---- pkg/kubelet/images/image_manager_test.go ----

interface PullerExpects {
  calls: string[];
  err: Error | undefined;
  shouldRecordStartedPullingTime: boolean;
  shouldRecordFinishedPullingTime: boolean;
}

interface PullerTestCase {
  testName: string;
  containerImage: string;
  policy: PullPolicy;
  inspectErr?: Error;
  pullerErr?: Error;
  qps: number;
  burst: number;
  expected: PullerExpects[];
}

const step = (calls: string[], err: Error | undefined, started: boolean, finished: boolean): PullerExpects => ({
  calls,
  err,
  shouldRecordStartedPullingTime: started,
  shouldRecordFinishedPullingTime: finished,
});
const times = <T>(n: number, v: T): T[] => Array.from({ length: n }, () => v);

const pullerTestCases = (): PullerTestCase[] => [
  {
    testName: 'image missing, pull',
    containerImage: 'missing_image',
    policy: 'IfNotPresent',
    qps: 0,
    burst: 0,
    expected: [step(['GetImageRef', 'PullImage'], undefined, true, true)],
  },
  {
    testName: "image present, don't pull ",
    containerImage: 'present_image',
    policy: 'IfNotPresent',
    qps: 0,
    burst: 0,
    expected: times(3, step(['GetImageRef'], undefined, false, false)),
  },
  {
    testName: 'image present, pull ',
    containerImage: 'present_image',
    policy: 'Always',
    qps: 0,
    burst: 0,
    expected: times(3, step(['GetImageRef', 'PullImage'], undefined, true, true)),
  },
  {
    testName: 'image missing, never pull',
    containerImage: 'missing_image',
    policy: 'Never',
    qps: 0,
    burst: 0,
    expected: times(3, step(['GetImageRef'], ErrImageNeverPull, false, false)),
  },
  {
    testName: 'image missing, pull if not present',
    containerImage: 'missing_image',
    policy: 'IfNotPresent',
    inspectErr: new Error('unknown inspectError'),
    qps: 0,
    burst: 0,
    expected: times(3, step(['GetImageRef'], ErrImageInspect, false, false)),
  },
  {
    testName: 'image missing, unable to fetch',
    containerImage: 'typo_image',
    policy: 'IfNotPresent',
    pullerErr: new Error('404'),
    qps: 0,
    burst: 0,
    expected: [
      step(['GetImageRef', 'PullImage'], ErrImagePull, true, false),
      step(['GetImageRef', 'PullImage'], ErrImagePull, true, false),
      step(['GetImageRef'], ErrImagePullBackOff, false, false),
      step(['GetImageRef', 'PullImage'], ErrImagePull, true, false),
      step(['GetImageRef'], ErrImagePullBackOff, false, false),
      step(['GetImageRef'], ErrImagePullBackOff, false, false),
    ],
  },
  {
    testName: 'image present and qps>0, pull',
    containerImage: 'present_image',
    policy: 'Always',
    qps: 400,
    burst: 600,
    expected: times(3, step(['GetImageRef', 'PullImage'], undefined, true, true)),
  },
  {
    testName: 'image present and excessive qps rate, pull',
    containerImage: 'present_image',
    policy: 'Always',
    qps: 2000,
    burst: 0,
    expected: [
      step(['GetImageRef'], ErrImagePull, true, false),
      step(['GetImageRef'], ErrImagePull, true, false),
      step(['GetImageRef'], ErrImagePullBackOff, false, false),
    ],
  },
  {
    testName: 'invalid image name, no pull',
    containerImage: 'FAILED_IMAGE',
    policy: 'Always',
    qps: 0,
    burst: 0,
    expected: [step([], ErrInvalidImageName, false, false)],
  },
  {
    testName: 'invalid image name with http, no pull',
    containerImage: 'http://url',
    policy: 'Always',
    qps: 0,
    burst: 0,
    expected: [step([], ErrInvalidImageName, false, false)],
  },
  {
    testName: 'invalid image name with sha256, no pull',
    containerImage: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    policy: 'Always',
    qps: 0,
    burst: 0,
    expected: [step([], ErrInvalidImageName, false, false)],
  },
];

class MockPodPullingTimeRecorder implements ImagePodPullingTimeRecorder {
  startedPullingRecorded = false;
  finishedPullingRecorded = false;
  recordImageStartedPulling(): void {
    this.startedPullingRecorded = true;
  }
  recordImageFinishedPulling(): void {
    this.finishedPullingRecorded = true;
  }
  reset(): void {
    this.startedPullingRecorded = false;
    this.finishedPullingRecorded = false;
  }
}

function pullerTestEnv(c: PullerTestCase, serialized: boolean, maxParallelImagePulls?: number) {
  const container: Container = { name: 'container_name', image: c.containerImage, imagePullPolicy: c.policy };
  const fakeClock = new FakeClock();
  const backOff = newBackOff(SECOND, MINUTE, fakeClock);
  const fakeRuntime = new FakeImageRuntime();
  fakeRuntime.imageList = [{ id: 'present_image:latest' }];
  fakeRuntime.err = c.pullerErr;
  fakeRuntime.inspectErr = c.inspectErr;
  const recorder = new MockPodPullingTimeRecorder();
  const puller = new ImageManager({
    recorder: new FakeRecorder(),
    imageService: fakeRuntime,
    backOff,
    serialized,
    maxParallelImagePulls,
    qps: c.qps,
    burst: c.burst,
    podPullingTimeRecorder: recorder,
    clock: fakeClock,
  });
  return { puller, fakeClock, fakeRuntime, container, recorder };
}

const testPod = (): Pod => ({ metadata: { name: 'test_pod', namespace: 'test-ns', uid: 'bar' }, spec: { containers: [] } });

function runPullerCases(serialized: boolean): void {
  for (const c of pullerTestCases()) {
    it(c.testName, () => {
      const pod = testPod();
      const { puller, fakeClock, fakeRuntime, container, recorder } = pullerTestEnv(c, serialized);
      c.expected.forEach((expected, tick) => {
        fakeRuntime.calledFunctions = [];
        fakeClock.step(SECOND);
        const { error } = puller.ensureImageExists(pod, container);
        assert.deepEqual(fakeRuntime.calledFunctions, expected.calls, `tick ${tick}: calls`);
        assert.equal(error, expected.err, `tick ${tick}: error`);
        assert.equal(recorder.startedPullingRecorded, expected.shouldRecordStartedPullingTime, `tick ${tick}: started`);
        assert.equal(recorder.finishedPullingRecorded, expected.shouldRecordFinishedPullingTime, `tick ${tick}: finished`);
        recorder.reset();
      });
    });
  }
}

describe('TestParallelPuller', () => runPullerCases(false));

describe('TestSerializedPuller', () => runPullerCases(true));

describe('TestApplyDefaultImageTag', () => {
  const digest = 'sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
  const cases: [string, string, string][] = [
    ['root', 'root', 'root:latest'],
    ['root:tag', 'root:tag', 'root:tag'],
    ['root@sha', `root@${digest}`, `root@${digest}`],
    ['root:latest@sha', `root:latest@${digest}`, `root:latest@${digest}`],
    ['root:latest', 'root:latest', 'root:latest'],
  ];
  for (const [name, input, output] of cases) {
    it(name, () => assert.equal(applyDefaultImageTag(input), output));
  }
});

describe('TestPullAndListImageWithPodAnnotations', () => {
  it('test pull and list image with pod annotations', () => {
    const pod: Pod = {
      metadata: { name: 'test_pod', namespace: 'test-ns', uid: 'bar', annotations: { 'kubernetes.io/runtimehandler': 'handler_name' } },
      spec: { containers: [] },
    };
    const c: PullerTestCase = { testName: '', containerImage: 'missing_image', policy: 'IfNotPresent', qps: 0, burst: 0, expected: [] };
    const { puller, fakeClock, fakeRuntime, container, recorder } = pullerTestEnv(c, true);
    fakeRuntime.calledFunctions = [];
    fakeRuntime.imageList = [];
    fakeClock.step(SECOND);
    const { error } = puller.ensureImageExists(pod, container);
    assert.deepEqual(fakeRuntime.calledFunctions, ['GetImageRef', 'PullImage']);
    assert.equal(error, undefined);
    assert.equal(recorder.startedPullingRecorded, true);
    assert.equal(recorder.finishedPullingRecorded, true);
    const images = fakeRuntime.listImages();
    assert.equal(images.length, 1);
    assert.equal(images[0].id, 'missing_image:latest');
    assert.deepEqual(images[0].spec?.annotations, [{ name: 'kubernetes.io/runtimehandler', value: 'handler_name' }]);
  });
});

describe('TestEvalCRIPullErr', () => {
  const container: Container = { name: '', image: 'test' };
  it('fallback error', () => {
    const [msg, err] = evalCRIPullErr(container, new Error('test'));
    assert.equal(err, ErrImagePull);
    assert.ok(msg.includes('test'));
  });
  it('registry is unavailable', () => {
    const [msg, err] = evalCRIPullErr(container, ErrRegistryUnavailable);
    assert.equal(err, ErrRegistryUnavailable);
    assert.equal(msg, 'image pull failed for test because the registry is unavailable');
  });
  it('registry is unavailable with additional error message', () => {
    const [msg, err] = evalCRIPullErr(container, new Error(`${ErrRegistryUnavailable.message}: foo`));
    assert.equal(err, ErrRegistryUnavailable);
    assert.equal(msg, 'image pull failed for test because the registry is unavailable: foo');
  });
  it('signature is invalid', () => {
    const [msg, err] = evalCRIPullErr(container, ErrSignatureValidationFailed);
    assert.equal(err, ErrSignatureValidationFailed);
    assert.equal(msg, 'image pull failed for test because the signature validation failed');
  });
  it('signature is invalid with additional error message (wrapped)', () => {
    const [msg, err] = evalCRIPullErr(container, new Error(`${ErrSignatureValidationFailed.message}: bar`));
    assert.equal(err, ErrSignatureValidationFailed);
    assert.equal(msg, 'image pull failed for test because the signature validation failed: bar');
  });
});

// ---- beyond the Go tests: bad input and the synchronous serial queue ----

describe('bad input', () => {
  it('negative registry QPS is rejected naming the field', () => {
    assert.throws(() => validateImagePullConfig({ qps: -1, burst: 0, serialized: false }), /registryPullQPS/);
  });
  it('negative burst is rejected naming the field', () => {
    assert.throws(() => validateImagePullConfig({ qps: 1, burst: -1, serialized: false }), /registryBurst/);
  });
  it('maxParallelImagePulls 0 is rejected', () => {
    assert.throws(() => validateImagePullConfig({ qps: 0, burst: 0, serialized: false, maxParallelImagePulls: 0 }), /maxParallelImagePulls/);
  });
  it('maxParallelImagePulls > 1 with serialized pulls is rejected', () => {
    assert.throws(() => validateImagePullConfig({ qps: 0, burst: 0, serialized: true, maxParallelImagePulls: 5 }), /maxParallelImagePulls/);
  });
  it('negative backoff durations are rejected', () => {
    assert.throws(() => newBackOff(-1, MINUTE, new FakeClock()), /initial/);
  });
  it('an uppercase repository is an invalid image name, not a crash', () => {
    assert.throws(() => applyDefaultImageTag('Busybox'), /lowercase/);
  });
});

describe('serial puller ordering', () => {
  it('a pull requested while another is being delivered waits its turn', () => {
    const clock = new FakeClock();
    const runtime = new FakeImageRuntime();
    const puller = new SerialImagePuller(runtime, clock);
    const order: string[] = [];
    puller.pullImage({ image: 'a:1' }, [], (r: PullResult) => {
      order.push(`done ${r.imageRef}`);
      puller.pullImage({ image: 'b:1' }, [], (r2) => order.push(`done ${r2.imageRef}`));
      order.push('queued b');
    });
    assert.deepEqual(order, ['done a:1', 'queued b', 'done b:1']);
  });
});
