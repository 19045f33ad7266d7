// The search corpus of distinct rule texts finds what reading the dump's bytes finds (the same rules
// on the same ports) for names and addresses, any case, on both demo dumps; names a port prints twice
// stay apart; a query too short or not ASCII finds nothing, as the byte search.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { scanVfpOutput } from '../../../parsers/vfp/scan.ts';
import { ruleCorpusSteps, searchRuleCorpus, type RuleCorpus } from '../../../analysis/view-models/rule-corpus.ts';
import { searchRuleBytes } from '../../../analysis/view-models/search.ts';
import type { VfpIndex } from '../../../parsers/vfp/index-types.ts';

function corpusOf(bytes: Uint8Array, index: VfpIndex): RuleCorpus {
  const steps = ruleCorpusSteps(bytes, index, 0);
  for (;;) {
    const s = steps.next();
    if (s.done) return s.value!;
  }
}

describe('rule corpus', () => {
  for (const demo of ['l2bridge-node', 'overlay-node']) {
    it(`${demo}: the same rules as the byte search`, () => {
      const bytes = new Uint8Array(readFileSync(`assets/demo/${demo}/vfpOutput.txt`));
      const index = scanVfpOutput(bytes, 'vfpOutput.txt').value;
      const c = corpusOf(bytes, index);
      expect(c.starts.length - 1).toBeLessThan(index.ruleByte.length);
      expect(c.occ.length).toBe(index.ruleByte.length);
      const queries = ['LB_DSR', 'lb_dsr', '10.96.0.10', 'OUTBOUNDNAT', 'encap', 'allow', ...index.ports.slice(0, 3).map((p) => p.name.slice(0, 8))];
      let some = 0;
      for (const q of queries) {
        const fromCorpus = searchRuleCorpus(c, q, 1e6).map((r) => index.ruleByte[r]).sort((a, b) => a - b);
        const fromBytes = searchRuleBytes(bytes, index.ports, q, 1e6).map((h) => h.ruleByte).sort((a, b) => a - b);
        expect(fromCorpus, q).toEqual(fromBytes);
        some += fromCorpus.length;
      }
      expect(some).toBeGreaterThan(0);
      expect(searchRuleCorpus(c, 'zz', 10)).toEqual([]);
      expect(searchRuleCorpus(c, 'zzzq-nothing', 10)).toEqual([]);
    });
  }

  it('keeps a name printed twice on one port as two rules, and stops at the limit', () => {
    const rule = (name: string, vip: string) => [`    RULE : ${name}`, '        Type : lbnat', '        Conditions:', `            Destination IP : ${vip}`, ''];
    const port = (guid: string, rules: string[][]) => [`Policy for port : ${guid}`, 'LAYER : LB', '  GROUP : G', ...rules.flat()];
    const text = [...port('P1', [rule('SAME', '10.96.0.21'), rule('SAME', '10.96.0.22'), rule('WEB', '10.96.0.20')]), ...port('P2', [rule('WEB', '10.96.0.20')])].join('\n');
    const bytes = new TextEncoder().encode(text);
    const index = scanVfpOutput(bytes, 'v').value;
    const c = corpusOf(bytes, index);
    expect(searchRuleCorpus(c, '10.96.0.22', 10)).toEqual([1]);
    expect(searchRuleCorpus(c, '10.96.0.20', 10)).toEqual([2, 3]);
    expect(searchRuleCorpus(c, '10.96.0.2', 2)).toHaveLength(2);
  });
});
