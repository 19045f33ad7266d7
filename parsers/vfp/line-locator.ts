// Line numbers for a byte index that only records offsets. Counting 27 M newlines costs more than the
// whole keyword scan, so it happens once, on the first request, as one word-at-a-time (SWAR) pass that
// stores the newline count at every 64 KiB checkpoint; a line is then the checkpoint count plus the
// newlines between the checkpoint and the offset (≤ 64 KiB of counting).

import { asByteSource, ByteWindow, type ByteSource } from './byte-source.ts';
import { simdNewlineCounter } from './newline-simd.ts';

const LF = 10;
export const BLOCK_SHIFT = 16;
export const BLOCK = 1 << BLOCK_SHIFT;

/**
 * The 64 KiB block holding byte `offset`. Division, not `>> BLOCK_SHIFT`: shifts truncate to 32 bits,
 * so past 2 GiB a shifted offset is negative and the table is read (and the scan counted) out of place
 * (the 4 GiB dump of issue 27 looped for tens of minutes).
 */
export function blockOf(offset: number): number {
  return Math.floor(offset / BLOCK);
}

/** Entries of a checkpoint table over `size` bytes: one per block, plus the total. */
export function tableLength(size: number): number {
  return blockOf(size) + 2;
}

/** Below this many bytes the JavaScript count is used: the SIMD count copies its bytes first. */
const SIMD_MIN = 1024;

/**
 * Newlines in bytes[from, to): 16 bytes at a step with WebAssembly SIMD where the engine has it
 * (newline-simd.ts), else four bytes at a time where the buffer allows it.
 */
export function countNewlines(bytes: Uint8Array, from: number, to: number, words?: WordView): number {
  if (to - from >= SIMD_MIN) {
    const simd = simdNewlineCounter();
    if (simd) return simd(bytes, from, to);
  }
  return countNewlinesJs(bytes, from, to, words);
}

/** Newlines in bytes[from, to), counted four bytes at a time where the buffer allows it. */
export function countNewlinesJs(bytes: Uint8Array, from: number, to: number, words?: WordView): number {
  let c = 0;
  const w = words ?? wordView(bytes);
  if (w && to - from >= 64) {
    const off = bytes.byteOffset;
    while (from < to && (off + from) % 4 !== 0) if (bytes[from++] === LF) c++;
    // Division, not shifts: a buffer held whole may pass 2 GiB.
    const k0 = Math.floor((off + from - w.start) / 4);
    const k1 = Math.floor((off + to - w.start) / 4);
    c += countWords(w.words, k0, k1);
    from = w.start + k1 * 4 - off;
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
    const start = Math.ceil(bytes.byteOffset / 4) * 4;
    const count = Math.max(0, Math.floor((bytes.byteOffset + bytes.length - start) / 4));
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
      // k < e ≤ k1 ≤ w.length: the read is in range (the check costs nothing measurable here).
      const x = (w[k] ?? 0) ^ 0x0a0a0a0a;
      acc += (~(((x & 0x7f7f7f7f) + 0x7f7f7f7f) | x) >>> 7) & 0x01010101;
    }
    const t = (acc & 0x00ff00ff) + ((acc >>> 8) & 0x00ff00ff);
    total += (t & 0xffff) + (t >>> 16);
    k0 = e;
  }
  return total;
}

/** 1-based line of any byte offset; built on first use. Reads its source through a window of 1 MiB. */
export class LineLocator {
  readonly #src: ByteSource;
  readonly #win: ByteWindow;
  #words: WordView | undefined;
  #wordsOf: Uint8Array | undefined;
  #table: Float64Array | undefined;
  /** The last line lineStart answered and its byte. */
  #cursor = { line: 1, byte: 0 };

