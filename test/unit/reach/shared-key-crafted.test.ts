// Rule blocks written to make the store take one for another, or to pile into one bucket (found by an
// independent review, 2026-11-29). With fixed multipliers, a +d in one word and a −d in a word of the
// other chain at the same power left lane a unchanged for any bundle, and the store's buckets were keyed
// by lane a alone: such blocks, all different, were looked through one by one (quadratic work). A flip
// of a word's top bit passed lane b's step as a flip that did not depend on the lane's state, so a
// second word's flip cancelled it: four word flips made a whole collision whatever the seed.
import { describe, expect, it } from 'vitest';
import { RuleStore, sameRule } from '../../../analysis/reach/shared-key.ts';

const enc = new TextEncoder();

describe('the rule store against crafted blocks', () => {
  it('flips of a word top bit and the next word do not collide (both lanes are state-dependent)', () => {
    const a = enc.encode('RULE : LB_abcdef_0123456789abcdef\n    Priority : 100\n    Type : encap\n');
    const xor = (b: Uint8Array, w: number, m: number) => {
      for (let i = 0; i < 4; i++) b[4 * w + i]! ^= (m >>> (8 * i)) & 0xff;
    };
    let tried = 0;
    for (const [w1, w2] of [[6, 8], [4, 6], [8, 10], [2, 4]] as const)
      for (const [x1, x2] of [[1, 3], [3, 5], [5, 7], [7, 9]] as const) {
        const b = a.slice();
        xor(b, w1, 0x80000000);
        xor(b, w2, 0x80010000);
        xor(b, x1, 0x80000000);
        xor(b, x2, 0x80010000);
        expect(b).not.toEqual(a);
        expect(sameRule(a, b), `${w1} ${w2} ${x1} ${x2}`).toBe(false);
        tried++;
      }
    expect(tried).toBe(16);
  });

  it('blocks that differ by +d and −d in words of the two chains fill their own buckets', () => {
    // A block of 120 bytes (a multiple of 8, no counters: all head): words 2k and 2k − 3 had the same
    // coefficient in lane a with fixed multipliers.
    const head = `    RULE : LB_${'5'.repeat(81)}\n`;
    const base = enc.encode(`${head}        Priority : 1000\n`);
    expect(base.length).toBe(120);
    const pairs = [[6, 3], [10, 7], [14, 11], [18, 15]] as const;
    const store = new RuleStore<number>();
    let n = 0;
    for (let code = 0; code < 9 ** pairs.length && n < 2000; code++) {
      const b = base.slice();
      let c = code;
      for (const [p, q] of pairs) {
        const d = (c % 9) - 4;
        c = Math.floor(c / 9);
        b[4 * p]! += d;
        b[4 * q]! -= d;
      }
      const dv = new DataView(b.buffer);
      expect(store.find(b, dv, 0, b.length, n)).toBeUndefined();
      store.add(n++);
    }
    expect(n).toBe(2000);
    // Random 30-bit keys for 2,000 blocks: a handful of shared buckets at most.
    expect(store.buckets).toBeGreaterThan(1990);
  });
});
