import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock, SECOND, MINUTE } from '../api/index.js';
import type { Pod, PodStatus } from '../api/index.js';
import {
  ActiveDeadlineHandler,
  BasicWorkQueue,
  Channel,
  DEADLINE_MESSAGE,
  DEADLINE_REASON,
  SourcesReady,
  SyncLoop,
  Ticker,
  randomChooser,
  type PodLifecycleEvent,
  type PodSyncLoopHandler,
  type PodUpdate,
  type ProbeUpdate,
  type SyncHandler,
  type SyncLoopDeps,
} from './index.js';

// ---- fixtures ----

/** newTestPods: UIDs 10000+i, names pod<i>, host network. */
function newTestPods(count: number): Pod[] {
  return Array.from({ length: count }, (_, i) => ({ metadata: { uid: String(10000 + i), name: `pod${i}` }, spec: { containers: [], hostNetwork: true } }));
}

class FakePodManager {
  pods: Pod[] = [];
  setPods(pods: Pod[]): void {
    this.pods = pods;
  }
  getPods(): Pod[] {
    return [...this.pods];
  }
  getPodByUID(uid: string): Pod | undefined {
    return this.pods.find((p) => p.metadata.uid === uid);
  }
}

/** Records each handler call as [method, pod names]. */
class RecordingHandler implements SyncHandler {
  readonly calls: [string, string[]][] = [];
  failCleanups = false;
  private rec(m: string, pods: Pod[]) {
    this.calls.push([m, pods.map((p) => p.metadata.name ?? '')]);
  }
  handlePodAdditions(pods: Pod[]) { this.rec('HandlePodAdditions', pods); }
  handlePodUpdates(pods: Pod[]) { this.rec('HandlePodUpdates', pods); }
  handlePodRemoves(pods: Pod[]) { this.rec('HandlePodRemoves', pods); }
  handlePodReconcile(pods: Pod[]) { this.rec('HandlePodReconcile', pods); }
  handlePodSyncs(pods: Pod[]) { this.rec('HandlePodSyncs', pods); }
  handlePodCleanups() {
    this.calls.push(['HandlePodCleanups', []]);
    if (this.failCleanups) throw new Error('cleanup failed');
  }
}

const noStatus = { getPodStatus: (): PodStatus | undefined => undefined };
const noEvents = { event: () => {} };

/** newTestKubelet, reduced to what the sync loop touches. */
function newTestKubelet(extra: Partial<SyncLoopDeps> = {}) {
  const clock = new FakeClock();
  const podManager = new FakePodManager();
  const workQueue = new BasicWorkQueue(clock);
  const statusCalls: string[] = [];
  const sourcesReady = new SourcesReady(() => true);
  const logs: string[] = [];
  const deps: SyncLoopDeps = {
    clock,
    podManager,
    workQueue,
    podSyncLoopHandlers: [ActiveDeadlineHandler.create(noStatus, noEvents, clock)],
    statusManager: {
      setContainerReadiness: (uid, id, ready) => statusCalls.push(`readiness ${uid}/${id}=${ready}`),
      setContainerStartup: (uid, id, started) => statusCalls.push(`startup ${uid}/${id}=${started}`),
    },
    sourcesReady,
    log: (m) => logs.push(m),
    ...extra,
  };
  const kubelet = new SyncLoop(deps);
  return { kubelet, clock, podManager, workQueue, statusCalls, logs, deps };
}

const byUID = (pods: Pod[]) => [...pods].sort((a, b) => (a.metadata.uid! < b.metadata.uid! ? -1 : 1));

describe('TestSyncLoopAbort', () => {
  it('a closed update channel ends the iteration and the loop', () => {
    const { kubelet } = newTestKubelet();
    const ch = new Channel<PodUpdate>();
    ch.close();
    const handler = new RecordingHandler();
    assert.equal(kubelet.syncLoopIteration(ch, handler, new Channel<number>(), new Channel<number>(), new Channel<PodLifecycleEvent>()), false);
    kubelet.syncLoop(ch, handler); // must return
    assert.deepEqual(handler.calls, []);
  });
});

