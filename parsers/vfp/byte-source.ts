// Where a VFP dump's bytes are read from. The index (scan.ts) keeps offsets only; a port's, a rule's or
// a line's bytes are read again when needed, from memory (a paste, a test) or from the file on disk
// (services/bundle/file-bytes.ts, a pread of the range), so a load never holds a 900 MB dump.
// Pure: no Node import here; the file-backed source lives in services/.

export interface ByteSource {
  /** Length in bytes. */
  readonly size: number;
  /**
   * Bytes [offset, offset + length), clamped to the source. The result may be a view into `into` (when
   * given and long enough) or into memory the source holds: valid until the next read into `into`,
   * never to be written to.
   */
  read(offset: number, length: number, into?: Uint8Array): Uint8Array;
  /** All bytes, when the source holds them in memory; undefined for a file read on demand. */
  readonly whole?: Uint8Array;
}

/** Bytes held in memory (a paste, standard input, a test, a small zip entry). */
export class MemoryBytes implements ByteSource {
  readonly whole: Uint8Array;
  constructor(bytes: Uint8Array) {
    this.whole = bytes;
  }
  get size(): number {
    return this.whole.length;
  }
  read(offset: number, length: number): Uint8Array {
    const s = clampStart(offset, this.whole.length);
    return this.whole.subarray(s, clampEnd(s, length, this.whole.length));
  }
}

export function clampStart(offset: number, size: number): number {
  return Math.max(0, Math.min(size, Math.floor(Number.isFinite(offset) ? offset : 0)));
}

export function clampEnd(start: number, length: number, size: number): number {
  return Math.max(start, Math.min(size, start + Math.max(0, Math.floor(Number.isFinite(length) ? length : 0))));
}

export function isByteSource(x: unknown): x is ByteSource {
  return typeof x === 'object' && x !== null && !(x instanceof Uint8Array) && typeof (x as ByteSource).read === 'function' && typeof (x as ByteSource).size === 'number';
}

/** A source for bytes or a source (the parsers take either: tests and pastes hand in arrays). */
export function asByteSource(x: Uint8Array | ByteSource): ByteSource {
  return x instanceof Uint8Array ? new MemoryBytes(x) : x;
}

/**
 * A moving window over a source, in one reused buffer: `ensure(from, to)` makes [from, to) readable as
 * `buf[k - base]`, reading a whole window (at least `windowBytes`) when it is not. A source held in
 * memory is its own window (no copy).
 */
export class ByteWindow {
  buf: Uint8Array;
  base = 0;
  /** Exclusive end of the readable range (absolute). */
  end = 0;
  readonly size: number;
  readonly #src: ByteSource;
  readonly #window: number;
  readonly #back: number;
  #own: Uint8Array | undefined;

  constructor(src: ByteSource, windowBytes = 1 << 20, backBytes = 256) {
    this.#src = src;
    this.size = src.size;
    this.#window = Math.max(1, Math.floor(windowBytes));
    this.#back = Math.max(0, Math.floor(backBytes));
    if (src.whole) {
      this.buf = src.whole;
      this.end = src.whole.length;
    } else this.buf = new Uint8Array(0);
  }

  /** Makes bytes [from, to) (clamped to the source) readable in buf; returns base. */
  ensure(from: number, to: number): number {
    if (from < 0) from = 0;
    if (to > this.size) to = this.size;
    if (from >= this.base && to <= this.end) return this.base;
    const start = Math.max(0, Math.min(from, to) - this.#back);
    const stop = Math.min(this.size, Math.max(to, start + this.#window));
    const len = stop - start;
    if (!this.#own || this.#own.length < len) this.#own = new Uint8Array(Math.max(len, Math.min(this.#window + this.#back, this.size)));
    const got = this.#src.read(start, len, this.#own);
    this.buf = got;
    this.base = start;
    this.end = start + got.length;
    return start;
  }

  /** The byte at absolute k (reading it in when outside the window), or -1 past the end. */
  byteAt(k: number): number {
    if (k < 0 || k >= this.size) return -1;
    if (k < this.base || k >= this.end) this.ensure(k, k + 1);
    return this.buf[k - this.base]!;
  }

  /** Absolute position of the first LF at or after k, or size when there is none. */
  lineEnd(k: number): number {
    for (;;) {
      if (k >= this.size) return this.size;
      if (k < this.base || k >= this.end) this.ensure(k, k + 1);
      const e = this.buf.indexOf(10, k - this.base);
      if (e >= 0 && e < this.end - this.base) return this.base + e;
      if (this.end >= this.size) return this.size;
      k = this.end;
    }
  }
}

/**
 * One line's text from `start` — its first `maxChars` bytes, one char per byte, a CR before the LF
 * dropped — and where the next line starts (past the size when it is the last line).
 */
export function lineFrom(src: ByteSource, start: number, maxChars: number): { text: string; next: number } {
  const size = src.size;
  let pos = start;
  let s = '';
  let len = 0;
  let last = -1;
  for (;;) {
    const chunk = pos < size ? src.read(pos, 4096) : new Uint8Array(0);
    const e = chunk.indexOf(10);
    const upto = e < 0 ? chunk.length : e;
    for (let i = 0; i < upto && s.length < maxChars; i++) s += String.fromCharCode(chunk[i]!);
    if (upto > 0) last = chunk[upto - 1]!;
    len += upto;
    if (e >= 0 || chunk.length === 0) {
      const eff = last === 13 ? len - 1 : len;
      return { text: eff < s.length ? s.slice(0, eff) : s, next: e >= 0 ? pos + e + 1 : size + 1 };
    }
    pos += chunk.length;
  }
}

/** The bytes of `src` from `offset` on, as a source of their own (a UTF-8 BOM left out, as toSingleByte does). */
export class OffsetBytes implements ByteSource {
  readonly size: number;
  constructor(
    readonly src: ByteSource,
    readonly offset: number,
  ) {
    this.size = Math.max(0, src.size - offset);
  }
  read(offset: number, length: number, into?: Uint8Array): Uint8Array {
    const s = clampStart(offset, this.size);
    return this.src.read(s + this.offset, clampEnd(s, length, this.size) - s, into);
  }
}
