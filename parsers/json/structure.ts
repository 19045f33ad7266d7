// Bracket-level scan of JSON text: finds where one value ends without building it, so the reader can
// hand each top-level element to the native JSON.parse (fast) and still know the element's lines.
// Strings are skipped with indexOf, which keeps multi-MB inputs cheap.

export type ScanEnd =
  | { ok: true; end: number }
  | { ok: false; reason: 'eof' | 'mismatch'; at: number };

const OPEN_OBJ = 123; // {
const CLOSE_OBJ = 125; // }
const OPEN_ARR = 91; // [
const CLOSE_ARR = 93; // ]
const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;

/** Offset just past the closing quote of the string whose opening quote is at `pos`, or -1 at EOF. */
export function skipString(text: string, pos: number, limit: number): number {
  let i = pos + 1;
  while (i < limit) {
    const q = text.indexOf('"', i);
    if (q === -1 || q >= limit) return -1;
    let bs = 0;
    let k = q - 1;
    while (k > pos && text.charCodeAt(k) === BACKSLASH) {
      bs++;
      k--;
    }
    if (bs % 2 === 0) return q + 1;
    i = q + 1;
  }
  return -1;
}

function isWs(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9 || c === 0xfeff;
}

export function skipWs(text: string, pos: number, limit: number): number {
  while (pos < limit && isWs(text.charCodeAt(pos))) pos++;
  return pos;
}

/**
 * End (exclusive) of the value starting at `pos`. `openClosers` pre-seeds the stack with expected
 * closers (used for an object whose opening brace was lost, as in pasted excerpts).
 */
export function scanValueEnd(text: string, pos: number, limit: number, openClosers: number[] = []): ScanEnd {
  const stack = openClosers.slice();
  let i = pos;
  if (stack.length === 0) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const e = skipString(text, i, limit);
      return e === -1 ? { ok: false, reason: 'eof', at: limit } : { ok: true, end: e };
    }
    if (c !== OPEN_OBJ && c !== OPEN_ARR) {
      // A primitive: runs to the next structural character or whitespace.
      while (i < limit) {
        const d = text.charCodeAt(i);
        if (d === COMMA || d === CLOSE_ARR || d === CLOSE_OBJ || isWs(d)) break;
        i++;
      }
      return { ok: true, end: i };
    }
  }
  while (i < limit) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const e = skipString(text, i, limit);
      if (e === -1) return { ok: false, reason: 'eof', at: limit };
      i = e;
      continue;
    }
    if (c === OPEN_OBJ) stack.push(CLOSE_OBJ);
    else if (c === OPEN_ARR) stack.push(CLOSE_ARR);
    else if (c === CLOSE_OBJ || c === CLOSE_ARR) {
      if (stack.length === 0 || stack[stack.length - 1] !== c) return { ok: false, reason: 'mismatch', at: i };
      stack.pop();
      if (stack.length === 0) return { ok: true, end: i + 1 };
    }
    i++;
  }
  return { ok: false, reason: 'eof', at: limit };
}
