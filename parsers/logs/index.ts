export * from './types.ts';
export { parseLogFile, podOf, componentFromName } from './parse.ts';
export { readLogLine, normaliseLevel, LINE_READERS, type LineRead } from './line-formats.ts';
export { componentFromContent } from './components.ts';
