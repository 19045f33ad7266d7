// `/format 1` JSON mapped onto the text model (synthetic inputs shaped after reference §5.2 field names).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ipv4ToUint } from '../../../parsers/net/ip.ts';
import { parseVfpRuleJson, parseVmSwitchPortsJson } from '../../../parsers/vfp/json-mode.ts';

const RULES = JSON.stringify(
  {
    Layers: [
      {
        Name: 'LB_DSR',
        Priority: 40,
        Groups: [
          {
            Name: 'LB_DSR_IPv4_OUT',
            Priority: 0,
            Direction: 0,
            Rules: [
              {
                ID: 'LB_DSR_x_10.96.0.10_53_53_17',
                Name: 'LB_DSR_x_10.96.0.10_53_53_17',
                Priority: 100,
                Type: 'lbnat',
                RuleFlags: 1,
                Conditions: [
                  { ConditionType: 1, ProtocolList: [17] },
                  { ConditionType: 5, DestinationPortList: [53] },
                  { ConditionType: 11, DestinationIPv4RangeList: [{ L: ipv4ToUint('10.96.0.10'), H: ipv4ToUint('10.96.0.10') }] },
                ],
                InformationArray: [{ RuleCounters: { MatchedPackets: 5, DroppedPackets: 0, PendingPackets: 0, DroppedFlows: 1 } }],
              },
            ],
          },
        ],
      },
    ],
  },
  null,
  2,
);

describe('parseVfpRuleJson', () => {
  it('maps layers, groups, rules, conditions and counters', () => {
    const r = parseVfpRuleJson(RULES, 'rules.json', 'P');
    expect(r.issues).toEqual([]);
    const l = r.value.layers[0];
    expect([l.id, l.priority]).toEqual(['LB_DSR', 40]);
    const g = l.groups[0];
    expect([g.id, g.direction]).toEqual(['LB_DSR_IPv4_OUT', 'OUT']);
    const rule = g.rules[0];
    expect(rule).toMatchObject({ id: 'LB_DSR_x_10.96.0.10_53_53_17', type: 'lbnat', priority: 100, terminating: true });
    expect(rule.conditions.map((c) => [c.kind, c.protocols ?? c.ports ?? c.ipRanges])).toEqual([
      ['protocols', [17]],
      ['dstPort', [{ lo: 53, hi: 53 }]],
      ['dstIp', [{ lo: ipv4ToUint('10.96.0.10'), hi: ipv4ToUint('10.96.0.10') }]],
    ]);
    expect(rule.counters).toEqual({ matchedPackets: 5, droppedPackets: 0, pendingPackets: 0, droppedFlows: 1 });
    expect(rule.src.line).toBeGreaterThan(1);
  });
  it('filtered `.Rules[]` goes into a synthetic layer/group', () => {
    const r = parseVfpRuleJson('{"Rules":[{"Id":"a","Priority":1,"Type":1}]}', 'x');
    expect(r.value.layers[0].synthetic).toBe(true);
    expect(r.value.layers[0].groups[0].rules[0]).toMatchObject({ id: 'a', type: 'allow', extra: { 'Type (raw)': '1' } });
  });
  it('invalid, empty and random input never throw', () => {
    expect(parseVfpRuleJson('', 'x').issues[0].severity).toBe('info');
    expect(parseVfpRuleJson('{"Layers": [', 'x').issues[0].severity).toBe('error');
    fc.assert(fc.property(fc.json(), (j) => {
      expect(() => parseVfpRuleJson(j, 'x')).not.toThrow();
      expect(() => parseVmSwitchPortsJson(j, 'x')).not.toThrow();
    }), { numRuns: 300 });
  });
});

describe('parseVmSwitchPortsJson', () => {
  it('maps Ports[]', () => {
    const r = parseVmSwitchPortsJson('{"Ports":[{"Name":"4FD72AB0-2C35-4AE7-AC9A-F893495BD5EF","Id":"Container NIC 6c50381c","VmsPortId":3,"MacAddress":"00155D05C30C","Mtu":1500}]}', 'p.json');
    expect(r.value).toEqual([
      { name: '4FD72AB0-2C35-4AE7-AC9A-F893495BD5EF', friendlyName: 'Container NIC 6c50381c', portId: 3, mac: '00-15-5D-05-C3-0C', states: [], fields: { Mtu: '1500' }, src: { file: 'p.json', line: 1 } },
    ]);
  });
});
