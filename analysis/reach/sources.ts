// The matrix's sources and default destinations of one address family (issue #25 point 2), written once
// for both (family.ts): every local pod's address of the family and the host's; every local pod (on the
// ports its Services target, else a ping), every Service port, the remote pods, the node and the outside.
// A dual-stack pod is a source in each family; a pair of two families is never walked (matrix.ts).
import type { NodeModel } from '../../parsers/model/types.ts';
import type { Proto } from '../walk/types.ts';
import { walkContext } from '../walk/context.ts';
import { checkContext } from '../checks/context.ts';
import { k8sNames } from '../k8s/index.ts';
import { canonIp, familyOf } from '../walk/ip.ts';
import type { AddrFamily } from './family.ts';
import type { Endpoint, Source } from './reach-types.ts';
import { v6Of } from './v6/family6.ts';

const protoOf = (n: number): Proto | undefined => (n === 6 ? 'tcp' : n === 17 ? 'udp' : undefined);

/** Every local pod with an address of the family, and the host. */
export function sourcesOf<A extends number | bigint>(m: NodeModel, fam: AddrFamily<A>): Source[] {
  const names = k8sNames(m);
  const out: Source[] = [];
  for (const e of checkContext(m).localPods) {
    const ip = fam.addressOf(e);
    if (!ip) continue;
    const name = names.podLabel(e.ip) ?? names.podLabel(ip);
    out.push({ ip, ...(name ? { name } : {}) });
  }
  const node = fam.nodeIp(walkContext(m));
  if (node) out.push({ ip: node, name: 'host' });
  return out;
}

/** The default destinations of the family: pods on their Service target ports, Service ports, remote pods, the node, the outside. */
export function destinationsOf<A extends number | bigint>(m: NodeModel, fam: AddrFamily<A>): Endpoint[] {
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
  const services = fam.podServices(m);
  for (const e of checkContext(m).localPods) {
    const ip = fam.addressOf(e);
    if (!ip) continue;
    const id = e.id.toLowerCase();
    const name = names.podLabel(e.ip) ?? names.podLabel(ip);
    let any = false;
    for (const lb of services) {
      if (!lb.endpointIds.some((x) => x.toLowerCase() === id)) continue;
      for (const p of lb.ports) {
        const proto = protoOf(p.protocol);
        if (!proto || !p.internalPort) continue;
        any = true;
        push({ ip, port: p.internalPort, proto, ...(name ? { name } : {}) });
      }
    }
    if (!any) push({ ip, proto: 'icmp', ...(name ? { name } : {}), inferred: `no ${fam.serviceWord}Service targets this pod: a ping stands for it` });
  }
  for (const lb of m.loadBalancers ?? [])
    for (const vip of lb.vips) {
      if (fam.parse(vip) === undefined) continue;
      const name = names.serviceLabel(vip) ?? names.lbLabel(lb);
      for (const p of lb.ports) {
        const proto = protoOf(p.protocol);
        if (proto && p.externalPort) push({ ip: canonIp(vip)!, port: p.externalPort, proto, ...(name ? { name } : {}) });
      }
    }
  for (const r of fam.remoteDestinations(m, names)) push(r);
  const node = fam.nodeIp(walkContext(m));
  if (node) push({ ip: node, proto: 'icmp', name: 'node' });
  push({ ip: fam.outside, port: 443, proto: 'tcp', name: 'outside' });
  return out;
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
