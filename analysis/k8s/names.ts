// Kubernetes names for what the node programmed, from the optional kubectl snapshot: a pod by IP (on
// this node or another), a Service by VIP and port (a NodePort Service by its node port, since
// kube-proxy's NodePort load balancers carry no VIP or a node address), a node by any of its
// addresses. Without a snapshot every lookup answers undefined.
import type { NodeModel } from '../../parsers/model/types.ts';
import type { HnsLoadBalancer } from '../../parsers/hns/index.ts';
import type { K8sNode, K8sPod, K8sService, K8sServicePort } from '../../parsers/k8s/index.ts';
import { nodeAddress } from '../platform/index.ts';
import { parseCidr } from '../../parsers/net/ip.ts';

export interface K8sRef {
  /** `Endpoint`: a backend address of a Service that is no pod or node (the API server behind default/kubernetes). */
  kind: 'Pod' | 'Service' | 'Node' | 'Endpoint';
  namespace?: string;
  name: string;
  /** Pod: the node it runs on. Service: its type. */
  node?: string;
  type?: string;
  /** Service: the port the object stands for (`53/UDP`, `NodePort 31486/TCP`). */
  port?: string;
}

export interface K8sNames {
  present: boolean;
  podByIp(ip: string | undefined): K8sPod | undefined;
  serviceByVip(vip: string | undefined): K8sService | undefined;
  servicePort(vip: string, port: number, proto: number): { service: K8sService; port: K8sServicePort } | undefined;
  /** The Service a load balancer stands for: by VIP and port, or by node port for NodePort load balancers. */
  serviceOfLb(lb: HnsLoadBalancer): { service: K8sService; port?: K8sServicePort; nodePort: boolean } | undefined;
  nodeByIp(ip: string | undefined): K8sNode | undefined;
  /** The Node object of the node the bundle was collected on. */
  thisNode: K8sNode | undefined;
  /** `ns/name` of the pod with this IP, or undefined. */
  podLabel(ip: string | undefined): string | undefined;
  serviceLabel(vip: string | undefined): string | undefined;
  lbLabel(lb: HnsLoadBalancer): string | undefined;
  nodeLabel(ip: string | undefined): string | undefined;
  /** `API server, default/kubernetes` for a backend address of the `kubernetes` Service in `default`. */
  apiServerLabel(ip: string | undefined): string | undefined;
  /** What an address is in Kubernetes terms: a pod, a Service VIP or a node. */
  refOfIp(ip: string | undefined): K8sRef | undefined;
  refOfLb(lb: HnsLoadBalancer): K8sRef | undefined;
  /** The pod whose sandbox/container ID this is (any prefix of 8+ hex digits). */
  podByContainerId(id: string): K8sPod | undefined;
  /**
   * Any address the snapshot knows, in words: `shop/db-0, pod on node lin-1` (a pod of another
   * node), `default/web-1` (a pod of this node), `Service kube-system/kube-dns`, `node lin-1`, `API
   * server, default/kubernetes`, or `in the pod CIDR of node lin-1` for an address in a
   * Node's spec.podCIDRs that no pod holds.
   */
  addressLabel(ip: string | undefined): string | undefined;
  /** `pod CIDR of node lin-1` when a Node's spec.podCIDRs holds exactly this prefix. */
  cidrLabel(prefix: string | undefined): string | undefined;
}

const cache = new WeakMap<NodeModel, K8sNames>();
export const protoName = (p: number): string => (p === 6 ? 'TCP' : p === 17 ? 'UDP' : p === 132 ? 'SCTP' : String(p));

