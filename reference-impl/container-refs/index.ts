export {
  generateContainerRef,
  fieldPath,
  getPartialReference,
  IMPLICIT_CONTAINER_PREFIX,
  ContainerNotInPodError,
  type PodWithVersion,
} from './ref.js';
