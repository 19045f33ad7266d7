export * from './types.ts';
export { parseCniConfig, parseCniBinListing, looksLikeCniConfig, cniExt } from './config.ts';
