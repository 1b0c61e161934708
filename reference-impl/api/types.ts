/**
 * The slice of the Kubernetes core/v1 API that the reference ports read and write, in the JSON shape
 * that `kubectl get pod -o json` prints. Fields are optional where the API lets them be absent.
 */

export interface ObjectMeta {
  name?: string;
  namespace?: string;
  uid?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  creationTimestamp?: string;
  ownerReferences?: { apiVersion: string; kind: string; name: string; uid: string; controller?: boolean }[];
}

export type ResourceList = Record<string, string>;

export interface ResourceRequirements {
  limits?: ResourceList;
  requests?: ResourceList;
}

export interface ExecAction { command?: string[] }
export interface HTTPGetAction { path?: string; port: number | string; host?: string; scheme?: string }
export interface TCPSocketAction { port: number | string; host?: string }

export interface Probe {
  exec?: ExecAction;
  httpGet?: HTTPGetAction;
  tcpSocket?: TCPSocketAction;
  initialDelaySeconds?: number;
  timeoutSeconds?: number;
  periodSeconds?: number;
  successThreshold?: number;
  failureThreshold?: number;
  terminationGracePeriodSeconds?: number;
}

export type PullPolicy = 'Always' | 'Never' | 'IfNotPresent';
export type ContainerRestartPolicy = 'Always';

export interface Container {
  name: string;
  image?: string;
  imagePullPolicy?: PullPolicy;
  command?: string[];
  args?: string[];
  resources?: ResourceRequirements;
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  startupProbe?: Probe;
  restartPolicy?: ContainerRestartPolicy;
  volumeMounts?: { name: string; mountPath: string; readOnly?: boolean }[];
  ports?: { containerPort: number; hostPort?: number; protocol?: string; name?: string }[];
}

export type RestartPolicy = 'Always' | 'OnFailure' | 'Never';

export interface Volume {
  name: string;
  hostPath?: { path: string; type?: string };
  emptyDir?: { medium?: string; sizeLimit?: string };
  configMap?: { name: string };
  secret?: { secretName: string };
  persistentVolumeClaim?: { claimName: string; readOnly?: boolean };
}

export interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
  ephemeralContainers?: Container[];
  restartPolicy?: RestartPolicy;
  terminationGracePeriodSeconds?: number;
  activeDeadlineSeconds?: number;
  nodeName?: string;
  hostNetwork?: boolean;
  priority?: number;
  priorityClassName?: string;
  volumes?: Volume[];
  securityContext?: { supplementalGroups?: number[]; fsGroup?: number; runAsUser?: number };
  overhead?: ResourceList;
}

export interface ContainerStateWaiting { reason?: string; message?: string }
export interface ContainerStateRunning { startedAt?: string }
export interface ContainerStateTerminated {
  exitCode: number;
  signal?: number;
  reason?: string;
  message?: string;
  startedAt?: string;
  finishedAt?: string;
  containerID?: string;
}
export interface ContainerState {
  waiting?: ContainerStateWaiting;
  running?: ContainerStateRunning;
  terminated?: ContainerStateTerminated;
}

export interface ContainerStatus {
  name: string;
  state?: ContainerState;
  lastState?: ContainerState;
  ready: boolean;
  started?: boolean;
  restartCount: number;
  image?: string;
  imageID?: string;
  containerID?: string;
}

export type PodPhase = 'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'Unknown';
export type ConditionStatus = 'True' | 'False' | 'Unknown';

export interface PodCondition {
  type: string;
  status: ConditionStatus;
  reason?: string;
  message?: string;
  lastProbeTime?: string | null;
  lastTransitionTime?: string | null;
}

export type PodQOSClass = 'Guaranteed' | 'Burstable' | 'BestEffort';

export interface PodStatus {
  phase?: PodPhase;
  conditions?: PodCondition[];
  message?: string;
  reason?: string;
  hostIP?: string;
  podIP?: string;
  startTime?: string;
  containerStatuses?: ContainerStatus[];
  initContainerStatuses?: ContainerStatus[];
  ephemeralContainerStatuses?: ContainerStatus[];
  qosClass?: PodQOSClass;
}

export interface Pod {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec: PodSpec;
  status?: PodStatus;
}

export interface ObjectReference {
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiVersion?: string;
  resourceVersion?: string;
  fieldPath?: string;
}

export interface NodeCondition {
  type: string;
  status: ConditionStatus;
  reason?: string;
  message?: string;
}

export interface Node {
  metadata: ObjectMeta;
  spec?: { taints?: { key: string; value?: string; effect: string }[]; unschedulable?: boolean };
  status?: { capacity?: ResourceList; allocatable?: ResourceList; conditions?: NodeCondition[] };
}
