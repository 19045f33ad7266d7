// The walk reads addresses through ipToInt, which remembers what it read (analysis/walk/ip.ts): the
// remembered answer must be the parser's answer for every text, asked once or many times, and the
// memory must not change it when it is emptied.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ipToInt } from '../../../analysis/walk/ip.ts';
import { ipv4ToInt } from '../../../parsers/net/ip.ts';

const octet = fc.oneof(fc.integer({ min: 0, max: 300 }).map(String), fc.constantFrom('', '01', '1e2', ' 1', '-1', 'x'));
const text = fc.oneof(
  fc.tuple(octet, octet, octet, octet).map((o) => o.join('.')),
  fc.tuple(fc.integer({ min: 0, max: 0xffffffff }), fc.constantFrom('', ' ', '\t')).map(([n, pad]) => `${pad}${n >>> 24}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}${pad}`),
  fc.constantFrom('fd00::1', '::', '10.0.0', '10.0.0.0/8', 'localhost'),
  fc.string({ maxLength: 20 }),
);

describe('ipToInt remembers what it read', () => {
  it('answers as the parser does, the first time and every time after', () => {
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 30 }), (xs) => {
        for (const round of [0, 1, 2])
          for (const s of xs) expect(ipToInt(s), `${JSON.stringify(s)} (round ${round})`).toBe(ipv4ToInt(s) ?? undefined);
      }),
      { numRuns: 300 },
    );
  });

  it('answers the same after its memory was emptied (more addresses than it keeps)', () => {
    const first = ipToInt('10.1.2.3');
    for (let i = 0; i < 70_000; i++) ipToInt(`172.16.${(i >> 8) & 255}.${i & 255}${i >= 65_536 ? ' ' : ''}`);
    expect(ipToInt('10.1.2.3')).toBe(first);
    expect(ipToInt('172.16.0.1 ')).toBe(ipv4ToInt('172.16.0.1'));
    expect(ipToInt('')).toBeUndefined();
    expect(ipToInt(undefined)).toBeUndefined();
  });
});
