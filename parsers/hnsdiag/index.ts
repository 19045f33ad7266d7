export { parseHnsdiag } from './parseHnsdiag.ts';
export type * from './types.ts';
