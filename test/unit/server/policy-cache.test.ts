// The server's own node keeps at most SERVER_POLICY_CACHE_RULES rules of parsed ports (issue #27
// point 2: the loader's 50,000, ≈ 170 MiB on the 250-pod node, sat in the server's resident set
// beside every worker's node). Past the bound the least recently used port is dropped and parsed
// again when read, the same.
import { describe, expect, it } from 'vitest';
import { OpenBundles, SERVER_POLICY_CACHE_RULES } from '../../../services/backend/open-bundles.ts';
import { loadBundle } from '../../../services/bundle/load.ts';
import type { BundleSummary } from '../../../analysis/view-models/types.ts';

const DEMO = 'assets/demo/l2bridge-node';

describe("the server node's parsed ports", () => {
  it('are bounded below the loader’s default', async () => {
    const m = await loadBundle(DEMO);
    const loaderDefault = m.vfp!.cacheRules;
    new OpenBundles(undefined).add('p0', m, {} as BundleSummary).search.close();
    expect(m.vfp!.cacheRules).toBe(SERVER_POLICY_CACHE_RULES);
    expect(SERVER_POLICY_CACHE_RULES).toBeLessThan(loaderDefault);
  });

  it('past the bound, the least recently used port is dropped and parsed again, the same', async () => {
    const m = await loadBundle(DEMO);
    const ports = (m.ports ?? []).filter((p) => p.policy && p.policy.rules > 0);
    expect(ports.length).toBeGreaterThan(2);
    // A bound that holds the first two ports' rules, not a third's.
    const bound = ports[0].policy!.rules + ports[1].policy!.rules;
    const b = new OpenBundles(undefined, bound).add('p1', m, {} as BundleSummary);
    b.search.close();
    const vfp = m.vfp!;
    const first = vfp.getPolicy(ports[0].name);
    expect(vfp.getPolicy(ports[1].name)).toBeDefined();
    expect(vfp.getPolicy(ports[0].name)).toBe(first);
    // Two more ports: the first is the least recently used then, and is dropped.
    vfp.getPolicy(ports[2].name);
    vfp.getPolicy(ports[1].name);
    const again = vfp.getPolicy(ports[0].name);
    expect(again).not.toBe(first);
    expect(JSON.parse(JSON.stringify(again))).toEqual(JSON.parse(JSON.stringify(first)));
  });
});
