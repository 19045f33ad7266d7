// A matrix cell's reply is the answer to a request that got through: a request dropped, unknown or not
// decided has `reply: null` (issue #25: `reply: { verdict } | null`; docs/cli.md), never a reply of its
// own — the demo's pod with no vNIC had "dropped" cells carrying a reply "unknown". A Service whose
// backends differ (ambiguous) has the reply only when every backend's reply agrees, as `reach --from`
// gives it (the cell had taken the reply of whichever backend its walk picked). Where the request is
// delivered or forwarded directly, the cell's reply is the reply of that cell's own walk.
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { reachMatrix, defaultDestinations } from '../../../analysis/reach/index.ts';
import { walkFlow } from '../../../analysis/walk/engine.ts';
import { outcomeOf, reachVerdict } from '../../../analysis/reach/outcome.ts';
import { loadBundle } from '../../../services/bundle/load.ts';

const BUNDLES = ['assets/demo/l2bridge-node', 'test/fixtures/foreign-faults/overlay-stale-dip-endpoint-without-vnic', 'test/fixtures/foreign-faults/l2bridge-missing-remote-route'];

describe('a matrix cell has a reply only when its request gets through', () => {
  for (const b of BUNDLES)
    it(b, async () => {
      const m = await loadBundle(path.resolve(b));
      const cells = reachMatrix(m, defaultDestinations(m), { maxWalks: 20_000 });
      const through = cells.filter((c) => c.verdict === 'delivered' || c.verdict === 'forwarded');
      const blocked = cells.filter((c) => c.verdict === 'dropped' || c.verdict === 'unknown' || c.verdict === 'insufficient information');
      for (const c of cells.filter((x) => x.verdict === 'ambiguous')) {
        const flow = { srcIp: c.from, dstIp: c.to, ...(c.port !== undefined ? { dstPort: c.port } : {}), proto: c.proto as 'tcp' | 'udp' };
        expect(c.reply, `${c.from} → ${c.to}`).toEqual(outcomeOf(m, flow).outcome.reply ? { verdict: outcomeOf(m, flow).outcome.reply!.verdict } : null);
      }
      expect(blocked.length).toBeGreaterThan(0);
      for (const c of blocked) expect({ cell: `${c.from} → ${c.to}:${c.port ?? ''}/${c.proto}`, reply: c.reply }).toEqual({ cell: `${c.from} → ${c.to}:${c.port ?? ''}/${c.proto}`, reply: null });
      let compared = 0;
      for (const c of through.filter((x) => x.proto !== 'icmp').slice(0, 40)) {
        const w = walkFlow(m, { srcIp: c.from, dstIp: c.to, ...(c.port !== undefined ? { dstPort: c.port } : {}), proto: c.proto as 'tcp' | 'udp' }, { reply: true });
        if (w.verdict !== c.verdict) continue; // a load balancer's cell sums every backend up
        expect(c.reply?.verdict ?? null).toBe(w.reply ? reachVerdict(w.reply) : null);
        compared++;
      }
      expect(compared).toBeGreaterThan(0);
    }, 60_000);
});
