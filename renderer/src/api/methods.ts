// The contract's method names, without zod (the renderer does not validate; its backends do).
// test/unit/api/methods.test.ts checks this list equals the contract's METHODS.
import type { Method } from '../../../electron/api-contract.ts';

export const API_METHODS: Method[] = [
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
  'getExcerpt',
  'trace',
  'tracePresets',
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
];
