// Ranks 0–3 on the host side: uplink (external NIC), vSwitch, HNS networks, host vNICs.
import type { HnsNetwork } from '../../parsers/hns/types.ts';
import type { VfpPortRef } from '../../parsers/model/types.ts';
import { isApipa } from '../../parsers/net/ip.ts';
import type { TopoNode } from '../view-models/types.ts';
import { adapterIps, type AdapterRef, type TopoContext } from './context.ts';
import { addCopy, addFlag, idOf } from './graph.ts';
import { isGuid, plural, shortGuid } from './labels.ts';
import { k8sNames } from '../k8s/index.ts';

export const RANK = { uplink: 0, vswitch: 1, network: 2, host: 3, lb: 4, remoteEndpoint: 5, remoteSubnet: 6, nextHop: 7 } as const;

const UNKNOWN_SWITCH = 'vswitch:?';

/** One vSwitch node per switch the ports name; ports the dumps place on no switch go to the only one, or to an unnamed one. */
export function addSwitches(ctx: TopoContext): void {
  const ports = ctx.m.ports ?? [];
  if (!ports.length) return;
  const counts = new Map<string, number>();
  for (const p of ports) {
    const sp = p.switchPort;
    const name = sp?.switchName ?? sp?.switchFriendlyName;
    if (!name) continue;
    const id = `vswitch:${name.toLowerCase()}`;
    ctx.switchOfPort.set(p.key, id);
    counts.set(id, (counts.get(id) ?? 0) + 1);
    if (!ctx.g.has(id)) {
      const n = ctx.g.node({ id, kind: 'vswitch', label: sp?.switchFriendlyName || shortGuid(name), rank: RANK.vswitch, details: ['vSwitch'] });
      if (sp?.switchName && isGuid(sp.switchName)) {
        n.guid = sp.switchName;
        n.details.push(`ID ${shortGuid(sp.switchName)}…`);
      }
    }
  }
  const orphans = ports.filter((p) => !ctx.switchOfPort.has(p.key));
  if (orphans.length) {
    let target: string;
    const sole = counts.size === 1 ? [...counts.keys()][0] : undefined;
    if (sole !== undefined) target = sole;
    else {
      target = UNKNOWN_SWITCH;
      ctx.g.node({ id: target, kind: 'vswitch', label: 'vSwitch', rank: RANK.vswitch, details: ['switch not named in the bundle (no /list-vmswitch-port output)'] });
    }
    for (const p of orphans) {
      ctx.switchOfPort.set(p.key, target);
      counts.set(target, (counts.get(target) ?? 0) + 1);
    }
  }
  for (const [id, n] of counts) ctx.g.get(id)!.details.push(plural(n, 'port'));
}

/** The vSwitch a network lives on: its uplink or host vNIC port's switch, else its endpoints', else a switch named like it. */
export function switchOfNetwork(ctx: TopoContext, n: HnsNetwork): string | undefined {
  for (const guid of [n.externalPortGuid, n.hostVnicPortGuid]) {
    const s = guid && ctx.switchOfPort.get(guid.toLowerCase());
    if (s) return s;
  }
  for (const ep of ctx.m.endpoints ?? []) {
    if (ep.isRemote || (ep.networkId?.toLowerCase() !== n.id.toLowerCase())) continue;
    const key = ctx.joinByEndpoint.get(ep.id.toLowerCase())?.portKey;
    const s = key && ctx.switchOfPort.get(key);
    if (s) return s;
  }
  const byName = ctx.g.nodes.find((x) => x.kind === 'vswitch' && x.label.toLowerCase() === n.name.toLowerCase());
  return byName?.id;
}

export function addNetworks(ctx: TopoContext): void {
  for (const n of ctx.m.networks ?? []) {
    const ref = { type: 'network' as const, id: n.id.toLowerCase() };
    const details: string[] = [];
    if (n.type) details.push(n.type);
    for (const s of n.subnets) details.push(`${s.prefix}${s.gateway ? ` gw ${s.gateway}` : ''}${s.vsid !== undefined ? ` VSID ${s.vsid}` : ''}`);
    if (n.managementIp) details.push(`mgmt IP ${n.managementIp}`);
    if (n.providerAddress) details.push(`PA ${n.providerAddress}`);
    if (n.networkAdapterName) details.push(`adapter ${n.networkAdapterName}`);
    if (n.drMac) details.push(`DR MAC ${n.drMac}`);
    if (n.remoteSubnetRoutes.length) details.push(plural(n.remoteSubnetRoutes.length, 'remote subnet route'));
    if (n.id) details.push(`ID ${shortGuid(n.id)}…`);
    const node = ctx.g.node({ id: idOf(ref), kind: 'network', label: n.name || shortGuid(n.id), ref, rank: RANK.network, details });
    if (isGuid(n.id)) node.guid = n.id;
    if (n.managementIp && isApipa(n.managementIp)) addFlag(node, 'apipa');
    if (n.fromTable) addFlag(node, 'partial');
    const sw = switchOfNetwork(ctx, n);
    if (sw) ctx.g.edge(sw, node.id, 'attach');
  }
}

