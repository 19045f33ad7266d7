// Issue #25 point 5 on a dual-stack node: `diff --reach` compares the IPv6 sources' classes too (each
// pod's IPv6 address and the host's, matched by Kubernetes name else address, within their family).
// The dual-stack base (test/fixtures/walk-scenarios/bases/dualstack-l2bridge) against its d05 scenario
// (one pod's IPv6 load-balancing group removed) lists exactly the IPv6 classes that fault changed:
// every IPv6 packet tried walks differently in the two bundles iff a listed change holds it, and no
// IPv4 class changes. The same base against itself lists nothing. The text writes every IPv6 range
// whole (format.ts), within 80 columns.
import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { loadBundle } from '../../../services/bundle/load.ts';
import { diffReach, formatReachDiff, matchSources, type ReachChange, type ReachDiff } from '../../../analysis/reach/index.ts';
import { outcomeSide } from '../../../analysis/reach/diff.ts';
import { outcomeOf } from '../../../analysis/reach/outcome.ts';
import { destinations6, sources6 } from '../../../analysis/reach/v6/sources6.ts';
import { bigToIp6, ip6ToBig, IP6_MAX, rangeText6 } from '../../../analysis/reach/v6/addr6.ts';
import { familyOf } from '../../../analysis/walk/ip.ts';
import type { NodeModel } from '../../../parsers/model/types.ts';
import type { Proto } from '../../../analysis/walk/types.ts';
import { scenarioBundle } from '../../helpers/scenario-bundle.ts';
import { DUALSTACK } from './models-v6.ts';
import { changeFlow } from '../../../analysis/view-models/reach-diff-view.ts';
import { changeDestinations } from '../../../analysis/view-models/reach-change-destination.ts';

const sideOf = (m: NodeModel, src: string, dstIp: string, proto: Proto, dstPort?: number) => outcomeSide(outcomeOf(m, { srcIp: src, dstIp, proto, ...(dstPort !== undefined ? { dstPort } : {}) }).outcome, dstIp);
const holds = (c: ReachChange, from: string, ip: bigint, proto: Proto, port?: number) =>
  c.from === from && c.proto === proto && ip6ToBig(c.dst[0])! <= ip && ip <= ip6ToBig(c.dst[1])! && (c.ports === null || (port !== undefined && c.ports[0] <= port && port <= c.ports[1]));

