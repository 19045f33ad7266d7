// Handlers of the walk domain: one packet walk, and the walks worth starting with.
import { walkFlow } from '../../../analysis/walk/engine.ts';
import { walkPresets } from '../../../analysis/walk/presets.ts';
import type { BackendContext } from '../context.ts';
import type { Handlers } from '../dispatch.ts';
import { budgeted } from '../budgeted.ts';

export function walkHandlers({ bundles }: BackendContext): Pick<Handlers, 'walk' | 'walkPresets'> {
  return {
    walk: async ({ bundleId, ...flow }) => budgeted('the walk', () => walkFlow(bundles.get(bundleId).model, flow, { explain: true })),
    walkPresets: async ({ bundleId }) => budgeted('the walk presets', () => walkPresets(bundles.get(bundleId).model)),
  };
}
