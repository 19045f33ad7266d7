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
  /** spec.dnsPolicy as printed (ClusterFirst, Default, None, ClusterFirstWithHostNet); undefined when absent. */
  dnsPolicy?: string;
  /** containerStatuses[].containerID without the `containerd://` prefix. */
  containerIds: string[];
  /** metadata.labels (a Service's selector picks pods by them). */
  labels: Record<string, string>;
  /** status.conditions Ready (undefined when the snapshot does not say). */
  ready?: boolean;
  /** metadata.creationTimestamp as printed (RFC 3339). */
  createdAt?: string;
  /**
   * spec.containers[].ports[] (a NetworkPolicy's named port resolves on them); undefined when the
   * snapshot has no spec.containers for the pod (then a named port cannot be resolved).
   */
  containerPorts?: K8sContainerPort[];
  /** spec.serviceAccountName (Calico selects by `projectcalico.org/serviceaccount`). */
  serviceAccount?: string;
  src: SourceRef;
}

export interface K8sContainerPort {
  name?: string;
  port: number;
  /** TCP, UDP, SCTP (TCP when absent, as the API defaults it). */
  protocol: string;
}

/** A Namespace (`kubectl get namespaces -o json`): its labels, which namespaceSelectors match. */
export interface K8sNamespace {
  name: string;
  labels: Record<string, string>;
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
  /** The newest status.conditions[].lastHeartbeatTime (kubelet posts node status at least every 5 minutes). */
  heartbeat?: string;
  /** The Ready condition (undefined when the snapshot does not say). */
  ready?: boolean;
  createdAt?: string;
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
  internalTrafficPolicy?: string;
  createdAt?: string;
  src: SourceRef;
}

export interface K8sSliceEndpoint {
  addresses: string[];
  /** conditions.ready; absent means ready (API semantics: nil = unknown, treated as ready). */
  ready: boolean;
  /** conditions.serving / terminating (undefined when absent). */
  serving?: boolean;
  terminating?: boolean;
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
  /** networking.k8s.io/v1 NetworkPolicies and Calico's NetworkPolicy / GlobalNetworkPolicy. */
  networkPolicies: K8sNetworkPolicy[];
  /** Namespace objects, when the snapshot holds them (empty: their labels are not known). */
  namespaces: K8sNamespace[];
  /** Items of other kinds, counted by kind (kubectl lists may hold anything). */
  other: Record<string, number>;
  files: string[];
}

/** A label selector (metav1.LabelSelector): every matchLabels pair and every expression must hold. */
export interface K8sLabelSelector {
  matchLabels: Record<string, string>;
  matchExpressions: { key: string; operator: string; values: string[] }[];
}

/** One peer of a policy rule: Kubernetes (podSelector / namespaceSelector / ipBlock) or Calico (selector, nets). */
export interface K8sPolicyPeer {
  podSelector?: K8sLabelSelector;
  namespaceSelector?: K8sLabelSelector;
  ipBlock?: { cidr: string; except: string[] };
  /** Calico: the selector expression as written (`app == 'web'`), not evaluated. */
  calicoSelector?: string;
  calicoNamespaceSelector?: string;
  nets?: string[];
  notNets?: string[];
}

export interface K8sPolicyPort {
  protocol: string;
  /** A number, a named container port, or absent (every port). */
  port?: number | string;
  endPort?: number;
}

export interface K8sPolicyRule {
  /** Empty: every peer (Kubernetes: `from`/`to` absent). */
  peers: K8sPolicyPeer[];
  /** Empty: every port. */
  ports: K8sPolicyPort[];
  /** Calico rules carry an action; Kubernetes rules only allow. */
  action: 'Allow' | 'Deny' | 'Log' | 'Pass';
  /** Calico: the rule as written, both ends (projectcalico/api v3 Rule, EntityRule). */
  calico?: CalicoRule;
}

/** One end of a Calico rule (EntityRule): every field given must hold. */
export interface CalicoEntity {
  selector?: string;
  notSelector?: string;
  namespaceSelector?: string;
  nets: string[];
  notNets: string[];
  ports: K8sPolicyPort[];
  notPorts: K8sPolicyPort[];
  /** Fields read but not evaluated (serviceAccounts, services). */
  unmodelled: string[];
}

export interface CalicoRule {
  /** Upper case name (TCP, UDP, ICMP …) or the number as text; absent: any. */
  protocol?: string;
  notProtocol?: string;
  /** 4 or 6 when the rule is limited to one family. */
  ipVersion?: number;
  source: CalicoEntity;
  destination: CalicoEntity;
  /** Fields read but not evaluated (http). */
  unmodelled: string[];
}

export interface K8sNetworkPolicy {
  flavour: 'kubernetes' | 'calico' | 'calico-global';
  /** Absent for a Calico GlobalNetworkPolicy. */
  namespace?: string;
  name: string;
  /** Kubernetes: spec.podSelector. */
  podSelector?: K8sLabelSelector;
  /** Calico: spec.selector as written. */
  calicoSelector?: string;
  /** As declared, else as the API defaults them (Ingress, plus Egress when egress rules exist). */
  policyTypes: ('Ingress' | 'Egress')[];
  ingress: K8sPolicyRule[];
  egress: K8sPolicyRule[];
  /** Calico: spec.order (lower applies first). */
  order?: number;
  /** Calico: spec.tier (absent: default). */
  tier?: string;
  /** Calico GlobalNetworkPolicy: spec.namespaceSelector (the namespaces of the endpoints it applies to). */
  calicoNamespaceSelector?: string;
  /** Calico: policy fields hnsight reads but does not evaluate (serviceAccountSelector, doNotTrack, preDNAT). */
  unmodelled?: string[];
  createdAt?: string;
  src: SourceRef;
}