describe('diff --reach on a dual-stack node compares the IPv6 classes', () => {
  let a: NodeModel;
  let b: NodeModel;
  let d: ReachDiff;
  beforeAll(async () => {
    a = await loadBundle(DUALSTACK);
    b = await loadBundle(scenarioBundle(['d05-dualstack-v6-group-missing']));
    d = diffReach(a, b);
  }, 120_000);

  it('matches the IPv6 sources within their family: every pod\'s IPv6 address and the host\'s', () => {
    const m = matchSources(a, b);
    const six = m.pairs.filter(([s]) => familyOf(s.ip) === 6);
    expect(six.map(([s]) => s.ip).sort()).toEqual(sources6(a).map((s) => s.ip).sort());
    for (const [s, t] of m.pairs) expect(familyOf(t.ip)).toBe(familyOf(s.ip));
    expect(m.onlyBefore).toEqual([]);
    expect(m.onlyAfter).toEqual([]);
  });

  it('lists exactly the IPv6 classes the missing IPv6 group changed, and no IPv4 class', () => {
    expect(d.budgetHit).toBe(false);
    expect(d.changed.length).toBeGreaterThan(0);
    for (const c of d.changed) expect(familyOf(c.from), `${c.from} → ${c.dst.join('-')}`).toBe(6);
    // Each listed change: its first packet walks to `before` in A and `after` in B.
    for (const c of d.changed) {
      const port = c.ports?.[0];
      expect(sideOf(a, c.from, c.dst[0], c.proto, port)).toEqual(c.before);
      expect(sideOf(b, c.fromAfter ?? c.from, c.dst[0], c.proto, port)).toEqual(c.after);
    }
    // Any IPv6 packet from any IPv6 source: it walks differently in A and B exactly when a listed change
    // holds it. Addresses drawn among the node's IPv6 destinations (pods, VIPs, node, outside), the
    // listed changes' edges, and anywhere.
    const sources = sources6(a).map((s) => s.ip);
    const near = [...destinations6(a).map((x) => ip6ToBig(x.ip)!), ...d.changed.flatMap((c) => [ip6ToBig(c.dst[0])!, ip6ToBig(c.dst[1])!])];
    const ports = [...new Set(destinations6(a).flatMap((x) => (x.port !== undefined ? [x.port] : [])))];
    fc.assert(
      fc.property(
        fc.constantFrom(...sources),
        fc.oneof(fc.constantFrom(...near), fc.bigInt({ min: 0n, max: IP6_MAX })),
        fc.constantFrom<Proto>('tcp', 'udp', 'icmp'),
        fc.oneof(fc.constantFrom(...ports), fc.integer({ min: 1, max: 65535 })),
        (src, ip, proto, p) => {
          const port = proto === 'icmp' ? undefined : p;
          const dst = bigToIp6(ip);
          const differs = JSON.stringify(sideOf(a, src, dst, proto, port)) !== JSON.stringify(sideOf(b, src, dst, proto, port));
          const listed = d.changed.some((c) => holds(c, src, ip, proto, port));
          expect(listed, `${src} → [${dst}]:${port ?? ''}/${proto}`).toBe(differs);
        },
      ),
      { numRuns: 150, seed: 25 },
    );
  }, 180_000);

  it('writes every IPv6 source and range whole, within 80 columns', () => {
    const t = formatReachDiff(d);
    for (const l of t.split('\n')) expect([...l].length, l).toBeLessThanOrEqual(80);
    expect(t).not.toContain('…');
    const flat = t.replace(/-\n {4}/g, '-');
    for (const c of d.changed) {
      expect(flat).toContain(c.from);
      expect(flat).toContain(rangeText6(c.dst[0], c.dst[1]));
    }
  });

  it('writes an IPv6 rewrite with its port in brackets (the DNAT to a backend)', () => {
    const rewrites = d.changed.flatMap((c) => [...(c.before.rewrites ?? []), ...(c.after.rewrites ?? [])]);
    expect(rewrites.some((r) => /DNAT/.test(r))).toBe(true);
    // The load balancer's DNAT rewrites address and port (its DIP ranges `{ fd00:10:244:5::a : 8080 }`):
    // written `[address]:port`, never `fd00:10:244:6::14:8080` (itself a valid address).
    for (const r of rewrites.filter((x) => /DNAT/.test(x))) expect(/destination (\S+?)(?:,|\s|$)/.exec(r)?.[1], r).toMatch(/^\[[0-9a-f:]+\]:\d+$/);
  });

  it('Compare: an IPv6 change\'s example packet lies in its range and walks to each side; a VIP is named a Service', () => {
    const to = changeDestinations(a, b);
    for (const c of d.changed) {
      const f = changeFlow(c, 'a');
      const n = ip6ToBig(f.dstIp)!;
      expect(n >= ip6ToBig(c.dst[0])! && n <= ip6ToBig(c.dst[1])!).toBe(true);
      expect(sideOf(a, f.srcIp, f.dstIp, f.proto, f.dstPort)).toEqual(c.before);
      expect(sideOf(b, changeFlow(c, 'b').srcIp, f.dstIp, f.proto, f.dstPort)).toEqual(c.after);
    }
    // The fault's change is to the IPv6 VIP fd00:96::5 (the d05 scenario's load balancer).
    const vip = d.changed.find((c) => c.dst[0] === 'fd00:96::5' && c.dst[1] === 'fd00:96::5');
    expect(vip).toBeDefined();
    expect(to(vip!).kind).toBe('service');
  });

  it('lists nothing for an identical pair', async () => {
    const again = await loadBundle(DUALSTACK);
    const same = diffReach(a, again);
    expect(same.changed).toEqual([]);
    expect(matchSources(a, again).pairs.some(([s]) => familyOf(s.ip) === 6)).toBe(true);
  }, 120_000);
});
