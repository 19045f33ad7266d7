// The packet walk: from the source (a pod's compartment, the host, or the wire) through its VFP
// port's OUT groups, the vSwitch, and then either the destination port's IN groups (delivered) or
// the node's routing table and the uplink (forwarded). Every hop cites its line; every assumption is
// marked inferred with its reason; a missing file makes the verdict "unknown", never a guess.
import type { NodeModel, VfpPortRef } from '../../parsers/model/types.ts';
import type { HnsEndpoint } from '../../parsers/hns/index.ts';
import type { Flow, Packet, WalkHop, WalkResult, Verdict } from './types.ts';
import { walkContext, lookupRoute, lbKey, type WalkContext } from './context.ts';
import { walkPort, type WalkOptions } from './walk-port.ts';
import { ipToInt, maskBits, parseCidr } from './ip.ts';
import { returnPath } from './return-path.ts';
import { k8sNames } from '../k8s/index.ts';

const EPHEMERAL = 49152;
const PROTO_NUM = { tcp: 6, udp: 17, icmp: 1 } as const;
const short = (g: string) => (/^[0-9a-f]{8}-/i.test(g) ? `${g.slice(0, 8)}…` : g);
/** Container-ID endpoint names (64 hex digits + _network) are shortened the way docker/ctr print IDs. */
const shortName = (n: string) => {
  const m = /^([0-9a-f]{12})[0-9a-f]{40,}(_.*)?$/i.exec(n);
  return m ? `${m[1]}…${m[2] ?? ''}` : short(n);
};

class Walk {
  hops: WalkHop[] = [];
  flow!: Flow;
  path: string[] = [];
  verdict: Verdict = 'unknown';
  reason = '';
  deciding = -1;
  egress: WalkResult['egress'] = {};
  constructor(
    readonly ctx: WalkContext,
    public packet: Packet,
  ) {}

  add(h: WalkHop): number {
    this.hops.push(h);
    // The path lists each object once, where the packet first reaches it (a pod's own port hops
    // name the pod again; that is not a second visit).
    for (const n of h.nodes ?? []) if (!this.path.includes(n)) this.path.push(n);
    return this.hops.length - 1;
  }

  end(verdict: Verdict, reason: string, deciding = this.hops.length - 1): void {
    this.verdict = verdict;
    this.reason = reason;
    this.deciding = deciding;
  }
}

export function walkFlow(m: NodeModel, flow: Flow, opts: WalkOptions = {}): WalkResult {
  const ctx = walkContext(m);
  const srcPort = flow.proto === 'icmp' ? undefined : (flow.srcPort ?? EPHEMERAL);
  const w = new Walk(ctx, { srcIp: flow.srcIp, dstIp: flow.dstIp, srcPort, dstPort: flow.proto === 'icmp' ? undefined : flow.dstPort, proto: flow.proto });
  w.flow = flow;
  try {
    run(w, flow, opts);
  } catch (e) {
    w.end('unknown', `internal error while tracing: ${e instanceof Error ? e.message : String(e)}`);
  }
  const p = w.packet;
  const result: WalkResult = {
    flow,
    verdict: w.verdict,
    reason: w.reason,
    hops: w.hops,
    deciding: w.deciding,
    final: { srcIp: p.srcIp, dstIp: p.dstIp, srcPort: p.srcPort, dstPort: p.dstPort, proto: p.proto },
    egress: w.egress,
    path: w.path,
  };
  result.returnPath = returnPath(result);
  return result;
}

