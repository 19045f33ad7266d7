// The line table's newlines counted with WebAssembly SIMD (parsers/vfp/newline-simd.ts) are the
// newlines the JavaScript count finds, on any bytes and any range (16-byte steps, a tail, blocks of
// 255 steps, many 1 MiB chunks); and Node, where the loader runs, has what the counter needs.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { simdNewlineCounter, SIMD_CHUNK } from '../../../parsers/vfp/newline-simd.ts';
import { countNewlines, countNewlinesJs } from '../../../parsers/vfp/line-locator.ts';

const simd = simdNewlineCounter();

describe('newlines counted 16 bytes at a step', () => {
  it('runs in Node (the loader has the fast count)', () => {
    expect(simd).toBeTypeOf('function');
  });

  it('counts what the JavaScript count counts, on any bytes and range', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 9000 }), fc.nat(), fc.nat(), (b, x, y) => {
      const from = x % (b.length + 1);
      const to = from + (y % (b.length - from + 1));
      expect(simd!(b, from, to)).toBe(countNewlinesJs(b, from, to));
      expect(countNewlines(b, from, to)).toBe(countNewlinesJs(b, from, to));
    }), { numRuns: 2000 });
  });

  it('counts lanes past 255 newlines and ranges past one chunk of its memory', () => {
    const all = new Uint8Array(SIMD_CHUNK * 2 + 4099).fill(10);
    expect(simd!(all, 0, all.length)).toBe(all.length);
    expect(simd!(all, 7, all.length - 5)).toBe(all.length - 12);
    const sparse = new Uint8Array(SIMD_CHUNK * 3 + 17);
    for (let i = 3; i < sparse.length; i += 4093) sparse[i] = 10;
    sparse[sparse.length - 1] = 10;
    expect(simd!(sparse, 0, sparse.length)).toBe(countNewlinesJs(sparse, 0, sparse.length));
    // a subarray at an odd offset of its buffer
    const view = sparse.subarray(1, sparse.length - 3);
    expect(simd!(view, 2, view.length)).toBe(countNewlinesJs(view, 2, view.length));
  });
});
