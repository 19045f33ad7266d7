// What names a node and what it owns, read from its own bundle only: its host name, its address and
// provider address, its DR MAC and VNI (what its peers' RemoteSubnetRoutes must name), the host
// compartment's addresses, and the pod subnets it holds. Facts, with the plugin sources that make them
// the join keys:
// - Flannel VXLAN publishes its lease with PublicIP = the node's external address and VtepMAC = the HNS
//   network's DrMacAddress (flannel-io/flannel pkg/backend/vxlan/vxlan_windows.go RegisterNetwork); every
//   peer programs RemoteSubnetRoute{DestinationPrefix: lease subnet, ProviderAddress: PublicIP,
//   DistributedRouterMacAddress: VtepMAC, IsolationId: VNI} (vxlan_network_windows.go handleSubnetEvents).
// - Calico VXLAN: Felix programs {ProviderAddress: vtep.ParentDeviceIp, DistributedRouterMacAddress:
//   vtep.Mac, DestinationPrefix: the block} (projectcalico/calico felix/dataplane/windows/vxlan_mgr.go);
//   the Windows CNI sets the Node's VXLANTunnelMACAddr from the HNS network's DrMacAddress when its
//   ProviderAddress is the management IP (cni-plugin/pkg/dataplane/windows/dataplane_windows.go GetDRMACAddr).
// - Flannel host-gw routes a peer's pod CIDR via the peer's PublicIP (pkg/backend/route_network_windows.go).
import type { NodeModel } from '../../parsers/model/types.ts';
import type { HnsNetwork } from '../../parsers/hns/index.ts';
import { detectPlatform, factsOf, nodeAddress, podNetworkOf } from '../platform/index.ts';
import { k8sNames } from '../k8s/index.ts';
import { canonIp, familyOf, inCidr } from '../walk/ip.ts';
import { normalizeMac } from '../../parsers/net/mac.ts';
import type { CrossNode, NodeIdentity } from './node-identity.ts';

const apipa = (ip: string) => ip.startsWith('169.254.') || ip.startsWith('127.');
const normMac = (m: string | undefined) => (m ? normalizeMac(m, { anySeparators: true }) ?? m.toUpperCase() : undefined);

/** The subnets of networks that never carry a node's own address (WinNAT's internal network). */
function natSubnets(m: NodeModel): HnsNetwork['subnets'] {
  return (m.networks ?? []).filter((n) => n.type === 'nat' || n.type === 'ics').flatMap((n) => n.subnets);
}

export function nodeIdentity(m: NodeModel, fallbackName: string): NodeIdentity {
  const platform = detectPlatform(m);
  const pod = podNetworkOf(m);
  const nodeIp = nodeAddress(m);
  const facts = factsOf(platform.plugin);
  const crossNode: CrossNode = facts ? facts.crossNode.how : 'unknown';
  const addresses = new Set<string>();
  if (nodeIp) addresses.add(nodeIp);
  if (pod?.providerAddress) addresses.add(pod.providerAddress);
  const nat = natSubnets(m);
  const inNat = (ip: string) => nat.some((s) => inCidr(ip, s.prefix));
  const host = m.ip?.compartments.find((c) => c.id === 1) ?? m.ip?.compartments[0];
  for (const a of host?.adapters ?? []) {
    if (/\(nat\)/i.test(a.name)) continue;
    for (const x of a.ipv4) if (!apipa(x.address) && !inNat(x.address)) addresses.add(x.address);
  }
  // Antrea moves the node address to its OVS bridge (br-int): the host adapter with the default gateway.
  const gwAdapter = nodeIp ? undefined : host?.adapters.find((a) => !/\(nat\)/i.test(a.name) && a.gateways.some((g) => familyOf(g) === 4) && a.ipv4.some((x) => !apipa(x.address) && !inNat(x.address)));
  const ownIp = nodeIp ?? gwAdapter?.ipv4.find((x) => !apipa(x.address) && !inNat(x.address))?.address;
  const hostVnic = (m.ports ?? []).find((p) => p.role === 'host-vnic' && p.mac);
  const podSubnets: NodeIdentity['podSubnets'] = [];
  for (const s of pod?.subnets ?? []) if (familyOf(s.prefix.split('/')[0]) === 4) podSubnets.push({ prefix: s.prefix, from: 'hns', src: pod!.src });
  const names = k8sNames(m);
  const me = names.thisNode;
  for (const c of me?.podCidrs ?? []) if (familyOf(c.split('/')[0]) === 4 && !podSubnets.some((p) => p.prefix === c)) podSubnets.push({ prefix: c, from: 'kubectl', src: me!.src });
  const vni = pod?.subnets.find((s) => s.vsid !== undefined)?.vsid;
  return {
    host: m.meta.hostName ?? fallbackName,
    nodeIp: ownIp,
    providerAddress: canonIp(pod?.providerAddress),
    drMac: normMac(pod?.drMac),
    vni,
    hostMac: normMac(hostVnic?.mac),
    addresses: [...addresses].map((a) => canonIp(a) ?? a),
    podSubnets,
    k8sNode: me?.name,
    plugin: platform.plugin,
    platformLabel: platform.label,
    crossNode,
    windowsBuild: m.meta.windowsBuild,
    src: pod?.src,
  };
}
