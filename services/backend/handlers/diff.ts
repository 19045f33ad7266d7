// Handlers of the diff domain: compare two bundles in the background.
import path from 'node:path';
import type { BackendContext } from '../context.ts';
import type { Handlers } from '../dispatch.ts';

export function diffHandlers({ diffs }: BackendContext): Pick<Handlers, 'openDiff' | 'getDiff'> {
  return {
    openDiff: async ({ pathA, pathB }) => diffs.start(path.resolve(pathA), path.resolve(pathB)),
    getDiff: async ({ jobId }) => diffs.get(jobId),
  };
}
