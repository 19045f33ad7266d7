// Lookups built once per graph: ports by key, joins by endpoint, adapters by compartment, which host
// adapters are already shown. Everything here is O(objects); nothing touches VFP rules.
import type { NodeModel, EndpointJoin, VfpPortRef } from '../../parsers/model/types.ts';
import type { HnsNetwork } from '../../parsers/hns/types.ts';
import type { Adapter, Compartment } from '../../parsers/ipconfig/types.ts';
import { isApipa, parseCidr, prefixMaskUint } from '../../parsers/net/ip.ts';
import { GraphBuilder } from './graph.ts';

export interface AdapterRef {
  compartment: Compartment;
  adapter: Adapter;
  key: string;
}

export interface TopoContext {
  m: NodeModel;
  g: GraphBuilder;
  portByKey: Map<string, VfpPortRef>;
  joinByEndpoint: Map<string, EndpointJoin>;
  noPort: Set<string>;
  noAdapter: Set<string>;
  /** `${compartmentId}/${adapterName}` → adapter. */
  adapters: Map<string, AdapterRef>;
  /** Adapters of the host compartment (1, or the only compartment of a plain ipconfig). */
  hostAdapters: AdapterRef[];
  hostCompartmentId?: number;
  /** Adapter keys already shown on some node. */
  usedAdapters: Set<string>;
  networkById: Map<string, HnsNetwork>;
  /** Node id of the vSwitch each port is on. */
  switchOfPort: Map<string, string>;
  /** This node's own addresses (node IP, management IP, host adapters): a PA equal to one is local. */
  localIps: Set<string>;
}

export const adapterKey = (compartmentId: number, name: string): string => `${compartmentId}/${name}`;

export function makeContext(m: NodeModel): TopoContext {
  const g = new GraphBuilder();
  const portByKey = new Map((m.ports ?? []).map((p) => [p.key, p]));
  const joinByEndpoint = new Map(m.joins.endpoints.map((j) => [j.endpointId.toLowerCase(), j]));
  const noPort = new Set<string>();
  const noAdapter = new Set<string>();
  for (const u of m.joins.unmatched) {
    if (u.kind === 'endpoint-port') noPort.add(u.id.toLowerCase());
    else if (u.kind === 'endpoint-adapter') noAdapter.add(u.id.toLowerCase());
  }
  const adapters = new Map<string, AdapterRef>();
  const comps = m.ip?.compartments ?? [];
  for (const c of comps) {
    for (const a of c.adapters) {
      const key = adapterKey(c.id, a.name);
      if (!adapters.has(key)) adapters.set(key, { compartment: c, adapter: a, key });
    }
  }
  const defaultNs = (m.namespaces ?? []).find((n) => n.isDefault && n.compartmentId !== undefined);
  const hostCompartmentId = comps.length === 0 ? undefined : comps.some((c) => c.id === 1) ? 1 : (defaultNs?.compartmentId ?? (comps.length === 1 ? comps[0]?.id : undefined));
  const hostAdapters = [...adapters.values()].filter((r) => r.compartment.id === hostCompartmentId);
  const networkById = new Map((m.networks ?? []).map((n) => [n.id.toLowerCase(), n]));

  const localIps = new Set<string>();
  for (const n of m.networks ?? []) {
    if (n.managementIp && !isApipa(n.managementIp)) localIps.add(n.managementIp);
    if (n.providerAddress) localIps.add(n.providerAddress);
  }
  for (const r of hostAdapters) for (const v of r.adapter.ipv4) localIps.add(v.address);

  return { m, g, portByKey, joinByEndpoint, noPort, noAdapter, adapters, hostAdapters, hostCompartmentId, usedAdapters: new Set(), networkById, switchOfPort: new Map(), localIps };
}

/** The network an endpoint belongs to, by ID, else by name. */
export function networkOf(ctx: TopoContext, networkId: string | undefined, networkName: string | undefined): HnsNetwork | undefined {
  if (networkId) {
    const n = ctx.networkById.get(networkId.toLowerCase());
    if (n) return n;
  }
  if (networkName) return (ctx.m.networks ?? []).find((n) => n.name.toLowerCase() === networkName.toLowerCase());
  return undefined;
}

/** The network whose subnet holds `ip` (used for adapters no HNS endpoint explains). */
export function networkContaining(ctx: TopoContext, ip: string | undefined): HnsNetwork | undefined {
  if (!ip) return undefined;
  const addr = parseCidr(ip);
  if (!addr || addr.network === undefined) return undefined;
  for (const n of ctx.m.networks ?? []) {
    for (const s of n.subnets) {
      const c = parseCidr(s.prefix);
      if (c?.network !== undefined && c.prefixLength > 0 && inCidr(addr.network, c.network, c.prefixLength)) return n;
    }
  }
  return undefined;
}

export function inCidr(ip: number, network: number, prefixLength: number): boolean {
  const mask = prefixMaskUint(prefixLength);
  return ((ip & mask) >>> 0) === network;
}

/** `10.240.0.19/16` lines of an adapter. */
export function adapterIps(a: Adapter): string[] {
  return a.ipv4.map((v) => (v.prefixLength !== undefined ? `${v.address}/${v.prefixLength}` : v.address));
}
