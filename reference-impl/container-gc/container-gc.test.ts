import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock, MINUTE } from '../api/index.js';
import {
  ContainerGC,
  FakeRuntimeService,
  FakeLogFS,
  RealContainerGC,
  DEFAULT_GC_POLICY,
  KubernetesPodUIDLabel,
  buildContainerName,
  buildSandboxName,
  podLogsRootDirectory,
  type CRIContainer,
  type CRIPodSandbox,
  type ContainerState,
  type PodSandboxState,
  type GCPolicy,
  type PodStateProvider,
} from './index.js';

const HOUR = 60 * MINUTE;

/** Like the Go fakePodStateProvider: `removed` answers ShouldPodContentBeRemoved, `terminated` ShouldPodRuntimeBeRemoved. */
class FakePodStateProvider implements PodStateProvider {
  removed = new Set<string>();
  terminated = new Set<string>();
  shouldPodContentBeRemoved(uid: string) {
    return this.removed.has(uid);
  }
  shouldPodRuntimeBeRemoved(uid: string) {
    return this.terminated.has(uid);
  }
}

interface TestPod {
  name: string;
  namespace: string;
  uid: string;
}

function sandboxOf(pod: TestPod, attempt: number, state: PodSandboxState, createdAt: number): CRIPodSandbox {
  const metadata = { name: pod.name, namespace: pod.namespace, uid: pod.uid, attempt };
  return { id: buildSandboxName(metadata), metadata, state, createdAt };
}

interface ContainerTemplate {
  pod: TestPod;
  name: string;
  sandboxAttempt?: number;
  attempt?: number;
  createdAt?: number;
  state: ContainerState;
}

function containerOf(t: ContainerTemplate): CRIContainer {
  const sandboxId = buildSandboxName({ name: t.pod.name, namespace: t.pod.namespace, uid: t.pod.uid, attempt: t.sandboxAttempt ?? 0 });
  const metadata = { name: t.name, attempt: t.attempt ?? 0 };
  return {
    id: buildContainerName(metadata, sandboxId),
    podSandboxId: sandboxId,
    metadata,
    state: t.state,
    createdAt: t.createdAt ?? 0,
    labels: { [KubernetesPodUIDLabel]: t.pod.uid },
  };
}

/** makeGCContainer: the pod's UID is its name, its namespace "test-ns". */
function gcContainer(podName: string, name: string, attempt: number, createdAt: number, state: ContainerState): ContainerTemplate {
  return { pod: { name: podName, namespace: 'test-ns', uid: podName }, name, attempt, createdAt, state };
}

const EXITED: ContainerState = 'CONTAINER_EXITED';
const RUNNING: ContainerState = 'CONTAINER_RUNNING';

function setup() {
  const clock = new FakeClock();
  const runtime = new FakeRuntimeService();
  const states = new FakePodStateProvider();
  const logFS = new FakeLogFS();
  return { clock, runtime, states, gc: new ContainerGC(runtime, states, clock, logFS) };
}

