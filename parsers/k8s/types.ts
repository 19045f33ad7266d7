// Kubernetes objects hnsight reads from `kubectl get pods,svc,endpointslices -A -o json`: only the
// fields that name what a node programmed (pod IPs, service VIPs and ports, the backends of a service).
import type { SourceRef } from '../types.ts';

export interface K8sPod {
  namespace: string;
  name: string;
  uid?: string;
  nodeName?: string;
  hostIp?: string;
  /** status.podIPs (or podIP), IPv4 and IPv6 as printed. */
  ips: string[];
  phase?: string;
  hostNetwork: boolean;
  /** containerStatuses[].containerID without the `containerd://` prefix. */
  containerIds: string[];
  /** metadata.labels (a Service's selector picks pods by them). */
  labels: Record<string, string>;
  /** status.conditions Ready (undefined when the snapshot does not say). */
  ready?: boolean;
  src: SourceRef;
}

/** A cluster node: its addresses (to name node IPs and find this node) and pod CIDR(s). */
export interface K8sNode {
  name: string;
  /** status.addresses: InternalIP, ExternalIP, Hostname … */
  addresses: { type: string; address: string }[];
  /** spec.podCIDRs (or podCIDR). */
  podCidrs: string[];
  /** metadata.labels kubernetes.io/os. */
  os?: string;
  src: SourceRef;
}

export interface K8sServicePort {
  name?: string;
  /** TCP, UDP, SCTP (upper case; TCP when absent, as the API defaults it). */
  protocol: string;
  port: number;
  targetPort?: number | string;
  nodePort?: number;
}

export interface K8sService {
  namespace: string;
  name: string;
  type: string;
  /** clusterIPs (or clusterIP); empty for a headless service (`None`). */
  clusterIps: string[];
  externalIps: string[];
  loadBalancerIps: string[];
  ports: K8sServicePort[];
  selector?: Record<string, string>;
  externalTrafficPolicy?: string;
  src: SourceRef;
}

export interface K8sSliceEndpoint {
  addresses: string[];
  /** conditions.ready; absent means ready (API semantics: nil = unknown, treated as ready). */
  ready: boolean;
  nodeName?: string;
  targetPod?: { namespace: string; name: string };
}

export interface K8sEndpointSlice {
  namespace: string;
  name: string;
  /** The kubernetes.io/service-name label. */
  serviceName?: string;
  addressType?: string;
  endpoints: K8sSliceEndpoint[];
  ports: { name?: string; port?: number; protocol: string }[];
  src: SourceRef;
}

export interface K8sSnapshot {
  pods: K8sPod[];
  services: K8sService[];
  endpointSlices: K8sEndpointSlice[];
  nodes: K8sNode[];
  /** Items of other kinds, counted by kind (kubectl lists may hold anything). */
  other: Record<string, number>;
  files: string[];
}
