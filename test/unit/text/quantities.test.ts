// One spelling of sizes and counts for every layer (parsers/text/quantities.ts), checked against an
// independent reading of the text back into a number.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatBytes, plural } from '../../../parsers/text/quantities.ts';
import { formatBytes as rendererBytes, plural as rendererPlural } from '../../../renderer/src/lib/format.ts';
import { formatBytes as serviceBytes } from '../../../services/bundle/limits.ts';

const POWER: Record<string, number> = { byte: 0, bytes: 0, KiB: 1, MiB: 2, GiB: 3, TiB: 4 };

describe('formatBytes', () => {
  it('reads back to within the rounding it shows (three figures), in the largest unit under 1024', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 50 }), (n) => {
        const m = /^(\d+(?:\.\d)?) (byte|bytes|KiB|MiB|GiB|TiB)$/.exec(formatBytes(n));
        expect(m, formatBytes(n)).not.toBeNull();
        const shown = Number(m![1]);
        const back = shown * 1024 ** POWER[m![2]];
        expect(Math.abs(back - n)).toBeLessThanOrEqual(0.05 * 1024 ** POWER[m![2]] + (shown >= 100 ? 0.5 * 1024 ** POWER[m![2]] : 0));
        if (POWER[m![2]] > 0) expect(n).toBeGreaterThanOrEqual(1024 ** POWER[m![2]]);
        if (m![2] !== 'TiB') expect(shown).toBeLessThanOrEqual(1024);
      }),
    );
  });

  it('examples, and what is not a size', () => {
    expect([0, 1, 512, 1024, 1536, 1024 ** 3, 64.1 * 1024 ** 2].map(formatBytes)).toEqual(['0 bytes', '1 byte', '512 bytes', '1 KiB', '1.5 KiB', '1 GiB', '64.1 MiB']);
    expect([-1, NaN, Infinity].map(formatBytes)).toEqual(['–', '–', '–']);
  });

  it('the renderer and the services write sizes with the same function', () => {
    expect(rendererBytes).toBe(formatBytes);
    expect(serviceBytes).toBe(formatBytes);
  });
});

describe('plural', () => {
  it('one for exactly 1, the plural otherwise, thousands grouped', () => {
    expect(plural(1, 'rule')).toBe('1 rule');
    expect(plural(0, 'rule')).toBe('0 rules');
    expect(plural(2, 'class', 'classes')).toBe('2 classes');
    expect(plural(16384, 'port')).toBe('16,384 ports');
    expect(rendererPlural).toBe(plural);
    fc.assert(fc.property(fc.nat(), (n) => { expect(Number(plural(n, 'x').split(' ')[0].replace(/,/g, ''))).toBe(n); }));
  });
});