// pkg/kubelet/kuberuntime/kuberuntime_gc_test.go
describe('TestSandboxGC', () => {
  const pods: TestPod[] = [
    { name: 'foo1', namespace: 'new', uid: '1234' },
    { name: 'foo2', namespace: 'new', uid: '5678' },
    { name: 'deleted', namespace: 'new', uid: '9012' },
  ];
  interface SandboxTemplate {
    pod: TestPod;
    attempt: number;
    state: PodSandboxState;
    running: boolean;
    terminating: boolean;
    createdAt: number;
  }
  const sb = (pod: TestPod, attempt: number, state: PodSandboxState, running: boolean, terminating: boolean, createdAt: number): SandboxTemplate => ({
    pod, attempt, state, running, terminating, createdAt,
  });
  const READY: PodSandboxState = 'SANDBOX_READY';
  const NOTREADY: PodSandboxState = 'SANDBOX_NOTREADY';
  const cases: { description: string; sandboxes: SandboxTemplate[]; containers: ContainerTemplate[]; remain: number[]; evictTerminatingPods: boolean }[] = [
    {
      description: 'notready sandboxes without containers for deleted pods should be garbage collected.',
      sandboxes: [sb(pods[2], 0, NOTREADY, false, false, 0)],
      containers: [],
      remain: [],
      evictTerminatingPods: false,
    },
    {
      description: 'ready sandboxes without containers for deleted pods should not be garbage collected.',
      sandboxes: [sb(pods[2], 0, READY, false, false, 0)],
      containers: [],
      remain: [0],
      evictTerminatingPods: false,
    },
    {
      description: 'sandboxes for existing pods should not be garbage collected.',
      sandboxes: [sb(pods[0], 0, READY, true, false, 0), sb(pods[1], 0, NOTREADY, true, false, 0)],
      containers: [],
      remain: [0, 1],
      evictTerminatingPods: false,
    },
    {
      description: 'older exited sandboxes without containers for existing pods should be garbage collected if there are more than one exited sandboxes.',
      sandboxes: [sb(pods[0], 1, NOTREADY, true, false, 1), sb(pods[0], 0, NOTREADY, true, false, 0)],
      containers: [],
      remain: [0],
      evictTerminatingPods: false,
    },
    {
      description: 'older exited sandboxes with containers for existing pods should not be garbage collected even if there are more than one exited sandboxes.',
      sandboxes: [sb(pods[0], 1, NOTREADY, true, false, 1), sb(pods[0], 0, NOTREADY, true, false, 0)],
      containers: [{ pod: pods[0], name: 'bar1', sandboxAttempt: 0, state: EXITED }],
      remain: [0, 1],
      evictTerminatingPods: false,
    },
    {
      description: 'non-running sandboxes for existing pods should be garbage collected if evictTerminatingPods is set.',
      sandboxes: [sb(pods[0], 0, READY, true, true, 0), sb(pods[1], 0, NOTREADY, true, true, 0)],
      containers: [],
      remain: [0],
      evictTerminatingPods: true,
    },
    {
      description: 'sandbox with containers should not be garbage collected.',
      sandboxes: [sb(pods[0], 0, NOTREADY, false, false, 0)],
      containers: [{ pod: pods[0], name: 'bar1', state: EXITED }],
      remain: [0],
      evictTerminatingPods: false,
    },
    {
      description: 'multiple sandboxes should be handled properly.',
      sandboxes: [
        sb(pods[0], 1, READY, true, false, 1), // running sandbox
        sb(pods[0], 0, NOTREADY, true, false, 0), // exited, no containers
        sb(pods[1], 1, NOTREADY, true, false, 1), // exited, with a container
        sb(pods[1], 0, NOTREADY, true, false, 0), // exited, no containers
        sb(pods[2], 0, NOTREADY, false, true, 0), // exited, no containers, pod deleted
      ],
      containers: [{ pod: pods[1], name: 'bar3', sandboxAttempt: 1, state: EXITED }],
      remain: [0, 2],
      evictTerminatingPods: false,
    },
  ];
  for (const tc of cases) {
    it(tc.description, () => {
      const { runtime, states, gc } = setup();
      const sandboxes = tc.sandboxes.map((s) => sandboxOf(s.pod, s.attempt, s.state, s.createdAt));
      for (const s of tc.sandboxes) {
        if (!s.running && s.pod.name === 'deleted') states.removed.add(s.pod.uid);
        if (s.terminating) states.terminated.add(s.pod.uid);
      }
      runtime.setFakeSandboxes(sandboxes);
      runtime.setFakeContainers(tc.containers.map(containerOf));

      gc.evictSandboxes(tc.evictTerminatingPods);
      const remaining = runtime.listPodSandbox();
      assert.equal(remaining.length, tc.remain.length);
      for (const i of tc.remain) assert.deepEqual(remaining.find((s) => s.id === sandboxes[i].id), sandboxes[i]);
      assert.deepEqual(gc.errors, []);
    });
  }
});

