import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock, SECOND, MINUTE } from '../api/index.js';
import type { Pod } from '../api/index.js';
import {
  Backoff,
  CrashLoopBackOffError,
  emptyActions,
  getStableKey,
  hashContainer,
  KubeGenericRuntimeManager,
  newContainerBackoff,
  podSandboxChanged,
  shouldContainerBeRestarted,
  type PodActions,
  type RuntimeContainerStatus,
  type RuntimePodStatus,
} from './index.js';

// ---- fixtures mirroring makeBasePodAndStatus and friends ----

function makeBasePodAndStatus(): { pod: Pod; status: RuntimePodStatus } {
  const pod: Pod = {
    metadata: { uid: '12345678', name: 'foo', namespace: 'foo-ns' },
    spec: {
      containers: [
        { name: 'foo1', image: 'busybox' },
        { name: 'foo2', image: 'busybox' },
        { name: 'foo3', image: 'busybox' },
      ],
    },
  };
  const status: RuntimePodStatus = {
    id: '12345678',
    name: 'foo',
    namespace: 'foo-ns',
    sandboxStatuses: [
      {
        id: 'sandboxID',
        state: 'SANDBOX_READY',
        metadata: { name: 'foo', namespace: 'foo-ns', uid: 'sandboxuid', attempt: 0 },
        network: { ip: '10.0.0.1' },
      },
    ],
    containerStatuses: pod.spec.containers.map((c, i) => ({ id: `id${i + 1}`, name: c.name, state: 'running', hash: hashContainer(c) })),
  };
  return { pod, status };
}

function makeBasePodAndStatusWithInitContainers(): { pod: Pod; status: RuntimePodStatus } {
  const { pod, status } = makeBasePodAndStatus();
  pod.spec.initContainers = [1, 2, 3].map((i) => ({ name: `init${i}`, image: 'bar-image' }));
  // As in Go, every init status carries the hash of the first init container; it is never checked.
  const h = hashContainer(pod.spec.initContainers[0]);
  status.containerStatuses = [1, 2, 3].map((i) => ({ id: `initid${i}`, name: `init${i}`, state: 'exited', hash: h }));
  return { pod, status };
}

function makeBasePodAndStatusWithRestartableInitContainers(): { pod: Pod; status: RuntimePodStatus } {
  const { pod, status } = makeBasePodAndStatus();
  pod.spec.initContainers = [
    { name: 'restartable-init-1', image: 'bar-image', restartPolicy: 'Always' },
    { name: 'restartable-init-2', image: 'bar-image', restartPolicy: 'Always', livenessProbe: {}, startupProbe: {} },
    { name: 'restartable-init-3', image: 'bar-image', restartPolicy: 'Always', livenessProbe: {}, startupProbe: {} },
  ];
  const h = hashContainer(pod.spec.initContainers[0]);
  status.containerStatuses = [1, 2, 3].map((i) => ({ id: `initid${i}`, name: `restartable-init-${i}`, state: 'running', hash: h }));
  return { pod, status };
}

function makeBasePodAndStatusWithInitAndEphemeralContainers(): { pod: Pod; status: RuntimePodStatus } {
  const { pod, status } = makeBasePodAndStatus();
  pod.spec.initContainers = [{ name: 'init1', image: 'bar-image' }];
  pod.spec.ephemeralContainers = [{ name: 'debug', image: 'busybox' }];
  status.containerStatuses.push(
    { id: 'initid1', name: 'init1', state: 'exited', hash: hashContainer(pod.spec.initContainers[0]) },
    { id: 'debug1', name: 'debug', state: 'running', hash: hashContainer(pod.spec.ephemeralContainers[0]) },
  );
  return { pod, status };
}

/** getKillMap / getKillMapWithInitContainers: the i-th status ID mapped to the i-th (init) container. */
function killMap(pod: Pod, status: RuntimePodStatus, idx: number[], init = false): PodActions['containersToKill'] {
  const list = init ? pod.spec.initContainers! : pod.spec.containers;
  return new Map(idx.map((i) => [status.containerStatuses[i].id, { container: list[i], name: list[i].name, message: '', reason: '' as const }]));
}

function actions(partial: Partial<PodActions>): PodActions {
  return { ...emptyActions(), ...partial };
}

/** verifyActions: messages and reasons are not compared. */
function verifyActions(actual: PodActions, expected: PodActions): void {
  for (const info of actual.containersToKill.values()) {
    info.message = '';
    info.reason = '';
  }
  assert.deepEqual(actual, expected);
}

type Mutate = (pod: Pod, status: RuntimePodStatus, m: KubeGenericRuntimeManager) => void;
interface Case { mutatePod?: (pod: Pod) => void; mutateStatus?: Mutate; actions: PodActions }