function run(w: Walk, flow: Flow, opts: WalkOptions): void {
  const { ctx } = w;
  const m = ctx.model;
  if (ipToInt(flow.srcIp) === undefined || ipToInt(flow.dstIp) === undefined) {
    w.end('unknown', 'only IPv4 flows are traced (source and destination must be IPv4 addresses)');
    return;
  }
  if (!m.endpoints && !m.vfp) {
    w.end('unknown', 'the bundle has neither HNS endpoints (endpoint.txt) nor VFP rules (vfpOutput.txt): there is nothing to walk');
    return;
  }
  const ephemeralNote = flow.srcPort === undefined && flow.proto !== 'icmp' ? `source port ${EPHEMERAL} assumed (ephemeral)` : undefined;

  // --- source ---------------------------------------------------------------------------------
  const srcEp = ctx.local.get(flow.srcIp);
  let srcPolicyPort: VfpPortRef | undefined;
  let label: string;
  if (srcEp) {
    w.packet.srcMac = srcEp.mac;
    const pod = k8sNames(m).podLabel(flow.srcIp);
    label = `pod ${flow.srcIp}`;
    const portRef = ctx.portOf.get(srcEp.id);
    w.add({
      at: `${label} (${pod ?? (srcEp.name ? shortName(srcEp.name) : short(srcEp.id))})`,
      kind: 'source',
      action: 'send',
      evidence: srcEp.src,
      note: [ctx.duplicates.has(flow.srcIp) ? `${flow.srcIp} belongs to more than one endpoint; the first in endpoint.txt is used` : undefined, ephemeralNote].filter(Boolean).join('; ') || undefined,
      after: { ...w.packet },
      nodes: [`endpoint:${srcEp.id}`],
    });
    compartmentHop(w, srcEp, flow.dstIp);
    srcPolicyPort = portRef;
    if (!walkSourcePort(w, srcPolicyPort, label, `endpoint ${short(srcEp.id)}`, opts, `endpoint:${srcEp.id}`)) return;
  } else if (ctx.hostIps.has(flow.srcIp)) {
    label = `host ${flow.srcIp}`;
    w.add({ at: `${label} (host compartment)`, kind: 'source', action: 'send', note: ephemeralNote, after: { ...w.packet }, nodes: ctx.hostPort ? [`port:${ctx.hostPort.key}`] : [] });
    if (ctx.hostPort?.policy) {
      if (!walkSourcePort(w, ctx.hostPort, `host vNIC ${ctx.hostPort.friendlyName ?? short(ctx.hostPort.name)}`, 'the host vNIC', opts)) return;
    } else {
      w.add({ at: 'host vNIC', kind: 'note', action: 'pass', inferred: true, note: 'the bundle has no VFP rules for the host vNIC port; the packet is assumed to reach the vSwitch unchanged' });
    }
  } else {
    const remote = ctx.remote.get(flow.srcIp);
    label = `${flow.srcIp}`;
    w.add({
      at: remote ? `remote pod ${flow.srcIp} (on another node${remote.providerAddress ? `, PA ${remote.providerAddress}` : ''})` : `${flow.srcIp} outside the node`,
      kind: 'source',
      action: 'arrive on the uplink',
      inferred: !remote,
      note: [remote ? undefined : `${flow.srcIp} is no endpoint and no address of this node: it is taken to arrive from the network on the uplink`, ephemeralNote].filter(Boolean).join('; ') || undefined,
      evidence: remote?.src,
      after: { ...w.packet },
      nodes: ctx.extPort ? [`port:${ctx.extPort.key}`] : [],
    });
    if (ctx.extPort?.policy) {
      if (!walkSourcePort(w, ctx.extPort, `uplink ${ctx.extPort.friendlyName ?? short(ctx.extPort.name)}`, 'the uplink', opts)) return;
    }
  }

  // --- forwarding ------------------------------------------------------------------------------
  forward(w, srcPolicyPort, opts);
}

function compartmentHop(w: Walk, ep: HnsEndpoint, dstIp: string): void {
  const a = w.ctx.adapterOf.get(ep.id);
  if (!a) {
    w.add({
      at: `compartment of ${ep.ip}`,
      kind: 'compartment',
      action: 'route',
      inferred: true,
      note: w.ctx.model.ip
        ? `endpoint ${short(ep.id)} has no adapter in any compartment of ip.txt (a pod whose vNIC never arrived?): its routing cannot be checked; the walk continues at its VFP port`
        : 'ip.txt is missing: the pod compartment\'s routing cannot be checked; the walk continues at its VFP port',
    });
    return;
  }
  const addr = a.adapter.ipv4.find((x) => x.address === ep.ip) ?? a.adapter.ipv4[0];
  const bits = addr?.prefixLength ?? maskBits(addr?.mask);
  const mine = ipToInt(addr?.address);
  const dst = ipToInt(dstIp);
  const gw = a.adapter.gateways.find((g) => ipToInt(g) !== undefined);
  let onLink = false;
  if (bits !== undefined && mine !== undefined && dst !== undefined) {
    const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
    onLink = ((mine & mask) >>> 0) === ((dst & mask) >>> 0);
  }
  w.add({
    at: `compartment ${a.compartment.id}, ${a.adapter.name}`,
    kind: 'compartment',
    action: onLink ? 'on-link' : gw ? `via gateway ${gw}` : 'no gateway',
    evidence: a.adapter.src,
    note: onLink ? `${dstIp} is in the adapter's subnet${bits !== undefined ? ` /${bits}` : ''}: sent straight to it` : gw ? `default gateway ${gw}` : 'the adapter has no default gateway: only its own subnet is reachable',
    nodes: [`compartment:${a.compartment.id}`],
  });
}

