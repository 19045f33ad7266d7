// The ground floor of analysis: what a finding is. Checks, the packet walk, the cluster views and the
// inspect document all speak it, so it lives below all of them and imports nothing from them.
import type { Severity } from '../../parsers/types.ts';

export interface FindingEvidence {
  file: string;
  /** 1-based; 0 when the evidence is the file as a whole (or its absence). */
  line: number;
  text: string;
}

/** What part of the node a finding is about (the UI groups and filters by it). */
export type FindingArea = 'hns' | 'vfp' | 'drift' | 'routes' | 'dns' | 'lb' | 'node' | 'k8s' | 'cni' | 'logs';

export interface Finding {
  id: string;
  severity: Severity;
  title: string;
  explanation: string;
  fix: string;
  objects: string[];
  evidence: FindingEvidence[];
  area?: FindingArea;
  /** A flow the packet walk can open at to show the problem (pod → destination). */
  trace?: { srcIp: string; dstIp: string; dstPort?: number; proto: 'tcp' | 'udp' | 'icmp' };
  /** True when the check could not decide (a file is missing or cut); the explanation says which. */
  undecided?: boolean;
}

/** A model object a finding (or a view row) names, so the UI can light it up. */
export interface ObjectRef {
  type: 'network' | 'endpoint' | 'loadbalancer' | 'namespace' | 'compartment' | 'adapter' | 'port' | 'route' | 'remote-subnet' | 'file' | 'node';
  /** Unique within its type: GUIDs lower-case, compartments by number, adapters `<compartment>/<name>`, routes by index. */
  id: string;
}

export interface FindingView extends Finding {
  /** Index in the list, stable for one load: notes and links refer to it. */
  key: string;
  refs: ObjectRef[];
}
