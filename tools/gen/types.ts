// The generator's object model: what a Windows k8s node "is", before any file is rendered.
// Files are rendered from these objects; `expected` is derived from them, never from the text.

export type NetworkKind = 'l2bridge' | 'overlay';
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
export type FaultName = (typeof FAULTS)[number];

export interface NodeSpec {
  seed: number;
  hostName: string;
  network: NetworkKind;
  schema: 1 | 2;
  pods: number;
  services: number;
  remoteNodes: number;
  vfpGeneration: VfpGeneration;
  /** e.g. '10.0.17763.5830' (Windows Server 2019) or '10.0.20348.2340' (Windows Server 2022). */
  windowsBuild: string;
  faults?: string[];
}

export interface HnsNetwork {
  id: string;
  name: string;
  /** v1 spelling: 'nat' | 'l2bridge' | 'overlay'. */
  type: 'nat' | 'l2bridge' | 'overlay';
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

export type EndpointKind = 'pod' | 'host' | 'remote';

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

export interface GeneratedNode {
  spec: Required<NodeSpec>;
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
  remoteNodes: { name: string; ip: string; podSubnet: string; drMac: string }[];
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