/** Walks the source port OUT; false when the walk ended (dropped or unknown). */
function walkSourcePort(w: Walk, port: VfpPortRef | undefined, label: string, owner: string, opts: WalkOptions, ownerNode?: string): boolean {
  const m = w.ctx.model;
  if (!m.vfp) {
    w.end('unknown', 'vfpOutput.txt is missing: the VFP rules that decide this packet are not in the bundle');
    return false;
  }
  if (!port) {
    w.end('unknown', `${owner} has no VFP port in the bundle (ports.txt / vfpOutput.txt): its rules cannot be walked`);
    return false;
  }
  const policy = port.policy ? m.vfp.getPolicy(port.key) : undefined;
  if (!policy) {
    w.end('unknown', `no rules of VFP port ${port.name} (${owner}) were dumped in vfpOutput.txt`);
    return false;
  }
  if (policy.blocked) {
    const i = w.add({ at: `${label} OUT`, kind: 'drop', port: port.name, action: 'drop', evidence: port.policy?.src, note: 'the port is blocked (get-port-state Blocked : TRUE)', nodes: [`port:${port.key}`] });
    w.end('dropped', `VFP port ${port.name} of ${owner} is blocked`, i);
    return false;
  }
  const r = walkPort(policy, label, 'OUT', w.packet, { flow: w.flow, nodeIp: w.ctx.nodeIp }, opts);
  for (const h of r.hops) w.add({ ...h, nodes: hopNodes(w, h, ownerNode ?? `port:${port.key}`) });
  w.packet = r.packet;
  if (r.droppedAt !== undefined) {
    w.end('dropped', r.reason ?? 'dropped', w.hops.length - r.hops.length + r.droppedAt);
    return false;
  }
  return true;
}

/**
 * The graph nodes a hop on a port lights: the port's owner (a pod's port is drawn as its endpoint);
 * for a DNAT, the load balancer and the backend it chose.
 */
function hopNodes(w: Walk, h: WalkHop, owner: string | undefined): string[] | undefined {
  const nodes = owner ? [owner] : [];
  if (h.action === 'DNAT' && h.before && h.after) {
    const b = h.before;
    const lb = w.ctx.lbs.get(lbKey(b.dstIp, b.dstPort, PROTO_NUM[b.proto]));
    if (lb) nodes.push(`loadbalancer:${lb.id}`);
    const dip = w.ctx.local.get(h.after.dstIp) ?? w.ctx.remote.get(h.after.dstIp);
    if (dip) nodes.push(`endpoint:${dip.id}`);
  }
  return nodes.length ? nodes : undefined;
}

