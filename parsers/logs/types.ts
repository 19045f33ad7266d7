// Log lines of the node's Kubernetes components, reduced to what the CNI ADD timeline and the known
// error catalogue need: when, who, which sandbox/pod, and the line itself for evidence.
import type { SourceRef } from '../types.ts';

export type LogComponent = 'kubelet' | 'kube-proxy' | 'containerd' | 'azure-cni' | 'antrea' | 'calico' | 'flannel' | 'cni' | 'other';

/**
 * A timestamp as precise as the line gives it. `full`: date and time (UTC or as printed);
 * `monthday`: klog's MMDD without a year (the year is taken as 2000); `time`: time of day only.
 */
export interface LogTime {
  ms: number;
  /** Milliseconds since midnight (with microseconds as the fraction). */
  tod: number;
  precision: 'full' | 'monthday' | 'time';
}

export interface LogEvent {
  line: number;
  /** The line as written (trimmed at 2,000 characters). */
  text: string;
  time?: LogTime;
  /** info, debug, warning, error … as the format prints it (lower case). */
  level?: string;
  /** The message without the timestamp/level prefix. */
  msg: string;
  /** 64-hex container / sandbox IDs in the line. */
  ids: string[];
  /** K8S_POD_NAMESPACE/K8S_POD_NAME, pod="ns/name", PodSandboxMetadata{Name,Namespace}. */
  pod?: { namespace?: string; name: string };
  pid?: number;
}

export interface LogFile {
  file: string;
  component: LogComponent;
  events: LogEvent[];
  /** Lines in the file (all, not only the kept ones). */
  lines: number;
  /** Kept only the first N relevant lines. */
  capped?: boolean;
  src: SourceRef;
}
