// selectRule looks up a group's rules through indexes built once per group (analysis/walk/match.ts):
// by exact destination address (a long list of one address, as a node's NodePort rules, again by the
// one destination port a rule requires), and the rest by the one source MAC a rule requires (the
// ExternalPort's transposition rules: one per endpoint, all of one priority). On random groups and packets (fast-check)
// its answer is held against an oracle written from what a group does, not from match.ts: the oracle
// reads the generated rule specs (not the parsed rules), evaluates their conditions itself and states
// the selection declaratively, so a mistake in match.ts's ordering, indexes or condition checks is not
// shared by it.
//
// The semantics the oracle states (sources in analysis/walk/README.md, "Ports, layers, groups, rules"):
// - Within a group, the matching rule with the lowest priority number wins (D. Firestone, "VFP: A
//   Virtual Switch Platform for Host SDN in the Public Cloud", NSDI 2017: "within each group only the
//   highest priority rule that matches"; microsoft/SdnDiagnostics PR #629: an allow at 1000 above the
//   catch-all block at 65532).
// - In a longest-prefix-match group (vfpctrl `/add-group` match type `lpm`, printed "Longest prefix match
//   on Destination IP"), the most specific destination wins; a rule with no destination condition is the
//   least specific; priority breaks ties.
// - Two matching rules of the same rank: no source defines which one VFP applies. The walk takes the one
//   printed first and reports the other as a tie.
// - The walk's own convention for what the bundle cannot tell: a condition it cannot evaluate (here, a
//   source MAC condition on a packet whose source MAC is unknown) neither matches nor misses; when the
//   best-ranked rule that does not miss is such a rule, the walk selects it "assuming" the condition
//   holds and reports no tie.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { checkCondition, conditionResult, selectRule } from '../../../analysis/walk/match.ts';
import { parseVfpRuleText } from '../../../parsers/vfp/policy-text.ts';
import type { VfpGroup } from '../../../parsers/vfp/index.ts';
import type { Packet } from '../../../analysis/walk/types.ts';

const MACS = ['00-15-5D-00-00-01', '00-15-5D-00-00-02', '00-15-5D-00-00-03'];
/** Destination conditions as printed; the oracle reads them from `DSTS` (address ranges it computes itself). */
const IPS = ['10.0.0.1', '10.0.0.2', '10.0.0.0/30', '10.0.0.0/24', '10.0.0.1, 10.0.0.200'];
/** Destination port conditions as printed, and the ranges the oracle reads. */
const PORTS = ['80', '443', '80-90', '80, 443'];
const PORT_RANGES: [number, number][][] = [[[80, 80]], [[443, 443]], [[80, 90]], [[80, 80], [443, 443]]];

const v4 = (s: string) => s.split('.').reduce((n, o) => n * 256 + Number(o), 0);
/** Each printed destination as [first, last, prefix length of its widest range]. */
const DSTS: { ranges: [number, number][]; bits: number }[] = IPS.map((text) => {
  const ranges = text.split(',').map((part): [number, number] => {
    const [addr = '', len = '32'] = part.trim().split('/');
    const size = 2 ** (32 - Number(len));
    const lo = Math.floor(v4(addr) / size) * size;
    return [lo, lo + size - 1];
  });
  const bits = Math.min(...ranges.map(([lo, hi]) => 32 - Math.log2(hi - lo + 1)));
  return { ranges, bits };
});

interface RuleSpec {
  priority: number;
  type: string;
  mac?: number[];
  dst?: number;
  proto?: number;
  port?: number;
}

const ruleSpec: fc.Arbitrary<RuleSpec> = fc.record(
  {
    priority: fc.constantFrom(100, 200, 280),
    type: fc.constantFrom('allow', 'block', 'transposition'),
    mac: fc.array(fc.nat({ max: 2 }), { minLength: 1, maxLength: 2 }),
    dst: fc.nat({ max: IPS.length - 1 }),
    proto: fc.constantFrom(6, 17),
    port: fc.nat({ max: PORTS.length - 1 }),
  },
  { requiredKeys: ['priority', 'type'] },
);
/** Many rules on one address, most with one port each (a node's NodePort rules), so the index splits it by port. */
const nodePortSpec: fc.Arbitrary<RuleSpec> = fc.record(
  {
    priority: fc.constantFrom(100, 200),
    type: fc.constantFrom('allow', 'block'),
    mac: fc.array(fc.nat({ max: 2 }), { minLength: 1, maxLength: 1 }),
    dst: fc.constantFrom(0, 0, 0, 4),
    proto: fc.constantFrom(6, 17),
    port: fc.constantFrom(0, 0, 1, 1, 2, 3),
  },
  { requiredKeys: ['priority', 'type', 'dst'] },
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
      ...(r.port !== undefined ? [`            Destination ports : ${PORTS[r.port]}`] : []),
      '',
    ]),
  ].join('\n');
  return parseVfpRuleText(text, 'test').value[0]!.layers[0]!.groups[0]!;
}