describe('TestContainerGC', () => {
  const defaultGCPolicy: GCPolicy = { minAgeMs: HOUR, maxPerPodContainer: 2, maxContainers: 6 };
  const start = new FakeClock().now();
  const recent = start; // Go: time.Now().UnixNano()
  const cases: { description: string; containers: ContainerTemplate[]; policy?: GCPolicy; remain: number[]; evictTerminatingPods: boolean; allSourcesReady: boolean }[] = [
    {
      description: 'all containers should be removed when max container limit is 0',
      containers: [gcContainer('foo', 'bar', 0, 0, EXITED)],
      policy: { minAgeMs: MINUTE, maxPerPodContainer: 1, maxContainers: 0 },
      remain: [],
      evictTerminatingPods: false,
      allSourcesReady: true,
    },
    {
      description: 'max containers should be complied when no max per pod container limit is set',
      containers: [4, 3, 2, 1, 0].map((n) => gcContainer('foo', 'bar', n, n, EXITED)),
      policy: { minAgeMs: MINUTE, maxPerPodContainer: -1, maxContainers: 4 },
      remain: [0, 1, 2, 3],
      evictTerminatingPods: false,
      allSourcesReady: true,
    },
    {
      description: 'no containers should be removed if both max container and per pod container limits are not set',
      containers: [2, 1, 0].map((n) => gcContainer('foo', 'bar', n, n, EXITED)),
      policy: { minAgeMs: MINUTE, maxPerPodContainer: -1, maxContainers: -1 },
      remain: [0, 1, 2],
      evictTerminatingPods: false,
      allSourcesReady: true,
    },
    {
      description: 'recently started containers should not be removed',
      containers: [2, 1, 0].map((n) => gcContainer('foo', 'bar', n, recent, EXITED)),
      remain: [0, 1, 2],
      evictTerminatingPods: false,
      allSourcesReady: true,
    },
    {
      description: 'oldest containers should be removed when per pod container limit exceeded',
      containers: [2, 1, 0].map((n) => gcContainer('foo', 'bar', n, n, EXITED)),
      remain: [0, 1],
      evictTerminatingPods: false,
      allSourcesReady: true,
    },
    {
      description: 'running containers should not be removed',
      containers: [gcContainer('foo', 'bar', 2, 2, EXITED), gcContainer('foo', 'bar', 1, 1, EXITED), gcContainer('foo', 'bar', 0, 0, RUNNING)],
      remain: [0, 1, 2],
      evictTerminatingPods: false,
      allSourcesReady: true,
    },
    {
      description: 'no containers should be removed when limits are not exceeded',
      containers: [1, 0].map((n) => gcContainer('foo', 'bar', n, n, EXITED)),
      remain: [0, 1],
      evictTerminatingPods: false,
      allSourcesReady: true,
    },
    {
      description: 'max container count should apply per (UID, container) pair',
      containers: [
        ...[2, 1, 0].map((n) => gcContainer('foo', 'bar', n, n, EXITED)),
        ...[2, 1, 0].map((n) => gcContainer('foo1', 'baz', n, n, EXITED)),
        ...[2, 1, 0].map((n) => gcContainer('foo2', 'bar', n, n, EXITED)),
      ],
      remain: [0, 1, 3, 4, 6, 7],
      evictTerminatingPods: false,
      allSourcesReady: true,
    },
    {
      description: 'max limit should apply and try to keep from every pod',
      containers: [
        ['foo', 'bar'],
        ['foo1', 'bar1'],
        ['foo2', 'bar2'],
        ['foo3', 'bar3'],
        ['foo4', 'bar4'],
      ].flatMap(([p, c]) => [gcContainer(p, c, 1, 1, EXITED), gcContainer(p, c, 0, 0, EXITED)]),
      remain: [0, 2, 4, 6, 8],
      evictTerminatingPods: false,
      allSourcesReady: true,
    },
    {
      description: 'oldest pods should be removed if limit exceeded',
      containers: [
        gcContainer('foo', 'bar', 2, 2, EXITED),
        gcContainer('foo', 'bar', 1, 1, EXITED),
        gcContainer('foo1', 'bar1', 2, 2, EXITED),
        gcContainer('foo1', 'bar1', 1, 1, EXITED),
        gcContainer('foo2', 'bar2', 1, 1, EXITED),
        gcContainer('foo3', 'bar3', 0, 0, EXITED),
        gcContainer('foo4', 'bar4', 1, 1, EXITED),
        gcContainer('foo5', 'bar5', 0, 0, EXITED),
        gcContainer('foo6', 'bar6', 2, 2, EXITED),
        gcContainer('foo7', 'bar7', 1, 1, EXITED),
      ],
      remain: [0, 2, 4, 6, 8, 9],
      evictTerminatingPods: false,
      allSourcesReady: true,
    },
    {
      description: 'all non-running containers should be removed when evictTerminatingPods is set',
      containers: [
        gcContainer('foo', 'bar', 2, 2, EXITED),
        gcContainer('foo', 'bar', 1, 1, EXITED),
        gcContainer('foo1', 'bar1', 2, 2, EXITED),
        gcContainer('foo1', 'bar1', 1, 1, EXITED),
        gcContainer('running', 'bar2', 1, 1, EXITED),
        gcContainer('foo3', 'bar3', 0, 0, RUNNING),
      ],
      remain: [4, 5],
      evictTerminatingPods: true,
      allSourcesReady: true,
    },
    {
      description: 'containers for deleted pods should be removed',
      containers: [
        gcContainer('foo', 'bar', 1, 1, EXITED),
        gcContainer('foo', 'bar', 0, 0, EXITED),
        // deleted pods still respect MinAge.
        gcContainer('deleted', 'bar1', 2, recent, EXITED),
        gcContainer('deleted', 'bar1', 1, 1, EXITED),
        gcContainer('deleted', 'bar1', 0, 0, EXITED),
      ],
      remain: [0, 1, 2],
      evictTerminatingPods: false,
      allSourcesReady: true,
    },
    {
      description: 'containers for deleted pods may not be removed if allSourcesReady is set false ',
      containers: [gcContainer('deleted', 'bar1', 0, 0, EXITED)],
      remain: [0],
      evictTerminatingPods: true,
      allSourcesReady: false,
    },
  ];
  for (const tc of cases) {
    it(tc.description, () => {
      const { runtime, states, gc } = setup();
      const containers = tc.containers.map(containerOf);
      for (const t of tc.containers) {
        if (t.pod.name === 'deleted') states.removed.add(t.pod.uid);
        if (t.pod.name !== 'running') states.terminated.add(t.pod.uid);
      }
      runtime.setFakeContainers(containers);

      gc.evictContainers(tc.policy ?? defaultGCPolicy, tc.allSourcesReady, tc.evictTerminatingPods);
      const remaining = runtime.listContainers();
      assert.equal(remaining.length, tc.remain.length);
      for (const i of tc.remain) assert.deepEqual(remaining.find((c) => c.id === containers[i].id), containers[i]);
    });
  }
});

