// Ranks 5–7: remote endpoints (DIPs on other nodes), remote pod subnets and the next hops that reach
// them. Overlay: HNS RemoteSubnetRoute policies, encapsulated to the remote node's provider address.
// l2bridge: one `route print` route per remote pod subnet via the remote node's IP.
import type { HnsEndpoint } from '../../parsers/hns/types.ts';
import type { HnsNetwork } from '../../parsers/hns/types.ts';
import { isIpv4, parseCidr, type Cidr } from '../../parsers/net/ip.ts';
import type { TopoNode } from '../view-models/types.ts';
import { inCidr, type TopoContext } from './context.ts';
import { addFlag, idOf } from './graph.ts';
import { RANK } from './host.ts';
import { isGuid, plural, shortGuid, shortName } from './labels.ts';
import { k8sNames } from '../k8s/index.ts';

interface SubnetEntry {
  cidr: Cidr & { network: number };
  nodeId: string;
}

export interface RemoteState {
  /** Remote subnets, most specific first, for placing remote endpoints. */
  subnets: SubnetEntry[];
}

function nextHop(ctx: TopoContext, ip: string, role: string): TopoNode {
  const node = ctx.g.node({ id: `next-hop:${ip}`, kind: 'next-hop', label: ip, rank: RANK.nextHop, details: [role] });
  // A next hop or provider address that is a cluster node carries the node's name (kubectl Node objects).
  const kn = k8sNames(ctx.m).nodeLabel(ip);
  if (kn && !node.details.includes(`node ${kn}`)) node.details.unshift(`node ${kn}`);
  if (ctx.localIps.has(ip)) {
    addFlag(node, 'local');
    if (!node.details.includes('this node')) node.details.push('this node');
  }
  return node;
}

function subnetNode(ctx: TopoContext, prefix: string, detail: string[]): TopoNode {
  const ref = { type: 'remote-subnet' as const, id: prefix };
  return ctx.g.node({ id: idOf(ref), kind: 'remote-subnet', label: prefix, ref, rank: RANK.remoteSubnet, details: detail });
}

const netNodeId = (n: HnsNetwork): string => idOf({ type: 'network', id: n.id.toLowerCase() });

/** The cluster pod CIDR(s) around each local pod subnet: the OutboundNAT exception that holds it, else its /16. */
function clusterCidrs(ctx: TopoContext): { cidr: Cidr & { network: number }; local: (Cidr & { network: number })[]; network: HnsNetwork }[] {
  const exceptions: (Cidr & { network: number })[] = [];
  const seen = new Set<string>();
  for (const ep of ctx.m.endpoints ?? []) {
    if (ep.isRemote) continue;
    for (const o of ep.outboundNat) {
      for (const e of o.exceptions) {
        if (seen.has(e)) continue;
        seen.add(e);
        const c = parseCidr(e);
        if (c?.network !== undefined && c.prefixLength >= 8) exceptions.push(c as Cidr & { network: number });
      }
    }
  }
  const out: ReturnType<typeof clusterCidrs> = [];
  for (const n of ctx.m.networks ?? []) {
    if (n.type === 'nat' || n.type === 'ics') continue;
    for (const s of n.subnets) {
      const local = parseCidr(s.prefix);
      if (local?.network === undefined || local.prefixLength < 8) continue;
      const l = local as Cidr & { network: number };
      const holding = exceptions
        .filter((e) => e.prefixLength <= l.prefixLength && inCidr(l.network, e.network, e.prefixLength))
        .sort((a, b) => b.prefixLength - a.prefixLength)[0];
      const cidr = holding ?? (l.prefixLength > 16 ? (parseCidr(`${s.prefix.split('/')[0]}/16`) as Cidr & { network: number }) : l);
      const same = out.find((x) => x.cidr.network === cidr.network && x.cidr.prefixLength === cidr.prefixLength);
      if (same) same.local.push(l);
      else out.push({ cidr, local: [l], network: n });
    }
  }
  return out;
}

interface RouteRow {
  prefix: string;
  cidr: Cidr & { network: number };
  gateway: string;
  metric?: number;
  line: number;
  file: string;
}

function ipv4Routes(ctx: TopoContext): RouteRow[] {
  const r = ctx.m.routes;
  if (!r) return [];
  const rows: RouteRow[] = [];
  if (r.ipv4Active.length) {
    for (const x of r.ipv4Active) {
      if (x.onLink || x.prefixLength === undefined || !isIpv4(x.gateway)) continue;
      const prefix = `${x.destination}/${x.prefixLength}`;
      const c = parseCidr(prefix);
      if (c?.network !== undefined) rows.push({ prefix, cidr: c as Cidr & { network: number }, gateway: x.gateway, metric: x.metric, line: x.src.line, file: x.src.file });
    }
  } else {
    for (const x of r.netRoutes) {
      if (!isIpv4(x.nextHop) || x.nextHop === '0.0.0.0') continue;
      const c = parseCidr(x.destinationPrefix);
      if (c?.network !== undefined && c.family === 'ipv4') rows.push({ prefix: x.destinationPrefix, cidr: c as Cidr & { network: number }, gateway: x.nextHop, metric: x.routeMetric, line: x.src.line, file: x.src.file });
    }
  }
  return rows.filter((x) => x.cidr.prefixLength > 0 && x.cidr.prefixLength < 32 && !ctx.localIps.has(x.gateway));
}

