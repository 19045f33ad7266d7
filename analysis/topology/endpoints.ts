// Rank 3: local HNS endpoints with their VFP port and compartment adapter, each inside its compartment
// group; plus what no endpoint explains (a VFP port or a pod adapter without an HNS endpoint), so a
// bundle with only some files still shows what it has. Each endpoint's VFP port is also a node of
// its own, attached to the endpoint (drawn folded into it until expanded: graph.attached).
import type { HnsEndpoint } from '../../parsers/hns/types.ts';
import type { VfpPortRef } from '../../parsers/model/types.ts';
import type { TopoNode } from '../view-models/types.ts';
import { adapterIps, adapterKey, networkContaining, networkOf, type AdapterRef, type TopoContext } from './context.ts';
import { addCopy, addFlag, idOf } from './graph.ts';
import { RANK } from './host.ts';
import { isGuid, plural, shortGuid, shortName } from './labels.ts';
import { k8sNames } from '../k8s/index.ts';

/** The compartment group node (created on first use: compartments without endpoints get none). */
function compartmentNode(ctx: TopoContext, id: number): string {
  const ref = { type: 'compartment' as const, id: String(id) };
  const nodeId = idOf(ref);
  if (ctx.g.has(nodeId)) return nodeId;
  const host = id === ctx.hostCompartmentId;
  const node = ctx.g.node({ id: nodeId, kind: 'compartment', label: `Compartment ${id}`, ref, rank: RANK.host, details: host ? ['host compartment'] : [] });
  if (host) addFlag(node, 'host');
  const ns = (ctx.m.namespaces ?? []).find((n) => n.compartmentId === id);
  if (ns) {
    node.details.push(`namespace ${shortGuid(ns.id)}…`);
    addCopy(node, 'namespace', ns.id);
    if (ns.compartmentGuid) addCopy(node, 'compartment GUID', ns.compartmentGuid);
  }
  return nodeId;
}

function portDetails(node: TopoNode, p: VfpPortRef): void {
  const rules = p.policy ? ` · ${plural(p.policy.rules, 'rule')}` : '';
  node.details.push(`port ${shortGuid(p.name)}${isGuid(p.name) ? '…' : ''}${rules}`);
  addCopy(node, 'VFP port', p.name);
  if (p.policy?.blocked) addFlag(node, 'blocked');
}

function attachToNetworkOrSwitch(ctx: TopoContext, nodeId: string, networkId: string | undefined, portKey: string | undefined): void {
  if (networkId && ctx.g.has(networkId)) ctx.g.edge(networkId, nodeId, 'attach');
  else if (portKey && ctx.switchOfPort.has(portKey)) ctx.g.edge(ctx.switchOfPort.get(portKey)!, nodeId, 'attach');
}

export function addLocalEndpoints(ctx: TopoContext): void {
  for (const ep of ctx.m.endpoints ?? []) if (!ep.isRemote) addLocalEndpoint(ctx, ep);
}

function addLocalEndpoint(ctx: TopoContext, ep: HnsEndpoint): void {
  const id = ep.id.toLowerCase();
  const j = ctx.joinByEndpoint.get(id);
  const ref = { type: 'endpoint' as const, id };
  const port = j?.portKey ? ctx.portByKey.get(j.portKey) : undefined;
  const parent = j?.compartmentId !== undefined ? compartmentNode(ctx, j.compartmentId) : undefined;
  const details: string[] = [];
  // The Kubernetes pod name, when a kubectl snapshot is in the bundle, is what the reader knows it by.
  const pod = k8sNames(ctx.m).podLabel(ep.ip);
  if (pod) details.push(pod);
  if (ep.name) details.push(shortName(ep.name));
  if (ep.id) details.push(`ID ${shortGuid(ep.id)}${isGuid(ep.id) ? '…' : ''}`);
  if (ep.mac) details.push(`MAC ${ep.mac}`);
  if (ep.gateway) details.push(`gw ${ep.gateway}`);
  const node = ctx.g.node({ id: idOf(ref), kind: 'endpoint', label: ep.ip || ep.ipv6 || ep.name || shortGuid(ep.id), ref, rank: RANK.host, details });
  if (parent) node.parent = parent;
  if (isGuid(ep.id)) node.guid = ep.id;
  addCopy(node, 'endpoint', ep.id);
  if (ep.name && shortName(ep.name) !== ep.name) addCopy(node, 'name', ep.name);
  if (port) {
    portDetails(node, port);
    addPortNode(ctx, node, port);
  }
  if (j?.adapterName) {
    node.details.push(shortName(j.adapterName));
    addCopy(node, 'adapter', j.adapterName);
    if (j.compartmentId !== undefined) ctx.usedAdapters.add(adapterKey(j.compartmentId, j.adapterName));
  }
  if (ctx.noPort.has(id)) addFlag(node, 'no-port');
  if (ctx.noAdapter.has(id)) addFlag(node, 'no-adapter');
  const net = networkOf(ctx, ep.networkId, ep.networkName);
  attachToNetworkOrSwitch(ctx, node.id, net && idOf({ type: 'network', id: net.id.toLowerCase() }), port?.key);
}

