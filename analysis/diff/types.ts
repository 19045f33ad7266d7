// What changed between two bundles (before/after a repro, or a good node against a bad one):
// objects and VFP rules added, removed or changed, matched by stable keys; rule counter deltas when
// both dumps have counters; findings that appear or disappear. Plain JSON (`hnsight diff --json`).
import type { SourceRef } from '../../parsers/types.ts';
import type { InspectCounts } from '../inspect.ts';
import type { Severity } from '../../parsers/types.ts';

export const DIFF_SCHEMA = 'hnsight-diff/1';

export type DiffKind = 'network' | 'endpoint' | 'loadbalancer' | 'route' | 'port' | 'rule';

export interface DiffObject {
  /** The stable key the two sides were matched by (an ID, `VIP:port/proto`, a route, `port/layer/group/rule`). */
  key: string;
  label: string;
  src?: SourceRef;
}

export interface DiffFieldChange {
  field: string;
  a: string;
  b: string;
}

export interface DiffChange extends DiffObject {
  fields: DiffFieldChange[];
  srcB?: SourceRef;
}

export interface DiffSection {
  kind: DiffKind;
  title: string;
  added: DiffObject[];
  removed: DiffObject[];
  changed: DiffChange[];
  unchanged: number;
  /** Why this section could not be compared (a side lacks the file), when it could not. */
  skipped?: string;
}

export interface RuleCounters {
  matchedPackets?: number;
  droppedPackets?: number;
  pendingPackets?: number;
  droppedFlows?: number;
}

export interface CounterDelta {
  key: string;
  label: string;
  a: RuleCounters;
  b: RuleCounters;
  /** b − a for each counter both sides have. */
  delta: RuleCounters;
  src?: SourceRef;
  srcB?: SourceRef;
}

export interface DiffFinding {
  id: string;
  severity: Severity;
  title: string;
  objects: string[];
}

export interface DiffSide {
  location: string;
  hostName?: string;
  windowsBuild?: string;
  counts: InspectCounts;
}

export interface DiffResult {
  schema: typeof DIFF_SCHEMA;
  a: DiffSide;
  b: DiffSide;
  /** Both bundles name the same host. */
  sameHost: boolean;
  sections: DiffSection[];
  /** Rules present on both sides whose counters moved (only when both dumps have counters). */
  counters: CounterDelta[];
  /** Why counters were not compared, when they were not. */
  countersSkipped?: string;
  findings: { appeared: DiffFinding[]; disappeared: DiffFinding[] };
  /** Totals over all sections. */
  totals: { added: number; removed: number; changed: number };
}
