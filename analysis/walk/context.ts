// What the engine looks up on every trace, indexed once per model: endpoints by IP, the node's own
// addresses, the host vNIC and uplink ports, load balancers by VIP:port/proto, the routing table.
import type { NodeModel, VfpPortRef } from '../../parsers/model/types.ts';
import type { HnsEndpoint, HnsLoadBalancer, HnsNetwork } from '../../parsers/hns/index.ts';
import type { Adapter, Compartment } from '../../parsers/ipconfig/index.ts';
import type { Ipv4Route } from '../../parsers/routes/types.ts';
import { ipToInt, maskBits } from './ip.ts';

export interface RouteEntry {
  lo: number;
  hi: number;
  bits: number;
  metric: number;
  route: Ipv4Route;
}

export interface WalkContext {
  model: NodeModel;
  local: Map<string, HnsEndpoint>;
  remote: Map<string, HnsEndpoint>;
  duplicates: Set<string>;
  portOf: Map<string, VfpPortRef>;
  adapterOf: Map<string, { compartment: Compartment; adapter: Adapter }>;
  hostIps: Set<string>;
  nodeIp?: string;
  hostPort?: VfpPortRef;
  extPort?: VfpPortRef;
  podNetwork?: HnsNetwork;
  lbs: Map<string, HnsLoadBalancer>;
  vips: Set<string>;
  routes: RouteEntry[] | null;
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

function build(m: NodeModel): WalkContext {
  const local = new Map<string, HnsEndpoint>();
  const remote = new Map<string, HnsEndpoint>();
  const duplicates = new Set<string>();
  for (const e of m.endpoints ?? []) {
    if (!e.ip) continue;
    const map = e.isRemote ? remote : local;
    if (map.has(e.ip)) duplicates.add(e.ip);
    else map.set(e.ip, e);
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
  for (const a of hostComp?.adapters ?? []) for (const x of a.ipv4) if (!x.apipa && !podIps.has(x.address)) hostIps.add(x.address);
  for (const n of m.networks ?? []) if (n.managementIp) hostIps.add(n.managementIp);
  const hostVnics = (m.ports ?? []).filter((p) => p.role === 'host-vnic');
  const hostPort = hostVnics.find((p) => p.policy) ?? hostVnics[0];
  const extPorts = (m.ports ?? []).filter((p) => p.role === 'external');
  const extPort = extPorts.find((p) => p.policy) ?? extPorts[0];
  // The node's address: the pod network's management IP, else the host vNIC's, else the default route's interface.
  let nodeIp = podNetwork?.managementIp;
  if (!nodeIp && hostPort?.mac) nodeIp = hostComp?.adapters.find((a) => a.mac === hostPort.mac)?.ipv4[0]?.address;
  const routes = m.routes ? routeTable(m.routes.ipv4Active) : null;
  if (!nodeIp && routes) nodeIp = routes.find((r) => r.bits === 0)?.route.interface;
  if (nodeIp) hostIps.add(nodeIp);
  const lbs = new Map<string, HnsLoadBalancer>();
  const vips = new Set<string>();
  for (const lb of m.loadBalancers ?? []) {
    for (const vip of lb.vips) {
      vips.add(vip);
      for (const p of lb.ports) lbs.set(lbKey(vip, p.externalPort, p.protocol), lb);
    }
  }
  return { model: m, local, remote, duplicates, portOf, adapterOf, hostIps, nodeIp, hostPort, extPort, podNetwork, lbs, vips, routes };
}

export const lbKey = (vip: string, port: number | undefined, proto: number) => `${vip}|${port ?? ''}|${proto}`;

function routeTable(active: Ipv4Route[]): RouteEntry[] {
  const out: RouteEntry[] = [];
  for (const r of active) {
    const base = ipToInt(r.destination);
    const bits = r.prefixLength ?? maskBits(r.netmask);
    if (base === undefined || bits === undefined) continue;
    const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
    const lo = (base & mask) >>> 0;
    out.push({ lo, hi: (lo | (~mask >>> 0)) >>> 0, bits, metric: r.metric ?? Number.MAX_SAFE_INTEGER, route: r });
  }
  // Most specific first, then lowest metric: the first hit is the route Windows uses.
  return out.sort((a, b) => b.bits - a.bits || a.metric - b.metric);
}

export function lookupRoute(ctx: WalkContext, ip: string): RouteEntry | undefined {
  const n = ipToInt(ip);
  if (n === undefined || !ctx.routes) return undefined;
  // Skip broadcast/multicast-only entries a unicast lookup would not use for a remote destination.
  return ctx.routes.find((r) => n >= r.lo && n <= r.hi);
}
