// Line numbers for a byte index that only records offsets. Counting 27 M newlines costs more than the
// whole keyword scan, so it happens once, on the first request, as one word-at-a-time (SWAR) pass that
// stores the newline count at every 64 KiB checkpoint; a line is then the checkpoint count plus the
// newlines between the checkpoint and the offset (≤ 64 KiB of counting).

const LF = 10;
const BLOCK_SHIFT = 16;
const BLOCK = 1 << BLOCK_SHIFT;

/** Newlines in bytes[from, to), counted four bytes at a time where the buffer allows it. */
export function countNewlines(bytes: Uint8Array, from: number, to: number, words?: WordView): number {
  let c = 0;
  const w = words ?? wordView(bytes);
  if (w && to - from >= 64) {
    const off = bytes.byteOffset;
    while (from < to && ((off + from) & 3) !== 0) if (bytes[from++] === LF) c++;
    const k0 = (off + from - w.start) >> 2;
    const k1 = (off + to - w.start) >> 2;
    c += countWords(w.words, k0, k1);
    from = w.start + (k1 << 2) - off;
  }
  for (; from < to; from++) if (bytes[from] === LF) c++;
  return c;
}

export interface WordView {
  words: Int32Array;
  /** Byte offset of words[0] inside bytes.buffer. */
  start: number;
}

export function wordView(bytes: Uint8Array): WordView | undefined {
  try {
    const start = (bytes.byteOffset + 3) & ~3;
    const count = Math.max(0, (bytes.byteOffset + bytes.length - start) >> 2);
    return { words: new Int32Array(bytes.buffer, start, count), start };
  } catch {
    return undefined;
  }
}

/**
 * Per word, a lane holds 0x80 exactly where the byte is '\n' (no false positives: the high bit is
 * masked off before the add, so no carry crosses lanes). Lanes accumulate up to 255 words, then fold.
 */
function countWords(w: Int32Array, k0: number, k1: number): number {
  let total = 0;
  while (k0 < k1) {
    const e = Math.min(k1, k0 + 255);
    let acc = 0;
    for (let k = k0; k < e; k++) {
      const x = w[k] ^ 0x0a0a0a0a;
      acc += (~(((x & 0x7f7f7f7f) + 0x7f7f7f7f) | x) >>> 7) & 0x01010101;
    }
    const t = (acc & 0x00ff00ff) + ((acc >>> 8) & 0x00ff00ff);
    total += (t & 0xffff) + (t >>> 16);
    k0 = e;
  }
  return total;
}

/** 1-based line of any byte offset; built on first use. */
export class LineLocator {
  readonly #bytes: Uint8Array;
  #words: WordView | undefined;
  #table: Float64Array | undefined;
  /** The last line lineStart answered and its byte. */
  #cursor = { line: 1, byte: 0 };

  /** `table`: the checkpoint table of the same bytes, built elsewhere (the parse worker). */
  constructor(bytes: Uint8Array, table?: Float64Array) {
    this.#bytes = bytes;
    if (table && table.length === (bytes.length >> BLOCK_SHIFT) + 2) this.#table = table;
  }

  /** The checkpoint table (built now if it was not), to hand to a locator of the same bytes. */
  get table(): Float64Array {
    this.build();
    return this.#table!;
  }

  /** Fills the checkpoint table (one pass over the bytes); later calls are free. */
  build(): void {
    if (this.#table) return;
    const b = this.#bytes;
    this.#words = wordView(b);
    const blocks = (b.length >> BLOCK_SHIFT) + 1;
    const t = new Float64Array(blocks + 1);
    let c = 0;
    for (let k = 0; k < blocks; k++) {
      t[k] = c;
      const s = k << BLOCK_SHIFT;
      c += countNewlines(b, s, Math.min(b.length, s + BLOCK), this.#words);
    }
    t[blocks] = c;
    this.#table = t;
  }

  get built(): boolean {
    return this.#table !== undefined;
  }

  /** Line containing byte `offset` (clamped to the file); line 1 starts at byte 0. */
  lineAt(offset: number): number {
    this.build();
    this.#words ??= wordView(this.#bytes);
    const b = this.#bytes;
    const o = Math.max(0, Math.min(b.length, Math.floor(Number.isFinite(offset) ? offset : 0)));
    const k = o >> BLOCK_SHIFT;
    return 1 + this.#table![k] + countNewlines(b, k << BLOCK_SHIFT, o, this.#words);
  }

  /**
   * Byte offset where 1-based `line` starts, or undefined past the last line start (a final newline
   * opens no line here). The checkpoint holding the (line − 1)-th newline is found by bisecting the
   * table, then at most one 64 KiB block is searched: a bisection over bytes with lineAt would count up
   * to 64 KiB at each of ~20 probes.
   */
  lineStart(line: number): number | undefined {
    if (!Number.isInteger(line) || line < 1) return undefined;
    const b = this.#bytes;
    if (line === 1) return b.length > 0 ? 0 : undefined;
    this.build();
    const t = this.#table!;
    const want = line - 1;
    if (want > t[t.length - 1]) return undefined;
    // Largest block k whose start has fewer than `want` newlines before it: the newline is in block k.
    let lo = 0;
    let hi = t.length - 2;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (t[mid] < want) lo = mid;
      else hi = mid - 1;
    }
    // From the last answer when it lies between the checkpoint and the line: evidence asks for
    // ascending lines (a rule, then the lines after it), mostly a few hundred lines apart.
    const c = this.#cursor;
    const fromCursor = c.line <= line && c.line - 1 >= t[lo];
    let seen = fromCursor ? c.line - 1 : t[lo];
    let i = (fromCursor ? c.byte : lo << BLOCK_SHIFT) - 1;
    while (seen < want) {
      i = b.indexOf(LF, i + 1);
      if (i < 0) return undefined;
      seen++;
    }
    if (i + 1 >= b.length) return undefined;
    this.#cursor = { line, byte: i + 1 };
    return i + 1;
  }

  /** Lines of many ascending offsets in one sweep (no per-offset checkpoint lookups). */
  linesOfSorted(offsets: ArrayLike<number>): Uint32Array {
    const out = new Uint32Array(offsets.length);
    const b = this.#bytes;
    if (!this.#words) this.#words = wordView(b);
    let pos = 0, line = 1;
    for (let i = 0; i < offsets.length; i++) {
      const o = Math.max(0, Math.min(b.length, offsets[i]));
      if (o < pos) {
        // Not ascending after all: fall back to the checkpoint table.
        out[i] = this.lineAt(o);
        continue;
      }
      line += countNewlines(b, pos, o, this.#words);
      pos = o;
      out[i] = line;
    }
    return out;
  }

  /** Lines as the scanner counts them: a final newline does not open an empty last line. */
  totalLines(bodyStart: number): number {
    const b = this.#bytes;
    if (b.length <= bodyStart) return 0;
    this.build();
    const all = this.#table![this.#table!.length - 1];
    return 1 + all - (b[b.length - 1] === LF ? 1 : 0);
  }
}
