// The seed guide's vfpctrl excerpts (flattened indentation, copied verbatim) parse to the right objects.
import { describe, expect, it } from 'vitest';
import { ipv4ToUint } from '../../../parsers/net/ip.ts';
import { parseVfpRuleText } from '../../../parsers/vfp/policy-text.ts';
import type { VfpRule } from '../../../parsers/vfp/types.ts';
import { fixture } from './fixture.ts';

const ip = (s: string): number => ipv4ToUint(s)!;

function rules(name: string): VfpRule[] {
  const r = parseVfpRuleText(fixture(name), name);
  return r.value.flatMap((p) => p.layers.flatMap((l) => l.groups.flatMap((g) => g.rules)));
}

describe('seed: vfpctrl /list-layer', () => {
  const r = parseVfpRuleText(fixture('seed-list-layer.txt'), 'seed-list-layer.txt');
  it('reads five layers with priorities and hex flags, port from the prompt', () => {
    expect(r.issues).toEqual([]);
    expect(r.value).toHaveLength(1);
    const p = r.value[0];
    expect(p.portName).toBe('768b4bd1-774c-47e8-904f-91c007a4b183');
    expect(p.implicit).toBe(true);
    expect(p.sections).toEqual([{ command: 'list-layer', line: 1 }]);
    expect(p.layers.map((l) => [l.id, l.friendlyName, l.priority, l.flags])).toEqual([
      ['ACL_ENDPOINT_LAYER', 'ACL_ENDPOINT_LAYER', 15, undefined],
      ['SLB_NAT_LAYER', 'SLB_NAT_LAYER', 50, 9],
      ['SLB_DECAP_LAYER_STATEFUL', 'SLB_DECAP_LAYER_STATEFUL', 100, 9],
      ['CUSTOMER_ROUTE', 'CUSTOMER_ROUTE', 1500, 1],
      ['VNET_PA_ROUTE_LAYER', 'VNET_PA_ROUTE_LAYER', 2000, 1],
    ]);
    expect(p.layers[1].flagsText).toBe('Default Allow , Update flows on address change');
    expect(p.layers[1].flagNames).toEqual(['Default Allow', 'Update flows on address change']);
    // `0x9, Default Allow , ...`: the comma after the number is tolerated.
    expect(p.layers[2].flagNames).toEqual(['Default Allow', 'Update flows on address change']);
    expect(p.layers[3].flagNames).toEqual(['Default Allow']);
    expect(p.layers[0].src).toEqual({ file: 'seed-list-layer.txt', line: 6 });
  });
});

describe('seed: /layer SLB_NAT_LAYER /list-rule (starts at GROUP)', () => {
  const r = parseVfpRuleText(fixture('seed-slb-nat-layer-list-rule.txt'), 's.txt');
  it('puts the groups in a synthetic layer named from the prompt, with an info issue', () => {
    expect(r.issues.map((i) => [i.severity, i.line])).toEqual([['info', 6]]);
    const [layer] = r.value[0].layers;
    expect(layer.synthetic).toBe(true);
    expect(layer.id).toBe('SLB_NAT_LAYER');
    expect(layer.groups.map((g) => [g.id, g.priority, g.direction, g.ipVersion, g.matchType])).toEqual([
      ['SLB_GROUP_NAT_IPv4_IN', 100, 'IN', 'IPv4', 'lpm'],
      ['SLB_GROUP_NAT_IPv4_OUT', 300, 'OUT', 'IPv4', 'lpm'],
    ]);
    expect(layer.groups[0].matchTypeText).toBe('Longest prefix match on Destination IP');
    expect(layer.groups[0].conditions).toEqual([]);
  });
  it('reads RULE lines without id, named by Friendly name, with `Flow TTL : n`', () => {
    const [g1, g2] = r.value[0].layers[0].groups;
    expect(g1.rules).toEqual([
      {
        id: '',
        friendlyName: 'NAT_Allow',
        name: 'NAT_Allow',
        priority: 65535,
        flags: 1,
        flagNames: ['terminating'],
        terminating: true,
        stateful: false,
        type: 'allow',
        conditions: [],
        flowTtl: 0,
        ruleData: [],
        dipRanges: [],
        encapDestinations: [],
        modify: {},
        flagsEx: 0,
        extra: {},
        src: { file: 's.txt', line: 15 },
      },
    ]);
    const ex = g2.rules[0];
    expect(ex.name).toBe('EXCEPTIONS_OUTBOUNDNAT_3FEC9_10.127.130.3810.127.130.0');
    expect(ex.priority).toBe(0);
    expect(ex.flowTtl).toBe(240);
    expect(ex.conditions).toEqual([
      {
        key: 'Destination IP',
        value: '10.127.130.0-10.127.130.255',
        kind: 'dstIp',
        ipRanges: [{ lo: ip('10.127.130.0'), hi: ip('10.127.130.255') }],
      },
    ]);
  });
});

