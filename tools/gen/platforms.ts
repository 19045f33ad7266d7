// The real shape of a node of each network plugin: HNS network names and types, addressing, pod
// gateway, endpoint names and policies, DNS, how other nodes are reached, and what kube-proxy does.
// Every value is taken from the plugin's own code or docs, cited by file and line in the plugin table
// of analysis/checks/README.md ("platforms.md §N" below names the section of the research notes that
// collected them, which are not kept in the repository); values marked "unverified" are plausible
// choices no source shows.
import { hostAt, intToIp, ipToInt } from './net.ts';
import type { EpPolicy, NetworkKind, PlatformName } from './types.ts';

export interface Addressing {
  nodeIp: string;
  nodeSubnet: string;
  nodeGateway: string;
  clusterCidr: string;
  serviceCidr: string;
  dnsVip: string;
  /** The HNS subnet that holds this node's pods. */
  podSubnet: string;
  /** The first pod's host number in podSubnet (then consecutive). */
  firstPod: number;
  /** VNet/VPC CIDR the plugin also exempts from SNAT (Azure CNI, EKS). */
  vnetCidr?: string;
  remote(i: number): { ip: string; podSubnet: string; firstPod: number };
}

export interface PlatformProfile {
  name: PlatformName;
  network: NetworkKind;
  /** HNS name of the pod network. */
  netName(a: Addressing, hostMac: string): string;
  /** Infrastructure networks the installer creates next to it (no pods). */
  infraNetworks: { name: string; type: 'l2bridge' | 'overlay'; subnet: string; gateway: string; vsid?: number }[];
  /** Docker/containerd's `nat` network exists too. */
  natNetwork: boolean;
  vni?: number;
  /** Pod gateway: .1 or .2 of podSubnet, or the node subnet's gateway (VNet/VPC router). */
  gateway: 'dot1' | 'dot2' | 'subnet';
  /** Host-side endpoint of the plugin (cbr0_ep, Calico_ep, VIPEndpoint) at .2. */
  bridgeEndpoint?: { name: string; remote: boolean };
  /** kube-proxy's source-VIP endpoint (Flannel VXLAN: reserved from the pod CIDR). */
  sourceVipEndpoint?: boolean;
  podEndpointName(containerId: string, podName: string, nsGuid: string, net: string): string;
  /** MAC prefix for pods (VXLAN plugins derive the MAC from the IP). */
  podMacPrefix?: string;
  podPolicies(a: Addressing, podIp: string): EpPolicy[];
  podDns(a: Addressing, ns: string): { servers: string[]; search: string[] };
  crossNode: 'host-routes' | 'remote-subnet-routes' | 'fabric' | 'none';
  /** Host routes go via this interface and next hop (Antrea: antrea-gw0 → peer gateway). */
  routeVia?: 'peer-node' | 'antrea-gw0';
  kubeProxy: boolean;
  remoteEndpoints: 'l2' | 'pa';
  /** The vNIC holding the node IP (Antrea renames it to the OVS bridge). */
  hostVnicName: string;
  /** VFP is not what forwards this plugin's pods (Antrea uses OVS): ports carry no rules. */
  noVfpRules?: boolean;
  nodeName(hostName: string, a: Addressing): string;
  /** Node objects carry spec.podCIDR (per-node pod CIDR plugins). */
  podCidrOnNode: boolean;
  maxPods: number;
}

const K8S_SEARCH = (ns: string) => [`${ns}.svc.cluster.local`, 'svc.cluster.local', 'cluster.local'];
const ACLS_AKS: EpPolicy[] = [
  // AgentBaker azurecnifunc.ps1:225-288: block the wireserver from pods, allow the rest.
  { type: 'ACL', action: 'Block', direction: 'Out', priority: 200, protocols: '6', remoteAddresses: '168.63.129.16/32', remotePorts: '80', ruleType: 'Switch' },
  { type: 'ACL', action: 'Block', direction: 'Out', priority: 200, protocols: '6', remoteAddresses: '168.63.129.16/32', remotePorts: '32526', ruleType: 'Switch' },
  { type: 'ACL', action: 'Allow', direction: 'In', priority: 65500 },
  { type: 'ACL', action: 'Allow', direction: 'Out', priority: 65500 },
];

