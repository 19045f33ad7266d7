// Minimal reader for the `Select ... > file` text that precedes the JSON in network.txt,
// endpoint.txt and namespaces.txt: a Format-Table (header, dashes, rows) or, with five or more
// properties, a Format-List (`Key : value` records separated by blank lines). Only a fallback for
// when the JSON is missing or cut short, so it stays simple: no wrapped-cell reconstruction.

const DASHES = /^\s*-+(?:\s+-+)*\s*$/;
const LIST_LINE = /^(\S[^:]*?)\s+:(?:\s(.*))?$/;
/** A key ends at the line's first colon: one past this is no key (and the lazy key would be quadratic in a long run of blanks before it). */
const MAX_KEY = 256;

export interface PsRow {
  cells: Record<string, string>;
  /** 1-based line of the row (table) or of the record's first line (list). */
  line: number;
}

export function readPsTableText(text: string): PsRow[] {
  const lines = text.split(/\r?\n/);
  const rows: PsRow[] = [];
  let sawTable = false;
  for (let i = 1; i < lines.length; i++) {
    const dashes = lines[i];
    const header = lines[i - 1];
    if (dashes === undefined || header === undefined || !DASHES.test(dashes) || header.trim() === '') continue;
    sawTable = true;
    const cols = columns(dashes, header);
    // The rows: every line up to a blank one or the end.
    for (let line = lines[++i]; line !== undefined && line.trim() !== ''; line = lines[++i]) {
      const row: Record<string, string> = {};
      for (const c of cols) row[c.name] = line.slice(c.start, c.end).trim();
      rows.push({ cells: row, line: i + 1 });
    }
  }
  if (sawTable) return rows;
  return readList(lines);
}

interface Col {
  name: string;
  start: number;
  end: number;
}

function columns(dashLine: string, header: string): Col[] {
  const runs: number[] = [];
  const re = /-+/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(dashLine)) !== null) runs.push(m.index);
  // Cells may be wider than the dashes (right-aligned numbers, overflow): a column runs to the next.
  return runs.map((at, k): Col => {
    const start = k === 0 ? 0 : at;
    const end = runs[k + 1] ?? Number.MAX_SAFE_INTEGER;
    return { name: header.slice(start, end).trim() || `col${k + 1}`, start, end };
  });
}

function readList(lines: string[]): PsRow[] {
  const rows: PsRow[] = [];
  let cur: Record<string, string> | null = null;
  let lastKey = '';
  for (const [i, line] of lines.entries()) {
    if (line.trim() === '') {
      cur = null;
      continue;
    }
    const colon = line.indexOf(':');
    const m = colon > 0 && colon <= MAX_KEY ? LIST_LINE.exec(line) : null;
    if (m) {
      if (!cur) {
        cur = {};
        rows.push({ cells: cur, line: i + 1 });
      }
      lastKey = (m[1] ?? '').trim();
      cur[lastKey] = (m[2] ?? '').trim();
    } else if (cur && /^\s/.test(line) && lastKey) {
      cur[lastKey] = `${cur[lastKey] ?? ''} ${line.trim()}`.trim();
    }
  }
  return rows;
}