/** The endpoint's VFP port as a node of its own, in the endpoint's compartment, joined to it by a `port` edge. */
function addPortNode(ctx: TopoContext, endpoint: TopoNode, p: VfpPortRef): void {
  const ref = { type: 'port' as const, id: p.key };
  const details: string[] = [];
  if (p.friendlyName && !isGuid(p.friendlyName)) details.push(p.friendlyName);
  if (p.mac) details.push(`MAC ${p.mac}`);
  if (p.policy) details.push(`${plural(p.policy.layers, 'layer')} · ${plural(p.policy.groups, 'group')} · ${plural(p.policy.rules, 'rule')}`);
  else details.push('no rules dumped for this port');
  const sw = p.switchPort?.switchFriendlyName;
  if (sw) details.push(`on vSwitch ${sw}`);
  const node = ctx.g.node({ id: idOf(ref), kind: 'vfp-port', label: `VFP port ${shortGuid(p.name)}${isGuid(p.name) ? '…' : ''}`, ref, rank: RANK.host, details, attachedTo: endpoint.id, ...(endpoint.parent ? { parent: endpoint.parent } : {}) }, true);
  if (isGuid(p.name)) node.guid = p.name;
  addCopy(node, 'VFP port', p.name);
  if (p.policy?.blocked) addFlag(node, 'blocked');
  ctx.g.edge(endpoint.id, node.id, 'port', {}, true);
}

/**
 * VFP ports no endpoint, host vNIC or uplink claims (only vfpOutput.txt in the bundle, or a port HNS
 * forgot), matched to a pod adapter by MAC when ipconfig has one; then pod adapters nothing explains.
 */
export function addOrphans(ctx: TopoContext): void {
  const podAdapters = [...ctx.adapters.values()].filter((r) => r.compartment.id !== ctx.hostCompartmentId);
  const byMac = new Map<string, AdapterRef>();
  for (const r of podAdapters) if (r.adapter.mac && !ctx.usedAdapters.has(r.key) && !byMac.has(r.adapter.mac)) byMac.set(r.adapter.mac, r);
  const endpointsKnown = ctx.m.endpoints !== null;

  for (const p of ctx.m.ports ?? []) {
    if (p.role === 'external' || p.role === 'host-vnic' || p.endpointId) continue;
    const hit = p.mac ? byMac.get(p.mac.toUpperCase()) : undefined;
    const r = hit && !ctx.usedAdapters.has(hit.key) ? hit : undefined;
    const ref = { type: 'port' as const, id: p.key };
    const ip = r?.adapter.ipv4[0]?.address;
    const label = ip ?? (p.friendlyName && !isGuid(p.friendlyName) ? p.friendlyName : `port ${shortGuid(p.name)}${isGuid(p.name) ? '…' : ''}`);
    const node = ctx.g.node({ id: idOf(ref), kind: 'endpoint', label, ref, rank: RANK.host, details: [] });
    if (isGuid(p.name)) node.guid = p.name;
    if (p.mac) node.details.push(`MAC ${p.mac}`);
    portDetails(node, p);
    if (r) {
      ctx.usedAdapters.add(r.key);
      node.parent = compartmentNode(ctx, r.compartment.id);
      node.details.push(shortName(r.adapter.name));
      addCopy(node, 'adapter', r.adapter.name);
    }
    if (endpointsKnown) addFlag(node, 'no-endpoint');
    const net = networkContaining(ctx, ip);
    attachToNetworkOrSwitch(ctx, node.id, net && idOf({ type: 'network', id: net.id.toLowerCase() }), p.key);
  }

  for (const r of podAdapters) {
    if (ctx.usedAdapters.has(r.key)) continue;
    if (!r.adapter.ipv4.length && !r.adapter.mac) continue;
    if (r.adapter.mediaDisconnected && !r.adapter.ipv4.length) continue;
    ctx.usedAdapters.add(r.key);
    const ref = { type: 'adapter' as const, id: r.key };
    const ip = r.adapter.ipv4[0]?.address;
    const node = ctx.g.node({ id: idOf(ref), kind: 'endpoint', label: ip ?? shortName(r.adapter.name), ref, rank: RANK.host, details: [], parent: compartmentNode(ctx, r.compartment.id) });
    node.details.push(shortName(r.adapter.name));
    if (r.adapter.ipv4.length > 1) node.details.push(...adapterIps(r.adapter).slice(1));
    if (r.adapter.mac) node.details.push(`MAC ${r.adapter.mac}`);
    if (r.adapter.gateways.length) node.details.push(`gw ${r.adapter.gateways.join(', ')}`);
    addCopy(node, 'adapter', r.adapter.name);
    if (endpointsKnown) addFlag(node, 'no-endpoint');
    if (r.adapter.ipv4.some((v) => v.apipa)) addFlag(node, 'apipa');
    const net = networkContaining(ctx, ip);
    if (net) ctx.g.edge(idOf({ type: 'network', id: net.id.toLowerCase() }), node.id, 'attach');
  }
}