/** Flannel-style addressing (sig-windows-tools defaults): node 10.240.0.x, cluster 10.244/16, /24 per node. */
function flannelLike(hostIdx: number, subnetIdx: number, firstPod: number): Addressing {
  return {
    nodeIp: `10.240.0.${hostIdx}`,
    nodeSubnet: '10.240.0.0/16',
    nodeGateway: '10.240.0.1',
    clusterCidr: '10.244.0.0/16',
    serviceCidr: '10.96.0.0/12',
    dnsVip: '10.96.0.10',
    podSubnet: `10.244.${subnetIdx}.0/24`,
    firstPod,
    remote: (i) => ({ ip: `10.240.0.${hostIdx + 1 + i}`, podSubnet: `10.244.${(subnetIdx + 1 + i) % 256}.0/24`, firstPod: 3 }),
  };
}

export function addressing(p: PlatformName, hostIdx: number, subnetIdx: number, pods: number): Addressing {
  switch (p) {
    case 'flannel-host-gw':
      return flannelLike(hostIdx, subnetIdx, 3);
    case 'flannel-vxlan':
      // .2 is kube-proxy's source VIP, reserved with host-local first (sig-windows-tools kube-proxy start.ps1).
      return flannelLike(hostIdx, subnetIdx, 3);
    case 'antrea':
      return { ...flannelLike(hostIdx, subnetIdx, 2), remote: (i) => ({ ip: `10.240.0.${hostIdx + 1 + i}`, podSubnet: `10.244.${(subnetIdx + 1 + i) % 256}.0/24`, firstPod: 2 }) };
    case 'azure-cni': {
      // AKS default VNet 10.224.0.0/12, node subnet 10.224.0.0/16; pods are secondary IPs of the node NIC,
      // allocated after the node IP (platforms.md §2.3). Node k owns pods+1 consecutive addresses.
      const slot = (k: number) => ipToInt('10.224.0.4') + k * (pods + 1);
      return {
        nodeIp: intToIp(slot(0)),
        nodeSubnet: '10.224.0.0/16',
        nodeGateway: '10.224.0.1',
        clusterCidr: '10.224.0.0/16',
        vnetCidr: '10.224.0.0/12',
        serviceCidr: '10.0.0.0/16',
        dnsVip: '10.0.0.10',
        podSubnet: '10.224.0.0/16',
        firstPod: slot(0) + 1 - ipToInt('10.224.0.0'),
        remote: (i) => ({ ip: intToIp(slot(i + 1)), podSubnet: '10.224.0.0/16', firstPod: slot(i + 1) + 1 - ipToInt('10.224.0.0') }),
      };
    }
    case 'azure-cni-overlay':
      // azure-cns reserves .0, .1 (gateway) and the last address; .2 is an ordinary pod IP (platforms.md §2.4).
      return {
        nodeIp: `10.224.0.${hostIdx}`,
        nodeSubnet: '10.224.0.0/16',
        nodeGateway: '10.224.0.1',
        clusterCidr: '10.244.0.0/16',
        serviceCidr: '10.0.0.0/16',
        dnsVip: '10.0.0.10',
        podSubnet: `10.244.${subnetIdx}.0/24`,
        firstPod: 2,
        remote: (i) => ({ ip: `10.224.0.${hostIdx + 1 + i}`, podSubnet: `10.244.${(subnetIdx + 1 + i) % 256}.0/24`, firstPod: 2 }),
      };
    case 'eks-vpc-bridge':
      // VPC 10.0.0.0/16, the node's ENI subnet 10.0.N.0/24 (router .1); service CIDR 172.20.0.0/16 when
      // the VPC is in 10/8 (platforms.md §2.5). Node primary IP .4, pods from .5.
      return {
        nodeIp: `10.0.${subnetIdx}.4`,
        nodeSubnet: `10.0.${subnetIdx}.0/24`,
        nodeGateway: `10.0.${subnetIdx}.1`,
        clusterCidr: '10.0.0.0/16',
        vnetCidr: '10.0.0.0/16',
        serviceCidr: '172.20.0.0/16',
        dnsVip: '172.20.0.10',
        podSubnet: `10.0.${subnetIdx}.0/24`,
        firstPod: 5,
        remote: (i) => ({ ip: `10.0.${(subnetIdx + 1 + i) % 256}.4`, podSubnet: `10.0.${(subnetIdx + 1 + i) % 256}.0/24`, firstPod: 5 }),
      };
    case 'calico-vxlan':
    case 'calico-bgp': {
      // One /26 IPAM block per node from the 10.244.0.0/16 pool; .1 gateway, .2 Calico_ep (platforms.md §2.6-2.7).
      const block = (k: number) => intToIp(ipToInt(`10.244.${subnetIdx}.0`) + k * 64);
      return {
        ...flannelLike(hostIdx, subnetIdx, 3),
        podSubnet: `${block(0)}/26`,
        remote: (i) => ({ ip: `10.240.0.${hostIdx + 1 + i}`, podSubnet: `${block(i + 1)}/26`, firstPod: 3 }),
      };
    }
    case 'ovn-kubernetes':
      // OpenShift defaults: cluster 10.132.0.0/14 (hybrid overlay), service 172.30.0.0/16; VIPEndpoint .2.
      return {
        nodeIp: `10.0.128.${hostIdx}`,
        nodeSubnet: '10.0.128.0/17',
        nodeGateway: '10.0.128.1',
        clusterCidr: '10.132.0.0/14',
        serviceCidr: '172.30.0.0/16',
        dnsVip: '172.30.0.10',
        podSubnet: `10.132.${subnetIdx}.0/24`,
        firstPod: 3,
        remote: (i) => ({ ip: `10.0.128.${hostIdx + 1 + i}`, podSubnet: `10.132.${(subnetIdx + 1 + i) % 256}.0/24`, firstPod: 3 }),
      };
    case 'nat':
      return { ...flannelLike(hostIdx, subnetIdx, 2), clusterCidr: '', serviceCidr: '', dnsVip: '', podSubnet: '', remote: () => ({ ip: '', podSubnet: '', firstPod: 2 }) };
  }
}

