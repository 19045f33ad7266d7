// Platform nodes look like nodes of that platform: their host name, the host NIC's MAC, WinNAT's range
// outside the cluster's own ranges, and the vpc-bridge config naming the adapter the node has.
import { describe, expect, it } from 'vitest';
import { buildNode, bundleFiles, DEFAULT_SPEC, PLATFORMS, planCluster, type PlatformName } from '../../../tools/gen/index.ts';

const inCidr = (ip: string, cidr: string) => {
  const n = (x: string) => x.split('.').reduce((a, b) => a * 256 + Number(b), 0);
  const [base, len] = cidr.split('/');
  const size = 2 ** (32 - Number(len));
  return Math.floor(n(ip) / size) === Math.floor(n(base) / size);
};
const overlap = (a: string, b: string) => inCidr(a.split('/')[0], b) || inCidr(b.split('/')[0], a);
const text = (node: ReturnType<typeof buildNode>, path: string) => [...bundleFiles(node, { encoding: 'utf8', eol: 'lf', extras: true }).find((f) => f.path === path)!.content()].join('');

describe('platform realism', () => {
  const HOST: Record<PlatformName, RegExp> = {
    'flannel-host-gw': /^win-node-0$/,
    'flannel-vxlan': /^win-node-0$/,
    'azure-cni': /^akswin000000$/,
    'azure-cni-overlay': /^akswin000000$/,
    'eks-vpc-bridge': /^EC2AMAZ-[0-9A-Z]{7}$/,
    'calico-vxlan': /^win-node-0$/,
    'calico-bgp': /^win-node-0$/,
    antrea: /^win-node-0$/,
    'ovn-kubernetes': /^winworker-000$/,
    nat: /^win-node-0$/,
  };
  for (const p of PLATFORMS) {
    it(`${p}: a host name of its platform, WinNAT outside the cluster's ranges`, () => {
      const node = buildNode({ ...DEFAULT_SPEC, platform: p });
      expect(node.hostName).toMatch(HOST[p]);
      const nat = node.networks.find((n) => n.name === 'nat');
      if (nat && p !== 'nat') for (const c of [node.serviceCidr, node.clusterCidr].filter(Boolean)) expect(overlap(nat.subnet, c), `${nat.subnet} vs ${c}`).toBe(false);
    });
  }
  it('a node of no platform is not named like an AKS node (it is a plain l2bridge node)', () => {
    const node = buildNode({ ...DEFAULT_SPEC });
    expect(node.hostName).toBe('win-node-0');
    expect(buildNode({ ...DEFAULT_SPEC, network: 'overlay', pods: 250 }).hostName).not.toMatch(/^aks/i);
  });
  it('a host name given stays', () => {
    expect(buildNode({ ...DEFAULT_SPEC, hostName: 'my-node', platform: 'eks-vpc-bridge' }).hostName).toBe('my-node');
  });
  it("EKS: the ENI's MAC is locally administered (not Azure's 00-0D-3A), on the node and in a cluster", () => {
    const node = buildNode({ ...DEFAULT_SPEC, platform: 'eks-vpc-bridge' });
    expect(node.hostMac).toMatch(/^0E(-[0-9A-F]{2}){5}$/);
    for (const n of planCluster({ platform: 'eks-vpc-bridge', nodes: 3 }).nodes) expect(n.hostMac).toMatch(/^0E-/);
    expect(buildNode({ ...DEFAULT_SPEC, platform: 'azure-cni' }).hostMac).toMatch(/^00-0D-3A-/);
  });
  it('EKS: vpc-bridge.conf names the adapter the node has, behind its host vNIC', () => {
    const node = buildNode({ ...DEFAULT_SPEC, platform: 'eks-vpc-bridge' });
    const eni = JSON.parse(text(node, 'Amazon/EKS/cni/config/vpc-bridge.conf')).eniName as string;
    expect(node.compartments[0].adapters[0].name).toBe(`vEthernet (${eni})`);
    expect(text(node, 'netadapter.txt').split('\n').some((l) => l.startsWith(`${eni} `) && l.includes('Microsoft Hyper-V Network Adapter'))).toBe(true);
    expect(node.networks.find((n) => n.type === 'l2bridge')!.networkAdapterName).toBe(eni);
  });
});
