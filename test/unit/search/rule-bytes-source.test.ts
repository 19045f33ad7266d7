// Rule search in a VFP dump read on demand (its bytes on disk, read again a range at a time:
// services/bundle/file-bytes.ts) finds the same rules, with the same names, as in the bytes held whole.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ruleNameAt, searchRuleBytes } from '../../../analysis/view-models/search.ts';
import type { ByteSource } from '../../../parsers/vfp/byte-source.ts';
import { scanVfpOutput } from '../../../parsers/vfp/scan.ts';

/** A source that copies ranges like a pread, holding nothing whole. */
const copying = (b: Uint8Array): ByteSource => ({ size: b.length, read: (o, l) => b.slice(Math.max(0, o), Math.max(0, Math.min(b.length, o + l))) });

const rule = (i: number, friendly: boolean) => [`    RULE : R${i}`, ...(friendly ? [`        Friendly name : LB_DSR_10.96.0.${i % 7}_53_53_17`] : []), `        Priority : ${i}`, '        Conditions:', `            Destination IP : 10.96.0.${i % 7}`, '        FlagsEx : 0 '];

describe('searchRuleBytes and ruleNameAt over a dump read on demand', () => {
  it('the same hits and names as over the bytes held whole', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(40), fc.boolean()), { minLength: 1, maxLength: 40 }), fc.integer({ min: 1, max: 4 }), fc.constantFrom('10.96.0.3', '10.96.0.', 'lb_dsr', 'Priority : 1'), (rules, ports, q) => {
        const lines: string[] = [];
        rules.forEach(([i, f], k) => {
          if (k % Math.ceil(rules.length / ports) === 0) lines.push('Policy for port : ', `P${k}`, 'LAYER : L', '  GROUP : G');
          lines.push(...rule(i, f));
        });
        const bytes = new TextEncoder().encode(lines.join('\r\n') + '\r\n');
        const idx = scanVfpOutput(bytes, 'f').value;
        const whole = searchRuleBytes(bytes, idx.ports, q, 100);
        expect(searchRuleBytes(copying(bytes), idx.ports, q, 100)).toEqual(whole);
        for (const r of idx.ruleByte) expect(ruleNameAt(copying(bytes), r)).toBe(ruleNameAt(bytes, r));
      }),
      { numRuns: 150 },
    );
  });
});