function runCases(
  make: () => { pod: Pod; status: RuntimePodStatus },
  cases: Record<string, Case>,
  prepare: (m: KubeGenericRuntimeManager, status: RuntimePodStatus) => void = () => {},
): void {
  for (const [desc, tc] of Object.entries(cases)) {
    it(desc, () => {
      const m = new KubeGenericRuntimeManager();
      const { pod, status } = make();
      prepare(m, status);
      tc.mutatePod?.(pod);
      tc.mutateStatus?.(pod, status, m);
      verifyActions(m.computePodActions(pod, status), tc.actions);
    });
  }
}

const setStatus = (s: RuntimeContainerStatus, patch: Partial<RuntimeContainerStatus>) => Object.assign(s, patch);
const always = (p: Pod) => { p.spec.restartPolicy = 'Always'; };
const onFailure = (p: Pod) => { p.spec.restartPolicy = 'OnFailure'; };
const never = (p: Pod) => { p.spec.restartPolicy = 'Never'; };

describe('TestComputePodActions', () => {
  const { pod: basePod, status: baseStatus } = makeBasePodAndStatus();
  const km = (idx: number[]) => killMap(basePod, baseStatus, idx);
  const noAction = actions({ sandboxID: 'sandboxID' });
  runCases(makeBasePodAndStatus, {
    'everything is good; do nothing': { actions: noAction },
    'start pod sandbox and all containers for a new pod': {
      mutateStatus: (_p, s) => {
        s.sandboxStatuses = [];
        s.containerStatuses = [];
      },
      actions: actions({ killPod: true, createSandbox: true, attempt: 0, containersToStart: [0, 1, 2], containersToKill: km([]) }),
    },
    'restart exited containers if RestartPolicy == Always': {
      mutatePod: always,
      mutateStatus: (_p, s) => {
        setStatus(s.containerStatuses[0], { state: 'exited', exitCode: 0 });
        setStatus(s.containerStatuses[1], { state: 'exited', exitCode: 111 });
      },
      actions: actions({ sandboxID: 'sandboxID', containersToStart: [0, 1], containersToKill: km([]) }),
    },
    'restart failed containers if RestartPolicy == OnFailure': {
      mutatePod: onFailure,
      mutateStatus: (_p, s) => {
        setStatus(s.containerStatuses[0], { state: 'exited', exitCode: 0 });
        setStatus(s.containerStatuses[1], { state: 'exited', exitCode: 111 });
      },
      actions: actions({ sandboxID: 'sandboxID', containersToStart: [1], containersToKill: km([]) }),
    },
    "don't restart containers if RestartPolicy == Never": {
      mutatePod: never,
      mutateStatus: (_p, s) => {
        setStatus(s.containerStatuses[0], { state: 'exited', exitCode: 0 });
        setStatus(s.containerStatuses[1], { state: 'exited', exitCode: 111 });
      },
      actions: noAction,
    },
    'Kill pod and recreate everything if the pod sandbox is dead, and RestartPolicy == Always': {
      mutatePod: always,
      mutateStatus: (_p, s) => { s.sandboxStatuses[0].state = 'SANDBOX_NOTREADY'; },
      actions: actions({ killPod: true, createSandbox: true, sandboxID: 'sandboxID', attempt: 1, containersToStart: [0, 1, 2], containersToKill: km([]) }),
    },
    'Kill pod and recreate all containers (except for the succeeded one) if the pod sandbox is dead, and RestartPolicy == OnFailure': {
      mutatePod: onFailure,
      mutateStatus: (_p, s) => {
        s.sandboxStatuses[0].state = 'SANDBOX_NOTREADY';
        setStatus(s.containerStatuses[1], { state: 'exited', exitCode: 0 });
      },
      actions: actions({ killPod: true, createSandbox: true, sandboxID: 'sandboxID', attempt: 1, containersToStart: [0, 2], containersToKill: km([]) }),
    },
    'Kill pod and recreate all containers if the PodSandbox does not have an IP': {
      mutateStatus: (_p, s) => { s.sandboxStatuses[0].network!.ip = ''; },
      actions: actions({ killPod: true, createSandbox: true, sandboxID: 'sandboxID', attempt: 1, containersToStart: [0, 1, 2], containersToKill: km([]) }),
    },
    "Kill and recreate the container if the container's spec changed": {
      mutatePod: always,
      mutateStatus: (_p, s) => { s.containerStatuses[1].hash = 432423432; },
      actions: actions({ sandboxID: 'sandboxID', containersToKill: km([1]), containersToStart: [1] }),
    },
    'Kill and recreate the container if the liveness check has failed': {
      mutatePod: always,
      mutateStatus: (_p, s, m) => m.livenessManager.set(s.containerStatuses[1].id, 'Failure'),
      actions: actions({ sandboxID: 'sandboxID', containersToKill: km([1]), containersToStart: [1] }),
    },
    'Kill and recreate the container if the startup check has failed': {
      mutatePod: always,
      mutateStatus: (_p, s, m) => m.startupManager.set(s.containerStatuses[1].id, 'Failure'),
      actions: actions({ sandboxID: 'sandboxID', containersToKill: km([1]), containersToStart: [1] }),
    },
    'Verify we do not create a pod sandbox if no ready sandbox for pod with RestartPolicy=Never and all containers exited': {
      mutatePod: never,
      mutateStatus: (_p, s) => {
        s.sandboxStatuses[0].state = 'SANDBOX_NOTREADY';
        s.sandboxStatuses[0].metadata.attempt = 1;
        for (const c of s.containerStatuses) setStatus(c, { state: 'exited', exitCode: 0 });
      },
      actions: actions({ sandboxID: 'sandboxID', attempt: 2, createSandbox: false, killPod: true }),
    },
    'Verify we do not create a pod sandbox if no ready sandbox for pod with RestartPolicy=OnFailure and all containers succeeded': {
      mutatePod: onFailure,
      mutateStatus: (_p, s) => {
        s.sandboxStatuses[0].state = 'SANDBOX_NOTREADY';
        s.sandboxStatuses[0].metadata.attempt = 1;
        for (const c of s.containerStatuses) setStatus(c, { state: 'exited', exitCode: 0 });
      },
      actions: actions({ sandboxID: 'sandboxID', attempt: 2, createSandbox: false, killPod: true }),
    },
    'Verify we create a pod sandbox if no ready sandbox for pod with RestartPolicy=Never and no containers have ever been created': {
      mutatePod: never,
      mutateStatus: (_p, s) => {
        s.sandboxStatuses[0].state = 'SANDBOX_NOTREADY';
        s.sandboxStatuses[0].metadata.attempt = 2;
        s.containerStatuses = [];
      },
      actions: actions({ sandboxID: 'sandboxID', attempt: 3, createSandbox: true, killPod: true, containersToStart: [0, 1, 2] }),
    },
    'Kill and recreate the container if the container is in unknown state': {
      mutatePod: never,
      mutateStatus: (_p, s) => { s.containerStatuses[1].state = 'unknown'; },
      actions: actions({ sandboxID: 'sandboxID', containersToKill: km([1]), containersToStart: [1] }),
    },
  });
});

