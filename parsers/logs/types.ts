// Log lines of the node's Kubernetes components, reduced to what the CNI ADD timeline and the known
// error catalogue need: when, who, which sandbox/pod, and the line itself for evidence.
import type { SourceRef } from '../types.ts';
import type { HnsErrorHit } from '../hns/errors.ts';

/**
 * Who wrote the lines. `calico` is the Calico CNI plugin and calico-node, `felix` Calico's Felix
 * dataplane agent; `azure-cni` the azure-vnet plugin, `azure-cns` the Azure Container Networking
 * Service; `events` Kubernetes events (kubectl describe / get events, e2e dumps); `eventlog` a
 * Windows event log table (Get-WinEvent).
 */
export type LogComponent =
  | 'kubelet' | 'kube-proxy' | 'containerd' | 'azure-cni' | 'azure-cns' | 'antrea' | 'calico' | 'felix' | 'flannel' | 'cni'
  | 'events' | 'eventlog' | 'other';

/** How the lines are written (parsers/logs/line-formats.ts). */
export type LogFormat =
  | 'klog' | 'cri' | 'logrus' | 'zap' | 'calico' | 'azure' | 'iso' | 'event-table' | 'kubectl-events' | 'kubectl-get-events'
  | 'e2e-events' | 'powershell' | 'text';

/**
 * A timestamp as precise as the line gives it. `full`: date and time (UTC or as printed);
 * `monthday`: klog's MMDD without a year (the year is taken as 2000); `time`: time of day only.
 */
export interface LogTime {
  ms: number;
  /** Milliseconds since midnight (with microseconds as the fraction). */
  tod: number;
  precision: 'full' | 'monthday' | 'time';
  /** What one unit of the printed time is worth, in ms: 1000 for `15:04:05`, 1 for `.000`, 0.001 for `.000000`. */
  resolution: number;
}

export interface LogEvent {
  line: number;
  /** Last line of a record that runs over several lines (go-spew dumps, console wraps). */
  endLine?: number;
  /** The line as written (with its continuation lines, trimmed at 2,000 characters). */
  text: string;
  time?: LogTime;
  /** trace, debug, info, warning, error, fatal (any language and spelling mapped to these). */
  level?: string;
  /** The message without the timestamp/level prefix. */
  msg: string;
  /** The same as `msg`: the stable name other modules should read. */
  message: string;
  /** Who wrote this line (the file's component unless the line names another, e.g. k0s's component=). */
  component: LogComponent;
  format: LogFormat;
  /** The `file.go:123` that printed the line, when the format says (klog, Calico). */
  caller?: string;
  /** `key=value` pairs of the line (logrus, structured klog, zap members, Calico's trailing pairs, event columns). */
  fields?: Record<string, string>;
  /** HNS / Win32 error codes the line mentions, explained (parsers/hns/errors.ts). */
  hnsErrors?: HnsErrorHit[];
  src: SourceRef;
  /** 64-hex container / sandbox IDs in the line. */
  ids: string[];
  /** K8S_POD_NAMESPACE/K8S_POD_NAME, pod="ns/name", PodSandboxMetadata{Name,Namespace}. */
  pod?: { namespace?: string; name: string };
  pid?: number;
}

export interface LogFile {
  file: string;
  component: LogComponent;
  /** The formats its lines are in, most used first. */
  formats: LogFormat[];
  events: LogEvent[];
  /** Lines in the file (all, not only the kept ones). */
  lines: number;
  /** Kept only the first N relevant lines. */
  capped?: boolean;
  /** Lines before the first log line (a prompt, the command, a banner), not read as log lines. */
  preamble?: number;
  src: SourceRef;
}
