// Handlers of the findings domain: the checks' findings, the CNI ADD timelines and the reachability matrix.
import { buildTimelines } from '../../../analysis/timeline/index.ts';
import type { BackendContext } from '../context.ts';
import type { Handlers } from '../dispatch.ts';

export function findingsHandlers({ bundles }: BackendContext): Pick<Handlers, 'getFindings' | 'getTimelines' | 'reachMatrix' | 'cancelReach'> {
  return {
    getFindings: ({ bundleId }) => bundles.findings(bundles.get(bundleId)),
    getTimelines: async ({ bundleId }) => {
      const b = bundles.get(bundleId);
      return (b.timelines ??= buildTimelines(b.model.logs ?? []));
    },
    // The matrix is a step of the bundle (progress as 'step' events, in a worker); kept once worked out.
    reachMatrix: ({ bundleId }) => bundles.get(bundleId).reach.get(),
    cancelReach: async ({ bundleId }) => {
      bundles.get(bundleId).reach.cancel();
      return { ok: true };
    },
  };
}
