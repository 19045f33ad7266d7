// What the engine looks up on every walk, indexed once per model: endpoints by address (both
// families, canonical text), the node's own addresses, the host vNIC and uplink ports, load
// balancers by VIP:port/proto and NodePort, the routing tables, and the HNS facts actions may fall
// back on (remote subnets, remote endpoints' provider addresses, OutBoundNAT VIPs).
import type { NodeModel, VfpPortRef } from '../../parsers/model/types.ts';
import type { HnsEndpoint, HnsLoadBalancer, HnsNetwork } from '../../parsers/hns/index.ts';
import type { Adapter, Compartment } from '../../parsers/ipconfig/index.ts';
import type { Ipv4Route, Ipv6Route } from '../../parsers/routes/types.ts';
import type { HnsFacts } from './actions.ts';
import { canonIp, inCidr, ipToInt, ipv6ToHex, maskBits, cidrRange6 } from './ip.ts';
import { ipv4PrefixRange } from '../../parsers/net/ip.ts';
import { activeIpv4, activeIpv6 } from './active-routes.ts';

export interface RouteEntry {
  lo: number;
  hi: number;
  bits: number;
  metric: number;
  route: Ipv4Route;
}

export interface Route6Entry {
  lo: string;
  hi: string;
  bits: number;
  metric: number;
  route: Ipv6Route;
}

export interface WalkContext {
  model: NodeModel;
  /** Local endpoints by canonical address (IPv4 and, for dual-stack endpoints, IPv6). */
  local: Map<string, HnsEndpoint>;
  remote: Map<string, HnsEndpoint>;
  duplicates: Set<string>;
  portOf: Map<string, VfpPortRef>;
  adapterOf: Map<string, { compartment: Compartment; adapter: Adapter }>;
  hostIps: Set<string>;
  nodeIp?: string;
  nodeIp6?: string;
  hostMac?: string;
  hostPort?: VfpPortRef;
  extPort?: VfpPortRef;
  podNetwork?: HnsNetwork;
  /** Load balancers by `VIP|port|proto` (canonical VIP). */
  lbs: Map<string, HnsLoadBalancer>;
  /** Load balancers by lower-case ID. */
  lbById: Map<string, HnsLoadBalancer>;
  /** NodePort load balancers (no VIP, or the node's own address) by `port|proto`. */
  nodePorts: Map<string, HnsLoadBalancer>;
  vips: Set<string>;
  routes: RouteEntry[] | null;
  routes6: Route6Entry[] | null;
  /** Interface index → its IPv4 address (route print's interface list + ipconfig MACs), for paroute's interface constraint. */
  ifAddr: Map<number, string>;
  endpointsById: Map<string, HnsEndpoint>;
  hns: HnsFacts;
}

const cache = new WeakMap<NodeModel, WalkContext>();

export function walkContext(m: NodeModel): WalkContext {
  let c = cache.get(m);
  if (!c) {
    c = build(m);
    cache.set(m, c);
  }
  return c;
}

const addrs = (e: HnsEndpoint) => [canonIp(e.ip), canonIp(e.ipv6)].filter((x): x is string => !!x);

