// Format-List text: one record per object, records separated by blank lines, `Key : value` with keys
// padded to a common column, and long values wrapped onto lines indented to that value column.

import type { ParseResult, SourceRef } from '../types.ts';
import { IssueSink } from '../types.ts';
import { isBlank } from './lines.ts';

export interface PsListRecord {
  fields: Record<string, string>;
  /** 1-based line of each key, for evidence. */
  fieldLines: Record<string, number>;
  /** 1-based line of the record's first key. */
  line: number;
  src: SourceRef;
}

export interface PsList {
  records: PsListRecord[];
  /** 0-based index of the first line after the list (where a caller continues reading). */
  endIndex: number;
}

// Key at column 0, padding, ` : `; the value may be empty (`Key :`).
const KV_RE = /^([^\s:][^:]*?)\s+:(?: (.*)|\s*$)/;
/** A key ends at the line's first colon; PowerShell property names are far shorter than this. */
const MAX_KEY = 256;

/**
 * KV_RE's match, tried only when the first colon is near the start: the lazy key and the padding
 * before the colon are quadratic in a long run of blanks, which a hostile file puts in a line.
 */
/** A `Key : value` line; past the last line (undefined) there is none. */
function matchKv(line: string | undefined): RegExpExecArray | null {
  if (line === undefined) return null;
  const colon = line.indexOf(':');
  return colon > 0 && colon <= MAX_KEY ? KV_RE.exec(line) : null;
}

export function isPsListLine(line: string): boolean {
  return matchKv(line) !== null;
}

/**
 * Reads the Format-List text starting at 0-based index `start` of `lines` (leading blank lines are
 * skipped) and stops at the first line that is neither a key, a continuation, nor a blank line
 * followed by another key. Never throws.
 */
export function parsePsList(lines: readonly string[], start: number, file: string): ParseResult<PsList> {
  const sink = new IssueSink(file);
  const records: PsListRecord[] = [];
  let i = Math.max(0, Math.floor(start) || 0);
  while (i < lines.length && isBlank(lines[i])) i++;
  if (i < lines.length && !matchKv(lines[i])) {
    sink.warn(i + 1, 'expected a PowerShell list record (Key : value)');
    return { value: { records, endIndex: i }, issues: sink.issues };
  }

  // The widest line approximates the console width: a value line that reached it was cut mid-word.
  let width = 0;
  let atWidth = 0;
  for (let k = i, l = lines[k]; l !== undefined; l = lines[++k]) {
    if (!isBlank(l) && !matchKv(l) && !/^\s/.test(l)) break;
    const n = l.trimEnd().length;
    if (n > width) {
      width = n;
      atWidth = 1;
    } else if (n === width) atWidth++;
  }
  // Word-wrapped lists (PowerShell's own wrapping) rarely have two lines of exactly the widest
  // length; a console that cuts at its width gives many: then every full line was cut mid-token
  // (test/fixtures/recognise/hns-network-list-wrapped-80.txt).
  const hardWrapped = atWidth >= 2;

  let cur: PsListRecord | null = null;
  let dupSuffix: Map<string, number> | undefined;
  let lastKey = '';
  let lastLineLen = 0;
  let lastText = '';
  let valueCol = 0;
  let endIndex = i;
  for (; i < lines.length; i++) {
    const line = lines[i];
    if (line === undefined || isBlank(line)) {
      cur = null;
      let n = i;
      while (n < lines.length && isBlank(lines[n])) n++;
      if (n >= lines.length || !matchKv(lines[n])) break;
      continue;
    }
    const m = matchKv(line);
    if (m) {
      if (cur === null) {
        // No prototype: a `__proto__ : x` line is a field like any other (on `{}` it set the prototype).
        cur = { fields: Object.create(null) as Record<string, string>, fieldLines: Object.create(null) as Record<string, number>, line: i + 1, src: sink.ref(i + 1) };
        records.push(cur);
        dupSuffix = undefined;
      }
      const [, keyText = ''] = m;
      let key = keyText.trim();
      if (Object.hasOwn(cur.fields, key)) {
        sink.warn(i + 1, `duplicate key "${key}" in one list record`);
        // The next free suffix is remembered per key: counting up from 2 each time is quadratic in
        // the duplicates (a hostile file repeats one key tens of thousands of times).
        const next = (dupSuffix ??= new Map()).get(key) ?? 2;
        let n = next;
        while (Object.hasOwn(cur.fields, `${key}_${n}`)) n++;
        dupSuffix.set(key, n + 1);
        key = `${key}_${n}`;
      }
      cur.fields[key] = (m[2] ?? '').trimEnd();
      cur.fieldLines[key] = i + 1;
      lastKey = key;
      lastLineLen = line.trimEnd().length;
      lastText = line.trimEnd();
      valueCol = line.indexOf(':', keyText.length) + 2;
      endIndex = i + 1;
      continue;
    }
    if (cur !== null && /^\s/.test(line) && lastKey !== '') {
      const add = line.trim();
      const before = cur.fields[lastKey];
      // PowerShell wraps list values at spaces and only chops words longer than the line; so a
      // line that reached the console width and ends in a long token (GUID, path) was cut mid-word.
      const lastToken = lastText.split(' ').pop() ?? '';
      const cutMidWord = lastLineLen >= width && width > valueCol && (hardWrapped || lastToken.length >= 16);
      cur.fields[lastKey] = before === '' ? add : before + (cutMidWord ? '' : ' ') + add;
      lastLineLen = line.trimEnd().length;
      lastText = line.trimEnd();
      endIndex = i + 1;
      continue;
    }
    break;
  }
  return { value: { records, endIndex }, issues: sink.issues };
}
