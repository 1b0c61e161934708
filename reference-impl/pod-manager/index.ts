export { BasicManager, type PodAndMirror, type ResolvedPodUID, type MirrorPodUID } from './pod-manager.js';
export { getPodFullName, buildPodFullName, parsePodFullName, PodFullNameError } from './full-name.js';
export {
  ConfigSourceAnnotationKey,
  ConfigMirrorAnnotationKey,
  ConfigFirstSeenAnnotationKey,
  ConfigHashAnnotationKey,
  FileSource,
  HTTPSource,
  ApiserverSource,
  AllSource,
  PodSourceError,
  getValidatedSources,
  getPodSource,
  isMirrorPod,
  isStaticPod,
} from './pod-source.js';
export { isMirrorPodOf, getHashFromMirrorPod, getPodHash } from './mirror.js';