describe('TestGetPodsToSync', () => {
  it('due work-queue entries plus pods past their active deadline', () => {
    const { kubelet, clock, podManager, workQueue } = newTestKubelet();
    const pods = newTestPods(5);
    const startTime = new Date(clock.now()).toISOString();
    pods[0].status = { startTime };
    pods[0].spec.activeDeadlineSeconds = 30;
    pods[1].status = { startTime };
    pods[1].spec.activeDeadlineSeconds = 120;
    pods[2].status = { startTime };
    pods[2].spec.activeDeadlineSeconds = 30;
    podManager.setPods(pods);
    workQueue.enqueue(pods[2].metadata.uid!, 0);
    workQueue.enqueue(pods[3].metadata.uid!, 30 * SECOND);
    workQueue.enqueue(pods[4].metadata.uid!, 2 * MINUTE);
    clock.step(MINUTE);
    assert.deepEqual(byUID(kubelet.getPodsToSync()), byUID([pods[2], pods[3], pods[0]]));
  });
});

describe('TestGetPodsToSyncInvokesPodSyncLoopHandlers', () => {
  it('a PodSyncLoopHandler can add pods', () => {
    const pods = newTestPods(5);
    const handler: PodSyncLoopHandler = { shouldSync: (pod) => pod.metadata.uid === pods[0].metadata.uid };
    const { kubelet, podManager } = newTestKubelet({ podSyncLoopHandlers: [handler] });
    podManager.setPods(pods);
    assert.deepEqual(kubelet.getPodsToSync(), [pods[0]]);
  });
});

describe('TestGetWork', () => {
  it('returns only entries due strictly before now, once', () => {
    const clock = new FakeClock();
    const q = new BasicWorkQueue(clock);
    q.enqueue('foo1', -MINUTE);
    q.enqueue('foo2', -MINUTE);
    q.enqueue('foo3', MINUTE);
    q.enqueue('foo4', MINUTE);
    assert.deepEqual(new Set(q.getWork()), new Set(['foo1', 'foo2']));
    assert.deepEqual(q.getWork(), []);
    clock.step(60 * MINUTE);
    assert.deepEqual(new Set(q.getWork()), new Set(['foo3', 'foo4']));
    assert.deepEqual(q.getWork(), []);
  });
});

describe('TestNewBasicWorkQueue', () => {
  it('case 0: starts empty with the given clock', () => {
    const clock = new FakeClock();
    const q = new BasicWorkQueue(clock);
    assert.equal(q.clock, clock);
    assert.equal(q.queue.size, 0);
  });
});

describe('TestNewActiveDeadlineHandler', () => {
  const clock = new FakeClock();
  const combos: [boolean, boolean, boolean][] = [
    [true, true, true], [true, true, false], [true, false, true], [true, false, false],
    [false, true, true], [false, true, false], [false, false, true], [false, false, false],
  ];
  combos.forEach(([provider, recorder, withClock], i) => {
    it(`case ${i}`, () => {
      const make = () => ActiveDeadlineHandler.create(provider ? noStatus : undefined, recorder ? noEvents : undefined, withClock ? clock : undefined);
      if (i === 0) assert.ok(make() instanceof ActiveDeadlineHandler);
      else assert.throws(make);
    });
  });
});

describe('TestActiveDeadlineHandler', () => {
  const clock = new FakeClock();
  const pods = newTestPods(5);
  const provider = { getPodStatus: (uid: string) => pods.find((p) => p.metadata.uid === uid)?.status };
  const events: string[] = [];
  const handler = ActiveDeadlineHandler.create(provider, { event: (_p, _t, reason) => events.push(reason) }, clock);
  const startTime = new Date(clock.now() - MINUTE).toISOString();
  pods[0].status = { startTime };
  pods[0].spec.activeDeadlineSeconds = 30;
  pods[1].status = { startTime };
  pods[1].spec.activeDeadlineSeconds = 120;
  pods[2].status = { startTime };
  pods[3].status = {};
  pods[3].spec.activeDeadlineSeconds = 120;
  const expected = [true, false, false, false, false];
  expected.forEach((want, i) => {
    it(`case ${i}`, () => {
      assert.equal(handler.shouldSync(pods[i]), want);
      const r = handler.shouldEvict(pods[i]);
      assert.equal(r.evict, want);
      if (want) {
        assert.equal(r.reason, DEADLINE_REASON);
        assert.equal(r.message, DEADLINE_MESSAGE);
      }
    });
  });
});

// ---- dispatch of every select case (no Go table; port scenarios) ----

