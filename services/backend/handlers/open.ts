// Handlers of what is open in this backend: the bundles and loads a window can attach to (a reloaded
// tab, a second tab), joining one, and the steps each open bundle takes after its load.
import type { BackendContext } from '../context.ts';
import type { Handlers } from '../dispatch.ts';

export function openHandlers({ bundles, loads }: BackendContext): Pick<Handlers, 'listOpen' | 'attachBundle' | 'getStep'> {
  return {
    listOpen: async () => ({
      bundles: bundles.list().map((b) => ({ bundleId: b.id, location: b.summary.location, hostName: b.summary.hostName, jobId: b.jobId, steps: bundles.steps(b) })),
      loads: loads.loading(),
    }),
    attachBundle: async ({ bundleId, client }) => bundles.hold(bundleId, client).summary,
    getStep: async ({ bundleId, step }) => bundles.get(bundleId)[step].state,
  };
}
