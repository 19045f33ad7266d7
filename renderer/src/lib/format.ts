// Small display helpers shared by every view. Pure, so the unit tests can pin their output.

/** 878 MB, 12.4 KB — decimal units, as Windows Explorer and `dir` show sizes to the people using this. */
export function formatBytes(n: number): string {
  if (!Number.isFinite(n) || n < 0) return '–';
  if (n < 1000) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1000;
  let i = 0;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return `${v >= 100 ? Math.round(v) : v.toFixed(1)} ${units[i]}`;
}

/** First 8 hex digits of a GUID, the way hnsdiag and most engineers abbreviate them. */
export function shortGuid(guid: string): string {
  const g = guid.replace(/^\{|\}$/g, '');
  return /^[0-9a-f]{8}-/i.test(g) ? g.slice(0, 8).toLowerCase() : g;
}

export function formatCount(n: number | null | undefined): string {
  if (n === null || n === undefined) return '–';
  return n.toLocaleString('en-US');
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

/** `file:line`, or the file alone when the issue concerns the whole file (line 0). */
export function fileLine(file: string, line: number): string {
  return line > 0 ? `${file}:${line}` : file;
}
