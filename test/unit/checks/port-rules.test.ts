// The checks' rule reader: every port's rules as the full parse has them (names, types, conditions,
// DIPs), rules sharing a name across ports read once, and names a port prints twice never shared.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
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

  it('shares a rule between ports exactly when both print its name once, and gives every port its own rules (any names, any order)', async () => {
    const guid = (i: number) => `${String(i).padStart(8, '0')}-1111-1111-1111-111111111111`;
    // A rule's text follows its name, except where a port prints the name twice: there each copy differs,
    // so reading the copy of another port would show.
    const rule = (name: string, vip: string) => [`    RULE : ${name}`, '        Priority : 100', '        Flags : 1 terminating', '        Type : lbnat', '        Conditions:', '            Protocols : 6', `            Destination IP : ${vip}`, '            Destination ports : 80', ''];
    const names = ['LB_A', 'LB_B', 'LB_C', 'NAT_Allow'];
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 6 }), { minLength: 1, maxLength: 4 }), fc.array(fc.nat(3), { maxLength: 8 }), async (ports, order) => {
        const text = ports.flatMap((rs, p) => {
          const count = (n: number) => rs.filter((x) => x === n).length;
          const body = rs.map((n, j) => rule(names[n]!, count(n) > 1 ? `10.96.${p + 1}.${j + 1}` : `10.96.0.${n + 1}`));
          return [`Policy for port : ${guid(p)}`, '', 'LAYER : LB', '    Friendly name : LB', '    Priority : 300', '', '  GROUP : LB_IPv4_OUT', '      Direction : OUT', '      Type : IPv4', '', ...body.flat()];
        });
        const m = await loadTexts([{ name: 'vfpOutput.txt', bytes: new TextEncoder().encode(text.join('\r\n')) }], 'test');
        const reader = new PortRuleReader(m);
        const refs = ports.map((_, p) => m.ports!.find((x) => x.key === guid(p))!);
        // Ports read in any order, some more than once, through both ways of asking.
        for (const p of [...order.filter((x) => x < ports.length), ...ports.keys()]) reader.idsFor(refs[p]!);
        const got = refs.map((r) => reader.of(r));
        for (const [p, r] of refs.entries()) {
          const full = m.vfp!.getPolicy(r.key)?.layers.flatMap((l) => l.groups.flatMap((g) => g.rules)) ?? [];
          expect(got[p]!.map(facts)).toEqual(full.map(facts));
          expect([...reader.idsFor(r)].map((id) => reader.rule(id))).toEqual(got[p]);
        }
        const once = (p: number, n: number) => ports[p]!.filter((x) => x === n).length === 1;
        for (let a = 0; a < ports.length; a++)
          for (let b = a + 1; b < ports.length; b++)
            for (const [i, na] of ports[a]!.entries())
              for (const [j, nb] of ports[b]!.entries()) expect(got[a]![i] === got[b]![j]).toBe(na === nb && once(a, na) && once(b, nb));
      }),
      { numRuns: 60 },
    );
  });
});
