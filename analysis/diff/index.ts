export { diffModels, type DiffOptions } from './diff.ts';
export { formatDiff } from './format.ts';
export * from './types.ts';
