// Issue #25 point 6: the reach engine checks itself on every generated platform, the demos and every
// fixture bundle — the classes partition the header space, each class's example walked alone has the
// class's outcome, and a random packet inside a class walks to the same outcome (fast-check).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { outcomeOf, defaultSources } from '../../../analysis/reach/index.ts';
import { assertPartition } from './assert-partition.ts';
import { ipToInt, intToIp } from '../../../analysis/walk/ip.ts';
import { allModels, reachOnce } from './models.ts';

describe('reach classes on every platform, demo and fixture bundle', () => {
  for (const n of allModels()) {
    it(`${n.name}: partition, examples and random packets agree with the walk`, async () => {
      const m = await n.load();
      const src = defaultSources(m)[0];
      if (!src) return; // a node without a local pod has no source to partition from
      const r = reachOnce(n, m, src.ip);
      expect(r.budget.hit).toBe(false);
      assertPartition(r);
      // Every class's example, walked alone, has the class's outcome.
      for (const c of r.classes) expect(outcomeOf(m, { srcIp: src.ip, dstIp: c.example.dstIp, dstPort: c.example.dstPort, proto: c.proto }).outcome.key, `${c.proto} ${c.dst.join('-')} ${c.ports ?? ''}`).toBe(c.key);
      // A random packet inside a random class walks to the class's outcome.
      fc.assert(
        fc.property(fc.nat(r.classes.length - 1), fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (k, a, b) => {
          const c = r.classes[k];
          const lo = ipToInt(c.dst[0])!;
          const hi = ipToInt(c.dst[1])!;
          const ip = intToIp(lo + Math.floor(a * (hi - lo + 1)) - (a === 1 ? 1 : 0));
          const port = c.ports ? c.ports[0] + Math.min(c.ports[1] - c.ports[0], Math.floor(b * (c.ports[1] - c.ports[0] + 1))) : undefined;
          const got = outcomeOf(m, { srcIp: src.ip, dstIp: ip, dstPort: port, proto: c.proto }).outcome;
          expect(got.key, `${c.proto} ${ip}:${port ?? ''} in class ${c.dst.join('-')} ${c.ports ?? ''}`).toBe(c.key);
        }),
        { numRuns: 40, seed: 25 },
      );
    }, 120_000);
  }
});
