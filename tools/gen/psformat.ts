// PowerShell 5.1 default formatting of objects that have no registered view (Select output):
// a table for up to 4 properties, a list for 5 or more. Also fixed-width tables for cmdlets that do
// have a view (Get-NetRoute, Get-NetIPInterface, ...), truncating with "..." like the host does.

export type Cell = string | number | boolean | null | undefined | string[];

function cellText(v: Cell): string {
  if (v === null || v === undefined) return '';
  if (Array.isArray(v)) return v.length === 0 ? '' : v.length === 1 ? v[0] : `{${v.join(', ')}}`;
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  return String(v);
}

/** Auto-sized table (PS 5 sizes columns from the first objects it buffers). */
export function psTable(columns: string[], rows: Cell[][], maxWidth = 120): string {
  const texts = rows.map((r) => r.map(cellText));
  const numeric = columns.map((_, i) => rows.length > 0 && rows.every((r) => typeof r[i] === 'number' || r[i] === null || r[i] === undefined));
  const widths = columns.map((c, i) => Math.max(c.length, ...texts.map((t) => t[i].length)));
  // Shrink the last column to the host width, truncating with "..." as Out-File does.
  const used = widths.slice(0, -1).reduce((a, b) => a + b + 1, 0);
  if (used + widths[widths.length - 1] > maxWidth) widths[widths.length - 1] = Math.max(columns[columns.length - 1].length, maxWidth - used);
  return fixedTable(columns, texts, widths, numeric);
}

/** Table with given widths; values longer than a column are cut to width-3 and "..." appended. */
export function fixedTable(columns: string[], rows: string[][], widths: number[], rightAlign: boolean[] = []): string {
  const fit = (s: string, w: number, right: boolean, last: boolean) => {
    if (s.length > w) s = w > 3 ? s.slice(0, w - 3) + '...' : s.slice(0, w);
    if (right) return s.padStart(w);
    return last ? s : s.padEnd(w);
  };
  const line = (cells: string[]) => cells.map((c, i) => fit(c, widths[i], !!rightAlign[i], i === cells.length - 1)).join(' ').replace(/\s+$/, '');
  const out: string[] = ['', line(columns), line(columns.map((c) => '-'.repeat(c.length)))];
  for (const r of rows) out.push(line(r));
  out.push('', '');
  return out.join('\n') + '\n';
}

/** Format-List: blank line, records separated by blank lines, keys padded to the longest key. */
export function psList(records: [string, Cell][][]): string {
  if (records.length === 0) return '';
  const out: string[] = [''];
  for (const rec of records) {
    const w = Math.max(...rec.map(([k]) => k.length));
    out.push('');
    for (const [k, v] of rec) out.push(`${k.padEnd(w)} : ${cellText(v)}`);
  }
  out.push('', '');
  return out.join('\n') + '\n';
}
