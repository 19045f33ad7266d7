// What the backend and the reachability comparison's worker (reach-diff-worker-main.ts) say to each
// other. Plain data: messages cross a thread.
import type { ReachDiffView } from '../../analysis/view-models/reach-diff-view.ts';
import type { Flow, WalkResult } from '../../analysis/walk/types.ts';

export type ReachDiffIn =
  | { type: 'start'; pathA: string; pathB: string; maxMs: number }
  /** The user's Cancel: the comparison ends after the source under way (what is compared stays). */
  | { type: 'stop' }
  /** Walk a change's example on one side. */
  | { type: 'walk'; id: number; side: 'a' | 'b'; flow: Flow };

export type ReachDiffOut =
  | { type: 'progress'; done: number; total: number; what?: string }
  | { type: 'done'; view: ReachDiffView }
  | { type: 'walked'; id: number; result?: WalkResult; error?: string }
  | { type: 'error'; message: string };
