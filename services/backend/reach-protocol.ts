// What the backend and the reachability worker (reach-worker-main.ts) say to each other, and the order
// of the first pass. Plain data: messages cross a thread.
import type { HandedFile } from './revive-node.ts';
import type { FindingView } from '../../analysis/findings/types.ts';
import type { ReachCellView, ReachEnd, ReachEndKind } from '../../analysis/view-models/reach-data.ts';
import type { BundleOrigin } from '../bundle/origin.ts';

export type ReachIn =
  | {
      type: 'start';
      origin: BundleOrigin;
      reuse: HandedFile[];
      maxCells: number;
      maxMs: number;
      /**
       * A worker started again after its predecessor let its node go (reach-session.ts): the cells
       * worked out already (source × destinations + destination), no first pass, and no 'ends' (the
       * session has them); it waits for what the user asks.
       */
      resume?: { done: number[] };
    }
  /** The node's findings, to name those on each cell's path (walks wait for them). */
  | { type: 'findings'; findings: FindingView[] }
  /** Cells the user asked for: every listed source against every listed destination (indexes). */
  | { type: 'compute'; sources: number[]; destinations: number[] }
  /** The user's Cancel: what is queued is dropped (the cells worked out stay). */
  | { type: 'stop' };

export type ReachOut =
  | { type: 'ends'; sources: ReachEnd[]; destinations: ReachEnd[] }
  | { type: 'cells'; cells: ReachCellView[] }
  | { type: 'progress'; done: number; total: number; what?: string }
  /** A batch ended: whole, or cut by its bounds or a stop (the note says what is left). */
  | { type: 'batch-done'; kind: Batch['kind']; note?: string }
  /** Nothing left to walk. */
  | { type: 'idle' }
  | { type: 'error'; message: string };

/** Work the worker has queued: the first pass, or cells the user asked for. */
export interface Batch {
  kind: 'first' | 'asked';
  slices: { s: number; d: number[] }[];
  at: number;
  /** Cells of the batch looked at (walked, or a source to its own address). */
  walked: number;
  total: number;
  /** Time spent walking this batch (a batch waiting behind another spends none). */
  spentMs: number;
}

/**
 * The first pass: every source against the pods, remote pod subnets, the node and the outside first,
 * then against the Services (a walk per backend each, and most of the cells on a big node): a pass cut
 * short by its bounds still shows something in every row.
 */
export function firstPass(sources: number, kinds: readonly ReachEndKind[]): { s: number; d: number[] }[] {
  const cheap = kinds.flatMap((k, i) => (k === 'service' ? [] : [i]));
  const services = kinds.flatMap((k, i) => (k === 'service' ? [i] : []));
  const out: { s: number; d: number[] }[] = [];
  for (const part of [cheap, services]) for (let s = 0; s < sources; s++) if (part.length) out.push({ s, d: part });
  return out;
}

export type { ReachEnd };