describe('TestComputePodActionsWithInitContainers', () => {
  const { pod: basePod, status: baseStatus } = makeBasePodAndStatusWithInitContainers();
  const km = (idx: number[]) => killMap(basePod, baseStatus, idx, true);
  const noAction = actions({ sandboxID: 'sandboxID' });
  const deadSandbox = (s: RuntimePodStatus) => { s.sandboxStatuses[0].state = 'SANDBOX_NOTREADY'; };
  runCases(makeBasePodAndStatusWithInitContainers, {
    'initialization completed; start all containers': {
      actions: actions({ sandboxID: 'sandboxID', containersToStart: [0, 1, 2], containersToKill: km([]) }),
    },
    'no init containers have been started; start the first one': {
      mutateStatus: (_p, s) => { s.containerStatuses = []; },
      actions: actions({ sandboxID: 'sandboxID', initContainersToStart: [0], containersToKill: km([]) }),
    },
    'initialization in progress; do nothing': {
      mutatePod: always,
      mutateStatus: (_p, s) => { s.containerStatuses[2].state = 'running'; },
      actions: noAction,
    },
    'Kill pod and restart the first init container if the pod sandbox is dead': {
      mutatePod: always,
      mutateStatus: (_p, s) => deadSandbox(s),
      actions: actions({ killPod: true, createSandbox: true, sandboxID: 'sandboxID', attempt: 1, initContainersToStart: [0], containersToKill: km([]) }),
    },
    'initialization failed; restart the last init container if RestartPolicy == Always': {
      mutatePod: always,
      mutateStatus: (_p, s) => { s.containerStatuses[2].exitCode = 137; },
      actions: actions({ sandboxID: 'sandboxID', initContainersToStart: [2], containersToKill: km([]) }),
    },
    'initialization failed; restart the last init container if RestartPolicy == OnFailure': {
      mutatePod: onFailure,
      mutateStatus: (_p, s) => { s.containerStatuses[2].exitCode = 137; },
      actions: actions({ sandboxID: 'sandboxID', initContainersToStart: [2], containersToKill: km([]) }),
    },
    'initialization failed; kill pod if RestartPolicy == Never': {
      mutatePod: never,
      mutateStatus: (_p, s) => { s.containerStatuses[2].exitCode = 137; },
      actions: actions({ killPod: true, sandboxID: 'sandboxID', containersToKill: km([]) }),
    },
    'init container state unknown; kill and recreate the last init container if RestartPolicy == Always': {
      mutatePod: always,
      mutateStatus: (_p, s) => { s.containerStatuses[2].state = 'unknown'; },
      actions: actions({ sandboxID: 'sandboxID', initContainersToStart: [2], containersToKill: km([2]) }),
    },
    'init container state unknown; kill and recreate the last init container if RestartPolicy == OnFailure': {
      mutatePod: onFailure,
      mutateStatus: (_p, s) => { s.containerStatuses[2].state = 'unknown'; },
      actions: actions({ sandboxID: 'sandboxID', initContainersToStart: [2], containersToKill: km([2]) }),
    },
    'init container state unknown; kill pod if RestartPolicy == Never': {
      mutatePod: never,
      mutateStatus: (_p, s) => { s.containerStatuses[2].state = 'unknown'; },
      actions: actions({ killPod: true, sandboxID: 'sandboxID', containersToKill: km([]) }),
    },
    'Pod sandbox not ready, init container failed, but RestartPolicy == Never; kill pod only': {
      mutatePod: never,
      mutateStatus: (_p, s) => deadSandbox(s),
      actions: actions({ killPod: true, createSandbox: false, sandboxID: 'sandboxID', attempt: 1, containersToKill: km([]) }),
    },
    'Pod sandbox not ready, and RestartPolicy == Never, but no visible init containers;  create a new pod sandbox': {
      mutatePod: never,
      mutateStatus: (_p, s) => {
        deadSandbox(s);
        s.containerStatuses = [];
      },
      actions: actions({ killPod: true, createSandbox: true, sandboxID: 'sandboxID', attempt: 1, initContainersToStart: [0], containersToKill: km([]) }),
    },
    'Pod sandbox not ready, init container failed, and RestartPolicy == OnFailure; create a new pod sandbox': {
      mutatePod: onFailure,
      mutateStatus: (_p, s) => {
        deadSandbox(s);
        s.containerStatuses[2].exitCode = 137;
      },
      actions: actions({ killPod: true, createSandbox: true, sandboxID: 'sandboxID', attempt: 1, initContainersToStart: [0], containersToKill: km([]) }),
    },
    "some of the init container statuses are missing but the last init container is running, don't restart preceding ones": {
      mutatePod: always,
      mutateStatus: (_p, s) => {
        s.containerStatuses[2].state = 'running';
        s.containerStatuses = s.containerStatuses.slice(2);
      },
      actions: actions({ killPod: false, sandboxID: 'sandboxID', containersToKill: km([]) }),
    },
  });
});

