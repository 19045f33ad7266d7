// Load balancing HNS does that the port dumps do not show: NodePorts, LoadBalancer ingress and external
// IPs reached from outside (kube-proxy winkernel's load balancers).
import type { HnsEndpoint, HnsLoadBalancer } from '../../../parsers/hns/index.ts';
import type { VfpPortRef } from '../../../parsers/model/types.ts';
import type { Packet } from '../types.ts';
import type { WalkOptions } from '../walk-port.ts';
import { canonIp, familyOf } from '../ip.ts';
import { protoNumber } from '../match.ts';
import { k8sNames, serviceRangeOf, type ServiceRange } from '../../k8s/index.ts';
import { K8S_LIMITS, short, Walk } from './state.ts';

/** Where a load-balanced packet goes next: the vSwitch's `forward`, passed in by the vSwitch (which
 *  calls this stage), so this stage does not import the stage that calls it. */
export type Onward = (w: Walk, srcPort: VfpPortRef | undefined, opts: WalkOptions, depth: number) => void;

/** outside → NodePort, node → its own NodePort: VFP rules first, then HNS's load balancer. */
export function nodePort(w: Walk, opts: WalkOptions, depth: number, onward: Onward): boolean {
  const { ctx } = w;
  const p = w.packet;
  if (p.dstPort === undefined || p.proto === 'icmp' || depth > 0 || w.reply) return false;
  const lb = ctx.nodePorts.get(`${p.dstPort}|${protoNumber(p)}`);
  if (!lb) return false;
  if (w.sourceKind === 'host') {
    const i = w.add({
      at: 'host',
      kind: 'drop',
      action: 'NodePort from the node itself',
      effect: { kind: 'drop', why: 'limitation' },
      // Not an inference: the bundle shows no host vNIC rule translating it, and the Kubernetes docs list
      // the limitation (analysis/walk/README.md: "fact (documented)").
      evidence: lb.src,
      note: `HNS load balancer ${short(lb.id)} publishes NodePort ${p.dstPort}/${p.proto.toUpperCase()}, but no VFP rule of the host vNIC translated this packet; the Kubernetes docs list "Local NodePort access from the node itself" as not supported on Windows`,
      nodes: [`loadbalancer:${lb.id}`],
    });
    w.caveat({ kind: 'limitation', hop: i, text: 'a node cannot reach its own NodePort on Windows (it works from other nodes and external clients)', source: `${K8S_LIMITS} ("Local NodePort access from the node itself")` });
    w.end('dropped', `NodePort ${p.dstPort} from the node itself: not translated (a documented Windows limitation)`, i);
    return true;
  }
  return hnsLoadBalance(w, lb, `NodePort ${p.dstPort}`, opts, depth, onward);
}

/**
 * Whether a VIP is an address clients outside the cluster may use: a LoadBalancer ingress IP or an
 * external IP (kube-proxy winkernel programs an HNS load balancer for each: proxier.go syncProxyRules,
 * "Create a Load Balancer Policy for each loadbalancer ingress" and the externalIPs loop), or a
 * ClusterIP, which "makes the Service only reachable from within the cluster"
 * (https://kubernetes.io/docs/concepts/services-networking/service/#type-clusterip). The Service
 * list in the bundle's kubectl snapshot says which; without it the bundle does not.
 */
export function vipKind(w: Walk, vip: string, lb?: HnsLoadBalancer): { kind: 'external' | 'cluster' | 'unknown'; range?: ServiceRange } {
  const svc = k8sNames(w.ctx.model).serviceByVip(vip);
  if (!svc) {
    // An HNS port mapping flagged ILB (internal load balancer: hcsshim hcn LoadBalancerPortMappingFlagsILB)
    // serves the cluster's own traffic only.
    if (lb?.ports.some((x) => x.ilb)) return { kind: 'cluster' };
    // The API server allocates ClusterIPs from the Service range; an external IP could be set inside
    // it, but that would shadow ClusterIPs, so an address there is taken as a ClusterIP.
    const range = serviceRangeOf(w.ctx.model, vip);
    return range ? { kind: 'cluster', range } : { kind: 'unknown' };
  }
  const c = canonIp(vip);
  if ([...svc.externalIps, ...svc.loadBalancerIps].some((x) => canonIp(x) === c)) return { kind: 'external' };
  if (svc.clusterIps.some((x) => canonIp(x) === c)) return { kind: 'cluster' };
  return { kind: 'unknown' };
}

/**
 * A packet from outside the node to an address an HNS load balancer publishes (a NodePort, a
 * LoadBalancer ingress IP, an external IP): no rule on the uplink translated it, so the walk follows
 * the HNS load balancer (the VFP rule that applies it on a real node is not in the port dumps), as a
 * real node's HNS does: DNAT to one of its backends and, when it is no DSR load balancer and HNS names
 * a SourceVIP, SNAT to that SourceVIP (kube-proxy passes its source VIP to every load balancer it
 * creates — kubernetes/kubernetes#70896 "--source-vip"; kubernetes/kubernetes#96499: the SourceVIP of a
 * load balancer policy is the address load-balanced traffic is sourced from, the node IP on L2Bridge).
 */
