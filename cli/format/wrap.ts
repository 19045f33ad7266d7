// The CLI's text output fitted to the terminal: every command's human output goes through here (not
// --json, which is data). A line wider than the terminal is broken at spaces, its continuation lines
// indented past the line's own indent (a hanging indent), so a hop's or a finding's text stays under
// its heading. A word is never broken: `endpoint.txt:590`, `10.244.0.0/16` and a rule's name stay
// whole. Only a word wider than the whole line is split, after a path separator, comma or similar,
// and at a character as a last resort.

/** Columns to fill when nothing says otherwise (a pipe, a file): wide enough for a hop line, narrower than most editors. */
export const DEFAULT_COLUMNS = 100;
/** Narrower than this, a hanging indent leaves no room: lines are wrapped at this width instead. */
const MIN_COLUMNS = 40;
/** How far past its own indent a continuation line starts. */
const HANG = 2;

interface Terminal {
  isTTY?: boolean;
  columns?: number;
}

/**
 * The width to wrap to: `COLUMNS` when it is set to a number (as `COLUMNS=80 hnsight …`), else the
 * terminal's width when the output is one, else 100.
 */
export function outputColumns(stream: Terminal, env: Record<string, string | undefined> = process.env): number {
  const fromEnv = Number(env.COLUMNS);
  const cols = env.COLUMNS && Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : stream.isTTY && stream.columns && stream.columns > 0 ? stream.columns : DEFAULT_COLUMNS;
  return Math.max(MIN_COLUMNS, cols);
}

/** Width on screen: code points (the CLI prints no wide East Asian text of its own). */
const width = (s: string) => [...s].length;

export interface WrapOptions {
  /** How far past a line's indent (given) its continuation lines start (default 2; a numbered line's, under its text). */
  hang?: (lead: number) => number;
}

/** Every line of `text` no wider than `columns`, wrapped with a hanging indent. */
export function wrapText(text: string, columns: number, opts: WrapOptions = {}): string {
  const cols = Math.max(MIN_COLUMNS, columns);
  return text
    .split('\n')
    .map((line) => (width(line) <= cols ? line : wrapLine(line, cols, opts.hang).join('\n')))
    .join('\n');
}

/**
 * Text written as paragraphs broken at a fixed width (the usage text): the lines of a paragraph —
 * consecutive lines indented alike, past the first column — joined, to be broken again at the
 * terminal's width, continuing at the paragraph's indent (`USAGE_HANG`).
 */
export function reflow(text: string): string {
  const out: string[] = [];
  let prevLead = -1;
  for (const line of text.split('\n')) {
    const lead = /^ */.exec(line)![0].length;
    if (line.trim() && lead > 2 && lead === prevLead) out[out.length - 1] += ` ${line.trim()}`;
    else out.push(line);
    prevLead = line.trim() ? lead : -1;
  }
  return out.join('\n');
}

/** The usage text: a command's synopsis continues 2 columns in, a paragraph at its own indent. */
export const USAGE_HANG = (lead: number): number => (lead <= 2 ? 2 : 0);

function wrapLine(line: string, cols: number, hangBy?: (lead: number) => number): string[] {
  const lead = /^ */.exec(line)![0].length;
  // A numbered line (` 3. pod …`) continues under its text, others 2 columns in; a deep indent leaves
  // continuation lines at least half the width.
  const marker = hangBy?.(lead) ?? /^\d{1,3}\. /.exec(line.slice(lead))?.[0].length ?? HANG;
  const hang = Math.min(lead + marker, Math.floor(cols / 2));
  const first = ' '.repeat(Math.min(lead, Math.floor(cols / 2)));
  // Each word with the spaces before it: where the line is not broken, its spacing (two spaces
  // between `file:line` and its text, padded columns) stays as it was.
  const words = [...line.slice(lead).matchAll(/( *)([^ ]+)/g)].map((m) => ({ gap: m[1].length, w: m[2] }));
  const out: string[] = [];
  let cur = first;
  let curWidth = width(first);
  let empty = true;
  const flush = () => {
    out.push(cur.trimEnd());
    cur = ' '.repeat(hang);
    curWidth = hang;
    empty = true;
  };
  for (const { gap, w } of words) {
    const ww = width(w);
    if (!empty && curWidth + gap + ww > cols) flush();
    const sep = empty ? 0 : gap;
    if (curWidth + sep + ww <= cols) {
      cur += ' '.repeat(sep) + w;
      curWidth += sep + ww;
      empty = false;
      continue;
    }
    // One word wider than a whole line (a long path): on lines of its own, split where it reads best.
    if (!empty) flush();
    for (const piece of splitWord(w, cols - curWidth, cols - hang)) {
      if (!empty) flush();
      cur += piece;
      curWidth += width(piece);
      empty = false;
    }
  }
  if (!empty || !out.length) out.push(cur.trimEnd());
  return out;
}

/**
 * After these a long word may be broken: path and list separators, and `_` of generated VFP rule names
 * (`REMOTESUBNETROUTE_…_10.244.20.0_24_…`). Never `.`, `:` or `-` (IPs, `file:line`, MACs, GUIDs).
 */
const SOFT_BREAK = /[/\\,;=|&?_]/;

/** `w` in pieces, the first at most `firstRoom` wide, the others at most `room`. */
function splitWord(w: string, firstRoom: number, room: number): string[] {
  const chars = [...w];
  const pieces: string[] = [];
  let at = 0;
  let limit = Math.max(1, firstRoom);
  while (chars.length - at > limit) {
    let cut = -1;
    // The last soft break that leaves the piece at least a third full, else a hard cut.
    for (let i = at + limit - 1; i >= at + Math.floor(limit / 3); i--) {
      if (SOFT_BREAK.test(chars[i])) {
        cut = i + 1;
        break;
      }
    }
    if (cut < 0) cut = at + limit;
    pieces.push(chars.slice(at, cut).join(''));
    at = cut;
    limit = Math.max(1, room);
  }
  pieces.push(chars.slice(at).join(''));
  return pieces;
}

/** Writes a command's text output to a stream, fitted to its width. */
export function writeWrapped(stream: NodeJS.WriteStream, text: string, opts: WrapOptions = {}): void {
  stream.write(wrapText(text, outputColumns(stream), opts));
}