describe('TestComputePodActionsWithRestartableInitContainers', () => {
  const { pod: basePod, status: baseStatus } = makeBasePodAndStatusWithRestartableInitContainers();
  const km = (idx: number[]) => killMap(basePod, baseStatus, idx, true);
  const noAction = actions({ sandboxID: 'sandboxID' });
  const deadSandbox = (s: RuntimePodStatus) => { s.sandboxStatuses[0].state = 'SANDBOX_NOTREADY'; };
  const mainContainers = (pod: Pod, s: RuntimePodStatus, patch: Partial<RuntimeContainerStatus>) => {
    for (let i = 1; i <= 3; i++) {
      s.containerStatuses.push({ id: `id${i}`, name: `foo${i}`, state: 'running', hash: hashContainer(pod.spec.containers[i - 1]), ...patch });
    }
  };
  // Before every Go case, both probed sidecars report Success for liveness and startup.
  const prepare = (m: KubeGenericRuntimeManager, s: RuntimePodStatus) => {
    for (const i of [1, 2]) {
      m.livenessManager.set(s.containerStatuses[i].id, 'Success');
      m.startupManager.set(s.containerStatuses[i].id, 'Success');
    }
  };
  runCases(makeBasePodAndStatusWithRestartableInitContainers, {
    'initialization completed; start all containers': {
      actions: actions({ sandboxID: 'sandboxID', containersToStart: [0, 1, 2], containersToKill: km([]) }),
    },
    'no init containers have been started; start the first one': {
      mutateStatus: (_p, s) => { s.containerStatuses = []; },
      actions: actions({ sandboxID: 'sandboxID', initContainersToStart: [0], containersToKill: km([]) }),
    },
    'initialization in progress; do nothing': {
      mutatePod: always,
      mutateStatus: (_p, s) => { s.containerStatuses[2].state = 'created'; },
      actions: noAction,
    },
    'restartable init container has started; start the next': {
      mutatePod: always,
      mutateStatus: (_p, s) => { s.containerStatuses = s.containerStatuses.slice(0, 1); },
      actions: actions({ sandboxID: 'sandboxID', initContainersToStart: [1], containersToKill: km([]) }),
    },
    'livenessProbe has not been run; start the nothing': {
      mutatePod: always,
      mutateStatus: (_p, s, m) => {
        m.livenessManager.remove(s.containerStatuses[1].id);
        s.containerStatuses = s.containerStatuses.slice(0, 2);
      },
      actions: actions({ sandboxID: 'sandboxID', initContainersToStart: [2], containersToKill: km([]) }),
    },
    'livenessProbe in progress; start the next': {
      mutatePod: always,
      mutateStatus: (_p, s, m) => {
        m.livenessManager.set(s.containerStatuses[1].id, 'Unknown');
        s.containerStatuses = s.containerStatuses.slice(0, 2);
      },
      actions: actions({ sandboxID: 'sandboxID', initContainersToStart: [2], containersToKill: km([]) }),
    },
    'livenessProbe has completed; start the next': {
      mutatePod: always,
      mutateStatus: (_p, s) => { s.containerStatuses = s.containerStatuses.slice(0, 2); },
      actions: actions({ sandboxID: 'sandboxID', initContainersToStart: [2], containersToKill: km([]) }),
    },
    'kill and recreate the restartable init container if the liveness check has failed': {
      mutatePod: always,
      mutateStatus: (_p, s, m) => m.livenessManager.set(s.containerStatuses[2].id, 'Failure'),
      actions: actions({ sandboxID: 'sandboxID', initContainersToStart: [2], containersToKill: km([2]), containersToStart: [0, 1, 2] }),
    },
    'startupProbe has not been run; do nothing': {
      mutatePod: always,
      mutateStatus: (_p, s, m) => {
        m.startupManager.remove(s.containerStatuses[1].id);
        s.containerStatuses = s.containerStatuses.slice(0, 2);
      },
      actions: noAction,
    },
    'startupProbe in progress; do nothing': {
      mutatePod: always,
      mutateStatus: (_p, s, m) => {
        m.startupManager.set(s.containerStatuses[1].id, 'Unknown');
        s.containerStatuses = s.containerStatuses.slice(0, 2);
      },
      actions: noAction,
    },
    'startupProbe has completed; start the next': {
      mutatePod: always,
      mutateStatus: (_p, s) => { s.containerStatuses = s.containerStatuses.slice(0, 2); },
      actions: actions({ sandboxID: 'sandboxID', initContainersToStart: [2], containersToKill: km([]) }),
    },
    'kill and recreate the restartable init container if the startup check has failed': {
      mutatePod: (p) => {
        always(p);
        p.spec.initContainers![2].startupProbe = {};
      },
      mutateStatus: (_p, s, m) => m.startupManager.set(s.containerStatuses[2].id, 'Failure'),
      actions: actions({ sandboxID: 'sandboxID', initContainersToStart: [2], containersToKill: km([2]), containersToStart: [] }),
    },
    'restart terminated restartable init container and next init container': {
      mutatePod: always,
      mutateStatus: (_p, s) => {
        s.containerStatuses[0].state = 'exited';
        s.containerStatuses[2].state = 'exited';
      },
      actions: actions({ sandboxID: 'sandboxID', initContainersToStart: [0, 2], containersToKill: km([]) }),
    },
    'restart terminated restartable init container and regular containers': {
      mutatePod: always,
      mutateStatus: (_p, s) => { s.containerStatuses[0].state = 'exited'; },
      actions: actions({ sandboxID: 'sandboxID', initContainersToStart: [0], containersToStart: [0, 1, 2], containersToKill: km([]) }),
    },
    'Pod sandbox not ready, restartable init container failed, but RestartPolicy == Never; kill pod only': {
      mutatePod: never,
      mutateStatus: (_p, s) => {
        deadSandbox(s);
        setStatus(s.containerStatuses[2], { state: 'exited', exitCode: 137 });
      },
      actions: actions({ killPod: true, createSandbox: false, sandboxID: 'sandboxID', attempt: 1, containersToKill: km([]) }),
    },
    'Pod sandbox not ready, and RestartPolicy == Never, but no visible restartable init containers;  create a new pod sandbox': {
      mutatePod: never,
      mutateStatus: (_p, s) => {
        deadSandbox(s);
        s.containerStatuses = [];
      },
      actions: actions({ killPod: true, createSandbox: true, sandboxID: 'sandboxID', attempt: 1, initContainersToStart: [0], containersToKill: km([]) }),
    },
    'Pod sandbox not ready, restartable init container failed, and RestartPolicy == OnFailure; create a new pod sandbox': {
      mutatePod: onFailure,
      mutateStatus: (_p, s) => {
        deadSandbox(s);
        setStatus(s.containerStatuses[2], { state: 'exited', exitCode: 137 });
      },
      actions: actions({ killPod: true, createSandbox: true, sandboxID: 'sandboxID', attempt: 1, initContainersToStart: [0], containersToKill: km([]) }),
    },
    'Pod sandbox not ready, restartable init container failed, and RestartPolicy == Always; create a new pod sandbox': {
      mutatePod: always,
      mutateStatus: (_p, s) => {
        deadSandbox(s);
        setStatus(s.containerStatuses[2], { state: 'exited', exitCode: 137 });
      },
      actions: actions({ killPod: true, createSandbox: true, sandboxID: 'sandboxID', attempt: 1, initContainersToStart: [0], containersToKill: km([]) }),
    },
    "initialization failed; restart the last restartable init container even if pod's RestartPolicy == Never": {
      mutatePod: never,
      mutateStatus: (_p, s) => setStatus(s.containerStatuses[2], { state: 'exited', exitCode: 137 }),
      actions: actions({ sandboxID: 'sandboxID', initContainersToStart: [2], containersToKill: km([]) }),
    },
    "restartable init container state unknown; kill and recreate the last restartable init container even if pod's RestartPolicy == Never": {
      mutatePod: never,
      mutateStatus: (_p, s) => { s.containerStatuses[2].state = 'unknown'; },
      actions: actions({ sandboxID: 'sandboxID', initContainersToStart: [2], containersToKill: km([2]) }),
    },
    "restart restartable init container if regular containers are running even if pod's RestartPolicy == Never": {
      mutatePod: never,
      mutateStatus: (p, s) => {
        setStatus(s.containerStatuses[2], { state: 'exited', exitCode: 137 });
        mainContainers(p, s, {});
      },
      actions: actions({ sandboxID: 'sandboxID', initContainersToStart: [2], containersToKill: km([]) }),
    },
    "kill the pod if all main containers succeeded if pod's RestartPolicy == Never": {
      mutatePod: never,
      mutateStatus: (p, s) => mainContainers(p, s, { state: 'exited', exitCode: 0 }),
      actions: actions({ killPod: true, sandboxID: 'sandboxID', containersToKill: km([]) }),
    },
    'some of the init container statuses are missing but the last init container is running, restart restartable init and regular containers': {
      mutatePod: always,
      mutateStatus: (_p, s) => { s.containerStatuses = s.containerStatuses.slice(2); },
      actions: actions({ sandboxID: 'sandboxID', initContainersToStart: [0, 1], containersToStart: [0, 1, 2], containersToKill: km([]) }),
    },
  }, prepare);
});

