// The HNS networks of a generated node: WinNAT's, the pod network (l2bridge, overlay or the platform's),
// and a platform's infrastructure networks. Split out of buildNode (build.ts); the draws from `rNet` and
// `rIds` happen in the same order as before, so every bundle is byte-identical (tools/gen-fingerprint.ts).
import type { Rng } from './prng.ts';
import { cidrBlock, hostAt, ipToInt } from './net.ts';
import type { Addressing, PlatformProfile } from './platforms.ts';
import type { ClusterNodeContext, HnsNetwork, ResolvedSpec } from './types.ts';

export interface NetworkInputs {
  prof: PlatformProfile | undefined;
  spec: ResolvedSpec;
  cluster: ClusterNodeContext | undefined;
  rNet: Rng;
  rIds: Rng;
  addr: Addressing | undefined;
  serviceCidr: string;
  clusterCidr: string;
  nodeSubnet: string;
  nodeGateway: string;
  nodeIp: string;
  /** The pod subnet as drawn (a nat node's pods live in the NAT subnet instead: the caller sets it). */
  podSubnet: string;
  netName: string;
  remoteNodes: { podSubnet: string; ip: string; drMac: string }[];
  isL2: boolean;
}

export function buildNetworks(x: NetworkInputs): { natNet: HnsNetwork; natSubnet: string; k8sNet: HnsNetwork; networks: HnsNetwork[] } {
  const { prof, spec, cluster, rNet, rIds, addr, serviceCidr, clusterCidr, nodeSubnet, nodeGateway, nodeIp, podSubnet, netName, remoteNodes, isL2 } = x;
  // WinNAT's default range is inside 172.16.0.0/12; the draw moves to the next /16 that is none of the
  // cluster's own ranges (EKS services live in 172.20.0.0/16, OpenShift's in 172.30.0.0/16).
  const drawnNat = { b: rNet.int(17, 30), c: rNet.pick([16, 32, 48, 64, 80]) };
  const taken = [serviceCidr, clusterCidr, nodeSubnet, addr?.vnetCidr ?? ''].filter(Boolean).map((c) => cidrBlock(c));
  const clash = (b: number) => taken.some((t) => {
    const lo = ipToInt(t.first);
    const hi = ipToInt(t.last);
    const nlo = ipToInt(`172.${b}.${drawnNat.c}.0`);
    return nlo <= hi && nlo + 4095 >= lo;
  });
  let natB = drawnNat.b;
  for (let i = 0; i < 14 && clash(natB); i++) natB = 17 + ((natB - 17 + 1) % 14);
  const natSubnet = `172.${natB}.${drawnNat.c}.0/20`;
  const natNet: HnsNetwork = {
    id: rIds.guid(),
    name: 'nat',
    type: 'nat',
    subnet: natSubnet,
    gateway: hostAt(natSubnet, 1),
    switchId: rIds.guid(),
    remoteSubnetRoutes: [],
    macPool: { start: '00-15-5D-52-C0-00', end: '00-15-5D-52-CF-FF' },
  };
  const overlayNet = spec.network === 'overlay';
  // A cluster node's DR MAC is the one its peers name (the draw still happens, so nothing else moves).
  const ownDrMac = (drawn: string) => cluster?.drMac ?? drawn;
  const k8sNet: HnsNetwork =
    prof?.name === 'nat'
      ? natNet
      : {
          id: rIds.guid(),
          name: netName,
          type: prof ? (prof.network as 'l2bridge' | 'overlay' | 'transparent') : isL2 ? 'l2bridge' : 'overlay',
          subnet: podSubnet,
          gateway: prof?.gateway === 'subnet' ? nodeGateway : hostAt(podSubnet, 1),
          managementIp: nodeIp,
          drMac: overlayNet ? ownDrMac(rNet.mac('00-15-5D')) : undefined,
          // The host vNIC is `vEthernet (<adapter>)`: the network is bound to that adapter.
          networkAdapterName: /^vEthernet \((.+)\)$/.exec(prof?.hostVnicName ?? '')?.[1] ?? 'Ethernet',
          hostVnicPortGuid: rIds.guid(),
          hostVnicFriendly: `Container NIC ${rIds.hex(8, false)}`,
          externalPortGuid: rIds.guid(),
          switchId: rIds.guid(),
          remoteSubnetRoutes: overlayNet ? remoteNodes.map((n) => ({ prefix: n.podSubnet, pa: n.ip, drMac: n.drMac })) : [],
          macPool: { start: '00-15-5D-D5-10-00', end: '00-15-5D-D5-1F-FF' },
          vsid: prof?.vni,
        };
  const infraNets: HnsNetwork[] = (prof?.infraNetworks ?? []).map((x) => ({
    id: rIds.guid(),
    name: x.name,
    type: x.type,
    infra: true,
    subnet: x.subnet,
    gateway: x.gateway,
    switchId: k8sNet.switchId,
    remoteSubnetRoutes: [],
    macPool: { start: '00-15-5D-0A-00-00', end: '00-15-5D-0A-0F-FF' },
    vsid: x.vsid,
  }));
  // The pod network comes first after nat: VFP and kube-proxy program the first non-nat network.
  const networks: HnsNetwork[] = prof ? [...(prof.natNetwork && k8sNet !== natNet ? [natNet] : []), k8sNet, ...infraNets] : [natNet, k8sNet];
  return { natNet, natSubnet, k8sNet, networks };
}
