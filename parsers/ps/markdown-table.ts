// Tables pasted into tickets and wikis often arrive as Markdown (`| a | b |`), as in the seed guide's
// Get-NetRoute excerpt. Same result shape as parsePsTable, without column geometry.

import type { ParseResult } from '../types.ts';
import { IssueSink } from '../types.ts';
import type { PsTable, PsTableColumn, PsTableRow } from './table.ts';
import { isTruncatedCell } from './table.ts';
import { isBlank } from './lines.ts';

export function isMarkdownTableLine(line: string): boolean {
  const t = line.trim();
  return t.startsWith('|') && t.length > 1 && t.indexOf('|', 1) > 0;
}

function cellsOf(line: string): string[] {
  let t = line.trim();
  if (t.startsWith('|')) t = t.slice(1);
  if (t.endsWith('|')) t = t.slice(0, -1);
  return t.split('|').map((c) => c.trim());
}

/** Reads a Markdown pipe table starting at 0-based index `start`; rows with an empty first cell
 * (wrapped header fragments in pasted console output) are skipped with an info issue. */
export function parseMarkdownTable(lines: readonly string[], start: number, file: string): ParseResult<PsTable> {
  const sink = new IssueSink(file);
  let i = Math.max(0, Math.floor(start) || 0);
  while (i < lines.length && isBlank(lines[i])) i++;
  const header = lines[i];
  if (header === undefined || !isMarkdownTableLine(header)) {
    sink.warn(Math.min(i + 1, lines.length), 'expected a Markdown table');
    return { value: { columns: [], rows: [], headerLine: 0, endIndex: i, src: sink.ref(i + 1) }, issues: sink.issues };
  }
  const headerLine = i + 1;
  const seen = new Map<string, number>();
  const columns: PsTableColumn[] = cellsOf(header).map((c, ci) => {
    const base = c === '' ? `col${ci + 1}` : c;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return { name: n > 1 ? `${base}_${n}` : base, start: -1, end: -1 };
  });
  const rows: PsTableRow[] = [];
  i++;
  for (let line = lines[i]; line !== undefined && isMarkdownTableLine(line); line = lines[++i]) {
    const cells = cellsOf(line);
    if (cells.every((c) => /^:?-*:?$/.test(c))) continue; // |---|:--:| separator
    if (cells[0] === '') {
      sink.info(i + 1, 'table line with an empty first cell skipped (wrapped header fragment)');
      continue;
    }
    if (cells.length !== columns.length) sink.warn(i + 1, `table row has ${cells.length} cells, header has ${columns.length}`);
    const rec: Record<string, string> = {};
    columns.forEach((c, ci) => { rec[c.name] = cells[ci] ?? ''; });
    const truncatedColumns = columns.filter((c) => isTruncatedCell(rec[c.name] ?? '')).map((c) => c.name);
    rows.push({ cells: rec, line: i + 1, truncated: truncatedColumns.length > 0, truncatedColumns, src: sink.ref(i + 1) });
  }
  return { value: { columns, rows, headerLine, endIndex: i, src: sink.ref(headerLine) }, issues: sink.issues };
}
