import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock, MINUTE, type ObjectReference } from '../api/index.js';
import {
  RealImageGCManager,
  FakeGCRuntime,
  GO_ZERO_TIME,
  validateImageGCPolicy,
  type EventRecorder,
  type FsStats,
  type Image,
  type ImageGCPolicy,
  type RuntimeContainer,
  type StatsProvider,
} from './index.js';

// ---- pkg/kubelet/images/image_gc_manager_test.go ----

const zero = GO_ZERO_TIME;
const sandboxImage = 'registry.k8s.io/pause-amd64:latest';
const noPolicy: ImageGCPolicy = { highThresholdPercent: 0, lowThresholdPercent: 0, minAge: 0 };

class RecordingEvents implements EventRecorder {
  readonly events: string[] = [];
  event(_ref: ObjectReference | undefined, type: string, reason: string, message: string): void {
    this.events.push(`${type} ${reason} ${message}`);
  }
}

/** Stands in for the gomock stats provider: returns the stats given, or throws the error given. */
class MockStatsProvider implements StatsProvider {
  constructor(private readonly stats: FsStats = {}, private readonly err?: Error) {}
  imageFsStats(): FsStats {
    if (this.err) throw this.err;
    return this.stats;
  }
}

function newRealImageGCManager(policy: ImageGCPolicy, stats: StatsProvider = new MockStatsProvider(), sandbox = sandboxImage) {
  const fakeRuntime = new FakeGCRuntime();
  const clock = new FakeClock();
  const recorder = new RecordingEvents();
  const manager = new RealImageGCManager({ runtime: fakeRuntime, statsProvider: stats, recorder, policy, sandboxImage: sandbox, clock });
  return { manager, fakeRuntime, clock, recorder };
}

const imageID = (id: number) => `image-${id}`;
const imageName = (id: number) => `${imageID(id)}-name`;
const makeImage = (id: number, size: number): Image => ({ id: imageID(id), size });
const makeContainer = (id: number): RuntimeContainer => ({ id: `container-${id}`, image: imageName(id), imageID: imageID(id) });
const record = (m: RealImageGCManager, id: string) => {
  const r = m.imageRecords.get(id);
  assert.ok(r, `record for ${id}`);
  return { ...r };
};

describe('TestDetectImagesInitialDetect', () => {
  it('first scan stamps zero detection time; used images get lastUsed = now', () => {
    const { manager, fakeRuntime, clock } = newRealImageGCManager(noPolicy);
    fakeRuntime.imageList = [makeImage(0, 1024), makeImage(1, 2048), makeImage(2, 2048)];
    fakeRuntime.allPodList = [
      {
        containers: [
          { id: 'container-1', imageID: imageID(1) }, // an image without a name
          { id: 'container-2', image: imageName(2), imageID: imageID(2) },
        ],
      },
    ];
    const startTime = clock.now() - 1;
    manager.detectImages(zero);
    assert.equal(manager.imageRecords.size, 3);
    const noContainer = record(manager, imageID(0));
    assert.equal(noContainer.firstDetected, zero);
    assert.equal(noContainer.lastUsed, zero);
    const noName = record(manager, imageID(1));
    assert.equal(noName.firstDetected, zero);
    assert.ok(noName.lastUsed > startTime);
    const withContainer = record(manager, imageID(2));
    assert.equal(withContainer.firstDetected, zero);
    assert.ok(withContainer.lastUsed > startTime);
  });
});

describe('TestDetectImagesWithNewImage', () => {
  it('a new image is stamped with the detection time', () => {
    const { manager, fakeRuntime, clock } = newRealImageGCManager(noPolicy);
    fakeRuntime.imageList = [makeImage(0, 1024), makeImage(1, 2048)];
    fakeRuntime.allPodList = [{ containers: [makeContainer(1)] }];
    manager.detectImages(zero);
    assert.equal(manager.imageRecords.size, 2);

    fakeRuntime.imageList = [makeImage(0, 1024), makeImage(1, 1024), makeImage(2, 1024)];
    const detectedTime = zero + 1000;
    const startTime = clock.now() - 1;
    manager.detectImages(detectedTime);
    assert.equal(manager.imageRecords.size, 3);
    const noContainer = record(manager, imageID(0));
    assert.equal(noContainer.firstDetected, zero);
    assert.equal(noContainer.lastUsed, zero);
    const withContainer = record(manager, imageID(1));
    assert.equal(withContainer.firstDetected, zero);
    assert.ok(withContainer.lastUsed > startTime);
    const newContainer = record(manager, imageID(2));
    assert.equal(newContainer.firstDetected, detectedTime);
    assert.equal(newContainer.lastUsed, zero);
  });
});

