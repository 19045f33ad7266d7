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
});
