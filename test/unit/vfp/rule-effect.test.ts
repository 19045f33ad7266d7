// What a rule's printed data says it does (parsers/vfp/rule-effect.ts), the NAT-range and mapping
// listings (port-tables.ts) and IPv6 conditions, on text shaped like the public samples.
import { describe, expect, it } from 'vitest';
import { hexToIpv6, ipv6ToHex, mappingsOf, natRangesOf, parseIpv6Ranges, parseVfpRuleText, ruleEffect, type VfpPortPolicy, type VfpRule } from '../../../parsers/vfp/index.ts';

function rules(text: string): VfpRule[] {
  return parseVfpRuleText(text, 'x.txt').value.flatMap((p) => p.layers.flatMap((l) => l.groups.flatMap((g) => g.rules)));
}

describe('rule effect from the rule data', () => {
  it('kubernetes#79359 dynnat: the first Type is the rule type, the second is Source NAT with the pool', () => {
    const [r] = rules(
      [
        'RULE : ',
        '    Friendly name : SNAT_TCP_593C6_10.42.1.2_10.43.0.1_443_6443_6',
        '    Priority : 100',
        '    Flags : 3 terminating stateful ',
        '    Type : dynnat',
        '    Conditions:',
        '        Protocols : 6',
        '        Destination IP : 10.43.0.1',
        '        Destination ports : 443',
        '    Flow TTL: 240',
        '    MSS delta: 50,0',
        '    Type : Source NAT;         NAT pool : SLB_NATPOOL_IPV4_TCP_10.42.1.210.43.0.1443',
        '    FlagsEx : 0 ',
      ].join('\n'),
    );
    expect(r.type).toBe('dynnat');
    expect(r.typeDetail).toMatch(/^Source NAT;/);
    expect(r.natPool).toBe('SLB_NATPOOL_IPV4_TCP_10.42.1.210.43.0.1443');
    expect(r.conditions.map((c) => c.kind)).toEqual(['protocols', 'dstIp', 'dstPort']);
    const e = ruleEffect(r);
    expect(e.natKind).toBe('source');
    expect(e.natPool).toBe('SLB_NATPOOL_IPV4_TCP_10.42.1.210.43.0.1443');
    expect(e.natIp).toBeUndefined();
  });

  it('a nat rule whose data names its address and range (the foreign bundles\' shape)', () => {
    const [r] = rules(
      ['RULE : OUTBOUNDNAT_1', 'Priority : 100', 'Flags : 1 terminating', 'Type : nat', 'Conditions:', '<none>', 'Flow TTL: 240', 'Rule Data:', '    Modifying source IP', '    Source IP : 10.224.0.35', '    Creating a flow pair', '    Range : 1-65535', 'FlagsEx : 0'].join('\n'),
    );
    const e = ruleEffect(r);
    expect(e.rewrites).toMatchObject({ srcIp: true, dstIp: false });
    expect(e.natIp).toBe('10.224.0.35');
    expect(e.natKind).toBe('source');
    expect(e.flowPair).toBe(true);
    expect(e.natPortRange).toEqual({ lo: 1, hi: 65535 });
    // the data's "Source IP" is not a condition
    expect(r.conditions).toEqual([]);
  });

  it('the guide\'s lbnat data: destination IP and port rewritten, MAC fixed, TTL decremented, flow pair, map space', () => {
    const [r] = rules(
      [
        'RULE :',
        'Friendly name : LB_72C28_10.127.130.38_10.102.220.146_80_80_6',
        'Priority : 100',
        'Flags : 1 terminating',
        'Type : lbnat',
        'Conditions:',
        '  Protocols : 6',
        'Flow TTL: 60',
        'Rule Data:',
        '  Decrementing TTL',
        '  Fixing MAC',
        '  Modifying destination IP',
        '  Modifying destination port',
        '  Creating a flow pair',
        '  Map space : 53F19CE3-474C-4059-98F5-870001D05A4F',
        '  Count of DIP Ranges: 1',
        '  DIP Range(s) :',
        '    { 10.244.19.31 : 80 }',
        '  FlagsEx : 0',
      ].join('\n'),
    );
    const e = ruleEffect(r);
    expect(e.rewrites).toMatchObject({ dstIp: true, dstPort: true, dstMac: true, srcIp: false });
    expect(e).toMatchObject({ macFixup: true, decrementTtl: true, flowPair: true, mapSpace: '53F19CE3-474C-4059-98F5-870001D05A4F' });
    expect(e.unread).toEqual([]);
    expect(r.dipRanges).toEqual([{ ip: '10.244.19.31', port: 80 }]);
  });

  it('TSC\'s model spelling "Source_Nat" counts as Source NAT; unknown sentences are kept, not dropped', () => {
    const [r] = rules(['RULE : X', 'Priority : 1', 'Flags : 1 terminating', 'Type : dynnat', 'Conditions:', '<none>', 'Rule Data:', 'Type : Source_Nat', 'Frobnicating the widget', 'FlagsEx : 0'].join('\n'));
    const e = ruleEffect(r);
    expect(e.natKind).toBe('source');
    expect(r.type).toBe('dynnat');
    expect(ruleEffect(rules(['RULE : Y', 'Type : nat', 'Rule Data:', 'Frobnicating the widget', 'FlagsEx : 0'].join('\n'))[0]).unread).toEqual(['Frobnicating the widget']);
  });

  it('transposition Modify values become the rewrite', () => {
    const [r] = rules(['RULE : T_to_EN', 'Priority : 280', 'Flags : 1 terminating', 'Type : transposition', 'Conditions:', '  Source MAC : 00-15-5D-AA-B7-B8', 'Transposition:', '  Modify:', '    Source MAC: 00-15-5D-05-C3-0C', '  FlagsEx : 0'].join('\n'));
    const e = ruleEffect(r);
    expect(e.modify).toEqual({ srcMac: '00-15-5D-05-C3-0C' });
    expect(e.rewrites.srcMac).toBe(true);
  });
});

