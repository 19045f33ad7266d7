// Why a rule matched (WalkHop.matchedBecause): each condition of the matched rule against the packet's
// value, judged by the same evaluator that says why the other rules did not match. Real rules of the
// Windows troubleshooting guide (test/fixtures/vfp/README.md) and of a generated node.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseVfpRuleText } from '../../../parsers/vfp/index.ts';
import { walkPort } from '../../../analysis/walk/walk-port.ts';
import { walkFlow } from '../../../analysis/walk/engine.ts';
import { walkPresets } from '../../../analysis/walk/presets.ts';
import { matchedText } from '../../../analysis/walk/format.ts';
import { build } from './helpers.ts';

const fixture = (n: string) => readFileSync(path.resolve('test/fixtures/vfp', n), 'utf8');
const ctx = { flow: { srcIp: '0.0.0.0', dstIp: '0.0.0.0', proto: 'tcp' as const } };

describe('matchedBecause on the guide’s rules', () => {
  it('the exception rule: the destination in its range', () => {
    const p = parseVfpRuleText(fixture('seed-slb-nat-layer-list-rule.txt'), 'guide.txt').value[0];
    const r = walkPort(p, 'pod port', 'OUT', { srcIp: '10.244.19.29', dstIp: '10.127.130.36', srcPort: 50000, dstPort: 22, proto: 'tcp' }, ctx);
    const hop = r.hops.find((h) => h.rule?.startsWith('EXCEPTIONS_OUTBOUNDNAT'))!;
    expect(hop.matchedBecause).toEqual([{ field: 'destination IP', value: '10.127.130.36', condition: '10.127.130.0-10.127.130.255', result: 'match' }]);
    expect(matchedText(hop)).toBe('destination IP 10.127.130.36 ∈ 10.127.130.0-10.127.130.255');
    // The rule passed over on the way says why with the same words' opposite.
    const outside = walkPort(p, 'pod port', 'OUT', { srcIp: '10.244.19.29', dstIp: '8.8.8.8', srcPort: 50000, dstPort: 53, proto: 'udp' }, ctx, { explain: true });
    expect(outside.hops.find((h) => h.rule?.startsWith('EXCEPTIONS_OUTBOUNDNAT'))).toBeUndefined();
  });

  it('a rule without conditions matches every packet, and says so', () => {
    const p = parseVfpRuleText(fixture('seed-slb-nat-layer-list-rule.txt'), 'guide.txt').value[0];
    const r = walkPort(p, 'pod port', 'IN', { srcIp: '10.244.0.3', dstIp: '10.244.19.29', srcPort: 53, dstPort: 50000, proto: 'udp' }, ctx);
    const hop = r.hops.find((h) => h.rule === 'NAT_Allow')!;
    expect(hop.matchedBecause).toEqual([]);
    expect(matchedText(hop)).toMatch(/no condition: it matches every packet/);
  });

  it('a MAC condition the bundle cannot decide is "unknown", and the hop is an inference', () => {
    const p = parseVfpRuleText(fixture('seed-l2-rewrite.txt'), 'guide.txt').value[0];
    const known = walkPort(p, 'uplink', 'IN', { srcIp: '10.244.4.7', dstIp: '10.244.18.5', srcPort: 50000, dstPort: 80, proto: 'tcp', srcMac: '00-15-5D-AA-B7-B8' }, ctx);
    expect(known.hops.find((h) => h.ruleType === 'transposition')!.matchedBecause).toEqual([{ field: 'source MAC', value: '00-15-5D-AA-B7-B8', condition: '00-15-5D-AA-B7-B8', result: 'match' }]);
    const unknown = walkPort(p, 'uplink', 'IN', { srcIp: '10.244.4.7', dstIp: '10.244.18.5', srcPort: 50000, dstPort: 80, proto: 'tcp' }, ctx);
    const hop = unknown.hops.find((h) => h.ruleType === 'transposition')!;
    expect(hop.matchedBecause).toEqual([{ field: 'source MAC', value: '(not in the bundle)', condition: '00-15-5D-AA-B7-B8', result: 'unknown' }]);
    expect(hop.inferred).toBe(true);
    expect(matchedText(hop)).toMatch(/not evaluable/);
  });
});

describe('matchedBecause on every rule a walk of a generated node matches', () => {
  it('lists the rule’s printed conditions with the packet’s values, and none of them misses', () => {
    const { model } = build();
    let seen = 0;
    const fields = new Set<string>();
    for (const preset of walkPresets(model)) {
      const r = walkFlow(model, preset.flow, { reply: true });
      for (const t of [r, r.reply!]) {
        for (const h of t.hops) {
          if (h.kind !== 'vfp' || h.flow) {
            expect(h.matchedBecause, `${h.at} ${h.action}`).toBeUndefined();
            continue;
          }
          const rule = model.vfp!.getPolicy(model.ports!.find((p) => p.name === h.port)!.key)!.layers.flatMap((l) => l.groups.flatMap((g) => g.rules)).find((x) => x.src.line === h.evidence!.line)!;
          expect(h.matchedBecause!.filter((c) => !c.field.endsWith('(group)')).map((c) => c.condition)).toEqual(rule.conditions.map((c) => c.value));
          for (const c of h.matchedBecause!) {
            expect(['match', 'unknown']).toContain(c.result);
            fields.add(c.field);
            if (c.field === 'destination IP') expect(c.value).toBe(h.before!.dstIp);
            if (c.field === 'destination port') expect(c.value).toBe(String(h.before!.dstPort));
          }
          seen++;
        }
      }
    }
    expect(seen).toBeGreaterThan(10);
    expect([...fields]).toEqual(expect.arrayContaining(['protocol', 'destination IP', 'destination port']));
  });
});
