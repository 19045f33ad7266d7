// Newlines counted 16 bytes at a step with WebAssembly SIMD: the VFP dump's line table is one count
// per 64 KiB block over the whole dump (900 MB on the bench's big node), and the JavaScript word-at-a-
// time count (line-locator.ts, countWords) took as long as parsing every other file of the bundle on
// the loader's main thread. The module is 160 bytes, written out below by hand (no build step, no
// file to load): where WebAssembly or its SIMD is missing (an old engine, a page that forbids it),
// `simdNewlineCounter` answers undefined and the JavaScript count is used. The counts are the same
// (test/unit/vfp/newline-simd.test.ts).
//
// The function `count(p, n)` (n a multiple of 16) adds, per block of at most 255 steps, the
// comparison of each 16 bytes with '\n' (0xff where equal, so subtracting it adds one per lane; a lane
// reaches 255 at most) and then widens the lanes into four 32-bit sums.

/** What the parsers use of the WebAssembly API (the pure layers compile without its declarations). */
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
}

const ZERO16 = new Array<number>(16).fill(0);

// prettier-ignore
const BODY = [
  0x02, 0x02, 0x7f, 0x03, 0x7b, // locals: end, blockEnd (i32); acc, tot, nl (v128)
  0x41, 0x0a, 0xfd, 0x0f, 0x21, 0x06, // nl = i8x16.splat(10)
  0x20, 0x00, 0x20, 0x01, 0x6a, 0x21, 0x02, // end = p + n
  0xfd, 0x0c, ...ZERO16, 0x21, 0x05, // tot = 0
  0x02, 0x40, 0x03, 0x40, // block, loop
  0x20, 0x00, 0x20, 0x02, 0x4f, 0x0d, 0x01, // if p >= end: out
  0x20, 0x00, 0x41, 0xf0, 0x1f, 0x6a, 0x22, 0x03, 0x20, 0x02, 0x20, 0x03, 0x20, 0x02, 0x49, 0x1b, 0x21, 0x03, // blockEnd = min(p + 255 * 16, end)
  0xfd, 0x0c, ...ZERO16, 0x21, 0x04, // acc = 0
  0x02, 0x40, 0x03, 0x40, // block, loop
  0x20, 0x00, 0x20, 0x03, 0x4f, 0x0d, 0x01, // if p >= blockEnd: out
  0x20, 0x04, 0x20, 0x00, 0xfd, 0x00, 0x00, 0x00, 0x20, 0x06, 0xfd, 0x23, 0xfd, 0x71, 0x21, 0x04, // acc -= (load(p) == nl)
  0x20, 0x00, 0x41, 0x10, 0x6a, 0x21, 0x00, 0x0c, 0x00, // p += 16; again
  0x0b, 0x0b, // end loop, end block
  0x20, 0x05, 0x20, 0x04, 0xfd, 0x7d, 0xfd, 0x7f, 0xfd, 0xae, 0x01, 0x21, 0x05, // tot += widen(acc)
  0x0c, 0x00, 0x0b, 0x0b, // again; end loop, end block
  0x20, 0x05, 0xfd, 0x1b, 0x00, 0x20, 0x05, 0xfd, 0x1b, 0x01, 0x6a, 0x20, 0x05, 0xfd, 0x1b, 0x02, 0x6a, 0x20, 0x05, 0xfd, 0x1b, 0x03, 0x6a, // sum of the lanes
  0x0b,
];

/** Bytes the module's memory holds for one call: a 64 KiB block (the line table's step) and more. */
export const SIMD_CHUNK = 1 << 20;
const PAGES = SIMD_CHUNK / 65536;

function section(id: number, content: number[]): number[] {
  return [id, ...leb(content.length), ...content];
}

function leb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
}

function moduleBytes(): Uint8Array {
  const name = (s: string) => [s.length, ...[...s].map((c) => c.charCodeAt(0))];
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [0x01, 0x60, 0x02, 0x7f, 0x7f, 0x01, 0x7f]), // (i32, i32) -> i32
    ...section(3, [0x01, 0x00]),
    ...section(5, [0x01, 0x00, ...leb(PAGES)]),
    ...section(7, [0x02, ...name('mem'), 0x02, 0x00, ...name('count'), 0x00, 0x00]),
    ...section(10, [0x01, ...leb(BODY.length), ...BODY]),
  ]);
}

/** Counts '\n' in bytes[from, to); one per thread (the module's memory is its scratch space). */
export type NewlineCounter = (bytes: Uint8Array, from: number, to: number) => number;

let made: NewlineCounter | null | undefined;

/** The SIMD counter, or undefined where this engine cannot run it. */
export function simdNewlineCounter(): NewlineCounter | undefined {
  if (made === undefined) made = make();
  return made ?? undefined;
}

function make(): NewlineCounter | null {
  try {
    const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
    const bytes = moduleBytes();
    if (!wasm || !wasm.validate(bytes)) return null;
    const { exports } = new wasm.Instance(new wasm.Module(bytes), {});
    const mem = new Uint8Array((exports.mem as { buffer: ArrayBuffer }).buffer);
    const count = exports.count as (p: number, n: number) => number;
    return (bytes: Uint8Array, from: number, to: number): number => {
      let c = 0;
      while (from < to) {
        const n = Math.min(to - from, SIMD_CHUNK);
        const whole = n & ~15;
        mem.set(bytes.subarray(from, from + whole), 0);
        c += count(0, whole) >>> 0;
        for (let i = from + whole; i < from + n; i++) if (bytes[i] === 10) c++;
        from += n;
      }
      return c;
    };
  } catch {
    return null;
  }
}
