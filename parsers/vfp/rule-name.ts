// A number standing for a VFP rule's name, read from the bytes of its `RULE :` line and the line after
// it. The scanner records one per rule while it has the bytes at hand (VfpIndex.ruleName), so the
// checks can tell which rules several ports share without parsing them or touching their lines again.
import type { VfpIndex } from './index-types.ts';

const SP = 32, TAB = 9, CR = 13, LF = 10, COLON = 58;
const FRIENDLY = 'friendly name';

/**
 * A number standing for rule r's name — the `Friendly name` on the line after `RULE :` when there is
 * one, else the id after `RULE :` (the same choice as VfpRule.name) — or -1 when the rule prints no
 * name. Two 32-bit multiplicative hashes make a 53-bit key: names of one node do not
 * collide in practice (≈ 10⁴ distinct names against 2⁵³).
 */
export function ruleNameKey(bytes: Uint8Array, index: VfpIndex, r: number): number {
  // Only the RULE line and the one after it are read, so the port's end bounds the walk well enough.
  const at = index.ruleByte[r];
  const port = index.rulePort[r];
  if (at === undefined) return -1;
  return nameKeyAt(bytes, at, (port === undefined ? undefined : index.ports[port])?.byteEnd ?? bytes.length);
}

/** ruleNameKey for the RULE line starting at `i`, reading no further than `end`. */
export function nameKeyAt(bytes: Uint8Array, i: number, end: number): number {
  let le = i;
  while (le < end && bytes[le] !== LF) le++;
  return nameKeyOfLines(bytes, i, le, end);
}

/**
 * nameKeyAt when the caller knows where the RULE line ends (`le`: its '\n', or `end`): the scanner
 * found it already, so the line is not walked twice. `end` bounds the line after it, which is read
 * only when it starts with `Friendly name` (the caller makes it readable whole in that case).
 */
export function nameKeyOfLines(bytes: Uint8Array, i: number, le: number, end: number): number {
  while (i < le && (bytes[i] === SP || bytes[i] === TAB)) i++;
  i += 4; // RULE (the scanner verified it)
  while (i < le && (bytes[i] === SP || bytes[i] === TAB)) i++;
  if (i >= le || bytes[i] !== COLON) return -1;
  i++;
  let idStart = i;
  while (idStart < le && (bytes[idStart] === SP || bytes[idStart] === TAB)) idStart++;
  const idEnd = trimEnd(bytes, idStart, le);
  // The Friendly name, when the next line holds it.
  let j = le + 1;
  while (j < end && (bytes[j] === SP || bytes[j] === TAB)) j++;
  if (j + FRIENDLY.length < end && (bytes[j] === 70 || bytes[j] === 102) && isFriendly(bytes, j)) {
    let k = j + FRIENDLY.length;
    while (k < end && (bytes[k] === SP || bytes[k] === TAB)) k++;
    if (bytes[k] === COLON) {
      k++;
      while (k < end && (bytes[k] === SP || bytes[k] === TAB)) k++;
      let fe = k;
      while (fe < end && bytes[fe] !== LF) fe++;
      fe = trimEnd(bytes, k, fe);
      if (fe > k) return hashKey(bytes, k, fe);
    }
  }
  return idEnd > idStart ? hashKey(bytes, idStart, idEnd) : -1;
}

function isFriendly(bytes: Uint8Array, i: number): boolean {
  for (let k = 0; k < FRIENDLY.length; k++) {
    const c = bytes[i + k];
    const w = FRIENDLY.charCodeAt(k);
    if (c !== w && !(w >= 97 && w <= 122 && c === w - 32)) return false;
  }
  return true;
}

function trimEnd(bytes: Uint8Array, i: number, end: number): number {
  while (end > i && (bytes[end - 1] === SP || bytes[end - 1] === TAB || bytes[end - 1] === CR)) end--;
  return end;
}

/**
 * Two 32-bit multiplicative hashes of bytes [i, end), four bytes a step (a rule's name is read once per
 * rule of the dump: a million on a big node), each step's high bits folded down so every byte reaches
 * every bit of the key; the length seeds the second.
 */
function hashKey(bytes: Uint8Array, i: number, end: number): number {
  if (end > bytes.length) end = bytes.length;
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ (end - i);
  let k = i;
  for (; k + 4 <= end; k += 4) {
    const x = bytes[k]! | (bytes[k + 1]! << 8) | (bytes[k + 2]! << 16) | (bytes[k + 3]! << 24);
    a = Math.imul(a ^ x, 0x01000193);
    a ^= a >>> 15;
    b = Math.imul(b ^ x, 0x5bd1e995);
    b ^= b >>> 13;
  }
  for (; k < end; k++) {
    const c = bytes[k]!;
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  a = Math.imul(a ^ (a >>> 16), 0x85ebca6b);
  return ((a ^ (a >>> 13)) >>> 0) * 0x200000 + ((b >>> 11) & 0x1fffff);
}