export function addRemoteSubnets(ctx: TopoContext): RemoteState {
  const { g } = ctx;
  const subnets = new Map<string, SubnetEntry>();
  const remember = (prefix: string, nodeId: string): void => {
    const c = parseCidr(prefix);
    if (c?.network !== undefined && !subnets.has(nodeId)) subnets.set(nodeId, { cidr: c as Cidr & { network: number }, nodeId });
  };

  // Overlay: the network's RemoteSubnetRoute policies (what REMOTESUBNETROUTE VFP rules are made from).
  for (const n of ctx.m.networks ?? []) {
    for (const r of n.remoteSubnetRoutes) {
      if (!r.destinationPrefix) continue;
      const vni = r.isolationId ?? n.subnets.find((s) => s.vsid !== undefined)?.vsid;
      const sub = subnetNode(ctx, r.destinationPrefix, ['remote pod subnet (RemoteSubnetRoute)']);
      if (r.providerAddress) sub.details.push(`PA ${r.providerAddress}`);
      if (r.drMac) sub.details.push(`DR MAC ${r.drMac}`);
      remember(r.destinationPrefix, sub.id);
      g.edge(netNodeId(n), sub.id, 'route');
      if (r.providerAddress) {
        const hop = nextHop(ctx, r.providerAddress, 'remote node (provider address)');
        if (r.drMac && !hop.details.includes(`DR MAC ${r.drMac}`)) hop.details.push(`DR MAC ${r.drMac}`);
        g.edge(sub.id, hop.id, 'encap', { label: vni !== undefined ? `VXLAN VNI ${vni}` : 'VXLAN' });
      }
    }
  }

  // l2bridge (and any network): routes to a pod subnet of the cluster via another node.
  const clusters = clusterCidrs(ctx);
  const uplink = g.nodes.find((x) => x.kind === 'uplink');
  for (const r of ipv4Routes(ctx)) {
    let source: string | undefined;
    if (clusters.length) {
      const cl = clusters.find((c) => c.cidr.prefixLength <= r.cidr.prefixLength && inCidr(r.cidr.network, c.cidr.network, c.cidr.prefixLength));
      if (!cl) continue;
      // The local pod subnet itself (or a route covering it) is not a remote subnet.
      if (cl.local.some((l) => inCidr(r.cidr.network, l.network, l.prefixLength) || inCidr(l.network, r.cidr.network, r.cidr.prefixLength))) continue;
      source = netNodeId(cl.network);
    } else {
      // No HNS network to say what the cluster is: every gatewayed route below /8 is shown, from the uplink.
      if (r.cidr.prefixLength < 8 || r.cidr.network >= 0xe0000000) continue;
      source = uplink?.id;
    }
    const sub = subnetNode(ctx, r.prefix, ['remote pod subnet (route)']);
    const via = `route via ${r.gateway}${r.metric !== undefined ? ` metric ${r.metric}` : ''}`;
    if (!sub.details.includes(via)) sub.details.push(via);
    remember(r.prefix, sub.id);
    if (source) g.edge(source, sub.id, 'route');
    const hop = nextHop(ctx, r.gateway, 'remote node (route gateway)');
    g.edge(sub.id, hop.id, 'route', { label: `via ${r.gateway}` });
  }

  return { subnets: [...subnets.values()].sort((a, b) => b.cidr.prefixLength - a.cidr.prefixLength) };
}

export function addRemoteEndpoints(ctx: TopoContext, state: RemoteState): void {
  const perHop = new Map<string, number>();
  for (const ep of ctx.m.endpoints ?? []) {
    if (!ep.isRemote) continue;
    const node = remoteEndpointNode(ctx, ep);
    const addr = ep.ip ? parseCidr(ep.ip) : null;
    const sub = addr?.network !== undefined ? state.subnets.find((s) => inCidr(addr.network!, s.cidr.network, s.cidr.prefixLength)) : undefined;
    if (sub) {
      ctx.g.edge(node.id, sub.nodeId, 'member');
      perHop.set(sub.nodeId, (perHop.get(sub.nodeId) ?? 0) + 1);
      continue;
    }
    const pa = ep.providerAddress;
    if (pa && !ctx.localIps.has(pa) && pa !== ep.ip) {
      const hop = nextHop(ctx, pa, 'remote node (provider address)');
      ctx.g.edge(node.id, hop.id, 'encap', { label: 'VXLAN' });
      perHop.set(hop.id, (perHop.get(hop.id) ?? 0) + 1);
    }
  }
  for (const [id, n] of perHop) ctx.g.get(id)!.details.push(plural(n, 'remote endpoint'));
}

function remoteEndpointNode(ctx: TopoContext, ep: HnsEndpoint): TopoNode {
  const id = ep.id.toLowerCase();
  const ref = { type: 'endpoint' as const, id };
  const details: string[] = [];
  const pod = k8sNames(ctx.m).podLabel(ep.ip);
  if (pod) details.push(pod);
  if (ep.name) details.push(shortName(ep.name));
  if (ep.mac) details.push(`MAC ${ep.mac}`);
  if (ep.providerAddress) {
    const kn = k8sNames(ctx.m).nodeLabel(ep.providerAddress);
    details.push(`PA ${ep.providerAddress}${ctx.localIps.has(ep.providerAddress) ? ' (this node)' : kn ? ` (node ${kn})` : ''}`);
  }
  const onNode = k8sNames(ctx.m).podByIp(ep.ip)?.nodeName;
  if (pod && onNode) details.splice(details.indexOf(pod) + 1, 0, `on node ${onNode}`);
  if (ep.id) details.push(`ID ${shortGuid(ep.id)}${isGuid(ep.id) ? '…' : ''}`);
  const node = ctx.g.node({ id: idOf(ref), kind: 'remote-endpoint', label: ep.ip || ep.ipv6 || ep.name || shortGuid(ep.id), ref, rank: RANK.remoteEndpoint, details });
  if (isGuid(ep.id)) node.guid = ep.id;
  addFlag(node, 'remote');
  return node;
}
