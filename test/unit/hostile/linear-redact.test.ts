// Redaction's scans over hostile text (issue #28, point 4): long runs of what an IPv6 address, a DNS
// name or an e-mail address is made of, with no end that completes one, cost time linear in the text.
import { describe, expect, it } from 'vitest';
import { Redactor } from '../../../analysis/redact/index.ts';
import { LINEAR_LIMIT, workRatio } from '../../helpers/thread-cpu.ts';

const RUNS: [string, (n: number) => string][] = [
  ['hex and colons', (n) => 'a:'.repeat(n)],
  ['hex, colons and dots', (n) => '1:1.'.repeat(n)],
  ['dotted labels ending in a digit', (n) => 'ab.'.repeat(n) + '1'],
  ['hyphenated labels', (n) => 'a-'.repeat(n) + '.'],
  ['e-mail local part without @', (n) => 'a.'.repeat(n)],
  ['at signs', (n) => 'a@b.'.repeat(n)],
];

describe('Redactor.redact on long hostile runs', () => {
  for (const [what, make] of RUNS) {
    it(`${what}: linear`, () => {
      const small = make(25_000);
      const big = make(400_000);
      expect(workRatio(() => new Redactor().redact(small), () => new Redactor().redact(big))).toBeLessThan(LINEAR_LIMIT);
    });
  }
});
