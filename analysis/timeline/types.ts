// Per pod sandbox: the CNI ADD as the logs tell it, step by step, with the time between steps.
export interface TimelineStep {
  /** Milliseconds from the first step (undefined when the line has no time). */
  at?: number;
  /** Milliseconds since the previous step. */
  gap?: number;
  /** Short name of the step, e.g. `Configuring IP address for container …`. */
  label: string;
  component: string;
  file: string;
  line: number;
  text: string;
  /** Wall-clock time as printed (HH:MM:SS.ffffff). */
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
  /** From the first step to the step that ends the CNI ADD (plugin success/failure, containerd's cni result). */
  add?: number;
  /** Index of the step that ends the ADD. */
  addEnd?: number;
  /** The longest gap between consecutive steps up to the end of the ADD, named by the steps around it. */
  longestGap?: { ms: number; from: string; to: string; fromIndex: number; toIndex: number };
  /** Timestamps of different precision were mixed; times were compared by time of day. */
  timeOfDayOnly?: boolean;
}
