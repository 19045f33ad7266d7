// What the server's thread lets go of before a worker adds its heap (issue #27 point 2: the server's
// peak ≤ 0.5× the bundle; figures in docs/performance.md). The server's node keeps at most
// SERVER_PORT_CACHE_RULES rules of parsed ports (not the loader's 50,000): a port parsed for a walk or
// the inspector is dropped once later ports add up past it, and parsed again — the same policy — when
// asked again. And the Services worker starts after one full collection of the server's thread.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { OpenBundles, SERVER_PORT_CACHE_RULES } from '../../../services/backend/open-bundles.ts';
import { runServices } from '../../../services/backend/services-runner.ts';
import { loadBundle } from '../../../services/bundle/load.ts';
import { diskOrigin } from '../../../services/bundle/origin.ts';
import { buildSummary } from '../../../analysis/view-models/summary.ts';
import { buildNode, writeBundle } from '../../../tools/gen/index.ts';
import type { NodeModel } from '../../../parsers/model/types.ts';

let dir: string;
let bundle: string;
let model: NodeModel;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'hnsight-releases-'));
  // Pod ports of ≈ 1,700 rules each (14 of them, ≈ 24,000 rules) add up past the server's bound, not the loader's.
  const node = buildNode({ seed: 7, hostName: 'win-node-rel', network: 'l2bridge', schema: 2, pods: 14, services: 800, remoteNodes: 2, vfpGeneration: 'get-rule-counter', windowsBuild: '10.0.20348.2340', platform: 'flannel-host-gw' });
  bundle = (await writeBundle(node, path.join(dir, 'node'))).path;
  model = await loadBundle(bundle);
}, 180_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("the server's node", () => {
  it('keeps parsed ports up to its own bound, below the loaded node’s; a dropped port parses again to the same policy', () => {
    const loaderBound = model.vfp!.cacheRules;
    const open = new OpenBundles();
    const b = open.add('rel', model, buildSummary(model, 'rel', 0), diskOrigin(bundle));
    try {
      expect(b.model.vfp!.cacheRules).toBe(SERVER_PORT_CACHE_RULES);
      expect(SERVER_PORT_CACHE_RULES).toBeLessThan(loaderBound);
      const ports = (model.ports ?? []).filter((p) => p.policy).sort((x, y) => y.policy!.rules - x.policy!.rules);
      const total = ports.reduce((n, p) => n + p.policy!.rules, 0);
      // The fixture is what the test needs: its ports add up past the server's bound, and within the loader's.
      expect(total).toBeGreaterThan(SERVER_PORT_CACHE_RULES);
      const first = model.vfp!.getPolicy(ports[0].key)!;
      expect(model.vfp!.getPolicy(ports[0].key)).toBe(first);
      let sum = ports[0].policy!.rules;
      for (const p of ports.slice(1)) {
        model.vfp!.getPolicy(p.key);
        sum += p.policy!.rules;
        if (sum > loaderBound) break;
      }
      const again = model.vfp!.getPolicy(ports[0].key)!;
      // Dropped (with the loader's bound it was still kept), and the same policy when parsed again.
      expect(again).not.toBe(first);
      expect(JSON.stringify(again)).toBe(JSON.stringify(first));
    } finally {
      open.close('rel');
    }
  }, 120_000);
});

describe('the Services worker', () => {
  it('starts after one collection of the server’s thread, and answers', async () => {
    const order: string[] = [];
    const run = runServices({ origin: diskOrigin(bundle), reuse: [] }, () => order.push('progress'), { collect: () => order.push('collect') });
    order.push('started');
    const view = await run.done;
    expect(order.slice(0, 2)).toEqual(['collect', 'started']);
    expect(order.filter((o) => o === 'collect')).toHaveLength(1);
    expect(view.rows.length).toBeGreaterThan(0);
  }, 120_000);
});
