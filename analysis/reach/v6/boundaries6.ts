// What can tell two IPv6 packets apart on this node outside VFP, as cut points (the IPv6 side of
// boundaries.ts `hnsBoundaries`): the IPv6 route table (routes.txt "IPv6 Route Table") and its
// gateways, every endpoint's IPv6 address and IPv6 routes, the HNS networks' IPv6 subnets (the engine's
// on-link test in a pod compartment: walk/engine/source.ts), remote subnet routes, OutBoundNAT
// exceptions, the addresses of every compartment, IPv6 load-balancer VIPs and their ports (HCN flag
// IPv6 = 2: microsoft/hcsshim hcn/hcnloadbalancer.go LoadBalancerFlagsIPv6), the IPv6 Service range
// (kubeclusterconfig.json, comma-separated on dual-stack) and the special blocks of RFC 6890 / RFC 4291.
// A VFP rule's IPv6 conditions are read only where a class's walks cross its layer (../layer-cuts.ts).
// Any text that is not IPv6 is skipped: an IPv4 boundary is boundaries.ts's.
import type { NodeModel } from '../../../parsers/model/types.ts';
import { walkContext } from '../../walk/context.ts';
import { serviceRanges } from '../../k8s/service-range.ts';
import { atomIndex, Cuts, type Interval } from '../intervals.ts';
import { hexToBig, IP6_MAX, ip6ToBig, prefix6, type Interval6 } from './addr6.ts';

const PORT_MIN = 1;
const PORT_MAX = 65535;

/**
 * IPv6 blocks the host stack treats apart (RFC 6890 §2.2.3 table, RFC 4291 §2.4): unspecified,
 * loopback, IPv4-mapped, NAT64, documentation, unique local, link-local, multicast. They only cut
 * (more classes, never a wrong one).
 */
const SPECIAL6 = ['::/128', '::1/128', '::ffff:0:0/96', '64:ff9b::/96', '2001:db8::/32', 'fc00::/7', 'fe80::/10', 'ff00::/8'];

export interface Boundaries6 {
  /** Destination address atoms (IPv6). */
  ipAtoms: Interval6[];
  /** Port atoms per protocol for one address atom. */
  portAtoms(atom: number, proto: 'tcp' | 'udp'): Interval[];
  /** Whether the bundle has an IPv6 route table (routes.txt with an "IPv6 Route Table" that has routes). */
  hasRoutes6: boolean;
}

const cache = new WeakMap<NodeModel, Boundaries6>();

export function hnsBoundaries6(m: NodeModel): Boundaries6 {
  let b = cache.get(m);
  if (!b) {
    b = build(m);
    cache.set(m, b);
  }
  return b;
}

function build(m: NodeModel): Boundaries6 {
  const ctx = walkContext(m);
  const ip = new Cuts<bigint>(0n, IP6_MAX);
  /** An IPv6 address or prefix; anything else (IPv4, empty, unreadable) adds nothing. */
  const add = (text: string | undefined) => {
    const r = prefix6(text);
    if (r) ip.add(r.lo, r.hi);
  };
  for (const s of SPECIAL6) add(s);
  for (const e of m.endpoints ?? []) {
    add(e.ip);
    add(e.ipv6);
    add(e.gateway);
    add(e.providerAddress);
    for (const r of e.routes) add(r.destinationPrefix);
    for (const o of e.outboundNat) {
      o.exceptions.forEach(add);
      o.destinations?.forEach(add);
      add(o.vip);
    }
  }
  for (const n of m.networks ?? []) {
    add(n.managementIp);
    add(n.providerAddress);
    for (const s of n.subnets) {
      add(s.prefix);
      add(s.gateway);
    }
    for (const r of n.remoteSubnetRoutes) {
      add(r.destinationPrefix);
      add(r.providerAddress);
    }
    for (const r of n.hostRoutes ?? []) add(r.destinationPrefix);
  }
  for (const h of ctx.hostIps) add(h);
  for (const c of m.ip?.compartments ?? [])
    for (const a of c.adapters) {
      for (const x of a.ipv6) add(x.address);
      a.gateways.forEach(add);
    }
  for (const r of ctx.routes6 ?? []) {
    ip.add(hexToBig(r.lo), hexToBig(r.hi));
    add(r.route.gateway);
  }
  for (const s of serviceRanges(m)) add(s.cidr);
  // Load balancers with IPv6 VIPs and their ports; NodePorts answer on the node's IPv6 addresses.
  const hostRanges = [...ctx.hostIps].map(ip6ToBig).filter((n): n is bigint => n !== undefined).map((n) => ({ lo: n, hi: n }));
  const lbPorts: { ranges: Interval6[]; proto: number; port: number }[] = [];
  for (const lb of m.loadBalancers ?? []) {
    const vips = lb.vips.map(ip6ToBig).filter((n): n is bigint => n !== undefined);
    for (const v of vips) ip.add(v, v);
    add(lb.sourceVip);
    // A load balancer with no VIP at all is a NodePort (winkernel loadbalancer.go: vip ""); one whose
    // VIPs are all IPv4 is boundaries.ts's.
    const ranges = vips.length ? vips.map((v) => ({ lo: v, hi: v })) : lb.vips.length ? [] : hostRanges;
    for (const p of lb.ports) if (p.externalPort) lbPorts.push({ ranges, proto: p.protocol, port: p.externalPort });
    if (vips.some((v) => hostRanges.some((h) => h.lo === v))) for (const p of lb.ports) if (p.externalPort) lbPorts.push({ ranges: hostRanges, proto: p.protocol, port: p.externalPort });
  }
  for (const e of m.endpoints ?? [])
    for (const pm of e.portMappings ?? []) {
      const v = ip6ToBig(pm.vip);
      lbPorts.push({ ranges: v !== undefined ? [{ lo: v, hi: v }] : pm.vip ? [] : hostRanges, proto: pm.protocol, port: pm.externalPort });
    }

  const ipAtoms = ip.atoms();
  // Port cuts by atom: a load balancer's port cuts only its VIP's atom (a single address each).
  const perAtom = new Map<string, Cuts>();
  for (const l of lbPorts)
    for (const proto of [6, 17] as const) {
      if (l.proto !== proto && l.proto !== 0) continue;
      for (const r of l.ranges) {
        const key = `${atomIndex(ipAtoms, r.lo)}|${proto}`;
        let c = perAtom.get(key);
        if (!c) perAtom.set(key, (c = new Cuts<number>(PORT_MIN, PORT_MAX)));
        c.add(l.port, l.port);
      }
    }
  const whole = [{ lo: PORT_MIN, hi: PORT_MAX }];
  return {
    ipAtoms,
    portAtoms: (atom, proto) => perAtom.get(`${atom}|${proto === 'tcp' ? 6 : 17}`)?.atoms() ?? whole,
    hasRoutes6: !!ctx.routes6?.length,
  };
}