describe('TestComputePodActionsWithInitAndEphemeralContainers', () => {
  // The Go test first re-runs TestComputePodActions and TestComputePodActionsWithInitContainers;
  // those cases are covered by their own describe blocks above.
  const { pod: basePod, status: baseStatus } = makeBasePodAndStatusWithInitAndEphemeralContainers();
  const noAction = actions({ sandboxID: 'sandboxID' });
  runCases(makeBasePodAndStatusWithInitAndEphemeralContainers, {
    'steady state; do nothing; ignore ephemeral container': { actions: noAction },
    'No ephemeral containers running; start one': {
      mutateStatus: (_p, s) => { s.containerStatuses = s.containerStatuses.slice(0, 4); },
      actions: actions({ sandboxID: 'sandboxID', ephemeralContainersToStart: [0] }),
    },
    'Start second ephemeral container': {
      mutatePod: (p) => { p.spec.ephemeralContainers!.push({ name: 'debug2', image: 'busybox' }); },
      actions: actions({ sandboxID: 'sandboxID', ephemeralContainersToStart: [1] }),
    },
    'Ephemeral container exited; do not restart': {
      mutatePod: always,
      mutateStatus: (_p, s) => { s.containerStatuses[4].state = 'exited'; },
      actions: actions({ sandboxID: 'sandboxID' }),
    },
    'initialization in progress; start ephemeral container': {
      mutateStatus: (_p, s) => {
        s.containerStatuses[3].state = 'running';
        s.containerStatuses = s.containerStatuses.slice(0, 4);
      },
      actions: actions({ sandboxID: 'sandboxID', ephemeralContainersToStart: [0] }),
    },
    'Create a new pod sandbox if the pod sandbox is dead, init container failed and RestartPolicy == OnFailure': {
      mutatePod: onFailure,
      mutateStatus: (_p, s) => {
        s.sandboxStatuses[0].state = 'SANDBOX_NOTREADY';
        s.containerStatuses = s.containerStatuses.slice(3);
        s.containerStatuses[0].exitCode = 137;
      },
      actions: actions({ killPod: true, createSandbox: true, sandboxID: 'sandboxID', attempt: 1, initContainersToStart: [0], containersToKill: killMap(basePod, baseStatus, [], true) }),
    },
    'Kill pod and do not restart ephemeral container if the pod sandbox is dead': {
      mutatePod: always,
      mutateStatus: (_p, s) => { s.sandboxStatuses[0].state = 'SANDBOX_NOTREADY'; },
      actions: actions({ killPod: true, createSandbox: true, sandboxID: 'sandboxID', attempt: 1, initContainersToStart: [0] }),
    },
    'Kill pod if all containers exited except ephemeral container': {
      mutatePod: never,
      mutateStatus: (_p, s) => {
        for (let i = 0; i < 3; i++) setStatus(s.containerStatuses[i], { state: 'exited', exitCode: 0 });
      },
      actions: actions({ sandboxID: 'sandboxID', createSandbox: false, killPod: true }),
    },
    'Ephemeral container is in unknown state; leave it alone': {
      mutatePod: never,
      mutateStatus: (_p, s) => { s.containerStatuses[4].state = 'unknown'; },
      actions: noAction,
    },
  });
});