type Verdict = 'match' | 'miss' | 'cannot tell';

/** A rule spec against a packet: every condition must hold; one the packet cannot answer is "cannot tell". */
function evaluate(r: RuleSpec, p: Packet): Verdict {
  const proto = p.proto === 'tcp' ? 6 : p.proto === 'udp' ? 17 : 1;
  if (r.proto !== undefined && r.proto !== proto) return 'miss';
  let cannotTell = false;
  if (r.port !== undefined) {
    // ICMP has no port: a port condition misses it; a TCP or UDP packet without a port cannot tell.
    if (p.dstPort === undefined) {
      if (p.proto === 'icmp') return 'miss';
      cannotTell = true;
    } else if (!(PORT_RANGES[r.port] ?? []).some(([lo, hi]) => lo <= p.dstPort! && p.dstPort! <= hi)) return 'miss';
  }
  if (r.dst !== undefined) {
    const d = v4(p.dstIp);
    if (!(DSTS[r.dst]?.ranges ?? []).some(([lo, hi]) => lo <= d && d <= hi)) return 'miss';
  }
  if (r.mac) {
    if (p.srcMac === undefined) return 'cannot tell';
    // vfpctrl prints MACs upper-case with dashes; the same MAC written lower-case is the same address.
    if (!r.mac.some((m) => MACS[m] === p.srcMac!.toUpperCase())) return 'miss';
  }
  return cannotTell ? 'cannot tell' : 'match';
}

interface Expected {
  index: number;
  assumed: boolean;
  tie?: number;
}

/** What the group selects, stated from the semantics above (indexes into the rule list). */
function oracle(rules: RuleSpec[], lpm: boolean, p: Packet): Expected | undefined {
  const specificity = (r: RuleSpec) => (lpm ? (r.dst === undefined ? 0 : (DSTS[r.dst]?.bits ?? 0)) : 0);
  // Preference: more specific first (lpm only), then the lower priority number, then printed order.
  const preferred = rules.map((r, index) => ({ r, index, verdict: evaluate(r, p) })).sort((a, b) => specificity(b.r) - specificity(a.r) || a.r.priority - b.r.priority || a.index - b.index);
  const candidates = preferred.filter((x) => x.verdict !== 'miss');
  const [best] = candidates;
  if (!best) return undefined;
  if (best.verdict === 'cannot tell') return { index: best.index, assumed: true };
  const sameRank = (x: (typeof preferred)[number]) => specificity(x.r) === specificity(best.r) && x.r.priority === best.r.priority;
  const tie = candidates.find((x) => x !== best && x.verdict === 'match' && sameRank(x));
  return { index: best.index, assumed: false, tie: tie?.index };
}

/** selectRule on group g (built from `rules`) picks, for packet p, what the oracle says: the rule, whether assumed, the tie. */
function expectOracle(g: VfpGroup, rules: RuleSpec[], lpm: boolean, p: Packet): void {
  const at = (r: unknown) => (r === undefined ? undefined : g.rules.indexOf(r as (typeof g.rules)[number]));
  const got = selectRule(g, p);
  const want = oracle(rules, lpm, p);
  const what = JSON.stringify({ p, lpm });
  expect(at(got?.rule), what).toBe(want?.index);
  expect(got?.uncertain !== undefined, what).toBe(want?.assumed ?? false);
  expect(at(got?.tie), what).toBe(want?.tie);
}