function forward(w: Walk, srcPort: VfpPortRef | undefined, opts: WalkOptions): void {
  const { ctx } = w;
  const p = w.packet;

  if (p.encap) {
    const route = lookupRoute(ctx, p.encap.dstIp);
    const i = w.add({
      at: 'uplink',
      kind: 'uplink',
      action: `${p.encap.type} encap`,
      rewrite: { encap: { type: p.encap.type, dstIp: p.encap.dstIp, vni: p.encap.vni } },
      evidence: route?.route.src,
      note: `outer packet ${p.encap.srcIp ?? ctx.nodeIp ?? '?'} → ${p.encap.dstIp}${p.encap.vni !== undefined ? `, VNI ${p.encap.vni}` : ''}; inner ${p.srcIp} → ${p.dstIp}`,
      nodes: [...(ctx.extPort ? [`port:${ctx.extPort.key}`] : []), `next-hop:${p.encap.dstIp}`],
    });
    w.egress = { encapDst: p.encap.dstIp, nextHop: route && !route.route.onLink ? route.route.gateway : p.encap.dstIp, interface: route?.route.interface };
    const remote = ctx.remote.get(p.dstIp);
    // The encap rule decided where the packet goes; the uplink only carries it out.
    let encapHop = i - 1;
    while (encapHop > 0 && !w.hops[encapHop].rewrite?.encap) encapHop--;
    w.end('forwarded', `encapsulated (${p.encap.type}${p.encap.vni !== undefined ? ` VNI ${p.encap.vni}` : ''}) to the provider address ${p.encap.dstIp}${remote ? ` where pod ${p.dstIp} lives` : ''}`, encapHop > 0 && encapHop !== i ? encapHop : i);
    return;
  }

  const dstEp = ctx.local.get(p.dstIp);
  if (dstEp && dstEp !== undefined) {
    const port = ctx.portOf.get(dstEp.id);
    w.add({ at: 'vSwitch', kind: 'vswitch', action: 'switch', note: `${p.dstIp} is local endpoint ${short(dstEp.id)}${port ? ` on port ${short(port.name)}` : ''}`, nodes: [] });
    const dstPod = k8sNames(ctx.model).podLabel(p.dstIp);
    deliverTo(w, port, `pod ${p.dstIp}${dstPod ? ` (${dstPod})` : ''}`, `endpoint:${dstEp.id}`, dstEp, opts);
    return;
  }

  if (ctx.hostIps.has(p.dstIp)) {
    w.add({ at: 'vSwitch', kind: 'vswitch', action: 'switch', note: `${p.dstIp} is an address of this node: to the host vNIC` });
    deliverTo(w, ctx.hostPort, `host ${p.dstIp}`, ctx.hostPort ? `port:${ctx.hostPort.key}` : undefined, undefined, opts);
    return;
  }

  // Leaves the node. A service VIP still in the destination means nothing translated it.
  const proto = PROTO_NUM[p.proto];
  const lb = ctx.lbs.get(lbKey(p.dstIp, p.dstPort, proto));
  if (lb || (ctx.vips.has(p.dstIp) && srcPort)) {
    const what = `${p.dstIp}${p.dstPort !== undefined ? `:${p.dstPort}` : ''}/${p.proto.toUpperCase()}`;
    const i = w.add({
      at: 'vSwitch',
      kind: 'drop',
      action: 'no load-balancing rule',
      inferred: true,
      evidence: lb?.src,
      note: lb
        ? `HNS has load balancer ${short(lb.id)} for ${what}, but no VFP rule on the source port translated it (HNS and VFP disagree)`
        : `${p.dstIp} is a service VIP, but no load balancer or VFP rule covers port ${p.dstPort ?? '-'}/${p.proto.toUpperCase()}`,
      nodes: lb ? [`loadbalancer:${lb.id}`] : [],
    });
    w.end('dropped', `no VFP rule load-balances ${what} on the source port: a ClusterIP is not routable, so the untranslated packet is lost`, i);
    return;
  }

  if (!ctx.routes) {
    w.add({ at: 'host routing', kind: 'host-route', action: 'unknown', inferred: true, note: 'routes.txt is missing: the next hop cannot be read' });
    w.end('unknown', `${p.dstIp} is not on this node and routes.txt is missing, so the next hop is unknown`);
    return;
  }
  const route = lookupRoute(ctx, p.dstIp);
  if (!route) {
    const i = w.add({ at: 'host routing', kind: 'host-route', action: 'no route', note: `no route in the node's table covers ${p.dstIp} (and there is no default route)` });
    w.end('dropped', `no route to ${p.dstIp} in routes.txt`, i);
    return;
  }
  const r = route.route;
  const remote = ctx.remote.get(p.dstIp);
  const nextHop = r.onLink ? p.dstIp : r.gateway;
  // Overlay pods are reachable only inside VXLAN: a pod address leaving bare is lost in the underlay.
  if (ctx.podNetwork?.type === 'overlay') {
    const n = ipToInt(p.dstIp)!;
    const rsr = ctx.podNetwork.remoteSubnetRoutes.find((x) => {
      const c = parseCidr(x.destinationPrefix);
      return c && n >= c.lo && n <= c.hi;
    });
    // Only HNS's own remote subnets say an address is a pod behind VXLAN; other remote endpoints
    // (the API server, node addresses) are reached through the underlay.
    if (rsr) {
      const i = w.add({
        at: 'vSwitch',
        kind: 'drop',
        action: 'no encap',
        inferred: true,
        evidence: ctx.podNetwork.src,
        note: `HNS has RemoteSubnetRoute ${rsr.destinationPrefix} → PA ${rsr.providerAddress}, but no REMOTESUBNETROUTE rule on the source port encapsulated the packet (HNS and VFP disagree)`,
        nodes: [`next-hop:${rsr.providerAddress}`],
      });
      w.end('dropped', `no REMOTESUBNETROUTE rule encapsulates ${p.dstIp} (pod subnet ${rsr.destinationPrefix} on ${rsr.providerAddress}): on an overlay network the pod packet would leave unencapsulated via ${r.onLink ? r.interface : r.gateway} and be lost`, i);
      return;
    }
  }
  const routeHop = w.add({
    at: 'host routing',
    kind: 'host-route',
    action: r.onLink ? 'on-link' : `via ${r.gateway}`,
    evidence: r.src,
    note: `route ${r.destination}/${route.bits} ${r.onLink ? 'on-link' : `via ${r.gateway}`} on interface ${r.interface ?? '?'} metric ${r.metricText}${remote ? `; ${p.dstIp} is a pod on another node (remote endpoint ${short(remote.id)})` : ''}${route.bits === 0 && isClusterAddress(ctx, p.dstIp) ? '; only the default route covers this pod address: the route for its node\'s pod subnet is missing' : ''}`,
    nodes: [`next-hop:${nextHop}`],
  });
  if (ctx.extPort?.policy && ctx.model.vfp) {
    const policy = ctx.model.vfp.getPolicy(ctx.extPort.key);
    if (policy) {
      const res = walkPort(policy, `uplink ${ctx.extPort.friendlyName ?? short(ctx.extPort.name)}`, 'IN', w.packet, { flow: w.flow, nodeIp: ctx.nodeIp }, opts);
      for (const h of res.hops) w.add({ ...h, nodes: [`port:${ctx.extPort.key}`] });
      w.packet = res.packet;
      if (res.droppedAt !== undefined) {
        w.end('dropped', res.reason ?? 'dropped on the uplink', w.hops.length - res.hops.length + res.droppedAt);
        return;
      }
    }
  }
  w.add({ at: 'uplink', kind: 'uplink', action: 'send', note: `leaves the node towards ${nextHop}`, nodes: ctx.extPort ? [`port:${ctx.extPort.key}`] : [] });
  w.egress = { nextHop, interface: r.interface };
  // The route chose the next hop: it decides a forwarded packet.
  const deciding = routeHop;
  w.end('forwarded', `leaves the node via ${r.onLink ? `the on-link network of ${r.interface}` : `next hop ${r.gateway}`}${w.packet.srcIp !== w.hops[0]?.after?.srcIp ? ` with source ${w.packet.srcIp} (SNAT)` : ''}`, deciding);
}

