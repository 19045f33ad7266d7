// Whether a remote HNS endpoint is a pod on another node, or another address kube-proxy made an endpoint
// for (the routing stage's words; engine/routing.ts asks).
// kube-proxy (kubernetes/kubernetes pkg/proxy/winkernel proxier.go) creates a remote HNS endpoint for
// every Service backend that is not on this node — the API server behind default/kubernetes too, whose
// address is a node's or a cloud's, not a pod's. So "remote endpoint" alone does not say "pod".
// A pod address lies in the pod network the bundle shows: an HNS subnet that holds a pod of this node,
// an HNS RemoteSubnetRoute (a remote node's pod subnet), or an OutBoundNAT ExceptionList entry that holds
// a pod of this node (the cluster range: kubernetes.io "Windows debugging tips", "10.244.0.0/16 # Cluster
// subnet"; AKS's VNet range, aks-win-zip-2025's 10.224.0.0/12); a kubectl snapshot decides first when it
// names the address. Outside them it is called no pod only when the bundle shows such a wide range.
import type { NodeModel } from '../../parsers/model/types.ts';
import type { HnsEndpoint } from '../../parsers/hns/index.ts';
import type { WalkContext } from './context.ts';
import { k8sNames } from '../k8s/index.ts';
import { cidrRange, inCidr, intToIp, podRangeCandidate } from './ip.ts';
import { serviceRanges } from '../k8s/service-range.ts';

const memo = new WeakMap<NodeModel, { wide: string[]; own: string[] }>();
const apiMemo = new WeakMap<NodeModel, Set<string>>();

/**
 * The backends of the `kubernetes` Service as far as the HNS load balancers show it, without a
 * kubectl snapshot (inferred): kube-apiserver gives default/kubernetes the first address of the
 * Service range (kubernetes pkg/controlplane ServiceIPRange: the range's index-1 address) on port 443.
 * Where the bundle names the range (kubeclusterconfig.json, service-range.ts), a TCP load balancer on
 * that first address and port 443 is it; where it does not, one on an address ending in .0.1 whose 443
 * goes to 6443 (kubeadm's API server port, cmd/kubeadm/app/constants KubeAPIServerPort) is.
 */
export function apiServerBackends(m: NodeModel): Set<string> {
  let out = apiMemo.get(m);
  if (out) return out;
  out = new Set<string>();
  const firsts = new Set(serviceRanges(m).flatMap((r) => {
    const c = cidrRange(r.cidr);
    return c ? [intToIp(c.lo + 1)] : [];
  }));
  const byId = new Map((m.endpoints ?? []).map((e) => [e.id.toLowerCase(), e.ip]));
  for (const lb of m.loadBalancers ?? []) {
    const tcp443 = lb.ports.filter((p) => p.externalPort === 443 && p.protocol === 6);
    if (!tcp443.length) continue;
    const first = firsts.size ? lb.vips.some((v) => firsts.has(v)) : lb.vips.some((v) => /\.0\.1$/.test(v)) && tcp443.some((p) => p.internalPort === 6443);
    if (!first) continue;
    for (const id of lb.endpointIds) {
      const ip = byId.get(id.toLowerCase());
      if (ip) out.add(ip);
    }
  }
  apiMemo.set(m, out);
  return out;
}

/**
 * The prefixes that hold pods, once per model: `wide` the ranges that span other nodes' pods
 * (RemoteSubnetRoutes, the cluster range of the ExceptionList), `own` this node's pod subnets (they
 * say an address is a pod, never that one outside them is not: other nodes' pods lie elsewhere).
 */
function podPrefixes(m: NodeModel, localPods: readonly string[]): { wide: string[]; own: string[] } {
  let out = memo.get(m);
  if (out) return out;
  const holdsLocal = (cidr: string) => localPods.some((ip) => inCidr(ip, cidr));
  const wide = new Set<string>();
  const own = new Set<string>();
  for (const n of m.networks ?? []) {
    for (const s of n.subnets) if (s.prefix && holdsLocal(s.prefix)) own.add(s.prefix);
    for (const r of n.remoteSubnetRoutes) wide.add(r.destinationPrefix);
  }
  const cluster = (x: string) => podRangeCandidate(x) && holdsLocal(x);
  for (const e of m.endpoints ?? []) for (const o of e.outboundNat) for (const x of o.exceptions) if (cluster(x)) wide.add(x);
  out = { wide: [...wide], own: [...own] };
  memo.set(m, out);
  return out;
}

/**
 * true: a pod (on another node); false: not a pod (an address outside the pod network, or one the
 * kubectl snapshot names as the API server); undefined: the bundle shows no pod network to tell.
 */
export function remoteIsPod(ctx: WalkContext, ep: HnsEndpoint): boolean | undefined {
  const m = ctx.model;
  const ip = ep.ip;
  if (!ip) return undefined;
  const names = k8sNames(m);
  if (names.present && names.podByIp(ip)) return true;
  if (names.apiServerLabel(ip)) return false;
  // Before the pod ranges: on Azure CNI and EKS the exemptions hold the VNet or VPC, where an API
  // server can live too (AKS API Server VNet Integration).
  if (apiServerBackends(m).has(ip)) return false;
  const { wide, own } = podPrefixes(m, localPods(ctx));
  if ([...wide, ...own].some((p) => inCidr(ip, p))) return true;
  // Outside them: not a pod only when the bundle shows the ranges other nodes' pods are in.
  return wide.length ? false : undefined;
}

/**
 * This node's pods' addresses: local endpoints whose vNIC is in a compartment other than the host's
 * (the host's own endpoints — flannel's bridge endpoint, the node's address — would make the node's
 * subnet a pod range); every local endpoint when the bundle has no ipconfig to tell.
 */
function localPods(ctx: WalkContext): string[] {
  const all = [...ctx.local.entries()];
  if (!ctx.adapterOf.size) return all.map(([ip]) => ip);
  return all.filter(([, e]) => (ctx.adapterOf.get(e.id)?.compartment.id ?? 1) !== 1).map(([ip]) => ip);
}

/** The routing hop's words for a remote endpoint the packet goes to. */
export function remoteWords(isPod: boolean | undefined, ip: string, id: string, ctx?: WalkContext): string {
  if (isPod === false && ctx) {
    const m = ctx.model;
    const { wide, own } = podPrefixes(m, localPods(ctx));
    const outside = wide.length > 0 && ![...wide, ...own].some((p) => inCidr(ip, p));
    if (!outside && k8sNames(m).apiServerLabel(ip)) return `${ip} is remote endpoint ${id}, the API server (default/kubernetes in the kubectl snapshot), not a pod`;
    // Told by the load balancer alone, where no pod network the bundle shows places it outside.
    if (!outside && apiServerBackends(m).has(ip))
      return `${ip} is remote endpoint ${id}, the backend of the kubernetes Service's address (the first of the Service range, port 443): the API server, not a pod (inferred from the load balancer, not named by a kubectl snapshot)`;
  }
  if (isPod === false)
    return `${ip} is remote endpoint ${id}, outside the pod network this bundle shows (its RemoteSubnetRoutes and the cluster range of its OutBoundNAT exceptions): not a pod, but a Service backend elsewhere, such as the API server (kube-proxy makes a remote endpoint for every Service backend not on this node)`;
  return `${ip} is a pod on another node (remote endpoint ${id})`;
}
