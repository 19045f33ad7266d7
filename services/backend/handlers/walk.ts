// Handlers of the walk domain: one packet walk, and the walks worth starting with.
import { walkFlow } from '../../../analysis/walk/engine.ts';
import { walkPresets } from '../../../analysis/walk/presets.ts';
import { withPathFindings } from '../../../analysis/walk/findings-on-path.ts';
import type { BackendContext } from '../context.ts';
import type { Handlers } from '../dispatch.ts';

export function walkHandlers({ bundles }: BackendContext): Pick<Handlers, 'walk' | 'walkPresets'> {
  return {
    // The walk itself runs no check; its path (and its reply's, when asked for) is joined once with
    // the bundle's cached findings. The reply is walked only when asked for: most walks are looked
    // at without it.
    walk: async ({ bundleId, reply, ...flow }) => {
      const b = bundles.get(bundleId);
      return withPathFindings(b.model, walkFlow(b.model, flow, { explain: true, reply }), bundles.findings(b));
    },
    walkPresets: async ({ bundleId }) => walkPresets(bundles.get(bundleId).model),
  };
}
