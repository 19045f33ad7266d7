// The IPv6 side of a dual-stack node for reach: which source addresses have one (a pod's IPv6Address
// in Get-HnsEndpoint, the host's IPv6 address from ipconfig), the default IPv6 destinations of the
// matrix, and what the bundle lacks to decide where IPv6 packets go.
import type { NodeModel } from '../../../parsers/model/types.ts';
import type { Proto } from '../../walk/types.ts';
import { walkContext } from '../../walk/context.ts';
import { checkContext } from '../../checks/context.ts';
import { k8sNames } from '../../k8s/index.ts';
import { canonIp, familyOf } from '../../walk/ip.ts';
import type { Endpoint, Source } from '../reach-types.ts';

/** An endpoint's IPv6 address: IPv6Address, or IPAddress when that is IPv6 (an IPv6-only endpoint). */
const v6Of = (e: { ip?: string; ipv6?: string }): string | undefined => canonIp(e.ipv6) ?? (familyOf(e.ip) === 6 ? canonIp(e.ip) : undefined);

/** An address outside the cluster: example.com's IPv6 address, as OUTSIDE (matrix.ts) is its IPv4 one. */
export const OUTSIDE6 = '2606:2800:220:1:248:1893:25c8:1946';

/** Why the bundle cannot say where IPv6 packets leave the node, or undefined when it can. */
export function noRoutes6(m: NodeModel): string | undefined {
  if (!m.routes) return undefined; // the walk itself says "routes.txt is missing" (unknown)
  if (m.routes.ipv6Active.length) return undefined;
  return 'the route table (routes.txt) lists no IPv6 route: IPv6 was not collected (route print -4) or is not configured';
}

/** Whether the bundle shows any IPv6 pod address or pod subnet (HNS endpoints and networks). */
export function hasIpv6Pods(m: NodeModel): boolean {
  return (m.endpoints ?? []).some((e) => v6Of(e) !== undefined) || (m.networks ?? []).some((n) => n.subnets.some((s) => familyOf(s.prefix.split('/')[0]) === 6));
}

/** The other family's address of the same pod or of the host (a dual-stack source), if the bundle has it. */
export function otherFamilyOf(m: NodeModel, ip: string): string | undefined {
  const ctx = walkContext(m);
  const c = canonIp(ip);
  if (!c) return undefined;
  const e = ctx.local.get(c);
  if (e) return familyOf(c) === 4 ? v6Of(e) : familyOf(e.ip) === 4 ? e.ip : undefined;
  if (c === ctx.nodeIp) return ctx.nodeIp6;
  if (c === ctx.nodeIp6) return ctx.nodeIp;
  return undefined;
}

/** Every local pod with an IPv6 address, and the host's IPv6 address. */
export function sources6(m: NodeModel): Source[] {
  const names = k8sNames(m);
  const out: Source[] = [];
  for (const e of checkContext(m).localPods) {
    const v6 = v6Of(e);
    if (v6) out.push({ ip: v6, ...((names.podLabel(e.ip) ?? names.podLabel(v6)) ? { name: names.podLabel(e.ip) ?? names.podLabel(v6) } : {}) });
  }
  const node6 = walkContext(m).nodeIp6;
  if (node6) out.push({ ip: node6, name: 'host' });
  return out;
}

/**
 * The IPv6 destinations of the default matrix, as defaultDestinations (matrix.ts) for IPv4: every local
 * pod's IPv6 address (on the ports its Services target, else a ping), every IPv6 Service port, remote
 * pods' IPv6 addresses, the node's IPv6 address and the outside.
 */
export function destinations6(m: NodeModel): Endpoint[] {
  const ctx = walkContext(m);
  const names = k8sNames(m);
  const out: Endpoint[] = [];
  const seen = new Set<string>();
  const push = (e: Endpoint) => {
    const k = `${e.ip}|${e.port ?? ''}|${e.proto}`;
    if (!seen.has(k)) {
      seen.add(k);
      out.push(e);
    }
  };
  const protoOf = (n: number): Proto | undefined => (n === 6 ? 'tcp' : n === 17 ? 'udp' : undefined);
  const v6lbs = (m.loadBalancers ?? []).filter((lb) => lb.vips.some((v) => familyOf(v) === 6));
  for (const e of checkContext(m).localPods) {
    const v6 = v6Of(e);
    if (!v6) continue;
    const name = names.podLabel(e.ip) ?? names.podLabel(v6);
    let any = false;
    for (const lb of v6lbs) {
      if (!lb.endpointIds.some((id) => id.toLowerCase() === e.id.toLowerCase())) continue;
      for (const p of lb.ports) {
        const proto = protoOf(p.protocol);
        if (!proto || !p.internalPort) continue;
        any = true;
        push({ ip: v6, port: p.internalPort, proto, ...(name ? { name } : {}) });
      }
    }
    if (!any) push({ ip: v6, proto: 'icmp', ...(name ? { name } : {}), inferred: 'no IPv6 Service targets this pod: a ping stands for it' });
  }
  for (const lb of v6lbs)
    for (const vip of lb.vips.filter((v) => familyOf(v) === 6))
      for (const p of lb.ports) {
        const proto = protoOf(p.protocol);
        const name = names.serviceLabel(vip) ?? names.lbLabel(lb);
        if (proto && p.externalPort) push({ ip: canonIp(vip)!, port: p.externalPort, proto, ...(name ? { name } : {}) });
      }
  for (const e of m.endpoints ?? []) {
    const v6 = v6Of(e);
    if (e.isRemote && v6) push({ ip: v6, proto: 'icmp', name: names.podLabel(e.ip) ?? names.podLabel(v6) ?? 'remote endpoint', remote: true });
  }
  if (ctx.nodeIp6) push({ ip: ctx.nodeIp6, proto: 'icmp', name: 'node' });
  push({ ip: OUTSIDE6, port: 443, proto: 'tcp', name: 'outside' });
  return out;
}
