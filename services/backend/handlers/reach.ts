// Handlers of the reachability domain: the matrix of an open node, filled progressively in a worker
// (reach-session.ts), and the reachability part of a comparison (reach-diffs.ts).
import type { BackendContext } from '../context.ts';
import type { Handlers } from '../dispatch.ts';
import { ReachDiffs } from '../reach-diffs.ts';
import { ANALYSIS_BUDGET } from '../../analysis-budget.ts';

/** How long a reachability request may wait for its answer before it says "not yet". */
const ANSWER_WITHIN_MS = 10_000;

type ReachMethods = 'reachMatrix' | 'reachCompute' | 'cancelReach' | 'reachDiff' | 'cancelReachDiff' | 'walkCompared';

export function reachHandlers({ bundles, diffs, events }: BackendContext, reachDiffs = new ReachDiffs(events, { maxMs: ANALYSIS_BUDGET.maxMs ?? 30_000 })): Pick<Handlers, ReachMethods> {
  return {
    reachMatrix: ({ bundleId, from }) => bundles.get(bundleId).reach.snapshot(from),
    reachCompute: ({ bundleId, sources, destinations }) => bundles.get(bundleId).reach.compute(sources, destinations),
    cancelReach: async ({ bundleId }) => {
      bundles.get(bundleId).reach.cancel();
      return { ok: true };
    },
    // The comparison's two paths are the user's choice already (openDiff granted them).
    reachDiff: async ({ jobId }) => {
      const job = diffs.get(jobId);
      if (job.state !== 'done') throw new Error('the bundles are still being compared: ask again when the comparison is done');
      // At most 10 s: a request must not stay silent past browser mode's idle socket timeout (30 s).
      // null: still under way; the reach-diff step's events say when it ends.
      const run = reachDiffs.get(jobId, { pathA: job.pathA, pathB: job.pathB });
      return Promise.race([run, new Promise<null>((r) => setTimeout(() => r(null), ANSWER_WITHIN_MS))]);
    },
    cancelReachDiff: async ({ jobId }) => {
      reachDiffs.cancel(jobId);
      return { ok: true };
    },
    walkCompared: ({ jobId, side, ...flow }) => reachDiffs.walk(jobId, side, flow),
  };
}