const sdnRoute = (prefix: string): EpPolicy => ({ type: 'ROUTE', prefix, needEncap: true });

export const PROFILES: Record<PlatformName, PlatformProfile> = {
  // §2.1: cbr0 L2Bridge, cbr0_ep at .2 is the pods' gateway, a host route per remote pod CIDR.
  'flannel-host-gw': {
    name: 'flannel-host-gw',
    network: 'l2bridge',
    netName: () => 'cbr0',
    infraNetworks: [],
    natNetwork: true,
    gateway: 'dot2',
    bridgeEndpoint: { name: 'cbr0_ep', remote: false },
    podEndpointName: (cid, _p, _g, net) => `${cid}_${net}`,
    podPolicies: (a) => [{ type: 'OutBoundNAT', exceptions: [a.clusterCidr, a.serviceCidr, a.nodeSubnet] }, sdnRoute(a.serviceCidr), sdnRoute(`${a.nodeIp}/32`), { type: 'L2Driver' }],
    podDns: (a, ns) => ({ servers: [a.dnsVip], search: K8S_SEARCH(ns) }),
    crossNode: 'host-routes',
    routeVia: 'peer-node',
    kubeProxy: true,
    remoteEndpoints: 'l2',
    hostVnicName: 'vEthernet (Ethernet)',
    nodeName: (h) => h,
    podCidrOnNode: true,
    maxPods: 250,
  },
  // §2.2: flannel.4096 Overlay (VNI 4096), DR gateway .1, RemoteSubnetRoute per lease, source VIP.
  'flannel-vxlan': {
    name: 'flannel-vxlan',
    network: 'overlay',
    netName: () => 'flannel.4096',
    infraNetworks: [],
    natNetwork: true,
    vni: 4096,
    gateway: 'dot1',
    sourceVipEndpoint: true,
    podEndpointName: (cid, _p, _g, net) => `${cid}_${net}`,
    podMacPrefix: '0E-2A',
    podPolicies: (a) => [{ type: 'OutBoundNAT', exceptions: [a.clusterCidr, a.serviceCidr] }, sdnRoute(a.serviceCidr), { type: 'PA', pa: a.nodeIp }],
    podDns: (a, ns) => ({ servers: [a.dnsVip], search: K8S_SEARCH(ns) }),
    crossNode: 'remote-subnet-routes',
    kubeProxy: true,
    remoteEndpoints: 'pa',
    hostVnicName: 'vEthernet (Ethernet)',
    nodeName: (h) => h,
    podCidrOnNode: true,
    maxPods: 250,
  },
  // §2.3: `azure` L2Bridge on the node subnet (+ `ext`), gateway = VNet subnet router, fabric routing.
  'azure-cni': {
    name: 'azure-cni',
    network: 'l2bridge',
    netName: () => 'azure',
    infraNetworks: [{ name: 'ext', type: 'l2bridge', subnet: '192.168.255.0/30', gateway: '192.168.255.1' }],
    natNetwork: false,
    gateway: 'subnet',
    podEndpointName: (cid) => `${cid.slice(0, 8)}-eth0`,
    podPolicies: (a) => [{ type: 'OutBoundNAT', exceptions: [a.clusterCidr, a.vnetCidr!] }, sdnRoute(a.serviceCidr), ...ACLS_AKS, { type: 'L2Driver' }],
    podDns: (a, ns) => ({ servers: [a.dnsVip, '168.63.129.16'], search: [`${ns}.svc.cluster.local`] }),
    crossNode: 'fabric',
    kubeProxy: true,
    remoteEndpoints: 'l2',
    hostVnicName: 'vEthernet (Ethernet 2)',
    nodeName: (h) => h,
    podCidrOnNode: false,
    maxPods: 250,
  },
  // §2.4: same network, pods from the node pod CIDR, gateway .1 reserved by azure-cns, fabric routing.
  'azure-cni-overlay': {
    name: 'azure-cni-overlay',
    network: 'l2bridge',
    netName: () => 'azure',
    infraNetworks: [{ name: 'ext', type: 'l2bridge', subnet: '192.168.255.0/30', gateway: '192.168.255.1' }],
    natNetwork: false,
    gateway: 'dot1',
    podEndpointName: (cid) => `${cid.slice(0, 8)}-eth0`,
    podPolicies: (a) => [{ type: 'OutBoundNAT', exceptions: [a.clusterCidr] }, sdnRoute(a.serviceCidr), ...ACLS_AKS, { type: 'L2Driver' }],
    podDns: (a, ns) => ({ servers: [a.dnsVip, '168.63.129.16'], search: [`${ns}.svc.cluster.local`] }),
    crossNode: 'fabric',
    kubeProxy: true,
    remoteEndpoints: 'l2',
    hostVnicName: 'vEthernet (Ethernet 2)',
    nodeName: (h) => h,
    podCidrOnNode: true,
    maxPods: 250,
  },
  // §2.5: vpcbr<ENI MAC> l2bridge on the ENI subnet, `cid-<namespace GUID>` endpoints, VPC fabric.
  'eks-vpc-bridge': {
    name: 'eks-vpc-bridge',
    network: 'l2bridge',
    netName: (_a, mac) => `vpcbr${mac.replace(/-/g, '').toLowerCase()}`,
    infraNetworks: [],
    natNetwork: true,
    gateway: 'subnet',
    podEndpointName: (_cid, _p, nsGuid) => `cid-${nsGuid.toLowerCase()}`,
    podPolicies: (a) => [{ type: 'OutBoundNAT', exceptions: [a.vnetCidr!, a.serviceCidr] }, sdnRoute(a.serviceCidr), sdnRoute(`${a.nodeIp}/32`)],
    podDns: (a, ns) => ({ servers: [a.dnsVip], search: K8S_SEARCH(ns) }),
    crossNode: 'fabric',
    kubeProxy: true,
    remoteEndpoints: 'l2',
    hostVnicName: 'vEthernet (Ethernet 2)',
    nodeName: (_h, a) => `ip-${a.nodeIp.replace(/\./g, '-')}.ec2.internal`,
    podCidrOnNode: false,
    maxPods: 240,
  },
  // §2.6: `Calico` Overlay per /26 block (+ `External` Overlay VSID 9999), Calico_ep remote at .2.
  'calico-vxlan': {
    name: 'calico-vxlan',
    network: 'overlay',
    netName: () => 'Calico',
    infraNetworks: [{ name: 'External', type: 'overlay', subnet: '192.168.255.0/30', gateway: '192.168.255.1', vsid: 9999 }],
    natNetwork: false,
    vni: 4096,
    gateway: 'dot1',
    bridgeEndpoint: { name: 'Calico_ep', remote: true },
    podEndpointName: (cid) => `${cid}_Calico`,
    podMacPrefix: '0E-2A',
    podPolicies: (a) => [{ type: 'OutBoundNAT', exceptions: [a.serviceCidr, a.clusterCidr] }, sdnRoute(a.serviceCidr), { type: 'PA', pa: a.nodeIp }],
    podDns: (a, ns) => ({ servers: [a.dnsVip], search: K8S_SEARCH(ns) }),
    crossNode: 'remote-subnet-routes',
    kubeProxy: true,
    remoteEndpoints: 'pa',
    hostVnicName: 'vEthernet (Ethernet)',
    nodeName: (h) => h,
    podCidrOnNode: false,
    maxPods: 59,
  },
  // §2.7: `Calico` L2Bridge per block, Calico_ep local at .2 is the gateway, BGP-learned host routes.
  'calico-bgp': {
    name: 'calico-bgp',
    network: 'l2bridge',
    netName: () => 'Calico',
    infraNetworks: [{ name: 'External', type: 'l2bridge', subnet: '192.168.255.0/30', gateway: '192.168.255.1' }],
    natNetwork: false,
    gateway: 'dot2',
    bridgeEndpoint: { name: 'Calico_ep', remote: false },
    podEndpointName: (cid) => `${cid}_Calico`,
    podPolicies: (a) => [{ type: 'OutBoundNAT', exceptions: [a.serviceCidr, a.clusterCidr] }, sdnRoute(a.serviceCidr), sdnRoute(`${a.nodeIp}/32`)],
    podDns: (a, ns) => ({ servers: [a.dnsVip], search: K8S_SEARCH(ns) }),
    crossNode: 'host-routes',
    routeVia: 'peer-node',
    kubeProxy: true,
    remoteEndpoints: 'l2',
    hostVnicName: 'vEthernet (Ethernet)',
    nodeName: (h) => h,
    podCidrOnNode: false,
    maxPods: 59,
  },
  // §2.8: antrea-hnsnetwork Transparent, OVS forwards, antrea-gw0 at .1, AntreaProxy (no HNS LBs).
  antrea: {
    name: 'antrea',
    network: 'transparent',
    netName: () => 'antrea-hnsnetwork',
    infraNetworks: [],
    natNetwork: false,
    gateway: 'dot1',
    podEndpointName: (_cid, pod, nsGuid) => `${pod.replace(/[^a-z0-9-]/g, '').slice(0, 8)}-${nsGuid.replace(/-/g, '').slice(0, 6).toLowerCase()}`,
    podPolicies: () => [],
    podDns: (a, ns) => ({ servers: [a.dnsVip], search: K8S_SEARCH(ns) }),
    crossNode: 'host-routes',
    routeVia: 'antrea-gw0',
    kubeProxy: false,
    remoteEndpoints: 'l2',
    hostVnicName: 'br-int',
    noVfpRules: true,
    nodeName: (h) => h,
    podCidrOnNode: true,
    maxPods: 250,
  },
  // §2.9: OVNKubernetesHybridOverlayNetwork Overlay (VNI 4097) + the base network, VIPEndpoint at .2.
  'ovn-kubernetes': {
    name: 'ovn-kubernetes',
    network: 'overlay',
    netName: () => 'OVNKubernetesHybridOverlayNetwork',
    infraNetworks: [{ name: 'BaseOVNKubernetesHybridOverlayNetwork', type: 'overlay', subnet: '100.64.0.0/30', gateway: '100.64.0.2', vsid: 4097 }],
    natNetwork: false,
    vni: 4097,
    gateway: 'dot1',
    bridgeEndpoint: { name: 'VIPEndpoint', remote: false },
    podEndpointName: (cid, _p, _g, net) => `${cid}_${net}`,
    podMacPrefix: '0E-2A',
    podPolicies: (a) => [{ type: 'OutBoundNAT', exceptions: [a.serviceCidr] }, sdnRoute(a.serviceCidr), { type: 'PA', pa: a.nodeIp }],
    podDns: (a, ns) => ({ servers: [a.dnsVip], search: K8S_SEARCH(ns) }),
    crossNode: 'remote-subnet-routes',
    kubeProxy: true,
    remoteEndpoints: 'pa',
    hostVnicName: 'vEthernet (Ethernet)',
    nodeName: (h) => h,
    podCidrOnNode: false,
    maxPods: 250,
  },
  // §2.10: containers on WinNAT only (no Kubernetes network plugin).
  nat: {
    name: 'nat',
    network: 'nat',
    netName: () => 'nat',
    infraNetworks: [],
    natNetwork: true,
    gateway: 'dot1',
    podEndpointName: (cid, _p, _g, net) => `${cid}_${net}`,
    podPolicies: () => [],
    podDns: () => ({ servers: [], search: [] }),
    crossNode: 'none',
    kubeProxy: false,
    remoteEndpoints: 'l2',
    hostVnicName: 'vEthernet (Ethernet)',
    nodeName: (h) => h,
    podCidrOnNode: false,
    maxPods: 250,
  },
};