describe('TestDeleteUnusedImagesExemptSandboxImage', () => {
  it('the sandbox image is never deleted', () => {
    const { manager, fakeRuntime } = newRealImageGCManager(noPolicy);
    fakeRuntime.imageList = [{ id: sandboxImage, size: 1024 }];
    manager.deleteUnusedImages();
    assert.equal(fakeRuntime.imageList.length, 1);
  });
});

describe('TestDeletePinnedImage', () => {
  it('two records of the sandbox image (one pinned) both survive', () => {
    const { manager, fakeRuntime } = newRealImageGCManager(noPolicy);
    fakeRuntime.imageList = [
      { id: sandboxImage, size: 1024, pinned: true },
      { id: sandboxImage, size: 1024 },
    ];
    manager.deleteUnusedImages();
    assert.equal(fakeRuntime.imageList.length, 2);
  });
});

describe('TestDoNotDeletePinnedImage', () => {
  it('only the unpinned image is freed', () => {
    const { manager, fakeRuntime, clock } = newRealImageGCManager(noPolicy);
    fakeRuntime.imageList = [
      { id: '1', size: 1024, pinned: true },
      { id: '2', size: 1024 },
    ];
    const { spaceFreed, error } = manager.freeSpace(4096, clock.now());
    assert.equal(error, undefined);
    assert.equal(spaceFreed, 1024);
    assert.equal(fakeRuntime.imageList.length, 1);
  });
});

describe('TestDeleteUnPinnedImage', () => {
  it('both unpinned images are freed', () => {
    const { manager, fakeRuntime, clock } = newRealImageGCManager(noPolicy);
    fakeRuntime.imageList = [
      { id: '1', size: 1024, pinned: false },
      { id: '2', size: 1024 },
    ];
    const { spaceFreed, error } = manager.freeSpace(2048, clock.now());
    assert.equal(error, undefined);
    assert.equal(spaceFreed, 2048);
    assert.equal(fakeRuntime.imageList.length, 0);
  });
});

describe('TestAllPinnedImages', () => {
  it('nothing is freed when every image is pinned', () => {
    const { manager, fakeRuntime, clock } = newRealImageGCManager(noPolicy);
    fakeRuntime.imageList = [
      { id: '1', size: 1024, pinned: true },
      { id: '2', size: 1024, pinned: true },
    ];
    const { spaceFreed, error } = manager.freeSpace(2048, clock.now());
    assert.equal(error, undefined);
    assert.equal(spaceFreed, 0);
    assert.equal(fakeRuntime.imageList.length, 2);
  });
});

describe('TestDetectImagesContainerStopped', () => {
  it('lastUsed keeps its value after the container stops', () => {
    const { manager, fakeRuntime, clock } = newRealImageGCManager(noPolicy);
    fakeRuntime.imageList = [makeImage(0, 1024), makeImage(1, 2048)];
    fakeRuntime.allPodList = [{ containers: [makeContainer(1)] }];
    manager.detectImages(zero);
    assert.equal(manager.imageRecords.size, 2);
    const withContainer = record(manager, imageID(1));

    fakeRuntime.allPodList = [];
    clock.step(1000);
    manager.detectImages(clock.now());
    assert.equal(manager.imageRecords.size, 2);
    const container1 = record(manager, imageID(0));
    assert.equal(container1.firstDetected, zero);
    assert.equal(container1.lastUsed, zero);
    const container2 = record(manager, imageID(1));
    assert.equal(container2.firstDetected, zero);
    assert.equal(container2.lastUsed, withContainer.lastUsed);
  });
});

describe('TestDetectImagesWithRemovedImages', () => {
  it('records of vanished images are dropped', () => {
    const { manager, fakeRuntime, clock } = newRealImageGCManager(noPolicy);
    fakeRuntime.imageList = [makeImage(0, 1024), makeImage(1, 2048)];
    fakeRuntime.allPodList = [{ containers: [makeContainer(1)] }];
    manager.detectImages(zero);
    assert.equal(manager.imageRecords.size, 2);
    fakeRuntime.imageList = [];
    manager.detectImages(clock.now());
    assert.equal(manager.imageRecords.size, 0);
  });
});

describe('TestFreeSpaceImagesInUseContainersAreIgnored', () => {
  it('only the unused image is freed', () => {
    const { manager, fakeRuntime, clock } = newRealImageGCManager(noPolicy);
    fakeRuntime.imageList = [makeImage(0, 1024), makeImage(1, 2048)];
    fakeRuntime.allPodList = [{ containers: [makeContainer(1)] }];
    const { spaceFreed, error } = manager.freeSpace(2048, clock.now());
    assert.equal(error, undefined);
    assert.equal(spaceFreed, 1024);
    assert.equal(fakeRuntime.imageList.length, 1);
  });
});

