// Whether the walk of a change's example packet gives the outcome the change says for its class. The
// class's verdict is reach's (analysis/reach/outcome.ts reachVerdict): besides the walk's verdicts it
// says "delivered or forwarded" (a Service whose backends all get through, some here, some on other
// nodes), "ambiguous" (backends with different outcomes, or rules hnsight cannot order) and
// "insufficient information" (not walked, or an unmodelled rule decided). One walk goes to one backend,
// so it can only agree with those, not equal them: calling that a defect was a false alarm.
import type { ReachVerdict } from '../../../analysis/reach/index.ts';
import type { WalkResult } from '../../../analysis/walk/types.ts';

/** The walk's verdict in reach's words (as reachVerdict says it, without the engine in the renderer). */
export function walkReachVerdict(w: Pick<WalkResult, 'verdict' | 'hops' | 'dependsOnUnmodelled'>): ReachVerdict {
  if (w.hops.some((h) => h.ambiguous && !h.superseded)) return 'ambiguous';
  if (w.verdict === 'unknown' && w.dependsOnUnmodelled) return 'insufficient information';
  return w.verdict;
}

export function walkAgrees(expected: ReachVerdict, w: Pick<WalkResult, 'verdict' | 'hops' | 'dependsOnUnmodelled'>): boolean {
  const got = walkReachVerdict(w);
  if (got === expected) return true;
  if (expected === 'delivered or forwarded') return got === 'delivered' || got === 'forwarded';
  return expected === 'ambiguous' || expected === 'insufficient information';
}