export function k8sNames(m: NodeModel): K8sNames {
  let n = cache.get(m);
  if (n) return n;
  const snap = m.k8s;
  const pods = new Map<string, K8sPod>();
  const svcs = new Map<string, K8sService>();
  const nodes = new Map<string, K8sNode>();
  const byNodePort = new Map<string, { service: K8sService; port: K8sServicePort }>();
  for (const p of snap?.pods ?? []) {
    if (p.hostNetwork) continue;
    // A running pod wins over a finished one that had the same IP.
    for (const ip of p.ips) if (!pods.has(ip) || p.phase === 'Running') pods.set(ip, p);
  }
  for (const s of snap?.services ?? []) {
    for (const ip of [...s.clusterIps, ...s.externalIps, ...s.loadBalancerIps]) if (!svcs.has(ip)) svcs.set(ip, s);
    for (const p of s.ports) if (p.nodePort) byNodePort.set(`${p.nodePort}/${p.protocol}`, { service: s, port: p });
  }
  for (const node of snap?.nodes ?? []) for (const a of node.addresses) if (!nodes.has(a.address)) nodes.set(a.address, node);
  const podCidrs = (snap?.nodes ?? []).flatMap((node) => node.podCidrs.map((c) => ({ c: parseCidr(c), text: c, node: node.name }))).filter((x) => x.c?.family === 'ipv4' && x.c.network !== undefined);
  const cidrOfIp = (ip: string) => {
    const a = parseCidr(`${ip}/32`);
    if (!a || a.family !== 'ipv4' || a.network === undefined) return undefined;
    return podCidrs.find((x) => x.c!.prefixLength === 0 || a.network! >>> (32 - x.c!.prefixLength) === x.c!.network! >>> (32 - x.c!.prefixLength));
  };
  // The API server's addresses: the backends of Service default/kubernetes (its EndpointSlice, or the
  // Endpoints the API server writes for it). kube-proxy on Windows reaches them through remote
  // endpoints HNS names "Ethernet" (kube-proxy winkernel dumps, microsoft/SDN#227).
  const apiServer = new Set((snap?.endpointSlices ?? []).filter((x) => x.namespace === 'default' && x.serviceName === 'kubernetes').flatMap((x) => x.endpoints.flatMap((e) => e.addresses)));
  const host = (m.meta.hostName ?? '').toLowerCase();
  const me = nodeAddress(m);
  const thisNode = (snap?.nodes ?? []).find((x) => (me && x.addresses.some((a) => a.address === me)) || (host && x.name.toLowerCase().split('.')[0] === host.split('.')[0]));
  const hostIps = new Set<string>([me ?? '', ...(m.ip?.compartments.find((c) => c.id === 1)?.adapters.flatMap((a) => a.ipv4.map((i) => i.address)) ?? [])].filter(Boolean));
  const label = (x: { namespace: string; name: string } | undefined) => (x ? `${x.namespace}/${x.name}` : undefined);
  const serviceOfLb = (lb: HnsLoadBalancer) => {
    for (const vip of lb.vips) {
      const s = svcs.get(vip);
      if (!s) continue;
      const p = lb.ports.map((x) => s.ports.find((q) => q.port === x.externalPort && q.protocol === protoName(x.protocol))).find(Boolean);
      return { service: s, port: p, nodePort: false };
    }
    // NodePort: no VIP, or a node's own address as VIP (kube-proxy winkernel).
    if (!lb.vips.length || lb.vips.every((v) => hostIps.has(v) || nodes.has(v))) {
      for (const x of lb.ports) {
        const hit = byNodePort.get(`${x.externalPort}/${protoName(x.protocol)}`);
        if (hit) return { ...hit, nodePort: true };
      }
    }
    return undefined;
  };
  n = {
    present: !!snap,
    podByIp: (ip) => (ip ? pods.get(ip) : undefined),
    serviceByVip: (vip) => (vip ? svcs.get(vip) : undefined),
    servicePort(vip, port, proto) {
      const s = svcs.get(vip);
      const p = s?.ports.find((x) => x.port === port && x.protocol === protoName(proto));
      if (s && p) return { service: s, port: p };
      const np = byNodePort.get(`${port}/${protoName(proto)}`);
      return np && (hostIps.has(vip) || nodes.has(vip) || vip === '') ? np : undefined;
    },
    serviceOfLb,
    nodeByIp: (ip) => (ip ? nodes.get(ip) : undefined),
    thisNode,
    podLabel: (ip) => label(ip ? pods.get(ip) : undefined),
    serviceLabel: (vip) => label(vip ? svcs.get(vip) : undefined),
    lbLabel: (lb) => label(serviceOfLb(lb)?.service),
    nodeLabel: (ip) => (ip ? (nodes.get(ip)?.name ?? (thisNode && hostIps.has(ip) ? thisNode.name : undefined)) : undefined),
    apiServerLabel: (ip) => (ip && apiServer.has(ip) ? 'API server, default/kubernetes' : undefined),
    refOfIp(ip) {
      if (!ip) return undefined;
      const p = pods.get(ip);
      if (p) return { kind: 'Pod', namespace: p.namespace, name: p.name, node: p.nodeName };
      const s = svcs.get(ip);
      if (s) return { kind: 'Service', namespace: s.namespace, name: s.name, type: s.type };
      const nd = nodes.get(ip) ?? (thisNode && hostIps.has(ip) ? thisNode : undefined);
      if (nd) return { kind: 'Node', name: nd.name };
      return apiServer.has(ip) ? { kind: 'Endpoint', namespace: 'default', name: 'kubernetes', type: 'API server' } : undefined;
    },
    refOfLb(lb) {
      const hit = serviceOfLb(lb);
      if (!hit) return undefined;
      return { kind: 'Service', namespace: hit.service.namespace, name: hit.service.name, type: hit.service.type, port: hit.port ? `${hit.nodePort ? `NodePort ${hit.port.nodePort}` : hit.port.port}/${hit.port.protocol}` : undefined };
    },
    addressLabel(ip) {
      if (!ip) return undefined;
      const p = pods.get(ip);
      if (p) return `${p.namespace}/${p.name}${p.nodeName && p.nodeName !== thisNode?.name ? `, pod on node ${p.nodeName}` : ''}`;
      const s = svcs.get(ip);
      if (s) return `Service ${s.namespace}/${s.name}`;
      const nd = nodes.get(ip) ?? (thisNode && hostIps.has(ip) ? thisNode : undefined);
      if (nd) return `node ${nd.name}`;
      if (apiServer.has(ip)) return 'API server, default/kubernetes';
      const c = cidrOfIp(ip);
      return c ? `in the pod CIDR of node ${c.node}` : undefined;
    },
    cidrLabel(prefix) {
      const c = prefix ? parseCidr(prefix) : undefined;
      const hit = c && podCidrs.find((x) => x.c!.network === c.network && x.c!.prefixLength === c.prefixLength);
      return hit ? `pod CIDR of node ${hit.node}` : undefined;
    },
    podByContainerId(id) {
      const k = id.toLowerCase();
      if (k.length < 8) return undefined;
      return (snap?.pods ?? []).find((p) => p.containerIds.some((c) => c.startsWith(k) || k.startsWith(c)));
    },
  };
  cache.set(m, n);
  return n;
}

/** `10.244.1.5 (default/web-1)` when the snapshot names it (a node address: `10.240.0.4 (node aks-…)`). */
export function withPod(m: NodeModel, ip: string | undefined): string {
  if (!ip) return '(no IP)';
  const names = k8sNames(m);
  const l = names.podLabel(ip);
  if (l) return `${ip} (${l})`;
  const node = names.nodeLabel(ip);
  if (node) return `${ip} (node ${node})`;
  const api = names.apiServerLabel(ip);
  return api ? `${ip} (${api})` : ip;
}

/** `10.96.0.10:53/UDP (kube-system/kube-dns)` when the snapshot names it; NodePort by its node port. */
export function withService(m: NodeModel, vip: string, port?: number, proto?: number): string {
  const names = k8sNames(m);
  const hit = port !== undefined && proto !== undefined ? names.servicePort(vip, port, proto)?.service : names.serviceByVip(vip);
  const l = hit ? `${hit.namespace}/${hit.name}` : names.serviceLabel(vip);
  const base = port !== undefined ? `${vip}:${port}/${proto !== undefined ? protoName(proto) : '?'}` : vip;
  return l ? `${base} (${l})` : base;
}
