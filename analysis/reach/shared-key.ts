// Rule blocks told apart by content in ONE pass over their bytes (issue #25 point 7). Reach takes a
// rule printed the same on several ports from the first port that printed it; this store is what
// "the same" is tested on, so a port's rules cost one pass over its bytes, not a pass plus a byte by
// byte comparison with a known copy (250 ports × ≈ 4,000 rules that are mostly the same text).
//
// What counts: every byte of the block except the values of the rule counters at its end (`Matched
// packets : 12`: hits differ from port to port and the walk never reads them). A block is a head,
// compared through a hash, and a tail — the run of lines at its end that are each a counter line (a
// counter key before the line's only colon, then a decimal value) or blank, which is where vfpctrl
// prints the counters (`/list-rule` and `/get-rule-counter`, e.g. the dumps under test/fixtures/vfp and
// ../shared/corpus) — compared exactly with the known rule's, every byte but the counters' values. A
// counter line anywhere else, or one whose value is not a number, is part of the head: two such
// rules are then not taken as one (a rule parsed twice, never a wrong one).
//
// What equality of heads rests on: a 64-bit hash (two 32-bit lanes) and the head's length, trusted
// WITHOUT comparing the bytes again — comparing them is the second pass over every shared rule this
// store exists to avoid. Why that is safe enough:
// - Lane `a` is linear in the head's 32-bit words (two chains over alternate words, sums of w·M^k and
//   w·M2^k mod 2³², M and M2 odd with no small power equal to 1): two heads of the same length that
//   differ within one 4-byte word — one byte of a condition, of a priority, of an address — never get
//   the same `a` (the difference is Δw·M^k, and an odd M is invertible mod 2³²). That case is certain,
//   not probable; a different length is never the same head.
// - Otherwise, for heads nobody wrote to collide, the two lanes behave as a random 64-bit value: a block
//   is wrongly taken as another only if its head's hash equals one of the D distinct heads known with
//   its length, so over N blocks the odds are at most N·D / 2⁶⁴. The big generated node (N = 993,620,
//   D = 12,805): 7·10⁻¹⁰; a million rules all distinct (D = N = 10⁶): 5·10⁻⁸. Comparing every byte
//   again instead cost ≈ 45 % of one reach source's time. 32 bits would not do: 10⁶ × 12,805 / 2³² ≈ 3,000.
// - Against a bundle written to collide: not cryptographic, but nothing about the hash is fixed in
//   advance. Both of lane a's multipliers are drawn per process (with a fixed pair, a +1 in one word
//   and a −1 in a word of the other chain with the same power collided for any bundle), and lane b
//   starts from values drawn per process and rotates each word's mix before multiplying (without the
//   rotation a flip of a word's top bit left the lane with a flip that did not depend on its state, and
//   a second word cancelled it). A crafted collision then has to guess the draws; if it did, a reach
//   class's outcome could be wrong (a walk would read another port's rule). What reach shows is
//   re-walkable: a class's example opened in `trace` is walked on the node itself, from its own text.
//   The store's buckets are keyed by both lanes, so heads made to share lane a alone do not pile up in
//   one bucket (a pile is looked through linearly: quadratic work).

import { CR, MAX_TAIL, NINE, NL, readCounterTail, SP, TAB, ZERO, type TailLines } from '../../parsers/vfp/counter-tail.ts';

/** Head lengths tried per rule name before reading the block's tail (a name printed with other contents). */
const MAX_GUESSES = 4;

const EMPTY = new Uint8Array(0);
/** An odd multiplier drawn per process, ≡ 5 (mod 8) or ≡ 3 (mod 8): its powers repeat only after 2³⁰ words. */
const drawOdd = (low: 3 | 5) => ((Math.random() * 0x100000000) & ~7) | low;
const M1 = drawOdd(5);
const M2 = drawOdd(3);
// Lane b starts from values drawn once per process: a bundle cannot be written to make two different
// heads collide without knowing them (lane a, linear, cannot collide within one word whatever it starts
// from). Equal heads still hash equal within the process, which is all the store compares.
const SEED_B = (Math.random() * 0x100000000) | 0;
const SEED_B2 = (Math.random() * 0x100000000) | 0;
const C1 = 0xcc9e2d51 | 0;

function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) | 0;
}

/** A distinct rule block: its head's hash and length, its tail's bytes but the counters' values. */
interface Entry<T> {
  value: T;
  head: number;
  a: number;
  b: number;
  /** The tail's lines in file order (a counter line up to its colon, a blank line whole), each from a word boundary. */
  tail: Uint8Array;
  /** The same bytes as 32-bit words (little-endian, as DataView reads the block's). */
  words: Int32Array;
  /** Per tail line: its length, negative for a counter line. */
  lens: Int32Array;
  /** Whether the block ends with a newline (a counter line's newline is not in `tail`). */
  nl: boolean;
  next?: Entry<T>;
}