function build(m: NodeModel): WalkContext {
  const local = new Map<string, HnsEndpoint>();
  const remote = new Map<string, HnsEndpoint>();
  const duplicates = new Set<string>();
  const endpointsById = new Map<string, HnsEndpoint>();
  for (const e of m.endpoints ?? []) {
    endpointsById.set(e.id.toLowerCase(), e);
    const map = e.isRemote ? remote : local;
    for (const ip of addrs(e)) {
      if (map.has(ip)) duplicates.add(ip);
      else map.set(ip, e);
    }
  }
  const portByKey = new Map((m.ports ?? []).map((p) => [p.key, p]));
  const portOf = new Map<string, VfpPortRef>();
  const adapterOf = new Map<string, { compartment: Compartment; adapter: Adapter }>();
  for (const j of m.joins.endpoints) {
    if (j.portKey && portByKey.has(j.portKey)) portOf.set(j.endpointId, portByKey.get(j.portKey)!);
    if (j.compartmentId !== undefined && j.adapterName) {
      const comp = m.ip?.compartments.find((c) => c.id === j.compartmentId);
      const adapter = comp?.adapters.find((a) => a.name === j.adapterName);
      if (comp && adapter) adapterOf.set(j.endpointId, { compartment: comp, adapter });
    }
  }
  const podNetwork = (m.networks ?? []).find((n) => n.type !== 'nat' && n.type !== 'ics' && n.type !== 'transparent' && n.subnets.length > 0) ?? (m.networks ?? []).find((n) => n.type !== 'nat');
  const hostIps = new Set<string>();
  const hostComp = m.ip?.compartments.find((c) => c.id === 1) ?? m.ip?.compartments[0];
  const podIps = new Set(local.keys());
  for (const a of hostComp?.adapters ?? []) {
    for (const x of a.ipv4) if (!x.apipa && !podIps.has(x.address)) hostIps.add(x.address);
    for (const x of a.ipv6) {
      const c = canonIp(x.address);
      if (c && !x.linkLocal && !podIps.has(c)) hostIps.add(c);
    }
  }
  for (const n of m.networks ?? []) if (n.managementIp) hostIps.add(n.managementIp);
  const hostVnics = (m.ports ?? []).filter((p) => p.role === 'host-vnic');
  const hostPort = hostVnics.find((p) => p.policy) ?? hostVnics[0];
  const extPorts = (m.ports ?? []).filter((p) => p.role === 'external');
  const extPort = extPorts.find((p) => p.policy) ?? extPorts[0];
  // The node's address: the pod network's management IP, else the host vNIC's, else the default route's interface.
  let nodeIp = podNetwork?.managementIp;
  const hostAdapter = hostPort?.mac ? hostComp?.adapters.find((a) => a.mac === hostPort.mac) : undefined;
  if (!nodeIp) nodeIp = hostAdapter?.ipv4[0]?.address;
  const active4 = m.routes ? activeIpv4(m.routes, hostIps) : null;
  const routes = active4 ? routeTable(active4) : null;
  if (!nodeIp && routes) nodeIp = routes.find((r) => r.bits === 0)?.route.interface;
  if (nodeIp) hostIps.add(nodeIp);
  const nodeIp6 = canonIp(hostAdapter?.ipv6.find((x) => !x.linkLocal && !x.temporary)?.address);
  const lbs = new Map<string, HnsLoadBalancer>();
  const nodePorts = new Map<string, HnsLoadBalancer>();
  const vips = new Set<string>();
  const lbById = new Map<string, HnsLoadBalancer>();
  for (const lb of m.loadBalancers ?? []) {
    lbById.set(lb.id.toLowerCase(), lb);
    const own = lb.vips.map((v) => canonIp(v) ?? v);
    for (const vip of own) {
      vips.add(vip);
      for (const p of lb.ports) lbs.set(lbKey(vip, p.externalPort, p.protocol), lb);
    }
    // kube-proxy programs a NodePort as a load balancer without a VIP (winkernel loadbalancer.go: vip "")
    if (!own.length || own.some((v) => hostIps.has(v))) for (const p of lb.ports) if (!nodePorts.has(`${p.externalPort}|${p.protocol}`)) nodePorts.set(`${p.externalPort}|${p.protocol}`, lb);
  }
  const ifAddr = new Map<number, string>();
  for (const i of m.routes?.interfaces ?? []) {
    if (!i.mac) continue;
    for (const c of m.ip?.compartments ?? []) {
      const [first] = c.adapters.find((x) => x.mac === i.mac && x.ipv4.length)?.ipv4 ?? [];
      if (first) {
        ifAddr.set(i.index, first.address);
        break;
      }
    }
  }
  // Get-NetRoute's rows name their interface by index (active-routes.ts found its address where it could).
  for (const r of active4 ?? []) if (r.ifIndex !== undefined && r.interface && !ifAddr.has(r.ifIndex)) ifAddr.set(r.ifIndex, r.interface);
  const rsrs = (m.networks ?? []).flatMap((n) => n.remoteSubnetRoutes.map((r) => ({ r, src: n.src })));
  const hns: HnsFacts = {
    remoteSubnetFor(ip) {
      const hit = rsrs.find((x) => inCidr(ip, x.r.destinationPrefix));
      return hit ? { prefix: hit.r.destinationPrefix, pa: hit.r.providerAddress, vni: hit.r.isolationId, mac: hit.r.drMac, src: hit.src } : undefined;
    },
    remoteEndpoint(ip) {
      const e = remote.get(canonIp(ip) ?? ip);
      return e ? { pa: e.providerAddress, mac: e.mac, src: e.src } : undefined;
    },
    outboundNatVip(ip) {
      const e = local.get(canonIp(ip) ?? ip);
      const v = e?.outboundNat.find((o) => o.vip)?.vip;
      return v || undefined;
    },
  };
  return {
    model: m,
    local,
    remote,
    duplicates,
    portOf,
    adapterOf,
    hostIps,
    nodeIp,
    nodeIp6,
    hostMac: hostPort?.mac ?? hostAdapter?.mac,
    hostPort,
    extPort,
    podNetwork,
    lbs,
    lbById,
    nodePorts,
    vips,
    routes,
    routes6: m.routes ? route6Table(activeIpv6(m.routes)) : null,
    ifAddr,
    endpointsById,
    hns,
  };
}