  /** `table`: the checkpoint table of the same bytes, built elsewhere (the parse worker). */
  constructor(bytes: Uint8Array | ByteSource, table?: Float64Array) {
    this.#src = asByteSource(bytes);
    this.#win = new ByteWindow(this.#src, 1 << 20, 0);
    if (table && table.length === tableLength(this.#src.size)) this.#table = table;
  }

  /**
   * Takes a checkpoint table counted elsewhere (the scan counts it as it reads, or the loader's main
   * thread), unless one is built; says whether this locator's table is now that one.
   */
  adopt(table: Float64Array): boolean {
    if (!this.#table && table.length === tableLength(this.#src.size)) this.#table = table;
    return this.#table === table;
  }

  /** The checkpoint table (built now if it was not), to hand to a locator of the same bytes. */
  get table(): Float64Array {
    this.build();
    return this.#table!;
  }

  /** Newlines in [from, to) (absolute), read window by window. */
  #count(from: number, to: number): number {
    const w = this.#win;
    let c = 0;
    to = Math.min(to, this.#src.size);
    while (from < to) {
      w.ensure(from, Math.min(to, from + (1 << 20)));
      const stop = Math.min(to, w.end);
      if (w.buf !== this.#wordsOf) {
        this.#wordsOf = w.buf;
        this.#words = wordView(w.buf);
      }
      c += countNewlines(w.buf, from - w.base, stop - w.base, this.#words);
      if (stop <= from) break;
      from = stop;
    }
    return c;
  }

  /** Fills the checkpoint table (one pass over the bytes); later calls are free. */
  build(): void {
    if (this.#table) return;
    const size = this.#src.size;
    const blocks = blockOf(size) + 1;
    const t = new Float64Array(blocks + 1);
    let c = 0;
    for (let k = 0; k < blocks; k++) {
      t[k] = c;
      const s = k * BLOCK;
      c += this.#count(s, Math.min(size, s + BLOCK));
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
    const o = Math.max(0, Math.min(this.#src.size, Math.floor(Number.isFinite(offset) ? offset : 0)));
    const k = blockOf(o);
    return 1 + this.#table![k]! + this.#count(k * BLOCK, o);
  }

  /**
   * Byte offset where 1-based `line` starts, or undefined past the last line start (a final newline
   * opens no line here). The checkpoint holding the (line − 1)-th newline is found by bisecting the
   * table, then at most one 64 KiB block is searched: a bisection over bytes with lineAt would count up
   * to 64 KiB at each of ~20 probes.
   */
  lineStart(line: number): number | undefined {
    if (!Number.isInteger(line) || line < 1) return undefined;
    const size = this.#src.size;
    if (line === 1) return size > 0 ? 0 : undefined;
    this.build();
    const t = this.#table!;
    const want = line - 1;
    if (want > t[t.length - 1]!) return undefined;
    // Largest block k whose start has fewer than `want` newlines before it: the newline is in block k.
    let lo = 0;
    let hi = t.length - 2;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (t[mid]! < want) lo = mid;
      else hi = mid - 1;
    }
    // From the last answer when it lies between the checkpoint and the line: evidence asks for
    // ascending lines (a rule, then the lines after it), mostly a few hundred lines apart.
    const c = this.#cursor;
    const fromCursor = c.line <= line && c.line - 1 >= t[lo]!;
    let seen = fromCursor ? c.line - 1 : t[lo]!;
    let i = (fromCursor ? c.byte : lo * BLOCK) - 1;
    const w = this.#win;
    while (seen < want) {
      const e = w.lineEnd(i + 1);
      if (e >= size) return undefined;
      i = e;
      seen++;
    }
    if (i + 1 >= size) return undefined;
    this.#cursor = { line, byte: i + 1 };
    return i + 1;
  }

  /** Lines of many ascending offsets in one sweep (no per-offset checkpoint lookups). */
  linesOfSorted(offsets: ArrayLike<number>): Uint32Array {
    const out = new Uint32Array(offsets.length);
    const size = this.#src.size;
    let pos = 0, line = 1;
    for (let i = 0; i < offsets.length; i++) {
      const o = Math.max(0, Math.min(size, offsets[i]!));
      if (o < pos) {
        // Not ascending after all: fall back to the checkpoint table.
        out[i] = this.lineAt(o);
        continue;
      }
      line += this.#count(pos, o);
      pos = o;
      out[i] = line;
    }
    return out;
  }

  /** Lines as the scanner counts them: a final newline does not open an empty last line. */
  totalLines(bodyStart: number): number {
    const size = this.#src.size;
    if (size <= bodyStart) return 0;
    this.build();
    const all = this.#table![this.#table!.length - 1]!;
    return 1 + all - (this.#win.byteAt(size - 1) === LF ? 1 : 0);
  }
}
