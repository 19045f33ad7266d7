// The cluster model over generated clusters of every platform: each node is known by the addresses its
// own bundle gives, owns the pod subnet the generator gave it, and every belief a node holds about a
// peer (remote subnet, host route, remote endpoint, Node object) resolves to the peer the generator
// made — unless a cluster fault made it stale, which the join then says.
import { afterAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { cleanupClusters, loadGeneratedCluster, writeGeneratedCluster } from '../../helpers/cluster.ts';
import { loadCluster } from '../../../services/cluster/load.ts';
import { discoverBundles } from '../../../services/cluster/discover.ts';
import { buildClusterModel } from '../../../analysis/cluster/index.ts';
import type { PlatformName } from '../../../tools/gen/index.ts';

afterAll(cleanupClusters);

const PLATFORMS: PlatformName[] = ['flannel-host-gw', 'flannel-vxlan', 'azure-cni', 'azure-cni-overlay', 'eks-vpc-bridge', 'calico-vxlan', 'calico-bgp', 'ovn-kubernetes', 'antrea'];

describe('cluster model of a generated cluster', () => {
  for (const platform of PLATFORMS) {
    it(`${platform}: nodes known by their addresses, subnets owned, every peer join resolved`, async () => {
      const c = await loadGeneratedCluster({ nodes: 3, platform, seed: 11 });
      expect(c.failed).toEqual([]);
      expect(c.cluster.nodes.map((n) => n.id)).toEqual(c.plan.nodes.map((n) => n.host));
      for (const p of c.plan.nodes) {
        const n = c.cluster.byId(p.host)!;
        expect(n.identity.nodeIp).toBe(p.nodeIp);
        expect(c.cluster.nodeOfAddress(p.nodeIp)?.id).toBe(p.host);
        for (const ip of p.podIps) expect(c.cluster.nodeOfPod(ip)?.id, ip).toBe(p.host);
        // Azure CNI and EKS pods live in a subnet their node shares with others: no node owns it.
        if (platform !== 'azure-cni') expect(c.cluster.ownerOfSubnet(p.podSubnet)?.id).toBe(p.host);
        expect(n.identity.k8sNode).toBe(p.nodeName);
        if (p.drMac) expect(n.identity.drMac).toBe(p.drMac);
      }
      const peerJoins = c.cluster.joins.filter((j) => j.kind === 'remote-subnet' || j.kind === 'host-route');
      const expectPeers = platform === 'flannel-vxlan' || platform === 'calico-vxlan' || platform === 'ovn-kubernetes' || platform === 'flannel-host-gw' || platform === 'calico-bgp' || platform === 'antrea';
      expect(peerJoins.length).toBe(expectPeers ? 6 : 0);
      for (const j of peerJoins) {
        expect(j.resolved, `${j.from}: ${j.what} ${j.note ?? ''}`).toBe(true);
        expect(j.to).toBe(c.cluster.ownerOfSubnet(j.key)?.id);
      }
      // Remote endpoints resolve, except the API server's, which no node's bundle holds.
      const apiServer = c.plan.expected.services.find((s) => s.name === 'default/kubernetes')!.backends[0];
      for (const j of c.cluster.joins.filter((x) => x.kind === 'remote-endpoint')) {
        if (j.what.includes(apiServer)) expect(j.resolved).toBe(false);
        else expect(j.resolved, `${j.from}: ${j.what} ${j.note ?? ''}`).toBe(true);
      }
      const k8s = c.cluster.joins.filter((x) => x.kind === 'k8s-node');
      expect(k8s.map((j) => j.to).sort()).toEqual(c.plan.nodes.map((n) => n.host).sort());
      // The same Services on every node (Antrea programs none: AntreaProxy).
      if (platform !== 'antrea') for (const s of c.cluster.services) expect(s.nodes.length, s.key).toBe(3);
    });
  }

  it('stale-pa: the odd node\'s remote subnet and remote endpoints do not resolve, and say whose pods they are', async () => {
    const c = await loadGeneratedCluster({ nodes: 4, platform: 'flannel-vxlan', seed: 5, faults: ['stale-pa'] });
    const odd = c.plan.nodes[3].host;
    const n0 = c.plan.nodes[0];
    const bad = c.cluster.joins.filter((j) => !j.resolved && j.from === odd && j.kind !== 'remote-endpoint');
    expect(bad).toHaveLength(1);
    expect(bad[0].key).toBe(n0.podSubnet);
    expect(bad[0].note).toContain(`belongs to ${n0.host} (${n0.nodeIp})`);
    const eps = c.cluster.joins.find((j) => !j.resolved && j.from === odd && j.kind === 'remote-endpoint' && j.note?.includes(n0.host));
    expect(eps?.note).toContain('is no open node, but the pods live on');
    // Nobody else is wrong about node 0.
    expect(c.cluster.joins.filter((j) => !j.resolved && j.from !== odd && j.kind !== 'remote-endpoint')).toEqual([]);
  });

  it('stale-pa on host-gw: the odd node routes the subnet via an address no node has', async () => {
    const c = await loadGeneratedCluster({ nodes: 3, platform: 'flannel-host-gw', seed: 6, faults: ['stale-pa'] });
    const bad = c.cluster.joins.filter((j) => j.kind === 'host-route' && !j.resolved);
    expect(bad.map((j) => j.from)).toEqual([c.plan.nodes[2].host]);
    expect(bad[0].what).toContain(`${c.plan.nodes[0].podSubnet} via ${c.plan.expected.faults[0].objects[1]}`);
  });

  it('a Windows Node of the snapshot whose bundle is not open is an unresolved join', async () => {
    const w = await writeGeneratedCluster({ nodes: 3, platform: 'calico-vxlan', seed: 8 });
    const d = await discoverBundles(w.dir);
    const { cluster } = await loadCluster(d.bundles.slice(0, 2));
    const missing = w.plan.nodes[2];
    const j = cluster.joins.find((x) => x.kind === 'k8s-node' && x.key === missing.nodeName)!;
    expect(j.resolved).toBe(false);
    expect(j.note).toContain('no open bundle');
    // Both open nodes tunnel to it: those joins are kept, unresolved, with the owner unknown.
    const rs = cluster.joins.filter((x) => x.kind === 'remote-subnet' && x.key === missing.podSubnet);
    expect(rs).toHaveLength(2);
    for (const x of rs) expect([x.resolved, x.note]).toEqual([false, `no open bundle has address ${missing.nodeIp} (a node whose bundle is not open, or a Linux node)`]);
  });

  it('an address two nodes claim names neither; two bundles of one host get distinct ids', async () => {
    const c = await loadGeneratedCluster({ nodes: 2, platform: 'flannel-vxlan', seed: 9 });
    const [a, b] = c.cluster.nodes;
    a.digest.identity.addresses.push('192.168.255.1');
    b.digest.identity.addresses.push('192.168.255.1');
    b.digest.id = a.digest.id;
    const again = buildClusterModel([{ digest: a.digest }, { digest: b.digest }]);
    expect(again.nodeOfAddress('192.168.255.1')).toBeUndefined();
    expect(again.sharedAddresses).toEqual([{ address: '192.168.255.1', nodes: [a.id, `${a.id} (2)`] }]);
    expect(again.nodes.map((n) => n.id)).toEqual([a.id, `${a.id} (2)`]);
    expect(path.basename(again.nodes[1].bundle)).toBe(path.basename(c.paths[1]));
  });
});