describe('TestDeleteUnusedImagesRemoveAllUnusedImages', () => {
  it('every unused image is deleted', () => {
    const { manager, fakeRuntime } = newRealImageGCManager(noPolicy);
    fakeRuntime.imageList = [makeImage(0, 1024), makeImage(1, 2048), makeImage(2, 2048)];
    fakeRuntime.allPodList = [{ containers: [makeContainer(2)] }];
    manager.deleteUnusedImages();
    assert.equal(fakeRuntime.imageList.length, 1);
  });
});

describe('TestFreeSpaceRemoveByLeastRecentlyUsed', () => {
  it('the image used longest ago goes first', () => {
    const { manager, fakeRuntime, clock } = newRealImageGCManager(noPolicy);
    fakeRuntime.imageList = [makeImage(0, 1024), makeImage(1, 2048)];
    fakeRuntime.allPodList = [{ containers: [makeContainer(0), makeContainer(1)] }];
    // Make 1 more recently used than 0.
    manager.detectImages(zero);
    fakeRuntime.allPodList = [{ containers: [makeContainer(1)] }];
    clock.step(1); // Go relies on the wall clock moving between the two scans
    manager.detectImages(clock.now());
    fakeRuntime.allPodList = [{ containers: [] }];
    manager.detectImages(clock.now());
    assert.equal(manager.imageRecords.size, 2);

    // Free one minute in the future, so detection and deletion times differ.
    const { spaceFreed, error } = manager.freeSpace(1024, clock.now() + MINUTE);
    assert.equal(error, undefined);
    assert.equal(spaceFreed, 1024);
    assert.equal(fakeRuntime.imageList.length, 1);
    assert.equal(fakeRuntime.imageList[0].id, imageID(1));
  });
});

describe('TestFreeSpaceTiesBrokenByDetectedTime', () => {
  it('frees the 2048-byte image first', () => {
    const { manager, fakeRuntime, clock } = newRealImageGCManager(noPolicy);
    fakeRuntime.imageList = [makeImage(0, 1024)];
    fakeRuntime.allPodList = [{ containers: [makeContainer(0)] }];
    // Make 1 more recently detected but used at the same time as 0.
    manager.detectImages(zero);
    fakeRuntime.imageList = [makeImage(0, 1024), makeImage(1, 2048)];
    clock.step(1);
    manager.detectImages(clock.now());
    fakeRuntime.allPodList = [];
    clock.step(1);
    manager.detectImages(clock.now());
    assert.equal(manager.imageRecords.size, 2);

    clock.step(1);
    const { spaceFreed, error } = manager.freeSpace(1024, clock.now());
    assert.equal(error, undefined);
    assert.equal(spaceFreed, 2048);
    assert.equal(fakeRuntime.imageList.length, 1);
  });
});

const policy9080: ImageGCPolicy = { highThresholdPercent: 90, lowThresholdPercent: 80, minAge: 0 };

describe('TestGarbageCollectBelowLowThreshold', () => {
  it('40% usage: nothing to do', () => {
    const { manager } = newRealImageGCManager(policy9080, new MockStatsProvider({ availableBytes: 600, capacityBytes: 1000 }));
    assert.doesNotThrow(() => manager.garbageCollect());
  });
});

describe('TestGarbageCollectCadvisorFailure', () => {
  it('a stats error is returned', () => {
    const { manager } = newRealImageGCManager(policy9080, new MockStatsProvider({}, new Error('error')));
    assert.throws(() => manager.garbageCollect(), /error/);
  });
});

describe('TestGarbageCollectBelowSuccess', () => {
  it('95% usage with 90/80: frees 150 bytes of 1000 by deleting the 450-byte image', () => {
    const { manager, fakeRuntime } = newRealImageGCManager(policy9080, new MockStatsProvider({ availableBytes: 50, capacityBytes: 1000 }));
    fakeRuntime.imageList = [makeImage(0, 450)];
    assert.doesNotThrow(() => manager.garbageCollect());
    assert.equal(fakeRuntime.imageList.length, 0);
  });
});

describe('TestGarbageCollectNotEnoughFreed', () => {
  it('95% usage but only 50 bytes deletable: error', () => {
    const { manager, fakeRuntime, recorder } = newRealImageGCManager(policy9080, new MockStatsProvider({ availableBytes: 50, capacityBytes: 1000 }));
    fakeRuntime.imageList = [makeImage(0, 50)];
    assert.throws(() => manager.garbageCollect(), /needed to free 150 bytes but only 50 bytes/);
    assert.match(recorder.events[0], /^Warning FreeDiskSpaceFailed /);
  });
});