describe('TestPodLogDirectoryGC', () => {
  it('removes log directories of removed pods only when all sources are ready', () => {
    const states = new FakePodStateProvider();
    const logFS = new FakeLogFS(['123', '456', '789', '012', 'name_namespace_321', 'name_namespace_654']);
    const gc = new ContainerGC(new FakeRuntimeService(), states, new FakeClock(), logFS);
    for (const uid of ['012', '789', '654']) states.removed.add(uid);

    gc.evictPodLogsDirectories(true);
    assert.deepEqual(logFS.removes, ['789', '012', 'name_namespace_654'].map((d) => `${podLogsRootDirectory}/${d}`));

    logFS.removes.length = 0;
    gc.evictPodLogsDirectories(false);
    assert.deepEqual(logFS.removes, []);
  });
});

describe('TestUnknownStateContainerGC', () => {
  it('a container in unknown state is stopped before it is removed', () => {
    const { runtime, gc } = setup();
    runtime.setFakeContainers([containerOf(gcContainer('foo', 'bar', 0, 0, 'CONTAINER_UNKNOWN'))]);
    gc.evictContainers({ minAgeMs: HOUR, maxPerPodContainer: 0, maxContainers: 0 }, true, false);
    const stop = runtime.calls.indexOf('StopContainer');
    assert.ok(stop >= 0 && runtime.calls.indexOf('RemoveContainer') > stop);
    assert.deepEqual(runtime.listContainers(), []);
  });
});

