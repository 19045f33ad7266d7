export * from './types.ts';
export { buildTimelines, formatMs } from './build.ts';
