// Handlers of the findings domain: the checks' findings and the CNI ADD timelines.
import { buildTimelines } from '../../../analysis/timeline/index.ts';
import type { BackendContext } from '../context.ts';
import type { Handlers } from '../dispatch.ts';

export function findingsHandlers({ bundles }: BackendContext): Pick<Handlers, 'getFindings' | 'getTimelines'> {
  return {
    getFindings: ({ bundleId }) => bundles.findings(bundles.get(bundleId)),
    getTimelines: async ({ bundleId }) => {
      const b = bundles.get(bundleId);
      return (b.timelines ??= buildTimelines(b.model.logs ?? []));
    },
  };
}