function isClusterAddress(ctx: WalkContext, ip: string): boolean {
  return ctx.remote.has(ip) || ctx.local.has(ip);
}

function deliverTo(w: Walk, port: VfpPortRef | undefined, label: string, node: string | undefined, ep: HnsEndpoint | undefined, opts: WalkOptions): void {
  const m = w.ctx.model;
  const nodes = [...(port ? [`port:${port.key}`] : []), ...(node ? [node] : [])];
  if (!port || !m.vfp || !port.policy) {
    const i = w.add({ at: label, kind: 'deliver', action: 'deliver', inferred: true, note: !m.vfp ? 'vfpOutput.txt is missing: the destination port\'s IN rules are not in the bundle' : `the destination's VFP port has no rules in the bundle; delivery is assumed`, nodes });
    w.end('delivered', `reaches ${label} (the destination port's rules are not in the bundle)`, i);
    return;
  }
  const policy = m.vfp.getPolicy(port.key);
  if (!policy) {
    w.end('unknown', `the rules of port ${port.name} could not be read`);
    return;
  }
  if (policy.blocked) {
    const i = w.add({ at: `${label} IN`, kind: 'drop', port: port.name, action: 'drop', evidence: port.policy.src, note: 'the destination port is blocked (get-port-state Blocked : TRUE)', nodes });
    w.end('dropped', `VFP port ${port.name} of ${label} is blocked`, i);
    return;
  }
  const r = walkPort(policy, `port ${short(port.name)} (${label})`, 'IN', w.packet, { flow: w.flow, nodeIp: w.ctx.nodeIp }, opts);
  for (const h of r.hops) w.add({ ...h, nodes: [node ?? `port:${port.key}`] });
  w.packet = r.packet;
  if (r.droppedAt !== undefined) {
    w.end('dropped', r.reason ?? 'dropped', w.hops.length - r.hops.length + r.droppedAt);
    return;
  }
  const adapter = ep ? w.ctx.adapterOf.get(ep.id) : undefined;
  const i = w.add({ at: label, kind: 'deliver', action: 'deliver', evidence: adapter?.adapter.src ?? ep?.src, note: adapter ? `to ${adapter.adapter.name} in compartment ${adapter.compartment.id}` : undefined, nodes: node ? [node] : [] });
  // The last rule that let the packet in is what a reader wants named.
  let lastRule = i - 1;
  while (lastRule >= 0 && w.hops[lastRule].kind !== 'vfp') lastRule--;
  w.end('delivered', `delivered to ${label}`, lastRule >= 0 ? lastRule : i);
}
