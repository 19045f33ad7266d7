export * from './types.ts';
export { parseKubectlJson, looksLikeKubectl, mergeSnapshots, emptySnapshot } from './kubectl.ts';
