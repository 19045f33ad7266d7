// Rule hits in a CRLF dump name rules printed as `RULE :` + `Friendly name : …` (OutboundNAT dynnat
// rules, NAT_Allow, exceptions): the name must not be lost to the carriage return.
import { describe, expect, it } from 'vitest';
import { searchRuleBytes } from '../../../analysis/view-models/search.ts';

describe('searchRuleBytes on CRLF text', () => {
  it('names a rule by its friendly name when RULE carries no id', () => {
    const text = ['Policy for port : ', 'P1', 'LAYER : SLB_NAT_LAYER', '  GROUP : G', '    RULE :', '        Friendly name : SNAT_TCP_OUTBOUNDNAT_1_10.240.0.19', '        Conditions:', '            Source IP : 10.244.32.3', '        FlagsEx : 0 ', ''].join('\r\n');
    const bytes = new TextEncoder().encode(text);
    const hits = searchRuleBytes(bytes, [{ name: 'P1', byteStart: 0, byteEnd: bytes.length }], '10.244.32.3', 5);
    expect(hits.map((h) => h.ruleName)).toEqual(['SNAT_TCP_OUTBOUNDNAT_1_10.240.0.19']);
  });

  it('names a rule by its friendly name when RULE carries an id too, as the rule parser does', () => {
    const text = ['Policy for port : ', 'P1', 'LAYER : LB_DSR', '  GROUP : G', '    RULE : 0BD0D3E3-04F9-4C04-9FB7-7C180BA076EC', '        ID : 0BD0D3E3-04F9-4C04-9FB7-7C180BA076EC', '        Friendly name : LB_DSR_10.96.0.10_53_53_17', '        Priority : 100', '        Conditions:', '            Destination IP : 10.96.0.10', '', '    RULE : 1A2B3C4D-0000-0000-0000-000000000000', '        Priority : 200', '        Conditions:', '            Destination IP : 10.96.0.11', ''].join('\r\n');
    const bytes = new TextEncoder().encode(text);
    const port = [{ name: 'P1', byteStart: 0, byteEnd: bytes.length }];
    expect(searchRuleBytes(bytes, port, '10.96.0.10', 5).map((h) => h.ruleName)).toEqual(['LB_DSR_10.96.0.10_53_53_17']);
    // A rule without a friendly name keeps its id; the name of the next rule is never borrowed.
    expect(searchRuleBytes(bytes, port, '10.96.0.11', 5).map((h) => h.ruleName)).toEqual(['1A2B3C4D-0000-0000-0000-000000000000']);
  });

  it('every rule hit of a generated dump is named as the rule parser names it', async () => {
    const { build } = await import('./helpers.ts');
    const { model } = build();
    const f = model.vfp!.files[0];
    const hits = searchRuleBytes(f.bytes, f.index.ports, '10.96.0.10', 50);
    expect(hits.length).toBeGreaterThan(3);
    const names = new Set(model.ports!.flatMap((p) => (p.policy ? model.vfp!.getPolicy(p.key)!.layers.flatMap((l) => l.groups.flatMap((g) => g.rules.map((r) => r.name))) : [])));
    for (const h of hits) expect(names.has(h.ruleName), h.ruleName).toBe(true);
    expect(hits.some((h) => h.ruleName.includes('unnamed') || h.ruleName.includes('without a name'))).toBe(false);
  });
});