describe('TestShouldContainerBeRestarted', () => {
  const makePod = (): Pod => ({
    metadata: { uid: '12345678', name: 'foo', namespace: 'new' },
    spec: { containers: ['no-history', 'alive', 'succeed', 'failed', 'unknown'].map((name) => ({ name })) },
  });
  const podStatus: RuntimePodStatus = {
    id: '12345678',
    name: 'foo',
    namespace: 'new',
    sandboxStatuses: [],
    containerStatuses: [
      { id: '', name: 'alive', state: 'running' },
      { id: '', name: 'succeed', state: 'exited', exitCode: 0 },
      { id: '', name: 'failed', state: 'exited', exitCode: 1 },
      { id: '', name: 'alive', state: 'exited', exitCode: 2 },
      { id: '', name: 'unknown', state: 'unknown' },
      { id: '', name: 'failed', state: 'exited', exitCode: 3 },
    ],
  };
  const policies = ['Never', 'OnFailure', 'Always'] as const;
  const expected: Record<string, boolean[]> = {
    'no-history': [true, true, true],
    alive: [false, false, false],
    succeed: [false, false, true],
    failed: [false, true, true],
    unknown: [true, true, true],
  };
  for (const deleted of [false, true]) {
    for (const c of makePod().spec.containers) {
      policies.forEach((policy, i) => {
        it(`${deleted ? 'deleted pod: ' : ''}${c.name} with restart policy ${policy}`, () => {
          const pod = makePod();
          pod.spec.restartPolicy = policy;
          if (deleted) pod.metadata.deletionTimestamp = '2023-08-15T00:00:00Z';
          assert.equal(shouldContainerBeRestarted(c, pod, podStatus), deleted ? false : expected[c.name][i]);
        });
      });
    }
  }
});

