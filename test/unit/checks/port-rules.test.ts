// The checks' rule reader: every port's rules as the full parse has them (names, types, conditions,
// DIPs), rules sharing a name across ports read once, and names a port prints twice never shared.
import { describe, expect, it } from 'vitest';
import { loadBundle } from '../../../services/bundle/load.ts';
import { loadTexts } from '../../../services/bundle/load.ts';
import { PortRuleReader } from '../../../analysis/checks/port-rules.ts';
import { lbRuleKeys } from '../../../analysis/checks/lb-vfp.ts';
import type { VfpRule } from '../../../parsers/vfp/types.ts';

const facts = (r: VfpRule) => ({ name: r.name, type: r.type, conditions: r.conditions, dips: r.dipRanges, keys: lbRuleKeys(r).keys });

describe('PortRuleReader', () => {
  it('on the demo node gives each port the rules of its full parse, and shares the ones named alike', async () => {
    const m = await loadBundle('assets/demo/l2bridge-node');
    const reader = new PortRuleReader(m);
    const withRules = (m.ports ?? []).filter((p) => p.policy && p.policy.rules > 0);
    expect(withRules.length).toBeGreaterThan(3);
    const objects = new Set<VfpRule>();
    let total = 0;
    for (const p of withRules) {
      const full = m.vfp!.getPolicy(p.key)!.layers.flatMap((l) => l.groups.flatMap((g) => g.rules));
      const mine = reader.of(p);
      expect(mine.map(facts)).toEqual(full.map(facts));
      for (const r of mine) objects.add(r);
      total += mine.length;
    }
    // Pod ports carry the same load-balancing rules: far fewer rule objects than port rules.
    expect(objects.size).toBeLessThan(total / 2);
  });

  it('a name printed twice on one port is not taken as one rule; a name on two ports is', async () => {
    const rule = (name: string, vip: string) => [`    RULE : ${name}`, '        Priority : 100', '        Flags : 1 terminating', '        Type : lbnat', '        Conditions:', '            Protocols : 6', `            Destination IP : ${vip}`, '            Destination ports : 80', ''];
    const port = (guid: string, rules: string[][]) => [`Policy for port : ${guid}`, '', 'LAYER : LB', '    Friendly name : LB', '    Priority : 300', '', '  GROUP : LB_IPv4_OUT', '      Direction : OUT', '      Type : IPv4', '', ...rules.flat()];
    const text = [
      ...port('11111111-1111-1111-1111-111111111111', [rule('LB_WEB', '10.96.0.20'), rule('SAME', '10.96.0.21'), rule('SAME', '10.96.0.22')]),
      ...port('22222222-2222-2222-2222-222222222222', [rule('LB_WEB', '10.96.0.20'), rule('SAME', '10.96.0.23'), rule('SAME', '10.96.0.24')]),
    ].join('\r\n');
    const m = await loadTexts([{ name: 'vfpOutput.txt', bytes: new TextEncoder().encode(text) }], 'test');
    const reader = new PortRuleReader(m);
    const [a, b] = ['11111111-1111-1111-1111-111111111111', '22222222-2222-2222-2222-222222222222'].map((k) => reader.of(m.ports!.find((p) => p.key === k)!));
    expect(a.map((r) => lbRuleKeys(r).keys)).toEqual([['10.96.0.20|80|6'], ['10.96.0.21|80|6'], ['10.96.0.22|80|6']]);
    expect(b.map((r) => lbRuleKeys(r).keys)).toEqual([['10.96.0.20|80|6'], ['10.96.0.23|80|6'], ['10.96.0.24|80|6']]);
    expect(b[0]).toBe(a[0]);
    // Each rule keeps its own file line (the shared one: the first port's).
    expect(b.slice(1).map((r) => r.src.line)).toEqual([b[1].src.line, b[2].src.line]);
    expect(b[2].src.line).toBeGreaterThan(a[2].src.line);
  });
});
