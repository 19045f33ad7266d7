// The properties of issue #25 on the three bundles written for the trial (test/fixtures/foreign-aks-overlay,
// foreign-eks-vpc-bridge, foreign-calico-vxlan; sources in the README beside each): a healthy node of
// each platform gives no error or warning finding; reach's classes from a pod and from the host tile the
// header space, every class's example walked alone has the class's outcome, and random packets inside a
// class walk to it (as test/unit/reach/partition.test.ts does for the bundles it lists).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { loadBundle } from '../../../services/bundle/load.ts';
import { outcomeOf, defaultSources, reachFrom } from '../../../analysis/reach/index.ts';
import { modelFindings } from '../../../analysis/view-models/findings.ts';
import { detectPlatform } from '../../../analysis/platform/index.ts';
import { ipToInt, intToIp } from '../../../analysis/walk/ip.ts';
import { assertPartition } from '../reach/assert-partition.ts';

const BUNDLES: [string, string][] = [
  ['test/fixtures/foreign-aks-overlay', 'azure-cni-overlay'],
  ['test/fixtures/foreign-eks-vpc-bridge', 'eks-vpc-bridge'],
  ['test/fixtures/foreign-calico-vxlan', 'calico-vxlan'],
];

describe.each(BUNDLES)('%s', (dir, plugin) => {
  it('is read as the platform it was written for, with every file and join', async () => {
    const m = await loadBundle(dir);
    expect(detectPlatform(m).plugin).toBe(plugin);
    expect(detectPlatform(m).confidence).toBe('high');
    expect(m.joins.unmatched).toEqual([]);
    const errors = m.files.flatMap((f) => f.issues.filter((i) => i.severity === 'error').map((i) => `${f.name}:${i.line} ${i.message}`));
    expect(errors).toEqual([]);
  });

  it('a healthy node gives no error or warning finding', async () => {
    const m = await loadBundle(dir);
    const bad = modelFindings(m).filter((f) => f.severity === 'error' || f.severity === 'warning');
    expect(bad.map((f) => `${f.id}: ${f.title}`)).toEqual([]);
  });

  it('reach: classes partition, examples and random packets walk to their class', async () => {
    const m = await loadBundle(dir);
    const sources = defaultSources(m);
    const picked = [sources[0], sources.find((s) => s.name === 'host')].filter((s): s is NonNullable<typeof s> => !!s);
    expect(picked.length).toBe(2);
    for (const src of picked) {
      const r = reachFrom(m, src.ip);
      expect(r.budget.hit).toBe(false);
      assertPartition(r);
      for (const c of r.classes) expect(outcomeOf(m, { srcIp: src.ip, dstIp: c.example.dstIp, dstPort: c.example.dstPort, proto: c.proto }).outcome.key, `${src.ip} ${c.proto} ${c.dst.join('-')} ${c.ports ?? ''}`).toBe(c.key);
      fc.assert(
        fc.property(fc.nat(r.classes.length - 1), fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (k, a, b) => {
          const c = r.classes[k]!;
          const lo = ipToInt(c.dst[0])!;
          const hi = ipToInt(c.dst[1])!;
          const ip = intToIp(lo + Math.floor(a * (hi - lo + 1)) - (a === 1 ? 1 : 0));
          const port = c.ports ? c.ports[0] + Math.min(c.ports[1] - c.ports[0], Math.floor(b * (c.ports[1] - c.ports[0] + 1))) : undefined;
          expect(outcomeOf(m, { srcIp: src.ip, dstIp: ip, dstPort: port, proto: c.proto }).outcome.key, `${src.ip} ${c.proto} ${ip}:${port ?? ''}`).toBe(c.key);
        }),
        { numRuns: 40, seed: 25 },
      );
    }
  }, 120_000);
});
