import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock, SECOND, MINUTE, type Container, type Pod, type PullPolicy } from '../api/index.js';
import {
  Backoff,
  newBackOff,
  newFakeBackOff,
  seededRandom,
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

// ---- staging/src/k8s.io/client-go/util/flowcontrol/backoff_test.go ----

describe('TestSlowBackoff', () => {
  it('delays 0,1,2,4,8,16,32,50,50,50 then Reset clears', () => {
    const id = '_idSlow';
    const tc = new FakeClock();
    const maxDuration = 50 * SECOND;
    const b = newFakeBackOff(SECOND, maxDuration, tc);
    const cases = [0, 1, 2, 4, 8, 16, 32, 50, 50, 50];
    cases.forEach((c, ix) => {
      tc.step(SECOND);
      assert.equal(b.get(id), c * SECOND, `input ${ix}`);
      b.next(id, tc.now());
    });
    b.next(id, tc.now());
    b.reset(id);
    assert.equal(b.get(id), 0);
  });
});

describe('TestBackoffReset', () => {
  it('backoff is forgotten after 2*maxDuration without updates', () => {
    const id = '_idReset';
    const tc = new FakeClock();
    const maxDuration = 5 * SECOND;
    const b = newFakeBackOff(SECOND, maxDuration, tc);
    for (let i = 0; i <= maxDuration / SECOND; i++) {
      tc.step(SECOND);
      b.next(id, tc.now());
    }
    assert.equal(b.isInBackOffSince(id, tc.now()), true);
    const lastUpdate = tc.now();
    tc.step(2 * maxDuration + SECOND);
    assert.equal(b.isInBackOffSince(id, lastUpdate), false);
  });
});

describe('TestBackoffHighWaterMark', () => {
  it('stays at the max while updates keep coming', () => {
    const id = '_idHiWaterMark';
    const tc = new FakeClock();
    const maxDuration = 5 * SECOND;
    const b = newFakeBackOff(SECOND, maxDuration, tc);
    for (let i = 0; i <= maxDuration / SECOND; i++) {
      tc.step(SECOND);
      b.next(id, tc.now());
    }
    tc.step(maxDuration + SECOND);
    b.next(id, tc.now());
    assert.equal(b.get(id), maxDuration);
  });
});

describe('TestBackoffGC', () => {
  it('keeps the entry until 2*maxDuration have passed, then drops it', () => {
    const id = '_idGC';
    const tc = new FakeClock();
    const maxDuration = 5 * SECOND;
    const b = newFakeBackOff(SECOND, maxDuration, tc);
    for (let i = 0; i <= maxDuration / SECOND; i++) {
      tc.step(SECOND);
      b.next(id, tc.now());
    }
    tc.step(maxDuration + SECOND);
    b.gc();
    assert.equal(b.has(id), true, 'expected GC to skip entry');
    tc.step(maxDuration + SECOND);
    b.gc();
    assert.equal(b.has(id), false, 'expected GC of entry');
  });
});

describe('TestIsInBackOffSinceUpdate', () => {
  it('38 ticks of in/out of backoff', () => {
    const id = '_idIsInBackOffSinceUpdate';
    const tc = new FakeClock();
    const b = newFakeBackOff(SECOND, 10 * SECOND, tc);
    const startTime = tc.now();
    // [tick, inBackOff, value]
    const cases: [number, boolean, number][] = [
      [0, false, 0], [1, false, 1], [2, true, 2], [3, false, 2], [4, true, 4], [5, true, 4], [6, true, 4],
      [7, false, 4], [8, true, 8], [9, true, 8], [10, true, 8], [11, true, 8], [12, true, 8], [13, true, 8],
      [14, true, 8], [15, false, 8], [16, true, 10], [17, true, 10], [18, true, 10], [19, true, 10],
      [20, true, 10], [21, true, 10], [22, true, 10], [23, true, 10], [24, true, 10], [25, false, 10],
      [26, true, 10], [27, true, 10], [28, true, 10], [29, true, 10], [30, true, 10], [31, true, 10],
      [32, true, 10], [33, true, 10], [34, true, 10], [35, false, 10], [56, false, 0], [57, false, 1],
    ];
    for (const [tick, inBackOff, value] of cases) {
      tc.setTime(startTime + tick * SECOND);
      assert.equal(b.isInBackOffSinceUpdate(id, tc.now()), inBackOff, `tick ${tick}`);
      if (inBackOff) assert.equal(b.get(id), value * SECOND, `tick ${tick} value`);
      if (!inBackOff) b.next(id, tc.now());
    }
  });
});

describe('TestBackoffWithJitter', () => {
  it('each delay is 2x the previous plus at most 10% jitter, capped at the max', () => {
    const id = '_idJitter';
    const tc = new FakeClock();
    const initial = 100;
    const maxDuration = MINUTE;
    const maxJitterFactor = 0.1;
    const b = new Backoff(tc, initial, maxDuration, maxJitterFactor, seededRandom(42));
    const check = (factor: number, prev: number, cur: number) => {
      const low = prev * factor;
      const high = low + maxJitterFactor * prev;
      assert.ok((cur > low && cur <= high) || cur === maxDuration, `jittered delay ${cur} not within (${low}, ${high}]`);
    };
    const next = () => {
      tc.step(initial);
      b.next(id, tc.now());
      return b.get(id);
    };
    assert.equal(b.get(id), 0);
    let prev = next();
    check(1, initial, prev);
    for (let i = 0; i < 10; i++) {
      const cur = next();
      check(2, prev, cur);
      prev = cur;
    }
    assert.equal(prev, maxDuration, 'the max is reached within 11 attempts');
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
