// A cross-node check compares what nodes say about each other, or what should be the same on every
// node of a pool, and names the odd nodes out against the node that says the truth or the majority.
import type { Finding, FindingEvidence } from '../../findings/types.ts';
import type { ClusterModel } from '../types.ts';

export interface NodeEvidence extends FindingEvidence {
  /** The node whose bundle holds the line. */
  node: string;
}

export interface ClusterFinding extends Omit<Finding, 'evidence' | 'trace'> {
  evidence: NodeEvidence[];
  nodes: {
    /** The nodes that differ (the ones to fix). */
    odd: string[];
    /** The nodes that agree with each other (or the node whose own bundle says the truth). */
    majority: string[];
    /** What the majority (or the truth) says, in words. */
    majorityValue?: string;
    /** Nodes the comparison was made over. */
    total: number;
  };
  /** A packet that shows the problem, walked across nodes (`trace --from --to` over the cluster). */
  trace?: Finding['trace'];
}

export interface ClusterCheck {
  id: string;
  ids: string[];
  title: string;
  /** What it relies on, in words (with the sources next to the code). */
  assumes: string;
  run(c: ClusterModel): ClusterFinding[];
}