describe('seed: REMOTESUBNETROUTE routeencap rules', () => {
  const rs = rules('seed-remotesubnetroute.txt');
  it('reads both rules with encap destinations, encap source and rule data', () => {
    expect(rs).toHaveLength(2);
    const r = rs[0];
    expect(r.id).toBe('REMOTESUBNETROUTE_ENC4P_4A240_10.244.2.0_24_4096_10.127.130.38_00-15-5D-F9-D2-63');
    expect(r.type).toBe('routeencap');
    expect(r.priority).toBe(10);
    expect(r.flowTtl).toBe(0);
    expect(r.conditions[0].ipRanges).toEqual([{ lo: ip('10.244.2.0'), hi: ip('10.244.2.255') }]);
    expect(r.ruleData).toEqual(['Encap Type: VXLAN', 'Fixing inner MAC', 'Using source PA MAC', 'Decrementing TTL']);
    expect(r.encapType).toBe('VXLAN');
    expect(r.encapSourceIp).toBe('10.127.130.36');
    expect(r.encapDestinations).toEqual([{ ip: '10.127.130.38', mac: '00-15-5D-F9-D2-63', greKey: 4096, extra: {} }]);
    expect(r.flagsEx).toBe(0);
    expect(rs[1].encapDestinations).toEqual([{ ip: '10.127.130.37', mac: 'F6-3C-2E-AB-57-6A', greKey: 4096, extra: {} }]);
    expect(rs[1].conditions[0].ipRanges).toEqual([{ lo: ip('10.244.0.0'), hi: ip('10.244.0.255') }]);
    expect(rs[1].src.line).toBe(19);
  });
});

describe('seed: EXTERNAL_L2_REWRITE transposition', () => {
  const r = parseVfpRuleText(fixture('seed-l2-rewrite.txt'), 'l2.txt');
  it('reads layer, IPV4 group (normalised) and the Modify block', () => {
    expect(r.issues).toEqual([]);
    const l = r.value[0].layers[0];
    expect([l.id, l.priority, l.synthetic]).toEqual(['EXTERNAL_L2_REWRITE_LAYER', 500, undefined]);
    const g = l.groups[0];
    expect([g.id, g.direction, g.ipVersion, g.matchType, g.conditions]).toEqual(['EXTERNAL_L2_REWRITE_GROUP_IPV4_IN', 'IN', 'IPv4', 'lpm', []]);
    const rule = g.rules[0];
    expect(rule.id).toBe('FC7CE89-4FF1-4A13-83FD-A7622C49039C_to_EN');
    expect(rule.type).toBe('transposition');
    expect(rule.priority).toBe(280);
    expect(rule.conditions).toEqual([{ key: 'Source MAC', value: '00-15-5D-AA-B7-B8', kind: 'srcMac', macs: ['00-15-5D-AA-B7-B8'] }]);
    expect(rule.modify).toEqual({ 'Source MAC': '00-15-5D-05-C3-0C' });
    expect(rule.flagsEx).toBe(0);
  });
});

describe('seed: overlay ENCAP rule (`m encaps`, underscores in IPs)', () => {
  const [r] = rules('seed-encap.txt');
  it('keeps the type as printed and decodes 10_244_3_0-10_244_3_255', () => {
    expect(r.type).toBe('m encaps');
    expect(r.conditions[0].value).toBe('10_244_3_0-10_244_3_255');
    expect(r.conditions[0].ipRanges).toEqual([{ lo: ip('10.244.3.0'), hi: ip('10.244.3.255') }]);
    expect(r.mapSpace).toBe('21A6CBA3-813D-4D85-98B0-A1CB27A6A6EC');
    expect(r.greKey).toBe(4096);
    expect(r.encapType).toBe('VXLAN');
    expect(r.encapSourceIp).toBe('10.127.130.36');
    expect(r.ruleData).toContain('CA routing enabled');
    expect(r.flagsEx).toBe(0);
  });
});

