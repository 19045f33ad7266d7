// Byte-level matching for the VFP scanner (scan.ts): keyword bytes, exact and case-folded matches, and
// the small readers around a keyword (blanks, ':', trimmed text, a boolean's first character).

export const SP = 32, TAB = 9, CR = 13, LF = 10, COLON = 58;
export const K_LAYER = bytesOf('LAYER');
export const K_GROUP = bytesOf('GROUP');
export const K_RULE = bytesOf('RULE');
export const K_POLICY = bytesOf('policy for port');
export const K_BLOCKED = bytesOf('blocked');
export const K_PRIORITY = bytesOf('priority');
export const K_COMMAND = bytesOf('command');
export const K_MATCHED = bytesOf('matched');
export const K_SUCCEEDED = bytesOf('succeeded');
export const K_ITEM_LIST = bytesOf('item list');

/** Bytes decoded per string: V8 decodes strings below its large-object size (128 KiB) far faster. */
export const CHUNK = 1 << 16;
/** Bytes read from a file at a time (a source held in memory is read in place). */
export const WINDOW = 1 << 22;
/** Extra bytes decoded past a chunk so a regex keyword that crosses the edge is seen whole. */
export const OVERLAP = 16;

export function bytesOf(s: string): Uint8Array {
  const b = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) b[i] = s.charCodeAt(i);
  return b;
}

/** Exact (case-sensitive) match of kw at i. */
export function at(bytes: Uint8Array, i: number, end: number, kw: Uint8Array): boolean {
  if (i + kw.length > end) return false;
  for (let k = 0; k < kw.length; k++) if (bytes[i + k] !== kw[k]) return false;
  return true;
}

/** ASCII case-insensitive match against a lower-case keyword (letters fold, other bytes exact). */
export function atFold(bytes: Uint8Array, i: number, end: number, kw: Uint8Array): boolean {
  if (i + kw.length > end) return false;
  for (let k = 0; k < kw.length; k++) {
    const c = bytes[i + k];
    const w = kw[k];
    if (c === w) continue;
    if (w !== undefined && w >= 97 && w <= 122 && c === w - 32) continue;
    return false;
  }
  return true;
}

/** After a keyword: optional blanks then ':'; returns the index after ':' or -1. */
export function colonAfter(bytes: Uint8Array, i: number, end: number): number {
  while (i < end && (bytes[i] === SP || bytes[i] === TAB)) i++;
  return i < end && bytes[i] === COLON ? i + 1 : -1;
}

export function trimEnd(bytes: Uint8Array, i: number, end: number): number {
  while (end > i && (bytes[end - 1] === SP || bytes[end - 1] === TAB || bytes[end - 1] === CR)) end--;
  return end;
}

export function skipBlanks(bytes: Uint8Array, i: number, end: number): number {
  while (i < end && (bytes[i] === SP || bytes[i] === TAB)) i++;
  return i;
}

export const nameDecoder = new TextDecoder('utf-8');
export const chunkDecoder = new TextDecoder('utf-8', { ignoreBOM: true });

export function text(bytes: Uint8Array, i: number, end: number): string {
  return i >= end ? '' : nameDecoder.decode(bytes.subarray(i, end));
}

export function boolAt(c: number): boolean | undefined {
  // Mirrors text-lines.ts boolValue: the first character decides.
  if (c === 116 || c === 84 || c === 49 || c === 121 || c === 89) return true;
  if (c === 102 || c === 70 || c === 48 || c === 110 || c === 78) return false;
  return undefined;
}