/** The host-compartment adapter an uplink or host vNIC port stands for: by MAC, else by `vEthernet (<name>)`. */
function hostAdapterFor(ctx: TopoContext, mac: string | undefined, names: (string | undefined)[]): AdapterRef | undefined {
  const free = ctx.hostAdapters.filter((r) => !ctx.usedAdapters.has(r.key));
  const m = mac?.toUpperCase();
  const byMac = m ? free.find((r) => r.adapter.mac === m) : undefined;
  if (byMac) return byMac;
  for (const nm of names) {
    if (!nm) continue;
    const want = [`vethernet (${nm.toLowerCase()})`, nm.toLowerCase()];
    const hit = free.find((r) => want.includes(r.adapter.name.toLowerCase()));
    if (hit) return hit;
  }
  return undefined;
}

function portLine(p: VfpPortRef): string {
  const rules = p.policy ? ` · ${plural(p.policy.rules, 'rule')}` : '';
  return `VFP port ${shortGuid(p.name)}${isGuid(p.name) ? '…' : ''}${rules}`;
}

function adapterDetails(node: TopoNode, r: AdapterRef): void {
  node.details.push(...adapterIps(r.adapter));
  if (r.adapter.gateways.length) node.details.push(`gw ${r.adapter.gateways.join(', ')}`);
  if (r.adapter.mac && !node.details.includes(`MAC ${r.adapter.mac}`)) node.details.push(`MAC ${r.adapter.mac}`);
  for (const v of r.adapter.ipv4) if (v.apipa) addFlag(node, 'apipa');
}

/** The node IP: the host adapter carrying the default route, else a network's management IP. */
export function nodeIp(ctx: TopoContext): string | undefined {
  for (const r of ctx.hostAdapters) {
    const first = r.adapter.ipv4[0];
    if (r.adapter.gateways.some((gw) => gw && gw !== '0.0.0.0') && first) return first.address;
  }
  return (ctx.m.networks ?? []).map((n) => n.managementIp).find((ip) => ip && !isApipa(ip));
}

export function addUplinksAndHostVnics(ctx: TopoContext): void {
  const { g } = ctx;
  const networks = ctx.m.networks ?? [];
  const ports = ctx.m.ports ?? [];
  const ip = nodeIp(ctx);

  // Uplinks: the ExternalPort of each switch.
  for (const p of ports.filter((x) => x.role === 'external')) {
    const sw = ctx.switchOfPort.get(p.key);
    const owners = networks.filter((n) => n.externalPortGuid?.toLowerCase() === p.key);
    const sameSwitch = owners.length ? owners : networks.filter((n) => n.networkAdapterName && sw && switchOfNetwork(ctx, n) === sw);
    const adapterName = sameSwitch.map((n) => n.networkAdapterName).find(Boolean) ?? p.switchPort?.nicFriendlyName;
    const ref = { type: 'port' as const, id: p.key };
    const node = g.node({ id: idOf(ref), kind: 'uplink', label: adapterName || p.friendlyName || shortGuid(p.name), ref, rank: RANK.uplink, details: ['external NIC (uplink)'] });
    if (isGuid(p.name)) node.guid = p.name;
    if (ip) node.details.push(`node IP ${ip}`);
    const kn = k8sNames(ctx.m).thisNode?.name;
    if (kn) node.details.push(`node ${kn}`);
    if (p.mac) node.details.push(`MAC ${p.mac}`);
    node.details.push(portLine(p));
    if (p.policy?.blocked) addFlag(node, 'blocked');
    if (sw) g.edge(node.id, sw, 'uplink');
    else for (const n of sameSwitch) g.edge(node.id, idOf({ type: 'network', id: n.id.toLowerCase() }), 'uplink');
  }

  // Host vNICs: the `Container NIC …` ports, with their `vEthernet (…)` adapter in the host compartment.
  for (const p of ports.filter((x) => x.role === 'host-vnic')) {
    const owners = networks.filter((n) => n.hostVnicPortGuid?.toLowerCase() === p.key);
    const r = hostAdapterFor(ctx, p.mac, owners.map((n) => n.networkAdapterName));
    if (r) ctx.usedAdapters.add(r.key);
    const ref = { type: 'port' as const, id: p.key };
    const node = g.node({ id: idOf(ref), kind: 'host-vnic', label: r?.adapter.name || p.friendlyName || shortGuid(p.name), ref, rank: RANK.host, details: ['host vNIC'] });
    if (isGuid(p.name)) node.guid = p.name;
    if (r) {
      adapterDetails(node, r);
      addCopy(node, 'adapter', r.adapter.name);
    } else if (p.mac) node.details.push(`MAC ${p.mac}`);
    if (p.friendlyName && p.friendlyName !== node.label) node.details.push(p.friendlyName);
    node.details.push(portLine(p));
    addCopy(node, 'VFP port', p.name);
    if (p.policy?.blocked) addFlag(node, 'blocked');
    attachHostVnic(ctx, node.id, owners, ctx.switchOfPort.get(p.key));
  }

  // Networks without a host vNIC port in the bundle (nat, or ports.txt missing): `vEthernet (<network>)`.
  for (const n of networks) {
    const netId = idOf({ type: 'network', id: n.id.toLowerCase() });
    const hasVnic = g.edges.some((e) => e.source === netId && g.get(e.target)?.kind === 'host-vnic');
    if (hasVnic) continue;
    const r = hostAdapterFor(ctx, undefined, [n.name, n.networkAdapterName]);
    if (!r) continue;
    ctx.usedAdapters.add(r.key);
    const node = hostAdapterNode(ctx, r);
    g.edge(netId, node.id, 'attach');
  }

  // Networks bound to an adapter the bundle has no ExternalPort for: the adapter by name.
  for (const n of networks) {
    if (!n.networkAdapterName) continue;
    const netId = idOf({ type: 'network', id: n.id.toLowerCase() });
    const sw = switchOfNetwork(ctx, n);
    const hasUplink = g.edges.some((e) => e.kind === 'uplink' && (e.target === netId || (sw && e.target === sw)));
    if (hasUplink) continue;
    // The same NIC already shown from its ExternalPort (the network's switch is just not known).
    const same = g.nodes.find((x) => x.kind === 'uplink' && x.label.toLowerCase() === n.networkAdapterName!.toLowerCase());
    const node = same ?? g.node({ id: `uplink:${n.networkAdapterName.toLowerCase()}`, kind: 'uplink', label: n.networkAdapterName, rank: RANK.uplink, details: ['external NIC (uplink)'] });
    if (ip && !node.details.includes(`node IP ${ip}`)) node.details.push(`node IP ${ip}`);
    g.edge(node.id, sw ?? netId, 'uplink');
  }
}

