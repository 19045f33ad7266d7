// The one MAC reader (parsers/net/mac.ts) keeps every spelling the four readers it replaced took:
// route print/ipconfig (pairs joined by -, : or a blank, mixed; 6–8 pairs; bare 12 digits), vfpctrl
// conditions (pairs joined by -, : or . ; bare), HNS JSON (separators anywhere), redaction (- or :).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { normalizeMac } from '../../../parsers/net/mac.ts';
import { normMac } from '../../../parsers/hns/access.ts';
import { makeCondition } from '../../../parsers/vfp/conditions.ts';

const bytes = fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 6, maxLength: 6 });
const hex = (b: number[]) => b.map((x) => x.toString(16).padStart(2, '0'));
const want = (b: number[]) => hex(b).join('-').toUpperCase();

describe('normalizeMac', () => {
  it('reads pairs joined by any of - : . or a blank, in either case, and bare digits, to the same text', () => {
    fc.assert(
      fc.property(bytes, fc.array(fc.constantFrom('-', ':', '.', ' '), { minLength: 5, maxLength: 5 }), fc.boolean(), (b, seps, upper) => {
        const pairs = hex(b).map((p) => (upper ? p.toUpperCase() : p));
        const joined = pairs.map((p, i) => (i === 0 ? p : `${seps[i - 1]}${p}`)).join('');
        expect(normalizeMac(joined)).toBe(want(b));
        expect(normalizeMac(`  ${pairs.join('')} `)).toBe(want(b));
        expect(normalizeMac(`0015.5d${pairs.join('').slice(6)}`)).toBeUndefined();
      }),
    );
  });

  it('reads 7 and 8 pairs only when asked (route print lists tunnel adapters so)', () => {
    expect(normalizeMac('00 00 00 00 00 00 00 e0')).toBeUndefined();
    expect(normalizeMac('00 00 00 00 00 00 00 e0', { long: true })).toBe('00-00-00-00-00-00-00-E0');
    expect(normalizeMac('00-15-5D-E1-56-F4-01-02-03', { long: true })).toBeUndefined();
  });

  it('reads separators anywhere only when asked (the dotted form of switch vendors)', () => {
    expect(normalizeMac('0015.5dAA.BF3D')).toBeUndefined();
    expect(normalizeMac('0015.5dAA.BF3D', { anySeparators: true })).toBe('00-15-5D-AA-BF-3D');
    expect(normalizeMac('00-155D-AABF3D', { anySeparators: true })).toBe('00-15-5D-AA-BF-3D');
    expect(normalizeMac('00155dAABF3', { anySeparators: true })).toBeUndefined();
  });

  it('never reads a GUID, an IP address or a word as a MAC, and never throws', () => {
    for (const s of ['4fd72ab0-2c35-4ae7-ac9a-f893495bd5ef', '10.0.0.1', 'Disabled', '', '00-15-5D-E1-56', 'gg-15-5d-e1-56-f4']) expect(normalizeMac(s, { long: true, anySeparators: true }), s).toBeUndefined();
    fc.assert(fc.property(fc.string(), (s) => { normalizeMac(s, { long: true, anySeparators: true }); }));
  });

  it('the callers keep their own rules: HNS keeps an unreadable value; a vfpctrl condition takes no dotted form', () => {
    expect(normMac(' 0015.5daa.bf3d ')).toBe('00-15-5D-AA-BF-3D');
    expect(normMac('not-a-mac')).toBe('NOT-A-MAC');
    expect(normMac('  ')).toBeUndefined();
    expect(makeCondition('Destination MAC', '00:15:5d:aa:87:b8, 00.15.5d.aa.87.b9').macs).toEqual(['00-15-5D-AA-87-B8', '00-15-5D-AA-87-B9']);
    expect(makeCondition('Destination MAC', '0015.5dAA.87B8').macs).toBeUndefined();
  });
});
