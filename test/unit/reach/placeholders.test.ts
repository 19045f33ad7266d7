// The placeholder scan of an outcome's key (analysis/reach/placeholders.ts) against the regular
// expression it replaces, /(^|[^0-9.])<ip>(?![0-9])/g → "$1<dst>": the same text for every input, on
// texts built from pieces of the address, digits, dots, colons and separators (where the two could part:
// adjacent occurrences, an address inside a longer one, a character consumed by the last match).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { normaliser, replaceAddress } from '../../../analysis/reach/placeholders.ts';

const byRegex = (s: string, ip: string) => s.replace(new RegExp(`(^|[^0-9.])${ip.replace(/\./g, '\\.')}(?![0-9])`, 'g'), '$1<dst>');

const ips = fc.oneof(
  fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((x) => x.join('.')),
  fc.constantFrom('10.0.0.1', '1.1.1.1', '0.0.0.0', 'fd00::1', 'fd00::', '1:1:1', '::'),
);

describe('the destination placeholder', () => {
  it('replaces exactly what the regular expression replaced', () => {
    fc.assert(
      fc.property(ips, fc.array(fc.oneof(fc.constant('IP'), fc.constantFrom('1', '0', '.', ':', ',', '|', ' ', 'a', '-', '>', 'f', '\n')), { maxLength: 24 }), (ip, parts) => {
        const s = parts.map((p) => (p === 'IP' ? ip : p)).join('');
        expect(replaceAddress(s, ip)).toBe(byRegex(s, ip));
      }),
      { numRuns: 4000 },
    );
  });

  it('examples the scan must get right', () => {
    expect(replaceAddress('10.0.0.1', '10.0.0.1')).toBe('<dst>');
    expect(replaceAddress('110.0.0.1 10.0.0.12 x10.0.0.1,10.0.0.1', '10.0.0.1')).toBe('110.0.0.1 10.0.0.12 x<dst>,<dst>');
    // The colon that ended one match cannot start the next (the regular expression consumed it).
    expect(replaceAddress('fd00::fd00::', 'fd00::')).toBe(byRegex('fd00::fd00::', 'fd00::'));
    expect(replaceAddress('a1:1:1:1:1', '1:1:1')).toBe(byRegex('a1:1:1:1:1', '1:1:1'));
  });

  it('writes the port as a placeholder only when it is the whole field', () => {
    const n = normaliser({ dstIp: '10.0.0.1', dstPort: 80 });
    expect([n('80'), n('8080'), n(undefined), n('to 10.0.0.1:80')]).toEqual(['<port>', '8080', '', 'to <dst>:80']);
  });
});