describe('syncLoopIteration dispatch (port scenarios, no Go test)', () => {
  const setup = (extra: Partial<SyncLoopDeps> = {}) => {
    const died: string[] = [];
    const t = newTestKubelet({ cleanUpContainersInPod: (uid, id) => died.push(`${uid}/${id}`), ...extra });
    const pods = newTestPods(2);
    t.podManager.setPods(pods);
    const handler = new RecordingHandler();
    const config = new Channel<PodUpdate>();
    const pleg = new Channel<PodLifecycleEvent>();
    const sync = new Channel<number>();
    const housekeeping = new Channel<number>();
    const iterate = () => t.kubelet.syncLoopIteration(config, handler, sync, housekeeping, pleg);
    return { ...t, pods, handler, config, pleg, sync, housekeeping, iterate, died };
  };

  const ops: [PodUpdate['op'], string | undefined][] = [
    ['ADD', 'HandlePodAdditions'],
    ['UPDATE', 'HandlePodUpdates'],
    ['REMOVE', 'HandlePodRemoves'],
    ['RECONCILE', 'HandlePodReconcile'],
    ['DELETE', 'HandlePodUpdates'],
    ['SET', undefined],
  ];
  for (const [op, method] of ops) {
    it(`config ${op} → ${method ?? 'nothing (unsupported)'}, and the source is marked seen`, () => {
      let seen: ReadonlySet<string> = new Set();
      const s = setup({ sourcesReady: new SourcesReady((x) => ((seen = x), x.has('file'))) });
      s.config.send({ op, pods: [s.pods[0]], source: 'file' });
      assert.equal(s.iterate(), true);
      assert.deepEqual(s.handler.calls, method ? [[method, ['pod0']]] : []);
      assert.ok(s.deps.sourcesReady.allReady() && seen.has('file'));
    });
  }

  it('PLEG ContainerStarted/ContainerDied/PodSync/ContainerChanged sync the pod; ContainerRemoved does not', () => {
    const s = setup();
    for (const type of ['ContainerStarted', 'ContainerDied', 'ContainerRemoved', 'PodSync', 'ContainerChanged'] as const) {
      s.pleg.send({ id: '10001', type, data: 'c1' });
      s.iterate();
    }
    assert.deepEqual(s.handler.calls, Array(4).fill(['HandlePodSyncs', ['pod1']]));
    assert.deepEqual(s.died, ['10001/c1']);
  });

  it('PLEG events for pods the pod manager no longer knows are ignored', () => {
    const s = setup();
    s.pleg.send({ id: 'gone', type: 'ContainerStarted' });
    s.iterate();
    assert.deepEqual(s.handler.calls, []);
  });

  it('a sync tick syncs due pods, and does nothing when none are due', () => {
    const s = setup();
    s.sync.send(0);
    s.iterate();
    assert.deepEqual(s.handler.calls, []);
    s.workQueue.enqueue('10000', 0);
    s.clock.step(1);
    s.sync.send(1);
    s.iterate();
    assert.deepEqual(s.handler.calls, [['HandlePodSyncs', ['pod0']]]);
  });

  it('liveness: only failures sync the pod', () => {
    const s = setup();
    s.kubelet.livenessUpdates.send({ containerID: 'c', result: 'Success', podUID: '10000' });
    s.kubelet.livenessUpdates.send({ containerID: 'c', result: 'Failure', podUID: '10000' });
    s.iterate();
    s.iterate();
    assert.deepEqual(s.handler.calls, [['HandlePodSyncs', ['pod0']]]);
    assert.deepEqual(s.statusCalls, []);
  });

  it('readiness and startup results are recorded, then the pod is synced', () => {
    const s = setup();
    const u = (result: ProbeUpdate['result']): ProbeUpdate => ({ containerID: 'c', result, podUID: '10001' });
    s.kubelet.readinessUpdates.send(u('Success'));
    s.kubelet.readinessUpdates.send(u('Failure'));
    s.kubelet.startupUpdates.send(u('Success'));
    s.kubelet.startupUpdates.send(u('Unknown'));
    for (let i = 0; i < 4; i++) s.iterate();
    assert.deepEqual(s.statusCalls, ['readiness 10001/c=true', 'readiness 10001/c=false', 'startup 10001/c=true', 'startup 10001/c=false']);
    assert.equal(s.handler.calls.length, 4);
  });

  it('housekeeping waits for all sources, and a cleanup error is only logged', () => {
    let ready = false;
    const s = setup({ sourcesReady: new SourcesReady(() => ready) });
    s.housekeeping.send(0);
    s.iterate();
    assert.deepEqual(s.handler.calls, []);
    ready = true;
    s.handler.failCleanups = true;
    s.housekeeping.send(1);
    assert.equal(s.iterate(), true);
    assert.deepEqual(s.handler.calls, [['HandlePodCleanups', []]]);
    assert.ok(s.logs.some((l) => l.includes('cleanup failed')));
  });

  it('with several cases ready, the chooser decides (first in source order by default, or random)', () => {
    const s = setup();
    s.pleg.send({ id: '10000', type: 'ContainerStarted' });
    s.config.send({ op: 'ADD', pods: [s.pods[1]], source: 'api' });
    s.iterate();
    assert.equal(s.kubelet.lastCase, 'config');
    const r = setup({ chooser: randomChooser(() => 0.99) });
    r.pleg.send({ id: '10000', type: 'ContainerStarted' });
    r.config.send({ op: 'ADD', pods: [r.pods[1]], source: 'api' });
    r.iterate();
    assert.equal(r.kubelet.lastCase, 'pleg');
  });
});

