// What reachability from one source takes and gives, for either family (partition.ts for IPv4,
// v6/partition6.ts for IPv6), in a file of its own so the two do not import each other.
import type { Flow, WalkResult } from '../walk/types.ts';
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
