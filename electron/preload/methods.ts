// The contract's method names, without zod: the sandboxed preload is bundled into one small file and
// must not carry the schemas (main validates). test/unit/electron/preload.test.ts checks this list
// equals METHODS of electron/api-contract.ts, so a method added there fails the test until added here.
import type { Method } from '../api-contract.ts';

export const PRELOAD_METHODS = [
  'info',
  'openBundle',
  'openDemo',
  'pickBundle',
  'getJob',
  'cancelLoad',
  'listRecent',
  'closeBundle',
  'getTopology',
  'getInventory',
  'search',
  'inspect',
  'trace',
  'tracePresets',
  'getExcerpt',
  'getFindings',
  'getTimelines',
  'startCollect',
  'getCollectJob',
  'cancelCollect',
  'listSavedTargets',
  'forgetTarget',
  'getNotes',
  'saveNotes',
  'exportReport',
  'openDiff',
  'getDiff',
] as const satisfies readonly Method[];

// Compile-time half of the check: every contract method is listed (the test checks extras and duplicates).
type Missing = Exclude<Method, (typeof PRELOAD_METHODS)[number]>;
const _allListed: [Missing] extends [never] ? true : { missing: Missing } = true;
void _allListed;