describe('TestPodSandboxChanged', () => {
  const emptyPod = (hostNetwork?: boolean): Pod => ({ metadata: {}, spec: { containers: [], ...(hostNetwork !== undefined ? { hostNetwork } : {}) } });
  const cases: Record<string, { pod: Pod; status: RuntimePodStatus; changed: boolean; attempt: number; id: string }> = {
    'Pod with no existing sandboxes': { pod: emptyPod(), status: { sandboxStatuses: [], containerStatuses: [] }, changed: true, attempt: 0, id: '' },
    'Pod with multiple ready sandbox statuses': {
      pod: emptyPod(),
      status: {
        sandboxStatuses: [
          { id: 'sandboxID2', metadata: { attempt: 1 }, state: 'SANDBOX_READY' },
          { id: 'sandboxID1', metadata: { attempt: 0 }, state: 'SANDBOX_READY' },
        ],
        containerStatuses: [],
      },
      changed: true, attempt: 2, id: 'sandboxID2',
    },
    'Pod with no ready sandbox statuses': {
      pod: emptyPod(),
      status: {
        sandboxStatuses: [
          { id: 'sandboxID2', metadata: { attempt: 1 }, state: 'SANDBOX_NOTREADY' },
          { id: 'sandboxID1', metadata: { attempt: 0 }, state: 'SANDBOX_NOTREADY' },
        ],
        containerStatuses: [],
      },
      changed: true, attempt: 2, id: 'sandboxID2',
    },
    'Pod with ready sandbox status but network namespace mismatch': {
      pod: emptyPod(true),
      status: { sandboxStatuses: [{ id: 'sandboxID1', networkNamespace: 'POD', metadata: { attempt: 0 }, state: 'SANDBOX_READY' }], containerStatuses: [] },
      changed: true, attempt: 1, id: '',
    },
    'Pod with ready sandbox status but no IP': {
      pod: emptyPod(false),
      status: { sandboxStatuses: [{ id: 'sandboxID1', network: { ip: '' }, metadata: { attempt: 0 }, state: 'SANDBOX_READY' }], containerStatuses: [] },
      changed: true, attempt: 1, id: 'sandboxID1',
    },
    'Pod with ready sandbox status with IP': {
      pod: emptyPod(false),
      status: { sandboxStatuses: [{ id: 'sandboxID1', network: { ip: '10.0.0.10' }, metadata: { attempt: 0 }, state: 'SANDBOX_READY' }], containerStatuses: [] },
      changed: false, attempt: 0, id: 'sandboxID1',
    },
  };
  for (const [desc, tc] of Object.entries(cases)) {
    it(desc, () => assert.deepEqual(podSandboxChanged(tc.pod, tc.status), { changed: tc.changed, attempt: tc.attempt, sandboxID: tc.id }));
  }
});

// ---- CrashLoopBackOff (no Go test drives doBackOff directly; these are port scenarios) ----

