export {
  capacityFromMachineInfo,
  ephemeralStorageCapacityFromFsInfo,
  hugePageResourceName,
  MachineInfoError,
  type MachineInfo,
  type HugePagesInfo,
  type FsInfo,
} from './capacity.js';
export { formatQuantity, type QuantityFormat } from './quantity-format.js';
export { ImageFsInfoProvider, NoImageFsLabelError, usingLegacyCadvisorStats, CRIO_SOCKET, LABEL_CRIO_IMAGES } from './imagefs.js';
