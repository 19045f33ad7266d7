// Format-Table text as PowerShell renders it to a file: header line(s), a dash rule whose runs give
// the column extents, then one row per object. The text is lossy and width-dependent, so the reader
// takes its geometry from the dash rule of *this* file and never from expected widths: numbers are
// right-aligned inside their run, strings left-aligned, the last column may run past its dashes,
// narrow consoles wrap header names over several lines (`if`/`Me`/`tr`/`ic`), and cells that did not
// fit end in `...`.

import type { ParseResult, SourceRef } from '../types.ts';
import { IssueSink } from '../types.ts';
import { isBannerLine, isBlank, isDashRule } from './lines.ts';

export interface PsTableColumn {
  name: string;
  /** 0-based character offsets of the column's dash run: [start, end). -1 for tables without geometry. */
  start: number;
  end: number;
}

export interface PsTableRow {
  cells: Record<string, string>;
  /** 1-based line of the row's first line. */
  line: number;
  /** True when at least one cell ends in `...` (PowerShell cut it to the column width). */
  truncated: boolean;
  truncatedColumns: string[];
  src: SourceRef;
}

export interface PsTable {
  columns: PsTableColumn[];
  rows: PsTableRow[];
  /** 1-based line of the first header line; 0 when no table was found. */
  headerLine: number;
  /** 0-based index of the first line after the table (where a caller continues reading). */
  endIndex: number;
  src: SourceRef;
}

const MAX_HEADER_LINES = 8;

/** Whether the text looks truncated by Format-Table (ASCII dots or the ellipsis PS 7 uses). */
export function isTruncatedCell(v: string): boolean {
  return v.endsWith('...') || v.endsWith('\u2026');
}

/**
 * Reads the Format-Table text that starts at 0-based index `start` of `lines` (leading blank lines
 * are skipped). Never throws: without a dash rule it returns an empty table and a warning.
 */
export function parsePsTable(lines: readonly string[], start: number, file: string): ParseResult<PsTable> {
  const sink = new IssueSink(file);
  let i = Math.max(0, Math.floor(start) || 0);
  while (i < lines.length && isBlank(lines[i])) i++;
  const empty: PsTable = { columns: [], rows: [], headerLine: 0, endIndex: i, src: sink.ref(i + 1) };
  if (i >= lines.length) {
    sink.warn(Math.min(i, lines.length), 'expected a PowerShell table but reached the end of the file');
    return { value: empty, issues: sink.issues };
  }

  const headerStart = i;
  let dashIdx = -1;
  let dashRule = '';
  for (let k = i; k < lines.length && k < i + MAX_HEADER_LINES + 1; k++) {
    const l = lines[k];
    if (l !== undefined && isDashRule(l)) { dashIdx = k; dashRule = l; break; }
    if (isBlank(l)) break;
  }
  if (dashIdx < 0) {
    sink.warn(headerStart + 1, 'expected a PowerShell table header followed by a dash rule (----)');
    return { value: empty, issues: sink.issues };
  }

  const runs = dashRuns(dashRule);
  const headerLines = lines.slice(headerStart, dashIdx);
  if (headerLines.length === 0) sink.warn(dashIdx + 1, 'table dash rule without a header line; columns named col1..n');

  // Collect the row lines first: the column boundaries depend on all of them.
  const rowAt: { at: number; line: string }[] = [];
  const prelim = runs.slice(1).map((r) => r.start - 1);
  let k = dashIdx + 1;
  // The loop ends where the lines end (k moves inside the body).
  for (let line = lines[k]; line !== undefined; line = lines[k]) {
    if (isBlank(line)) {
      let n = k;
      while (n < lines.length && isBlank(lines[n])) n++;
      if (n >= lines.length || !isTableRow(lines, n, prelim)) break;
      k = n;
      continue;
    }
    if (startsOtherContent(lines, k)) break;
    rowAt.push({ at: k, line });
    k++;
  }
  const endIndex = (rowAt.at(-1)?.at ?? dashIdx) + 1;

  const bounds = boundaries(runs, [...headerLines, ...rowAt.map((r) => r.line)]);
  const columns = buildColumns(runs, bounds, headerLines);
  const rows: PsTableRow[] = [];
  for (const { at: ri, line } of rowAt) {
    const cells = sliceRow(line, bounds, columns, sink, ri + 1);
    const [col0] = columns;
    const first = col0 && cells[col0.name];
    const hasOther = columns.some((c, ci) => ci > 0 && cells[c.name] !== '');
    const prev = rows.at(-1);
    if (first === '' && hasOther && prev) {
      // Format-Table -Wrap continues a row on lines whose first column is empty.
      columns.forEach((c, ci) => {
        const add = cells[c.name];
        if (add === undefined || add === '') return;
        const before = prev.cells[c.name] ?? '';
        const width = columnEnd(bounds, ci, Infinity) - columnStart(bounds, ci);
        const filled = before.length >= width;
        prev.cells[c.name] = before === '' ? add : before + (filled ? '' : ' ') + add;
      });
    } else {
      const truncatedColumns = columns.filter((c) => isTruncatedCell(cells[c.name] ?? '')).map((c) => c.name);
      rows.push({ cells, line: ri + 1, truncated: truncatedColumns.length > 0, truncatedColumns, src: sink.ref(ri + 1) });
    }
  }

  noteCutLastRow(lines, rows, columns, sink);
  return {
    value: { columns, rows, headerLine: headerStart + 1, endIndex, src: sink.ref(headerStart + 1) },
    issues: sink.issues,
  };
}

