// Issue #25 points 1, 2 and 6 on dual-stack nodes: an IPv6 source's classes partition the IPv6 header
// space, each class's example, edges, random packets and the corners of every IPv6 rule walk to the
// class's outcome, and the checks catch a wrong partition (a class dropped, a cut missing).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { classOf, reachFrom, type ReachFrom } from '../../../analysis/reach/index.ts';
import { outcomeOf } from '../../../analysis/reach/outcome.ts';
import { sources6 } from '../../../analysis/reach/v6/sources6.ts';
import { bigToIp6, ip6ToBig } from '../../../analysis/reach/v6/addr6.ts';
import { loadBundle } from '../../../services/bundle/load.ts';
import { assertPartition6, cornerDisagreement, disagreement } from './assert-partition-v6.ts';
import { BLOCK6, DUALSTACK, dualStackModels, withIpv6Block, withoutIpv6Routes } from './models-v6.ts';

describe('reach from an IPv6 source on dual-stack nodes', () => {
  for (const n of dualStackModels()) {
    it(`${n.name}: partition, examples, edges and random packets agree with the walk`, async () => {
      const m = await n.load();
      const srcs = sources6(m);
      // Both pods and the host have an IPv6 address in every variant.
      expect(srcs.map((s) => s.ip).sort()).toEqual(['fd00:10:244:5::a', 'fd00:10:244:5::b', 'fd00:10::15']);
      for (const src of srcs) {
        const r = reachFrom(m, src.ip);
        expect(r.budget.hit).toBe(false);
        expect(r.classes.length).toBeGreaterThan(10);
        assertPartition6(r);
        expect(disagreement(m, src.ip, r.classes)).toBeUndefined();
        // The corners of every IPv6 rule: where a cut only VFP makes would be missed by sampling.
        expect(cornerDisagreement(m, src.ip, r)).toBeUndefined();
        fc.assert(
          fc.property(fc.nat(r.classes.length - 1), fc.bigInt({ min: 0n, max: (1n << 128n) - 1n }), fc.nat(65534), (k, a, b) => {
            const c = r.classes[k]!;
            const lo = ip6ToBig(c.dst[0])!;
            const hi = ip6ToBig(c.dst[1])!;
            const ip = bigToIp6(lo + (a % (hi - lo + 1n)));
            const port = c.ports ? c.ports[0] + (b % (c.ports[1] - c.ports[0] + 1)) : undefined;
            const got = outcomeOf(m, { srcIp: src.ip, dstIp: ip, proto: c.proto, ...(port !== undefined ? { dstPort: port } : {}) }).outcome;
            expect(got.key, `${c.proto} [${ip}]:${port ?? ''} in class ${c.dst.join('-')} ${c.ports ?? ''}`).toBe(c.key);
          }),
          { numRuns: 30, seed: 6 },
        );
      }
    }, 120_000);
  }

  it('a Service VIP is cut to its port and lists every backend, IPv6 addresses without their port', async () => {
    const m = await loadBundle(DUALSTACK);
    const r = reachFrom(m, 'fd00:10:244:5::a');
    const vip = classOf(r, 'fd00:96::5', 'tcp', 80)!;
    expect(vip.dst).toEqual(['fd00:96::5', 'fd00:96::5']);
    expect(vip.ports).toEqual([80, 80]);
    // One backend on the remote node, the source itself (a hairpin the bundle cannot decide) and the other pod.
    expect(vip.verdicts?.map((v) => v.dip).sort()).toEqual(['fd00:10:244:5::a', 'fd00:10:244:5::b', 'fd00:10:244:6::14']);
    expect(vip.verdict).toBe('ambiguous');
    expect(classOf(r, 'fd00:96::5', 'tcp', 81)!.verdict).toBe('dropped');
    // The remote pod subnet is one class, routed to the other node (routes.txt fd00:10:244:6::/64 via fd00:10::16).
    const remote = classOf(r, 'fd00:10:244:6::14', 'udp', 53)!;
    expect(remote.dst).toEqual(['fd00:10:244:6::', 'fd00:10:244:6:ffff:ffff:ffff:ffff']);
    expect(remote.nextHop).toBe('fd00:10::16');
    // The other pod is delivered, by its IPv6 ACL rule.
    expect(classOf(r, 'fd00:10:244:5::b', 'tcp', 8080)).toMatchObject({ verdict: 'delivered', decidingRule: '0ACLI62222-0000-4000-8000-00000000000B' });
    // classes hold the family of their source only.
    expect(classOf(r, '10.244.5.11', 'tcp', 80)).toBeUndefined();
  }, 60_000);

  it('an IPv6 rule only VFP has cuts the classes of the pod whose port has it, and only those', async () => {
    const m = await loadBundle(withIpv6Block());
    const a = reachFrom(m, 'fd00:10:244:5::a', { protos: ['tcp'] });
    const blocked = a.classes.filter((c) => c.decidingRule === BLOCK6.rule);
    expect(blocked.map((c) => [c.dst, c.ports, c.verdict])).toEqual([[[BLOCK6.lo, BLOCK6.hi], [BLOCK6.port, BLOCK6.port], 'dropped']]);
    expect(classOf(a, BLOCK6.lo, 'tcp', BLOCK6.port + 1)!.verdict).toBe('forwarded');
    // The other pod's port has no such rule: the remote pod subnet stays one class from it.
    const b = reachFrom(m, 'fd00:10:244:5::b', { protos: ['tcp'] });
    expect(classOf(b, BLOCK6.lo, 'tcp', BLOCK6.port)!.dst).toEqual(['fd00:10:244:6::', 'fd00:10:244:6:ffff:ffff:ffff:ffff']);
  }, 60_000);

  it('the partition of a dual-stack source names its other family\'s address', async () => {
    const m = await loadBundle(DUALSTACK);
    const r = reachFrom(m, '10.244.5.10', { protos: ['icmp'] });
    expect(r.limitations.join('\n')).toMatch(/IPv6 side: reach --from fd00:10:244:5::a/);
    expect(reachFrom(m, 'fd00:10:244:5::a', { protos: ['icmp'] }).limitations.join('\n')).toMatch(/header space is IPv6; this source's IPv4 side: reach --from 10\.244\.5\.10/);
    expect(reachFrom(m, 'fd00:10::15', { protos: ['icmp'] }).limitations.join('\n')).toMatch(/IPv4 side: reach --from 10\.0\.0\.15/);
  }, 60_000);

  it('without IPv6 routes, what leaves the node is unknown as the walk says (insufficient information), never dropped by host routing', async () => {
    const m = await loadBundle(withoutIpv6Routes());
    const r = reachFrom(m, 'fd00:10:244:5::a', { protos: ['tcp'] });
    expect(r.limitations.join('\n')).toMatch(/insufficient information: the route table \(routes\.txt\) lists no IPv6 route/);
    const out = classOf(r, '2606:2800:220:1:248:1893:25c8:1946', 'tcp', 443)!;
    // The walk decides it (analysis/walk/engine/routing.ts), as for IPv4 without routes.txt: reach only reads it.
    expect(out).toMatchObject({ verdict: 'unknown', decidedAt: 'host routing', reply: null });
    expect(out.reason).toMatch(/routes\.txt lists no IPv6 route .*insufficient information/);
    // ::/128 is dropped whatever the routes say (RFC 4291 §2.5.2: never a destination); nothing else is.
    expect(r.classes.filter((c) => c.verdict === 'dropped' && c.decidedAt === 'host routing' && !/unspecified address/.test(c.reason ?? ''))).toEqual([]);
    expect(classOf(r, '::', 'tcp', 443)!.verdict).toBe('dropped');
    // What stays on the node is still decided: the other pod is delivered.
    expect(classOf(r, 'fd00:10:244:5::b', 'tcp', 8080)!.verdict).toBe('delivered');
  }, 60_000);

  describe('the checks catch a wrong partition', () => {
    let m: Awaited<ReturnType<typeof loadBundle>>;
    let r: ReachFrom;
    const src = 'fd00:10:244:5::a';
    it('a class dropped leaves a gap', async () => {
      m = await loadBundle(DUALSTACK);
      r = reachFrom(m, src);
      const k = r.classes.findIndex((c) => c.proto === 'udp');
      expect(() => assertPartition6({ ...r, classes: r.classes.filter((_, i) => i !== k + 3) })).toThrow();
    }, 60_000);
    it('a cut left out (two neighbouring classes with different outcomes as one) is found by walking its packets', () => {
      // Every pair of address-neighbours over the whole port range whose outcomes differ, merged: the
      // class one missing cut would give.
      const whole = r.classes.filter((c) => c.proto === 'icmp');
      let tried = 0;
      for (let i = 0; i + 1 < whole.length; i++) {
        const a = whole[i]!;
        const b = whole[i + 1]!;
        if (a.key === b.key) continue;
        tried++;
        const merged = { ...a, dst: [a.dst[0], b.dst[1]] as [string, string] };
        expect(disagreement(m, src, [merged]), `${a.dst.join('-')} + ${b.dst.join('-')}`).toBeDefined();
      }
      expect(tried).toBeGreaterThan(5);
    }, 60_000);
  });
});