describe('IPv6 conditions', () => {
  it('addresses, prefixes and ranges become fixed-width hex ranges', () => {
    expect(ipv6ToHex('fd00::1')).toBe('fd000000000000000000000000000001');
    expect(ipv6ToHex('::ffff:10.0.0.1')).toBe('00000000000000000000ffff0a000001');
    expect(ipv6ToHex('1::2::3')).toBeUndefined();
    expect(ipv6ToHex('10.0.0.1')).toBeUndefined();
    expect(hexToIpv6('fd000000000000000000000000000001')).toBe('fd00::1');
    expect(hexToIpv6('20010db8000000010000000000000001')).toBe('2001:db8:0:1::1');
    expect(parseIpv6Ranges('::/0')).toEqual([{ lo: '0'.repeat(32), hi: 'f'.repeat(32) }]);
    // /56 keeps the first 14 hex digits
    expect(parseIpv6Ranges('fd00:10:244::/56')[0]).toEqual({ lo: 'fd000010024400' + '0'.repeat(18), hi: 'fd000010024400' + 'f'.repeat(18) });
  });

  it('a rule condition with IPv6 ranges keeps both the printed value and the ranges', () => {
    const [r] = rules(['RULE : V6', 'Type : allow', 'Conditions:', '  Destination IP : fd00:10:244::-fd00:10:244:ff:ffff:ffff:ffff:ffff', 'FlagsEx : 0'].join('\n'));
    const c = r.conditions[0];
    expect(c.kind).toBe('dstIp');
    expect(c.ipRanges).toBeUndefined();
    expect(c.ip6Ranges).toEqual([{ lo: 'fd000010024400' + '0'.repeat(18), hi: 'fd000010024400' + 'f'.repeat(18) }]);
  });
});

function portWith(sectionLines: string[], command: string): VfpPortPolicy {
  const text = ['Policy for port : ', 'AAAA1111-0000-4000-8000-00000000000A', ' ITEM LIST', '===========', '', ...sectionLines, `Command ${command} succeeded!`].join('\n');
  return parseVfpRuleText(text, 'x.txt').value[0];
}

describe('listings the walk consults (format unpublished: read by their documented fields)', () => {
  it('/list-nat-range: a pool name and an address with a port range, in several layouts', () => {
    const a = natRangesOf(portWith(['NAT pool : SLB_NATPOOL_IPV4_TCP_x', '    Range : 192.168.30.99 : 1024 - 65535'], 'list-nat-range'));
    expect(a).toEqual([{ pool: 'SLB_NATPOOL_IPV4_TCP_x', ip: '192.168.30.99', portLo: 1024, portHi: 65535, entry: 2 }]);
    const b = natRangesOf(portWith(['{range type = Idle, addr = 10.0.0.4, start port = 2048, end port = 4095, ref limit = 1}'], 'list-nat-range'));
    expect(b).toEqual([{ pool: undefined, ip: '10.0.0.4', portLo: 2048, portHi: 4095, entry: 1 }]);
    expect(natRangesOf(portWith([], 'list-nat-range'))).toEqual([]);
  });

  it('/list-mapping: labelled CA/PA fields, or an unlabelled line read in /add-mapping\'s [pa] [ca] order', () => {
    const m = mappingsOf(portWith(['Mapping', '    CA : 10.244.1.14', '    PA : 10.0.1.66', '    MAC address : 02-11-0a-f4-01-0e', '    Isolation ID : 4096', '', '{mapping type = x, ca = 10.244.1.15, pa = 10.0.1.67, mac addr = 02-11-0a-f4-01-0f, isolation id = 4096}'], 'list-mapping'));
    expect(m.map((x) => [x.ca, x.pa, x.mac, x.vni])).toEqual([
      ['10.244.1.14', '10.0.1.66', '02-11-0A-F4-01-0E', 4096],
      ['10.244.1.15', '10.0.1.67', '02-11-0A-F4-01-0F', 4096],
    ]);
    const u = mappingsOf(portWith(['10.0.1.70  10.244.1.16  00-15-5D-01-02-03'], 'list-mapping'));
    expect(u[0]).toMatchObject({ pa: '10.0.1.70', ca: '10.244.1.16', byOrder: true });
  });
});
