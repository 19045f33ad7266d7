// Whole numbers read strictly (issue #28, point 8): what the text spells, in range, or refused with a
// reason — never Number()'s readings of exponents, signs, fractions and hex.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { COUNT, PORT, PREFIX_V4, readInt, readJsonInt, readLeadingInt } from '../../../parsers/text/numbers.ts';

describe('readInt', () => {
  it('reads every decimal number in range as itself, and refuses every one out of range', () => {
    fc.assert(
      fc.property(fc.integer({ min: -100_000, max: 200_000 }), (n) => {
        const r = readInt(String(n), PORT);
        if (n >= 0 && n <= 65535) expect(r.value).toBe(n);
        else expect(r.problem).toMatch(/not a whole number from 0 to 65535/);
      }),
    );
  });

  it('refuses the spellings Number() reads as something else', () => {
    for (const t of ['1e309', '1e3', '-0', '+5', '1.0', '0x10', '', ' ', '0b1', 'Infinity', 'NaN', '99999999999999999999', '5_000']) expect(readInt(t, COUNT).value, t).toBeUndefined();
    expect(readInt('33', PREFIX_V4).problem).toMatch(/out of range/);
    expect(readInt('1e309', PORT).problem).toMatch(/exponent/);
    expect(readInt('-0', PORT).problem).toMatch(/sign/);
  });
});

describe('readLeadingInt', () => {
  it('reads a number words follow, and refuses one glued to more number syntax', () => {
    expect(readLeadingInt('8195 terminating stateful', COUNT)?.value).toBe(8195);
    expect(readLeadingInt('100 (default)', COUNT)?.value).toBe(100);
    for (const t of ['1e309', '1.5', '12abc', '-0']) expect(readLeadingInt(t, COUNT)?.problem, t).toBeDefined();
    expect(readLeadingInt('none', COUNT)).toBeUndefined();
  });
});

describe('readJsonInt', () => {
  it('refuses Infinity (1e309 in JSON), -0, fractions and numbers out of range; absent is undefined', () => {
    expect(readJsonInt(JSON.parse('1e309'), PORT)?.problem).toBeDefined();
    expect(readJsonInt(JSON.parse('-0'), PORT)?.problem).toMatch(/sign/);
    expect(readJsonInt(1.5, PORT)?.problem).toBeDefined();
    expect(readJsonInt(70000, PORT)?.problem).toBeDefined();
    expect(readJsonInt('53', PORT)?.value).toBe(53);
    expect(readJsonInt(undefined, PORT)).toBeUndefined();
  });
});
