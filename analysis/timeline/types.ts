// Per pod sandbox: the CNI ADD as the logs tell it, step by step, with the time between steps.
export interface TimelineStep {
  /** Milliseconds from the first timed step of the sandbox (never negative; undefined without a time). */
  at?: number;
  /** Milliseconds since the previous timed step (never negative). */
  gap?: number;
  /** Short name: the plugin's named step (`azure-vnet: creating the HCN endpoint`) or the message shortened. */
  label: string;
  /** The named step when the line is one the plugin or runtime is known to log (analysis/timeline/steps.ts). */
  step?: string;
  /** The message without time, level and pid (zap / logrus `msg`). */
  message?: string;
  /** info, debug, warning, error … as the line says. */
  level?: string;
  component: string;
  /** The CNI plugin's own line (not containerd's or kubelet's). */
  plugin?: boolean;
  /** Resolution of the line's timestamp in ms (1000: whole seconds, so gaps next to it are approximate). */
  resolutionMs?: number;
  file: string;
  line: number;
  text: string;
  /** Wall-clock time as printed (date when known, HH:MM:SS.ffffff). */
  clock?: string;
  error?: boolean;
}

export interface SandboxTimeline {
  /** Sandbox / container ID (64 hex) as the logs print it. */
  sandboxId: string;
  pod?: { namespace?: string; name: string };
  steps: TimelineStep[];
  /** First to last step, in ms (undefined without times). */
  total?: number;
  outcome: 'succeeded' | 'failed' | 'unknown';
  /** From the ADD's start (containerd's `begin cni setup`, else the plugin's first line) to its end, in ms (never negative). */
  add?: number;
  /** Index of the step that starts the ADD. */
  addStart?: number;
  /** Index of the step that ends the ADD (containerd's `cni result`, else the plugin's success or failure). */
  addEnd?: number;
  /**
   * The largest gap between two consecutive steps of the plugin's own log inside the ADD (`plugin`),
   * else between any two steps; `approximate` when one of the two lines has whole-second times.
   */
  longestGap?: { ms: number; from: string; to: string; fromIndex: number; toIndex: number; plugin?: boolean; approximate?: boolean };
  /** Which plugin log the steps come from (azure-vnet, wincni, vpc-bridge, calico, antrea). */
  plugin?: string;
  /** Timestamps with and without a date were mixed; times were compared by time of day. */
  timeOfDayOnly?: boolean;
}
