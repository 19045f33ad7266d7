// What reachability from one source takes and gives, for either family (partition.ts), and the matrix's
// sources and destinations (sources.ts, matrix.ts), in a file of its own so that the family modules
// (family.ts) and the partition do not import each other.
import type { Flow, Proto, WalkResult } from '../walk/types.ts';
import type { ReachClass, ReachProto } from './classes.ts';

export interface ReachOptions {
  maxWalks?: number;
  maxMs?: number;
  now?: () => number;
  protos?: ReachProto[];
  /** Walk function (tests count walks); default walkFlow with the reply. */
  walk?: (f: Flow) => WalkResult;
}

export interface ReachFrom {
  from: string;
  classes: ReachClass[];
  /** Cells walked (one example each); adjacent cells with the same outcome are one class. */
  cells: number;
  walks: number;
  budget: { maxWalks: number; hit: boolean; note?: string };
  limitations: string[];
}

export interface Endpoint {
  ip: string;
  port?: number;
  proto: Proto;
  /** Kubernetes name or role ("host", "outside", "remote pod subnet 10.244.1.0/24"). */
  name?: string;
  /** A destination hnsight chose by an assumption, with the assumption. */
  inferred?: string;
  /** A pod on another node (remote pod subnets, remote IPv6 endpoints), as the app groups destinations. */
  remote?: boolean;
}

export interface Source {
  ip: string;
  name?: string;
}
