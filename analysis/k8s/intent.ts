// Kubernetes intent (the kubectl snapshot) against what this node programmed: each Service port's
// backends — the EndpointSlice's ready addresses, else the Running pods its selector picks — against
// the HNS load balancer's DIPs (and, when the caller can read them, the VFP LB rule's DIP range); and
// the Running pods of this node against the local HNS endpoints.
import type { NodeModel } from '../../parsers/model/types.ts';
import type { HnsEndpoint, HnsLoadBalancer } from '../../parsers/hns/index.ts';
import type { K8sEndpointSlice, K8sNode, K8sPod, K8sService } from '../../parsers/k8s/index.ts';
import { k8sNames } from './names.ts';

const PROTO: Record<string, number> = { TCP: 6, UDP: 17, SCTP: 132 };

export interface ServiceIntent {
  service: K8sService;
  /** The VIP the load balancer must have; '' for a NodePort load balancer. */
  vip: string;
  port: number;
  protocol: string;
  nodePort: boolean;
  /** Where the backends come from. */
  source: 'EndpointSlice' | 'selector' | 'none';
  ready: string[];
  notReady: string[];
  lb?: HnsLoadBalancer;
  hnsDips: string[];
  /** The VFP LB rule's DIP range on one pod port (a NodePort's: on the host vNIC port), when the caller could read it. */
  vfp?: { ips: string[]; port: string; src?: { file: string; line: number } };
  /** DIPs (HNS or VFP) that no Running pod holds and that are not backends: their traffic is black-holed. */
  stale: string[];
  /** DIPs held by a Running pod that is not a ready backend (not ready, or no longer selected). */
  notBackend: string[];
  /** Ready backends the load balancer does not send to. */
  missing: string[];
}

export interface PodIntent {
  node?: K8sNode;
  /** How this node was found in the snapshot. */
  nodeBy?: 'address' | 'name';
  /** Running pods of this node (not hostNetwork) with an IPv4 address. */
  pods: K8sPod[];
  /** Those with no local HNS endpoint holding their IP. */
  withoutEndpoint: K8sPod[];
  /** Local pod endpoints whose IP no pod of the snapshot holds (a leftover of a deleted pod). */
  withoutPod: HnsEndpoint[];
}

const v4 = (ip: string) => !ip.includes(':');
const matches = (labels: Record<string, string>, sel: Record<string, string>) => Object.entries(sel).every(([k, v]) => labels[k] === v);

/**
 * `vfpDips` reads the VFP LB rule of a VIP:port/proto; for a NodePort load balancer it is asked with
 * `nodePort` set (the load balancer's own VIPs, often none), and reads the rule on the host port.
 */
