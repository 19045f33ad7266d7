// The names of the API contract's methods, in a module without zod: the sandboxed preload and the
// renderer need the list but not the schemas (their backends validate). The contract's `requests`
// is keyed by exactly these names (checked at compile time in contract/api.ts and by
// test/unit/api/methods.test.ts).
export const API_METHOD_NAMES = [
  'info',
  'openBundle',
  'openDemo',
  'pickBundle',
  'pickSavePath',
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
  'walkPresets',
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
] as const;

export type ApiMethodName = (typeof API_METHOD_NAMES)[number];
