// The counter lines that end a VFP rule block: vfpctrl prints each rule's hit counts inside its block
// (`Matched packets : 12`; `/list-rule` and `/get-rule-counter`, e.g. the dumps under test/fixtures/vfp
// and ../shared/corpus), so two copies of one rule on two ports differ there and nowhere else. What
// is read as that tail: the run of lines at the block's end that are each a counter line (a counter
// key before the line's only colon, then a decimal value) or blank — never the block's first line (its
// RULE line). A counter line anywhere else, or one whose value is not a number, is not tail.
// One reader for reach's rule store (analysis/reach/shared-key.ts) and the checks' stale-DIP
// comparison (analysis/checks/rule-content.ts).
export const NL = 10;
export const CR = 13;
export const SP = 32;
export const TAB = 9;
export const COLON = 58;
export const ZERO = 48;
export const NINE = 57;

/** Counter keys as the parser reads them (lower case, without spaces, tabs or CR), written backwards. */
const COUNTER_KEYS_BACKWARDS = ['matchedpackets', 'droppedpackets', 'pendingpackets', 'droppedunifiedflows', 'droppedflows'].map((k) => Uint8Array.from([...k].reverse(), (c) => c.charCodeAt(0)));
const KEY_MAX = 24;

/** Tail lines looked at, at most (a block ends with 4–5 counters and a blank line). */
export const MAX_TAIL = 16;

/** Where each tail line lies, newest-read first (the block's last line at 0): filled by readCounterTail. */
export interface TailLines {
  starts: Int32Array;
  /** The counter's colon, or -1 for a blank line. */
  colons: Int32Array;
  ends: Int32Array;
  /** How many lines the tail has. */
  count: number;
}

const keyBuf = new Uint8Array(KEY_MAX);

/**
 * Reads block [start, end)'s counter tail backwards from its end, each line once, its counter key
 * matched as it goes, without allocating. Returns where the tail starts (`end` when there is none);
 * `lines`, when given, gets how many lines it has and where each lies.
 */
export function readCounterTail(u8: Uint8Array, start: number, end: number, lines?: TailLines): number {
  let t = end;
  let n = 0;
  const key = keyBuf;
  while (n < MAX_TAIL && t > start) {
    let e = u8[t - 1] === NL ? t - 1 : t;
    // Trailing blanks.
    while (e > start && (u8[e - 1] === SP || u8[e - 1] === TAB || u8[e - 1] === CR)) e--;
    let s: number;
    let colon = -1;
    if (e === start || u8[e - 1] === NL) {
      // A blank line; never the block's first line (its RULE line).
      if (e === start) break;
      s = e;
    } else {
      // A decimal value, blanks, a colon.
      let d = e;
      while (d > start && u8[d - 1]! >= ZERO && u8[d - 1]! <= NINE) d--;
      if (d === e) break;
      while (d > start && (u8[d - 1] === SP || u8[d - 1] === TAB)) d--;
      if (d === start || u8[d - 1] !== COLON) break;
      colon = d - 1;
      // The key, backwards to the line's start: lower case, without spaces, tabs or CR, no other colon.
      let k = 0;
      let j = colon;
      for (; j > start; j--) {
        const c = u8[j - 1]!;
        if (c === NL) break;
        if (c === SP || c === TAB || c === CR) continue;
        if (k === KEY_MAX || c === COLON) break;
        key[k++] = c | 32;
      }
      if (j === start || u8[j - 1] !== NL || !isCounterKey(key, k)) break;
      s = j;
    }
    if (lines) {
      lines.starts[n] = s;
      lines.colons[n] = colon;
      lines.ends[n] = t;
    }
    n++;
    t = s;
  }
  if (lines) lines.count = n;
  return t;
}

function isCounterKey(key: Uint8Array, n: number): boolean {
  for (let c = 0; c < COUNTER_KEYS_BACKWARDS.length; c++) {
    const k = COUNTER_KEYS_BACKWARDS[c]!;
    if (k.length !== n) continue;
    let i = 0;
    while (i < n && k[i] === key[i]) i++;
    if (i === n) return true;
  }
  return false;
}
