export { parseHnsdiag } from './parse-hnsdiag.ts';
export type * from './types.ts';
