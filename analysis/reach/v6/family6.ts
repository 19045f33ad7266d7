// The IPv6 family of reach (../family.ts): addresses as bigint (addr6.ts), the node's IPv6 tables
// (boundaries6.ts), the IPv6 groups of a layer (`Type : IPv6`, vfpctrl /add-group "[in|out|inv6|outv6]";
// the walk takes only the packet's family's groups: walk/walk-port.ts), the walk's rule index keyed by
// 32-digit hex (walk/match.ts), and the IPv6 side of pods and host: a pod's IPv6Address in
// Get-HnsEndpoint, the host's IPv6 address from ipconfig.
import type { NodeModel } from '../../../parsers/model/types.ts';
import type { VfpCondition, VfpGroup } from '../../../parsers/vfp/index.ts';
import { canonIp, familyOf, ipv6ToHex } from '../../walk/ip.ts';
import { byValue } from '../intervals.ts';
import type { AddrFamily } from '../family.ts';
import { bigToIp6, hexToBig, IP6_MAX, ip6ToBig, middle6 } from './addr6.ts';
import { hnsBoundaries6 } from './boundaries6.ts';
import { activeIpv6 } from '../../walk/active-routes.ts';

/** An endpoint's IPv6 address: IPv6Address, or IPAddress when that is IPv6 (an IPv6-only endpoint). */
export const v6Of = (e: { ip?: string; ipv6?: string }): string | undefined => canonIp(e.ipv6) ?? (familyOf(e.ip) === 6 ? canonIp(e.ip) : undefined);

/** An address outside the cluster: example.com's IPv6 address, as OUTSIDE (family-v4.ts) is its IPv4 one. */
export const OUTSIDE6 = '2606:2800:220:1:248:1893:25c8:1946';

/** Why the bundle cannot say where IPv6 packets leave the node, or undefined when it can (the walk says it per packet: walk/engine/routing.ts). */
export function noRoutes6(m: NodeModel): string | undefined {
  if (!m.routes) return undefined; // the walk itself says "routes.txt is missing" (unknown)
  if (activeIpv6(m.routes).length) return undefined;
  return 'the route table (routes.txt) lists no IPv6 route: IPv6 was not collected (route print -4) or is not configured';
}

/** Whether the bundle shows any IPv6 pod address or pod subnet (HNS endpoints and networks). */
export function hasIpv6Pods(m: NodeModel): boolean {
  return (m.endpoints ?? []).some((e) => v6Of(e) !== undefined) || (m.networks ?? []).some((n) => n.subnets.some((s) => familyOf(s.prefix.split('/')[0]) === 6));
}

/** Sorted piece starts (lo and hi + 1) of every IPv6 address condition of a group and its rules. */
const boundsCache = new WeakMap<VfpGroup, bigint[]>();
function groupBounds6(g: VfpGroup): bigint[] {
  let b = boundsCache.get(g);
  if (b) return b;
  const s = new Set<bigint>();
  const add = (conds: VfpCondition[]) => {
    for (const c of conds)
      if ((c.kind === 'dstIp' || c.kind === 'srcIp') && c.ip6Ranges)
        for (const r of c.ip6Ranges) {
          s.add(hexToBig(r.lo));
          s.add(hexToBig(r.hi) + 1n);
        }
  };
  add(g.conditions);
  for (const r of g.rules) add(r.conditions);
  b = [...s].sort(byValue);
  boundsCache.set(g, b);
  return b;
}

export const IPV6: AddrFamily<bigint> = {
  name: 'IPv6',
  other: 'IPv4',
  max: IP6_MAX,
  parse: ip6ToBig,
  print: bigToIp6,
  middle: middle6,
  // The walk may print an IPv6 address in another spelling than the partition's RFC 5952 text.
  same: (field, ex) => field !== undefined && (field === ex || canonIp(field) === ex),
  hnsBoundaries: hnsBoundaries6,
  isGroup: (g) => /6/.test(g.ipVersion),
  groupBounds: groupBounds6,
  indexKey: (a) => a.toString(16).padStart(32, '0'),
  indexKeyOf: (ip) => (ip === undefined ? undefined : ipv6ToHex(ip)),
  notes(m) {
    const out: string[] = [];
    const silence = noRoutes6(m);
    if (silence) out.push(`insufficient information: ${silence}`);
    if (!hasIpv6Pods(m)) out.push('the bundle shows no IPv6 pod address or pod subnet (no endpoint with an IPv6 address, no IPv6 subnet in the HNS networks): the classes show only what the node\'s IPv6 routes and addresses do');
    return out;
  },
  addressOf: v6Of,
  nodeIp: (ctx) => ctx.nodeIp6,
  // The load balancers with an IPv6 VIP (HCN flag IPv6 = 2: microsoft/hcsshim hcn/hcnloadbalancer.go).
  podServices: (m) => (m.loadBalancers ?? []).filter((lb) => lb.vips.some((v) => familyOf(v) === 6)),
  serviceWord: 'IPv6 ',
  remoteDestinations(m, names) {
    const out = [];
    for (const e of m.endpoints ?? []) {
      const v6 = v6Of(e);
      if (e.isRemote && v6) out.push({ ip: v6, proto: 'icmp' as const, name: names.podLabel(e.ip) ?? names.podLabel(v6) ?? 'remote endpoint', remote: true });
    }
    return out;
  },
  outside: OUTSIDE6,
};
