// Handlers of the walk domain: one packet walk, and the walks worth starting with.
import { walkFlow } from '../../../analysis/walk/engine.ts';
import { walkPresets } from '../../../analysis/walk/presets.ts';
import { withPathFindings } from '../../../analysis/walk/findings-on-path.ts';
import { withNames } from '../../../analysis/k8s/name-walk.ts';
import type { WalkCaveat } from '../../../analysis/walk/types.ts';
import type { BackendContext } from '../context.ts';
import type { Handlers } from '../dispatch.ts';
import { budgeted } from '../budgeted.ts';

const CHECKS_RUNNING: WalkCaveat = {
  kind: 'limitation',
  text: 'The checks were still running when this packet was walked: findings on its path are not shown. Walk it again once the findings panel is complete.',
};

export function walkHandlers({ bundles }: BackendContext): Pick<Handlers, 'walk' | 'walkPresets'> {
  return {
    // The walk itself runs no check; its path (and its reply's, when asked for) is joined once with
    // the bundle's cached findings. The reply is walked only when asked for: most walks are looked
    // at without it. Both run within a budget of work, like the views. A walk never waits for the
    // checks (on a big node they take a while, in a worker): until they end, it says that the findings
    // on its path are not joined yet.
    walk: async ({ bundleId, reply, ...flow }) => {
      const b = bundles.get(bundleId);
      const findings = bundles.readyFindings(b);
      return budgeted('the walk', () => {
        const result = withNames(b.model, walkFlow(b.model, flow, { explain: true, reply }));
        if (findings) return withPathFindings(b.model, result, findings);
        return { ...result, caveats: [...(result.caveats ?? []), CHECKS_RUNNING] };
      });
    },
    walkPresets: async ({ bundleId }) => budgeted('the walk presets', () => walkPresets(bundles.get(bundleId).model)),
  };
}
