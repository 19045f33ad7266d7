// Handlers of the walk domain: one packet walk, and the walks worth starting with.
import { walkFlow } from '../../../analysis/walk/engine.ts';
import { walkPresets } from '../../../analysis/walk/presets.ts';
import type { BackendContext } from '../context.ts';
import type { Handlers } from '../dispatch.ts';

export function walkHandlers({ bundles }: BackendContext): Pick<Handlers, 'walk' | 'walkPresets'> {
  return {
    // The reply is walked only when asked for: most walks are looked at without it.
    walk: async ({ bundleId, reply, ...flow }) => walkFlow(bundles.get(bundleId).model, flow, { explain: true, reply }),
    walkPresets: async ({ bundleId }) => walkPresets(bundles.get(bundleId).model),
  };
}