export function serviceIntents(m: NodeModel, vfpDips?: (vip: string, port: number, proto: number, nodePort?: { lbVips: string[] }) => ServiceIntent['vfp']): ServiceIntent[] {
  const snap = m.k8s;
  if (!snap) return [];
  const names = k8sNames(m);
  const epIp = new Map((m.endpoints ?? []).map((e) => [e.id.toLowerCase(), e.ip]));
  const running = new Set(snap.pods.filter((p) => p.phase === 'Running').flatMap((p) => p.ips));
  const nodeIps = new Set(snap.nodes.flatMap((n) => n.addresses.map((a) => a.address)));
  const lbs = m.loadBalancers ?? [];
  // Load balancers by VIP|port|proto and by port|proto (NodePort), and slices by Service: one pass each.
  const lbByKey = new Map<string, HnsLoadBalancer>();
  const lbByPort = new Map<string, HnsLoadBalancer[]>();
  for (const l of lbs) {
    for (const x of l.ports) {
      for (const v of l.vips) if (!lbByKey.has(`${v}|${x.externalPort}|${x.protocol}`)) lbByKey.set(`${v}|${x.externalPort}|${x.protocol}`, l);
      const k = `${x.externalPort}|${x.protocol}`;
      lbByPort.set(k, [...(lbByPort.get(k) ?? []), l]);
    }
  }
  const slicesBySvc = new Map<string, K8sEndpointSlice[]>();
  for (const s of snap.endpointSlices) {
    const k = `${s.namespace}/${s.serviceName ?? ''}`;
    slicesBySvc.set(k, [...(slicesBySvc.get(k) ?? []), s]);
  }
  const out: ServiceIntent[] = [];
  for (const svc of snap.services) {
    if (svc.type === 'ExternalName' || !svc.clusterIps.some(v4)) continue;
    const slices = (slicesBySvc.get(`${svc.namespace}/${svc.name}`) ?? []).filter((s) => (s.addressType ?? 'IPv4') === 'IPv4');
    let source: ServiceIntent['source'] = 'none';
    let ready: string[] = [];
    let notReady: string[] = [];
    if (slices.length) {
      source = 'EndpointSlice';
      ready = [...new Set(slices.flatMap((s) => s.endpoints.filter((e) => e.ready).flatMap((e) => e.addresses)))];
      notReady = [...new Set(slices.flatMap((s) => s.endpoints.filter((e) => !e.ready).flatMap((e) => e.addresses)))].filter((x) => !ready.includes(x));
    } else if (svc.selector && Object.keys(svc.selector).length) {
      source = 'selector';
      const picked = snap.pods.filter((p) => p.namespace === svc.namespace && p.phase === 'Running' && !p.hostNetwork && matches(p.labels, svc.selector!));
      ready = [...new Set(picked.filter((p) => p.ready !== false).flatMap((p) => p.ips.filter(v4)))];
      notReady = [...new Set(picked.filter((p) => p.ready === false).flatMap((p) => p.ips.filter(v4)))];
    }
    const entries: { vip: string; port: number; protocol: string; nodePort: boolean; lb?: HnsLoadBalancer }[] = [];
    for (const p of svc.ports) {
      const proto = PROTO[p.protocol] ?? 6;
      for (const vip of svc.clusterIps.filter(v4)) {
        entries.push({ vip, port: p.port, protocol: p.protocol, nodePort: false, lb: lbByKey.get(`${vip}|${p.port}|${proto}`) });
      }
      if (p.nodePort) {
        // kube-proxy's NodePort load balancer: no VIP, or a node address, on the node port.
        const lb = (lbByPort.get(`${p.nodePort}|${proto}`) ?? []).find((l) => names.serviceOfLb(l)?.service === svc);
        entries.push({ vip: '', port: p.nodePort, protocol: p.protocol, nodePort: true, lb });
      }
    }
    for (const e of entries) {
      const hnsDips = e.lb ? [...new Set(e.lb.endpointIds.map((id) => epIp.get(id.toLowerCase())).filter((x): x is string => !!x))] : [];
      const vfp = e.lb && vfpDips ? vfpDips(e.vip, e.port, PROTO[e.protocol] ?? 6, e.nodePort ? { lbVips: e.lb.vips } : undefined) : undefined;
      const dips = [...new Set([...hnsDips, ...(vfp?.ips ?? [])])];
      // Backends outside the pod network (the API server behind `kubernetes`, host-network pods) are
      // in the EndpointSlice; a DIP is stale only if it is neither a backend nor any Running pod's or node's.
      const stale = dips.filter((ip) => !ready.includes(ip) && !notReady.includes(ip) && !running.has(ip) && !nodeIps.has(ip));
      const notBackend = dips.filter((ip) => !ready.includes(ip) && !stale.includes(ip));
      const missing = e.lb ? ready.filter((ip) => !hnsDips.includes(ip)) : [];
      out.push({ service: svc, vip: e.vip, port: e.port, protocol: e.protocol, nodePort: e.nodePort, source, ready, notReady, lb: e.lb, hnsDips, vfp, stale, notBackend, missing });
    }
  }
  return out;
}

export function podIntent(m: NodeModel): PodIntent {
  const snap = m.k8s;
  if (!snap) return { pods: [], withoutEndpoint: [], withoutPod: [] };
  const names = k8sNames(m);
  const host = (m.meta.hostName ?? '').toLowerCase();
  const node = names.thisNode;
  const nodeBy: PodIntent['nodeBy'] = node ? (node.name.toLowerCase().split('.')[0] === host.split('.')[0] ? 'name' : 'address') : host ? 'name' : undefined;
  const mine = (p: K8sPod) => (node ? p.nodeName === node.name : !!host && p.nodeName?.toLowerCase() === host);
  const pods = snap.pods.filter((p) => !p.hostNetwork && p.phase === 'Running' && mine(p) && p.ips.some(v4));
  const local = (m.endpoints ?? []).filter((e) => !e.isRemote && e.ip);
  const localIps = new Set(local.map((e) => e.ip));
  const withoutEndpoint = pods.filter((p) => !p.ips.some((ip) => localIps.has(ip)));
  const anyPod = new Set(snap.pods.flatMap((p) => p.ips));
  return { node, nodeBy, pods, withoutEndpoint, withoutPod: snap.pods.length && (node || host) ? local.filter((e) => !anyPod.has(e.ip!)) : [] };
}


