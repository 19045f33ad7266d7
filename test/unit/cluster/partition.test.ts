// Bundles of several clusters opened together are split into their clusters and each is checked on its
// own; a second bundle of a node is counted once. Before this, the three foreign bundles (three
// unrelated clusters) read as one cluster with an ERROR (a kubernetes Service "missing" on the AKS node)
// and 15 warnings, and one bundle copied twice held "its" pod subnet twice (ERROR).
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupClusters, loadGeneratedCluster } from '../../helpers/cluster.ts';
import { loadCluster } from '../../../services/cluster/load.ts';
import { buildClusterModel, runClusterChecks, summarizeFleet, walkAcross } from '../../../analysis/cluster/index.ts';
import { apiServiceOf } from '../../../analysis/cluster/partition.ts';

afterAll(cleanupClusters);

const FOREIGN = path.resolve(__dirname, '../../fixtures/foreign');
const bundle = (name: string) => ({ path: path.join(FOREIGN, name), name, kind: 'folder' as const });

describe('bundles of several clusters', () => {
  it('the three foreign bundles are three clusters: said once, no false error', async () => {
    const { cluster } = await loadCluster([bundle('aks-win-zip-2025'), bundle('ws2019-flannel-l2bridge-2020'), bundle('ws2022-overlay-2024')]);
    expect(cluster.parts.map((p) => p.nodes.map((n) => n.id))).toEqual([['akswin000002'], ['win-k8s-n01'], ['k8s-win22-02']]);
    const fs = runClusterChecks(cluster);
    expect(fs.map((f) => [f.id, f.severity])).toEqual([['cluster-several-clusters', 'warning']]);
    // Why: another kubernetes Service VIP (AKS 10.0.0.1, kubeadm 10.96.0.1), and the same VIP sent to other API servers.
    expect(fs[0].explanation).toContain('the kubernetes Service is 10.0.0.1 on one and 10.96.0.1 on the other');
    expect(fs[0].explanation).toContain('API server 192.168.30.10 on one and 10.0.1.4 on the other');
    expect(fs[0].evidence.map((e) => [e.node, e.text])).toEqual([
      ['akswin000002', '"10.0.0.1"'],
      ['win-k8s-n01', '"10.96.0.1"'],
      ['k8s-win22-02', '"10.96.0.1"'],
    ]);
    // No join resolves across clusters.
    expect(cluster.joins.filter((j) => j.resolved && j.to !== j.from)).toEqual([]);
    // A walk stays in its source's cluster: 10.244.2.10 is in k8s-win22-02's pod subnet, but in another cluster.
    const w = walkAcross(cluster, { srcIp: '10.244.3.5', dstIp: '10.244.2.10', dstPort: 80, proto: 'tcp' });
    expect(w.handovers.map((h) => [h.to, h.note.includes('k8s-win22-02')])).toEqual([[undefined, false]]);
    expect(w.caveats.some((x) => x.text.includes("the walk stays in win-k8s-n01's"))).toBe(true);
    // The fleet measures each node against its own cluster: three clusters of one node, no numeric outlier.
    const s = summarizeFleet(cluster.nodes.map((n) => n.digest));
    expect(s.outliers).toEqual([]);
    expect(s.consistency.map((f) => f.id)).toEqual(['cluster-several-clusters']);
  });

  it('a bundle copied twice is one node: counted once, no subnet conflict with itself', async () => {
    const b = bundle('ws2022-overlay-2024');
    const { cluster, findings } = await loadCluster([b, { ...b, name: 'copy' }]);
    expect(cluster.nodes.map((n) => n.id)).toEqual(['k8s-win22-02']);
    expect(findings.get('k8s-win22-02')).toBeDefined();
    const fs = runClusterChecks(cluster);
    expect(fs.map((f) => [f.id, f.severity])).toEqual([['cluster-duplicate-bundle', 'warning']]);
    expect(fs[0].title).toContain('is a second bundle of k8s-win22-02: counted once');
    // The fleet counts it once too.
    const s = summarizeFleet([cluster.nodes[0].digest, { ...cluster.nodes[0].digest, id: 'k8s-win22-02 (2)' }]);
    expect(s.nodes.map((n) => n.host)).toEqual(['k8s-win22-02']);
    expect(s.consistency.map((f) => f.id)).toEqual(['cluster-duplicate-bundle']);
  });

  it('one cluster stays one: a node with another plugin that its peers tunnel to is compared, not split off', async () => {
    const c = await loadGeneratedCluster({ nodes: 3, platform: 'flannel-vxlan', seed: 51 });
    const ds = c.cluster.nodes.map((n) => n.digest);
    expect(apiServiceOf(ds[0])?.backends.length).toBeGreaterThan(0);
    ds[2].identity = { ...ds[2].identity, plugin: 'calico-vxlan', platformLabel: 'Calico VXLAN' };
    const m = buildClusterModel(ds.map((digest) => ({ digest })));
    expect(m.parts).toHaveLength(1);
    expect(runClusterChecks(m).map((f) => f.id)).toEqual(['cluster-plugin-differs']);
  });

  it('a node whose kubernetes Service is another VIP is of another cluster, even if an address joins it', async () => {
    const c = await loadGeneratedCluster({ nodes: 3, platform: 'flannel-vxlan', seed: 52 });
    const ds = c.cluster.nodes.map((n) => n.digest);
    ds[2].kubernetesVip = '10.0.0.1';
    const m = buildClusterModel(ds.map((digest) => ({ digest })));
    expect(m.parts.map((p) => p.nodes.map((n) => n.id))).toEqual([[ds[0].id, ds[1].id], [ds[2].id]]);
    expect(m.apart[0].why).toMatch(/the kubernetes Service is 10\.\S+ on one and 10\.0\.0\.1 on the other/);
  });

  it('kubectl snapshots that list different Nodes are two clusters', async () => {
    const c = await loadGeneratedCluster({ nodes: 4, platform: 'azure-cni', seed: 53 });
    const ds = c.cluster.nodes.map((n) => n.digest);
    // No kubernetes Service known (kube-proxy's load balancers not in the bundles): only the snapshots say.
    for (const d of ds) d.lbs = { keys: [], dips: [], flags: [], lines: [], files: [] };
    ds.forEach((d, i) => (d.k8sNodes = i < 2 ? [{ name: ds[0].id, addresses: [], podCidrs: [] }, { name: ds[1].id, addresses: [], podCidrs: [] }] : [{ name: ds[2].id, addresses: [], podCidrs: [] }, { name: ds[3].id, addresses: [], podCidrs: [] }]));
    const m = buildClusterModel(ds.map((digest) => ({ digest })));
    expect(m.parts.map((p) => p.nodes.map((n) => n.id))).toEqual([[ds[0].id, ds[1].id], [ds[2].id, ds[3].id]]);
    expect(m.apart[0].why).toBe('their kubectl snapshots list different Nodes');
  });
});
