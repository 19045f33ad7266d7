// The generator's object model: what a Windows k8s node "is", before any file is rendered.
// Files are rendered from these objects; `expected` is derived from them, never from the text.

export type NetworkKind = 'l2bridge' | 'overlay' | 'transparent' | 'nat';

/**
 * The network plugins the generator can build a node of (tools/gen/platforms.ts has each one's shape,
 * from the plugins' own code, cited in analysis/checks/README.md). Without `platform` a spec builds the original generic node.
 */
export const PLATFORMS = ['flannel-host-gw', 'flannel-vxlan', 'azure-cni', 'azure-cni-overlay', 'eks-vpc-bridge', 'calico-vxlan', 'calico-bgp', 'antrea', 'ovn-kubernetes', 'nat'] as const;
export type PlatformName = (typeof PLATFORMS)[number];
export type VfpGeneration = 'list-rule' | 'get-rule-counter';

export const FAULTS = [
  'exception-list-typo',
  'stale-lb-dip',
  'missing-remote-subnet-route',
  'blocked-port',
  'endpoint-without-vnic',
  'wrong-gateway',
  'duplicate-ip',
] as const;
/** Faults only a platform node can carry (they need its logs or its kubectl snapshot). */
export const PLATFORM_FAULTS = [
  // Logs: one pod's CNI ADD stalls inside the plugin; one pod's ADD fails again and again.
  'slow-cni-add',
  'cni-add-failures',
  // Intent (kubectl snapshot): a load balancer still sends to a pod that is gone; a ready backend is missing.
  'stale-backend',
  'missing-backend',
] as const;
export type FaultName = (typeof FAULTS)[number] | (typeof PLATFORM_FAULTS)[number];

export interface NodeSpec {
  seed: number;
  hostName: string;
  network: NetworkKind;
  /** Build this plugin's real shape (network names and types, gateways, policies, side files). */
  platform?: PlatformName;
  schema: 1 | 2;
  pods: number;
  services: number;
  remoteNodes: number;
  vfpGeneration: VfpGeneration;
  /** e.g. '10.0.17763.5830' (Windows Server 2019) or '10.0.20348.2340' (Windows Server 2022). */
  windowsBuild: string;
  faults?: string[];
}

/** A spec with its defaults filled in (the platform stays optional). */
export type ResolvedSpec = Required<Omit<NodeSpec, 'platform'>> & Pick<NodeSpec, 'platform'>;

export interface HnsNetwork {
  id: string;
  name: string;
  /** v1 spelling: 'nat' | 'l2bridge' | 'overlay' | 'transparent'. */
  type: 'nat' | 'l2bridge' | 'overlay' | 'transparent';
  /** Created by the node setup to hold the vSwitch (AKS `ext`, Calico `External`): no pods, no port allocators. */
  infra?: boolean;
  /** Overlay VSID / VNI (4096 unless the plugin says otherwise: OVN-Kubernetes 4097, Calico External 9999). */
  vsid?: number;
  subnet: string;
  gateway: string;
  managementIp?: string;
  drMac?: string;
  networkAdapterName?: string;
  hostVnicPortGuid?: string;
  /** 'Container NIC xxxxxxxx', shared by the HNS 'Host Vnic' allocator and the VFP port. */
  hostVnicFriendly?: string;
  externalPortGuid?: string;
  switchId: string;
  remoteSubnetRoutes: { prefix: string; pa: string; drMac: string }[];
  macPool: { start: string; end: string };
}

export type EndpointKind = 'pod' | 'host' | 'remote' | 'sourcevip';

/** An endpoint policy in plugin terms, rendered in v1 or v2 spelling by files/hns.ts. */
export type EpPolicy =
  | { type: 'OutBoundNAT'; exceptions: string[] }
  | { type: 'ROUTE'; prefix: string; needEncap: boolean }
  | { type: 'PA'; pa: string }
  | { type: 'ACL'; action: 'Allow' | 'Block'; direction: 'In' | 'Out'; priority: number; protocols?: string; remoteAddresses?: string; remotePorts?: string; ruleType?: 'Switch' | 'Host' }
  | { type: 'L2Driver' };

