// Cross-node consistency over generated clusters: a healthy cluster of any plugin gives no finding; each
// cluster fault the generator injects on the last node is found, names that node as the odd one out
// and the others as the majority (or the node that says the truth), and quotes the lines of both.
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupClusters, loadGeneratedCluster } from '../../helpers/cluster.ts';
import { buildClusterModel, runClusterChecks, majorityOf } from '../../../analysis/cluster/index.ts';
import type { NodeDigest } from '../../../analysis/cluster/index.ts';
import type { PlatformName } from '../../../tools/gen/index.ts';

afterAll(cleanupClusters);

const PLATFORMS: PlatformName[] = ['flannel-host-gw', 'flannel-vxlan', 'azure-cni', 'azure-cni-overlay', 'eks-vpc-bridge', 'calico-vxlan', 'calico-bgp', 'ovn-kubernetes', 'antrea'];

describe('cross-node consistency', () => {
  for (const platform of PLATFORMS) {
    it(`a healthy ${platform} cluster: nothing to say`, async () => {
      const c = await loadGeneratedCluster({ nodes: 3, platform, seed: 31 });
      expect(runClusterChecks(c.cluster).map((f) => `${f.id}: ${f.title}`)).toEqual([]);
    });
  }

  it('stale-pa (VXLAN): the odd node\'s RemoteSubnetRoute and its remote endpoints, against the owner\'s own address', async () => {
    const c = await loadGeneratedCluster({ nodes: 4, platform: 'flannel-vxlan', seed: 32, faults: ['stale-pa'] });
    const [n0, n1, n2, odd] = c.plan.nodes;
    const stale = c.plan.expected.faults[0].objects[1];
    const fs = runClusterChecks(c.cluster);
    expect(fs.map((f) => f.id).sort()).toEqual(['cluster-remote-endpoint-pa', 'cluster-stale-provider-address']);
    const pa = fs.find((f) => f.id === 'cluster-stale-provider-address')!;
    expect(pa.severity).toBe('error');
    expect(pa.nodes.odd).toEqual([odd.host]);
    expect(pa.nodes.majority.sort()).toEqual([n0.host, n1.host, n2.host].sort());
    expect(pa.title).toContain(`${n0.podSubnet} (${n0.host}'s pods) to ${stale}; ${n0.host} is at ${n0.nodeIp}`);
    // The odd node's own line names the stale address; the owner's own line names its real one.
    expect(pa.evidence.find((e) => e.node === odd.host)!.text).toContain(stale);
    expect(pa.evidence.find((e) => e.node === n0.host)!.text).toContain(n0.nodeIp);
    expect(pa.trace).toEqual({ srcIp: odd.podIps[0], dstIp: n0.podIps[0], dstPort: 80, proto: 'tcp' });
    const ep = fs.find((f) => f.id === 'cluster-remote-endpoint-pa')!;
    expect(ep.nodes.odd).toEqual([odd.host]);
    // The owner and the nodes whose remote endpoints of its pods name its address agree.
    expect(ep.nodes.majority.sort()).toEqual([n0.host, n1.host, n2.host].sort());
    expect(ep.nodes.total).toBe(4);
    expect(ep.evidence[0].text).toContain(stale);
  });

  it('stale-pa (host-gw): the odd node routes the subnet elsewhere', async () => {
    const c = await loadGeneratedCluster({ nodes: 3, platform: 'flannel-host-gw', seed: 33, faults: ['stale-pa'] });
    const [n0, n1, odd] = c.plan.nodes;
    const fs = runClusterChecks(c.cluster);
    expect(fs.map((f) => f.id)).toEqual(['cluster-stale-host-route']);
    expect(fs[0].nodes).toMatchObject({ odd: [odd.host], majority: [n0.host, n1.host] });
    expect(fs[0].evidence[0]).toMatchObject({ node: odd.host, file: 'routes.txt' });
    expect(fs[0].evidence[0].text).toContain(c.plan.expected.faults[0].objects[1]);
  });

  it('missing-lb: the node without the Service\'s load balancers, one finding for its ports', async () => {
    const c = await loadGeneratedCluster({ nodes: 3, platform: 'calico-vxlan', seed: 34, faults: ['missing-lb'] });
    const odd = c.plan.nodes[2];
    const vip = c.plan.expected.faults[0].objects[1];
    const fs = runClusterChecks(c.cluster);
    expect(fs.map((f) => f.id)).toEqual(['cluster-lb-missing']);
    expect(fs[0].nodes.odd).toEqual([odd.host]);
    expect(fs[0].nodes.majority).toHaveLength(2);
    for (const o of fs[0].objects.filter((x) => x.includes(':'))) expect(o.startsWith(`${vip}:`)).toBe(true);
    expect(fs[0].evidence.filter((e) => e.node !== odd.host).every((e) => e.text.includes(vip))).toBe(true);
  });

  it('exception-list-differs: an entry the others have is missing (error); an extra one (warning)', async () => {
    const hg = await loadGeneratedCluster({ nodes: 3, platform: 'flannel-host-gw', seed: 35, faults: ['exception-list-differs'] });
    const f1 = runClusterChecks(hg.cluster);
    expect(f1.map((f) => [f.id, f.severity])).toEqual([['cluster-exceptions-differ', 'error']]);
    expect(f1[0].nodes.odd).toEqual([hg.plan.nodes[2].host]);
    expect(f1[0].title).toContain('lack 10.240.0.0/16');
    const az = await loadGeneratedCluster({ nodes: 3, platform: 'azure-cni-overlay', seed: 35, faults: ['exception-list-differs'] });
    const f2 = runClusterChecks(az.cluster);
    expect(f2.map((f) => [f.id, f.severity])).toEqual([['cluster-exceptions-differ', 'warning']]);
    expect(f2[0].title).toContain('add 192.168.0.0/16');
  });

  it('other-build: the node on another Windows build', async () => {
    const c = await loadGeneratedCluster({ nodes: 3, platform: 'azure-cni', seed: 36, faults: ['other-build'] });
    const fs = runClusterChecks(c.cluster);
    expect(fs.map((f) => f.id)).toEqual(['cluster-windows-build-differs']);
    expect(fs[0].nodes.odd).toEqual([c.plan.nodes[2].host]);
    expect(fs[0].title).toContain('10.0.17763');
  });

  it('the Windows build keeps its update build revision, and a revision drift is named; an unknown revision is not compared', async () => {
    const c = await loadGeneratedCluster({ nodes: 3, platform: 'azure-cni', seed: 39 });
    const ds = c.cluster.nodes.map((n) => n.digest);
    // winver.txt says `NT 10.0.20348.0` and `Build revision 2340` (the registry's UBR).
    expect(ds.map((d) => d.versions.windows)).toEqual(['10.0.20348.2340', '10.0.20348.2340', '10.0.20348.2340']);
    ds[2].versions.windows = '10.0.20348.2113';
    const fs = runClusterChecks(buildClusterModel(ds.map((digest) => ({ digest }))));
    expect(fs.map((f) => f.id)).toEqual(['cluster-windows-build-differs']);
    expect(fs[0].nodes).toMatchObject({ odd: [ds[2].id], majorityValue: '10.0.20348.2340' });
    expect(fs[0].explanation).toContain('update build revision');
    // A bundle without the revision (CollectLogs' OSVersion line only: `.0`) cannot say: builds are compared without it.
    ds[0].versions.windows = '10.0.20348.0';
    expect(runClusterChecks(buildClusterModel(ds.map((digest) => ({ digest })))).map((f) => f.id)).toEqual([]);
  });

  it('every fault at once names the same odd node each time', async () => {
    const c = await loadGeneratedCluster({ nodes: 5, platform: 'ovn-kubernetes', seed: 37, faults: ['stale-pa', 'missing-lb', 'exception-list-differs', 'other-build'] });
    const odd = c.plan.nodes[4].host;
    const fs = runClusterChecks(c.cluster);
    expect(new Set(fs.map((f) => f.id))).toEqual(new Set(['cluster-stale-provider-address', 'cluster-remote-endpoint-pa', 'cluster-lb-missing', 'cluster-exceptions-differ', 'cluster-windows-build-differs']));
    for (const f of fs) expect(f.nodes.odd, f.id).toEqual([odd]);
  });
});