const packet: fc.Arbitrary<Packet> = fc.record(
  {
    srcIp: fc.constant('10.0.1.5'),
    dstIp: fc.constantFrom('10.0.0.1', '10.0.0.2', '10.0.0.3', '10.0.0.200', '10.9.9.9'),
    proto: fc.constantFrom('tcp', 'udp', 'icmp') as fc.Arbitrary<Packet['proto']>,
    srcPort: fc.constant(49152),
    dstPort: fc.constantFrom(80, 85, 443, 8080),
    srcMac: fc.oneof(fc.constantFrom(...MACS), fc.constantFrom(...MACS).map((m) => m.toLowerCase()), fc.constant('00-15-5D-00-00-09')),
  },
  { requiredKeys: ['srcIp', 'dstIp', 'proto'] },
).map((p) => (p.proto === 'icmp' ? { ...p, dstPort: undefined, srcPort: undefined } : p));

describe('selectRule through its indexes', () => {
  it('selects what the group semantics say, on random groups and packets', () => {
    fc.assert(
      fc.property(fc.array(ruleSpec, { maxLength: 12 }), fc.boolean(), fc.array(packet, { minLength: 1, maxLength: 6 }), (rules, lpm, packets) => {
        const g = groupOf(rules, lpm);
        expect(g.rules.map((r) => r.name)).toEqual(rules.map((_, i) => `R${i}`));
        for (const p of packets) expectOracle(g, rules, lpm, p);
      }),
      { numRuns: 400 },
    );
  });

  it('selects what the group semantics say when one address has many rules (split by destination port)', () => {
    fc.assert(
      fc.property(fc.array(nodePortSpec, { minLength: 9, maxLength: 40 }), fc.array(ruleSpec, { maxLength: 4 }), fc.boolean(), fc.array(packet, { minLength: 1, maxLength: 6 }), (many, few, lpm, packets) => {
        const rules = [...many, ...few];
        const g = groupOf(rules, lpm);
        // Some packets without a port on TCP or UDP too: every port condition is then undecidable.
        for (const p of [...packets, ...packets.filter((x) => x.proto !== 'icmp').map((x) => ({ ...x, dstPort: undefined }))]) expectOracle(g, rules, lpm, p);
      }),
      { numRuns: 300 },
    );
  });

  it("conditionResult (no words) gives checkCondition's result on every condition and packet", () => {
    fc.assert(
      fc.property(fc.array(ruleSpec, { minLength: 1, maxLength: 6 }), fc.array(packet, { minLength: 1, maxLength: 4 }), (rules, packets) => {
        const g = groupOf(rules, false);
        for (const r of g.rules)
          for (const c of r.conditions)
            for (const p of [...packets, ...packets.map((x) => ({ ...x, dstPort: undefined, srcMac: undefined })), { ...packets[0]!, dstIp: 'fd00::1', srcIp: 'fd00::2' }])
              expect(conditionResult(c, p), JSON.stringify({ c, p })).toBe(checkCondition(c, p).result);
      }),
      { numRuns: 200 },
    );
  });

  it('the oracle itself, on groups worked out by hand', () => {
    const mac = '00-15-5D-00-00-01';
    const p: Packet = { srcIp: '10.0.1.5', dstIp: '10.0.0.1', proto: 'tcp', srcMac: mac };
    // Priority: 100 beats 200 whatever the printed order; the same priority twice is a tie.
    expect(oracle([{ priority: 200, type: 'allow' }, { priority: 100, type: 'block' }], false, p)).toEqual({ index: 1, assumed: false, tie: undefined });
    expect(oracle([{ priority: 100, type: 'allow' }, { priority: 100, type: 'block' }], false, p)).toEqual({ index: 0, assumed: false, tie: 1 });
    // LPM: the /32 beats the /24 even at a worse priority; a rule without destination comes last.
    expect(oracle([{ priority: 100, type: 'allow', dst: 3 }, { priority: 280, type: 'block', dst: 0 }, { priority: 1, type: 'allow' }], true, p)).toEqual({ index: 1, assumed: false, tie: undefined });
    // A MAC condition on a packet whose MAC is unknown, ranked first: selected, assumed.
    expect(oracle([{ priority: 100, type: 'allow', mac: [1] }, { priority: 200, type: 'block' }], false, { ...p, srcMac: undefined })).toEqual({ index: 0, assumed: true });
    // Nothing matches: nothing selected.
    expect(oracle([{ priority: 100, type: 'allow', proto: 17 }], false, p)).toBeUndefined();
  });
});
