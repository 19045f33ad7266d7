// The PowerShell table at the top of vfpOutput.txt (`$ports | select 'Port name', 'Mac Address', 'PortId'`).
// Column boundaries come from the dash line, since Format-Table widths depend on the data.
import { IssueSink } from '../types.ts';
import type { ParseResult } from '../types.ts';
import { normalizeMac as normMac } from '../net/mac.ts';
import { matchPortBoundary, toLines } from './text-lines.ts';
import type { VfpPortTableRow } from './types.ts';
import { trimTrailingBlanks } from '../text/trim-blanks.ts';

export interface PortTableOptions {
  lineOffset?: number;
}

interface Column {
  start: number;
  end: number;
  header: string;
}

export function parseVfpOutputPortTable(text: string, file: string, opts: PortTableOptions = {}): ParseResult<VfpPortTableRow[]> {
  const sink = new IssueSink(file);
  const rows: VfpPortTableRow[] = [];
  try {
    const raw = (typeof text === 'string' ? text : '').replace(/^\uFEFF/, '').split('\n').map(trimTrailingBlanks);
    const lines = toLines(typeof text === 'string' ? text : '', opts.lineOffset ?? 0);
    // raw and lines hold the same lines, except that lines drops the empty one after a final LF.
    for (const [h, head] of raw.entries()) {
      const dashes = raw[h + 1];
      if (dashes === undefined) break;
      if (!/port ?name/i.test(head) || !/^[ \t]*-{2,}/.test(dashes)) continue;
      const headLine = lines[h];
      if (headLine === undefined || matchPortBoundary(headLine.body) !== undefined) break;
      const cols = columns(head, dashes);
      for (let i = h + 2, line = raw[i]; line !== undefined; line = raw[++i]) {
        if (line.trim() === '') {
          if (rows.length > 0) break;
          continue;
        }
        const at = lines[i];
        if (at === undefined || matchPortBoundary(at.body) !== undefined) break;
        const row: VfpPortTableRow = { name: '', extra: {}, src: sink.ref(at.no) };
        for (const c of cols) {
          const v = (c.end < 0 ? line.slice(c.start) : line.slice(c.start, c.end)).trim();
          const k = c.header.toLowerCase().replace(/\s+/g, '');
          if (k === 'portname') row.name = v;
          else if (k === 'macaddress') {
            if (v !== '') row.mac = normMac(v) ?? v;
          } else if (k === 'portid') {
            if (v !== '') row.portId = v;
          } else row.extra[c.header] = v;
        }
        if (row.name === '') sink.warn(at.no, `port table row without a port name: ${line.trim()}`);
        rows.push(row);
      }
      break;
    }
  } catch (e) {
    sink.error(0, `internal error while reading the port table: ${e instanceof Error ? e.message : String(e)}`);
  }
  return { value: rows, issues: sink.issues };
}

/** Each dash run is a column; a column extends to the next run's start, the last to end of line. */
function columns(header: string, dashes: string): Column[] {
  const starts: number[] = [];
  const re = /-+/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(dashes)) !== null) starts.push(m.index);
  return starts.map((start, i): Column => {
    const next = starts[i + 1];
    return next === undefined
      ? { start, end: -1, header: header.slice(start).trim() }
      : { start, end: next, header: header.slice(start, next).trim() };
  });
}