describe('cross-node consistency on digests (what a fleet run keeps)', () => {
  async function digests(): Promise<NodeDigest[]> {
    const c = await loadGeneratedCluster({ nodes: 3, platform: 'flannel-vxlan', seed: 38 });
    return c.cluster.nodes.map((n) => n.digest);
  }

  it('a DR MAC the owner does not have, with the right provider address', async () => {
    const ds = await digests();
    const owner = ds[0];
    const r = ds[2].remoteSubnets.find((x) => x.prefix === owner.identity.podSubnets[0].prefix)!;
    r.drMac = '00-15-5D-00-00-99';
    const fs = runClusterChecks(buildClusterModel(ds.map((digest) => ({ digest }))));
    expect(fs.map((f) => f.id)).toEqual(['cluster-stale-dr-mac']);
    expect(fs[0].nodes.odd).toEqual([ds[2].id]);
    expect(fs[0].nodes.majorityValue).toBe(owner.identity.drMac);
    // Without the models, evidence is the file and line only.
    expect(fs[0].evidence[0]).toMatchObject({ node: ds[2].id, file: 'network.txt', text: '' });
  });

  it('kube-proxy flags: one that differs on a minority is named; one that every node has its own of is not', async () => {
    const ds = await digests();
    ds.forEach((d, i) => (d.kubeProxyFlags = { file: 'kubeproxy.log', flags: { 'feature-gates': i === 1 ? '' : 'WinDSR=true', 'hostname-override': d.id, 'source-vip': `10.244.${i + 1}.2` } }));
    const fs = runClusterChecks(buildClusterModel(ds.map((digest) => ({ digest }))));
    expect(fs.map((f) => f.id)).toEqual(['cluster-kube-proxy-flag-differs']);
    expect(fs[0].title).toContain('--feature-gates');
    expect(fs[0].nodes).toMatchObject({ odd: [ds[1].id], majorityValue: 'WinDSR=true' });
  });

  it('a node whose load balancer has a backend the others dropped', async () => {
    const ds = await digests();
    const i = ds[1].lbs.keys.findIndex((k) => !k.startsWith('NodePort'));
    ds[1].lbs.dips[i] = `${ds[1].lbs.dips[i]},10.244.9.9`;
    const fs = runClusterChecks(buildClusterModel(ds.map((digest) => ({ digest }))));
    expect(fs.map((f) => [f.id, f.severity])).toEqual([['cluster-lb-backends-differ', 'error']]);
    expect(fs[0].title).toContain('also sends to 10.244.9.9');
    expect(fs[0].nodes.odd).toEqual([ds[1].id]);
  });

  it('no majority, nobody odd', () => {
    expect(majorityOf([{ node: 'a', value: '1' }, { node: 'b', value: '2' }])).toBeUndefined();
    expect(majorityOf([{ node: 'a', value: '1' }, { node: 'b', value: '1' }, { node: 'c', value: '2' }, { node: 'd', value: '2' }])).toBeUndefined();
    expect(majorityOf([{ node: 'a', value: '1' }, { node: 'b', value: '1' }, { node: 'c', value: '2' }])).toEqual({ value: '1', nodes: ['a', 'b'], odd: [{ node: 'c', value: '2' }] });
  });
});
