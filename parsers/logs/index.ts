export * from './types.ts';
export { parseLogFile, parseLogTime, podOf, componentFromName } from './parse.ts';