// Not Go test tables: the wrapper, the policy checks and the clock.
describe('port: policy and wrapper', () => {
  it('NewContainerGC rejects a negative MinAge and non-integer limits, naming the field', () => {
    const { gc } = setup();
    assert.throws(() => new RealContainerGC(gc, { ...DEFAULT_GC_POLICY, minAgeMs: -1 }, () => true), /minAgeMs: Invalid value: -1/);
    assert.throws(() => new RealContainerGC(gc, { ...DEFAULT_GC_POLICY, maxContainers: 1.5 }, () => true), /maxContainers: Invalid value: 1.5/);
  });

  it('the defaults keep one dead container per (pod, name) and no global cap', () => {
    const { runtime, states, gc } = setup();
    const containers = [2, 1, 0].map((n) => containerOf(gcContainer('foo', 'bar', n, n, EXITED)));
    runtime.setFakeContainers(containers);
    new RealContainerGC(gc, DEFAULT_GC_POLICY, () => true).garbageCollect();
    assert.deepEqual(runtime.listContainers().map((c) => c.id), [containers[0].id]);
    assert.equal(states.removed.size, 0);
  });

  it('DeleteAllUnusedContainers also clears terminated-but-not-deleted pods', () => {
    const { runtime, states, gc } = setup();
    runtime.setFakeContainers([containerOf(gcContainer('done', 'bar', 0, 0, EXITED))]);
    runtime.setFakeSandboxes([sandboxOf({ name: 'done', namespace: 'test-ns', uid: 'done' }, 0, 'SANDBOX_NOTREADY', 0)]);
    states.terminated.add('done');
    const wrapper = new RealContainerGC(gc, DEFAULT_GC_POLICY, () => true);
    wrapper.garbageCollect();
    assert.equal(runtime.listContainers().length, 1, 'a regular round keeps the newest dead container');
    wrapper.deleteAllUnusedContainers();
    assert.deepEqual(runtime.listContainers(), []);
    assert.deepEqual(runtime.listPodSandbox(), [], 'the sandbox is empty once its container is gone');
  });

  it('MinAge is measured on the injected clock', () => {
    const { clock, runtime, gc } = setup();
    const created = clock.now();
    runtime.setFakeContainers([0, 1].map((n) => containerOf(gcContainer('foo', 'bar', n, created + n, EXITED))));
    const policy = { minAgeMs: MINUTE, maxPerPodContainer: 0, maxContainers: -1 };
    gc.evictContainers(policy, true, false);
    assert.equal(runtime.listContainers().length, 2);
    clock.step(MINUTE);
    gc.evictContainers(policy, true, false);
    assert.equal(runtime.listContainers().length, 1, 'only the one created a full minute ago is old enough');
    clock.step(1);
    gc.evictContainers(policy, true, false);
    assert.equal(runtime.listContainers().length, 0);
  });
});
