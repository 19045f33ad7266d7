// The 128-bit intervals of reach's IPv6 classes (analysis/reach/v6/addr6.ts), cut by the one Cuts class
// both families use (analysis/reach/intervals.ts: IPv4 on numbers, IPv6 on bigints).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { IP6_MAX, bigToIp6, ip6ToBig, middle6, prefix6, rangeText6 } from '../../../analysis/reach/v6/addr6.ts';
import { Cuts, atomIndex } from '../../../analysis/reach/intervals.ts';

const addr = fc.bigInt({ min: 0n, max: IP6_MAX });

describe('IPv6 intervals', () => {
  it('atoms tile [0, 2^128) and every added range is a union of atoms', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(addr, addr), { maxLength: 30 }), (ranges) => {
        const c = new Cuts<bigint>(0n, IP6_MAX);
        for (const [a, b] of ranges) c.add(a, b);
        const atoms = c.atoms();
        expect(atoms[0]!.lo).toBe(0n);
        expect(atoms[atoms.length - 1]!.hi).toBe(IP6_MAX);
        for (let i = 1; i < atoms.length; i++) expect(atoms[i]!.lo).toBe(atoms[i - 1]!.hi + 1n);
        for (const [a, b] of ranges) {
          const lo = a < b ? a : b;
          const hi = a < b ? b : a;
          expect(atoms[atomIndex(atoms, lo)]!.lo).toBe(lo);
          expect(atoms[atomIndex(atoms, hi)]!.hi).toBe(hi);
        }
      }),
      { numRuns: 200, seed: 6 },
    );
  });

  it('addresses round-trip through their RFC 5952 text; the middle lies inside', () => {
    fc.assert(
      fc.property(addr, addr, (a, b) => {
        expect(ip6ToBig(bigToIp6(a))).toBe(a);
        const i = a < b ? { lo: a, hi: b } : { lo: b, hi: a };
        const m = middle6(i);
        expect(m >= i.lo && m <= i.hi).toBe(true);
      }),
      { numRuns: 200, seed: 6 },
    );
    expect(ip6ToBig('10.0.0.1')).toBeUndefined();
    expect(prefix6('10.0.0.0/8')).toBeUndefined();
    expect(prefix6('fd00:10:244:5::/64')).toEqual({ lo: ip6ToBig('fd00:10:244:5::'), hi: ip6ToBig('fd00:10:244:5:ffff:ffff:ffff:ffff') });
  });

  it('a range is written as an address, a prefix when it is exactly one, else lo-hi', () => {
    expect(rangeText6('fd00::5', 'fd00::5')).toBe('fd00::5');
    expect(rangeText6('fd00:10:244:6::', 'fd00:10:244:6:ffff:ffff:ffff:ffff')).toBe('fd00:10:244:6::/64');
    expect(rangeText6('::', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff')).toBe('::/0');
    expect(rangeText6('fd00::6', 'fd00::f:ffff')).toBe('fd00::6-fd00::f:ffff');
    expect(rangeText6('fd00:10:244:100::', 'fd00:95:ffff:ffff:ffff:ffff:ffff:ffff')).toBe('fd00:10:244:100::-fd00:95:ffff:ffff:ffff:ffff:ffff:ffff');
  });
});