export function hnsLoadBalance(w: Walk, lb: HnsLoadBalancer, what: string, opts: WalkOptions, depth: number, onward: Onward, assumption?: string): boolean {
  const { ctx } = w;
  const p = w.packet;
  const backends = lb.endpointIds.map((id) => ctx.endpointsById.get(id.toLowerCase())).filter((e): e is HnsEndpoint => !!e && !!(e.ip || e.ipv6));
  const fam = familyOf(p.dstIp);
  // ExternalTrafficPolicy=Local programs the load balancer as DSR with local endpoints only (winkernel proxier.go).
  const usable = backends.filter((e) => (fam === 6 ? e.ipv6 : e.ip) && (!lb.dsr || !e.isRemote));
  const port = lb.ports.find((x) => x.externalPort === p.dstPort && x.protocol === protoNumber(p));
  const forced = w.flow.dip ? usable.find((e) => canonIp(e.ip) === canonIp(w.flow.dip) || canonIp(e.ipv6) === canonIp(w.flow.dip)) : undefined;
  // No backend only when `usable` is empty (the hash then indexes nothing).
  const pick = forced ?? usable[hashTuple(p) % usable.length];
  if (!pick) {
    const i = w.add({
      at: 'vSwitch',
      kind: 'drop',
      action: what.startsWith('NodePort') ? 'NodePort without backend' : 'no backend',
      effect: { kind: 'drop', why: 'no-lb' },
      inferred: true,
      evidence: lb.src,
      note: `HNS load balancer ${short(lb.id)} publishes ${what} but none of its endpoints is ${lb.dsr ? 'local (ExternalTrafficPolicy Local programs local endpoints only)' : 'in this bundle'}`,
      nodes: [`loadbalancer:${lb.id}`],
    });
    w.end('dropped', `${what}: no backend`, i);
    return true;
  }
  const dip = (fam === 6 ? pick.ipv6 : pick.ip)!;
  const before = { ...p };
  w.packet = { ...p, dstIp: dip, dstPort: port?.internalPort ?? p.dstPort };
  const snatTo = !lb.dsr && lb.sourceVip && familyOf(lb.sourceVip) === fam && w.sourceKind === 'outside' ? lb.sourceVip : undefined;
  if (snatTo) w.packet.srcIp = snatTo;
  w.dnatDip = canonIp(dip);
  w.viaHnsLb = true;
  const backendName = k8sNames(ctx.model).podLabel(dip);
  w.add({
    at: what.startsWith('NodePort') ? 'vSwitch (NodePort)' : 'vSwitch (load balancer)',
    kind: 'note',
    action: snatTo ? 'DNAT + SNAT' : 'DNAT',
    effect: { kind: 'lb', by: 'hns', mode: 'dnat', backend: dip, nodePort: what.startsWith('NodePort') || undefined },
    rewrite: { dstIp: dip, dstPort: w.packet.dstPort !== p.dstPort ? w.packet.dstPort : undefined, srcIp: snatTo },
    evidence: lb.src,
    inferred: true,
    stateful: true,
    note: [
      `no VFP rule on the ${w.sourceKind === 'pod' ? 'source port' : 'uplink'} translated ${what}; HNS load balancer ${short(lb.id)} publishes it (${usable.length} backend${usable.length > 1 ? 's' : ''}${lb.dsr ? ', DSR' : ''}), and the rule that applies it on a real node is not in this bundle's port dumps: the walk follows HNS${forced ? '' : usable.length > 1 ? ' and takes one backend by a hash of the 5-tuple' : ''}`,
      backendName ? `backend ${dip} is pod ${backendName}` : undefined,
      snatTo ? `the load balancer is not DSR and HNS names SourceVIP ${snatTo}: the client address ${p.srcIp} is replaced by it, so the backend answers the node, whose flow state returns the answer to the client` : undefined,
      assumption,
    ]
      .filter(Boolean)
      .join('; '),
    alternatives: usable.filter((e) => e !== pick).map((e) => (fam === 6 ? e.ipv6 : e.ip)!),
    before,
    after: { ...w.packet },
    nodes: [`loadbalancer:${lb.id}`, `endpoint:${pick.id}`],
  });
  if (!snatTo && !lb.dsr && pick.isRemote && w.sourceKind === 'outside') {
    // kubernetes/kubernetes#96499: kube-proxy gives load balancers a SourceVIP so that traffic to
    // backends on other nodes is sourced from this node; without one, the client's address reaches
    // the backend, whose answer leaves its own node straight to the client.
    w.caveat({
      kind: 'no-return',
      hop: w.hops.length - 1,
      text: `backend ${dip} is on another node and HNS names no SourceVIP for this load balancer: the client address ${p.srcIp} is kept, so the backend answers it from its own node and address, not through this node's load-balancer state (asymmetric return; the client drops an answer from ${dip})`,
      source: 'kubernetes/kubernetes#96499 (the SourceVIP of a load balancer policy for remote endpoints)',
    });
  }
  onward(w, undefined, opts, depth + 1);
  return true;
}

export function hashTuple(p: Packet): number {
  const s = `${p.srcIp}|${p.srcPort ?? ''}|${p.dstIp}|${p.dstPort ?? ''}|${p.proto}`;
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}