function attachHostVnic(ctx: TopoContext, nodeId: string, owners: HnsNetwork[], sw: string | undefined): void {
  let nets = owners;
  if (!nets.length && sw) {
    // The one non-NAT network on the vNIC's switch.
    const onSwitch = (ctx.m.networks ?? []).filter((n) => n.type !== 'nat' && switchOfNetwork(ctx, n) === sw);
    if (onSwitch.length === 1) nets = onSwitch;
  }
  if (nets.length) for (const n of nets) ctx.g.edge(idOf({ type: 'network', id: n.id.toLowerCase() }), nodeId, 'attach');
  else if (sw) ctx.g.edge(sw, nodeId, 'attach');
}

function hostAdapterNode(ctx: TopoContext, r: AdapterRef): TopoNode {
  const ref = { type: 'adapter' as const, id: r.key };
  const node = ctx.g.node({ id: idOf(ref), kind: 'host-vnic', label: r.adapter.name, ref, rank: RANK.host, details: [r.adapter.description ?? 'host adapter'] });
  adapterDetails(node, r);
  return node;
}

/**
 * Host-compartment adapters nothing else showed: the default-route adapter becomes the uplink when the
 * bundle has none (ipconfig alone), other adapters with an address become host vNICs (vEthernet) or
 * uplinks (physical NICs not bound to a switch).
 */
export function addLeftoverHostAdapters(ctx: TopoContext): void {
  const { g } = ctx;
  const free = ctx.hostAdapters.filter((r) => !ctx.usedAdapters.has(r.key) && (r.adapter.ipv4.length > 0 || r.adapter.ipv6.length > 0) && !r.adapter.mediaDisconnected);
  const hasUplink = g.nodes.some((n) => n.kind === 'uplink');
  const gwAdapter = hasUplink ? undefined : free.find((r) => r.adapter.gateways.some((x) => x && x !== '0.0.0.0'));
  for (const r of free) {
    ctx.usedAdapters.add(r.key);
    const isVirtual = /^vethernet\b/i.test(r.adapter.name) || /hyper-v virtual/i.test(r.adapter.description ?? '');
    if (r === gwAdapter || !isVirtual) {
      if (/loopback|isatap|teredo/i.test(`${r.adapter.name} ${r.adapter.description ?? ''}`)) continue;
      const ref = { type: 'adapter' as const, id: r.key };
      const node = g.node({ id: idOf(ref), kind: 'uplink', label: r.adapter.name, ref, rank: RANK.uplink, details: [r === gwAdapter ? 'adapter with the default route' : (r.adapter.description ?? 'adapter')] });
      adapterDetails(node, r);
      for (const sw of g.nodes.filter((x) => x.kind === 'vswitch')) if (r === gwAdapter) g.edge(node.id, sw.id, 'uplink');
    } else hostAdapterNode(ctx, r);
  }
}

