// Bundle files arrive as bytes in whatever encoding the collecting shell chose: Windows PowerShell 5.1
// `>` writes UTF-16LE with a BOM, vfpctrl dumps are ASCII, re-saved bundles are UTF-8, and `>>` appends
// in its own encoding without looking at the file (so one file can switch encoding part-way).
// Detect, never assume.
import type { ParseIssue } from '../types.ts';
import { plural } from './quantities.ts';

export type TextEncodingName =
  | 'utf-16le-bom'
  | 'utf-16be-bom'
  | 'utf-16le'
  | 'utf-16be'
  | 'utf-8-bom'
  | 'utf-8'
  | 'ascii'
  | 'windows-1252'
  | 'empty';

export type LineEnding = 'crlf' | 'lf' | 'cr' | 'mixed' | 'none';

export interface DecodedText {
  text: string;
  encoding: TextEncodingName;
  /** Set when part of the file is in another encoding than its start (PowerShell `>>` appends). */
  mixed?: boolean;
  lineEnding: LineEnding;
  issues: ParseIssue[];
}

const SAMPLE = 64 * 1024;

/** Picks the encoding from the BOM or, without one, from the byte pattern of the first 64 KiB. */
export function detectEncoding(bytes: Uint8Array): TextEncodingName {
  if (bytes.length === 0) return 'empty';
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le-bom';
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be-bom';
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8-bom';
  const n = Math.min(bytes.length, SAMPLE);
  let evenZero = 0;
  let oddZero = 0;
  let high = 0;
  // An indexed loop: an iterator of [index, byte] pairs cost ≈ 15× as much (2.6 ms a 64 KiB sample).
  for (let i = 0; i < n; i++) {
    const b = bytes[i]!;
    if (b === 0) {
      if (i & 1) oddZero++;
      else evenZero++;
    } else if (b >= 0x80) high++;
  }
  const pairs = n / 2;
  // Text in UTF-16 has a zero in nearly every code unit's high byte; ASCII text has no zeros at all.
  if (oddZero > pairs * 0.3 && evenZero < pairs * 0.05) return 'utf-16le';
  if (evenZero > pairs * 0.3 && oddZero < pairs * 0.05) return 'utf-16be';
  if (high === 0) return 'ascii';
  return isValidUtf8(bytes, n) ? 'utf-8' : 'windows-1252';
}

function isValidUtf8(bytes: Uint8Array, n: number): boolean {
  let i = 0;
  while (i < n) {
    const b = bytes[i];
    if (b === undefined) break; // n is at most the length: never, but the type cannot know
    if (b < 0x80) {
      i++;
      continue;
    }
    let extra: number;
    if (b >= 0xc2 && b <= 0xdf) extra = 1;
    else if (b >= 0xe0 && b <= 0xef) extra = 2;
    else if (b >= 0xf0 && b <= 0xf4) extra = 3;
    else return false;
    if (i + extra >= n) return true; // a sequence cut by the sample window is not evidence against
    for (let k = 1; k <= extra; k++) if (((bytes[i + k] ?? 0) & 0xc0) !== 0x80) return false;
    i += extra + 1;
  }
  return true;
}

export function detectLineEnding(text: string): LineEnding {
  let crlf = 0;
  let lf = 0;
  let cr = 0;
  const n = Math.min(text.length, 4 * SAMPLE);
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 13) {
      if (text.charCodeAt(i + 1) === 10) {
        crlf++;
        i++;
      } else cr++;
    } else if (c === 10) lf++;
  }
  const kinds = (crlf > 0 ? 1 : 0) + (lf > 0 ? 1 : 0) + (cr > 0 ? 1 : 0);
  if (kinds === 0) return 'none';
  if (kinds > 1) return 'mixed';
  return crlf ? 'crlf' : lf ? 'lf' : 'cr';
}

/** `b` is a printable ASCII byte, TAB, CR or LF; past the end of the bytes (undefined) it is not. */
function isPrintableAscii(b: number | undefined): boolean {
  if (b === undefined) return false;
  return (b >= 0x20 && b < 0x7f) || b === 9 || b === 10 || b === 13;
}

/**
 * Decodes UTF-16LE while watching for stretches of single-byte text: `>>` from another shell
 * appends UTF-8 to a UTF-16 file. A run of 8 code units whose two bytes are both printable ASCII is
 * read as single-byte text (real UTF-16 text from these tools is ASCII, so such pairs would be CJK).
 */