describe('TestGarbageCollectImageNotOldEnough', () => {
  it('an image younger than MinAge is kept until MinAge has passed', () => {
    const policy: ImageGCPolicy = { highThresholdPercent: 90, lowThresholdPercent: 80, minAge: MINUTE };
    const { manager, fakeRuntime, clock } = newRealImageGCManager(policy, new MockStatsProvider(), '');
    fakeRuntime.imageList = [makeImage(0, 1024), makeImage(1, 2048)];
    // 1 image is in use, and another one is not old enough
    fakeRuntime.allPodList = [{ containers: [makeContainer(1)] }];
    manager.detectImages(clock.now());
    assert.equal(manager.imageRecords.size, 2);
    let { spaceFreed, error } = manager.freeSpace(1024, clock.now());
    assert.equal(error, undefined);
    assert.equal(spaceFreed, 0);
    assert.equal(fakeRuntime.imageList.length, 2);

    clock.step(policy.minAge);
    ({ spaceFreed, error } = manager.freeSpace(1024, clock.now()));
    assert.equal(error, undefined);
    assert.equal(spaceFreed, 1024);
    assert.equal(fakeRuntime.imageList.length, 1);
  });
});

describe('TestValidateImageGCPolicy', () => {
  const cases: [string, Partial<ImageGCPolicy>, string | undefined][] = [
    ['Test for LowThresholdPercent < HighThresholdPercent', { highThresholdPercent: 2, lowThresholdPercent: 1 }, undefined],
    ['Test for HighThresholdPercent < 0,', { highThresholdPercent: -1 }, 'invalid HighThresholdPercent -1, must be in range [0-100]'],
    ['Test for HighThresholdPercent > 100', { highThresholdPercent: 101 }, 'invalid HighThresholdPercent 101, must be in range [0-100]'],
    ['Test for LowThresholdPercent < 0', { lowThresholdPercent: -1 }, 'invalid LowThresholdPercent -1, must be in range [0-100]'],
    ['Test for LowThresholdPercent > 100', { lowThresholdPercent: 101 }, 'invalid LowThresholdPercent 101, must be in range [0-100]'],
    ['Test for LowThresholdPercent > HighThresholdPercent', { highThresholdPercent: 1, lowThresholdPercent: 2 }, 'LowThresholdPercent 2 can not be higher than HighThresholdPercent 1'],
  ];
  for (const [name, partial, expectErr] of cases) {
    it(name, () => {
      const policy: ImageGCPolicy = { ...noPolicy, ...partial };
      if (expectErr === undefined) assert.doesNotThrow(() => validateImageGCPolicy(policy));
      else assert.throws(() => validateImageGCPolicy(policy), { message: expectErr });
      // The constructor runs the same checks.
      const build = () =>
        new RealImageGCManager({ runtime: new FakeGCRuntime(), statsProvider: new MockStatsProvider(), recorder: new RecordingEvents(), policy, sandboxImage: '', clock: new FakeClock() });
      if (expectErr === undefined) assert.doesNotThrow(build);
      else assert.throws(build, { message: expectErr });
    });
  }
});

// ---- beyond the Go tests ----

describe('bad input and edge cases', () => {
  it('capacity 0 is an error and a Warning InvalidDiskCapacity event', () => {
    const { manager, recorder } = newRealImageGCManager(policy9080, new MockStatsProvider({ availableBytes: 0, capacityBytes: 0 }));
    assert.throws(() => manager.garbageCollect(), /capacity of 0 bytes/);
    assert.deepEqual(recorder.events, ['Warning InvalidDiskCapacity image filesystem reports a capacity of 0 bytes']);
  });
  it('a negative MinAge is rejected naming the field', () => {
    assert.throws(() => validateImageGCPolicy({ highThresholdPercent: 85, lowThresholdPercent: 80, minAge: -1 }), /MinAge/);
  });
  it('the first monitoring pass stamps the zero time, later passes the clock time', () => {
    const { manager, fakeRuntime, clock } = newRealImageGCManager(noPolicy);
    fakeRuntime.imageList = [makeImage(0, 1)];
    manager.monitorImages();
    fakeRuntime.imageList = [makeImage(0, 1), makeImage(1, 1)];
    clock.step(MINUTE);
    manager.monitorImages();
    assert.equal(record(manager, imageID(0)).firstDetected, zero);
    assert.equal(record(manager, imageID(1)).firstDetected, clock.now());
  });
  it('the image list cache is sorted largest first', () => {
    const { manager, fakeRuntime } = newRealImageGCManager(noPolicy);
    fakeRuntime.imageList = [makeImage(0, 10), makeImage(1, 30), makeImage(2, 20)];
    manager.updateImageCache();
    assert.deepEqual(manager.getImageList().map((i) => i.id), [imageID(1), imageID(2), imageID(0)]);
  });
});