describe('CrashLoopBackOff (port scenario, no Go test)', () => {
  const makeCrashing = () => {
    const pod: Pod = { metadata: { uid: 'u1', name: 'web', namespace: 'default' }, spec: { containers: [{ name: 'app', image: 'busybox' }] } };
    return pod;
  };
  const exitedAt = (t: number): RuntimePodStatus => ({
    sandboxStatuses: [],
    containerStatuses: [{ id: 'c', name: 'app', state: 'exited', exitCode: 1, finishedAt: t }],
  });

  it('waits 10s, 20s, 40s, 80s, 160s, then 300s (capped) between restarts', () => {
    const clock = new FakeClock();
    const m = new KubeGenericRuntimeManager();
    const backOff = newContainerBackoff(clock);
    const pod = makeCrashing();
    const container = pod.spec.containers[0];
    const waits: number[] = [];
    for (let crash = 0; crash < 8; crash++) {
      const finishedAt = clock.now(); // crashes immediately after each start
      const status = exitedAt(finishedAt);
      let decision = m.doBackOff(pod, container, status, backOff);
      while (decision.inBackOff) {
        clock.step(SECOND);
        decision = m.doBackOff(pod, container, status, backOff);
      }
      waits.push((clock.now() - finishedAt) / SECOND);
    }
    assert.deepEqual(waits, [0, 10, 20, 40, 80, 160, 300, 300]);
  });

  it('reports CrashLoopBackOff with the current delay and records a BackOff event', () => {
    const clock = new FakeClock();
    const m = new KubeGenericRuntimeManager();
    const backOff = newContainerBackoff(clock);
    const pod = makeCrashing();
    const status = exitedAt(clock.now());
    assert.equal(m.doBackOff(pod, pod.spec.containers[0], status, backOff).inBackOff, false);
    const d = m.doBackOff(pod, pod.spec.containers[0], status, backOff);
    assert.equal(d.inBackOff, true);
    assert.ok(d.error instanceof CrashLoopBackOffError);
    assert.match(d.message, /10s/);
    assert.deepEqual(m.events.map((e) => e.reason), ['BackOff']);
  });

  it('the key is name_namespace_uid_container_hash, so a spec change starts a fresh backoff', () => {
    const pod = makeCrashing();
    const c = pod.spec.containers[0];
    assert.equal(getStableKey(pod, c), `web_default_u1_app_${hashContainer(c).toString(16)}`);
    assert.notEqual(getStableKey(pod, { ...c, image: 'busybox:2' }), getStableKey(pod, c));
  });

  it('backoff resets after 10 minutes (2×max) without a crash', () => {
    const clock = new FakeClock();
    const m = new KubeGenericRuntimeManager();
    const backOff = newContainerBackoff(clock);
    const pod = makeCrashing();
    const key = getStableKey(pod, pod.spec.containers[0]);
    for (let i = 0; i < 4; i++) {
      clock.step(5 * MINUTE);
      m.doBackOff(pod, pod.spec.containers[0], exitedAt(clock.now() - 5 * MINUTE + 1), backOff);
    }
    clock.step(11 * MINUTE);
    m.doBackOff(pod, pod.spec.containers[0], exitedAt(clock.now()), backOff);
    assert.equal(backOff.get(key), 10 * SECOND);
  });

  it('a running container is never in backoff', () => {
    const clock = new FakeClock();
    const pod = makeCrashing();
    const status: RuntimePodStatus = { sandboxStatuses: [], containerStatuses: [{ id: 'c', name: 'app', state: 'running' }] };
    assert.deepEqual(new KubeGenericRuntimeManager().doBackOff(pod, pod.spec.containers[0], status, newContainerBackoff(clock)), { inBackOff: false, message: '' });
  });
});

describe('bad input (port-only)', () => {
  it('an unknown restart policy is rejected naming the field', () => {
    const { pod, status } = makeBasePodAndStatus();
    (pod.spec as { restartPolicy?: string }).restartPolicy = 'Sometimes';
    status.containerStatuses[0].state = 'exited';
    assert.throws(() => new KubeGenericRuntimeManager().computePodActions(pod, status), /spec\.restartPolicy: Unsupported value: "Sometimes"/);
  });
  it('an exited container without finishedAt cannot be backed off', () => {
    const pod: Pod = { metadata: { name: 'p' }, spec: { containers: [{ name: 'a' }] } };
    const status: RuntimePodStatus = { sandboxStatuses: [], containerStatuses: [{ id: 'x', name: 'a', state: 'exited' }] };
    assert.throws(() => new KubeGenericRuntimeManager().doBackOff(pod, pod.spec.containers[0], status, newContainerBackoff(new FakeClock())), /finishedAt/);
  });
  it('negative backoff durations are rejected', () => {
    assert.throws(() => new Backoff(new FakeClock(), -1, 10), RangeError);
  });
});