describe('syncLoop timing (port scenarios, no Go test)', () => {
  it('tickers fire every 1s (sync) and 2s (housekeeping), dropping ticks nobody read', () => {
    const { kubelet, clock, podManager } = newTestKubelet();
    podManager.setPods(newTestPods(1));
    const handler = new RecordingHandler();
    const updates = new Channel<PodUpdate>();
    const start = clock.now();
    const syncTicker = new Ticker(clock, 1000);
    const housekeepingTicker = new Ticker(clock, 2000);
    const seen: string[] = [];
    for (let t = 1; t <= 4; t++) {
      clock.step(SECOND);
      kubelet.syncLoop(updates, handler, { syncTicker, housekeepingTicker });
      seen.push(`${t}s:${handler.calls.filter((c) => c[0] === 'HandlePodCleanups').length}`);
    }
    assert.deepEqual(seen, ['1s:0', '2s:1', '3s:1', '4s:2']);
    clock.step(10 * SECOND); // ten sync ticks due, but the channel holds one
    assert.equal(syncTicker.receive() - start, 5000); // the oldest undelivered tick
    assert.equal(syncTicker.ready(), false);
  });

  it('runtime errors back the loop off 100ms, 200ms, ... capped at 5s, then it resumes', () => {
    const sleeps: number[] = [];
    let failures = 9;
    const { kubelet, clock } = newTestKubelet({
      runtimeErrors: () => (failures-- > 0 ? new Error('container runtime is down') : undefined),
      sleep: (ms) => sleeps.push(ms),
    });
    const handler = new RecordingHandler();
    const updates = new Channel<PodUpdate>();
    updates.send({ op: 'ADD', pods: newTestPods(1), source: 'api' });
    kubelet.syncLoop(updates, handler);
    assert.deepEqual(sleeps, [100, 200, 400, 800, 1600, 3200, 5000, 5000, 5000]);
    assert.deepEqual(handler.calls, [['HandlePodAdditions', ['pod0']]]);
    assert.equal(kubelet.syncLoopMonitor, clock.now());
  });
});

describe('bad input (port-only)', () => {
  it('a negative activeDeadlineSeconds is rejected naming the field', () => {
    const clock = new FakeClock();
    const h = ActiveDeadlineHandler.create(noStatus, noEvents, clock);
    const pod = newTestPods(1)[0];
    pod.spec.activeDeadlineSeconds = -1;
    pod.status = { startTime: new Date(clock.now()).toISOString() };
    assert.throws(() => h.shouldSync(pod), /spec\.activeDeadlineSeconds/);
  });
  it('an unparseable startTime is rejected naming the field', () => {
    const h = ActiveDeadlineHandler.create(noStatus, noEvents, new FakeClock());
    const pod = newTestPods(1)[0];
    pod.spec.activeDeadlineSeconds = 1;
    pod.status = { startTime: 'yesterday' };
    assert.throws(() => h.shouldSync(pod), /status\.startTime/);
  });
  it('a ticker needs a positive period', () => {
    assert.throws(() => new Ticker(new FakeClock(), 0), RangeError);
  });
});