export const lbKey = (vip: string, port: number | undefined, proto: number) => `${canonIp(vip) ?? vip}|${port ?? ''}|${proto}`;

function routeTable(active: Ipv4Route[]): RouteEntry[] {
  const out: RouteEntry[] = [];
  for (const r of active) {
    const base = ipToInt(r.destination);
    const bits = r.prefixLength ?? maskBits(r.netmask);
    if (base === undefined || bits === undefined) continue;
    const { lo, hi } = ipv4PrefixRange(base, bits);
    out.push({ lo, hi, bits, metric: r.metric ?? Number.MAX_SAFE_INTEGER, route: r });
  }
  // Most specific first, then lowest metric: the first hit is the route Windows uses.
  return out.sort((a, b) => b.bits - a.bits || a.metric - b.metric);
}

function route6Table(active: Ipv6Route[]): Route6Entry[] {
  const out: Route6Entry[] = [];
  for (const r of active) {
    const c = cidrRange6(r.prefixLength !== undefined && !r.destination.includes('/') ? `${r.destination}/${r.prefixLength}` : r.destination);
    if (!c) continue;
    out.push({ lo: c.lo, hi: c.hi, bits: c.bits, metric: r.metric, route: r });
  }
  return out.sort((a, b) => b.bits - a.bits || a.metric - b.metric);
}

/** The route Windows uses for a destination; `onlyVia` restricts it to routes out of one interface address (paroute's constraint). */
export function lookupRoute(ctx: WalkContext, ip: string, onlyVia?: string): RouteEntry | undefined {
  const n = ipToInt(ip);
  if (n === undefined || !ctx.routes) return undefined;
  return ctx.routes.find((r) => n >= r.lo && n <= r.hi && (onlyVia === undefined || r.route.interface === onlyVia));
}

export function lookupRoute6(ctx: WalkContext, ip: string): Route6Entry | undefined {
  const h = ipv6ToHex(ip);
  if (h === undefined || !ctx.routes6) return undefined;
  // Link-local and multicast entries never carry a unicast destination off the node.
  return ctx.routes6.find((r) => h >= r.lo && h <= r.hi && !r.route.destination.toLowerCase().startsWith('ff00'));
}
