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
    if (!DASHES.test(lines[i]) || lines[i - 1].trim() === '') continue;
    sawTable = true;
    const cols = columns(lines[i], lines[i - 1]);
    for (i = i + 1; i < lines.length && lines[i].trim() !== ''; i++) {
      const row: Record<string, string> = {};
      for (const c of cols) row[c.name] = lines[i].slice(c.start, c.end).trim();
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
  const cols: Col[] = [];
  const re = /-+/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(dashLine)) !== null) cols.push({ name: '', start: m.index, end: m.index + m[0].length });
  for (let k = 0; k < cols.length; k++) {
    // Cells may be wider than the dashes (right-aligned numbers, overflow): a column runs to the next.
    const start = k === 0 ? 0 : cols[k].start;
    const end = k + 1 < cols.length ? cols[k + 1].start : Number.MAX_SAFE_INTEGER;
    cols[k].name = header.slice(start, end).trim() || `col${k + 1}`;
    cols[k].start = start;
    cols[k].end = end;
  }
  return cols;
}

function readList(lines: string[]): PsRow[] {
  const rows: PsRow[] = [];
  let cur: Record<string, string> | null = null;
  let lastKey = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
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
      lastKey = m[1].trim();
      cur[lastKey] = (m[2] ?? '').trim();
    } else if (cur && /^\s/.test(line) && lastKey) {
      cur[lastKey] = `${cur[lastKey]} ${line.trim()}`.trim();
    }
  }
  return rows;
}
