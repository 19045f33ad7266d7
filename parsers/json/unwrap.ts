// Compact JSON copied out of a console arrives hard-wrapped: every line exactly as wide as the
// window, keys, GUIDs and numbers cut anywhere (`"LastUpd` / `ateTime"`, `1318555025707` / `40184`).
// A paster's editor may add soft wraps too, where a space inside a string became the line break
// (`"Container NIC` / `d1832ef4"`). This joins such lines again. Line numbers are kept: a joined
// line's text moves to the first line of its run and the lines it absorbed become empty.
//
// Source: corpus hns-v1-rest-json-wrapped__microsoft-SDN-issue-269 (119-character lines from a
// 120-column console; lines 1-2 soft-wrapped inside strings).

export interface Unwrapped {
  text: string;
  /** Console width the lines were cut at. */
  width: number;
  /** Line breaks removed. */
  joins: number;
}

/** True when the text at `pos` onward (first line) begins inside a string (a fragment cut mid-key). */
export function startsInsideString(line: string): boolean {
  const q = line.indexOf('"');
  if (q < 0) return false;
  if (/[{[,:]/.test(line.slice(0, q))) return false;
  return /^"\s*[:,}\]]/.test(line.slice(q));
}

/**
 * Rejoins hard-wrapped JSON lines. Returns null when the text does not look wrapped: fewer than two
 * lines of one maximal width (at least 60 characters).
 */
export function unwrapJsonLines(text: string): Unwrapped | null {
  const lines = text.split(/\r\n|\n|\r/);
  let width = 0;
  for (const l of lines) if (l.length > width) width = l.length;
  if (width < 60) return null;
  let atWidth = 0;
  for (const l of lines) if (l.length === width) atWidth++;
  if (atWidth < 2) return null;
  // Pretty-printed JSON can have lines of equal length too, but they end at a token (`,` `{` `[`);
  // a console cuts anywhere.
  let cutAnywhere = 0;
  let jsonish = 0;
  for (const l of lines) {
    if (l.length !== width) continue;
    if (!/[,{[}\]]\s*$/.test(l)) cutAnywhere++;
    if (/"/.test(l) && /[:,{}[\]]/.test(l)) jsonish++;
  }
  // …and JSON lines carry quotes and punctuation; equal-width table rows do not.
  if (cutAnywhere * 2 < atWidth || jsonish * 5 < atWidth * 4) return null;

  let inString = lines[0] !== undefined && startsInsideString(lines[0]);
  let escape = false;
  let joins = 0;
  const out: string[] = [];
  let cur = '';
  let curIdx = -1;
  let absorbed = 0;
  const flush = (): void => {
    if (curIdx < 0) return;
    out.push(cur);
    for (let k = 0; k < absorbed; k++) out.push('');
    cur = '';
    curIdx = -1;
    absorbed = 0;
  };
  for (const [i, l] of lines.entries()) {
    if (curIdx < 0) {
      curIdx = i;
      cur = l;
    } else {
      absorbed++;
      cur += l;
    }
    for (let k = 0; k < l.length; k++) {
      const c = l.charCodeAt(k);
      if (escape) escape = false;
      else if (c === 92) escape = inString;
      else if (c === 34) inString = !inString;
    }
    const looksJson = /[{}[\]":,]/.test(l);
    if (i + 1 < lines.length && looksJson && l.length === width) {
      joins++;
      continue;
    }
    if (i + 1 < lines.length && looksJson && inString && l.length >= width * 0.5) {
      cur += ' ';
      joins++;
      continue;
    }
    inString = false;
    escape = false;
    flush();
  }
  flush();
  if (joins === 0) return null;
  return { text: out.join('\n'), width, joins };
}
