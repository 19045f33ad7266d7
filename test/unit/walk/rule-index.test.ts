// selectRule looks up a group's rules through indexes built once per group (analysis/walk/match.ts):
// by exact destination address, and the rest by the one source MAC a rule requires (the ExternalPort's
// transposition rules: one per endpoint, all of one priority, so every packet leaving the node used to
// be compared with every one of them). On random groups and packets (fast-check) the rule chosen, the
// "matched assuming" inference and the tie reported must be those of a scan of every rule in order.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { checkConditions, compiledGroup, selectRule, type RuleMatch } from '../../../analysis/walk/match.ts';
import { parseVfpRuleText } from '../../../parsers/vfp/policy-text.ts';
import type { VfpGroup } from '../../../parsers/vfp/index.ts';
import type { Packet } from '../../../analysis/walk/types.ts';

const MACS = ['00-15-5D-00-00-01', '00-15-5D-00-00-02', '00-15-5D-00-00-03'];
const IPS = ['10.0.0.1', '10.0.0.2', '10.0.0.0/30', '10.0.0.0/24'];

interface RuleSpec {
  priority: number;
  type: string;
  mac?: number[];
  dst?: number;
  proto?: number;
}

const ruleSpec: fc.Arbitrary<RuleSpec> = fc.record(
  {
    priority: fc.constantFrom(100, 200, 280),
    type: fc.constantFrom('allow', 'block', 'transposition'),
    mac: fc.array(fc.nat({ max: 2 }), { minLength: 1, maxLength: 2 }),
    dst: fc.nat({ max: IPS.length - 1 }),
    proto: fc.constantFrom(6, 17),
  },
  { requiredKeys: ['priority', 'type'] },
);

function groupOf(rules: RuleSpec[], lpm: boolean): VfpGroup {
  const text = [
    'Policy for port : P1',
    'LAYER : L1',
    '  GROUP : G1',
    '      Priority : 0',
    '      Direction : OUT',
    '      Type : IPv4',
    `      Match type : ${lpm ? 'Longest prefix match on Destination IP' : 'Priority-based match'}`,
    '',
    ...rules.flatMap((r, i) => [
      `    RULE : R${i}`,
      `        Priority : ${r.priority}`,
      '        Flags : 1 terminating',
      `        Type : ${r.type}`,
      '        Conditions:',
      ...(r.mac ? [`            Source MAC : ${r.mac.map((m) => MACS[m]).join(', ')}`] : []),
      ...(r.dst !== undefined ? [`            Destination IP : ${IPS[r.dst]}`] : []),
      ...(r.proto !== undefined ? [`            Protocols : ${r.proto}`] : []),
      '',
    ]),
  ].join('\n');
  return parseVfpRuleText(text, 'test').value[0]!.layers[0]!.groups[0]!;
}

/** The selection by a scan of every rule in the group's order (what selectRule answered before its indexes). */
function scan(g: VfpGroup, p: Packet): RuleMatch | undefined {
  const c = compiledGroup(g);
  const rank = (a: (typeof c.ordered)[number], b: (typeof c.ordered)[number]) => (c.lpm && a.dstBits !== b.dstBits ? b.dstBits - a.dstBits : (a.rule.priority ?? Number.MAX_SAFE_INTEGER) - (b.rule.priority ?? Number.MAX_SAFE_INTEGER));
  let uncertain: RuleMatch | undefined;
  let found: { m: RuleMatch; cr: (typeof c.ordered)[number] } | undefined;
  for (const next of c.ordered) {
    if (found) {
      if (rank(next, found.cr) !== 0) break;
      if (checkConditions(next.rule.conditions, p).result === 'match' && next.rule !== found.cr.rule) {
        found.m.tie = next.rule;
        found.m.tieSame = undefined; // compared below by rule only
        break;
      }
      continue;
    }
    const r = checkConditions(next.rule.conditions, p);
    if (r.result === 'match') {
      found = { m: uncertain ?? { rule: next.rule }, cr: next };
      if (uncertain) break;
      continue;
    }
    if (r.result === 'unknown' && !uncertain) uncertain = { rule: next.rule, uncertain: r.why };
  }
  return found?.m ?? uncertain;
}

const packet: fc.Arbitrary<Packet> = fc.record(
  {
    srcIp: fc.constant('10.0.1.5'),
    dstIp: fc.constantFrom('10.0.0.1', '10.0.0.2', '10.0.0.3', '10.0.0.200', '10.9.9.9'),
    proto: fc.constantFrom('tcp', 'udp') as fc.Arbitrary<Packet['proto']>,
    srcPort: fc.constant(49152),
    dstPort: fc.constant(80),
    srcMac: fc.oneof(fc.constantFrom(...MACS), fc.constantFrom(...MACS).map((m) => m.toLowerCase()), fc.constant('00-15-5D-00-00-09')),
  },
  { requiredKeys: ['srcIp', 'dstIp', 'proto'] },
);

describe('selectRule through its indexes', () => {
  it('chooses what a scan of every rule chooses, on random groups and packets', () => {
    fc.assert(
      fc.property(fc.array(ruleSpec, { maxLength: 12 }), fc.boolean(), fc.array(packet, { minLength: 1, maxLength: 6 }), (rules, lpm, packets) => {
        const g = groupOf(rules, lpm);
        expect(g.rules).toHaveLength(rules.length);
        for (const p of packets) {
          const got = selectRule(g, p);
          const want = scan(g, p);
          expect(got?.rule, JSON.stringify(p)).toBe(want?.rule);
          expect(got?.uncertain).toBe(want?.uncertain);
          expect(got?.tie).toBe(want?.tie);
        }
      }),
      { numRuns: 400 },
    );
  });
});