/** The map number of a head's key: 30 bits of both lanes (a small integer, cheap as a map key); the rest is checked on the entry. */
const mapKey = (a: number, b: number) => (a ^ b) & 0x3fffffff;

/** One word into lane b: rotated before the multiplication, so how a difference passes depends on the lane's state. */
const mixB = (b: number, w: number): number => {
  const x = b ^ w;
  const m = Math.imul((x << 15) | (x >>> 17), C1);
  return m ^ (m >>> 13);
};

/**
 * Distinct rule blocks, each with a value (reach's parsed rule). `find` looks a block up; when it
 * finds none, `add` registers that same block with its value.
 */
export class RuleStore<T> {
  private readonly byKey = new Map<number, Entry<T>>();
  /** Head lengths seen per rule name (index.ruleName), newest first: the block's head is guessed from them. */
  private readonly heads = new Map<number, number[]>();
  // The block last looked up (for add).
  private lastHead = 0;
  private lastA = 0;
  private lastB = 0;
  private lastName = -1;
  private lastU8: Uint8Array = EMPTY;
  private lastEnd = 0;
  private lastTail = 0;
  /** The last block's tail lines (backwards), as readCounterTail found them. */
  private readonly lines: TailLines = { starts: new Int32Array(MAX_TAIL), colons: new Int32Array(MAX_TAIL), ends: new Int32Array(MAX_TAIL), count: 0 };
  /** Blocks found by a guessed head, and by reading their tail first. */
  guessed = 0;
  read = 0;

  /** How many buckets the distinct blocks fill (tests: crafted heads must not pile into one). */
  get buckets(): number {
    return this.byKey.size;
  }

  /**
   * The value of the distinct block equal to [start, end) of `u8` (dv views the same bytes, dv's
   * byte 0 being u8[0], so words are read at any offset), or undefined. `name` is the block's rule
   * name number (index.ruleName): only a guide to where its tail starts, never part of equality.
   */
  find(u8: Uint8Array, dv: DataView, start: number, end: number, name: number): T | undefined {
    const guesses = this.heads.get(name);
    let tried = -1;
    if (guesses)
      for (const h of guesses) {
        // A head ends a line: the tail starts right after a newline.
        if (h >= end - start || u8[start + h - 1] !== NL) continue;
        tried = h;
        this.hashHead(u8, dv, start, start + h);
        for (let e = this.byKey.get(mapKey(this.lastA, this.lastB)); e; e = e.next) {
          if (e.head === h && e.a === this.lastA && e.b === this.lastB && sameTail(e, u8, dv, start + h, end)) {
            this.guessed++;
            return e.value;
          }
        }
      }
    // The block's own tail, read backwards from its end.
    this.read++;
    const t = this.tailStart(u8, start, end);
    if (t - start !== tried) this.hashHead(u8, dv, start, t);
    this.lastName = name;
    this.lastU8 = u8;
    this.lastEnd = end;
    for (let e = this.byKey.get(mapKey(this.lastA, this.lastB)); e; e = e.next) {
      if (e.head === this.lastHead && e.a === this.lastA && e.b === this.lastB && sameTail(e, u8, dv, t, end)) {
        this.lastU8 = EMPTY;
        return e.value;
      }
    }
    return undefined;
  }

  /** Registers the block `find` last looked up (and did not find) with its value. */
  add(value: T): void {
    const n = this.lastTail;
    const lens = new Int32Array(n);
    let size = 0;
    for (let i = 0; i < n; i++) {
      const k = n - 1 - i;
      const colon = this.lines.colons[k]!;
      const len = (colon >= 0 ? colon + 1 : this.lines.ends[k]!) - this.lines.starts[k]!;
      lens[i] = colon >= 0 ? -len : len;
      size += (len + 3) & ~3;
    }
    const words = new Int32Array(size >> 2);
    const tail = new Uint8Array(words.buffer);
    let at = 0;
    for (let i = 0; i < n; i++) {
      const k = n - 1 - i;
      const len = Math.abs(lens[i]!);
      tail.set(this.lastU8.subarray(this.lines.starts[k]!, this.lines.starts[k]! + len), at);
      at += (len + 3) & ~3;
    }
    // Words little-endian whatever the machine's order, as DataView.getInt32(…, true) reads the block.
    const dv = new DataView(words.buffer);
    for (let w = 0; w < words.length; w++) words[w] = dv.getInt32(4 * w, true);
    const key = mapKey(this.lastA, this.lastB);
    const nl = this.lastU8[this.lastEnd - 1] === NL;
    // No port's bytes are kept once the block is registered.
    this.lastU8 = EMPTY;
    this.byKey.set(key, { value, head: this.lastHead, a: this.lastA, b: this.lastB, tail: tail.slice(), words, lens, nl, next: this.byKey.get(key) });
    const hs = this.heads.get(this.lastName);
    if (!hs) this.heads.set(this.lastName, [this.lastHead]);
    else if (!hs.includes(this.lastHead)) {
      hs.unshift(this.lastHead);
      if (hs.length > MAX_GUESSES) hs.pop();
    }
  }

