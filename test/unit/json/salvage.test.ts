import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { salvageTruncated } from '../../../parsers/json/salvage.ts';

const parse = (t: string) => {
  const s = salvageTruncated(t, 0, t.length);
  return s ? JSON.parse(s.json) : undefined;
};

describe('salvageTruncated', () => {
  it.each([
    ['after a key', '{"ID": "A", "Name": "x", "PrefixLength":  ', { ID: 'A', Name: 'x' }],
    ['inside a string', '{"ID": "A", "Name": "half', { ID: 'A' }],
    ['in a nested array', '{"ID": "A", "Ips": [{"Ip": "1.2.3.4", "Len": 2', { ID: 'A', Ips: [{ Ip: '1.2.3.4' }] }],
    ['after an escaped quote', '{"ID": "A", "Name": "o\\"b", "x": "y', { ID: 'A', Name: 'o"b' }],
    ['commas inside strings are not boundaries', '{"ID": "A", "Name": "a, b, c', { ID: 'A' }],
  ])('keeps the complete members when cut %s', (_n, text, expected) => {
    expect(parse(text)).toEqual(expected);
  });

  it('gives up when no member is complete', () => {
    expect(salvageTruncated('{"ID": "A', 0, 9)).toBeUndefined();
  });

  it('any cut of a real object gives valid JSON whose members are a subset of the original', () => {
    const obj = { ID: 'A1', Name: 'pod, one', Policies: [{ Type: 'OutBoundNAT', Exceptions: ['10.0.0.0/8', '10.96.0.0/12'] }], Ip: { Addr: '10.1.1.1', Len: 24 }, Flags: 0 };
    const text = JSON.stringify(obj, null, 4);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: text.length - 1 }), (cut) => {
        const s = salvageTruncated(text, 0, cut);
        if (!s) return;
        const v = JSON.parse(s.json) as Record<string, unknown>;
        for (const k of Object.keys(v)) expect(Object.keys(obj)).toContain(k);
      }),
      { numRuns: 500 },
    );
  });
});
