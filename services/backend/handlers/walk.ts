// Handlers of the walk domain: one packet walk, and the walks worth starting with.
import { walkFlow } from '../../../analysis/walk/engine.ts';
import { walkPresets } from '../../../analysis/walk/presets.ts';
import { withPathFindings } from '../../../analysis/walk/findings-on-path.ts';
import type { BackendContext } from '../context.ts';
import type { Handlers } from '../dispatch.ts';

export function walkHandlers({ bundles }: BackendContext): Pick<Handlers, 'walk' | 'walkPresets'> {
  return {
    walk: async ({ bundleId, ...flow }) => {
      const b = bundles.get(bundleId);
      // The walk itself runs no check; its path is joined once with the bundle's (cached) findings.
      return withPathFindings(b.model, walkFlow(b.model, flow, { explain: true }), bundles.findings(b));
    },
    walkPresets: async ({ bundleId }) => walkPresets(bundles.get(bundleId).model),
  };
}
