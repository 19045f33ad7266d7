// The cluster workspace in Chromium: a folder of three generated bundles opened as a cluster (like
// `hnsight serve DIR`), the nodes drawn as groups with the paths between them, a walk from a pod on
// one node to a pod on another, and both halves of it — each node's hops listed under that node, and
// both nodes, both pods and the path between them lit on the graph (its container's data-lit-ids, and
// the drawn groups' class).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import path from 'node:path';
import { openApp, openNode, serve, shot } from './helpers.ts';
import { cleanupClusters, writeGeneratedCluster, type WrittenCluster } from '../helpers/cluster.ts';

describe('cluster workspace', () => {
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let close: () => Promise<void>;
  let c: WrittenCluster;

  beforeAll(async () => {
    c = await writeGeneratedCluster({ nodes: 3, platform: 'flannel-vxlan', seed: 61, faults: ['stale-pa'] });
    ({ browser, page, errors, close } = await openNode(undefined, { cluster: c.dir, width: 1280, height: 800 }));
    await page.waitForSelector('[data-testid="cluster-graph"][data-nodes="3"]', { timeout: 60_000 });
  });

  afterAll(async () => {
    await close?.();
    await cleanupClusters();
  });

  it('shows the three nodes as groups, and the odd node\'s finding', async () => {
    for (const n of c.plan.nodes) await page.waitForSelector(`.react-flow__node[data-id="cnode:${n.host}"]`);
    expect(await page.locator('[data-testid="cluster-node"]').count()).toBe(3);
    const findings = await page.textContent('[data-testid="cluster-findings"]');
    expect(findings).toContain(`odd: ${c.plan.nodes[2].host}`);
    // The stale address the odd node still tunnels to is drawn as a path into nowhere.
    await page.waitForSelector(`.react-flow__node[data-id="cnowhere:${c.plan.expected.faults[0].objects[1]}"]`);
  });

  it('walks from a pod on node 0 to a pod on node 1 and lights both halves', async () => {
    const [n0, n1] = c.plan.nodes;
    await page.fill('[data-testid="cluster-walk-src"]', n0.podIps[0]);
    await page.fill('[data-testid="cluster-walk-dst"]', `${n1.podIps[1]}:80`);
    await page.click('[data-testid="cluster-walk-go"]');
    await page.waitForSelector('[data-testid="cluster-walk-verdict"]');
    expect(await page.textContent('[data-testid="cluster-walk-verdict"]')).toMatch(/^Delivered/);
    // Each node's half under its own name: node 0 sends and hands over, node 1 decapsulates and delivers.
    const legs = page.locator('[data-testid="cluster-walk"] [data-testid="cluster-leg"]');
    expect(await legs.count()).toBe(2);
    expect(await legs.nth(0).getAttribute('data-node')).toBe(n0.host);
    expect(await legs.nth(1).getAttribute('data-node')).toBe(n1.host);
    expect(await legs.nth(0).textContent()).toContain(`VXLAN VNI 4096 to provider address ${n1.nodeIp}`);
    expect(await legs.nth(1).textContent()).toContain('VXLAN decap');
    expect(await legs.nth(1).textContent()).toContain(`pod ${n1.podIps[1]}`);
    // What is lit, in the graph's own account, and drawn lit.
    const lit = ((await page.getAttribute('[data-testid="cluster-graph"]', 'data-lit-ids')) ?? '').split(' ');
    const want = [`cnode:${n0.host}`, `cnode:${n1.host}`, `cpod:${n0.host}:${n0.podIps[0]}`, `cpod:${n1.host}:${n1.podIps[1]}`, `cpath:${n0.host}>${n1.host}`];
    expect(lit).toEqual(expect.arrayContaining(want));
    expect(lit).not.toContain(`cnode:${c.plan.nodes[2].host}`);
    for (const id of want.slice(0, 4)) await page.waitForSelector(`.react-flow__node.cluster-lit[data-id="${id}"]`);
    await page.waitForSelector(`.react-flow__edge.cluster-lit[data-testid="rf__edge-cpath:${n0.host}>${n1.host}"]`, { state: 'attached' });
    // The reply is walked back and can be lit too.
    expect(await page.textContent('[data-testid="cluster-reply-verdict"]')).toMatch(/^Delivered/);
    await page.check('[data-testid="cluster-show-reply"]');
    await page.waitForFunction((id) => (document.querySelector('[data-testid="cluster-graph"]')?.getAttribute('data-lit-ids') ?? '').split(' ').includes(id), `cpath:${n1.host}>${n0.host}`);
    await shot(page, 'cluster-walk');
    expect(errors).toEqual([]);
  });

  it('a walk from the odd node meets the stale provider address: dropped, and the finding across nodes on the hand-over', async () => {
    const [n0, , odd] = c.plan.nodes;
    await page.fill('[data-testid="cluster-walk-src"]', odd.podIps[0]);
    await page.fill('[data-testid="cluster-walk-dst"]', `${n0.podIps[0]}:80`);
    await page.click('[data-testid="cluster-walk-go"]');
    await page.waitForSelector('[data-testid="cluster-walk-verdict"][data-caveat="error"]');
    const verdict = (await page.textContent('[data-testid="cluster-walk-verdict"]')) ?? '';
    expect(verdict).toMatch(/^Dropped, and /);
    expect(verdict).toContain(`on ${odd.host}, at the hand-over`);
    const across = page.locator('[data-testid="cluster-walk"] [data-testid="cluster-hop-finding"][data-across="true"]');
    // The stale RemoteSubnetRoute (and, when the destination is one of them, the remote endpoints kube-proxy made from it).
    const n = await across.count();
    expect(n).toBeGreaterThanOrEqual(1);
    for (let i = 0; i < n; i++) expect(await across.nth(i).getAttribute('data-node')).toBe(odd.host);
    expect(await across.first().textContent()).toContain(`tunnels ${n0.podSubnet}`);
    expect(await across.first().textContent()).toContain(c.plan.expected.faults[0].objects[1]);
    await shot(page, 'cluster-walk-stale');
    expect(errors).toEqual([]);
  });

  it('three zips picked together in a browser open as one cluster, and a walk crosses two of them', async () => {
    const zipped = await writeGeneratedCluster({ nodes: 3, platform: 'flannel-vxlan', seed: 62 }, { zip: 'flat' });
    const plain = await serve([]);
    const other = await openApp(browser, plain.url);
    try {
      await other.page.locator('[data-testid="upload-input"]').first().setInputFiles(zipped.paths);
      await other.page.waitForSelector('[data-testid="cluster-graph"][data-nodes="3"]', { timeout: 60_000 });
      expect(await other.page.textContent('.cluster-panel h3')).toContain('3 bundles opened together');
      const [n0, n1] = zipped.plan.nodes;
      await other.page.fill('[data-testid="cluster-walk-src"]', n0.podIps[0]);
      await other.page.fill('[data-testid="cluster-walk-dst"]', `${n1.podIps[0]}:80`);
      await other.page.click('[data-testid="cluster-walk-go"]');
      await other.page.waitForSelector('[data-testid="cluster-walk-verdict"]');
      expect(await other.page.textContent('[data-testid="cluster-walk-verdict"]')).toMatch(/^Delivered/);
      const legs = other.page.locator('[data-testid="cluster-walk"] [data-testid="cluster-leg"]');
      expect([await legs.nth(0).getAttribute('data-node'), await legs.nth(1).getAttribute('data-node')]).toEqual([n0.host, n1.host]);
      await other.page.waitForSelector(`.react-flow__node.cluster-lit[data-id="cnode:${n1.host}"]`);
      expect(other.errors).toEqual([]);
    } finally {
      await other.page.close();
      await plain.stop();
    }
  });

  it('opens a folder of bundles typed in the Open menu only under a folder allowed with --allow', async () => {
    const typeFolder = async (page: Page) => {
      await page.click('[data-testid="open-menu"]');
      await page.click('[data-testid="open-cluster"]');
      await page.fill('[role="dialog"][aria-label="Open a folder of bundles"] [data-testid="path-input"]', c.dir);
      await page.click('[data-testid="open-cluster-go"]');
    };
    const plain = await serve([]);
    const refused = await openApp(browser, plain.url);
    try {
      await typeFolder(refused.page);
      await refused.page.waitForSelector('text=/is not a bundle you chose/');
      expect(await refused.page.locator('[data-testid="cluster-graph"]').count()).toBe(0);
    } finally {
      await refused.page.close();
      await plain.stop();
    }
    const allowing = await serve([], { allow: [path.dirname(c.dir)] });
    const other = await openApp(browser, allowing.url);
    try {
      await typeFolder(other.page);
      await other.page.waitForSelector('[data-testid="cluster-graph"][data-nodes="3"]', { timeout: 60_000 });
      expect(await other.page.locator('[data-testid="cluster-node"]').count()).toBe(3);
      expect(other.errors).toEqual([]);
    } finally {
      await other.page.close();
      await allowing.stop();
    }
  });
});
