// The names of the contract's methods, in a module without zod: the sandboxed preload and the
// renderer need the list but not the schemas (their backends validate). schemas.ts's `requests` is
// keyed by exactly these names: the check below fails to compile otherwise.
import type { Method } from './schemas.ts';

export const API_METHOD_NAMES = [
  'info',
  'openBundle',
  'openDropped',
  'openDemo',
  'pickBundle',
  'getJob',
  'cancelLoad',
  'listRecent',
  'closeBundle',
  'listOpen',
  'attachBundle',
  'getStep',
  'getTopology',
  'getInventory',
  'search',
  'inspect',
  'getExcerpt',
  'addPaste',
  'recognisePaste',
  'walk',
  'walkPresets',
  'openCluster',
  'getClusterGraph',
  'walkAcross',
  'getFindings',
  'getTimelines',
  'reachMatrix',
  'cancelReach',
  'getServices',
  'reachCompute',
  'reachDiff',
  'cancelReachDiff',
  'walkCompared',
  'startCollect',
  'getCollectJob',
  'cancelCollect',
  'listSavedTargets',
  'forgetTarget',
  'pickCredentialFile',
  'getNotes',
  'saveNotes',
  'pickSavePath',
  'exportReport',
  'openDiff',
  'getDiff',
] as const;

export type ApiMethodName = (typeof API_METHOD_NAMES)[number];

type Exact<A, B> = [Exclude<A, B> | Exclude<B, A>] extends [never] ? true : { mismatch: Exclude<A, B> | Exclude<B, A> };
const _sameMethods: Exact<ApiMethodName, Method> = true;
void _sameMethods;
