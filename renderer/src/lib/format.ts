// Small display helpers shared by every view. Pure, so the unit tests can pin their output. Sizes and
// counts are written as in every other layer (parsers/text/quantities.ts): binary units, which is also
// what Windows Explorer computes its "KB" and "MB" with.
export { formatBytes, plural } from '../../../parsers/text/quantities.ts';

/** First 8 hex digits of a GUID, the way hnsdiag and most engineers abbreviate them. */
export function shortGuid(guid: string): string {
  const g = guid.replace(/^\{|\}$/g, '');
  return /^[0-9a-f]{8}-/i.test(g) ? g.slice(0, 8).toLowerCase() : g;
}

export function formatCount(n: number | null | undefined): string {
  if (n === null || n === undefined) return '–';
  return n.toLocaleString('en-US');
}


/** `file:line`, or the file alone when the issue concerns the whole file (line 0). */
export function fileLine(file: string, line: number): string {
  return line > 0 ? `${file}:${line}` : file;
}
