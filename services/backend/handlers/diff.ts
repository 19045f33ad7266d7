// Handlers of the diff domain: compare two bundles in the background.
import type { BackendContext } from '../context.ts';
import type { Handlers } from '../dispatch.ts';
import { chosenBundle } from '../grants.ts';

export function diffHandlers(ctx: BackendContext): Pick<Handlers, 'openDiff' | 'getDiff'> {
  const { diffs } = ctx;
  return {
    // Both sides are bundles the user chose, as for openBundle.
    openDiff: async ({ pathA, pathB }) => diffs.start(await chosenBundle(ctx, pathA), await chosenBundle(ctx, pathB)),
    getDiff: async ({ jobId }) => diffs.get(jobId),
  };
}
