import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseQuantity } from '../api/index.js';
import {
  capacityFromMachineInfo,
  ephemeralStorageCapacityFromFsInfo,
  formatQuantity,
  ImageFsInfoProvider,
  MachineInfoError,
  NoImageFsLabelError,
  usingLegacyCadvisorStats,
  CRIO_SOCKET,
} from './index.js';

describe('TestCapacityFromMachineInfoWithHugePagesEnable', () => {
  it('case 0: 2 cores, 2048 bytes, 10 pages of 5 KiB', () => {
    const actual = capacityFromMachineInfo({ numCores: 2, memoryCapacity: 2048, hugePages: [{ pageSize: 5, numPages: 10 }] });
    assert.deepEqual(actual, { cpu: '2', memory: '2Ki', 'hugepages-5Ki': '50Ki' });
    // The strings are the canonical forms of the Go expectations: 2000m, 2048 bytes, 51200 bytes.
    assert.equal(parseQuantity(actual.cpu), 2);
    assert.equal(parseQuantity(actual.memory), 2048);
    assert.equal(parseQuantity(actual['hugepages-5Ki']), 51200);
  });
});

describe('TestImageFsInfoLabel', () => {
  it('LabelCrioImages should be returned', () => {
    assert.equal(new ImageFsInfoProvider(CRIO_SOCKET).imageFsInfoLabel(), 'crio-images');
  });
  it('Cannot find valid imagefs label', () => {
    assert.throws(() => new ImageFsInfoProvider('').imageFsInfoLabel(), NoImageFsLabelError);
    assert.throws(() => new ImageFsInfoProvider('').imageFsInfoLabel(), /^NoImageFsLabelError: no imagefs label for configured runtime$/);
  });
});

describe('TestCrioSocket', () => {
  it('matches the socket path cAdvisor uses', () => {
    assert.equal(CRIO_SOCKET, '/var/run/crio/crio.sock');
  });
});

describe('capacity beyond the Go tests', () => {
  it('typical node: 2Mi and 1Gi hugepage pools, 16 GiB memory', () => {
    const actual = capacityFromMachineInfo({
      numCores: 8,
      memoryCapacity: 16 * 2 ** 30,
      hugePages: [{ pageSize: 2048, numPages: 512 }, { pageSize: 1048576, numPages: 0 }],
    });
    assert.deepEqual(actual, { cpu: '8', memory: '16Gi', 'hugepages-2Mi': '1Gi', 'hugepages-1Gi': '0' });
  });
  it('memory that is not a multiple of 1024 prints as plain bytes; under 1024 it uses decimal suffixes', () => {
    assert.equal(capacityFromMachineInfo({ numCores: 1, memoryCapacity: 1500 }).memory, '1500');
    assert.equal(capacityFromMachineInfo({ numCores: 1, memoryCapacity: 1000 }).memory, '1k');
  });
  it('ephemeral storage comes from the root filesystem capacity', () => {
    assert.deepEqual(ephemeralStorageCapacityFromFsInfo({ capacity: 100 * 2 ** 30 }), { 'ephemeral-storage': '100Gi' });
  });
  it('quantity formatting keeps thousandths when they do not reduce', () => {
    assert.equal(formatQuantity(2500n, -3, 'DecimalSI'), '2500m');
    assert.equal(formatQuantity(4000000n, 0, 'DecimalSI'), '4M');
    assert.equal(formatQuantity(12000n, 0, 'DecimalSI'), '12k');
  });
  it('CRI-O endpoints with and without unix:// use legacy cAdvisor stats', () => {
    assert.equal(usingLegacyCadvisorStats('unix:///var/run/crio/crio.sock'), true);
    assert.equal(usingLegacyCadvisorStats('unix:///run/containerd/containerd.sock'), false);
  });
  it('rejects a negative core count, naming the field', () => {
    assert.throws(() => capacityFromMachineInfo({ numCores: -1, memoryCapacity: 1 }), (e: unknown) => e instanceof MachineInfoError && e.field === 'machineInfo.numCores');
  });
  it('rejects a fractional page count, naming the pool', () => {
    assert.throws(
      () => capacityFromMachineInfo({ numCores: 1, memoryCapacity: 1, hugePages: [{ pageSize: 2048, numPages: 1.5 }] }),
      /machineInfo\.hugePages\[0\]\.numPages: Invalid value: 1.5/,
    );
  });
});