export interface HnsEndpoint {
  id: string;
  name: string;
  kind: EndpointKind;
  ip: string;
  mac: string;
  prefixLength: number;
  gateway: string;
  networkId: string;
  networkName: string;
  /** VFP port name (EndpointPortGuid allocator, or the endpoint ID on newer builds). Local only. */
  portGuid?: string;
  compartmentId?: number;
  namespaceId?: string;
  containerId?: string;
  /** Provider address (remote node IP) for remote endpoints on overlay. */
  pa?: string;
  exceptionList: string[];
  /** Platform nodes: the endpoint's policies as the plugin sets them (else the generic set). */
  policies?: EpPolicy[];
  /** Platform nodes: DNS servers and suffix HNS holds for the endpoint. */
  dns?: { servers: string[]; search: string[] };
  /** The Kubernetes pod this endpoint belongs to (platform nodes). */
  pod?: { namespace: string; name: string; uid: string };
  /** Local endpoints: ifIndex of the vNIC inside its compartment. */
  ifIndex?: number;
  version: number;
  activityId: string;
}

export interface LoadBalancer {
  id: string;
  serviceName: string;
  vip: string;
  protocol: 6 | 17;
  externalPort: number;
  internalPort: number;
  endpointIds: string[];
  /** Backend IPs in the same order as endpointIds (what VFP's DIP ranges show). */
  dips: string[];
  isNodePort: boolean;
  isIlb: boolean;
  /** '' when kube-proxy sets none (l2bridge platforms). */
  sourceVip: string;
  tag: string;
}

export interface Adapter {
  name: string;
  description: string;
  mac: string;
  ifIndex: number;
  compartmentId: number;
  ipv4?: string;
  prefixLength?: number;
  gateway?: string;
  dnsServers: string[];
  dhcp: boolean;
  linkLocal: string;
  mtu: number;
  dnsSuffix: string;
  endpointId?: string;
}

export interface Compartment {
  id: number;
  guid: string;
  adapters: Adapter[];
}

export interface HnsNamespace {
  id: string;
  compartmentId: number;
  compartmentGuid: string;
  type: 'HostDefault' | 'Guest';
  endpointIds: string[];
}

export interface Ipv4Route {
  dest: string;
  mask: string;
  prefixLen: number;
  /** 'On-link' or a next-hop IP. */
  gateway: string;
  iface: string;
  ifIndex: number;
  metric: number;
  compartmentId: number;
}

export interface VfpRule {
  /** Text after "RULE : " (may be empty: some rules only have a friendly name). */
  id: string;
  friendlyName?: string;
  priority: number;
  flags: string;
  type: string;
  conditions: string[];
  ttl: number;
  /** Lines after "Flow TTL", relative indent (0 = rule field column). Excludes FlagsEx. */
  body: { indent: number; text: string }[];
  /** Cached LF-rendered text (without counters), filled lazily by the writer. */
  text?: string;
}

export interface VfpGroup {
  name: string;
  priority: number;
  direction: 'IN' | 'OUT';
  type: string;
  matchType: string;
  rules: VfpRule[];
}

export interface VfpLayer {
  name: string;
  priority: number;
  flags?: string;
  groups: VfpGroup[];
}

export type VfpPortKind = 'external' | 'host' | 'endpoint';

export interface VfpPort {
  name: string;
  friendlyName: string;
  kind: VfpPortKind;
  mac: string;
  portId: number;
  switchName: string;
  switchFriendlyName: string;
  nicName: string;
  nicFriendlyName: string;
  vmName: string;
  vmId: string;
  mtu: number;
  endpointId?: string;
  blocked: boolean;
  layers: VfpLayer[];
}

export interface FaultRecord {
  name: FaultName;
  detail: string;
  objects: string[];
}

export interface ExpectedEndpoint {
  id: string;
  ip: string;
  mac: string;
  portName?: string;
  isRemote: boolean;
  compartmentId?: number;
}

export interface Expected {
  counts: {
    networks: number;
    endpoints: number;
    localEndpoints: number;
    remoteEndpoints: number;
    loadBalancers: number;
    compartments: number;
    adapters: number;
    vfpPorts: number;
    vfpLayers: number;
    vfpRules: number;
    ipv4Routes: number;
  };
  endpoints: ExpectedEndpoint[];
  loadBalancers: { id: string; vips: string[]; ports: { protocol: number; externalPort: number; internalPort: number }[]; endpointIds: string[] }[];
  networks: { id: string; name: string; type: string; subnet: string; gateway: string }[];
  compartments: { id: number; adapters: string[] }[];
  vfpPorts: { name: string; friendlyName: string; kind: VfpPortKind; endpointId?: string; layers: number; rules: number; blocked: boolean }[];
  remoteSubnets: { prefix: string; nodeIp: string }[];
  faults: FaultRecord[];
}