describe('seed: LB lbnat rules with DIP ranges', () => {
  const rs = rules('seed-lbnat.txt');
  it('reads protocols, VIP, port, DIPs', () => {
    expect(rs.map((r) => r.name)).toEqual(['LB_72C28_10.127.130.38_10.102.220.146_80_80_6', 'LB_86C16_10.127.130.38_10.127.130.38_31486_80_6']);
    const r = rs[0];
    expect(r.id).toBe('');
    expect(r.type).toBe('lbnat');
    expect(r.flowTtl).toBe(60);
    expect(r.conditions.map((c) => c.kind)).toEqual(['protocols', 'dstIp', 'dstPort']);
    expect(r.conditions[0].protocols).toEqual([6]);
    expect(r.conditions[1].ipRanges).toEqual([{ lo: ip('10.102.220.146'), hi: ip('10.102.220.146') }]);
    expect(r.conditions[2].ports).toEqual([{ lo: 80, hi: 80 }]);
    expect(r.dipRanges).toEqual([
      { ip: '10.244.19.31', port: 80 },
      { ip: '10.244.19.32', port: 80 },
    ]);
    expect(r.mapSpace).toBe('53F19CE3-474C-4059-98F5-870001D05A4F');
    expect(r.flagsEx).toBe(0);
    expect(rs[1].conditions[2].ports).toEqual([{ lo: 31486, hi: 31486 }]);
    expect(rs[1].flowTtl).toBe(240);
  });
});

describe('reference excerpts', () => {
  it('PR #629 FW_ADMIN layer (indented)', () => {
    const r = parseVfpRuleText(fixture('ref-pr629-fw-admin-layer.txt'), 'a');
    expect(r.issues).toEqual([]);
    const l = r.value[0].layers[0];
    expect([l.id, l.friendlyName, l.priority]).toEqual(['FW_ADMIN_LAYER_ID', 'FW_ADMIN_LAYER', 14]);
    const g = l.groups[0];
    expect([g.id, g.friendlyName, g.priority, g.direction, g.ipVersion, g.matchType]).toEqual(['FW_GROUP_IPv4_IN_ID', 'FW_GROUP_IPv4_IN', 1, 'IN', 'IPv4', 'priority']);
    const rule = g.rules[0];
    expect([rule.id, rule.priority, rule.flags, rule.flagNames, rule.terminating, rule.stateful, rule.type, rule.flowTtl, rule.flagsEx]).toEqual([
      '418b4399-4acf-4641-9278-7bed0fc6b129', 1000, 8195, ['terminating', 'stateful'], true, true, 'allow', 240, 0,
    ]);
  });
  it('rke2 ACL rule with Friendly name and a Source IP condition', () => {
    const [r] = rules('ref-rke2-acl-rule.txt');
    expect(r.name).toBe('allow-host-to-endpoint');
    expect(r.id).toBe('A2CFF68C-B5F4-4988-841F-0F6F77AF3D09');
    expect(r.conditions).toEqual([{ key: 'Source IP', value: '10.156.233.218', kind: 'srcIp', ipRanges: [{ lo: ip('10.156.233.218'), hi: ip('10.156.233.218') }] }]);
  });
  it('VFP.psm1 PA_ROUTE rule: Rule Data lines at the header indent, ended by FlagsEx', () => {
    const [r] = rules('ref-vfppsm1-paroute-rule.txt');
    expect(r.id).toBe('');
    expect(r.name).toBe('PA_ROUTE');
    expect(r.type).toBe('paroute');
    expect(r.priority).toBe(45535);
    expect(r.ruleData).toEqual([
      'VLAN ID: 0',
      'Using default compartment',
      'Cache pruning threshold: 10',
      'Cache pruning timeout: 30 seconds',
      'Using interface constraint with interface index: 11',
    ]);
    expect(r.flagsEx).toBe(0);
  });
});