/**
 * A paste that ends inside the table's last row leaves its right-hand columns empty: said when that
 * row is the text's last line and every other row has those columns (corpus get-netroute…sig-windows-
 * tools-issue-215 and get-netipinterface…docker-for-win-issue-7179 end so).
 */
function noteCutLastRow(lines: readonly string[], rows: PsTableRow[], columns: { name: string }[], sink: IssueSink): void {
  const last = rows.at(-1);
  if (rows.length < 2 || !last) return;
  for (let k = last.line; k < lines.length; k++) if (!isBlank(lines[k])) return;
  const missing: string[] = [];
  // From the rightmost column leftwards, the first column excepted.
  for (const { name } of columns.slice(1).reverse()) {
    if (last.cells[name] !== '') break;
    missing.unshift(name);
  }
  if (missing.length === 0 || !rows.slice(0, -1).every((r) => missing.every((m) => r.cells[m] !== ''))) return;
  sink.info(last.line, `the text ends inside this row: ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} missing (the paste or the file was cut here)`);
}

interface Run { start: number; end: number }

function dashRuns(line: string): Run[] {
  const runs: Run[] = [];
  const re = /-+/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(line)) !== null) runs.push({ start: m.index, end: m.index + m[0].length });
  return runs;
}

/**
 * Separator position between each pair of adjacent columns. Dash runs are only as long as the header
 * text: left-aligned columns start at their run, right-aligned ones (numbers) end at it and may be
 * wider. So the separator is searched between the end of one run and the start of the next, at the
 * rightmost position that is blank in every line (or in as many as possible, for damaged rows).
 */
function boundaries(runs: Run[], sample: readonly string[]): number[] {
  const out: number[] = [];
  for (const [ci, run] of runs.entries()) {
    const next = runs[ci + 1];
    if (!next) break;
    const lo = run.end;
    const hi = next.start - 1;
    let best = hi;
    let bestScore = Infinity;
    for (let p = hi; p >= lo; p--) {
      let score = 0;
      for (const l of sample) if (p < l.length && l[p] !== ' ' && l[p] !== '\t') score++;
      if (score < bestScore) { best = p; bestScore = score; if (score === 0) break; }
    }
    out.push(best);
  }
  return out;
}

/** Where column `ci` starts: after the separator before it (the first column starts at 0). */
function columnStart(bounds: number[], ci: number): number {
  return ci === 0 ? 0 : (bounds[ci - 1] ?? -1) + 1;
}

/** Where column `ci` ends: at its separator; the last column has none and ends at `open`. */
function columnEnd(bounds: number[], ci: number, open: number): number {
  return bounds[ci] ?? open;
}

/** Slice of `line` that belongs to column `ci`, given the separator positions. */
function region(line: string, bounds: number[], ci: number): string {
  const from = columnStart(bounds, ci);
  const to = columnEnd(bounds, ci, line.length);
  return line.slice(from, Math.max(from, to));
}

function buildColumns(runs: Run[], bounds: number[], headerLines: string[]): PsTableColumn[] {
  const seen = new Map<string, number>();
  return runs.map((r, ci) => {
    let name = '';
    let prevFilled = false;
    for (const h of headerLines) {
      const piece = region(h, bounds, ci).trim();
      if (piece === '') continue;
      // A piece that filled its run was cut mid-word by the wrap; a shorter one ended at a space.
      name = name === '' ? piece : name + (prevFilled ? '' : ' ') + piece;
      prevFilled = piece.length >= r.end - r.start;
    }
    if (name === '') name = `col${ci + 1}`;
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    return { name: n > 1 ? `${name}_${n}` : name, start: r.start, end: r.end };
  });
}

/** True when a non-space character sits on a column separator. */
function crossesGap(line: string, bounds: number[]): boolean {
  for (const gap of bounds) {
    if (gap >= 0 && gap < line.length && line[gap] !== ' ' && line[gap] !== '\t') return true;
  }
  return false;
}

function sliceRow(line: string, bounds: number[], columns: PsTableColumn[], sink: IssueSink, lineNo: number): Record<string, string> {
  const cells: Record<string, string> = {};
  if (crossesGap(line, bounds)) {
    const tokens = line.trim().split(/\s+/);
    if (tokens.length === columns.length) {
      columns.forEach((c, ci) => { cells[c.name] = tokens[ci] ?? ''; });
      return cells;
    }
    sink.warn(lineNo, 'table row does not line up with the header columns; cells may be split wrongly');
  }
  columns.forEach((c, ci) => { cells[c.name] = region(line, bounds, ci).trim(); });
  return cells;
}

function startsOtherContent(lines: readonly string[], k: number): boolean {
  const line = lines[k];
  if (line === undefined) return false; // past the last line nothing starts
  const t = line.trim();
  if (/^[[{]/.test(line) && (t === '[' || t === '{' || t.startsWith('{"') || t.startsWith('[{'))) return true;
  if (isBannerLine(line) || isDashRule(line)) return true;
  if (/^PS [^>]*>/.test(line)) return true; // a PowerShell prompt in a pasted console copy
  // A line directly followed by a dash rule is the header of the next table.
  return k + 1 < lines.length && isDashRule(lines[k + 1]) && !isBlank(line);
}

/** After blank lines: does line k still belong to the table? */
function isTableRow(lines: readonly string[], k: number, prelim: number[]): boolean {
  const line = lines[k];
  if (line === undefined || startsOtherContent(lines, k)) return false;
  if (/^\S[^:]*?\s:(\s|$)/.test(line)) return false; // `Key : value` of a list
  if (region(line, prelim, 0).trim() === '') return false;
  return !crossesGap(line, prelim) || line.trim().split(/\s+/).length === prelim.length + 1;
}