/** The pod gateway of a platform node. */
export function podGateway(p: PlatformProfile, a: Addressing): string {
  return p.gateway === 'dot2' ? hostAt(a.podSubnet, 2) : p.gateway === 'dot1' ? hostAt(a.podSubnet, 1) : a.nodeGateway;
}

/**
 * A host name as each platform's Windows nodes are called: AKS `akswin<6 digits>` (AgentBaker's
 * Windows pool names), EKS the EC2 default `EC2AMAZ-<7>`, OpenShift WMCO workers, else `win-node-<k>`.
 */
export function platformHostName(p: PlatformName, k: number): string {
  if (p.startsWith('azure')) return `akswin${String(k).padStart(6, '0')}`;
  if (p === 'eks-vpc-bridge') return `EC2AMAZ-${(0x1a2b3c + k * 7919).toString(36).toUpperCase().padStart(7, '0').slice(-7)}`;
  if (p === 'ovn-kubernetes') return `winworker-${String(k).padStart(3, '0')}`;
  return `win-node-${k}`;
}

/**
 * The host NIC's MAC on this platform from one drawn with Azure's 00-0D-3A prefix (the draw is kept so
 * nothing else in the node moves): an EC2 ENI has a locally administered MAC (`0E-…`, as AWS hands out),
 * not Azure's OUI.
 */
export function platformHostMac(p: PlatformName | undefined, drawn: string): string {
  return p === 'eks-vpc-bridge' ? `0E-${drawn.slice(12)}-${drawn.slice(9)}` : drawn;
}