  /**
   * The head [start, t)'s two lanes, 32-bit words read at any offset, the last 0–3 bytes as one word.
   * Each lane runs as two chains over alternate words (independent multiplications overlap in the
   * processor: ≈ 35 % faster than one chain); lane a stays linear in every word.
   */
  private hashHead(u8: Uint8Array, dv: DataView, start: number, t: number): void {
    let a = 0x2545f491;
    let a2 = 0x3c6ef372;
    let b = SEED_B;
    let b2 = SEED_B2;
    let i = start;
    for (; i + 8 <= t; i += 8) {
      const w = dv.getInt32(i, true);
      const x = dv.getInt32(i + 4, true);
      a = (Math.imul(a, M1) + w) | 0;
      a2 = (Math.imul(a2, M2) + x) | 0;
      b = mixB(b, w);
      b2 = mixB(b2, x);
    }
    if (i + 4 <= t) {
      const w = dv.getInt32(i, true);
      a = (Math.imul(a, M1) + w) | 0;
      b = mixB(b, w);
      i += 4;
    }
    let w = 0;
    for (let s = 0; i < t; i++, s += 8) w |= u8[i]! << s;
    a = (Math.imul(a, M1) + w) | 0;
    b = mixB(b, w);
    const h = t - start;
    this.lastHead = h;
    this.lastA = fmix((Math.imul(a, M1) + a2) ^ h);
    this.lastB = fmix(b ^ Math.imul(b2 ^ (b2 >>> 13), 0x27d4eb2f) ^ Math.imul(h, C1));
  }

  /** Where the block's tail of counter and blank lines starts (the block's end when it has none), its lines kept for add. */
  private tailStart(u8: Uint8Array, start: number, end: number): number {
    const t = readCounterTail(u8, start, end, this.lines);
    this.lastTail = this.lines.count;
    return t;
  }
}

/**
 * Whether [p, end) is the entry's tail: the same lines, a counter line equal up to its colon and then
 * a decimal value between blanks (what tailStart takes for a counter line), a blank line equal.
 */
function sameTail<T>(e: Entry<T>, u8: Uint8Array, dv: DataView, p: number, end: number): boolean {
  const { tail, words, lens } = e;
  if ((u8[end - 1] === NL) !== e.nl) return false;
  let q = 0;
  const n = lens.length;
  for (let i = 0; i < n; i++) {
    const l = lens[i]!;
    const len = l < 0 ? -l : l;
    if (p + len > end) return false;
    let k = 0;
    for (; k + 4 <= len; k += 4) if (dv.getInt32(p + k, true) !== words[(q + k) >> 2]) return false;
    for (; k < len; k++) if (u8[p + k] !== tail[q + k]) return false;
    p += len;
    q += (len + 3) & ~3;
    if (l > 0) continue;
    // A counter's value: blanks, digits, blanks (CR too), then the line's end.
    while (p < end && (u8[p] === SP || u8[p] === TAB)) p++;
    const d = p;
    while (p < end && u8[p]! >= ZERO && u8[p]! <= NINE) p++;
    if (p === d) return false;
    while (p < end && (u8[p] === SP || u8[p] === TAB || u8[p] === CR)) p++;
    if (p < end) {
      if (u8[p] !== NL) return false;
      p++;
    }
  }
  return p === end;
}

/**
 * Whether two rule blocks are taken as the same rule (tests), `b` starting at byte `at` of its buffer;
 * `guided`: b looked up under a's rule name (its tail found where a's was), else under another (its
 * tail read from its end).
 */
export function sameRule(a: Uint8Array, b: Uint8Array, at = 0, guided = true): boolean {
  const store = new RuleStore<string>();
  const place = (x: Uint8Array, off: number) => {
    const u8 = new Uint8Array(off + x.length);
    u8.set(x, off);
    return { u8, dv: new DataView(u8.buffer) };
  };
  const pa = place(a, 0);
  if (store.find(pa.u8, pa.dv, 0, a.length, 0) === undefined) store.add('a');
  const pb = place(b, at);
  return store.find(pb.u8, pb.dv, at, at + b.length, guided ? 0 : 1) === 'a';
}
