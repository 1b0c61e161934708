/**
 * Runtime container IDs in their "<runtime>://<id>" form, as they appear in
 * status.containerStatuses[].containerID. Probe results are keyed by them.
 */

/** @go k8s.io/kubernetes/pkg/kubelet/container.ContainerID */
export interface ContainerID {
  type: string;
  id: string;
}

export const EMPTY_CONTAINER_ID: ContainerID = Object.freeze({ type: '', id: '' });

/**
 * Splits "type://id". Anything else (including "") gives the empty ID, as Go logs and carries on.
 * @go k8s.io/kubernetes/pkg/kubelet/container.ParseContainerID
 */
export function parseContainerID(value: string): ContainerID {
  const parts = value.replace(/^"+|"+$/g, '').split('://');
  if (parts.length !== 2) return { ...EMPTY_CONTAINER_ID };
  return { type: parts[0], id: parts[1] };
}

/**
 * "type://id"; the empty ID prints as "://", which never equals a real status entry.
 * @go k8s.io/kubernetes/pkg/kubelet/container.(*ContainerID).String
 */
export function containerIDString(c: ContainerID): string {
  return `${c.type}://${c.id}`;
}

/** @go k8s.io/kubernetes/pkg/kubelet/container.(*ContainerID).IsEmpty */
export function isEmptyContainerID(c: ContainerID): boolean {
  return c.type === '' && c.id === '';
}