/** A Kubernetes Service of the generated cluster (what kube-proxy turns into load balancers). */
export interface GenService {
  namespace: string;
  name: string;
  vip: string;
  type: 'ClusterIP' | 'NodePort';
  ports: { port: number; targetPort: number; protocol: 6 | 17; nodePort?: number }[];
  /** Backend pod IPs (ready) in the EndpointSlice. */
  backends: string[];
  /** Backends that are ready in Kubernetes but that kube-proxy on this node has not programmed (missing-backend fault). */
  unprogrammed?: string[];
}

/** A pod of the generated cluster (local ones have an endpoint; remote ones are only in kubectl). */
export interface GenPod {
  namespace: string;
  name: string;
  uid: string;
  ip: string;
  nodeName: string;
  containerId: string;
  labels: Record<string, string>;
  phase: 'Running' | 'Succeeded' | 'Pending';
}

export interface GenK8sNode {
  name: string;
  ip: string;
  podCidr?: string;
  /** kubernetes.io/os; by default this node is windows and its made-up peers linux. */
  os?: 'windows' | 'linux';
}

export interface GeneratedNode {
  spec: ResolvedSpec;
  /** The plugin this node was built as (undefined: the generic node). */
  platform?: PlatformName;
  /** The Kubernetes node name (EKS names nodes ip-…ec2.internal while Windows calls itself EC2AMAZ-…). */
  nodeName: string;
  services: GenService[];
  pods: GenPod[];
  k8sNodes: GenK8sNode[];
  /** Sandbox IDs whose CNI ADD the logs show failing / stalling (log faults). */
  logFaults: { slow?: string; failing?: string; failingSandboxes?: string[] };
  /** Collection time (deterministic from the seed). */
  collectedAt: Date;
  hostName: string;
  nodeIp: string;
  nodeSubnet: string;
  nodeGateway: string;
  hostMac: string;
  clusterCidr: string;
  serviceCidr: string;
  podSubnet: string;
  dnsVip: string;
  dnsSuffix: string;
  remoteNodes: { name: string; ip: string; podSubnet: string; drMac: string; firstPod?: number }[];
  networks: HnsNetwork[];
  endpoints: HnsEndpoint[];
  loadBalancers: LoadBalancer[];
  namespaces: HnsNamespace[];
  compartments: Compartment[];
  routes: Ipv4Route[];
  vfpPorts: VfpPort[];
  /** '10.0.17763' and older use the legacy hnsdiag layout and EndpointPortGuid port names. */
  legacyBuild: boolean;
  expected: Expected;
}

/**
 * Faults of a generated cluster: what one node (the last one, the "odd node out") believes about the
 * others that they do not say themselves, or what it lacks that its peers have.
 */
export const CLUSTER_FAULTS = [
  // The odd node still tunnels (overlay) or routes (host-gw) node 0's pod subnet to the address and DR MAC
  // node 0 had before it was recreated: its RemoteSubnetRoute, VFP encap rule, remote endpoints' PAs (or
  // host route) point at a provider address no node has.
  'stale-pa',
  // kube-proxy on the odd node has not programmed one Service: no HNS load balancer, no VFP rule.
  'missing-lb',
  // The odd node's pods carry another OutBoundNAT ExceptionList than their peers' (an older CNI config).
  'exception-list-differs',
  // The odd node runs another Windows build (Windows Server 2019 in a Windows Server 2022 pool).
  'other-build',
] as const;
export type ClusterFaultName = (typeof CLUSTER_FAULTS)[number];

/** One peer as a node of a generated cluster sees it (its belief, which a fault may make stale). */
export interface ClusterPeer {
  name: string;
  ip: string;
  podSubnet: string;
  drMac: string;
  firstPod: number;
}

/** What buildNode needs to make a node that belongs to a generated cluster (tools/gen/cluster-nodes.ts). */
export interface ClusterNodeContext {
  index: number;
  /** This node's own addressing (node IP, pod subnet, cluster and service CIDRs). */
  addr: import('./platforms.ts').Addressing;
  hostMac: string;
  /** The DR MAC of its overlay network (what its peers' RemoteSubnetRoutes must name). */
  drMac: string;
  /** Every other node, as this node believes it to be. */
  peers: ClusterPeer[];
  /** The cluster's Services (same everywhere); backends are pod IPs on any node. */
  services: GenService[];
  /** The Service whose load balancers this node's kube-proxy did not program (missing-lb). */
  unprogrammed?: string;
  /** Replaces the pods' OutBoundNAT ExceptionList (exception-list-differs). */
  exceptions?: (list: string[]) => string[];
  /** Every pod of the cluster (names, owners): the kubectl snapshot's pods. */
  pods: GenPod[];
  k8sNodes: GenK8sNode[];
}