function decodeUtf16leSegmented(bytes: Uint8Array, start: number): { text: string; switched: boolean } {
  const utf16 = new TextDecoder('utf-16le');
  const utf8 = new TextDecoder('utf-8');
  const parts: string[] = [];
  let switched = false;
  let segStart = start;
  let i = start;
  const n = bytes.length;
  while (i + 1 < n) {
    // fast path: most code units have a zero high byte
    if (bytes[i + 1] === 0 || !isPrintableAscii(bytes[i]) || !isPrintableAscii(bytes[i + 1])) {
      i += 2;
      continue;
    }
    let run = 0;
    let j = i;
    while (j + 1 < n && run < 8 && isPrintableAscii(bytes[j]) && isPrintableAscii(bytes[j + 1]) && bytes[j + 1] !== 0) {
      run++;
      j += 2;
    }
    if (run < 8) {
      i = j + 2;
      continue;
    }
    // single-byte stretch: it ends where UTF-16LE resumes (x 00 x 00 x 00 x 00 with x printable)
    parts.push(utf16.decode(bytes.subarray(segStart, i)));
    let k = i;
    while (k < n) {
      if (
        k + 7 < n &&
        bytes[k + 1] === 0 && bytes[k + 3] === 0 && bytes[k + 5] === 0 && bytes[k + 7] === 0 &&
        isPrintableAscii(bytes[k]) && isPrintableAscii(bytes[k + 2])
      ) break;
      k++;
    }
    // a BOM may mark where the UTF-16 part restarts
    let single = bytes.subarray(i, k);
    if (single.length >= 3 && single[0] === 0xef && single[1] === 0xbb && single[2] === 0xbf) single = single.subarray(3);
    parts.push(utf8.decode(single));
    switched = true;
    if (k + 1 < n && bytes[k] === 0xff && bytes[k + 1] === 0xfe) k += 2;
    segStart = k;
    i = k;
  }
  parts.push(utf16.decode(bytes.subarray(segStart)));
  return { text: parts.join(''), switched };
}

/** Decodes a whole file to text and names its encoding and line endings; never throws. */
export function decodeText(bytes: Uint8Array, file: string): DecodedText {
  const issues: ParseIssue[] = [];
  const encoding = detectEncoding(bytes);
  let text = '';
  let mixed = false;
  try {
    switch (encoding) {
      case 'empty':
        break;
      case 'utf-16le-bom':
      case 'utf-16le': {
        const r = decodeUtf16leSegmented(bytes, encoding === 'utf-16le-bom' ? 2 : 0);
        text = r.text;
        mixed = r.switched;
        break;
      }
      case 'utf-16be-bom':
        text = new TextDecoder('utf-16be').decode(bytes.subarray(2));
        break;
      case 'utf-16be':
        text = new TextDecoder('utf-16be').decode(bytes);
        break;
      case 'utf-8-bom':
        text = new TextDecoder('utf-8').decode(bytes.subarray(3));
        break;
      case 'utf-8':
      case 'ascii':
        text = new TextDecoder('utf-8').decode(bytes);
        break;
      case 'windows-1252':
        text = new TextDecoder('windows-1252').decode(bytes);
        issues.push({ file, line: 0, severity: 'info', message: 'not valid UTF-8 and no BOM: read as Windows-1252 (ANSI); localized characters may be wrong' });
        break;
    }
  } catch (e) {
    issues.push({ file, line: 0, severity: 'error', message: `could not decode as ${encoding}: ${String(e)}` });
  }
  if (mixed) {
    issues.push({ file, line: 0, severity: 'warning', message: 'file mixes UTF-16LE and single-byte text (appended with another encoding); both parts were read' });
  }
  if ((encoding === 'utf-8' || encoding === 'ascii') && text.includes('\u0000')) {
    // UTF-16 text appended to a UTF-8 file: NUL between every character
    text = text.split('\u0000').join('');
    mixed = true;
    issues.push({ file, line: 0, severity: 'warning', message: 'file mixes UTF-8 and UTF-16 text (appended with another encoding); NUL bytes were dropped' });
  }
  const replacements = countChar(text, 0xfffd);
  if (replacements > 0) {
    const line = lineOfOffset(text, text.indexOf('\ufffd'));
    issues.push({ file, line, severity: 'warning', message: `${plural(replacements, 'byte sequence')} ${replacements === 1 ? 'is' : 'are'} not valid ${encoding} and ${replacements === 1 ? 'was' : 'were'} replaced` });
  }
  return { text, encoding, mixed: mixed || undefined, lineEnding: detectLineEnding(text), issues };
}

function countChar(text: string, code: number): number {
  let c = 0;
  for (let i = text.indexOf(String.fromCharCode(code)); i >= 0; i = text.indexOf(String.fromCharCode(code), i + 1)) c++;
  return c;
}

export function lineOfOffset(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/**
 * Gives single-byte (ASCII-compatible) bytes for the byte-level VFP scanner whatever the file's
 * encoding, without building a JS string of a file that can be hundreds of MB.
 */
export function toSingleByte(bytes: Uint8Array, encoding: TextEncodingName): Uint8Array {
  switch (encoding) {
    case 'utf-8-bom':
      return bytes.subarray(3);
    case 'utf-16le-bom':
    case 'utf-16le':
    case 'utf-16be-bom':
    case 'utf-16be': {
      const le = encoding.startsWith('utf-16le');
      const start = encoding.endsWith('-bom') ? 2 : 0;
      const out = new Uint8Array((bytes.length - start) >> 1);
      let o = 0;
      for (let i = start; i + 1 < bytes.length; i += 2) {
        const lo = le ? bytes[i] : bytes[i + 1];
        const hi = le ? bytes[i + 1] : bytes[i];
        out[o++] = hi === 0 && lo !== undefined && lo < 0x80 ? lo : 0x3f; // '?' for anything outside ASCII
      }
      return out;
    }
    default:
      return bytes;
  }
}
