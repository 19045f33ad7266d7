// Normalised HNS objects, common to schema v1 (HNS REST documents) and v2 (HCN documents).
// GUIDs are lower-case for joins; MACs upper-case with dashes; the original document stays in `raw`.

import type { SourceRef } from '../types.ts';

export type HnsSchema = 1 | 2;

/** A policy as HNS printed it: v1 `{Type, ...settings}` or v2 `{Type, Settings}`. */
export interface HnsPolicy {
  type: string;
  settings: Record<string, unknown>;
}

export interface HnsSubnet {
  prefix: string;
  gateway?: string;
  /** Overlay virtual subnet ID (v1 VSID policy, v2 VSID policy IsolationId). */
  vsid?: number;
}

export interface HnsRemoteSubnetRoute {
  destinationPrefix: string;
  providerAddress: string;
  isolationId?: number;
  drMac?: string;
}

export interface HnsRoute {
  destinationPrefix: string;
  nextHop?: string;
  metric?: number;
}

export interface HnsNetwork {
  id: string;
  name: string;
  /** Lower-case network type: 'l2bridge', 'overlay', 'nat', 'transparent', 'ics', ... ('' if absent). */
  type: string;
  schema: HnsSchema;
  subnets: HnsSubnet[];
  managementIp?: string;
  networkAdapterName?: string;
  sourceMac?: string;
  drMac?: string;
  providerAddress?: string;
  remoteSubnetRoutes: HnsRemoteSubnetRoute[];
  /** v2 routes of the IPAM subnets (`Ipams[].Subnets[].Routes[]`). */
  hostRoutes?: HnsRoute[];
  dnsServers: string[];
  dnsSuffix?: string;
  /** VFP port of the host vNIC: allocator Tag 'Host Vnic' EndpointPortGuid. */
  hostVnicPortGuid?: string;
  /** VFP port of the uplink: allocator Tag 'External Adapter Info' ExternalNicPortGuid. */
  externalPortGuid?: string;
  state?: number | string;
  policies: HnsPolicy[];
  /** True when read from PowerShell's table or list view (no JSON, or JSON cut short): lossy, nested values may be missing. */
  fromTable?: boolean;
  /** The file ended inside this object's JSON: fields after the cut are missing. */
  partial?: boolean;
  raw: unknown;
  src: SourceRef;
}

export interface HnsOutboundNat {
  exceptions: string[];
  vip?: string;
  destinations?: string[];
}

export interface HnsEndpointRoute {
  destinationPrefix: string;
  nextHop?: string;
  needEncap?: boolean;
}

export interface HnsPortMapping {
  protocol: number;
  internalPort: number;
  externalPort: number;
  vip?: string;
  flags?: number;
}

export interface HnsEndpoint {
  id: string;
  name: string;
  networkId?: string;
  networkName?: string;
  type?: string;
  ip?: string;
  ipv6?: string;
  prefixLength?: number;
  mac?: string;
  gateway?: string;
  dnsServers: string[];
  dnsSuffix?: string;
  isRemote: boolean;
  /** Why `isRemote` was inferred rather than read (the source did not say). */
  remoteInferred?: string;
  isLocal?: boolean;
  state?: number | string;
  providerAddress?: string;
  namespaceId?: string;
  compartmentId?: number;
  /** VFP port name (allocator Tag 'Endpoint Port' EndpointPortGuid, or v2 PortName policy). */
  portName?: string;
  outboundNat: HnsOutboundNat[];
  routes: HnsEndpointRoute[];
  portMappings?: HnsPortMapping[];
  policies: HnsPolicy[];
  sharedContainers: string[];
  schema: HnsSchema;
  fromTable?: boolean;
  /** The file ended inside this object's JSON: fields after the cut are missing. */
  partial?: boolean;
  raw: unknown;
  src: SourceRef;
}

export interface HnsLbPort {
  /** IANA protocol number (6 TCP, 17 UDP); 0 when HNS says "any" or the value is unreadable. */
  protocol: number;
  internalPort: number;
  externalPort: number;
  ilb?: boolean;
  localRoutedVip?: boolean;
  useMux?: boolean;
  preserveDip?: boolean;
  distributionType?: number | string;
}

export interface HnsLoadBalancer {
  id: string;
  schema: HnsSchema;
  vips: string[];
  sourceVip?: string;
  ports: HnsLbPort[];
  dsr: boolean;
  ipv6: boolean;
  endpointIds: string[];
  networkId?: string;
  state?: number | string;
  isApplied?: boolean;
  policies: HnsPolicy[];
  /** True when read from PowerShell's list view (`Get-HnsPolicyList`): VIPs may be cut to System.Object[]. */
  fromTable?: boolean;
  /** The file ended inside this object's JSON: fields after the cut are missing. */
  partial?: boolean;
  raw: unknown;
  src: SourceRef;
}

export interface HnsNamespace {
  id: string;
  compartmentId?: number;
  compartmentGuid?: string;
  type?: string;
  isDefault?: boolean;
  endpointIds: string[];
  containerIds: string[];
  fromTable?: boolean;
  /** The file ended inside this object's JSON: fields after the cut are missing. */
  partial?: boolean;
  raw: unknown;
  src: SourceRef;
}

export type HnsKind = 'network' | 'endpoint' | 'loadbalancer' | 'namespace' | 'unknown';

export interface HnsFile {
  /** The kind most objects in the file have ('unknown' for an empty or unrecognised file). */
  kind: HnsKind;
  networks: HnsNetwork[];
  endpoints: HnsEndpoint[];
  loadBalancers: HnsLoadBalancer[];
  namespaces: HnsNamespace[];
  /** JSON values that are none of the above (e.g. port pool allocations), with their line. */
  unknown: { value: unknown; line: number }[];
  /** Rows of the PowerShell table or list that precedes the JSON, when there is one. */
  table?: Record<string, string>[];
}
