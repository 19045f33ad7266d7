// The cluster methods of the contract, through the backend's dispatch: a folder of generated bundles
// opened as a cluster, its graph (node groups, the paths between them, a stale provider address as a
// path into nowhere), and a walk across nodes with what it lights.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Backend } from '../../../services/backend/backend.ts';
import { cleanupClusters, writeGeneratedCluster, type WrittenCluster } from '../../helpers/cluster.ts';

let dir: string;
let backend: Backend;
let c: WrittenCluster;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'hnsight-backend-cluster-'));
  c = await writeGeneratedCluster({ nodes: 3, platform: 'flannel-vxlan', seed: 51, faults: ['stale-pa'] });
  // As `hnsight serve DIR`: the folder named on the command line is the user's choice.
  backend = new Backend({ mode: 'browser', dataDir: dir, initialCluster: c.dir });
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await cleanupClusters();
});

describe('openCluster, getClusterGraph, walkAcross', () => {
  it('opens a folder of bundles; the graph has a group per node, paths between them and the stale address', async () => {
    const opened = await backend.invoke('openCluster', { path: c.dir });
    expect(opened.nodes.map((n) => n.id)).toEqual(c.plan.nodes.map((n) => n.host));
    expect(opened.findings.map((f) => f.id)).toContain('cluster-stale-provider-address');
    const g = await backend.invoke('getClusterGraph', { clusterId: opened.clusterId });
    const [n0, n1, odd] = c.plan.nodes;
    for (const n of c.plan.nodes) {
      expect(g.nodes.find((x) => x.id === `cnode:${n.host}`)).toMatchObject({ kind: 'node', label: n.host });
      for (const ip of n.podIps) expect(g.nodes.find((x) => x.id === `cpod:${n.host}:${ip}`)?.parent).toBe(`cnode:${n.host}`);
    }
    expect(g.nodes.find((x) => x.id === `cnode:${odd.host}`)?.odd).toBeGreaterThan(0);
    expect(g.edges.find((e) => e.id === `cpath:${n0.host}>${n1.host}`)).toMatchObject({ kind: 'vxlan', label: `VXLAN ${n1.nodeIp}` });
    const stale = c.plan.expected.faults[0].objects[1];
    expect(g.nodes.find((x) => x.id === `cnowhere:${stale}`)?.kind).toBe('nowhere');
    expect(g.edges.find((e) => e.source === `cnode:${odd.host}` && e.target === `cnowhere:${stale}`)?.kind).toBe('unresolved');
    expect(g.edges.some((e) => e.id === `cpath:${odd.host}>${n0.host}`)).toBe(false);

    const w = await backend.invoke('walkAcross', { clusterId: opened.clusterId, srcIp: n0.podIps[0], dstIp: n1.podIps[0], dstPort: 80, proto: 'tcp', reply: true });
    expect(w.verdict).toBe('delivered');
    expect(w.lit).toEqual(expect.arrayContaining([`cnode:${n0.host}`, `cnode:${n1.host}`, `cpod:${n0.host}:${n0.podIps[0]}`, `cpod:${n1.host}:${n1.podIps[0]}`, `cpath:${n0.host}>${n1.host}`]));
    expect(w.replyLit).toEqual(expect.arrayContaining([`cnode:${n1.host}`, `cnode:${n0.host}`]));
    const lost = await backend.invoke('walkAcross', { clusterId: opened.clusterId, srcIp: odd.podIps[0], dstIp: n0.podIps[0], dstPort: 80, proto: 'tcp' });
    expect(lost.verdict).toBe('dropped');
    expect(lost.lit).toEqual(expect.arrayContaining([`cnode:${odd.host}`, `cnowhere:${stale}`]));
  });

  it('opens only what the user chose: a folder or files the page names are refused, the same under a folder allowed with --allow pass', async () => {
    const stranger = new Backend({ mode: 'browser', dataDir: path.join(dir, 'stranger') });
    expect(await stranger.call('openCluster', { path: c.dir })).toMatchObject({ ok: false, kind: 'refused', error: expect.stringMatching(/is not a bundle you chose/) });
    expect(await stranger.call('openCluster', { paths: c.paths })).toMatchObject({ ok: false, kind: 'refused' });
    expect(await stranger.call('openCluster', { path: '/etc' })).toMatchObject({ ok: false, kind: 'refused' });
    const allowed = new Backend({ mode: 'browser', dataDir: path.join(dir, 'allowed'), allowedRoots: [path.dirname(c.dir)] });
    expect((await allowed.invoke('openCluster', { paths: c.paths })).nodes).toHaveLength(3);
  });

  it('refuses a single bundle and names an unknown cluster', async () => {
    const allowed = new Backend({ mode: 'browser', dataDir: path.join(dir, 'allowed-one'), allowedRoots: [path.dirname(c.dir)] });
    const one = await allowed.call('openCluster', { path: c.paths[0] });
    expect(one).toMatchObject({ ok: false, kind: 'invalid' });
    const gone = await backend.call('getClusterGraph', { clusterId: 'cluster-0-x' });
    expect(gone).toMatchObject({ ok: false, kind: 'not-found' });
  });
});
