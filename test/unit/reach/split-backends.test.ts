// A Service whose backends are some on this node and some on others: every backend's walk gets
// through (delivered here, forwarded there) and its reply comes back, so the class is "delivered or
// forwarded", never "ambiguous" — ambiguous is kept for backends that disagree on getting through (GCP
// Connectivity Tests: a result is ambiguous when some traces are delivered and others are not). On the
// tool's first look at a healthy generated Calico node, 684 cells of its grid were purple for this.
import { describe, expect, it } from 'vitest';
import { reachFrom } from '../../../analysis/reach/index.ts';
import { buildPlatform } from '../platforms/helpers.ts';

const through = (v: string) => v === 'delivered' || v === 'forwarded';

describe('reach: Services with local and remote backends', () => {
  it('are "delivered or forwarded" with each backend listed, and the reply every backend shares', () => {
    const { model } = buildPlatform('calico-vxlan', { pods: 20, services: 40, seed: 3, network: 'overlay' });
    const pod = (model.endpoints ?? []).find((e) => !e.isRemote && e.ip && !e.ip.includes(':'));
    expect(pod?.ip).toBeTruthy();
    const r = reachFrom(model, pod!.ip!);
    const mixed = r.classes.filter((c) => c.verdicts && new Set(c.verdicts.map((v) => v.verdict)).size > 1);
    expect(mixed.length).toBeGreaterThan(0);
    let split = 0;
    for (const c of mixed) {
      const vs = c.verdicts!.map((v) => v.verdict);
      if (vs.every(through) && c.verdict !== 'ambiguous') {
        expect(c.verdict).toBe('delivered or forwarded');
        expect(c.reply?.verdict).toBe('delivered');
        split++;
      }
      // Ambiguous only where a backend does not get through, or where the replies do not all come back.
      if (c.verdict === 'ambiguous') expect(vs.every(through) && c.reply !== null && through(c.reply.verdict)).toBe(false);
    }
    expect(split).toBeGreaterThan(0);
  });
});
